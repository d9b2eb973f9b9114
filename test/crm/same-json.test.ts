/** sameJson (src/crm/person.ts) answers exactly as comparing the two JSON.stringify strings. */
import { describe, expect, it } from 'vitest';
import { sameJson } from '../../src/crm/person.js';

const values: unknown[] = [
  null, undefined, 0, -0, 1, 1.5, NaN, Infinity, '', '0', 'a', true, false, [], {}, [null], [undefined], [() => 1],
  { a: 1 }, { a: 1, b: undefined }, { b: undefined, a: 1 }, { a: 1, b: 2 }, { b: 2, a: 1 }, { a: null }, { a: undefined },
  { a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] }, { a: [1, { b: 'x', c: () => 0 }] }, { a: NaN }, { a: null, b: [Infinity] },
  { a: null, b: [null] }, [1, 2], [2, 1], { 1: 'x', a: 2 }, { a: 2, 1: 'x' }, { d: new Date(0) }, { d: '1970-01-01T00:00:00.000Z' },
];

describe('sameJson', () => {
  it('agrees with JSON.stringify equality on every pair', () => {
    for (const a of values) {
      for (const b of values) {
        expect([a, b, sameJson(a, b)]).toEqual([a, b, JSON.stringify(a) === JSON.stringify(b)]);
      }
    }
  });
});

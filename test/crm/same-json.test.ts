/** sameJson (src/crm/person.ts) answers exactly as comparing the two JSON.stringify strings. */
import { describe, expect, it } from 'vitest';
import { sameJson } from '../../src/crm/person.js';

const values: unknown[] = [
  null,
  undefined,
  0,
  -0,
  1,
  1.5,
  NaN,
  Infinity,
  '',
  '0',
  'a',
  true,
  false,
  [],
  {},
  [null],
  [undefined],
  [() => 1],
  { a: 1 },
  { a: 1, b: undefined },
  { b: undefined, a: 1 },
  { a: 1, b: 2 },
  { b: 2, a: 1 },
  { a: null },
  { a: undefined },
  { a: [1, { b: 'x' }] },
  { a: [1, { b: 'y' }] },
  { a: [1, { b: 'x', c: () => 0 }] },
  { a: NaN },
  { a: null, b: [Infinity] },
  { a: null, b: [null] },
  [1, 2],
  [2, 1],
  { 1: 'x', a: 2 },
  { a: 2, 1: 'x' },
  { d: new Date(0) },
  { d: '1970-01-01T00:00:00.000Z' },
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

describe('sameEngineInput', () => {
  it('is true only when every field the engine reads is identical', async () => {
    const { sameEngineInput } = await import('../../src/crm/stored-normalization.js');
    const a = {
      firstName: 'Ann',
      lastName: 'Lee',
      emails: ['a@b.org'],
      phones: [{ phoneNumber: '+12025550100', ext: null }],
      addresses: [{ addressLine1: '1 Main St', city: 'X' }],
      identifiers: [],
    };
    expect(sameEngineInput(a, { ...a, addresses: [{ addressLine1: '1 Main St', city: 'X', touched: 3 } as never] })).toBe(true);
    expect(sameEngineInput(a, { ...a, firstName: 'Anne' })).toBe(false);
    expect(sameEngineInput(a, { ...a, middleName: null })).toBe(false);
    expect(sameEngineInput(a, { ...a, emails: ['a@b.org', 'a@b.org'] })).toBe(false);
    expect(sameEngineInput(a, { ...a, phones: [{ phoneNumber: '+12025550100', ext: '1' }] })).toBe(false);
    expect(sameEngineInput(a, { ...a, addresses: [{ addressLine1: '1 Main St', city: 'Y' }] })).toBe(false);
    expect(sameEngineInput(a, { ...a, identifiers: [{ type: 'x', externalId: '1' }] })).toBe(false);
  });
});

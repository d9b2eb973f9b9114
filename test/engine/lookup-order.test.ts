import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortRowsByKeys } from '../../src/engine/lookup-order.js';

describe('sortRowsByKeys', () => {
  it('sorts rows by the three keys, then by row (the oracle: a comparison sort)', () => {
    const keys = fc.array(fc.tuple(fc.nat(5), fc.nat(20), fc.nat(300)), { maxLength: 400 });
    fc.assert(
      fc.property(keys, (rows) => {
        const major = Int32Array.from(rows.map((r) => r[0]));
        const middle = Int32Array.from(rows.map((r) => r[1]));
        const minor = Int32Array.from(rows.map((r) => r[2]));
        const expected = rows.map((_, i) => i).sort((a, b) => major[a]! - major[b]! || middle[a]! - middle[b]! || minor[a]! - minor[b]! || a - b);
        expect([...sortRowsByKeys(major, middle, minor)]).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdTally } from '../../src/engine/id-tally.js';

describe('IdTally', () => {
  it('counts like a Map, across clears and growth', () => {
    const tally = new IdTally(4);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 3 })), { maxLength: 300 }),
        fc.array(fc.nat(20)),
        (adds, small) => {
          tally.clear();
          const model = new Map<number, number>();
          for (const [id, n] of [...adds, ...small.map((id) => [id, 1] as const)]) {
            tally.add(id, n);
            model.set(id, (model.get(id) ?? 0) + n);
          }
          expect(tally.size).toBe(model.size);
          expect(Array.from({ length: tally.size }, (_, i) => tally.idAt(i))).toEqual([...model.keys()]);
          expect(Array.from({ length: tally.size }, (_, i) => tally.tallyAt(i))).toEqual([...model.values()]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

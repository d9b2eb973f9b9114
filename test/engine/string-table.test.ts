import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StringTable } from '../../src/engine/string-table.js';

// Strings of the shapes with direct slots (digits, ISO dates, letter pairs) and near misses.
const shaped = fc.oneof(
  fc.stringMatching(/^\d{1,6}$/),
  fc.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
  fc.constantFrom('1799-12-31', '1800-01-01', '2199-12-31', '2200-01-01', '1975-00-10', '1975-13-01', '1975-02-31', '1975-02-32', '0000-00-00'),
  fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('')), minLength: 1, maxLength: 3 }),
  fc.constantFrom('00', '0', '000', '007', '7', 'pa', 'PA', 'Pa', 'é1', '1é', ''),
  fc.string({ unit: 'binary', maxLength: 8 }),
);

describe('StringTable', () => {
  it('gives each distinct string one id and gives it back', () => {
    fc.assert(
      fc.property(fc.array(shaped, { maxLength: 400 }), (values) => {
        const table = new StringTable();
        const ids = new Map<string, number>();
        for (const v of [...values, ...values]) {
          const id = table.id(v);
          if (ids.has(v)) expect(id).toBe(ids.get(v));
          else {
            expect(id).toBe(ids.size);
            ids.set(v, id);
          }
          expect(table.get(id)).toBe(v);
        }
        expect(table.size).toBe(ids.size);
      }),
      { numRuns: 300 },
    );
  });

  it('idOf finds the id of a string added, -1 for one never added, and adds nothing (seeded property)', () => {
    const seed = 5150;
    console.log(`string-table idOf property seed ${seed}`);
    fc.assert(
      fc.property(fc.array(shaped, { maxLength: 300 }), fc.array(shaped, { maxLength: 100 }), (added, probed) => {
        const table = new StringTable();
        for (const v of added) table.id(v);
        const size = table.size;
        for (const v of [...added, ...probed]) {
          const expected = added.includes(v) ? table.id(v) : -1;
          expect(table.idOf(v)).toBe(expected);
        }
        expect(table.size).toBe(size);
      }),
      { seed, numRuns: 300 },
    );
  });

  it('grows past its initial size', () => {
    const table = new StringTable();
    for (let i = 0; i < 50_000; i++) expect(table.id(`name ${i}`)).toBe(i);
    for (let i = 0; i < 50_000; i += 101) expect(table.id(`name ${i}`)).toBe(i);
    expect(table.get(49_999)).toBe('name 49999');
  });
});

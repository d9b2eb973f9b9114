/**
 * The memo of name levels by pair of stored names (name-memo.ts, name-compare.ts): it answers
 * what it was told, across growth and the reset when full; and comparing stored names through
 * it gives the level comparing them afresh gives, whatever the pair's middle names (the
 * 'cross' level reads them on every pair). Seeded properties.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { phoneticKey } from '../../src/engine/blocking.js';
import { compareFirstNameForms, compareLastNameForms, NameForms, nameLevelMemos, type NameCompareOptions } from '../../src/engine/name-compare.js';
import { NameLevelMemo } from '../../src/engine/name-memo.js';
import { DEFAULT_NICKNAMES } from '../../src/engine/nicknames.js';

const SEED = 4711;

describe('NameLevelMemo', () => {
  it('answers each pair what it was told, 0 for others, as it grows (seeded property)', () => {
    console.log(`name-memo property seed ${SEED}`);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 5000 })), { maxLength: 3000, selector: ([a, b]) => `${a}|${b}` }),
        (pairs) => {
          const memo = new NameLevelMemo();
          pairs.forEach(([a, b], i) => memo.set(a, b, 1 + (i % 200)));
          pairs.forEach(([a, b], i) => expect(memo.get(a, b)).toBe(1 + (i % 200)));
          const told = new Set(pairs.map(([a, b]) => `${a}|${b}`));
          for (let a = 0; a < 30; a++) if (!told.has(`${a}|${a + 7}`)) expect(memo.get(a, a + 7)).toBe(0);
        },
      ),
      { seed: SEED, numRuns: 40 },
    );
  });

  it('starts again empty once full, and answers what it was told since', () => {
    const memo = new NameLevelMemo(3000);
    for (let i = 0; i < 3000; i++) memo.set(i, i + 1, 7);
    expect(memo.get(2999, 3000)).toBe(7);
    memo.set(5, 5, 9);
    expect(memo.get(5, 5)).toBe(9);
    expect(memo.get(2999, 3000)).toBe(0);
  });
});

const NAMES = [
  'mary',
  'marie',
  'mary ann',
  'maria',
  'm',
  'ma',
  'bill',
  'william',
  'will',
  'liam',
  'jon',
  'john',
  'jhon',
  'j0hn',
  'smith',
  'smyth',
  'schmidt',
  'ann',
  'anne',
  'anna',
];

describe('name comparisons through the memo', () => {
  it('give the levels compared afresh give, middle names varying (seeded property)', () => {
    const sounds = new Map<string, string>();
    const base: NameCompareOptions = {
      nicknames: DEFAULT_NICKNAMES,
      strict: false,
      fuzzyHigh: 0.92,
      fuzzyLow: 0.85,
      soundOf: (n) => sounds.get(n) ?? (sounds.set(n, phoneticKey(n)), phoneticKey(n)),
    };
    const memoized: NameCompareOptions = { ...base, memo: nameLevelMemos() };
    const stored = NAMES.map((n, id) => new NameForms(n, id));
    const name = fc.integer({ min: 0, max: NAMES.length - 1 });
    const middle = fc.option(name, { nil: null });
    fc.assert(
      fc.property(fc.array(fc.tuple(name, name, middle, middle), { minLength: 1, maxLength: 60 }), (pairs) => {
        for (const [a, b, ma, mb] of pairs) {
          const fresh = (k: number): NameForms => new NameForms(NAMES[k] as string);
          const midA = ma === null ? null : (stored[ma] as NameForms);
          const midB = mb === null ? null : (stored[mb] as NameForms);
          const first = compareFirstNameForms(stored[a] as NameForms, stored[b] as NameForms, memoized, undefined, midA, midB);
          expect(first).toBe(compareFirstNameForms(fresh(a), fresh(b), base, undefined, midA, midB));
          expect(compareLastNameForms(stored[a] as NameForms, stored[b] as NameForms, memoized)).toBe(compareLastNameForms(fresh(a), fresh(b), base));
        }
      }),
      { seed: SEED, numRuns: 100 },
    );
    // "mary" against "ma" with "ma" as the other's middle name is 'cross'; without, 'initial'.
    const mary = stored[0] as NameForms;
    const ma = stored[5] as NameForms;
    expect(compareFirstNameForms(mary, stored[9] as NameForms, memoized, undefined, null, ma)).toBe(
      compareFirstNameForms(mary, stored[9] as NameForms, base, undefined, null, ma),
    );
    expect(compareFirstNameForms(ma, mary, memoized)).toBe('initial');
  });
});

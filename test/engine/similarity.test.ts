import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compactJaroWinklerFrom,
  equalWithoutSpaces,
  isAdjacentTransposition,
  jaroWinkler,
  jaroWinklerFrom,
  levenshtein,
  ocrConfusions,
  ocrFold,
  withinOneEdit,
  withinTwoEdits,
} from '../../src/engine/similarity.js';

describe('jaroWinkler', () => {
  it.each([
    ['martha', 'marhta', 0.9611],
    ['dwayne', 'duane', 0.84],
    ['dixon', 'dicksonx', 0.8133],
    ['abc', 'abc', 1],
    ['abc', 'xyz', 0],
    ['', '', 1],
    ['a', '', 0],
    ['ab', 'ba', 0],
  ])('%s / %s = %f', (a, b, expected) => {
    expect(jaroWinkler(a, b)).toBeCloseTo(expected, 3);
  });

  it('is symmetric and bounded', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const x = jaroWinkler(a, b);
        expect(x).toBeCloseTo(jaroWinkler(b, a), 12);
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('jaroWinklerFrom (Jaro-Winkler where it can reach a threshold, a ceiling below it elsewhere)', () => {
  it('says what jaroWinkler says of every threshold from `least` up, and is jaroWinkler where that reaches `least`', () => {
    // Names and streets of a few letters, and any characters (the ceiling hashes non-letters).
    const word = fc.oneof(fc.string({ unit: fc.constantFrom('a', 'e', 'n', 'r', 's', 't', 'o', '1', ' '), maxLength: 40 }), fc.string({ maxLength: 12 }));
    const least = fc.constantFrom(0.5, 0.8, 0.85, 0.88, 0.9, 0.92, 0.95);
    fc.assert(
      fc.property(word, word, least, (a, b, l) => {
        const exact = jaroWinkler(a, b);
        const from = jaroWinklerFrom(a, b, l);
        if (exact >= l) expect(from).toBe(exact);
        else expect(from).toBeLessThan(l);
        for (const t of [l, 0.85, 0.88, 0.92, 0.95, 1]) if (t >= l) expect(from >= t).toBe(exact >= t);
      }),
      { numRuns: 5000, seed: 1327 },
    );
  });

  it('is jaroWinkler at a lower threshold wherever its answer at a higher one reaches the lower (name-compare.ts alike)', () => {
    const word = fc.oneof(fc.string({ unit: fc.constantFrom('a', 'e', 'n', 'r', 's', 't', 'o', '1'), maxLength: 12 }), fc.string({ maxLength: 12 }));
    const least = fc.constantFrom(0.65, 0.8, 0.85, 0.88, 0.92);
    fc.assert(
      fc.property(word, word, least, (a, b, l) => {
        if (jaroWinklerFrom(a, b, l) >= 0.65) expect(jaroWinklerFrom(a, b, 0.65)).toBe(jaroWinkler(a, b));
      }),
      { numRuns: 20000, seed: 20261128 },
    );
  });

  it('compactJaroWinklerFrom and equalWithoutSpaces read the strings without their spaces (compactName)', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'e', 'n', 's', 't', '1', ' ', ' '), maxLength: 30 });
    const least = fc.constantFrom(0.5, 0.85, 0.92);
    const compact = (t: string): string => t.replace(/ /g, '');
    fc.assert(
      fc.property(word, word, least, (a, b, l) => {
        expect(equalWithoutSpaces(a, b)).toBe(compact(a) === compact(b));
        const exact = jaroWinkler(compact(a), compact(b));
        const from = compactJaroWinklerFrom(a, b, l);
        if (exact >= l) expect(from).toBe(exact);
        else expect(from).toBeLessThan(l);
      }),
      { numRuns: 5000, seed: 4409 },
    );
  });

  it('skips strangers: their ceiling is below the threshold', () => {
    expect(jaroWinklerFrom('wattlestreet', 'banjopatersoncircuit', 0.92)).toBeLessThan(0.92);
    expect(jaroWinklerFrom('martha', 'marhta', 0.92)).toBe(jaroWinkler('martha', 'marhta'));
    expect(jaroWinklerFrom('abc', 'xyz', 0.5)).toBe(0);
    expect(jaroWinklerFrom('', '', 0.9)).toBe(1);
  });
});

describe('levenshtein and transpositions', () => {
  it('counts edits', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('', 'abc')).toBe(3);
  });
  it.each([
    ['1975', '1957', true],
    ['1975', '1975', false],
    ['1975', '9175', true],
    ['1975', '5971', false],
    ['ab', 'abc', false],
  ])('%s / %s transposed: %s', (a, b, expected) => expect(isAdjacentTransposition(a, b)).toBe(expected));
  it('transposition is symmetric', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), (a, b) => {
        expect(isAdjacentTransposition(a, b)).toBe(isAdjacentTransposition(b, a));
      }),
    );
  });
});

describe('withinTwoEdits', () => {
  /** Optimal-string-alignment distance, the textbook table. */
  function osa(a: string, b: string): number {
    const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        const row = d[i] as number[];
        const up = d[i - 1] as number[];
        row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
          row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
    return (d[a.length] as number[])[b.length] as number;
  }

  it.each([
    ['nacnu', 'nancy', true],
    ['ajs9n', 'jason', true],
    ['rtonda', 'ryanda', true],
    ['nzncy', 'nanov', false],
    ['abc', 'abc', true],
    ['', 'ab', true],
    ['', 'abc', false],
  ])('%s / %s: %s', (a, b, expected) => expect(withinTwoEdits(a, b)).toBe(expected));

  it('is the optimal-string-alignment distance at most 2 (a swap of neighbours is one edit), and symmetric', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 9 });
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(withinTwoEdits(a, b)).toBe(osa(a, b) <= 2);
        expect(withinTwoEdits(b, a)).toBe(withinTwoEdits(a, b));
      }),
      { numRuns: 3000, seed: 2611 },
    );
  });
});

describe('jaroWinkler fast path', () => {
  // The textbook formulation with arrays, to check the bitmask one against.
  function reference(a: string, b: string): number {
    if (a === b) return 1;
    if (!a.length || !b.length) return 0;
    if (a.length > b.length) [a, b] = [b, a];
    const la = a.length,
      lb = b.length,
      w = Math.max(0, (lb >> 1) - 1);
    const mA = new Uint8Array(la),
      mB = new Uint8Array(lb);
    let m = 0;
    for (let i = 0; i < la; i++) {
      for (let j = Math.max(0, i - w); j <= Math.min(lb - 1, i + w); j++) {
        if (!mB[j] && b[j] === a[i]) {
          mA[i] = 1;
          mB[j] = 1;
          m++;
          break;
        }
      }
    }
    if (!m) return 0;
    let t = 0,
      k = 0;
    for (let i = 0; i < la; i++) {
      if (!mA[i]) continue;
      while (!mB[k]) k++;
      if (a[i] !== b[k]) t++;
      k++;
    }
    const jaro = (m / la + m / lb + (m - t / 2) / m) / 3;
    let p = 0;
    while (p < Math.min(4, la) && a[p] === b[p]) p++;
    return jaro + p * 0.1 * (1 - jaro);
  }

  it('agrees with the textbook formulation, short and long strings', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', 'e'), maxLength: 45 });
    fc.assert(
      fc.property(word, word, (a, b) => {
        expect(jaroWinkler(a, b)).toBeCloseTo(reference(a, b), 12);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('ocrConfusions', () => {
  it('one or two letters OCR confuses, in names of four letters or more for two', () => {
    expect(ocrConfusions('rcsc', 'rose')).toBe(true);
    expect(ocrConfusions('ngvyen', 'nguyen')).toBe(true);
    expect(ocrConfusions('mac', 'mae')).toBe(true);
    expect(ocrConfusions('tom', 'fam')).toBe(false);
    expect(ocrConfusions('rose', 'rise')).toBe(false);
    expect(ocrConfusions('rose', 'roses')).toBe(false);
    expect(ocrConfusions('conne', 'eoaae')).toBe(false);
  });

  it('is symmetric', () => {
    fc.assert(fc.property(fc.stringMatching(/^[a-z]{0,6}$/), fc.stringMatching(/^[a-z]{0,6}$/), (a, b) => ocrConfusions(a, b) === ocrConfusions(b, a)));
  });
});

describe('withinOneEdit', () => {
  it('holds for two different strings exactly when Levenshtein is 1 or they are an adjacent transposition (compareCode reads it so)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a]{0,6}$/), fc.stringMatching(/^[0-9a]{0,6}$/), (a, b) => {
        if (a === b) return;
        expect(withinOneEdit(a, b)).toBe(levenshtein(a, b) === 1 || isAdjacentTransposition(a, b));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('ocrFold', () => {
  it.each([
    ['rnary', 'mary'],
    ['j0hn', 'john'],
    ['wi11iam', 'william'],
    ['anthoriy', 'anthony'],
    ['elizabetli', 'elizabeth'],
    ['e1izabeth', 'elizabeth'],
    ['dav1d', 'david'],
  ])('%s folds as %s does', (a, b) => {
    expect(ocrFold(a)).toBe(ocrFold(b));
  });

  it('gives what its three replacements give (names that fold to themselves skip them)', () => {
    const single: Record<string, string> = {
      '0': 'o',
      '1': 'i',
      l: 'i',
      '|': 'i',
      '!': 'i',
      '5': 's',
      '8': 'b',
      '6': 'b',
      '9': 'g',
      '2': 'z',
      '4': 'a',
      '3': 'e',
      '7': 't',
    };
    const reference = (t: string): string =>
      t
        .replace(/rn|vv|cl/g, (m) => (m === 'rn' ? 'm' : m === 'vv' ? 'w' : 'd'))
        .replace(/[0-9l|!]/g, (ch) => single[ch] ?? ch)
        .replace(/ri|ii/g, (m) => (m === 'ri' ? 'n' : 'h'));
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9|! ]{0,10}$/), fc.stringMatching(/^[cilnrv1|!]{0,8}$/), (a, b) => {
        expect(ocrFold(a)).toBe(reference(a));
        expect(ocrFold(b)).toBe(reference(b));
      }),
      { numRuns: 3000 },
    );
  });

  it('different names stay different', () => {
    expect(ocrFold('mary')).not.toBe(ocrFold('marv'));
    expect(ocrFold('smith')).not.toBe(ocrFold('smyth'));
  });

  it('a name with one "n" read as "ri" or one "h" read as "li" folds as the name (but after a "c": "cl" reads as "d")', () => {
    const names = ['anthony', 'hannah', 'johnson', 'kenneth', 'heather', 'nathan', 'shannon', 'theresa', 'elizabeth', 'stephen'];
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.nat(20), (name, k) => {
        const spots = Array.from({ length: name.length }, (_, i) => i).filter((i) => name[i] === 'n' || name[i] === 'h');
        const at = spots[k % spots.length] as number;
        const misread = name.slice(0, at) + (name[at] === 'n' ? 'ri' : 'li') + name.slice(at + 1);
        expect(ocrFold(misread)).toBe(ocrFold(name));
      }),
      { numRuns: 300, seed: 1326 },
    );
  });
});

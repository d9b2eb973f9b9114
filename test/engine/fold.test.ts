import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldCase, foldCompact, foldText } from '../../src/engine/fold.js';

describe('foldCase', () => {
  it.each([
    ['Pérez', 'perez'],
    ['PEREZ', 'perez'],
    ['Müller', 'muller'],
    ['Łukasz', 'lukasz'],
    ['Søren', 'soren'],
    ['Straße', 'strasse'],
    ['Æsa', 'aesa'],
    ['Đorđe', 'dorde'],
    ['ﬁnn', 'finn'],
    ['İstanbul', 'istanbul'],
    ['Þór', 'thor'],
    ['José', 'jose'],
  ])('%s -> %s', (input, expected) => {
    expect(foldCase(input)).toBe(expected);
  });

  it('is total and idempotent on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const once = foldCase(s);
        expect(foldCase(once)).toBe(once);
      }),
    );
  });

  it('ignores case and accents: a folded string equals the fold of its upper case', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(foldCase(foldCase(s).toUpperCase())).toBe(foldCase(s));
      }),
    );
  });
});

describe('foldText and foldCompact', () => {
  it.each([
    ["O'Brien-Smith, Jr.", 'o brien smith jr', 'obriensmithjr'],
    ['  de la  Cruz ', 'de la cruz', 'delacruz'],
    ['McDonald', 'mcdonald', 'mcdonald'],
  ])('%s', (input, text, compact) => {
    expect(foldText(input)).toBe(text);
    expect(foldCompact(input)).toBe(compact);
  });

  it('are idempotent and leave only letters, digits and single spaces', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const t = foldText(s);
        expect(foldText(t)).toBe(t);
        expect(t).not.toMatch(/^ | $| {2}/);
        expect(foldCompact(foldCompact(s))).toBe(foldCompact(s));
      }),
    );
  });
  it('give what the Unicode replacement gives (their fast path for plain words changes nothing)', () => {
    const text = (s: string): string =>
      foldCase(s)
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
    const compact = (s: string): string => foldCase(s).replace(/[^\p{L}\p{N}]+/gu, '');
    const plain = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '9', ' ', ',', '.', "'", '-'), maxLength: 12 });
    fc.assert(
      fc.property(fc.oneof(plain, fc.string({ unit: 'binary' })), (s) => {
        expect(foldText(s)).toBe(text(s));
        expect(foldCompact(s)).toBe(compact(s));
      }),
      { numRuns: 2000 },
    );
  });
});

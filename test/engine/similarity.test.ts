import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAdjacentTransposition, jaroWinkler, levenshtein } from '../../src/engine/similarity.js';

describe('jaroWinkler', () => {
  it.each([
    ['martha', 'marhta', 0.9611], ['dwayne', 'duane', 0.84], ['dixon', 'dicksonx', 0.8133],
    ['abc', 'abc', 1], ['abc', 'xyz', 0], ['', '', 1], ['a', '', 0], ['ab', 'ba', 0],
  ])('%s / %s = %f', (a, b, expected) => {
    expect(jaroWinkler(a, b)).toBeCloseTo(expected, 3);
  });

  it('is symmetric and bounded', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => {
      const x = jaroWinkler(a, b);
      expect(x).toBeCloseTo(jaroWinkler(b, a), 12);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(1);
    }));
  });
});

describe('levenshtein and transpositions', () => {
  it('counts edits', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('', 'abc')).toBe(3);
  });
  it.each([['1975', '1957', true], ['1975', '1975', false], ['1975', '9175', true], ['1975', '5971', false], ['ab', 'abc', false]])(
    '%s / %s transposed: %s', (a, b, expected) => expect(isAdjacentTransposition(a, b)).toBe(expected));
  it('transposition is symmetric', () => {
    fc.assert(fc.property(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), (a, b) => {
      expect(isAdjacentTransposition(a, b)).toBe(isAdjacentTransposition(b, a));
    }));
  });
});

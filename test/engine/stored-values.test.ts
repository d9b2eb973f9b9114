/**
 * Emails, phones and identifiers compared where the record store keeps them (stored-values.ts)
 * give the levels of compare.ts's string comparators, the two-edit test agrees with
 * Levenshtein and the one-edit test with similarity.ts withinOneEdit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_LEVELS, compareEmails, compareIdentifiers, comparePhones } from '../../src/engine/compare.js';
import { levelBit } from '../../src/engine/comparisons.js';
import { levenshtein, withinOneEdit } from '../../src/engine/similarity.js';
import {
  storedEmailLevel,
  storedIdentifierLevel,
  storedPhoneLevel,
  unitsWithinEdits,
  unitsWithinOneEdit,
  unitsWithinTwoEdits,
} from '../../src/engine/stored-values.js';

/** A stored list as the record store lays it out: the values' code units, and (offset, length) pairs. */
function stored(values: readonly string[]): { units: Uint16Array; lists: Int32Array } {
  const units: number[] = [7, 7];
  const lists: number[] = [0];
  for (const v of values) {
    lists.push(units.length, v.length);
    for (let i = 0; i < v.length; i++) units.push(v.charCodeAt(i));
  }
  return { units: Uint16Array.from(units), lists: Int32Array.from(lists) };
}

const near = (alphabet: string[]): fc.Arbitrary<string> => fc.array(fc.constantFrom(...alphabet), { maxLength: 12 }).map((a) => a.join(''));

describe('values compared where they are stored', () => {
  it('the two-edit test is Levenshtein <= 2', () => {
    fc.assert(
      fc.property(near(['a', 'b', 'c', '@']), near(['a', 'b', 'c', '@']), (a, b) => {
        const s = stored([a]);
        expect(unitsWithinTwoEdits(s.units, 2, a.length, b)).toBe(levenshtein(a, b) <= 2);
      }),
      { numRuns: 5000 },
    );
  });

  it('the k-edit test is Levenshtein <= k', () => {
    fc.assert(
      fc.property(near(['a', 'b', 'c', '@']), near(['a', 'b', 'c', '@']), fc.integer({ min: 0, max: 6 }), (a, b, k) => {
        const s = stored([a]);
        expect(unitsWithinEdits(s.units, 2, a.length, b, k)).toBe(levenshtein(a, b) <= k);
      }),
      { numRuns: 5000 },
    );
  });

  it('emails: the levels of compareEmails, every level set', () => {
    const email = fc.constantFrom(
      'bob@example.com',
      'bob@example.co',
      'bo@example.com',
      'rs@ex.org',
      'a@b.c',
      'ab@b.c',
      'x',
      'hday48@thomas-carter.com',
      'hday48@thomas-carter.mc',
      'hday48@x.org',
      'hday4@x.org',
      'hday48x@y.org',
      'office@north.org',
      'office@south.org',
      'hd.ay48@x.org',
      'a@b@hday48@x.org',
      'hmay32@richardson-rhodes.com',
      'hmay3@richarsson-rhooded.com',
      'hmay3@richardson-rhodes.co',
      'mcurtis53@spmnison.com',
      'micurtis53@simpson.com',
      'john.smith@gmail.com',
      'jane.smith@gmail.com',
      'jane.smith@gmial.co',
      'hmay3richarsson-rhooded.com',
    );
    const levels = fc.constantFrom(
      ALL_LEVELS,
      ALL_LEVELS & ~levelBit('fuzzy-high'),
      ALL_LEVELS & ~levelBit('fuzzy-low'),
      ALL_LEVELS & ~levelBit('typo'),
      ALL_LEVELS & ~levelBit('typo') & ~levelBit('fuzzy-high'),
    );
    const shared = fc.constantFrom(undefined, (e: string) => e.startsWith('office@'));
    fc.assert(
      fc.property(fc.array(email, { maxLength: 3 }), fc.array(email, { maxLength: 3 }), levels, shared, (q, r, l, sh) => {
        const s = stored(r);
        expect(storedEmailLevel(s.units, s.lists, 1, r.length, q, l, sh)).toBe(compareEmails(q, r, l, sh));
      }),
      { numRuns: 3000 },
    );
  });

  it('phones: the levels of comparePhones, local numbers included', () => {
    const phone = fc.constantFrom('+12025550143', '+12025550144', 'L5550143', 'L5550144', '+442071234567', 'L123', '');
    const levels = fc.constantFrom(ALL_LEVELS, ALL_LEVELS & ~levelBit('partial'));
    fc.assert(
      fc.property(fc.array(phone, { maxLength: 3 }), fc.array(phone, { maxLength: 3 }), levels, (q, r, l) => {
        const s = stored(r);
        expect(storedPhoneLevel(s.units, s.lists, 1, r.length, q, l)).toBe(comparePhones(q, r, l));
      }),
      { numRuns: 3000 },
    );
  });

  it('the one-edit test is withinOneEdit (a swap of neighbours one edit)', () => {
    fc.assert(
      fc.property(near(['a', 'b', 'c', ':']), near(['a', 'b', 'c', ':']), (a, b) => {
        const s = stored([a]);
        expect(unitsWithinOneEdit(s.units, 2, a.length, b)).toBe(withinOneEdit(a, b));
      }),
      { numRuns: 5000, seed: 20261128 },
    );
  });

  it('identifiers: the levels of compareIdentifiers, typed and untyped values, every level set', () => {
    const id = fc.oneof(
      fc.constantFrom(
        'ssn:123456789',
        'ssn:123456798',
        'ssn:12345678',
        'ssn:987654321',
        'mrn:123456789',
        'mrn:12345',
        'ssn:',
        '123456789',
        'ssn',
        'a:b:c',
        'a:b:d',
        '',
      ),
      near(['1', '2', ':', 's']),
    );
    const levels = fc.constantFrom(ALL_LEVELS, ALL_LEVELS & ~levelBit('typo'));
    fc.assert(
      fc.property(fc.array(id, { maxLength: 3 }), fc.array(id, { maxLength: 3 }), levels, (q, r, l) => {
        const s = stored(r);
        expect(storedIdentifierLevel(s.units, s.lists, 1, r.length, q, l)).toBe(compareIdentifiers(q, r, l));
      }),
      { numRuns: 5000, seed: 20261129 },
    );
  });
});

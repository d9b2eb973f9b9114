/**
 * A lookup's names that a stored record also holds are compared through the index's own forms
 * of them, and so through its memo of stored-name pairs (contact-index.ts `prepared`): the
 * answers must be those of the same lookup with forms of its own (never memoized), strict or
 * not, memo large or small enough to start again empty, on the seeded synthetic corpus (typos,
 * nicknames, swaps, moves), each seed printed on failure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateCorpus } from '../../bench/corpus.js';
import { ContactIndex } from '../../src/engine/index.js';
import { withNameForms } from '../../src/engine/score.js';

describe('lookups through the index’s stored name forms', () => {
  it('decide as lookups with forms of their own (seeded corpus)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.constantFrom(undefined, 64), (seed, nameMemoEntries) => {
        const corpus = generateCorpus({ seed, size: 1500 });
        const index = new ContactIndex(nameMemoEntries === undefined ? {} : { nameMemoEntries });
        for (const p of corpus.people()) index.upsert(p.personId, p.contact);
        let matched = 0;
        for (const q of corpus.queries({ count: 400, seed: seed + 1 })) {
          const normalized = index.normalize(q.candidate);
          for (const strict of [false, true]) {
            const own = index.findNormalized(withNameForms(normalized), { strict });
            const stored = index.findNormalized(normalized, { strict });
            expect(stored, `seed ${seed}, strict ${strict}: ${JSON.stringify(q.candidate)}`).toEqual(own);
            const all = index.findAll(normalized, { strict });
            expect(all).toEqual(index.findAll(withNameForms(normalized), { strict }));
          }
          if (index.findNormalized(normalized).decision === 'Matched') matched++;
        }
        expect(matched).toBeGreaterThan(100);
      }),
      { numRuns: 4, seed: 23, verbose: true },
    );
  });
});

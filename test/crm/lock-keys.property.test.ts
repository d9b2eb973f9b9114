/**
 * The guarantee behind parallel findOrCreate on PostgreSQL (src/crm/lock-keys.ts): whenever
 * the engine matches a candidate to a stored person, the candidate's lock keys and that
 * person's share at least one. So two concurrent requests that could match each other's new
 * person always share a lock and run in turn; requests that share none could not have matched
 * each other in either order. Checked on the seeded synthetic corpus (noisy queries: typos,
 * nicknames, other formats, moves), each seed printed on failure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateCorpus } from '../../bench/corpus.js';
import { AddressMemo, ContactIndex } from '../../src/engine/index.js';
import { lockKeysOf } from '../../src/crm/lock-keys.js';

describe('lock keys', () => {
  it('a candidate and every person it matches share a lock key (seeded corpus)', () => {
    let checked = 0;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (seed) => {
        const corpus = generateCorpus({ seed, size: 1000 });
        const index = new ContactIndex({ defaultCountry: 'US', addressMemo: new AddressMemo() });
        for (const p of corpus.people()) index.upsert(p.personId + 1, p.contact);
        for (const q of corpus.queries({ count: 300, seed: seed + 1 })) {
          const candidate = index.normalize(q.candidate);
          const result = index.findNormalized(candidate, { explain: false });
          if (result.id === null || result.decision === 'Unmatched') continue;
          const record = index.get(result.id)!;
          const mine = new Set(lockKeysOf(index, candidate, null));
          const theirs = lockKeysOf(index, record, null);
          expect(
            theirs.some((k) => mine.has(k)),
            `seed ${seed}: query ${JSON.stringify(q.candidate)} matched ${result.id} without a shared key`,
          ).toBe(true);
          checked++;
        }
      }),
      { numRuns: 4, seed: 17, verbose: true },
    );
    expect(checked).toBeGreaterThan(300);
  });
});

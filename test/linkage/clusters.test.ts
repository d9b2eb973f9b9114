/**
 * Cluster and link bookkeeping against oracles: without signatures DedupeResults' clusters
 * equal the transitive closure (clustersFromPairs); with them, no two rows whose dates of
 * birth conflict share a cluster unless matched directly, and a row without a name never
 * bridges two people; one-to-one links never reuse a row and are greedy by score; results
 * do not depend on the order query batches arrive in (threads).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DedupeResults } from '../../src/linkage/clusters.js';
import { MIN_CROSS_SUPPORT, WEAK_SUPPORT } from '../../src/linkage/join-rules.js';
import type { PairResult } from '../../src/linkage/pair-plan.js';
import { LinkResults } from '../../src/linkage/link-run.js';
import type { QueryResult } from '../../src/linkage/shard.js';
import { clustersFromPairs } from '../../src/linkage/metrics.js';
import {
  ALL_CONFLICTS,
  conflictKindsOf,
  conflictOf,
  FIRST_NAMES_DIFFER,
  firstNamesAlike,
  isNamed,
  surnamesDiffer,
  type Signature,
} from '../../src/linkage/conflicts.js';
import { FILE_MODEL, type MatchModel } from '../../src/engine/index.js';

/** One query batch holding the given Matched pairs (from, to, score) for rows [first, first+count). */
function batch(first: number, count: number, pairs: readonly [number, number, number][]): QueryResult {
  const own = pairs.filter(([a]) => a >= first && a < first + count);
  return {
    seq: first,
    ids: Int32Array.from({ length: count }, (_, i) => first + i),
    count,
    matchFrom: Int32Array.from(own.map((p) => p[0])),
    matchTo: Int32Array.from(own.map((p) => p[1])),
    matchScore: Float64Array.from(own.map((p) => p[2])),
    possibleId: new Int32Array(count).fill(-1),
    possibleScore: new Float64Array(count),
    noteIds: new Int32Array(0),
    notes: [],
    noGate: new Uint8Array(count),
    lowIds: new Int32Array(0),
    lowScores: new Float64Array(0),
    possibleWhy: new Array<string | null>(count).fill(null),
    candFrom: new Int32Array(0),
    candTo: new Int32Array(0),
    candScore: new Float64Array(0),
  };
}

/** Results of `pairs`, clustered (with `signatures`, or as a plain closure). */
function clustered(
  pairs: readonly [number, number, number][],
  step: number,
  signatures: ReadonlyMap<number, Signature> | null = null,
  order: (list: QueryResult[]) => QueryResult[] = (l) => l,
): DedupeResults {
  const r = new DedupeResults(SIZE, true);
  for (const b of order(batches(pairs, step))) r.add(b);
  r.cluster(signatures);
  return r;
}

/** A signature: a first name, a year of birth (or none), nothing else. */
const signature: fc.Arbitrary<Signature> = fc.record({
  first: fc.option(fc.constantFrom('ann', 'bob', 'carl', 'dora'), { nil: null }),
  middle: fc.constant(null),
  last: fc.constant('lee'),
  dob: fc.option(fc.constantFrom('1950-01-02', '1951-01-02', '1970-05-06', '1990-07-08'), { nil: null }),
  identifiers: fc.constant([]),
  suffix: fc.constant(null),
  sex: fc.constant(null),
});
const nameless: Signature = { first: null, middle: null, last: null, dob: null, identifiers: [], suffix: null, sex: null };

const SIZE = 12;
const pair = fc.tuple(fc.nat(SIZE - 1), fc.nat(SIZE - 1), fc.integer({ min: 10, max: 60 })).filter(([a, b]) => a !== b);

function batches(pairs: readonly [number, number, number][], step: number): QueryResult[] {
  const out: QueryResult[] = [];
  for (let first = 0; first < SIZE; first += step) out.push(batch(first, Math.min(step, SIZE - first), pairs));
  return out;
}

/** A second-pass result holding Matched pairs (from, to, score), each also a pair clustering weighs (near). */
function pairResult(pairs: readonly [number, number, number][]): PairResult {
  const none = new Int32Array(0);
  return {
    seq: 0,
    count: 0,
    matchFrom: Int32Array.from(pairs.map((p) => p[0])),
    matchTo: Int32Array.from(pairs.map((p) => p[1])),
    matchScore: Float64Array.from(pairs.map((p) => p[2])),
    possibleFrom: none,
    possibleTo: none,
    possibleScore: new Float64Array(0),
    possibleWhy: [],
    possibleNote: [],
    candFrom: none,
    candTo: none,
    candScore: new Float64Array(0),
    nearFrom: Int32Array.from(pairs.map((p) => Math.min(p[0], p[1]))),
    nearTo: Int32Array.from(pairs.map((p) => Math.max(p[0], p[1]))),
    nearScore: Float64Array.from(pairs.map((p) => p[2])),
  };
}

describe('DedupeResults', () => {
  it('clusters equal the transitive closure of clustersFromPairs, named by their first row', () => {
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 20 }), (pairs) => {
        const r = clustered(pairs, 4);
        const ids = Array.from({ length: SIZE }, (_, i) => String(i).padStart(2, '0'));
        const oracle = clustersFromPairs(
          ids,
          pairs.map(([a, b]) => [ids[a] as string, ids[b] as string] as const),
        );
        return ids.every((id, i) => oracle.get(id) === ids[r.root(i)]);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same clusters, partners and decisions whatever order the batches arrive in', () => {
    const sigs = fc.array(signature, { minLength: SIZE, maxLength: SIZE }).map((list) => new Map(list.map((sig, i) => [i, sig])));
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 20 }), fc.integer({ min: 1, max: 6 }), fc.nat(), sigs, (pairs, step, rot, signatures) => {
        const a = clustered(pairs, step, signatures);
        const b = clustered(pairs, step, signatures, (list) => [...list.slice(rot % list.length), ...list.slice(0, rot % list.length)].reverse());
        for (let i = 0; i < SIZE; i++) {
          if (a.root(i) !== b.root(i) || a.partner[i] !== b.partner[i] || a.decision(i) !== b.decision(i) || a.clusterSize(i) !== b.clusterSize(i))
            return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('never puts two rows whose dates of birth conflict in one cluster through a third', () => {
    const sigs = fc.array(signature, { minLength: SIZE, maxLength: SIZE }).map((list) => new Map(list.map((sig, i) => [i, sig])));
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 30 }), sigs, (pairs, signatures) => {
        const r = clustered(pairs, 3, signatures);
        const direct = new Set(pairs.map(([a, b]) => `${Math.min(a, b)}|${Math.max(a, b)}`));
        for (let x = 0; x < SIZE; x++) {
          for (let y = x + 1; y < SIZE; y++) {
            if (r.root(x) !== r.root(y) || direct.has(`${x}|${y}`)) continue;
            const why = conflictOf(signatures.get(x) as Signature, signatures.get(y) as Signature);
            if (why !== null && why !== FIRST_NAMES_DIFFER) return false;
          }
        }
        return true;
      }),
      { numRuns: 400 },
    );
  });

  it('puts rows whose first names differ in one cluster through a third only where a matched pair of it gives one first name', () => {
    const sigs = fc.array(signature, { minLength: SIZE, maxLength: SIZE }).map((list) => new Map(list.map((sig, i) => [i, sig])));
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 30 }), sigs, (pairs, signatures) => {
        const r = clustered(pairs, 3, signatures);
        const sig = (row: number): Signature => signatures.get(row) as Signature;
        const direct = new Set(pairs.map(([a, b]) => `${Math.min(a, b)}|${Math.max(a, b)}`));
        for (let x = 0; x < SIZE; x++) {
          for (let y = x + 1; y < SIZE; y++) {
            if (r.root(x) !== r.root(y) || direct.has(`${x}|${y}`) || conflictOf(sig(x), sig(y)) !== FIRST_NAMES_DIFFER) continue;
            const root = r.root(x);
            if (!pairs.some(([a, b]) => r.root(a) === root && r.root(b) === root && firstNamesAlike(sig(a), sig(b)))) return false;
          }
        }
        return true;
      }),
      { numRuns: 400 },
    );
  });

  it("joins a person's clusters whose rows give two first names, through a pair with one, and keeps a household apart", () => {
    const sigs = new Map<number, Signature>([
      [0, { ...nameless, first: 'owen', last: 'wilkinson' }],
      [1, { ...nameless, first: 'edward', last: 'wilkinson' }],
      [2, { ...nameless, first: 'edward', last: 'wilkinson' }],
      [3, { ...nameless, first: 'john', last: 'smith' }],
      [4, { ...nameless, first: 'john', last: 'smith' }],
      [5, { ...nameless, first: 'mary', last: 'smith' }],
    ]);
    // 0-1 matched directly (a middle name used as first name), 1-2 by one first name: one person.
    // 3-4 John, 4-5 John and Mary at one address: a household, kept apart.
    const r = clustered(
      [
        [0, 1, 30],
        [1, 2, 20],
        [3, 4, 30],
        [4, 5, 20],
      ],
      SIZE,
      sigs,
    );
    expect(r.root(2)).toBe(r.root(0));
    expect(r.root(5)).not.toBe(r.root(3));
    expect(r.refused.map((x) => x.why)).toEqual(['rows 4 and 6: first names differ']);
  });

  it('enforces identifier conflicts only where the model learned that one person seldom shows two identifiers', () => {
    const sig = (identifier: string): Signature => ({ ...nameless, first: 'ann', last: 'lee', identifiers: [`ssn:${identifier}`] });
    const a = sig('123456789');
    const b = sig('987654321');
    const withIdentifierDisagreement = (m: number, u: number): MatchModel => ({
      ...FILE_MODEL,
      fields: { ...FILE_MODEL.fields, identifier: { ...FILE_MODEL.fields.identifier, disagree: { m, u } } },
    });
    // 0.07 / 0.99995: about -3.8 bits, an error as often as another person: no conflict.
    const replaced = conflictKindsOf(withIdentifierDisagreement(0.07, 0.99995));
    expect(replaced.identifier).toBe(false);
    expect(conflictOf(a, b, replaced)).toBeNull();
    // 0.001 / 0.99: about -10 bits: two identifiers are two people.
    const kept = conflictKindsOf(withIdentifierDisagreement(0.001, 0.99));
    expect(kept).toEqual(ALL_CONFLICTS);
    expect(conflictOf(a, b, kept)).toBe('identifiers differ');
    // Without a model every conflict holds; dates and sexes whatever the model says.
    expect(conflictKindsOf(null)).toEqual(ALL_CONFLICTS);
    expect(replaced.dateOfBirth && replaced.sex).toBe(true);
  });

  it('dates of birth years apart conflict, but for a decade mistyped in a full date', () => {
    const sig = (dob: string): Signature => ({ ...nameless, first: 'ann', last: 'lee', dob });
    expect(conflictOf(sig('1974-08-21'), sig('1984-09-19'))).toBeNull();
    expect(conflictOf(sig('1974-08-21'), sig('1994-09-19'))).toBe('dates of birth years apart');
    expect(conflictOf(sig('1974-08-21'), sig('1981-03-02'))).toBe('dates of birth years apart');
    // Years alone hold too little to read ten years as a slip.
    expect(conflictOf(sig('1974'), sig('1984'))).toBe('dates of birth years apart');
    // Two digits apart is a file model's level, not one person's slip for clustering.
    expect(conflictOf(sig('1950-03-12'), sig('1980-03-15'))).toBe('dates of birth years apart');
  });

  it('first names that differ are no conflict when the names read swapped, in both rows or from a row with one name', () => {
    const sig = (first: string | null, last: string | null): Signature => ({ ...nameless, first, last });
    expect(conflictOf(sig('barker', 'matilda'), sig('matilda', null))).toBeNull();
    expect(conflictOf(sig('halenl0n', 'ingrid'), sig('ingrtd', 'h0lenton'))).toBeNull();
    expect(conflictOf(sig('hall', 'isla'), sig('isla', 'hall'))).toBeNull();
    // A swap with one name garbled at any length is the file model's; for clustering, two first names.
    expect(conflictOf(sig('mia', 'jones'), sig('jones', 'max'))).toBe(FIRST_NAMES_DIFFER);
    // A surname alike the other's first name is not enough when the first names differ too.
    expect(conflictOf(sig('james', 'thomas'), sig('thomas', 'smith'))).toBe('first names differ');
    expect(conflictOf(sig('mary', 'lee'), sig('susan', null))).toBe('first names differ');
  });

  it('first names conflict only when both are names: known to the nickname table or held by more than one row', () => {
    const sig = (first: string, firstCount: number): Signature => ({ ...nameless, first, last: 'lee', firstCount });
    // Real names, however rare in the file: two people.
    expect(conflictOf(sig('mary', 1), sig('susan', 1))).toBe('first names differ');
    expect(conflictOf(sig('xiomara', 3), sig('deshawn', 2))).toBe('first names differ');
    // The file's only "maresob" or "dehisc" is a misreading of someone's name, not another person's.
    expect(conflictOf(sig('maresob', 1), sig('wayne', 40))).toBeNull();
    expect(conflictOf(sig('mary', 12), sig('dehisc', 1))).toBeNull();
    // Without counts (no file), every name counts as one.
    expect(conflictOf({ ...nameless, first: 'maresob', last: 'lee' }, { ...nameless, first: 'wayne', last: 'lee' })).toBe('first names differ');
  });

  it('a row without a name never joins two named rows that are not matched to each other', () => {
    const sigs = fc
      .array(fc.oneof(signature, fc.constant(nameless)), { minLength: SIZE, maxLength: SIZE })
      .map((list) => new Map(list.map((sig, i) => [i, sig])));
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 30 }), sigs, (pairs, signatures) => {
        const r = clustered(pairs, 3, signatures);
        const named = (i: number): boolean => isNamed(signatures.get(i) as Signature);
        // The named rows of a cluster are connected by pairs between named rows.
        const ids = Array.from({ length: SIZE }, (_, i) => String(i));
        const namedOnly = clustersFromPairs(
          ids,
          pairs.filter(([a, b]) => named(a) && named(b)).map(([a, b]) => [String(a), String(b)] as const),
        );
        for (let x = 0; x < SIZE; x++) {
          for (let y = x + 1; y < SIZE; y++) {
            if (named(x) && named(y) && r.root(x) === r.root(y) && namedOnly.get(String(x)) !== namedOnly.get(String(y))) return false;
          }
        }
        return true;
      }),
      { numRuns: 400 },
    );
  });

  it('a row without a surname never joins two rows whose surnames differ, unless they were matched to each other', () => {
    const person = (first: string | null, last: string | null): Signature => ({ ...nameless, first, last });
    const mary = new Map<number, Signature>([
      [0, person('mary', 'smith')],
      [1, person('mary', null)],
      [2, person('mary', 'jones')],
    ]);
    const bridged = clustered(
      [
        [0, 1, 30],
        [1, 2, 20],
      ],
      3,
      mary,
    );
    expect(bridged.root(0)).not.toBe(bridged.root(2));
    expect(bridged.refused.map((r) => r.why)).toEqual(['rows 1 and 3: a row without a surname would join two surnames']);
    // The model matched the two surnames itself (a married name): one person.
    const married = clustered(
      [
        [0, 1, 30],
        [1, 2, 20],
        [0, 2, 25],
      ],
      3,
      mary,
    );
    expect(married.root(2)).toBe(married.root(0));
    // Surnames alike (a typo, a sound) are one surname.
    const typo = clustered(
      [
        [0, 1, 30],
        [1, 2, 20],
      ],
      3,
      new Map([...mary, [2, person('mary', 'smyth')]]),
    );
    expect(typo.root(2)).toBe(typo.root(0));

    const sigs = fc
      .array(
        fc.record({ first: fc.option(fc.constantFrom('ann', 'bob'), { nil: null }), last: fc.option(fc.constantFrom('lee', 'ray', 'okafor'), { nil: null }) }),
        { minLength: SIZE, maxLength: SIZE },
      )
      .map((list) => new Map(list.map(({ first, last }, i) => [i, person(first ?? 'ann', last)])));
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 30 }), sigs, (pairs, signatures) => {
        // Every pair has an end without a surname: each join is such a bridge.
        const bridges = pairs.filter(([a, b]) => signatures.get(a)?.last === null || signatures.get(b)?.last === null);
        const r = clustered(bridges, 4, signatures);
        for (let x = 0; x < SIZE; x++) {
          for (let y = x + 1; y < SIZE; y++) {
            if (r.root(x) === r.root(y) && surnamesDiffer(signatures.get(x) as Signature, signatures.get(y) as Signature)) return false;
          }
        }
        return true;
      }),
      { numRuns: 400 },
    );
  });

  it('joins two clusters only where the pairs compared between them support it on average (MIN_CROSS_SUPPORT)', () => {
    const person = (first: string, last: string): Signature => ({ ...nameless, first, last });
    const sigs = new Map<number, Signature>([0, 1, 2, 3].map((i) => [i, person('john', 'smith')]));
    // Rows 0-2 match each other strongly; row 3 matches row 2 at 1 bit (posterior 0.67).
    const matched: [number, number, number][] = [
      [0, 1, 20],
      [0, 2, 18],
      [1, 2, 19],
      [2, 3, 1],
    ];
    const run = (compared: ((x: number, y: number) => boolean) | undefined): DedupeResults => {
      const r = new DedupeResults(SIZE, true);
      r.addPairs(pairResult(matched));
      r.cluster(sigs, ALL_CONFLICTS, compared);
      return r;
    };
    // Rows 0 and 1 were compared with row 3 and scored below the review threshold: (0.67 + 0 + 0) / 3 < 0.25.
    const against = run((x, y) => x !== y);
    expect(against.root(3)).not.toBe(against.root(0));
    expect(against.refused.map((x) => x.why)).toEqual([WEAK_SUPPORT]);
    expect(MIN_CROSS_SUPPORT).toBe(0.25);
    // Never compared: nothing says otherwise.
    const unseen = run((x, y) => Math.min(x, y) === 2 && Math.max(x, y) === 3);
    expect(unseen.root(3)).toBe(unseen.root(0));
    // Without the comparisons (or without signatures) clustering is as before.
    expect(run(undefined).root(3)).toBe(run(undefined).root(0));
    // A join of two single rows always has its own pair's support (>= 0.5).
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 12 }), (pairs) => {
        const seen = new Set<string>();
        const single = pairs.filter(([a, b]) => {
          const key = `${Math.min(a, b)}|${Math.max(a, b)}`;
          const fresh = !seen.has(key) && ![...seen].some((k) => k.split('|').some((v) => Number(v) === a || Number(v) === b));
          seen.add(key);
          return fresh;
        });
        const r = new DedupeResults(SIZE, true);
        r.addPairs(pairResult(single.map(([a, b, s]) => [a, b, s - 10] as [number, number, number]).filter(([, , s]) => s >= 0)));
        r.cluster(new Map(Array.from({ length: SIZE }, (_, i) => [i, person('ann', 'lee')])), ALL_CONFLICTS, () => true);
        return r.refused.every((x) => x.why !== WEAK_SUPPORT);
      }),
      { numRuns: 200 },
    );
  });

  it('counts: clusters + duplicates = rows; a partner is the best-scoring Matched pair from either side', () => {
    const r = new DedupeResults(5, false);
    r.add(
      batch(0, 5, [
        [0, 1, 20],
        [2, 1, 30],
        [3, 4, 25],
      ]),
    );
    r.cluster(null);
    expect(r.counts()).toMatchObject({ clusters: 2, multiClusters: 2, duplicates: 3, largest: 3 });
    expect([...r.partner]).toEqual([1, 2, 1, 4, 3]);
    expect(r.largestClusters(5)).toEqual([
      { root: 0, members: [0, 1, 2] },
      { root: 3, members: [3, 4] },
    ]);
  });
});

describe('LinkResults', () => {
  const linkPair = fc.tuple(fc.nat(SIZE - 1), fc.nat(7), fc.integer({ min: 10, max: 40 }));

  it('one to one: no left or right row twice; each skipped pair lost to a better (or equal) one', () => {
    fc.assert(
      fc.property(fc.array(linkPair, { maxLength: 30 }), (raw) => {
        // Each right row lists its candidates once, best first (as findAll does).
        const seen = new Set<string>();
        const pairs = raw.filter(([r, l]) => !seen.has(`${r}|${l}`) && seen.add(`${r}|${l}`)).sort((x, y) => x[0] - y[0] || y[2] - x[2] || x[1] - y[1]);
        const results = new LinkResults();
        for (const b of batches(pairs, 5)) results.add(b);
        const links = results.links(true);
        const lefts = links.map((l) => l.left);
        const rights = links.map((l) => l.right);
        if (new Set(lefts).size !== lefts.length || new Set(rights).size !== rights.length) return false;
        for (const [right, left, score] of pairs) {
          if (links.some((l) => l.right === right && l.left === left)) continue;
          if (!links.some((l) => (l.left === left || l.right === right) && l.score >= score)) return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('best per right row: the first (best) candidate of each right row, sorted by right row', () => {
    const results = new LinkResults();
    results.add(
      batch(3, 3, [
        [3, 7, 30],
        [3, 1, 20],
        [5, 2, 25],
      ]),
    );
    results.add(batch(0, 3, [[1, 7, 40]]));
    expect(results.links(false)).toEqual([
      { right: 1, left: 7, score: 40 },
      { right: 3, left: 7, score: 30 },
      { right: 5, left: 2, score: 25 },
    ]);
    expect(results.links(true)).toEqual([
      { right: 1, left: 7, score: 40 },
      { right: 3, left: 1, score: 20 },
      { right: 5, left: 2, score: 25 },
    ]);
  });
});

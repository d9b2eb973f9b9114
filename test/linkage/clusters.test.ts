/**
 * Cluster and link bookkeeping against oracles: DedupeResults' union-find equals the
 * evaluation's clustersFromPairs; one-to-one links never reuse a row and are greedy by
 * score; results do not depend on the order query batches arrive in (threads).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DedupeResults } from '../../src/linkage/clusters.js';
import { LinkResults } from '../../src/linkage/link-run.js';
import type { QueryResult } from '../../src/linkage/shard.js';
import { clustersFromPairs } from '../../src/eval/metrics.js';

/** One query batch holding the given Matched pairs (from, to, score) for rows [first, first+count). */
function batch(first: number, count: number, pairs: readonly [number, number, number][]): QueryResult {
  const own = pairs.filter(([a]) => a >= first && a < first + count);
  return {
    seq: first,
    firstId: first,
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
  };
}

const SIZE = 12;
const pair = fc.tuple(fc.nat(SIZE - 1), fc.nat(SIZE - 1), fc.integer({ min: 10, max: 60 })).filter(([a, b]) => a !== b);

function batches(pairs: readonly [number, number, number][], step: number): QueryResult[] {
  const out: QueryResult[] = [];
  for (let first = 0; first < SIZE; first += step) out.push(batch(first, Math.min(step, SIZE - first), pairs));
  return out;
}

describe('DedupeResults', () => {
  it('clusters equal the transitive closure of clustersFromPairs, named by their first row', () => {
    fc.assert(fc.property(fc.array(pair, { maxLength: 20 }), (pairs) => {
      const r = new DedupeResults(SIZE, true);
      for (const b of batches(pairs, 4)) r.add(b);
      const ids = Array.from({ length: SIZE }, (_, i) => String(i).padStart(2, '0'));
      const oracle = clustersFromPairs(ids, pairs.map(([a, b]) => [ids[a] as string, ids[b] as string] as const));
      return ids.every((id, i) => oracle.get(id) === ids[r.root(i)]);
    }), { numRuns: 300 });
  });

  it('gives the same clusters, partners and decisions whatever order the batches arrive in', () => {
    fc.assert(fc.property(fc.array(pair, { maxLength: 20 }), fc.integer({ min: 1, max: 6 }), fc.nat(), (pairs, step, rot) => {
      const list = batches(pairs, step);
      const shifted = [...list.slice(rot % list.length), ...list.slice(0, rot % list.length)].reverse();
      const a = new DedupeResults(SIZE, false);
      const b = new DedupeResults(SIZE, false);
      for (const x of list) a.add(x);
      for (const x of shifted) b.add(x);
      for (let i = 0; i < SIZE; i++) {
        if (a.root(i) !== b.root(i) || a.partner[i] !== b.partner[i] || a.decision(i) !== b.decision(i) || a.clusterSize(i) !== b.clusterSize(i)) return false;
      }
      return true;
    }), { numRuns: 300 });
  });

  it('counts: clusters + duplicates = rows; a partner is the best-scoring Matched pair from either side', () => {
    const r = new DedupeResults(5, false);
    r.add(batch(0, 5, [[0, 1, 20], [2, 1, 30], [3, 4, 25]]));
    expect(r.counts()).toMatchObject({ clusters: 2, multiClusters: 2, duplicates: 3, largest: 3 });
    expect([...r.partner]).toEqual([1, 2, 1, 4, 3]);
    expect(r.largestClusters(5)).toEqual([{ root: 0, members: [0, 1, 2] }, { root: 3, members: [3, 4] }]);
  });
});

describe('LinkResults', () => {
  const linkPair = fc.tuple(fc.nat(SIZE - 1), fc.nat(7), fc.integer({ min: 10, max: 40 }));

  it('one to one: no left or right row twice; each skipped pair lost to a better (or equal) one', () => {
    fc.assert(fc.property(fc.array(linkPair, { maxLength: 30 }), (raw) => {
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
    }), { numRuns: 300 });
  });

  it('best per right row: the first (best) candidate of each right row, sorted by right row', () => {
    const results = new LinkResults();
    results.add(batch(3, 3, [[3, 7, 30], [3, 1, 20], [5, 2, 25]]));
    results.add(batch(0, 3, [[1, 7, 40]]));
    expect(results.links(false)).toEqual([{ right: 1, left: 7, score: 40 }, { right: 3, left: 7, score: 30 }, { right: 5, left: 2, score: 25 }]);
    expect(results.links(true)).toEqual([{ right: 1, left: 7, score: 40 }, { right: 3, left: 1, score: 20 }, { right: 5, left: 2, score: 25 }]);
  });
});

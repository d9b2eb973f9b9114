/**
 * The two passes of a dedupe that scores each pair once (pair-plan.ts), on one thread's
 * index: choosing the candidates of a batch of records, then scoring a batch of owners' pairs.
 */
import type { ContactIndex, NormalizedContact, ScoredCandidate } from '../engine/index.js';
import { formatShortfalls } from './notes.js';
import type { PairResult, PairWork, Selection } from './pair-plan.js';

/**
 * The first pass: the candidates of the indexed records `ids`, as their lookups choose them. A
 * record that supplies no minimum combination finds nothing (findAll), so it has none, unless
 * every candidate pair is collected (`collect`, evaluation).
 */
export function selectCandidates(index: ContactIndex, seq: number, ids: Int32Array, collect: boolean): Selection {
  const count = ids.length;
  const noGate = new Uint8Array(count);
  const offsets = new Int32Array(count + 1);
  const candidates: number[] = [];
  for (let i = 0; i < count; i++) {
    const id = ids[i] as number;
    offsets[i] = candidates.length;
    if (!index.meetsGates(id)) {
      noGate[i] = 1;
      if (!collect) continue;
    }
    for (const other of index.indexedCandidateIds(id, false)) candidates.push(other);
  }
  offsets[count] = candidates.length;
  return { seq, ids, noGate, offsets, candidates: Int32Array.from(candidates) };
}

/**
 * The second pass: scores the pairs of a batch of owners once each and decides them for each
 * lookup that has them (ContactIndex.scoreOwnedPairs). A Possible that agrees on no minimum
 * combination says why (formatShortfalls). `collect`: every lookup's candidates and scores too.
 */
export function scorePairWork(index: ContactIndex, work: PairWork, collect: boolean): PairResult {
  const matchFrom: number[] = [];
  const matchTo: number[] = [];
  const matchScore: number[] = [];
  const possibleFrom: number[] = [];
  const possibleTo: number[] = [];
  const possibleScore: number[] = [];
  const possibleWhy: (string | null)[] = [];
  const possibleNote: (string | null)[] = [];
  const candFrom: number[] = [];
  const candTo: number[] = [];
  const candScore: number[] = [];
  const nearFrom: number[] = [];
  const nearTo: number[] = [];
  const nearScore: number[] = [];
  const near = (owner: number, other: number, score: number): void => {
    nearFrom.push(owner);
    nearTo.push(other);
    nearScore.push(score);
  };
  const visit = (query: number, other: number, c: ScoredCandidate): void => {
    if (c.decision === 'Matched') {
      matchFrom.push(query);
      matchTo.push(other);
      matchScore.push(c.score);
      return;
    }
    possibleFrom.push(query);
    possibleTo.push(other);
    possibleScore.push(c.score);
    possibleWhy.push(c.heldBack);
    possibleNote.push(c.gate === null ? formatShortfalls(index.gateShortfalls(index.get(query) as NormalizedContact, other)) : null);
  };
  const collected = collect
    ? (query: number, other: number, score: number): void => {
        candFrom.push(query);
        candTo.push(other);
        candScore.push(score);
      }
    : undefined;
  const { owners, offsets, others, flags } = work;
  for (let i = 0; i < owners.length; i++) {
    index.scoreOwnedPairs(owners[i] as number, others, flags, offsets[i] as number, offsets[i + 1] as number, visit, collected, near);
  }
  return {
    seq: work.seq,
    count: owners.length,
    matchFrom: Int32Array.from(matchFrom),
    matchTo: Int32Array.from(matchTo),
    matchScore: Float64Array.from(matchScore),
    possibleFrom: Int32Array.from(possibleFrom),
    possibleTo: Int32Array.from(possibleTo),
    possibleScore: Float64Array.from(possibleScore),
    possibleWhy,
    possibleNote,
    candFrom: Int32Array.from(candFrom),
    candTo: Int32Array.from(candTo),
    candScore: Float64Array.from(candScore),
    nearFrom: Int32Array.from(nearFrom),
    nearTo: Int32Array.from(nearTo),
    nearScore: Float64Array.from(nearScore),
  };
}

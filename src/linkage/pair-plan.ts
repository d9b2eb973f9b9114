/**
 * Deduplication scores each unordered pair of records once. Looking every record up scored
 * most pairs twice, once from each record's lookup (blocking keys are shared, so the two
 * records are nearly always each other's candidates: 159,307 of 159,666 pairs at 20,000 corpus
 * rows), and scoring is most of a lookup. So a dedupe runs in two passes: the first chooses
 * every record's candidates (shard.ts selectIndexed); the main thread then files each pair
 * under its lower id, its owner, noting whose lookups have it (this file); the second pass
 * scores each pair once, on the thread that has its owner, and decides it for each lookup
 * that has it (ContactIndex.scoreOwnedPairs). The Matched and Possible candidates of each
 * lookup are the same as looking each record up would give, whichever thread scores them.
 */
import { OTHER_LOOKS, OWNER_LOOKS } from '../engine/index.js';

/** The first pass over a batch of indexed records (lookup order): their candidates. */
export interface Selection {
  readonly seq: number;
  /** The records, in lookup order. */
  readonly ids: Int32Array;
  /** 1 when the record supplies none of the minimum combinations (its lookup finds nothing). */
  readonly noGate: Uint8Array;
  /** Record `ids[i]`'s candidates are `candidates[offsets[i]..offsets[i+1])` (ids). */
  readonly offsets: Int32Array;
  readonly candidates: Int32Array;
}

/** The second pass over a batch: the pairs its records own. */
export interface PairWork {
  readonly seq: number;
  /** The owners, in lookup order. */
  readonly owners: Int32Array;
  /** Owner `owners[i]`'s pairs are with `others[offsets[i]..offsets[i+1])`, `flags` saying whose lookups have them. */
  readonly offsets: Int32Array;
  readonly others: Int32Array;
  readonly flags: Uint8Array;
}

/** What the second pass found in a batch: each lookup's Matched and Possible candidates (query -> other). */
export interface PairResult {
  readonly seq: number;
  /** Owners in the batch. */
  readonly count: number;
  readonly matchFrom: Int32Array;
  readonly matchTo: Int32Array;
  readonly matchScore: Float64Array;
  readonly possibleFrom: Int32Array;
  readonly possibleTo: Int32Array;
  readonly possibleScore: Float64Array;
  /** Why each Possible is not Matched though it scored above the threshold (ScoredCandidate.heldBack), or null. */
  readonly possibleWhy: (string | null)[];
  /** For a Possible that agrees on no minimum combination: why (shard.ts formatShortfalls), else null. */
  readonly possibleNote: (string | null)[];
  /** Evaluation only (collectCandidates): every lookup's candidates (from, to) and the pair's score. */
  readonly candFrom: Int32Array;
  readonly candTo: Int32Array;
  readonly candScore: Float64Array;
}

/** Every pair of a dedupe under its owner, built from the first pass's selections. */
export class PairPlan {
  private readonly selections: Selection[] = [];
  private starts = new Int32Array(0);
  private others = new Int32Array(0);
  private flags = new Uint8Array(0);
  /** Unordered pairs, and lookups' candidates (each pair once or twice), once built. */
  pairs = 0;
  directions = 0;

  constructor(readonly size: number) {}

  add(selection: Selection): void {
    this.selections.push(selection);
  }

  /** Files every candidate pair under its owner, each pair once. Call after every {@link add}. */
  build(): void {
    const n = this.size;
    const starts = new Int32Array(n + 1);
    let total = 0;
    for (const s of this.selections) {
      for (let i = 0; i < s.ids.length; i++) {
        const id = s.ids[i] as number;
        for (let k = s.offsets[i] as number; k < (s.offsets[i + 1] as number); k++) {
          const owner = Math.min(id, s.candidates[k] as number);
          starts[owner] = (starts[owner] as number) + 1;
        }
      }
      total += s.candidates.length;
    }
    let at = 0;
    for (let o = 0; o <= n; o++) {
      const c = o < n ? (starts[o] as number) : 0;
      starts[o] = at;
      at += c;
    }
    const others = new Int32Array(total);
    const flags = new Uint8Array(total);
    const fill = starts.slice(0, n);
    for (const s of this.selections) {
      for (let i = 0; i < s.ids.length; i++) {
        const id = s.ids[i] as number;
        for (let k = s.offsets[i] as number; k < (s.offsets[i + 1] as number); k++) {
          const c = s.candidates[k] as number;
          const owner = Math.min(id, c);
          const p = fill[owner] as number;
          fill[owner] = p + 1;
          others[p] = id === owner ? c : id;
          flags[p] = id === owner ? OWNER_LOOKS : OTHER_LOOKS;
        }
      }
    }
    // Each owner's pairs by the other's id, the two lookups of one pair merged into one entry.
    let w = 0;
    for (let o = 0; o < n; o++) {
      const from = starts[o] as number;
      const to = starts[o + 1] as number;
      sortSegment(others, flags, from, to);
      starts[o] = w;
      for (let k = from; k < to; k++) {
        if (w > (starts[o] as number) && others[w - 1] === others[k]) flags[w - 1] = (flags[w - 1] as number) | (flags[k] as number);
        else {
          others[w] = others[k] as number;
          flags[w] = flags[k] as number;
          w++;
        }
      }
    }
    starts[n] = w;
    this.starts = starts;
    this.others = others;
    this.flags = flags;
    this.pairs = w;
    this.directions = total;
  }

  /** The selections in the order they were made (seq), each a batch of the second pass. */
  batches(): Selection[] {
    return [...this.selections].sort((a, b) => a.seq - b.seq);
  }

  /** The second pass's work for the owners `owners`. */
  work(seq: number, owners: Int32Array): PairWork {
    const offsets = new Int32Array(owners.length + 1);
    let total = 0;
    for (let i = 0; i < owners.length; i++) {
      const o = owners[i] as number;
      offsets[i] = total;
      total += (this.starts[o + 1] as number) - (this.starts[o] as number);
    }
    offsets[owners.length] = total;
    const others = new Int32Array(total);
    const flags = new Uint8Array(total);
    for (let i = 0; i < owners.length; i++) {
      const o = owners[i] as number;
      const from = this.starts[o] as number;
      const to = this.starts[o + 1] as number;
      others.set(this.others.subarray(from, to), offsets[i]);
      flags.set(this.flags.subarray(from, to), offsets[i]);
    }
    return { seq, owners: owners.slice(), offsets, others, flags };
  }
}

/** Segments longer than this are sorted by the typed array's sort instead of by insertion. */
const INSERTION_SORT_MAX = 48;

/**
 * Sorts `others[from..to)` ascending, `flags` alongside: by insertion, as most records have a
 * few dozen pairs; a record that is the candidate of very many (a common key's block) by sort.
 */
function sortSegment(others: Int32Array, flags: Uint8Array, from: number, to: number): void {
  if (to - from > INSERTION_SORT_MAX) {
    const keyed = new Float64Array(to - from);
    for (let k = from; k < to; k++) keyed[k - from] = (others[k] as number) * 4 + (flags[k] as number);
    keyed.sort();
    for (let k = from; k < to; k++) {
      const v = keyed[k - from] as number;
      others[k] = Math.floor(v / 4);
      flags[k] = v % 4;
    }
    return;
  }
  for (let i = from + 1; i < to; i++) {
    const v = others[i] as number;
    const f = flags[i] as number;
    let j = i - 1;
    while (j >= from && (others[j] as number) > v) {
      others[j + 1] = others[j] as number;
      flags[j + 1] = flags[j] as number;
      j--;
    }
    others[j + 1] = v;
    flags[j + 1] = f;
  }
}

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

  /**
   * Files every candidate pair under its owner, each pair once. Call after every {@link add}.
   * An owner's pairs are its own candidates with higher ids (in its lookup's order), then the
   * records with higher ids that have it as a candidate and it does not have (by id); a pair in
   * both lookups is one entry with both flags. Linear in the candidates: no sorting.
   */
  build(): void {
    const n = this.size;
    // Where each record's candidates are: its selection and its place in it.
    const selectionOf = new Int32Array(n).fill(-1);
    const placeOf = new Int32Array(n);
    this.selections.forEach((s, k) => {
      for (let i = 0; i < s.ids.length; i++) {
        selectionOf[s.ids[i] as number] = k;
        placeOf[s.ids[i] as number] = i;
      }
    });
    // The records that have each record as a candidate and a higher id than it (its pairs the other record's lookup has).
    const revStart = new Int32Array(n + 1);
    let total = 0;
    for (const s of this.selections) {
      for (let i = 0; i < s.ids.length; i++) {
        const id = s.ids[i] as number;
        for (let k = s.offsets[i] as number; k < (s.offsets[i + 1] as number); k++) {
          const c = s.candidates[k] as number;
          if (c < id) revStart[c + 1] = (revStart[c + 1] as number) + 1;
        }
      }
      total += s.candidates.length;
    }
    for (let o = 0; o < n; o++) revStart[o + 1] = (revStart[o + 1] as number) + (revStart[o] as number);
    const rev = new Int32Array(revStart[n] as number);
    const fill = revStart.slice(0, n);
    for (let id = 0; id < n; id++) {
      const k = selectionOf[id] as number;
      if (k < 0) continue;
      const s = this.selections[k] as Selection;
      const i = placeOf[id] as number;
      for (let j = s.offsets[i] as number; j < (s.offsets[i + 1] as number); j++) {
        const c = s.candidates[j] as number;
        if (c < id) {
          const at = fill[c] as number;
          rev[at] = id;
          fill[c] = at + 1;
        }
      }
    }
    // Each owner's pairs: its own candidates above it, then the others' lookups that have it.
    const starts = new Int32Array(n + 1);
    const others = new Int32Array(total);
    const flags = new Uint8Array(total);
    const seenBy = new Int32Array(n);
    const entryOf = new Int32Array(n);
    let w = 0;
    for (let o = 0; o < n; o++) {
      starts[o] = w;
      const k = selectionOf[o] as number;
      if (k >= 0) {
        const s = this.selections[k] as Selection;
        const i = placeOf[o] as number;
        for (let j = s.offsets[i] as number; j < (s.offsets[i + 1] as number); j++) {
          const c = s.candidates[j] as number;
          if (c <= o) continue;
          seenBy[c] = o + 1;
          entryOf[c] = w;
          others[w] = c;
          flags[w++] = OWNER_LOOKS;
        }
      }
      for (let j = revStart[o] as number; j < (revStart[o + 1] as number); j++) {
        const x = rev[j] as number;
        if (seenBy[x] === o + 1) {
          const e = entryOf[x] as number;
          flags[e] = (flags[e] as number) | OTHER_LOOKS;
        } else {
          others[w] = x;
          flags[w++] = OTHER_LOOKS;
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

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
  /** Every pair (owner, other) that scored at least the review threshold, not vetoed, once: what clustering weighs. */
  readonly nearFrom: Int32Array;
  readonly nearTo: Int32Array;
  readonly nearScore: Float64Array;
}

/** Reverse candidate lists up to this long are sorted by insertion (most are a dozen or so). */
const SHORT_LIST = 32;

/**
 * Every pair of a dedupe under its owner, built from the first pass's selections.
 *
 * The main thread does this between the passes while the workers wait, so as little of it as
 * possible is left to {@link build}: {@link add} notes where each record's candidates are and
 * counts each record's reverse candidates as the selections come in; {@link build} files the
 * reverse candidates; {@link work} lists each batch's pairs as the second pass asks for it.
 * At 1,000,000 corpus rows (15.5 M pairs), build took 1.8 s of CPU when it did all of this
 * (by id), and 0.6 s now; work 0.4 s then, 0.75 s now, while the workers score.
 */
export class PairPlan {
  private readonly selections: Selection[] = [];
  /** Where each record's candidates are: its selection and its place in it (-1: not selected yet). */
  private readonly selectionOf: Int32Array;
  private readonly placeOf: Int32Array;
  /** Counts, then (after build) starts: the records that have each record as a candidate and a higher id than it. */
  private readonly revStart: Int32Array;
  private rev = new Int32Array(0);
  /** Scratch of {@link work}: the owner that last saw each record among its candidates (+1), and where. */
  private seenBy = new Int32Array(0);
  private entryOf = new Int32Array(0);
  /** Unordered pairs listed by {@link work} so far (every pair once all batches were asked for); lookups' candidates (each pair once or twice). */
  pairs = 0;
  directions = 0;

  constructor(readonly size: number) {
    this.selectionOf = new Int32Array(size).fill(-1);
    this.placeOf = new Int32Array(size);
    this.revStart = new Int32Array(size + 1);
  }

  add(selection: Selection): void {
    const k = this.selections.length;
    this.selections.push(selection);
    const { ids, offsets, candidates } = selection;
    const revStart = this.revStart;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      this.selectionOf[id] = k;
      this.placeOf[id] = i;
      for (let j = offsets[i] as number; j < (offsets[i + 1] as number); j++) {
        const c = candidates[j] as number;
        if (c < id) revStart[c + 1] = (revStart[c + 1] as number) + 1;
      }
    }
    this.directions += candidates.length;
  }

  /**
   * Files the reverse candidates (each record's pairs that only another record's lookup may
   * have). Call after every {@link add}, before {@link work}. An owner's pairs are its own
   * candidates with higher ids (in its lookup's order), then the records with higher ids that
   * have it as a candidate and it does not have (by id); a pair in both lookups is one entry
   * with both flags. The reverse candidates are filed in the order the selections came (reading
   * them front to back: at a million rows, three times faster than by id), then each record's
   * are sorted by id.
   */
  build(): void {
    const n = this.size;
    const revStart = this.revStart;
    for (let o = 0; o < n; o++) revStart[o + 1] = (revStart[o + 1] as number) + (revStart[o] as number);
    const rev = new Int32Array(revStart[n] as number);
    const fill = revStart.slice(0, n);
    // In the order the selections came (their arrays read front to back), then each record's list sorted by id.
    for (const s of this.selections) {
      const { ids, offsets, candidates } = s;
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i] as number;
        for (let j = offsets[i] as number; j < (offsets[i + 1] as number); j++) {
          const c = candidates[j] as number;
          if (c < id) {
            const at = fill[c] as number;
            rev[at] = id;
            fill[c] = at + 1;
          }
        }
      }
    }
    for (let o = 0; o < n; o++) {
      const from = revStart[o] as number;
      const to = revStart[o + 1] as number;
      if (to - from > SHORT_LIST) {
        rev.subarray(from, to).sort();
        continue;
      }
      for (let a = from + 1; a < to; a++) {
        const v = rev[a] as number;
        let b = a - 1;
        while (b >= from && (rev[b] as number) > v) {
          rev[b + 1] = rev[b] as number;
          b--;
        }
        rev[b + 1] = v;
      }
    }
    this.rev = rev;
    this.seenBy = new Int32Array(n);
    this.entryOf = new Int32Array(n);
  }

  /**
   * True when the pair of records `x` and `y` was compared (either is among the other's
   * candidates). Call after {@link build}.
   */
  compared(x: number, y: number): boolean {
    return this.hasCandidate(x, y) || this.hasCandidate(y, x);
  }

  private hasCandidate(x: number, y: number): boolean {
    const k = this.selectionOf[x] as number;
    if (k < 0) return false;
    const s = this.selections[k] as Selection;
    const p = this.placeOf[x] as number;
    for (let j = s.offsets[p] as number; j < (s.offsets[p + 1] as number); j++) if (s.candidates[j] === y) return true;
    return false;
  }

  /** The selections in the order they were made (seq), each a batch of the second pass. */
  batches(): Selection[] {
    return [...this.selections].sort((a, b) => a.seq - b.seq);
  }

  /** The second pass's work for the owners `owners` (after {@link build}): each owner's pairs. */
  work(seq: number, owners: Int32Array): PairWork {
    const offsets = new Int32Array(owners.length + 1);
    let room = 0;
    for (let i = 0; i < owners.length; i++) {
      const o = owners[i] as number;
      const k = this.selectionOf[o] as number;
      if (k >= 0) {
        const s = this.selections[k] as Selection;
        const p = this.placeOf[o] as number;
        room += (s.offsets[p + 1] as number) - (s.offsets[p] as number);
      }
      room += (this.revStart[o + 1] as number) - (this.revStart[o] as number);
    }
    let others = new Int32Array(room);
    let flags = new Uint8Array(room);
    const { seenBy, entryOf, rev, revStart } = this;
    let w = 0;
    for (let i = 0; i < owners.length; i++) {
      const o = owners[i] as number;
      offsets[i] = w;
      const k = this.selectionOf[o] as number;
      if (k >= 0) {
        const s = this.selections[k] as Selection;
        const p = this.placeOf[o] as number;
        for (let j = s.offsets[p] as number; j < (s.offsets[p + 1] as number); j++) {
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
    offsets[owners.length] = w;
    if (w < room) {
      others = others.slice(0, w);
      flags = flags.slice(0, w);
    }
    this.pairs += w;
    return { seq, owners: owners.slice(), offsets, others, flags };
  }
}

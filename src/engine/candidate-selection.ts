/**
 * Candidate selection: which records sharing a blocking key with a candidate get scored,
 * from how many records each of the candidate's keys holds and the records under them. The
 * in-memory index reads its posting table; a database holding the keys (src/crm's database
 * retrieval) reads the same counts and records from a table and runs this same function, so
 * both choose the same candidates in the same order.
 */
import { IdTally } from './id-tally.js';

/** Limits of candidate selection (see IndexOptions in contact-index.ts for each one's meaning). */
export interface SelectionLimits {
  /** A key filed under more records than this is common. */
  readonly maxBlockSize: number;
  /** At most this many candidates. */
  readonly maxCandidates: number;
  /** A key filed under at most this many records is selective (enough alone). */
  readonly selectiveBlockSize: number;
}

/**
 * Where the selection reads the keys of one lookup (numbered 0..n-1 in the candidate's
 * emission order): entries are whatever the source files (the index's rows, a database's
 * crmIds); `idOf` gives each entry's record id, for ordering.
 */
export interface KeyPostings {
  /** Records filed under key `i`. */
  count(i: number): number;
  /** Calls `tally(entry, weight)` for up to `limit` entries of key `i`, most recently filed first. */
  read(i: number, limit: number, weight: number, tally: (entry: number, weight: number) => void): void;
  idOf(entry: number): number;
}

/** Ids are below 2^31: an id and a hit count pack into one exactly representable number. */
const ID_SPAN = 2 ** 31;
/** Hit counts above this sort as equal (a record shares at most a few dozen keys). */
const MAX_HITS = 1 << 16;

function ascending(a: number, b: number): number {
  return a - b;
}

/** Arrays at most this long are sorted by insertion (no comparator calls); longer ones by Array.prototype.sort. */
const INSERTION_SORT_MAX = 32;

/** Sorts `xs[0..n)` ascending; the numbers are distinct, so any correct sort gives this order. */
function sortDistinct(xs: number[], n: number): void {
  if (n > INSERTION_SORT_MAX) {
    const head = xs.length === n ? xs : xs.slice(0, n);
    head.sort(ascending);
    if (head !== xs) for (let i = 0; i < n; i++) xs[i] = head[i] as number;
    return;
  }
  insertionSort(xs, n);
}

/** Insertion sort of `keys[0..n)` ascending (no comparator calls), moving `carried[i]` with `keys[i]` when given. */
function insertionSort(keys: number[], n: number, carried?: number[]): void {
  for (let i = 1; i < n; i++) {
    const x = keys[i] as number;
    const c = carried?.[i] as number;
    let j = i - 1;
    while (j >= 0 && (keys[j] as number) > x) {
      keys[j + 1] = keys[j] as number;
      if (carried !== undefined) carried[j + 1] = carried[j] as number;
      j--;
    }
    keys[j + 1] = x;
    if (carried !== undefined) carried[j + 1] = c;
  }
}

/** Runs the selection; one per index (its tally and scratch arrays are reused across lookups, which are synchronous). */
export class CandidateSelector {
  private readonly hits = new IdTally();
  /** The entry the lookup under way never returns (select's `exclude`), read by {@link tally}. */
  private exclude = -1;
  private readonly tally = (entry: number, weight: number): void => {
    if (entry !== this.exclude) this.hits.add(entry, weight);
  };
  /** Scratch of one selection: keys by selectivity, their counts, the ranking keys of the entries found. */
  private readonly order: number[] = [];
  private readonly counts: number[] = [];
  private readonly ranks: number[] = [];
  private readonly rankedEntries: number[] = [];

  constructor(readonly limits: SelectionLimits) {}

  /**
   * The entries to score, best first. Keys are read most selective first (ties: emission
   * order); a key filed under more than maxBlockSize records is skipped once another key
   * found records, and when every key is that common only maxBlockSize records of the most
   * selective one are read (at most maxCandidates * 4 reads in all). A record counts when it
   * was found under a selective key or under at least two keys (when none was, every record
   * found counts). Records sharing more keys come first, then lower ids; at most
   * maxCandidates. `exclude`: an entry never returned. Deterministic. `ordered` false: the
   * same entries in no particular order (unranked when they are within maxCandidates).
   */
  select(n: number, postings: KeyPostings, exclude = -1, ordered = true): number[] {
    const { maxBlockSize, maxCandidates, selectiveBlockSize } = this.limits;
    // Keys with records, most selective first (ties: emission order): count * n + i sorts both.
    const order = this.order;
    const counts = this.counts;
    let keys = 0;
    for (let i = 0; i < n; i++) {
      const count = postings.count(i);
      counts[i] = count;
      if (count > 0) order[keys++] = count * n + i;
    }
    sortDistinct(order, keys);
    // Hits per record: 2 for a selective key (enough alone), 1 for any other.
    const hits = this.hits;
    hits.clear();
    this.exclude = exclude;
    const budget = maxCandidates * 4;
    let read = 0;
    for (let k = 0; k < keys; k++) {
      const i = (order[k] as number) % n;
      const count = counts[i] as number;
      const common = count > maxBlockSize;
      if (common && hits.size > 0) continue;
      const weight = count <= selectiveBlockSize ? 2 : 1;
      const limit = Math.min(common ? maxBlockSize : count, budget - read);
      postings.read(i, limit, weight, this.tally);
      read += limit;
      if (common || read >= budget) break;
    }
    // Records found under a selective key or two keys; when none, every record found (a
    // candidate with a single key, an email alone, still reaches its records). Sorted by
    // hits (more first), then id, as one number per record: (MAX_HITS - hits) * 2^31 + id.
    let minHits = 2;
    let qualified = 0;
    for (let k = 0; k < hits.size; k++) if (hits.tallyAt(k) >= 2) qualified++;
    if (qualified === 0) {
      minHits = 0;
      qualified = hits.size;
    }
    if (!ordered && qualified <= maxCandidates) {
      const out = new Array<number>(qualified);
      let at = 0;
      for (let k = 0; k < hits.size; k++) if (hits.tallyAt(k) >= minHits) out[at++] = hits.idAt(k);
      return out;
    }
    const ranks = this.ranks;
    const entries = this.rankedEntries;
    let m = 0;
    for (let k = 0; k < hits.size; k++) {
      const h = hits.tallyAt(k);
      if (h < minHits) continue;
      const entry = hits.idAt(k);
      ranks[m] = (MAX_HITS - Math.min(h, MAX_HITS)) * ID_SPAN + postings.idOf(entry);
      entries[m++] = entry;
    }
    const size = Math.min(m, maxCandidates);
    const out = new Array<number>(size);
    if (m <= INSERTION_SORT_MAX) {
      // Few entries (nearly every lookup): sort the (rank, entry) pairs in place by rank.
      insertionSort(ranks, m, entries);
      for (let k = 0; k < size; k++) out[k] = entries[k] as number;
      return out;
    }
    const ranked = Array.from({ length: m }, (_, i) => i).sort((a, b) => (ranks[a] as number) - (ranks[b] as number));
    for (let k = 0; k < size; k++) out[k] = entries[ranked[k] as number] as number;
    return out;
  }

  /**
   * Which keys {@link select} reads in full or in part, given only which keys are common:
   * true when it reaches a common key, which happens only when no key at or below
   * maxBlockSize records holds an entry other than `exclude` (then the exact counts of the
   * common keys decide which one is read). `entriesOf(i)`: the entries of an uncommon key.
   */
  readsCommonKey(n: number, common: (i: number) => boolean, entriesOf: (i: number) => readonly number[], exclude = -1): boolean {
    let anyCommon = false;
    for (let i = 0; i < n; i++) {
      if (common(i)) anyCommon = true;
      else if (entriesOf(i).some((e) => e !== exclude)) return false;
    }
    return anyCommon;
  }
}

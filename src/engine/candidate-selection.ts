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

/** Runs the selection; one per index (its tally is reused across lookups, which are synchronous). */
export class CandidateSelector {
  private readonly hits = new IdTally();

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
    const order: number[] = [];
    const counts = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      const count = postings.count(i);
      counts[i] = count;
      if (count > 0) order.push(count * n + i);
    }
    order.sort(ascending);
    // Hits per record: 2 for a selective key (enough alone), 1 for any other.
    const hits = this.hits;
    hits.clear();
    const budget = maxCandidates * 4;
    let read = 0;
    const tally = (entry: number, weight: number): void => {
      if (entry !== exclude) hits.add(entry, weight);
    };
    for (const key of order) {
      const i = key % n;
      const count = counts[i] as number;
      const common = count > maxBlockSize;
      if (common && hits.size > 0) continue;
      const weight = count <= selectiveBlockSize ? 2 : 1;
      const limit = Math.min(common ? maxBlockSize : count, budget - read);
      postings.read(i, limit, weight, tally);
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
    const keys: number[] = [];
    const entries: number[] = [];
    for (let k = 0; k < hits.size; k++) {
      const h = hits.tallyAt(k);
      if (h < minHits) continue;
      const entry = hits.idAt(k);
      keys.push((MAX_HITS - Math.min(h, MAX_HITS)) * ID_SPAN + postings.idOf(entry));
      entries.push(entry);
    }
    const ranked = keys.map((_, i) => i).sort((a, b) => (keys[a] as number) - (keys[b] as number));
    const size = Math.min(ranked.length, maxCandidates);
    const out = new Array<number>(size);
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

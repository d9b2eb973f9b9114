/**
 * Deduplication results gathered from query batches, and the clusters made of them.
 *
 * Matched pairs are joined into clusters strongest first (single linkage in score order),
 * but a pair joins two clusters only when no row of one conflicts with a row of the other
 * (conflicts.ts: clearly different names, dates of birth or identifiers) unless the model
 * matched those two rows directly (a pair may differ on a field and still match; two rows
 * joined through a third must not conflict); first names that differ do not keep two
 * clusters apart when the pair joining them gives one given name (conflicts.ts
 * firstNamesAlike: one person's records use a middle name or a title), and a row with no
 * name never joins two clusters that both hold named rows: it may belong to either, and
 * would otherwise bridge two people; likewise a row with no surname never joins two clusters
 * whose surnames share nothing (surnameBridge). Two clusters join only where the pairs
 * compared between them read, on average, as one person (join-rules.ts MIN_CROSS_SUPPORT): single
 * linkage alone chains namesakes. A cluster is named by its first row. Each row keeps its
 * best Matched partner within its cluster and its best Possible. The result depends only on
 * the pairs found, not on the order batches arrive in (same output on any number of threads).
 */
import { ALL_CONFLICTS, isNamed, type ConflictKinds, type Signature } from './conflicts.js';
import { checkedMembers, conflictRefusal, crossSupport, MIN_CROSS_SUPPORT, pairKey, WEAK_SUPPORT } from './join-rules.js';
import type { PairResult, Selection } from './pair-plan.js';
import type { QueryResult } from './shard.js';

/** Per-row outcome codes. */
export type RowDecision = 'Matched' | 'Possible' | 'Unmatched' | 'Unmatchable';

/** Aggregated results of a deduplication over `size` rows. */
export class DedupeResults {
  readonly partner: Int32Array;
  readonly partnerScore: Float64Array;
  readonly possible: Int32Array;
  readonly possibleScore: Float64Array;
  readonly noGate: Uint8Array;
  /** Rows whose best Possible agrees on no minimum combination: why (shard.ts formatShortfalls). */
  readonly shortfalls = new Map<number, string>();
  private readonly parent: Int32Array;
  /** Matched pairs found (each direction counted once per finding). */
  matchedFindings = 0;
  /** Rows answered so far. */
  answered = 0;
  /** Rows whose lookup found a Matched or Possible candidate ({@link addPairs}). */
  private readonly found: Uint8Array;
  /** Sampled best scores of rows without a candidate above the review threshold. */
  readonly lowScores: number[] = [];
  /** Every Matched pair as found (from, to, score), when kept (eval, report). */
  readonly edges: { from: number[]; to: number[]; score: number[] } | null;
  /** Matched pairs waiting to be clustered. */
  private readonly pending: { from: number[]; to: number[]; score: number[] } = { from: [], to: [], score: [] };
  /** Pairs scored at least the review threshold (owner, other, score), once each: clustering's evidence. */
  private readonly near: { from: number[]; to: number[]; score: number[] } = { from: [], to: [], score: [] };
  /** Evaluation: every candidate pair compared and its score (when the pool collects them). */
  readonly candidates: { from: number[]; to: number[]; score: number[] } = { from: [], to: [], score: [] };
  /** Why each row's Possible is not Matched though it scored above the threshold (a missing gate...). */
  readonly possibleWhy = new Map<number, string>();
  /** Pairs clustering refused, and why (a conflict, or a nameless bridge). */
  readonly refused: { a: number; b: number; score: number; why: string }[] = [];
  private sizes: Int32Array | null = null;
  private clustered = false;

  constructor(
    readonly size: number,
    keepEdges: boolean,
  ) {
    this.partner = new Int32Array(size).fill(-1);
    this.partnerScore = new Float64Array(size);
    this.possible = new Int32Array(size).fill(-1);
    this.possibleScore = new Float64Array(size);
    this.noGate = new Uint8Array(size);
    this.found = new Uint8Array(size);
    this.parent = new Int32Array(size);
    for (let i = 0; i < size; i++) this.parent[i] = i;
    this.edges = keepEdges ? { from: [], to: [], score: [] } : null;
  }

  /** Root of a row's cluster: the cluster's lowest row. */
  root(row: number): number {
    const parent = this.parent;
    let r = row;
    while (parent[r] !== r) r = parent[r] as number;
    let cur = row;
    while (cur !== r) {
      const next = parent[cur] as number;
      parent[cur] = r;
      cur = next;
    }
    return r;
  }

  private offerPartner(row: number, other: number, score: number): void {
    const cur = this.partner[row] as number;
    const curScore = this.partnerScore[row] as number;
    if (cur === -1 || score > curScore || (score === curScore && other < cur)) {
      this.partner[row] = other;
      this.partnerScore[row] = score;
    }
  }

  /** Adds one query batch's findings. */
  add(result: QueryResult): void {
    this.addMatched(result.matchFrom, result.matchTo, result.matchScore, false);
    for (let i = 0; i < result.count; i++) {
      const row = result.ids[i] as number;
      this.possible[row] = result.possibleId[i] as number;
      this.possibleScore[row] = result.possibleScore[i] as number;
      this.noGate[row] = result.noGate[i] as number;
      const why = result.possibleWhy[i];
      if (why !== null && why !== undefined) this.possibleWhy.set(row, why);
    }
    for (let k = 0; k < result.candFrom.length; k++) {
      this.candidates.from.push(result.candFrom[k] as number);
      this.candidates.to.push(result.candTo[k] as number);
      this.candidates.score.push(result.candScore[k] as number);
    }
    result.noteIds.forEach((row, k) => this.shortfalls.set(row, result.notes[k] as string));
    for (const s of result.lowScores) this.lowScores.push(s);
    this.answered += result.count;
  }

  /** Matched pairs (from, to, score) to join when clustering; `found`: their `from` rows found a candidate ({@link addPairs}). */
  private addMatched(from: ArrayLike<number>, to: ArrayLike<number>, score: ArrayLike<number>, found: boolean): void {
    for (let k = 0; k < from.length; k++) {
      const a = from[k] as number;
      const b = to[k] as number;
      const s = score[k] as number;
      if (found) this.found[a] = 1;
      this.pending.from.push(a);
      this.pending.to.push(b);
      this.pending.score.push(s);
      if (this.edges !== null) {
        this.edges.from.push(a);
        this.edges.to.push(b);
        this.edges.score.push(s);
      }
    }
    this.matchedFindings += from.length;
  }

  /** A dedupe's first pass (pair-plan.ts): which rows supply no minimum combination. */
  addSelection(selection: Selection): void {
    for (let i = 0; i < selection.ids.length; i++) this.noGate[selection.ids[i] as number] = selection.noGate[i] as number;
  }

  /**
   * A dedupe's second pass (pair-plan.ts): the Matched and Possible candidates of lookups, in
   * any order. A row's Possible is its best-scoring one, ties to the lowest row, as a lookup
   * ranks them (decide.ts compareCandidates).
   */
  addPairs(result: PairResult): void {
    this.addMatched(result.matchFrom, result.matchTo, result.matchScore, true);
    for (let k = 0; k < result.possibleFrom.length; k++) {
      const row = result.possibleFrom[k] as number;
      const other = result.possibleTo[k] as number;
      const score = result.possibleScore[k] as number;
      this.found[row] = 1;
      const cur = this.possible[row] as number;
      const curScore = this.possibleScore[row] as number;
      if (cur !== -1 && (score < curScore || (score === curScore && other > cur))) continue;
      this.possible[row] = other;
      this.possibleScore[row] = score;
      const why = result.possibleWhy[k];
      if (why !== null && why !== undefined) this.possibleWhy.set(row, why);
      else this.possibleWhy.delete(row);
      const note = result.possibleNote[k];
      if (note !== null && note !== undefined) this.shortfalls.set(row, note);
      else this.shortfalls.delete(row);
    }
    for (let k = 0; k < result.candFrom.length; k++) {
      this.candidates.from.push(result.candFrom[k] as number);
      this.candidates.to.push(result.candTo[k] as number);
      this.candidates.score.push(result.candScore[k] as number);
    }
    for (let k = 0; k < result.nearFrom.length; k++) {
      this.near.from.push(result.nearFrom[k] as number);
      this.near.to.push(result.nearTo[k] as number);
      this.near.score.push(result.nearScore[k] as number);
    }
    this.answered += result.count;
  }

  /** Rows (every `every`-th) whose lookup found nothing though they supply a minimum combination: the report samples their best scores. */
  lowScoreRows(every: number): number[] {
    const out: number[] = [];
    if (every <= 0) return out;
    for (let row = 0; row < this.size; row += every) if (this.found[row] === 0 && this.noGate[row] === 0) out.push(row);
    return out;
  }

  /** Rows that appear in a Matched pair (whose signatures clustering needs). */
  matchedRows(): number[] {
    const seen = new Uint8Array(this.size);
    for (const r of this.pending.from) seen[r] = 1;
    for (const r of this.pending.to) seen[r] = 1;
    // In row order, by reading the marks in order (no sort).
    const out: number[] = [];
    for (let r = 0; r < this.size; r++) if (seen[r] === 1) out.push(r);
    return out;
  }

  /**
   * Joins the Matched pairs into clusters (see the file comment). `signatures` holds every row
   * of {@link matchedRows}; without it (null) pairs join unconditionally (transitive closure).
   * `compared` (with signatures) says whether blocking compared two rows: then two clusters
   * join only where the pairs compared between them support it (join-rules.ts MIN_CROSS_SUPPORT).
   */
  cluster(signatures: ReadonlyMap<number, Signature> | null, kinds: ConflictKinds = ALL_CONFLICTS, compared?: (x: number, y: number) => boolean): void {
    const { from, to, score } = this.pending;
    const n = from.length;
    const order = Array.from({ length: n }, (_, k) => k);
    // Strongest first; ties by the pair's rows, so that every thread count gives one order.
    order.sort((x, y) => (score[y] as number) - (score[x] as number) || lo(from, to, x) - lo(from, to, y) || hi(from, to, x) - hi(from, to, y));
    const direct = new Set<number>();
    for (let k = 0; k < n; k++) direct.add(pairKey(from[k] as number, to[k] as number, this.size));
    const members = new Map<number, number[]>();
    const membersOf = (root: number): number[] => members.get(root) ?? [root];
    const named = new Uint8Array(this.size);
    // By row, read in the conflict checks' inner loops (an array load, not a map lookup).
    const byRow: (Signature | undefined)[] = signatures === null ? [] : new Array<Signature | undefined>(this.size).fill(undefined);
    if (signatures !== null) {
      for (const [row, sig] of signatures) {
        byRow[row] = sig;
        if (isNamed(sig)) named[row] = 1;
      }
    }
    const hasNamed = (list: readonly number[]): boolean => list.some((r) => named[r] === 1);
    const support = signatures !== null && compared !== undefined ? crossSupport(this.size, this.pending, this.near, compared) : null;
    for (const k of order) {
      const a = from[k] as number;
      const b = to[k] as number;
      const ra = this.root(a);
      const rb = this.root(b);
      if (ra === rb) continue;
      const ma = membersOf(ra);
      const mb = membersOf(rb);
      const xs = checkedMembers(ma);
      const ys = checkedMembers(mb);
      if (support !== null && ma.length + mb.length > 2 && support(xs, ys) < MIN_CROSS_SUPPORT) {
        this.refused.push({ a, b, score: score[k] as number, why: WEAK_SUPPORT });
        continue;
      }
      if (signatures !== null) {
        const why = conflictRefusal(this.size, a, b, ma, mb, xs, ys, byRow, named, hasNamed, direct, kinds);
        if (why !== null) {
          this.refused.push({ a, b, score: score[k] as number, why });
          continue;
        }
      }
      const [keep, gone] = ra < rb ? [ra, rb] : [rb, ra];
      this.parent[gone] = keep;
      const joined = ma.concat(mb);
      members.set(keep, joined);
      members.delete(gone);
    }
    for (let k = 0; k < n; k++) {
      const a = from[k] as number;
      const b = to[k] as number;
      if (this.root(a) !== this.root(b)) continue;
      this.offerPartner(a, b, score[k] as number);
      this.offerPartner(b, a, score[k] as number);
    }
    this.pending.from.length = 0;
    this.pending.to.length = 0;
    this.pending.score.length = 0;
    this.sizes = null;
    this.clustered = true;
  }

  /** Size of the cluster a row is in. */
  clusterSize(row: number): number {
    if (this.sizes === null) {
      const sizes = new Int32Array(this.size);
      for (let i = 0; i < this.size; i++) sizes[this.root(i)] = (sizes[this.root(i)] ?? 0) + 1;
      this.sizes = sizes;
    }
    return this.sizes[this.root(row)] as number;
  }

  /** A row's decision: in a cluster of 2+, else a possible match, else why not. */
  decision(row: number): RowDecision {
    if (!this.clustered) throw new Error('DedupeResults.cluster() must run before decisions are read');
    if (this.partner[row] !== -1) return 'Matched';
    if (this.possible[row] !== -1) return 'Possible';
    return this.noGate[row] === 1 ? 'Unmatchable' : 'Unmatched';
  }

  /** Counts for the summary. */
  counts(): { clusters: number; multiClusters: number; duplicates: number; possible: number; unmatchable: number; largest: number; refused: number } {
    let clusters = 0;
    let multi = 0;
    let possible = 0;
    let unmatchable = 0;
    let largest = this.size > 0 ? 1 : 0;
    for (let i = 0; i < this.size; i++) {
      if (this.root(i) === i) {
        clusters++;
        const n = this.clusterSize(i);
        if (n > 1) multi++;
        if (n > largest) largest = n;
      }
      const d = this.decision(i);
      if (d === 'Possible') possible++;
      else if (d === 'Unmatchable') unmatchable++;
    }
    return { clusters, multiClusters: multi, duplicates: this.size - clusters, possible, unmatchable, largest, refused: this.refused.length };
  }

  /** The `limit` largest clusters (roots), largest first, ties by first row. */
  largestClusters(limit: number): { root: number; members: number[] }[] {
    const members = new Map<number, number[]>();
    for (let i = 0; i < this.size; i++) {
      if (this.clusterSize(i) < 2) continue;
      const r = this.root(i);
      const list = members.get(r);
      if (list) list.push(i);
      else members.set(r, [i]);
    }
    return [...members.entries()]
      .sort((a, b) => b[1].length - a[1].length || a[0] - b[0])
      .slice(0, limit)
      .map(([root, list]) => ({ root, members: list }));
  }
}

function lo(from: readonly number[], to: readonly number[], k: number): number {
  return Math.min(from[k] as number, to[k] as number);
}

function hi(from: readonly number[], to: readonly number[], k: number): number {
  return Math.max(from[k] as number, to[k] as number);
}

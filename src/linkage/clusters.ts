/**
 * Deduplication results gathered from query batches: every Matched pair joins two rows'
 * clusters (union-find, transitive closure, the cluster named by its first row), and each
 * row keeps its best Matched partner (from either side of the pair) and its best Possible.
 */
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
  /** Sampled best scores of rows without a candidate above the review threshold. */
  readonly lowScores: number[] = [];
  /** Every Matched pair as found (from, to, score), when kept (eval, report). */
  readonly edges: { from: number[]; to: number[]; score: number[] } | null;
  private sizes: Int32Array | null = null;

  constructor(readonly size: number, keepEdges: boolean) {
    this.partner = new Int32Array(size).fill(-1);
    this.partnerScore = new Float64Array(size);
    this.possible = new Int32Array(size).fill(-1);
    this.possibleScore = new Float64Array(size);
    this.noGate = new Uint8Array(size);
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

  private union(a: number, b: number): void {
    const ra = this.root(a);
    const rb = this.root(b);
    if (ra === rb) return;
    if (ra < rb) this.parent[rb] = ra;
    else this.parent[ra] = rb;
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
    const { matchFrom, matchTo, matchScore } = result;
    for (let k = 0; k < matchFrom.length; k++) {
      const a = matchFrom[k] as number;
      const b = matchTo[k] as number;
      const s = matchScore[k] as number;
      this.union(a, b);
      this.offerPartner(a, b, s);
      this.offerPartner(b, a, s);
      if (this.edges !== null) {
        this.edges.from.push(a);
        this.edges.to.push(b);
        this.edges.score.push(s);
      }
    }
    this.matchedFindings += matchFrom.length;
    for (let i = 0; i < result.count; i++) {
      const row = result.firstId + i;
      this.possible[row] = result.possibleId[i] as number;
      this.possibleScore[row] = result.possibleScore[i] as number;
      this.noGate[row] = result.noGate[i] as number;
    }
    result.noteIds.forEach((row, k) => this.shortfalls.set(row, result.notes[k] as string));
    for (const s of result.lowScores) this.lowScores.push(s);
    this.answered += result.count;
    this.sizes = null;
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
    if (this.partner[row] !== -1) return 'Matched';
    if (this.possible[row] !== -1) return 'Possible';
    return this.noGate[row] === 1 ? 'Unmatchable' : 'Unmatched';
  }

  /** Counts for the summary. */
  counts(): { clusters: number; multiClusters: number; duplicates: number; possible: number; unmatchable: number; largest: number } {
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
    return { clusters, multiClusters: multi, duplicates: this.size - clusters, possible, unmatchable, largest };
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

/**
 * Linkage of two files: the left file is indexed (on every thread), each right row is
 * queried against it; each right row is linked to its best Matched left row, or, one to
 * one, pairs are taken best score first so that no left or right row is used twice.
 */
import { LinkageInputError } from './errors.js';
import type { ProgressSink } from './progress.js';
import { createPool, READ_BATCH_ROWS } from './dedupe-run.js';
import { mapFile, openFile, readInput, type InputOptions, type OpenedInput, type ReadInput } from './input.js';
import { findColumn } from '../files/header-map.js';
import { threadsFor, type RunOptions } from './options.js';
import type { Learned } from './learn.js';
import type { MatchPool, PoolConfig } from './pool.js';
import type { QueryResult, UnreadableValues } from './shard.js';

/** Per right row: its Matched candidates (best first), best Possible, and gate status. */
export class LinkResults {
  readonly candRight: number[] = [];
  readonly candLeft: number[] = [];
  readonly candScore: number[] = [];
  possible: Int32Array;
  possibleScore: Float64Array;
  noGate: Uint8Array;
  /** Right rows whose best Possible agrees on no minimum combination: why (shard.ts formatShortfalls). */
  readonly shortfalls = new Map<number, string>();
  readonly lowScores: number[] = [];
  /** Evaluation: every candidate pair compared (right row, left row) and its score. */
  readonly candidates: { right: number[]; left: number[]; score: number[] } = { right: [], left: [], score: [] };
  /** Why each right row's Possible is not a link though it scored above the threshold. */
  readonly possibleWhy = new Map<number, string>();
  answered = 0;
  size = 0;

  constructor() {
    this.possible = new Int32Array(1024).fill(-1);
    this.possibleScore = new Float64Array(1024);
    this.noGate = new Uint8Array(1024);
  }

  private grow(size: number): void {
    if (size <= this.possible.length) return;
    let cap = this.possible.length;
    while (cap < size) cap *= 2;
    const p = new Int32Array(cap).fill(-1);
    p.set(this.possible);
    const ps = new Float64Array(cap);
    ps.set(this.possibleScore);
    const g = new Uint8Array(cap);
    g.set(this.noGate);
    this.possible = p;
    this.possibleScore = ps;
    this.noGate = g;
  }

  add(r: QueryResult): void {
    let end = 0;
    for (const id of r.ids) end = Math.max(end, id + 1);
    this.grow(end);
    this.size = Math.max(this.size, end);
    for (let k = 0; k < r.matchFrom.length; k++) {
      this.candRight.push(r.matchFrom[k] as number);
      this.candLeft.push(r.matchTo[k] as number);
      this.candScore.push(r.matchScore[k] as number);
    }
    for (let i = 0; i < r.count; i++) {
      const row = r.ids[i] as number;
      this.possible[row] = r.possibleId[i] as number;
      this.possibleScore[row] = r.possibleScore[i] as number;
      this.noGate[row] = r.noGate[i] as number;
      const why = r.possibleWhy[i];
      if (why !== null && why !== undefined) this.possibleWhy.set(row, why);
    }
    for (let k = 0; k < r.candFrom.length; k++) {
      this.candidates.right.push(r.candFrom[k] as number);
      this.candidates.left.push(r.candTo[k] as number);
      this.candidates.score.push(r.candScore[k] as number);
    }
    r.noteIds.forEach((row, k) => this.shortfalls.set(row, r.notes[k] as string));
    for (const s of r.lowScores) this.lowScores.push(s);
    this.answered += r.count;
  }

  /**
   * The links: each right row's best Matched left row; or, `oneToOne`, pairs taken in order
   * of score (ties: lower right row, then lower left row) skipping rows already linked.
   * Sorted by right row.
   */
  links(oneToOne: boolean): { right: number; left: number; score: number }[] {
    const n = this.candRight.length;
    const order = Array.from({ length: n }, (_, k) => k);
    const out: { right: number; left: number; score: number }[] = [];
    if (!oneToOne) {
      let last = -1;
      // Candidates of one right row are contiguous and best first, but batches may arrive in any order.
      order.sort((a, b) => (this.candRight[a] as number) - (this.candRight[b] as number) || a - b);
      for (const k of order) {
        const right = this.candRight[k] as number;
        if (right === last) continue;
        last = right;
        out.push({ right, left: this.candLeft[k] as number, score: this.candScore[k] as number });
      }
      return out;
    }
    order.sort(
      (a, b) =>
        (this.candScore[b] as number) - (this.candScore[a] as number) ||
        (this.candRight[a] as number) - (this.candRight[b] as number) ||
        (this.candLeft[a] as number) - (this.candLeft[b] as number),
    );
    const usedLeft = new Set<number>();
    const usedRight = new Set<number>();
    for (const k of order) {
      const right = this.candRight[k] as number;
      const left = this.candLeft[k] as number;
      if (usedLeft.has(left) || usedRight.has(right)) continue;
      usedLeft.add(left);
      usedRight.add(right);
      out.push({ right, left, score: this.candScore[k] as number });
    }
    return out.sort((a, b) => a.right - b.right);
  }
}

/** Two files matched, the pool open for explanations. */
export interface LinkRun {
  readonly left: OpenedInput;
  readonly right: OpenedInput;
  readonly leftRead: ReadInput;
  readonly rightRead: ReadInput;
  readonly results: LinkResults;
  readonly pool: MatchPool;
  readonly leftUnreadable: UnreadableValues;
  readonly rightUnreadable: UnreadableValues;
  readonly threads: number;
  readonly timings: { index: number; learn: number; match: number };
  readonly lowSampleEvery: number;
  /** The learned model and how it was obtained (learned rules), else null. */
  readonly learned: Learned | null;
}

/** Rows of the right file read to estimate a link's model, at most (every k-th row beyond). */
export const TRAINING_ROWS = 100_000;

/** Ids per side: `--left-id`/`--right-id`, else `--id` for both. */
export interface LinkIds {
  readonly left: string | undefined;
  readonly right: string | undefined;
}

/** `--map` overrides apply to each file that has the column; one that neither has is an error. */
function splitOverrides(
  common: RunOptions,
  leftHeader: readonly string[],
  rightHeader: readonly string[],
): [InputOptions['overrides'], InputOptions['overrides']] {
  const left = common.overrides.filter((o) => typeof findColumn(leftHeader, o.header, '--map') === 'number');
  const right = common.overrides.filter((o) => typeof findColumn(rightHeader, o.header, '--map') === 'number');
  for (const o of common.overrides) {
    if (!left.includes(o) && !right.includes(o)) throw new LinkageInputError(`--map "${o.header}=${o.field}": neither file has a column "${o.header}"`);
  }
  return [left, right];
}

/** Reads the left file into the index and queries every right row against it. */
export async function matchLink(
  leftPath: string,
  rightPath: string,
  common: RunOptions,
  ids: LinkIds,
  progress: ProgressSink,
  options: { keepQueries: boolean; sampleLowScores: boolean; collectCandidates?: boolean },
): Promise<LinkRun> {
  const base = { delimiter: common.delimiter, encoding: common.encoding, batchRows: READ_BATCH_ROWS };
  const leftCsv = await openFile(leftPath, base);
  const rightCsv = await openFile(rightPath, base).catch(async (err: unknown) => {
    await leftCsv.close();
    throw err;
  });
  let left: OpenedInput;
  let right: OpenedInput;
  try {
    const [lo, ro] = splitOverrides(common, leftCsv.layout.header, rightCsv.layout.header);
    const extra = { identifiers: common.identifiers, attributes: common.attributes, readDateOrder: common.settings.dateOrder === null };
    left = await mapFile(leftPath, leftCsv, { overrides: lo, idColumn: ids.left, ...extra });
    right = await mapFile(rightPath, rightCsv, { overrides: ro, idColumn: ids.right, ...extra });
  } catch (err) {
    await leftCsv.close();
    await rightCsv.close();
    throw err;
  }
  const threads = threadsFor(common.threads, left.layout.size + right.layout.size);
  const estimatedRows = Math.max(1, Math.round(right.layout.size / 80));
  const lowSampleEvery = options.sampleLowScores ? Math.max(1, Math.round(estimatedRows / 20_000)) : 0;
  const config: PoolConfig = {
    mode: 'link',
    settings: common.settings,
    indexPlan: left.plan,
    queryPlan: right.plan,
    lowSampleEvery,
    queryBatchRows: READ_BATCH_ROWS,
    keepQueries: options.keepQueries,
    collectCandidates: options.collectCandidates === true,
  };
  const pool = createPool(threads, config);
  try {
    const t0 = performance.now();
    const leftRead = await readInput(left, (batch) => pool.index(batch), progress, 'reading left');
    progress.start('indexing', null);
    const leftUnreadable = await pool.finishIndex();
    progress.finish();
    const t1 = performance.now();
    let learned: Learned | null = null;
    let queried = right;
    if (common.settings.rules === 'learned') {
      // The model is estimated on pairs across the two files: read the right file once for it
      // (every k-th batch of a large one), then again to match it.
      const every = Math.max(1, Math.ceil(right.layout.size / 80 / TRAINING_ROWS));
      await readInput(right, (batch) => (batch.seq % every === 0 ? pool.train(batch) : Promise.resolve()), progress, 'reading right');
      progress.start(common.settings.model === null ? 'estimating the model' : 'estimating the prior', null);
      learned = await pool.learn();
      progress.finish();
      queried = await mapFile(rightPath, await openFile(rightPath, base), {
        overrides: splitOverrides(common, leftCsv.layout.header, rightCsv.layout.header)[1],
        idColumn: ids.right,
        identifiers: common.identifiers,
        attributes: common.attributes,
        readDateOrder: common.settings.dateOrder === null,
      });
    }
    const tLearned = performance.now();
    const results = new LinkResults();
    const rightRead = await readInput(queried, (batch) => pool.query(batch, (r) => results.add(r)), progress, 'matching right');
    progress.start('matching', rightRead.rows);
    const rightUnreadable = await pool.finishQueries();
    progress.finish();
    const t2 = performance.now();
    return {
      left,
      right: queried,
      leftRead,
      rightRead,
      results,
      pool,
      leftUnreadable,
      rightUnreadable,
      threads,
      lowSampleEvery,
      learned,
      timings: { index: t1 - t0, learn: tLearned - t1, match: t2 - tLearned },
    };
  } catch (err) {
    progress.finish();
    await pool.close();
    await left.csv.close();
    await right.csv.close();
    throw err;
  }
}

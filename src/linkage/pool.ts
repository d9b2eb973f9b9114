/**
 * A pool of matching threads behind one interface: in-process (one thread, no start-up
 * cost: small files, tests) or worker threads (each holding a full copy of the index; rows
 * are normalized once, by one thread, and exchanged; queries are split between threads).
 * Both give the same results: every index holds the same records inserted in id order.
 */
import type { FieldOutcome } from '../engine/index.js';
import type { HeaderPlan } from '../files/header-map.js';
import type { RowSignatures } from './conflicts.js';
import type { Learned } from './learn.js';
import type { MatchSettings } from './settings.js';
import type { PairResult, PairWork, Selection } from './pair-plan.js';
import { MatchShard, mergeUnreadable, type PairRequest, type QueryResult, type RowBatch, type UnreadableValues } from './shard.js';

/** How a pool is set up (plain data: workers receive it). */
export interface PoolConfig {
  readonly mode: 'dedupe' | 'link';
  readonly settings: MatchSettings;
  readonly indexPlan: HeaderPlan;
  readonly queryPlan: HeaderPlan;
  /** See ShardOptions.lowSampleEvery. */
  readonly lowSampleEvery: number;
  /** Rows per query batch in dedupe (the unit of progress and of work sharing). */
  readonly queryBatchRows: number;
  /** Link: keep the queried rows' normalized contacts, to explain pairs afterwards. */
  readonly keepQueries: boolean;
  /** Evaluation: report every candidate pair and its score. */
  readonly collectCandidates?: boolean;
}

/** Matching threads. Methods are called in phase order: index, finishIndex, queries, explain, close. */
export interface MatchPool {
  readonly threads: number;
  /** Adds a batch of the indexed file; resolves when the pool can take another. */
  index(batch: RowBatch): Promise<void>;
  /** Resolves when every thread has indexed every batch; unreadable values of the indexed file. */
  finishIndex(): Promise<UnreadableValues>;
  /** Link, learned rules: rows of the other file to estimate the model on (before `learn`). */
  train(batch: RowBatch): Promise<void>;
  /** Learned rules: estimates the model (after `finishIndex`) and makes every thread score with it. */
  learn(): Promise<Learned>;
  /** Dedupe: what clustering needs of these indexed rows, in runs (one per thread that read them). */
  signatures(rows: readonly number[]): Promise<RowSignatures[]>;
  /** Dedupe, first pass: the candidates of every indexed record (`rows` of them), a batch at a time (pair-plan.ts). */
  selectIndexed(rows: number, onSelection: (selection: Selection) => void): Promise<void>;
  /** Dedupe, second pass: scores each pair once, a batch of owners at a time (pair-plan.ts). */
  scorePairs(work: Iterable<PairWork>, onResult: (result: PairResult) => void): Promise<void>;
  /** Dedupe, for the report: the best score of these records' lookups, NaN for none (shard.ts lowScores). */
  lowScores(rows: readonly number[]): Promise<Float64Array>;
  /** Link: queries a batch of the other file; resolves when the pool can take another. */
  query(batch: RowBatch, onResult: (result: QueryResult) => void): Promise<void>;
  /** Resolves when every query sent has been answered; unreadable values of the queried file. */
  finishQueries(): Promise<UnreadableValues>;
  /** Explains pairs (query id, record id). */
  explain(pairs: readonly PairRequest[]): Promise<FieldOutcome[][]>;
  close(): Promise<void>;
}

/**
 * The worker that learns the model (WorkerPool.learn): a dedupe's second worker, which
 * receives the records before their keys and estimates m and u from them while the builder
 * (worker 0) files the keys (worker.ts); else the builder, which holds a link's training rows.
 */
export function learnerOf(config: PoolConfig, threads: number): number {
  return threads > 1 && config.mode === 'dedupe' ? 1 : 0;
}

/** Yields to the event loop (lets progress and I/O breathe during long in-process work). */
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** One thread: the shard runs in this process. */
export class LocalPool implements MatchPool {
  readonly threads = 1;
  private readonly shard: MatchShard;
  private readonly indexUnreadable: Record<string, { count: number; examples: { line: number; value: string }[] }> = {};
  private readonly queryUnreadable: Record<string, { count: number; examples: { line: number; value: string }[] }> = {};

  constructor(private readonly config: PoolConfig) {
    this.shard = new MatchShard(config);
  }

  async index(batch: RowBatch): Promise<void> {
    this.shard.insert(batch.firstId, this.shard.normalize(batch, 'index', this.indexUnreadable));
  }

  async finishIndex(): Promise<UnreadableValues> {
    this.shard.finishIndex();
    return this.indexUnreadable;
  }

  async train(batch: RowBatch): Promise<void> {
    this.shard.train(batch);
  }

  async learn(): Promise<Learned> {
    return this.shard.learn();
  }

  async signatures(rows: readonly number[]): Promise<RowSignatures[]> {
    return [this.shard.signatures(rows)];
  }

  async selectIndexed(rows: number, onSelection: (selection: Selection) => void): Promise<void> {
    const step = this.config.queryBatchRows;
    let seq = 0;
    for (let from = 0; from < rows; from += step) {
      onSelection(this.shard.selectIndexed(seq++, from, Math.min(step, rows - from)));
      await tick();
    }
  }

  async scorePairs(work: Iterable<PairWork>, onResult: (result: PairResult) => void): Promise<void> {
    for (const w of work) {
      onResult(this.shard.scorePairs(w));
      await tick();
    }
  }

  async lowScores(rows: readonly number[]): Promise<Float64Array> {
    return this.shard.lowScores(rows);
  }

  async query(batch: RowBatch, onResult: (result: QueryResult) => void): Promise<void> {
    const contacts = this.shard.normalizeQuery(batch, this.queryUnreadable);
    onResult(this.shard.queryRows(batch.seq, batch.firstId, contacts, this.config.keepQueries));
    await tick();
  }

  async finishQueries(): Promise<UnreadableValues> {
    return this.queryUnreadable;
  }

  async explain(pairs: readonly PairRequest[]): Promise<FieldOutcome[][]> {
    return this.shard.explain(pairs);
  }

  async close(): Promise<void> {}
}

/** Merges several threads' unreadable counts. */
export function mergeAllUnreadable(parts: readonly UnreadableValues[]): UnreadableValues {
  const into: Record<string, { count: number; examples: { line: number; value: string }[] }> = {};
  for (const part of parts) mergeUnreadable(into, part);
  return into;
}

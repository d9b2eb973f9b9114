/** Messages between the main thread and matching workers (worker.ts, worker-pool.ts). */
import type { FieldOutcome, IndexKeys, IndexState, MatchModel } from '../engine/index.js';
import type { RowSignatures } from './conflicts.js';
import type { PackedContacts } from './contact-batch.js';
import type { Learned } from './learn.js';
import type { PairResult, PairWork, Selection } from './pair-plan.js';
import type { PoolConfig } from './pool.js';
import type { PairRequest, QueryResult, RowBatch, UnreadableValues } from './shard.js';

/** What a worker is started with. */
export interface WorkerSetup {
  readonly config: PoolConfig;
  /** This worker's number, 0-based, and how many there are. */
  readonly worker: number;
  readonly workers: number;
}

/** Main -> worker. */
export type ToWorker =
  /** Normalize a batch of the indexed file and index it (the builder) or send it to the builder. */
  | { readonly t: 'index'; readonly batch: RowBatch }
  /** Every index batch has been sent: `batches` in all. */
  | { readonly t: 'index-end'; readonly batches: number }
  /** Dedupe, first pass: the candidates of the records at positions [from, from+count) of the lookup order (shard.ts selectIndexed). */
  | { readonly t: 'select'; readonly seq: number; readonly from: number; readonly count: number }
  /** Dedupe, second pass: score these pairs (shard.ts scorePairs). */
  | { readonly t: 'pairs'; readonly work: PairWork }
  /** Dedupe: the best scores of these records' lookups (shard.ts lowScores). */
  | { readonly t: 'low'; readonly id: number; readonly rows: readonly number[] }
  /** Link: normalize and query a batch of the other file. */
  | { readonly t: 'query'; readonly batch: RowBatch }
  | { readonly t: 'explain'; readonly id: number; readonly pairs: readonly PairRequest[] }
  /** The builder: normalize a batch of the other file and keep it to estimate the model on. */
  | { readonly t: 'train'; readonly batch: RowBatch }
  /** The builder: estimate the model once the index is complete. */
  | { readonly t: 'learn' }
  /** Score with this model from now on. */
  | { readonly t: 'model'; readonly model: MatchModel }
  | { readonly t: 'signatures'; readonly id: number; readonly rows: readonly number[] };

/** Worker -> main. */
export type FromWorker =
  | { readonly t: 'indexed'; readonly seq: number; readonly unreadable: UnreadableValues }
  | { readonly t: 'index-complete' }
  /** The builder has inserted this many index batches (in order). */
  | { readonly t: 'inserted'; readonly batches: number }
  | { readonly t: 'result'; readonly result: QueryResult; readonly unreadable: UnreadableValues | null }
  | { readonly t: 'selected'; readonly selection: Selection }
  | { readonly t: 'scored'; readonly result: PairResult }
  | { readonly t: 'low'; readonly id: number; readonly scores: Float64Array }
  | { readonly t: 'explained'; readonly id: number; readonly outcomes: FieldOutcome[][] }
  | { readonly t: 'trained' }
  | { readonly t: 'learned'; readonly learned: Learned }
  | { readonly t: 'model-set' }
  | { readonly t: 'signatures'; readonly id: number; readonly signatures: RowSignatures }
  | { readonly t: 'error'; readonly message: string };

/** Worker -> builder: a normalized batch of the indexed file, in columns (contact-batch.ts). */
export interface PeerBatch {
  readonly t: 'batch';
  readonly seq: number;
  readonly firstId: number;
  readonly contacts: PackedContacts;
}

/** Builder -> the other workers: the finished index. */
export interface PeerState {
  readonly t: 'state';
  readonly state: IndexState;
}

/**
 * Builder -> the other workers, a dedupe's index in two parts (ContactIndex.exportRecords):
 * the records and counts as soon as every batch is inserted, then the keys once filed.
 */
export interface PeerRecords {
  readonly t: 'records';
  readonly state: IndexState;
}

/** Builder -> the other workers: the keys of the records sent before (ContactIndex.exportKeys). */
export interface PeerKeys {
  readonly t: 'keys';
  readonly keys: IndexKeys;
}

/** Between workers. */
export type PeerMessage = PeerBatch | PeerState | PeerRecords | PeerKeys;

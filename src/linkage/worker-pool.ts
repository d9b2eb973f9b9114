/**
 * The worker-thread pool: one worker per thread, each with a full index. Index batches go
 * round-robin to be normalized; worker 0 builds the index from all of them and then copies
 * it to the others (worker.ts); queries (a dedupe's two passes, pair-plan.ts) are split.
 *
 * Workers run compiled JavaScript (dist/, `npm run build`); when this module runs from
 * TypeScript source (tsx, vitest) the worker is the .ts file, started with `--import tsx`.
 *
 * Past 400 lines because it is one class: every phase's messages (indexing, estimation, a
 * dedupe's two passes, link queries, explanations) share its workers' slots, its waiters and
 * its failure handling; split, those would have to be shared between files.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { FieldOutcome } from '../engine/index.js';
import type { RowSignatures } from './conflicts.js';
import type { Learned } from './learn.js';
import type { FromWorker, ToWorker, WorkerSetup } from './messages.js';
import { learnerOf, mergeAllUnreadable, type MatchPool, type PoolConfig } from './pool.js';
import type { PairResult, PairWork, Selection } from './pair-plan.js';
import type { PairRequest, QueryResult, RowBatch, UnreadableValues } from './shard.js';

/** Batches sent to a worker and not yet acknowledged, at most (bounds memory). */
const MAX_IN_FLIGHT = 3;
/** Index batches read ahead of the builder's inserts, at most (bounds memory). */
const MAX_AHEAD_OF_BUILDER = 8;

/**
 * How to start a worker: the compiled worker.js next to this module; or, when this module
 * runs from TypeScript source (tsx, vitest), a small bootstrap that registers tsx's loader
 * in the worker and then imports worker.ts (Node 20 does not apply `--import` hooks to a
 * worker's entry file).
 */
export function workerEntry(): { script: URL | string; eval: boolean } {
  if (!import.meta.url.endsWith('.ts')) return { script: new URL('./worker.js', import.meta.url), eval: false };
  const cjsApi = createRequire(import.meta.url).resolve('tsx/esm/api');
  const api = pathToFileURL(cjsApi.replace(/\.cjs$/, '.mjs')).href;
  const target = new URL('./worker.ts', import.meta.url).href;
  const code =
    `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(target)}); })` +
    `.catch((err) => { require('node:worker_threads').parentPort.postMessage({ t: 'error', message: String(err && err.message || err) }); });`;
  return { script: code, eval: true };
}

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
}

/** Worker threads. */
export class WorkerPool implements MatchPool {
  private readonly workers: Worker[] = [];
  private readonly inFlight: number[];
  private readonly slotWaiters: Waiter[][];
  private failure: Error | null = null;
  private indexBatches = 0;
  /** Index batches the builder (worker 0) has inserted, and who waits for it to insert more. */
  private insertedBatches = 0;
  private builderWaiters: { seq: number; waiter: Waiter }[] = [];
  private readonly indexUnreadable: UnreadableValues[] = [];
  private readonly queryUnreadable: UnreadableValues[] = [];
  /** The builder's index is complete; index batches normalized (their unreadable values counted). */
  private builderComplete = false;
  private normalizedBatches = 0;
  private completeWaiter: Waiter | null = null;
  /** Who waits for any worker to have room for a batch (dedupe queries go to whichever has). */
  private anySlotWaiters: Waiter[] = [];
  private onResult: ((r: QueryResult) => void) | null = null;
  private onSelection: ((s: Selection) => void) | null = null;
  private onPairs: ((r: PairResult) => void) | null = null;
  private readonly lowWaiters = new Map<number, { resolve: (scores: Float64Array) => void; reject: (err: Error) => void }>();
  private pendingQueries = 0;
  private queriesWaiter: Waiter | null = null;
  /** First id of each query batch (link), and the worker that holds it. */
  private readonly queryBatches: { firstId: number; worker: number }[] = [];
  private nextExplain = 0;
  private readonly explainWaiters = new Map<number, { resolve: (o: FieldOutcome[][]) => void; reject: (err: Error) => void }>();
  private learnWaiter: { resolve: (l: Learned) => void; reject: (err: Error) => void } | null = null;
  private modelSet = 0;
  private modelWaiter: Waiter | null = null;
  private readonly signatureWaiters = new Map<number, { resolve: (s: RowSignatures) => void; reject: (err: Error) => void }>();
  private closed = false;

  constructor(
    readonly threads: number,
    private readonly config: PoolConfig,
  ) {
    const entry = workerEntry();
    this.inFlight = new Array<number>(threads).fill(0);
    this.slotWaiters = Array.from({ length: threads }, () => []);
    for (let w = 0; w < threads; w++) {
      const setup: WorkerSetup = { config, worker: w, workers: threads };
      const worker = new Worker(entry.script, {
        eval: entry.eval,
        workerData: setup,
        // The index of a large file is big: let the old generation grow (RSS is measured by
        // the bench). A larger young generation cuts scavenges: about 15% less CPU measured
        // on 100k rows (normalize, insert and find all allocate many short-lived objects).
        resourceLimits: { maxOldGenerationSizeMb: 6144, maxYoungGenerationSizeMb: 192 },
        stdout: false,
        stderr: false,
      });
      worker.on('message', (m: FromWorker) => this.receive(w, m));
      worker.on('error', (err) => this.fail(new Error(`matching worker ${w} failed: ${err.message}`)));
      worker.on('exit', (code) => {
        if (!this.closed) this.fail(new Error(`matching worker ${w} stopped (exit code ${code})`));
      });
      this.workers.push(worker);
    }
    // The builder (worker 0) and each other worker get a channel: normalized batches go to
    // the builder, the finished index comes back.
    const ports: MessagePort[][] = Array.from({ length: threads }, () => []);
    const peersOf: number[][] = Array.from({ length: threads }, () => []);
    for (let b = 1; b < threads; b++) {
      const channel = new MessageChannel();
      (ports[0] as MessagePort[]).push(channel.port1);
      (peersOf[0] as number[]).push(b);
      (ports[b] as MessagePort[]).push(channel.port2);
      (peersOf[b] as number[]).push(0);
    }
    this.workers.forEach((worker, w) => {
      const own = ports[w] as MessagePort[];
      worker.postMessage({ t: 'ports', ports: own, workers: peersOf[w] }, own);
    });
  }

  private post(w: number, message: ToWorker): void {
    (this.workers[w] as Worker).postMessage(message);
  }

  private fail(err: Error): void {
    if (this.failure !== null) return;
    this.failure = err;
    for (const list of this.slotWaiters) for (const waiter of list.splice(0)) waiter.reject(err);
    for (const waiter of this.anySlotWaiters.splice(0)) waiter.reject(err);
    for (const b of this.builderWaiters.splice(0)) b.waiter.reject(err);
    for (const waiter of [this.completeWaiter, this.queriesWaiter, this.learnWaiter, this.modelWaiter]) waiter?.reject(err);
    for (const waiter of this.explainWaiters.values()) waiter.reject(err);
    this.explainWaiters.clear();
    for (const waiter of this.signatureWaiters.values()) waiter.reject(err);
    this.signatureWaiters.clear();
    for (const waiter of this.lowWaiters.values()) waiter.reject(err);
    this.lowWaiters.clear();
  }

  private receive(w: number, m: FromWorker): void {
    switch (m.t) {
      case 'indexed':
        this.indexUnreadable.push(m.unreadable);
        this.normalizedBatches++;
        this.release(w);
        this.checkIndexed();
        return;
      case 'inserted': {
        this.insertedBatches = m.batches;
        const ready = this.builderWaiters.filter((b) => b.seq - this.insertedBatches < MAX_AHEAD_OF_BUILDER);
        this.builderWaiters = this.builderWaiters.filter((b) => b.seq - this.insertedBatches >= MAX_AHEAD_OF_BUILDER);
        for (const b of ready) b.waiter.resolve();
        return;
      }
      case 'index-complete':
        if (w === 0) this.builderComplete = true;
        this.checkIndexed();
        return;
      case 'result':
        if (m.unreadable !== null) this.queryUnreadable.push(m.unreadable);
        this.answered(w);
        this.onResult?.(m.result);
        this.settleQueries();
        return;
      case 'selected':
        this.answered(w);
        this.onSelection?.(m.selection);
        this.settleQueries();
        return;
      case 'scored':
        this.answered(w);
        this.onPairs?.(m.result);
        this.settleQueries();
        return;
      case 'low': {
        const waiter = this.lowWaiters.get(m.id);
        this.lowWaiters.delete(m.id);
        waiter?.resolve(m.scores);
        return;
      }
      case 'explained': {
        const waiter = this.explainWaiters.get(m.id);
        this.explainWaiters.delete(m.id);
        waiter?.resolve(m.outcomes);
        return;
      }
      case 'trained':
        this.release(w);
        return;
      case 'learned':
        this.learnWaiter?.resolve(m.learned);
        this.learnWaiter = null;
        return;
      case 'model-set':
        this.modelSet++;
        if (this.modelSet === this.threads - 1) this.modelWaiter?.resolve();
        return;
      case 'signatures': {
        const waiter = this.signatureWaiters.get(m.id);
        this.signatureWaiters.delete(m.id);
        waiter?.resolve(m.signatures);
        return;
      }
      case 'error':
        this.fail(new Error(`matching worker ${w}: ${m.message}`));
        return;
    }
  }

  /** A batch of worker `w` answered: its room is free and one batch fewer is pending. */
  private answered(w: number): void {
    this.release(w);
    this.pendingQueries--;
  }

  /** Wakes whoever waits for every batch to be answered, once none is pending (after the answer is handed on). */
  private settleQueries(): void {
    if (this.pendingQueries === 0) this.queriesWaiter?.resolve();
  }

  private release(w: number): void {
    this.inFlight[w] = (this.inFlight[w] ?? 1) - 1;
    const waiter = this.slotWaiters[w]?.shift() ?? this.anySlotWaiters.shift();
    waiter?.resolve();
  }

  /** Resolves with a worker that has room for another batch (the least busy), and takes the room. */
  private async anySlot(): Promise<number> {
    for (;;) {
      if (this.failure) throw this.failure;
      let best = -1;
      for (let w = 0; w < this.threads; w++) {
        const n = this.inFlight[w] ?? 0;
        if (n < MAX_IN_FLIGHT && (best === -1 || n < (this.inFlight[best] ?? 0))) best = w;
      }
      if (best !== -1) {
        this.inFlight[best] = (this.inFlight[best] ?? 0) + 1;
        return best;
      }
      await new Promise<void>((resolve, reject) => this.anySlotWaiters.push({ resolve, reject }));
    }
  }

  /** Resolves when worker `w` has room for another batch. */
  private async slot(w: number): Promise<void> {
    if (this.failure) throw this.failure;
    if ((this.inFlight[w] ?? 0) >= MAX_IN_FLIGHT) {
      await new Promise<void>((resolve, reject) => this.slotWaiters[w]?.push({ resolve, reject }));
    }
    this.inFlight[w] = (this.inFlight[w] ?? 0) + 1;
  }

  private waitFor(set: (w: Waiter) => void, done: boolean): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (done) return Promise.resolve();
    return new Promise<void>((resolve, reject) => set({ resolve, reject }));
  }

  async index(batch: RowBatch): Promise<void> {
    // The builder only inserts; the other workers normalize (inserting is the longer job).
    const w = this.threads > 1 ? 1 + (batch.seq % (this.threads - 1)) : 0;
    if (batch.seq - this.insertedBatches >= MAX_AHEAD_OF_BUILDER) {
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve, reject) => this.builderWaiters.push({ seq: batch.seq, waiter: { resolve, reject } }));
    }
    await this.slot(w);
    this.indexBatches = Math.max(this.indexBatches, batch.seq + 1);
    this.post(w, { t: 'index', batch });
  }

  /** The index is ready for the next phase: the builder's is complete and every batch was normalized. */
  private indexed(): boolean {
    return this.builderComplete && this.normalizedBatches === this.indexBatches;
  }

  private checkIndexed(): void {
    if (this.completeWaiter !== null && this.indexed()) this.completeWaiter.resolve();
  }

  /**
   * Resolves when the builder's index is complete. The other workers may still be loading
   * their copy of it (a dedupe's learner estimating the model from its records: learnerOf);
   * work sent to them waits in them until they have it (worker.ts).
   */
  async finishIndex(): Promise<UnreadableValues> {
    for (let w = 0; w < this.threads; w++) this.post(w, { t: 'index-end', batches: this.indexBatches });
    await this.waitFor((x) => (this.completeWaiter = x), this.indexed());
    return mergeAllUnreadable(this.indexUnreadable);
  }

  async train(batch: RowBatch): Promise<void> {
    await this.slot(0);
    this.post(0, { t: 'train', batch });
  }

  async learn(): Promise<Learned> {
    if (this.failure) throw this.failure;
    const learner = learnerOf(this.config, this.threads);
    const learned = await new Promise<Learned>((resolve, reject) => {
      this.learnWaiter = { resolve, reject };
      this.post(learner, { t: 'learn' });
    });
    this.modelSet = 0;
    for (let w = 0; w < this.threads; w++) if (w !== learner) this.post(w, { t: 'model', model: learned.model });
    await this.waitFor((x) => (this.modelWaiter = x), this.threads === 1);
    return learned;
  }

  async signatures(rows: readonly number[]): Promise<RowSignatures[]> {
    if (this.failure) throw this.failure;
    // Every worker holds the whole index: each reads a run of the rows.
    const per = Math.ceil(rows.length / this.threads);
    const parts: Promise<RowSignatures>[] = [];
    for (let w = 0; w < this.threads && (w === 0 || w * per < rows.length); w++) {
      const id = this.nextExplain++;
      const part = rows.slice(w * per, (w + 1) * per);
      parts.push(
        new Promise<RowSignatures>((resolve, reject) => {
          this.signatureWaiters.set(id, { resolve, reject });
          this.post(w, { t: 'signatures', id, rows: part });
        }),
      );
    }
    return Promise.all(parts);
  }

  async selectIndexed(rows: number, onSelection: (selection: Selection) => void): Promise<void> {
    // Batches go to whichever worker has room, so a thread that gets less of the machine
    // (or starts later: the builder estimates the model first) takes fewer of them.
    this.onSelection = onSelection;
    const step = this.config.queryBatchRows;
    let seq = 0;
    for (let from = 0; from < rows; from += step) {
      const w = await this.anySlot();
      this.pendingQueries++;
      this.post(w, { t: 'select', seq: seq++, from, count: Math.min(step, rows - from) });
    }
    await this.finishQueries();
  }

  async scorePairs(work: Iterable<PairWork>, onResult: (result: PairResult) => void): Promise<void> {
    this.onPairs = onResult;
    for (const batch of work) {
      const w = await this.anySlot();
      this.pendingQueries++;
      const message: ToWorker = { t: 'pairs', work: batch };
      (this.workers[w] as Worker).postMessage(
        message,
        [batch.owners, batch.offsets, batch.others, batch.flags].map((a) => a.buffer as ArrayBuffer),
      );
    }
    await this.finishQueries();
  }

  async lowScores(rows: readonly number[]): Promise<Float64Array> {
    if (this.failure) throw this.failure;
    const out = new Float64Array(rows.length);
    const parts = this.workers.map((_, w) => rows.filter((_, i) => i % this.threads === w));
    await Promise.all(
      parts.map(async (part, w) => {
        if (part.length === 0) return;
        const id = this.nextExplain++;
        const scores = await new Promise<Float64Array>((resolve, reject) => {
          this.lowWaiters.set(id, { resolve, reject });
          this.post(w, { t: 'low', id, rows: part });
        });
        scores.forEach((score, k) => (out[k * this.threads + w] = score));
      }),
    );
    return out;
  }

  async query(batch: RowBatch, onResult: (result: QueryResult) => void): Promise<void> {
    this.onResult = onResult;
    const w = batch.seq % this.threads;
    await this.slot(w);
    this.pendingQueries++;
    this.queryBatches.push({ firstId: batch.firstId, worker: w });
    this.post(w, { t: 'query', batch });
  }

  async finishQueries(): Promise<UnreadableValues> {
    await this.waitFor((x) => (this.queriesWaiter = x), this.pendingQueries === 0);
    return mergeAllUnreadable(this.queryUnreadable);
  }

  /** The worker that holds query row `id` (link), by the batch it came in. */
  private holderOf(id: number): number {
    let lo = 0;
    let hi = this.queryBatches.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.queryBatches[mid] as { firstId: number }).firstId <= id) lo = mid;
      else hi = mid - 1;
    }
    return this.queryBatches[lo]?.worker ?? 0;
  }

  async explain(pairs: readonly PairRequest[]): Promise<FieldOutcome[][]> {
    if (this.failure) throw this.failure;
    const byWorker: { at: number[]; pairs: PairRequest[] }[] = this.workers.map(() => ({ at: [], pairs: [] }));
    pairs.forEach((p, i) => {
      const w = this.config.mode === 'dedupe' ? i % this.threads : this.holderOf(p.query);
      byWorker[w]?.at.push(i);
      byWorker[w]?.pairs.push(p);
    });
    const out = new Array<FieldOutcome[]>(pairs.length);
    await Promise.all(
      byWorker.map(async (part, w) => {
        if (part.pairs.length === 0) return;
        const id = this.nextExplain++;
        const outcomes = await new Promise<FieldOutcome[][]>((resolve, reject) => {
          this.explainWaiters.set(id, { resolve, reject });
          this.post(w, { t: 'explain', id, pairs: part.pairs });
        });
        part.at.forEach((i, k) => (out[i] = outcomes[k] ?? []));
      }),
    );
    return out;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

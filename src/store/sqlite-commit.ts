/**
 * Group commit for the SQLite store (one better-sqlite3 connection, whose calls block the
 * event loop).
 *
 * The first write of an event-loop turn opens a transaction (BEGIN IMMEDIATE), every write of
 * that turn runs inside it (each in its own SAVEPOINT, so a failing write undoes only itself),
 * and one COMMIT runs in `setImmediate` after the turn. Writes resolve (admin writes) or report
 * `durable` (people writes, see {@link Applied}) once that COMMIT is durable. Concurrent
 * requests thus share a commit.
 *
 * The fsync is not on the event loop. The connection commits with `synchronous=NORMAL` (in WAL
 * mode: the COMMIT appends its frames to the WAL file with write(2), no fsync, tens of
 * microseconds), and a store opened `FULL` then makes the commit durable with an fsync of the
 * WAL file on libuv's thread pool ({@link GroupCommitOptions.sync}): the batch's `durable`
 * resolves when an fsync that started after its COMMIT returned has completed. That is what
 * `synchronous=FULL` does inside the COMMIT (sync the WAL after the commit frame), moved off
 * the thread that serves requests. One fsync runs at a time; the commits made meanwhile share
 * the next one. (Checkpoints, which also sync, run on another thread too: sqlite-checkpoint.ts.)
 *
 * Bulk import writes (those carrying an ImportRowMark) are batched by time instead: a batch of
 * nothing but such writes stays open across event-loop turns and commits {@link IMPORT_BATCH_MS}
 * after it opened, so the import worker can yield to API requests every millisecond without
 * paying a commit each time. Such a batch may also skip the sync: it is durable when committed
 * (it survives `kill -9`, and a power loss rolls back the newest of them), as long as a synced
 * commit happened in the last {@link LAZY_SYNC_MS}. This is safe because a row's effects and
 * its mark commit in one transaction: what a power loss takes, it takes whole, and the job
 * re-applies those rows from its last surviving mark (the trade PostgreSQL's
 * `synchronous_commit = off` offers). A write of any other kind never joins such a batch: it
 * commits the batch first and starts a synced one (the sync also covers the earlier unsynced
 * commits, the WAL being one file).
 */
import type Database from 'better-sqlite3';
import type { Applied } from './types.js';

/**
 * Bulk import commits skip the sync for at most this long after the last synced commit, so
 * a power loss takes at most about this much of a job's work (to be re-applied on resume).
 * In practice the WAL is synced more often: every checkpoint syncs it first.
 */
export const LAZY_SYNC_MS = 5000;

/** A batch of bulk import writes commits this long after it opened. */
export const IMPORT_BATCH_MS = 8;

/** Options of {@link GroupCommit}. */
export interface GroupCommitOptions {
  /** How long after a synced commit import batches may skip the sync (0: never; a NORMAL database has nothing to skip). */
  readonly lagMs: number;
  /** The clock `lagMs` is measured on, in milliseconds (tests inject one). */
  readonly clock: () => number;
  /** How long an import batch stays open, ms. */
  readonly holdMs: number;
  /**
   * Makes every commit made so far durable without blocking the event loop (the store's fsync
   * of its WAL file on the thread pool); rejects when it could not. Null: a commit is as
   * durable as it will be when COMMIT returns (a `NORMAL` database, or one in memory).
   */
  readonly sync: (() => Promise<void>) | null;
}

/** What the store keeps in memory for the open transaction, written and forgotten around its COMMIT. */
export interface TransactionHooks {
  /** Before a write that is not a bulk import write runs (outside its SAVEPOINT). */
  beforeWrite(): void;
  /** Just before COMMIT, outside any SAVEPOINT; throwing rolls the transaction back. */
  beforeCommit(): void;
  /** After COMMIT (`error` null) or ROLLBACK (the error that caused it). */
  ended(error: unknown): void;
}

/** Commits and writes so far (for tests and benchmarks). */
export interface GroupCommitStats {
  commits: number;
  /** Commits not followed by a sync (bulk import batches within the lag). */
  lazyCommits: number;
  writes: number;
  /** Time in COMMIT, on the event loop (the fsync is not in it). */
  commitMs: number;
  /** fsyncs of the WAL completed (off the event loop), and the time they took in all. */
  syncs: number;
  syncMs: number;
}

interface Batch {
  /** Only bulk import writes so far: commits by timer, not at the end of the turn. */
  readonly held: boolean;
  /** Durable when committed, without a sync (a held batch within the lag). */
  readonly lazy: boolean;
  /** People written (or given a canvass response) in the batch (see {@link GroupCommit.flush}). */
  readonly people: Set<number>;
  readonly done: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

const DURABLE: Promise<void> = Promise.resolve();

/** The transactions of one connection; see the module comment. */
export class GroupCommit {
  readonly stats: GroupCommitStats = { commits: 0, lazyCommits: 0, writes: 0, commitMs: 0, syncs: 0, syncMs: 0 };
  /** Told of each COMMIT, whether a sync makes it durable (tests and benchmarks). */
  observer: ((synced: boolean) => void) | null = null;
  private batch: Batch | null = null;
  /** The clock's time of the last commit that synced. */
  private syncedAt = -Infinity;
  /** The sync running now (it started before any later COMMIT returned). */
  private syncing: Promise<void> | null = null;
  /** The sync that starts when the running one ends: the commits made meanwhile wait for it. */
  private nextSync: Promise<void> | null = null;
  /** The sync the last synced commit waits for, until it ends: {@link flush} waits for it. */
  private unsynced: Promise<void> | null = null;
  /** People written in committed batches whose sync has not ended, and that sync. */
  private readonly syncingPeople = new Map<number, Promise<void>>();
  /** Runs a function in a transaction (a SAVEPOINT inside an open one); made once, not per write. */
  private readonly runInTx: <T>(fn: () => T) => T;

  constructor(
    private readonly db: Database.Database,
    private readonly options: GroupCommitOptions,
    private readonly hooks: TransactionHooks,
  ) {
    const run = db.transaction((fn: () => unknown) => fn());
    this.runInTx = <T>(fn: () => T): T => run(fn) as T;
  }

  /**
   * Runs `fn` inside the current group-commit transaction (opening one, with its COMMIT
   * scheduled). When the caller already holds a transaction of its own (a bulk loader's
   * BEGIN), `fn` joins it and the caller's COMMIT makes it durable. `importWrite`: `fn` writes
   * a bulk import row mark with the row's effects, so its batch is held by time and may
   * commit without a sync (see the module comment).
   */
  apply<T>(fn: () => T, importWrite = false): Applied<T> {
    if (this.batch === null && this.db.inTransaction) {
      this.stats.writes++;
      const value = this.runInTx(fn);
      // The caller's COMMIT, not ours, ends this transaction: write what is kept in memory now.
      this.hooks.beforeCommit();
      this.hooks.ended(null);
      return { value, durable: DURABLE };
    }
    // Any other write is never held back, nor shares an unsynced commit: commit that batch first.
    if (this.batch !== null && this.batch.held && !importWrite) this.commit();
    const batch = this.batch ?? this.open(importWrite);
    if (!importWrite) this.hooks.beforeWrite();
    // Nested in the open transaction, better-sqlite3 runs fn in a SAVEPOINT.
    const value = this.runInTx(fn);
    this.stats.writes++;
    return { value, durable: batch.done };
  }

  /** The commit of the open batch: resolves when it is durable; null when no batch is open. */
  get pending(): Promise<void> | null {
    return this.batch?.done ?? null;
  }

  /** Notes a person written in the open batch. */
  notePerson(crmId: number): void {
    this.batch?.people.add(crmId);
  }

  /**
   * Resolves when every write applied so far is durable; with `crmId`, when the writes of that
   * person are (a find that matched it). A held import batch commits at once when someone
   * waits for it (for a person it wrote, or for everything).
   */
  async flush(crmId?: number): Promise<void> {
    const batch = this.batch;
    if (crmId === undefined) {
      if (batch !== null) {
        if (batch.held) this.commit(batch);
        await batch.done;
      }
      if (this.unsynced !== null) await this.unsynced;
      return;
    }
    if (batch !== null && batch.people.has(crmId)) {
      if (batch.held) this.commit(batch);
      await batch.done;
      return;
    }
    const syncing = this.syncingPeople.get(crmId);
    if (syncing !== undefined) await syncing;
  }

  /** Commits what is open (its sync, if any, is {@link settled}). */
  close(): void {
    this.commit();
  }

  /** Resolves when the syncs of the commits made so far have ended (whether or not they succeeded). */
  async settled(): Promise<void> {
    await this.unsynced?.catch(() => undefined);
  }

  /** Opens a batch (BEGIN IMMEDIATE) and schedules its COMMIT. */
  private open(importWrite: boolean): Batch {
    const lazy = importWrite && this.options.clock() - this.syncedAt < this.options.lagMs;
    this.db.exec('BEGIN IMMEDIATE');
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    done.catch(() => undefined); // a batch nobody waits for must not be an unhandled rejection
    const batch: Batch = { held: importWrite, lazy, people: new Set(), done, resolve, reject };
    this.batch = batch;
    if (importWrite) setTimeout(() => this.commit(batch), this.options.holdMs);
    else setImmediate(() => this.commit(batch));
    return batch;
  }

  /**
   * Commits the open batch (only if it is still `expected`, when given); its `done` resolves
   * then, or, when it must be synced, once a sync that starts after this COMMIT has ended.
   */
  private commit(expected?: Batch): void {
    const batch = this.batch;
    if (batch === null || (expected !== undefined && batch !== expected)) return;
    this.batch = null;
    try {
      const started = performance.now();
      this.hooks.beforeCommit();
      this.db.exec('COMMIT');
      this.hooks.ended(null);
      const ended = performance.now();
      this.stats.commitMs += ended - started;
      this.stats.commits++;
      if (batch.lazy) this.stats.lazyCommits++;
      else this.syncedAt = this.options.clock();
    } catch (error) {
      this.hooks.ended(error);
      try {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
      } catch {
        // the connection is unusable; the rejection below reports the cause
      }
      batch.reject(error);
      return;
    }
    const synced = !batch.lazy && this.options.sync !== null;
    this.observer?.(synced);
    if (!synced) {
      batch.resolve();
      return;
    }
    const sync = this.syncAfterCommit();
    this.unsynced = sync;
    for (const crmId of batch.people) this.syncingPeople.set(crmId, sync);
    const settle = (): void => {
      if (this.unsynced === sync) this.unsynced = null;
      for (const crmId of batch.people) if (this.syncingPeople.get(crmId) === sync) this.syncingPeople.delete(crmId);
    };
    sync.then(settle, settle);
    sync.then(
      () => batch.resolve(),
      (error: unknown) => batch.reject(error),
    );
  }

  /** A sync that starts now, or, when one is running (it started before this commit), the next one. */
  private syncAfterCommit(): Promise<void> {
    if (this.nextSync !== null) return this.nextSync;
    const running = this.syncing;
    if (running === null) return this.startSync();
    const next = running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        this.nextSync = null;
        return this.startSync();
      });
    this.nextSync = next;
    return next;
  }

  private startSync(): Promise<void> {
    const sync = this.options.sync as () => Promise<void>;
    const started = performance.now();
    const run = sync().then(() => {
      this.stats.syncs++;
      this.stats.syncMs += performance.now() - started;
    });
    this.syncing = run;
    const clear = (): void => {
      if (this.syncing === run) this.syncing = null;
    };
    run.then(clear, clear);
    return run;
  }
}

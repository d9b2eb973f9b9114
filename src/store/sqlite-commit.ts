/**
 * Group commit for the SQLite store (one better-sqlite3 connection, whose calls block the
 * event loop).
 *
 * The first write of an event-loop turn opens a transaction (BEGIN IMMEDIATE), every write of
 * that turn runs inside it (each in its own SAVEPOINT, so a failing write undoes only itself),
 * and one COMMIT, hence one fsync with `synchronous=FULL`, runs in `setImmediate` after the
 * turn. Writes resolve (admin writes) or report `durable` (people writes, see {@link Applied})
 * after that COMMIT. Concurrent requests thus share a sync.
 *
 * Bulk import writes (those carrying an ImportRowMark) are batched by time instead: a batch of
 * nothing but such writes stays open across event-loop turns and commits {@link IMPORT_BATCH_MS}
 * after it opened, so the import worker can yield to API requests every millisecond without
 * paying a commit each time. Such a batch may also skip the sync: it commits with
 * `synchronous=NORMAL` (no fsync; it survives `kill -9`, and a power loss rolls back the newest
 * of them), as long as a synced commit happened in the last {@link LAZY_SYNC_MS}. This is safe
 * because a row's effects and its mark commit in one transaction: what a power loss takes, it
 * takes whole, and the job re-applies those rows from its last surviving mark (the trade
 * PostgreSQL's `synchronous_commit = off` offers). A write of any other kind never joins such a
 * batch: it commits the batch first and starts a synced one (the sync also covers the earlier
 * unsynced commits, the WAL being one file).
 */
import type Database from 'better-sqlite3';
import type { Applied } from './types.js';

/**
 * Bulk import commits skip the sync for at most this long after the last synced commit, so
 * a power loss takes at most about this much of a job's work (to be re-applied on resume).
 * In practice the WAL is synced more often: every checkpoint syncs it first. Each synced
 * import commit is an fsync on the event loop (1-20 ms on this machine), hence not every second.
 */
export const LAZY_SYNC_MS = 5000;

/**
 * WAL pages between automatic checkpoints (SQLite's default: 1000). A checkpoint runs inside a
 * COMMIT, on the event loop: during a bulk import, 1000 pages made a 13-15 ms stall about twice
 * a second (find p99 during a job); 250 pages make stalls of about 5 ms, for about 20% more time
 * in commits in all (measured with bench/import-profile.ts, 2026-11-22).
 */
export const WAL_AUTOCHECKPOINT_PAGES = 250;

/** A batch of bulk import writes commits this long after it opened. */
export const IMPORT_BATCH_MS = 8;

/** Options of {@link GroupCommit}. */
export interface GroupCommitOptions {
  /** How long after a synced commit import batches may skip the sync (0: never; a NORMAL database has nothing to skip). */
  readonly lagMs: number;
  /** How long an import batch stays open, ms. */
  readonly holdMs: number;
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
  lazyCommits: number;
  writes: number;
  commitMs: number;
}

interface Batch {
  /** Only bulk import writes so far: commits by timer, not at the end of the turn. */
  readonly held: boolean;
  /** Commits without a sync (a held batch within the lag). */
  readonly lazy: boolean;
  /** People written (or given a canvass response) in a held batch (see {@link GroupCommit.flush}). */
  readonly people: Set<number>;
  readonly done: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

const DURABLE: Promise<void> = Promise.resolve();

/** The transactions of one connection; see the module comment. */
export class GroupCommit {
  readonly stats: GroupCommitStats = { commits: 0, lazyCommits: 0, writes: 0, commitMs: 0 };
  private batch: Batch | null = null;
  /** The connection's current `synchronous` is NORMAL (a lazy batch's). */
  private syncOff = false;
  /** `performance.now()` of the last commit that synced. */
  private syncedAt = -Infinity;
  /** Runs a function in a transaction (a SAVEPOINT inside an open one); made once, not per write. */
  private readonly runInTx: <T>(fn: () => T) => T;

  constructor(private readonly db: Database.Database, private readonly options: GroupCommitOptions, private readonly hooks: TransactionHooks) {
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

  /** Notes a person written by a bulk import write in the open (held) batch. */
  notePerson(crmId: number): void {
    if (this.batch?.held === true) this.batch.people.add(crmId);
  }

  /**
   * Resolves when every write applied so far is durable. A held import batch commits at once
   * (someone waits), unless `crmId` is given and the batch did not write that person (it was
   * committed before the batch opened: a find that matched it need not wait).
   */
  async flush(crmId?: number): Promise<void> {
    const batch = this.batch;
    if (batch === null) return;
    if (batch.held) {
      if (crmId !== undefined && !batch.people.has(crmId)) return;
      this.commit(batch);
    }
    await batch.done;
  }

  /** Commits what is open; unsynced commits get a checkpoint, which syncs the WAL first (another connection may keep it open past close). */
  close(): void {
    this.commit();
    if (this.db.open && this.syncOff) this.db.pragma('wal_checkpoint(PASSIVE)');
  }

  /** Opens a batch (BEGIN IMMEDIATE) and schedules its COMMIT. */
  private open(importWrite: boolean): Batch {
    const lazy = importWrite && performance.now() - this.syncedAt < this.options.lagMs;
    if (lazy !== this.syncOff) {
      // Only outside a transaction ("Safety level may not be changed inside a transaction").
      this.db.exec(lazy ? 'PRAGMA synchronous = NORMAL' : 'PRAGMA synchronous = FULL');
      this.syncOff = lazy;
    }
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

  /** Commits the open batch (only if it is still `expected`, when given). */
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
      else this.syncedAt = ended;
      batch.resolve();
    } catch (error) {
      this.hooks.ended(error);
      try {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
      } catch {
        // the connection is unusable; the rejection below reports the cause
      }
      batch.reject(error);
    }
  }
}

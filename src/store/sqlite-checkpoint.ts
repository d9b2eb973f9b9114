/**
 * Durability work of the SQLite store that must not run on the event loop: the fsync of the
 * WAL file after a group commit (on libuv's thread pool), and checkpoints (on a worker thread
 * with a connection of its own).
 *
 * Why a checkpoint thread: a checkpoint copies the WAL into the database file and syncs both;
 * run by SQLite inside a COMMIT (`wal_autocheckpoint`) it stalled the event loop 5-15 ms at a
 * time during bulk imports. The store's own connection therefore never checkpoints
 * (`wal_autocheckpoint = 0`); after each commit the WAL file's size is looked at (a `stat` on
 * the thread pool) and, past {@link CHECKPOINT_BYTES}, the worker runs
 * `PRAGMA wal_checkpoint(PASSIVE)`, which never blocks the writer. Should the worker fail,
 * the store's connection checkpoints again by itself (SQLite's default of 1000 pages), so the
 * WAL can never grow without bound.
 */
import { open, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';

/** The WAL size past which a checkpoint runs: SQLite's default of 1000 pages of 4 KiB. */
export const CHECKPOINT_BYTES = 1000 * 4096;

/** The worker's code: one connection, a PASSIVE checkpoint per message. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
parentPort.on('message', (m) => {
  if (m === 'close') { db.close(); parentPort.close(); return; }
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true, busy: row.busy, log: row.log, checkpointed: row.checkpointed });
  } catch (error) {
    parentPort.postMessage({ ok: false, error: String(error && error.message || error) });
  }
});
`;

/** fsyncs a file on the thread pool (opened and closed each time: the file may be replaced meanwhile). */
export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** fsyncs the directory holding `path`, so that a file created in it survives a power loss. */
export async function syncDirectoryOf(path: string): Promise<void> {
  await syncFile(dirname(path));
}

/** Runs checkpoints of one database file on a worker thread; see the module comment. */
export class Checkpointer {
  /** Started at the first checkpoint (a short-lived admin command never needs one). */
  private worker: Worker | null = null;
  private failed = false;
  /** A size check or checkpoint is under way: later commits do not start another. */
  private busy = false;
  private closed = false;
  /** Checkpoints run so far (tests and benchmarks). */
  checkpoints = 0;

  /**
   * `fallback` is called once if the worker fails: the store's connection then checkpoints by
   * itself.
   */
  constructor(
    private readonly path: string,
    private readonly fallback: (error: unknown) => void,
  ) {}

  private start(): Worker {
    const module = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path: this.path, module } });
    worker.unref();
    worker.on('error', (error) => this.fail(error));
    this.worker = worker;
    return worker;
  }

  /** After a commit: checkpoints when the WAL has grown past {@link CHECKPOINT_BYTES}. Never throws. */
  afterCommit(): void {
    if (this.busy || this.closed || this.failed) return;
    this.busy = true;
    void this.run().finally(() => {
      this.busy = false;
    });
  }

  private async run(): Promise<void> {
    let size: number;
    try {
      size = (await stat(`${this.path}-wal`)).size;
    } catch {
      return; // no WAL (yet): nothing to checkpoint
    }
    if (size < CHECKPOINT_BYTES || this.failed || this.closed) return;
    const worker = this.worker ?? this.start();
    await new Promise<void>((resolve) => {
      // The thread answers one message, or exits (then with no answer).
      const done = (m: { ok: boolean; error?: string } | null): void => {
        worker.off('message', done);
        worker.off('exit', exited);
        if (m?.ok === true) this.checkpoints++;
        else if (!this.closed) this.fail(new Error(m?.error ?? 'the checkpoint thread exited'));
        resolve();
      };
      const exited = (): void => done(null);
      worker.on('message', done);
      worker.on('exit', exited);
      worker.postMessage('checkpoint');
    });
  }

  private fail(error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    const worker = this.worker;
    this.worker = null;
    if (worker !== null) void worker.terminate();
    if (!this.closed) this.fallback(error);
  }

  /** Closes the worker's connection (before the store's own, so that the last close can remove the WAL). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    if (worker === null) return;
    // Referenced while it closes: an unreferenced worker would not keep the process alive to see it exit.
    worker.ref();
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.postMessage('close');
    });
  }
}

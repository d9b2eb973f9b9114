/**
 * The bulk import part of the SQLite store (src/store/import-types.ts): files as chunked
 * blobs, jobs with an owner and a lease, and per-row marks. SqliteStore delegates to it and
 * writes marks with {@link ImportMarkWriter} inside its people and canvass write transactions.
 */
import type Database from 'better-sqlite3';
import {
  type ImportFileRow,
  type ImportJobPatch,
  type ImportJobRow,
  type ImportRowMark,
  type ImportRowResult,
  type NewImportFile,
  type NewImportJob,
} from './import-types.js';
import { OPEN_STATUSES, toFile, toJob, toResult } from './import-rows.js';
import { StoreError, type Scope } from './types.js';

type Row = Record<string, unknown>;
type Stmt = (sql: string) => Database.Statement;
/** A write through the store's group commit; `importWrite`: a row mark with its effects, which may skip the sync. */
type Write = <T>(fn: () => T, importWrite?: boolean) => Promise<T>;

/** Bytes per stored chunk of a file. */
export const FILE_CHUNK_BYTES = 1024 * 1024;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What the marks of one transaction add to a job's counters (written once, before COMMIT). */
interface JobTally {
  readonly owner: string;
  rowsDone: number;
  failed: number;
}

/**
 * Writes row marks inside the store's transactions. The owner check (fencing) runs once per
 * job and transaction, and the job's counters are updated once, by {@link flush} before the
 * COMMIT, instead of one UPDATE of the job row per row: while this connection's write
 * transaction is open no other connection can change the job, and every other write of this
 * connection (a claim, a lease renewal) calls {@link flush} first (the group commit's
 * `beforeWrite`, src/store/sqlite-commit.ts), outside any SAVEPOINT (so a failing write cannot
 * roll the counters back after they were cleared here).
 */
export class ImportMarkWriter {
  /** Jobs whose owner was checked in the open transaction, and by which owner. */
  private readonly fenced = new Map<number, string>();
  private readonly tally = new Map<number, JobTally>();
  /** Jobs with marks in the open transaction. */
  private readonly jobsInTx = new Set<number>();
  /**
   * The counters of each job of {@link jobsInTx} as committed, read before its first mark of
   * the open transaction: what a status read reports while the transaction is open, since
   * this connection's own reads see the uncommitted counters (a kill would take them back).
   */
  private readonly committedCounters = new Map<number, Row>();
  /**
   * Jobs whose marks were lost with a failed commit, and its error: their later marks are
   * refused until the job is claimed again, so that no later row commits after rows that did
   * not (a job resumes after its last mark, and must find no gap before it).
   */
  private readonly lost = new Map<number, Error>();

  constructor(private readonly stmt: Stmt) {}

  /**
   * Stores a row mark; call inside the transaction of the row's write, as its last statement.
   * `crmId` is the written person's (null: the mark's own). Throws StoreError CONFLICT when
   * `mark.owner` does not own the job, which rolls the caller's write back with it.
   */
  write(mark: ImportRowMark, crmId: number | null): void {
    if (this.lost.has(mark.jobId)) {
      throw new StoreError(
        `Bulk import job ${mark.jobId} cannot go on in this process: the commit of its earlier rows failed (${messageOf(this.lost.get(mark.jobId))}).`,
        'IO',
      );
    }
    if (this.fenced.get(mark.jobId) !== mark.owner) {
      const owned = this.stmt('SELECT 1 FROM bulk_import_jobs WHERE id = ? AND owner = ?').get(mark.jobId, mark.owner);
      if (owned === undefined) {
        throw new StoreError(`Bulk import job ${mark.jobId} is not owned by ${mark.owner} (lease lost).`, 'CONFLICT');
      }
      this.fenced.set(mark.jobId, mark.owner);
    }
    if (!this.jobsInTx.has(mark.jobId)) {
      const counters = this.stmt('SELECT rows_done, rows_failed, status FROM bulk_import_jobs WHERE id = ?').get(mark.jobId) as Row;
      this.committedCounters.set(mark.jobId, counters);
      this.jobsInTx.add(mark.jobId);
    }
    this.stmt(
      `INSERT INTO bulk_import_rows (job_id, row_no, steps_done, crm_id, outcomes, included) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (job_id, row_no) DO UPDATE SET steps_done = excluded.steps_done, crm_id = excluded.crm_id,
        outcomes = excluded.outcomes, included = excluded.included`,
    ).run(mark.jobId, mark.rowNo, mark.stepsDone, crmId ?? mark.crmId, JSON.stringify(mark.outcomes), JSON.stringify(mark.included));
    let t = this.tally.get(mark.jobId);
    if (t === undefined) {
      t = { owner: mark.owner, rowsDone: 0, failed: 0 };
      this.tally.set(mark.jobId, t);
    }
    if (mark.rowDone) {
      t.rowsDone = Math.max(t.rowsDone, mark.rowNo);
      if (mark.outcomes.some((o) => o !== 'Processed')) t.failed++;
    }
  }

  /** Writes the counters of the marks so far into their jobs (inside the open transaction). */
  flush(): void {
    for (const [jobId, t] of this.tally) {
      const info = this.stmt(
        `UPDATE bulk_import_jobs SET rows_done = max(rows_done, ?), rows_failed = rows_failed + ?,
        status = CASE WHEN ? > 0 AND status = 'InProgress' THEN 'InProgressWithErrors' ELSE status END
        WHERE id = ? AND owner = ?`,
      ).run(t.rowsDone, t.failed, t.failed, jobId, t.owner);
      if (info.changes !== 1) {
        throw new StoreError(`Bulk import job ${jobId} is not owned by ${t.owner} (lease lost).`, 'CONFLICT');
      }
      this.tally.delete(jobId); // applied: never twice, even if a later job's update throws
    }
    this.fenced.clear();
  }

  /** The open transaction committed. */
  committed(): void {
    this.tally.clear();
    this.fenced.clear();
    this.jobsInTx.clear();
    this.committedCounters.clear();
  }

  /** `row` (a bulk_import_jobs row read on this connection) with its committed counters. */
  asCommitted(row: Row): Row {
    const counters = this.committedCounters.get(Number(row['id']));
    return counters === undefined ? row : { ...row, ...counters };
  }

  /** The open transaction was rolled back after `error`: its jobs' marks are refused from now on. */
  rolledBack(error: unknown): void {
    const lost = error instanceof Error ? error : new Error(messageOf(error));
    for (const jobId of this.jobsInTx) this.lost.set(jobId, lost);
    this.committed();
  }

  /** The error of the failed commit that lost marks of `jobId`, if one did (until the job is claimed again). */
  failureOf(jobId: number): { readonly error: Error } | null {
    const error = this.lost.get(jobId);
    return error === undefined ? null : { error };
  }

  /** True when the open transaction holds marks of `jobId`. */
  inTransaction(jobId: number): boolean {
    return this.jobsInTx.has(jobId);
  }

  /** A job was claimed (again): its marks are accepted again. */
  claimed(jobId: number): void {
    this.lost.delete(jobId);
  }
}

/** The SQLite implementation of the {@link ImportStore} methods. */
export class SqliteImportTables {
  constructor(
    private readonly db: Database.Database,
    private readonly stmt: Stmt,
    private readonly write: Write,
    private readonly marks: ImportMarkWriter,
  ) {}

  async saveImportFile(file: NewImportFile, chunks: AsyncIterable<Uint8Array>): Promise<ImportFileRow> {
    const info = await this.write(() =>
      this.stmt(
        `INSERT INTO bulk_import_files (tenant_id, context, token, name, created_at, expires_at)
      VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(file.tenantId, file.context, file.token, file.name, file.createdAt, file.expiresAt),
    );
    const id = Number(info.lastInsertRowid);
    let seq = 0;
    let size = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const put = async (): Promise<void> => {
      if (pendingBytes === 0) return;
      const data = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      const n = seq++;
      await this.write(() => this.stmt('INSERT INTO bulk_import_file_chunks (file_id, seq, data) VALUES (?, ?, ?)').run(id, n, data));
    };
    try {
      for await (const chunk of chunks) {
        const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        pending.push(Buffer.from(buf));
        pendingBytes += buf.length;
        size += buf.length;
        if (pendingBytes >= FILE_CHUNK_BYTES) await put();
      }
      await put();
      await this.write(() => this.stmt('UPDATE bulk_import_files SET size = ?, complete = 1 WHERE id = ?').run(size, id));
    } catch (error) {
      await this.write(() => this.stmt('DELETE FROM bulk_import_files WHERE id = ?').run(id)).catch(() => undefined);
      throw error;
    }
    return { ...file, id, size };
  }

  async getImportFile(scope: Scope, token: string): Promise<ImportFileRow | null> {
    const row = this.stmt('SELECT * FROM bulk_import_files WHERE token = ? AND tenant_id = ? AND context = ? AND complete = 1').get(
      token,
      scope.tenantId,
      scope.context,
    ) as Row | undefined;
    return row === undefined ? null : toFile(row);
  }

  async *readImportFile(fileId: number): AsyncIterable<Uint8Array> {
    const get = this.stmt('SELECT data FROM bulk_import_file_chunks WHERE file_id = ? AND seq = ?').pluck();
    for (let seq = 0; ; seq++) {
      const data = get.get(fileId, seq) as Buffer | undefined;
      if (data === undefined) return;
      yield data;
    }
  }

  async createImportJob(job: NewImportJob): Promise<number> {
    const info = await this.write(() =>
      this.stmt(
        `INSERT INTO bulk_import_jobs (tenant_id, context, status, request, result_token, created_at)
      VALUES (?, ?, 'Pending', ?, ?, ?)`,
      ).run(job.tenantId, job.context, job.request, job.resultToken, job.createdAt),
    );
    return Number(info.lastInsertRowid);
  }

  /**
   * Progress as committed (issue 15: rowsDone read one higher before a kill than after): the
   * counters of marks still in the open transaction are not reported until it commits.
   */
  async getImportJob(scope: Scope, jobId: number): Promise<ImportJobRow | null> {
    const row = this.stmt('SELECT * FROM bulk_import_jobs WHERE id = ? AND tenant_id = ? AND context = ?').get(jobId, scope.tenantId, scope.context) as
      Row | undefined;
    return row === undefined ? null : toJob(this.marks.asCommitted(row));
  }

  async claimImportJob(owner: string, nowMs: number, leaseMs: number): Promise<ImportJobRow | null> {
    const open = `SELECT id FROM bulk_import_jobs WHERE status IN ${OPEN_STATUSES}
        AND (owner IS NULL OR lease_until IS NULL OR lease_until < ?) ORDER BY id LIMIT 1`;
    // A plain read first: an idle server polling for work writes (and syncs) nothing.
    if (this.stmt(open).get(nowMs) === undefined) return null;
    return this.write(() => {
      const row = this.stmt(open).get(nowMs) as Row | undefined;
      if (row === undefined) return null;
      const claimed = this.stmt(
        `UPDATE bulk_import_jobs SET owner = ?, lease_until = ?, attempts = attempts + 1,
        status = CASE status WHEN 'Pending' THEN 'InProgress' ELSE status END WHERE id = ? RETURNING *`,
      ).get(owner, nowMs + leaseMs, row['id']) as Row;
      this.marks.claimed(Number(row['id']));
      return toJob(claimed);
    });
  }

  async renewImportLease(jobId: number, owner: string, nowMs: number, leaseMs: number): Promise<boolean> {
    const info = await this.write(() => this.stmt('UPDATE bulk_import_jobs SET lease_until = ? WHERE id = ? AND owner = ?').run(nowMs + leaseMs, jobId, owner));
    return info.changes === 1;
  }

  async updateImportJob(jobId: number, owner: string, patch: ImportJobPatch): Promise<boolean> {
    const sets: string[] = [];
    const values: unknown[] = [];
    const set = (column: string, value: unknown): void => {
      sets.push(`${column} = ?`);
      values.push(value);
    };
    if (patch.status !== undefined) set('status', patch.status);
    if (patch.fileId !== undefined) set('file_id', patch.fileId);
    if (patch.rowsTotal !== undefined) set('rows_total', patch.rowsTotal);
    if (patch.errors !== undefined) set('errors', JSON.stringify(patch.errors));
    if (patch.resultParts !== undefined) set('result_parts', JSON.stringify(patch.resultParts));
    if (patch.finishedAt !== undefined) set('finished_at', patch.finishedAt);
    if (patch.expiresAt !== undefined) set('expires_at', patch.expiresAt);
    if (patch.release === true || patch.handOver === true) sets.push('owner = NULL', 'lease_until = NULL');
    if (patch.handOver === true) sets.push('attempts = max(attempts - 1, 0)');
    if (sets.length === 0) return true;
    const info = await this.write(() =>
      this.db.prepare(`UPDATE bulk_import_jobs SET ${sets.join(', ')} WHERE id = ? AND owner = ?`).run(...values, jobId, owner),
    );
    return info.changes === 1;
  }

  async markImportRows(marks: readonly ImportRowMark[]): Promise<void> {
    if (marks.length === 0) return;
    await this.write(() => {
      for (const m of marks) this.marks.write(m, null);
    }, true);
  }

  async lastImportRow(jobId: number): Promise<ImportRowResult | null> {
    const row = this.stmt('SELECT * FROM bulk_import_rows WHERE job_id = ? ORDER BY row_no DESC LIMIT 1').get(jobId) as Row | undefined;
    return row === undefined ? null : toResult(row);
  }

  async listImportRows(jobId: number, fromRow: number, toRow: number, limit: number): Promise<ImportRowResult[]> {
    return (
      this.stmt(
        `SELECT * FROM bulk_import_rows WHERE job_id = ? AND row_no >= ? AND row_no <= ?
      ORDER BY row_no LIMIT ?`,
      ).all(jobId, fromRow, toRow, limit) as Row[]
    ).map(toResult);
  }

  async purgeExpiredImports(nowIso: string): Promise<{ jobs: number; files: number }> {
    return this.write(() => {
      const jobs = this.stmt(
        `SELECT id, file_id FROM bulk_import_jobs WHERE expires_at IS NOT NULL AND expires_at < ?
        AND status NOT IN ${OPEN_STATUSES}`,
      ).all(nowIso) as Row[];
      for (const j of jobs) {
        this.stmt('DELETE FROM bulk_import_rows WHERE job_id = ?').run(j['id']);
        this.stmt(`UPDATE bulk_import_jobs SET result_parts = '[]', file_id = NULL WHERE id = ?`).run(j['id']);
      }
      const files = this.stmt(
        `DELETE FROM bulk_import_files WHERE expires_at < ?
        AND id NOT IN (SELECT file_id FROM bulk_import_jobs WHERE file_id IS NOT NULL AND status IN ${OPEN_STATUSES})`,
      ).run(nowIso);
      return { jobs: jobs.length, files: files.changes };
    });
  }
}

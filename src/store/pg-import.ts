/**
 * The bulk import part of the PostgreSQL store (src/store/import-types.ts), the same rules as
 * sqlite-import.ts: files as chunked BYTEA rows, jobs with an owner and a lease, per-row marks
 * written in the transaction of the row's effects. A claim is one UPDATE of the oldest
 * claimable job chosen `FOR UPDATE SKIP LOCKED`, so two processes claiming at once never get
 * the same job.
 */
import type pg from 'pg';
import {
  type ImportFileRow,
  type ImportJobPatch,
  type ImportJobRow,
  type ImportRowMark,
  type ImportRowResult,
  type NewImportFile,
  type NewImportJob,
} from './import-types.js';
import { FILE_CHUNK_BYTES } from './sqlite-import.js';
import { OPEN_STATUSES, toFile, toJob, toResult } from './import-rows.js';
import { StoreError, type Scope } from './types.js';

type Row = Record<string, unknown>;
/** Runs a statement on `client` (a transaction's) or on the pool. */
export type PgQuery = (sql: string, values?: unknown[], client?: pg.PoolClient | null) => Promise<pg.QueryResult<Row>>;
/** Runs `fn` in a transaction of its own. */
export type PgTransaction = <T>(fn: (client: pg.PoolClient) => Promise<T>) => Promise<T>;

/**
 * Stores a row mark inside the transaction of `client` (the row's write). StoreError CONFLICT
 * when `mark.owner` does not own the job, which rolls the whole transaction back (fencing).
 */
export async function writePgImportMark(q: PgQuery, client: pg.PoolClient, mark: ImportRowMark, crmId: number | null): Promise<void> {
  const failed = mark.rowDone && mark.outcomes.some((o) => o !== 'Processed');
  const fenced = await q(
    `UPDATE bulk_import_jobs SET rows_done = CASE WHEN $1::boolean THEN $2::bigint ELSE rows_done END,
    rows_failed = rows_failed + CASE WHEN $3::boolean THEN 1 ELSE 0 END,
    status = CASE WHEN $3::boolean AND status = 'InProgress' THEN 'InProgressWithErrors' ELSE status END
    WHERE id = $4 AND owner = $5`,
    [mark.rowDone, mark.rowNo, failed, mark.jobId, mark.owner],
    client,
  );
  if (fenced.rowCount !== 1) {
    throw new StoreError(`Bulk import job ${mark.jobId} is not owned by ${mark.owner} (lease lost).`, 'CONFLICT');
  }
  await q(
    `INSERT INTO bulk_import_rows (job_id, row_no, steps_done, crm_id, outcomes, included) VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (job_id, row_no) DO UPDATE SET steps_done = excluded.steps_done, crm_id = excluded.crm_id,
      outcomes = excluded.outcomes, included = excluded.included`,
    [mark.jobId, mark.rowNo, mark.stepsDone, crmId ?? mark.crmId, JSON.stringify(mark.outcomes), JSON.stringify(mark.included)],
    client,
  );
}

/** The PostgreSQL implementation of the {@link ImportStore} methods. */
export class PgImportTables {
  constructor(
    private readonly q: PgQuery,
    private readonly transaction: PgTransaction,
  ) {}

  async saveImportFile(file: NewImportFile, chunks: AsyncIterable<Uint8Array>): Promise<ImportFileRow> {
    const r = await this.q(
      `INSERT INTO bulk_import_files (tenant_id, context, token, name, created_at, expires_at)
      VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [file.tenantId, file.context, file.token, file.name, file.createdAt, file.expiresAt],
    );
    const id = Number(r.rows[0]?.['id']);
    let seq = 0;
    let size = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const put = async (): Promise<void> => {
      if (pendingBytes === 0) return;
      const data = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      await this.q('INSERT INTO bulk_import_file_chunks (file_id, seq, data) VALUES ($1, $2, $3)', [id, seq++, data]);
    };
    try {
      for await (const chunk of chunks) {
        pending.push(Buffer.from(chunk));
        pendingBytes += chunk.byteLength;
        size += chunk.byteLength;
        if (pendingBytes >= FILE_CHUNK_BYTES) await put();
      }
      await put();
      await this.q('UPDATE bulk_import_files SET size = $1, complete = TRUE WHERE id = $2', [size, id]);
    } catch (error) {
      await this.q('DELETE FROM bulk_import_files WHERE id = $1', [id]).catch(() => undefined);
      throw error;
    }
    return { ...file, id, size };
  }

  async getImportFile(scope: Scope, token: string): Promise<ImportFileRow | null> {
    const row = (
      await this.q('SELECT * FROM bulk_import_files WHERE token = $1 AND tenant_id = $2 AND context = $3 AND complete', [token, scope.tenantId, scope.context])
    ).rows[0];
    return row === undefined ? null : toFile(row);
  }

  async *readImportFile(fileId: number): AsyncIterable<Uint8Array> {
    for (let seq = 0; ; seq++) {
      const row = (await this.q('SELECT data FROM bulk_import_file_chunks WHERE file_id = $1 AND seq = $2', [fileId, seq])).rows[0];
      if (row === undefined) return;
      yield row['data'] as Buffer;
    }
  }

  async createImportJob(job: NewImportJob): Promise<number> {
    const r = await this.q(
      `INSERT INTO bulk_import_jobs (tenant_id, context, status, request, result_token, created_at)
      VALUES ($1, $2, 'Pending', $3, $4, $5) RETURNING id`,
      [job.tenantId, job.context, job.request, job.resultToken, job.createdAt],
    );
    return Number(r.rows[0]?.['id']);
  }

  async getImportJob(scope: Scope, jobId: number): Promise<ImportJobRow | null> {
    const row = (await this.q('SELECT * FROM bulk_import_jobs WHERE id = $1 AND tenant_id = $2 AND context = $3', [jobId, scope.tenantId, scope.context]))
      .rows[0];
    return row === undefined ? null : toJob(row);
  }

  async claimImportJob(owner: string, nowMs: number, leaseMs: number): Promise<ImportJobRow | null> {
    const row = (
      await this.q(
        `UPDATE bulk_import_jobs SET owner = $1, lease_until = $2, attempts = attempts + 1,
      status = CASE status WHEN 'Pending' THEN 'InProgress' ELSE status END
      WHERE id = (SELECT id FROM bulk_import_jobs WHERE status IN ${OPEN_STATUSES}
        AND (owner IS NULL OR lease_until IS NULL OR lease_until < $3) ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING *`,
        [owner, nowMs + leaseMs, nowMs],
      )
    ).rows[0];
    return row === undefined ? null : toJob(row);
  }

  async renewImportLease(jobId: number, owner: string, nowMs: number, leaseMs: number): Promise<boolean> {
    const r = await this.q('UPDATE bulk_import_jobs SET lease_until = $1 WHERE id = $2 AND owner = $3', [nowMs + leaseMs, jobId, owner]);
    return r.rowCount === 1;
  }

  async updateImportJob(jobId: number, owner: string, patch: ImportJobPatch): Promise<boolean> {
    const sets: string[] = [];
    const values: unknown[] = [];
    const set = (column: string, value: unknown): void => {
      values.push(value);
      sets.push(`${column} = $${values.length}`);
    };
    if (patch.status !== undefined) set('status', patch.status);
    if (patch.fileId !== undefined) set('file_id', patch.fileId);
    if (patch.rowsTotal !== undefined) set('rows_total', patch.rowsTotal);
    if (patch.errors !== undefined) set('errors', JSON.stringify(patch.errors));
    if (patch.resultParts !== undefined) set('result_parts', JSON.stringify(patch.resultParts));
    if (patch.finishedAt !== undefined) set('finished_at', patch.finishedAt);
    if (patch.expiresAt !== undefined) set('expires_at', patch.expiresAt);
    if (patch.release === true || patch.handOver === true) sets.push('owner = NULL', 'lease_until = NULL');
    if (patch.handOver === true) sets.push('attempts = GREATEST(attempts - 1, 0)');
    if (sets.length === 0) return true;
    const r = await this.q(`UPDATE bulk_import_jobs SET ${sets.join(', ')} WHERE id = $${values.length + 1} AND owner = $${values.length + 2}`, [
      ...values,
      jobId,
      owner,
    ]);
    return r.rowCount === 1;
  }

  async markImportRows(marks: readonly ImportRowMark[]): Promise<void> {
    if (marks.length === 0) return;
    await this.transaction(async (client) => {
      for (const m of marks) await writePgImportMark(this.q, client, m, null);
    });
  }

  async lastImportRow(jobId: number): Promise<ImportRowResult | null> {
    const row = (await this.q('SELECT * FROM bulk_import_rows WHERE job_id = $1 ORDER BY row_no DESC LIMIT 1', [jobId])).rows[0];
    return row === undefined ? null : toResult(row);
  }

  async listImportRows(jobId: number, fromRow: number, toRow: number, limit: number): Promise<ImportRowResult[]> {
    return (
      await this.q(
        `SELECT * FROM bulk_import_rows WHERE job_id = $1 AND row_no >= $2 AND row_no <= $3
      ORDER BY row_no LIMIT $4`,
        [jobId, fromRow, toRow, limit],
      )
    ).rows.map(toResult);
  }

  async purgeExpiredImports(nowIso: string): Promise<{ jobs: number; files: number }> {
    return this.transaction(async (client) => {
      const jobs = (
        await this.q(
          `SELECT id FROM bulk_import_jobs WHERE expires_at IS NOT NULL AND expires_at < $1
        AND status NOT IN ${OPEN_STATUSES}`,
          [nowIso],
          client,
        )
      ).rows.map((r) => Number(r['id']));
      if (jobs.length > 0) {
        await this.q('DELETE FROM bulk_import_rows WHERE job_id = ANY($1::bigint[])', [jobs], client);
        await this.q(`UPDATE bulk_import_jobs SET result_parts = '[]', file_id = NULL WHERE id = ANY($1::bigint[])`, [jobs], client);
      }
      const files = await this.q(
        `DELETE FROM bulk_import_files WHERE expires_at < $1
        AND id NOT IN (SELECT file_id FROM bulk_import_jobs WHERE file_id IS NOT NULL AND status IN ${OPEN_STATUSES})`,
        [nowIso],
        client,
      );
      return { jobs: jobs.length, files: files.rowCount ?? 0 };
    });
  }
}

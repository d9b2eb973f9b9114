/**
 * Persistence of bulk import jobs, uploaded files and per-row results (issue 5), the part of
 * the {@link Store} contract that a second adapter (PostgreSQL) must also implement.
 *
 * The rules an adapter must keep:
 * - **One owner per job.** {@link ImportStore.claimImportJob} is atomic: it hands a job to
 *   exactly one `owner` (a process id string) with a lease until `nowMs + leaseMs`. The owner
 *   renews the lease ({@link ImportStore.renewImportLease}) while it works; a job whose lease
 *   ran out (its process died) can be claimed by another process, which resumes it.
 * - **Fencing.** Every write about a job names its owner and is refused (StoreError CONFLICT,
 *   rolling back the whole write it belongs to) when the job is owned by someone else, so a
 *   process that lost its lease cannot apply another row.
 * - **Row marks commit with the row's effects.** A people write ({@link ScopeWriter.insertPerson},
 *   {@link ScopeWriter.updatePerson}) or a canvass write may carry an {@link ImportRowMark}: the
 *   adapter stores the mark (the row's progress and outcome) in the SAME transaction as the
 *   person, so after a crash either both are there or neither is. That is what makes a
 *   resumed job apply no row twice. Steps without a write are marked by
 *   {@link ImportStore.markImportRows}. Marks of a job are written in row order by one owner,
 *   so the stored marks are always a prefix of the file.
 * - Files (uploads, and the copy of a fetched source) live in the database as chunks, so any
 *   process sharing the database can read them.
 */

import type { Scope } from './types.js';

/** Status of a bulk import job (compatibility.md "Bulk import"). */
export type ImportJobStatus = 'Pending' | 'InProgress' | 'InProgressWithErrors' | 'Completed' | 'CompletedWithErrors' | 'Failed';

/** An error reported on a job (`errors` of GET /bulkImportJobs/{id}). */
export interface ImportJobError {
  readonly code: string;
  readonly text: string;
  readonly referenceCode?: string;
}

/** One result file of a completed job: rows `firstRow..lastRow` (1-based data rows). */
export interface ImportResultPart {
  readonly firstRow: number;
  readonly lastRow: number;
}

export interface NewImportJob {
  readonly tenantId: number;
  readonly context: 'voterfile' | 'campaign';
  /** The validated job request as JSON (src/crm/import/job-request.ts). */
  readonly request: string;
  /** Random token that makes the result file URLs unguessable. */
  readonly resultToken: string;
  readonly createdAt: string;
}

export interface ImportJobRow extends NewImportJob {
  readonly id: number;
  readonly status: ImportJobStatus;
  /** The staged source file (delimited text) once fetched; null before. */
  readonly fileId: number | null;
  /** Data rows of the file once known; null before. */
  readonly rowsTotal: number | null;
  /** Data rows whose every step is marked (progress). */
  readonly rowsDone: number;
  /** Rows done with at least one outcome other than Processed. */
  readonly rowsFailed: number;
  readonly owner: string | null;
  /** Lease end, epoch milliseconds; null when not owned. */
  readonly leaseUntil: number | null;
  /** How many times the job was claimed and not handed back (1 on the first run; more after crashes). */
  readonly attempts: number;
  readonly errors: readonly ImportJobError[];
  readonly resultParts: readonly ImportResultPart[];
  readonly finishedAt: string | null;
  /** When the result files expire (ISO 8601); null until finished. */
  readonly expiresAt: string | null;
}

/** What an owner changes on its job (every field optional). */
export interface ImportJobPatch {
  readonly status?: ImportJobStatus;
  readonly fileId?: number;
  readonly rowsTotal?: number;
  readonly errors?: readonly ImportJobError[];
  readonly resultParts?: readonly ImportResultPart[];
  readonly finishedAt?: string;
  readonly expiresAt?: string;
  /** Clear owner and lease (the job is finished). */
  readonly release?: boolean;
  /**
   * Clear owner and lease AND give back this claim's attempt: the owner stops cleanly (a
   * SIGTERM) and hands the job over to the next server. Only claims never handed back (their
   * server crashed) count toward giving up (src/crm/import/runner.ts MAX_ATTEMPTS).
   */
  readonly handOver?: boolean;
}

/**
 * Progress of one row of a job, stored with the row's effects. A row has `steps` steps (one
 * per mapping type); `stepsDone` says how many are applied, `outcomes` their outcomes so far.
 */
export interface ImportRowMark {
  readonly jobId: number;
  readonly owner: string;
  /** 1-based data row number. */
  readonly rowNo: number;
  readonly stepsDone: number;
  /** True when this mark completes the row (all steps applied). */
  readonly rowDone: boolean;
  /** The row's contact (created or matched), when known; a people write stores its own crmId. */
  readonly crmId: number | null;
  /** One outcome per applied step: "Processed" or why not. */
  readonly outcomes: readonly string[];
  /** Values of the columns to include in the result file. */
  readonly included: readonly string[];
}

/** A stored row mark, as read back for resuming and for the result file. */
export interface ImportRowResult {
  readonly rowNo: number;
  readonly stepsDone: number;
  readonly crmId: number | null;
  readonly outcomes: readonly string[];
  readonly included: readonly string[];
}

export interface NewImportFile {
  readonly tenantId: number;
  /** The context of the key that uploaded it (or of the job it was staged for): only that context can use it. */
  readonly context: 'voterfile' | 'campaign';
  /** Random URL-safe token naming the file (its URL holds it). */
  readonly token: string;
  readonly name: string;
  readonly createdAt: string;
  readonly expiresAt: string;
}

export interface ImportFileRow extends NewImportFile {
  readonly id: number;
  readonly size: number;
}

/** Bulk import persistence; part of {@link Store}. See the module comment for the rules. */
export interface ImportStore {
  /**
   * Stores a file read from `chunks` (in order), in its own transactions; the row appears
   * (for getImportFile) only once every chunk is stored. If `chunks` throws, nothing stays.
   */
  saveImportFile(file: NewImportFile, chunks: AsyncIterable<Uint8Array>): Promise<ImportFileRow>;
  /** A complete file by token, only when it belongs to `scope` (tenant AND context, like people). */
  getImportFile(scope: Scope, token: string): Promise<ImportFileRow | null>;
  /** A complete file's content, chunk by chunk, in order. */
  readImportFile(fileId: number): AsyncIterable<Uint8Array>;

  /** Stores a new job (status Pending); returns its id. */
  createImportJob(job: NewImportJob): Promise<number>;
  /** A job by id, only when it belongs to `scope` (tenant AND context, like people). */
  getImportJob(scope: Scope, jobId: number): Promise<ImportJobRow | null>;
  /**
   * Atomically takes the oldest job that is Pending, or InProgress(WithErrors) with a lease
   * ended before `nowMs`: sets owner, lease `nowMs + leaseMs`, attempts + 1, and status
   * InProgress when it was Pending. Null when there is none.
   */
  claimImportJob(owner: string, nowMs: number, leaseMs: number): Promise<ImportJobRow | null>;
  /** Extends the lease; false when the job is no longer this owner's. */
  renewImportLease(jobId: number, owner: string, nowMs: number, leaseMs: number): Promise<boolean>;
  /** Applies a patch when `owner` owns the job; false otherwise. */
  updateImportJob(jobId: number, owner: string, patch: ImportJobPatch): Promise<boolean>;
  /**
   * Stores marks of steps that wrote nothing (in one transaction, through the group commit:
   * committed once the returned Promise resolves; the sync may follow, see types.ts).
   * StoreError CONFLICT when not the owner.
   */
  markImportRows(marks: readonly ImportRowMark[]): Promise<void>;
  /**
   * Resolves when the marks of job `jobId` written so far, and so the rows' effects committed
   * with them, are durable, at the store's own pace (a batch of bulk import writes is not
   * committed early for it); rejects when a commit of some of them failed (the job must
   * stop: a later claim resumes it after its last surviving mark).
   */
  importDurable(jobId: number): Promise<void>;
  /** The last marked row of a job (to resume from), or null. */
  lastImportRow(jobId: number): Promise<ImportRowResult | null>;
  /** Marked rows of a job with rowNo in `fromRow..toRow`, ascending, at most `limit`. */
  listImportRows(jobId: number, fromRow: number, toRow: number, limit: number): Promise<ImportRowResult[]>;
  /**
   * Deletes what expired before `nowIso`: uploaded files, and the rows and staged files of
   * finished jobs whose result files expired. Returns how many jobs and files were purged.
   */
  purgeExpiredImports(nowIso: string): Promise<{ jobs: number; files: number }>;
}

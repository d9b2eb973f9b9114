/**
 * The background worker of bulk import jobs. Each server process runs one: it claims a job
 * (store lease, so exactly one process works on a job), renews the lease while working, and
 * takes over jobs whose process died (their lease ran out), resuming after the last row
 * whose effects were committed (the row marks, src/store/import-types.ts): no row is applied
 * twice.
 *
 * A job runs in two phases:
 * 1. staging: the source (an upload, or an allow-listed URL) is read once, unzipped when it is
 *    a zip, transcoded to UTF-8 (its encoding detected: src/files/transcode.ts), parsed to
 *    count its rows and check its columns and mappings, and stored in the database. A source
 *    that cannot be read ends the job Failed with the reason.
 * 2. applying: the staged copy is read back and each row goes through its mapping types.
 *    Rows are handled one after another, yielding to the event loop after at most `sliceMs`
 *    of work, so an API request waits at most about that long behind a job. The store commits
 *    the rows' writes by time (SQLite: every 8 ms, src/store/sqlite-commit.ts), not at each
 *    yield; the worker does not wait for those commits (Store.importDurable), it only stops at
 *    the first that fails.
 *
 * Past 400 lines because one class follows a job through its life (claim, stage, apply each
 * row, finish or hand over) and every step reads the same lease, stop flag and clock; the
 * parts without that state live apart: row steps (row-steps.ts), the result file
 * (result-file.ts), the job request (job-request.ts), the source (src/files/import-source.ts).
 */
import { TextDecoder } from 'node:util';
import { randomBytes } from 'node:crypto';
import { DelimitedError, DelimitedParser, type ParsedRow } from '../../files/delimited.js';
import { SourceError, limitBytes, unzipIfZip, type SourceLimits } from '../../files/import-source.js';
import { formatCsvRow } from '../../files/csv-writer.js';
import { toUtf8 } from '../../files/transcode.js';
import { StoreError, type ImportJobRow, type ImportRowMark, type ImportRowResult } from '../../store/index.js';
import type { CallContext, Crm } from '../crm.js';
import { CrmError } from '../errors.js';
import type { JobSpec } from './job-request.js';
import { PartSplitter, resultHeader, resultLine } from './result-file.js';
import { PROCESSED, compilePlan, outcomeOf, stepFor, type ImportPlan } from './row-steps.js';

/** Options of {@link ImportRunner}. */
export interface ImportRunnerOptions {
  readonly crm: Crm;
  /** This process's owner id in job leases. Default: random. */
  readonly owner?: string;
  /** Streams an allow-listed URL (src/files/import-source.ts `fetchSource`). */
  readonly fetchUrl: (url: string) => AsyncIterable<Uint8Array>;
  readonly limits: Pick<SourceLimits, 'maxBytes' | 'maxZipRatio'>;
  /** Lease length in ms; renewed every third of it. Default 15,000. */
  readonly leaseMs?: number;
  /** How often to look for work when idle, ms. Default 1,000. */
  readonly pollMs?: number;
  /** At most this many rows between yields to the event loop. Default 500. */
  readonly batchRows?: number;
  /**
   * At most this many ms of work between yields to the event loop, so API requests wait at
   * most about this long behind a job. Default 1.
   */
  readonly sliceMs?: number;
  /** How long result files are served, ms. Default 24 hours. */
  readonly resultTtlMs?: number;
  readonly now?: () => Date;
  /** Reports unexpected failures (logged by the server). */
  readonly onError?: (error: unknown, jobId: number | null) => void;
  /** Hears of each row this runner finished: ok when every mapping type applied (metrics). */
  readonly onRow?: (ok: boolean) => void;
  /** Hears of each job this runner finished, with its final status (metrics). */
  readonly onJobEnd?: (status: 'Completed' | 'CompletedWithErrors' | 'Failed') => void;
}

/** The job cannot go on (lost lease: another process has it). */
class LeaseLost extends Error {}
/** The file or the job's mappings cannot be used; ends the job Failed with this text. */
class JobFailure extends Error {}

const RESULT_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A job claimed more often than this without being handed back (its server died each time)
 * ends Failed instead of retrying forever. Clean stops hand the job back and do not count.
 */
export const MAX_ATTEMPTS = 5;
/** How often expired uploads and results are purged, ms. */
const PURGE_EVERY_MS = 60_000;

function iso(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Bytes decoded and parsed at once: bounds how long parsing holds the event loop (a few ms). */
const PARSE_SLICE = 64 * 1024;

const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** Commits not yet reported, at most, before the worker waits for them (bounds memory and a networked store's queue). */
const MAX_UNSETTLED = 2000;

/**
 * What the store reports of a job's commits: the worker does not wait for them (the store
 * commits by time) but asks, at each yield, when the rows so far are durable
 * (Store.importDurable), stops at the first commit that failed, and waits for all at the end.
 */
class Commits {
  private unsettled = 0;
  private failure: { error: unknown } | null = null;
  private onIdle: (() => void) | null = null;

  track(commit: Promise<void>): void {
    this.unsettled++;
    commit.then(
      () => this.settle(),
      (error: unknown) => {
        this.failure ??= { error };
        this.settle();
      },
    );
  }

  private settle(): void {
    if (--this.unsettled > 0 || this.onIdle === null) return;
    const idle = this.onIdle;
    this.onIdle = null;
    idle();
  }

  /** Throws the first failed commit's error (the job stops; the store rolled those rows back). */
  check(): void {
    if (this.failure !== null) throw this.failure.error;
  }

  /** Waits for every tracked commit when there are many (`all`: always); then {@link check}. */
  async wait(all: boolean): Promise<void> {
    if (this.unsettled > (all ? 0 : MAX_UNSETTLED))
      await new Promise<void>((resolve) => {
        this.onIdle = resolve;
      });
    this.check();
  }
}

/** Decodes UTF-8 chunks (the staged copy is UTF-8: `stage` transcodes) and parses rows; the first row is the header when `hasHeader`. */
async function* parseRows(chunks: AsyncIterable<Uint8Array>, spec: JobSpec): AsyncGenerator<ParsedRow[]> {
  const decoder = new TextDecoder('utf-8');
  const parser = new DelimitedParser({ delimiter: spec.delimiter, quotes: spec.hasQuotes });
  for await (const chunk of chunks) {
    for (let at = 0; at < chunk.length; at += PARSE_SLICE) {
      if (at > 0) await nextTurn();
      const rows = parser.push(decoder.decode(chunk.subarray(at, at + PARSE_SLICE), { stream: true }));
      if (rows.length > 0) yield rows;
    }
  }
  const rest = [...parser.push(decoder.decode()), ...parser.end()];
  if (rest.length > 0) yield rest;
}

/** The background worker; `start()` it with the server, `stop()` before closing the Crm. */
export class ImportRunner {
  readonly owner: string;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly batchRows: number;
  private readonly sliceMs: number;
  private readonly ttlMs: number;
  private readonly clock: () => Date;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  /** stop() was called: a job in progress is released at its next yield. */
  private stopping = false;
  private again = false;
  private purgedAt = -Infinity;

  constructor(private readonly options: ImportRunnerOptions) {
    this.owner = options.owner ?? `${process.pid}-${randomBytes(6).toString('hex')}`;
    this.leaseMs = Math.max(100, options.leaseMs ?? 15_000);
    this.pollMs = Math.max(10, options.pollMs ?? 1000);
    this.batchRows = Math.max(1, options.batchRows ?? 500);
    this.sliceMs = Math.max(0, options.sliceMs ?? 1);
    this.ttlMs = options.resultTtlMs ?? RESULT_TTL_MS;
    this.clock = options.now ?? (() => new Date());
  }

  private get store() {
    return this.options.crm.store;
  }

  /** Starts looking for jobs. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.stopping = false;
    this.schedule(0);
  }

  /** Looks for work now (a job was just created). */
  kick(): void {
    if (this.stopped) return;
    if (this.running !== null) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** Stops after the current batch; a job in progress keeps its rows and is released for a restart to resume. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.loop().finally(() => {
        this.running = null;
        const soon = this.again;
        this.again = false;
        this.schedule(soon ? 0 : this.pollMs);
      });
    }, ms);
    this.timer.unref();
  }

  /** Claims and runs jobs until there is none. */
  private async loop(): Promise<void> {
    try {
      const now = this.clock().getTime();
      if (now - this.purgedAt >= PURGE_EVERY_MS) {
        this.purgedAt = now;
        await this.store.purgeExpiredImports(iso(this.clock()));
      }
      while (!this.stopped) {
        const job = await this.store.claimImportJob(this.owner, this.clock().getTime(), this.leaseMs);
        if (job === null) return;
        await this.run(job);
      }
    } catch (error) {
      this.options.onError?.(error, null);
    }
  }

  /** Runs one claimed job to its end (or until the lease is lost or the runner stops). */
  async run(job: ImportJobRow): Promise<void> {
    let lost = false;
    const heartbeat = setInterval(
      () => {
        this.store
          .renewImportLease(job.id, this.owner, this.clock().getTime(), this.leaseMs)
          .then((ok) => {
            if (!ok) lost = true;
          })
          .catch((error: unknown) => this.options.onError?.(error, job.id));
      },
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
    heartbeat.unref();
    const check = (): void => {
      if (lost) throw new LeaseLost();
    };
    try {
      if (job.attempts > MAX_ATTEMPTS) {
        throw new JobFailure(
          `The job was interrupted ${job.attempts - 1} times (its server crashed each time) after ${job.rowsDone} rows; it is not retried again.`,
        );
      }
      const spec = JSON.parse(job.request) as JobSpec;
      let fileId = job.fileId;
      let rowsTotal = job.rowsTotal;
      if (fileId === null) {
        const staged = await this.stage(job, spec);
        fileId = staged.fileId;
        rowsTotal = staged.rows;
        if (!(await this.store.updateImportJob(job.id, this.owner, { fileId, rowsTotal }))) throw new LeaseLost();
      }
      if (rowsTotal === null) throw new JobFailure('The job cannot resume: its staged file is unknown.');
      const finished = await this.apply(job, spec, fileId, rowsTotal, check);
      if (finished) await this.finish(job, spec, fileId);
    } catch (error) {
      if (error instanceof LeaseLost || (error instanceof StoreError && error.code === 'CONFLICT')) return;
      const text =
        error instanceof JobFailure || error instanceof SourceError || error instanceof DelimitedError
          ? error.message
          : `The job stopped on an internal error (${error instanceof Error ? error.message : String(error)}).`;
      if (!(error instanceof JobFailure || error instanceof SourceError || error instanceof DelimitedError)) this.options.onError?.(error, job.id);
      await this.fail(job, text).catch((e: unknown) => this.options.onError?.(e, job.id));
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async fail(job: ImportJobRow, text: string): Promise<void> {
    const now = this.clock();
    await this.store.updateImportJob(job.id, this.owner, {
      status: 'Failed',
      errors: [{ code: 'IMPORT_FAILED', text }],
      finishedAt: iso(now),
      expiresAt: iso(new Date(now.getTime() + this.ttlMs)),
      release: true,
    });
    this.options.onJobEnd?.('Failed');
  }

  /** The source's bytes: the upload, or the fetched URL; unzipped and size-limited. */
  private source(job: ImportJobRow, spec: JobSpec): AsyncIterable<Uint8Array> {
    const { limits } = this.options;
    const store = this.store;
    const raw =
      spec.source.kind === 'upload'
        ? (async function* upload(token: string): AsyncGenerator<Uint8Array> {
            const file = await store.getImportFile({ tenantId: job.tenantId, context: job.context }, token);
            if (file === null) throw new JobFailure('The uploaded file is gone (uploads are kept 24 hours); upload it again.');
            yield* store.readImportFile(file.id);
          })(spec.source.token)
        : this.options.fetchUrl(spec.source.url);
    return limitBytes(unzipIfZip(raw, limits), limits.maxBytes);
  }

  /** Phase 1: reads the source once, checks it, stores the delimited text; returns the staged file and its data rows. */
  private async stage(job: ImportJobRow, spec: JobSpec): Promise<{ fileId: number; rows: number }> {
    let rows = 0;
    // Set while the generator below reads the file: properties, so the checks after it see them.
    const checked: { plan: boolean; header: string[] | null } = { plan: false, header: null };
    const planOf = (columns: readonly string[]): void => {
      const plan = compilePlan(spec, columns);
      if (!plan.ok) throw new JobFailure(`The file's columns do not fit the job: ${plan.issues.map((i) => `${i.property}: ${i.text}`).join(' ')}`);
      checked.plan = true;
    };
    if (spec.columns !== null) planOf(spec.columns);
    // Staged as UTF-8 whatever the source's encoding, so apply() (and a resume) reads it as UTF-8.
    const source = toUtf8(this.source(job, spec));
    async function* counted(): AsyncGenerator<Uint8Array> {
      const chunks: Uint8Array[] = [];
      const tap = (async function* tapped(): AsyncGenerator<Uint8Array> {
        for await (const chunk of source) {
          chunks.push(chunk);
          yield chunk;
        }
      })();
      for await (const batch of parseRows(tap, spec)) {
        for (const row of batch) {
          if (checked.header === null && spec.hasHeader) {
            const header = row.cells.map((c) => c.trim());
            checked.header = header;
            if (spec.columns === null) planOf(header);
            else if (header.length !== spec.columns.length) {
              throw new JobFailure(
                `The file's header line has ${header.length} columns (${header.slice(0, 10).join(', ')}), but file.columns names ${spec.columns.length}.`,
              );
            }
            continue;
          }
          rows++;
        }
        while (chunks.length > 0) yield chunks.shift() as Uint8Array;
      }
      while (chunks.length > 0) yield chunks.shift() as Uint8Array;
    }
    const now = this.clock();
    const file = await this.store.saveImportFile(
      {
        tenantId: job.tenantId,
        context: job.context,
        token: randomBytes(18).toString('base64url'),
        name: `job-${job.id}-source`,
        createdAt: iso(now),
        expiresAt: iso(new Date(now.getTime() + this.ttlMs)),
      },
      counted(),
    );
    if (spec.hasHeader && checked.header === null) throw new JobFailure('The file is empty: it has no header line.');
    if (!checked.plan) throw new JobFailure('The file is empty.');
    return { fileId: file.id, rows };
  }

  /** Phase 2: applies the rows after the last committed one. False when stopped before the end. */
  private async apply(job: ImportJobRow, spec: JobSpec, fileId: number, rowsTotal: number, check: () => void): Promise<boolean> {
    const ctx: CallContext = { tenantId: job.tenantId, context: job.context };
    const steps = spec.mappingTypes.length;
    const last = await this.store.lastImportRow(job.id);
    const startRow = last === null ? 1 : last.stepsDone >= steps ? last.rowNo + 1 : last.rowNo;
    let partial: ImportRowResult | null = last !== null && last.stepsDone < steps ? last : null;
    let plan: ImportPlan | null = null;
    if (spec.columns !== null) plan = this.planOrFail(spec, spec.columns);
    let rowNo = 0;
    let headerSeen = !spec.hasHeader;
    const commits = new Commits();
    let sinceYield = 0;
    let sliceStart = performance.now();
    for await (const batch of parseRows(this.store.readImportFile(fileId), spec)) {
      for (const row of batch) {
        if (!headerSeen) {
          headerSeen = true;
          plan ??= this.planOrFail(
            spec,
            row.cells.map((c) => c.trim()),
          );
          continue;
        }
        rowNo++;
        if (rowNo < startRow || plan === null) continue;
        check();
        const ok = await this.applyRow(ctx, job, plan, row, rowNo, partial?.rowNo === rowNo ? partial : null, commits);
        this.options.onRow?.(ok);
        partial = null;
        if (++sinceYield >= this.batchRows || performance.now() - sliceStart >= this.sliceMs) {
          sinceYield = 0;
          commits.track(this.store.importDurable(job.id));
          await commits.wait(false);
          await nextTurn();
          sliceStart = performance.now();
          if (this.stopping) {
            // A clean stop hands the job over: the next server resumes it, and this claim does
            // not count toward MAX_ATTEMPTS (only crashes do).
            await this.store.updateImportJob(job.id, this.owner, { handOver: true });
            return false;
          }
        }
      }
    }
    await this.store.flush();
    commits.track(this.store.importDurable(job.id));
    await commits.wait(true);
    if (rowNo !== rowsTotal) {
      throw new JobFailure(
        `The job cannot resume: its staged copy of the file now has ${rowNo} rows instead of ${rowsTotal} (rows 1-${Math.min(rowNo, rowsTotal)} were applied).`,
      );
    }
    return true;
  }

  private planOrFail(spec: JobSpec, columns: readonly string[]): ImportPlan {
    const plan = compilePlan(spec, columns);
    if (!plan.ok) throw new JobFailure(`The file's columns do not fit the job: ${plan.issues.map((i) => `${i.property}: ${i.text}`).join(' ')}`);
    return plan.value;
  }

  /**
   * Applies one row's steps after those already marked in `partial`; tracks their commits.
   * True when every mapping type of the row applied.
   */
  private async applyRow(
    ctx: CallContext,
    job: ImportJobRow,
    plan: ImportPlan,
    row: ParsedRow,
    rowNo: number,
    partial: ImportRowResult | null,
    commits: Commits,
  ): Promise<boolean> {
    const cells = row.cells;
    const included = plan.include.map((i) => cells[i] ?? '');
    const n = plan.types.length;
    const outcomes = [...(partial?.outcomes ?? [])];
    let crmId = partial?.crmId ?? null;
    const markOf = (stepsDone: number, extra: readonly string[]): ImportRowMark => ({
      jobId: job.id,
      owner: this.owner,
      rowNo,
      stepsDone,
      rowDone: stepsDone === n,
      crmId,
      outcomes: [...outcomes, ...extra],
      included,
    });
    const noWrite = (stepsDone: number): void => commits.track(this.store.markImportRows([markOf(stepsDone, [])]));
    const bad =
      row.error ??
      (cells.length !== plan.columns.length
        ? `The row has ${cells.length} field${cells.length === 1 ? '' : 's'}, the file ${plan.columns.length} columns (line ${row.line}).`
        : null);
    if (bad !== null) {
      while (outcomes.length < n) outcomes.push(row.error !== null ? `Malformed row (line ${row.line}): ${bad}` : bad);
      noWrite(n);
      return false;
    }
    for (let s = partial?.stepsDone ?? 0; s < n; s++) {
      const m = plan.types[s];
      if (m === undefined) break;
      const step = stepFor(m, cells, crmId);
      if (step.kind === 'invalid') {
        outcomes.push(step.outcome);
        noWrite(s + 1);
        continue;
      }
      try {
        if (step.kind === 'findOrCreate') {
          const r = await this.options.crm.importFindOrCreate(ctx, step.body, markOf(s + 1, [PROCESSED]));
          crmId = r.outcome.crmId;
          outcomes.push(PROCESSED);
          if (!r.written) noWrite(s + 1);
          continue;
        }
        if (step.crmId === null) {
          outcomes.push('VanID: a value is required (the row names no contact).');
          noWrite(s + 1);
          continue;
        }
        const target = step.crmId;
        let found: boolean;
        if (step.kind === 'update' || step.kind === 'suppression') {
          const r =
            step.kind === 'update'
              ? await this.options.crm.importUpdatePerson(ctx, target, step.body, markOf(s + 1, [PROCESSED]))
              : await this.options.crm.importSuppression(ctx, target, step.code, step.remove, markOf(s + 1, [PROCESSED]));
          found = r.found;
          if (found) {
            crmId = target;
            outcomes.push(PROCESSED);
            if (!r.written) noWrite(s + 1);
          }
        } else {
          found = await this.options.crm.addCanvassResponse(ctx, { kind: 'crmId', crmId: target }, step.body, { mark: markOf(s + 1, [PROCESSED]) });
          if (found) {
            crmId = target;
            outcomes.push(PROCESSED);
          }
        }
        if (!found) {
          outcomes.push(`VanID: no contact with crmId ${target}.`);
          noWrite(s + 1);
        }
      } catch (error) {
        if (!(error instanceof CrmError)) throw error;
        outcomes.push(outcomeOf(error.issues, m, step.body, step.kind === 'findOrCreate' ? step.labels : []));
        noWrite(s + 1);
      }
    }
    return outcomes.every((o) => o === PROCESSED);
  }

  /**
   * Splits the result file into parts and ends the job. Row failures are reported on their row
   * and leave the job `Completed` (parsons reads the result file of a `Completed` job only);
   * `CompletedWithErrors`, with `errors[]` saying why, is for a shortfall of the job as a
   * whole: a result file over `resultFileSizeKbLimit`, served as several files (a client that
   * reads `resultFiles[0]` alone would miss rows).
   */
  private async finish(job: ImportJobRow, spec: JobSpec, fileId: number): Promise<void> {
    const current = await this.store.getImportJob({ tenantId: job.tenantId, context: job.context }, job.id);
    if (current === null || current.owner !== this.owner) throw new LeaseLost();
    const headerBytes = Buffer.byteLength(formatCsvRow(resultHeader(spec))) + 1;
    const splitter = new PartSplitter(spec.resultFileSizeKbLimit * 1024, headerBytes);
    for (let from = 1; ;) {
      const rows = await this.store.listImportRows(job.id, from, Number.MAX_SAFE_INTEGER, 1000);
      for (const r of rows) splitter.add(r.rowNo, Buffer.byteLength(resultLine(spec, fileId, r)) + 1);
      if (rows.length < 1000) break;
      from = (rows[rows.length - 1]?.rowNo ?? from) + 1;
      await nextTurn();
    }
    const now = this.clock();
    const errors = [...current.errors];
    if (splitter.parts.length > 1) {
      errors.push({
        code: 'RESULT_FILE_SPLIT',
        text: `The result file is larger than resultFileSizeKbLimit (${spec.resultFileSizeKbLimit} KB): it is served as ${splitter.parts.length} files (resultFiles), each within the limit; read them all.`,
      });
    }
    const status = errors.length > 0 ? 'CompletedWithErrors' : 'Completed';
    await this.store.updateImportJob(job.id, this.owner, {
      status,
      errors,
      resultParts: splitter.parts.length > 0 ? splitter.parts : [{ firstRow: 1, lastRow: 0 }],
      finishedAt: iso(now),
      expiresAt: iso(new Date(now.getTime() + this.ttlMs)),
      release: true,
    });
    this.options.onJobEnd?.(status);
  }
}

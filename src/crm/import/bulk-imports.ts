/**
 * The bulk import service the HTTP adapter calls: jobs (create, status), uploads, result
 * files and the mapping type lists. The work itself is done by {@link ImportRunner}.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { ImportJobRow, ImportRowResult } from '../../store/index.js';
import type { CallContext, Crm } from '../crm.js';
import { CrmError } from '../errors.js';
import { parseJobRequest, type JobSpec } from './job-request.js';
import { MAPPING_TYPES, RESOURCE_TYPES, fieldValues, findField, findMappingType, renderMappingType, type MappingValue } from './mapping-types.js';
import { formatCsvRow } from '../../files/csv-writer.js';
import { resultHeader, resultLine } from './result-file.js';
import type { ImportRunner } from './runner.js';

/** How long an upload is kept, ms (24 hours). */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/** GET /bulkImportJobs/{id} without the absolute URLs (the server adds them). */
export interface JobView {
  readonly id: number;
  readonly status: ImportJobRow['status'];
  readonly resourceType: string;
  readonly webhookUrl: null;
  readonly resultFileSizeLimitKb: number;
  readonly errors: ImportJobRow['errors'];
  /** Paths relative to the API prefix, with their expiry. */
  readonly resultFiles: readonly { readonly path: string; readonly dateExpired: string }[];
  readonly rowsTotal: number | null;
  readonly rowsDone: number;
  readonly rowsFailed: number;
  readonly description: string | null;
  readonly dateCreated: string;
  readonly dateCompleted: string | null;
}

function iso(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The bulk import facade over a Crm and its runner. */
export class BulkImports {
  constructor(
    private readonly crm: Crm,
    private readonly runner: ImportRunner | null,
    private readonly hostAllowed: (url: URL) => boolean,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** POST /bulkImportJobs: validates the request (CrmError 400 naming the properties) and queues the job. */
  async createJob(ctx: CallContext, body: unknown, origin: string): Promise<number> {
    const spec = parseJobRequest(body, origin, this.hostAllowed);
    if (spec.source.kind === 'upload' && (await this.crm.store.getImportFile(ctx, spec.source.token)) === null) {
      throw new CrmError('INVALID_PARAMETER', [
        {
          property: 'file.sourceUrl',
          text: 'No uploaded file of this tenant and context has that URL (uploads are kept 24 hours).',
          hint: 'Upload with POST /bulkImportFiles first, with a key of the same context.',
        },
      ]);
    }
    const id = await this.crm.store.createImportJob({
      tenantId: ctx.tenantId,
      context: ctx.context,
      request: JSON.stringify(spec),
      resultToken: randomBytes(18).toString('base64url'),
      createdAt: iso(this.now()),
    });
    this.runner?.kick();
    return id;
  }

  /** GET /bulkImportJobs/{id}: null when not this tenant's and context's. */
  async getJob(ctx: CallContext, jobId: number): Promise<JobView | null> {
    if (!Number.isSafeInteger(jobId) || jobId <= 0) return null;
    const job = await this.crm.store.getImportJob(ctx, jobId);
    if (job === null) return null;
    const spec = JSON.parse(job.request) as JobSpec;
    const expired = job.expiresAt !== null && job.expiresAt < iso(this.now());
    const done = job.status === 'Completed' || job.status === 'CompletedWithErrors';
    return {
      id: job.id,
      status: job.status,
      resourceType: spec.resourceType,
      webhookUrl: null,
      resultFileSizeLimitKb: spec.resultFileSizeKbLimit,
      errors: job.errors,
      resultFiles:
        done && !expired && job.expiresAt !== null
          ? job.resultParts.map((_, i) => ({
              path: `/bulkImportResultFiles/${job.tenantId}-${job.id}-${i + 1}-${job.resultToken}.csv`,
              dateExpired: job.expiresAt as string,
            }))
          : [],
      rowsTotal: job.rowsTotal,
      rowsDone: job.rowsDone,
      rowsFailed: job.rowsFailed,
      description: spec.description,
      dateCreated: job.createdAt,
      dateCompleted: job.finishedAt,
    };
  }

  /**
   * A result file by its name `{tenantId}-{jobId}-{part}-{token}.csv` (the token makes it
   * unguessable; no API key is needed, as clients fetch it with a plain GET). `ctx`: the
   * scope of the key sent with the request, if any: then the job must be of that tenant and
   * context, as for GET /bulkImportJobs/{id}. Null when unknown, out of scope, expired or the
   * token is wrong. Yields CSV text (formula cells neutralized: src/files/csv-writer.ts).
   */
  async resultFile(name: string, ctx: CallContext | null = null): Promise<AsyncIterable<string> | null> {
    const m = /^(\d{1,12})-(\d{1,15})-(\d{1,6})-([\w-]{10,64})\.csv$/.exec(name);
    if (m === null) return null;
    const tenantId = Number(m[1]);
    const jobId = Number(m[2]);
    if (ctx !== null && ctx.tenantId !== tenantId) return null;
    const scopes: readonly CallContext[] =
      ctx !== null
        ? [ctx]
        : [
            { tenantId, context: 'voterfile' },
            { tenantId, context: 'campaign' },
          ];
    let job: ImportJobRow | null = null;
    for (const scope of scopes) job ??= await this.crm.store.getImportJob(scope, jobId);
    if (job === null || job.expiresAt === null || job.expiresAt < iso(this.now())) return null;
    const a = Buffer.from(job.resultToken);
    const b = Buffer.from(m[4] as string);
    if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
    const part = job.resultParts[Number(m[3]) - 1];
    if (part === undefined) return null;
    const spec = JSON.parse(job.request) as JobSpec;
    const store = this.crm.store;
    return (async function* lines(): AsyncGenerator<string> {
      yield `${formatCsvRow(resultHeader(spec))}\n`;
      for (let from = part.firstRow; from <= part.lastRow;) {
        const rows: ImportRowResult[] = await store.listImportRows(job.id, from, part.lastRow, 2000);
        if (rows.length === 0) break;
        yield rows.map((r) => `${resultLine(spec, job.fileId, r)}\n`).join('');
        from = (rows[rows.length - 1]?.rowNo ?? part.lastRow) + 1;
      }
    })();
  }

  /** POST /bulkImportFiles: stores an upload for the tenant and context; returns its token. */
  async saveUpload(ctx: CallContext, name: string, chunks: AsyncIterable<Uint8Array>): Promise<{ token: string; size: number }> {
    const now = this.now();
    const token = randomBytes(18).toString('base64url');
    const file = await this.crm.store.saveImportFile(
      {
        tenantId: ctx.tenantId,
        context: ctx.context,
        token,
        name: name.slice(0, 200),
        createdAt: iso(now),
        expiresAt: iso(new Date(now.getTime() + UPLOAD_TTL_MS)),
      },
      chunks,
    );
    return { token, size: file.size };
  }

  /** GET /bulkImportJobs/resources. */
  resources(): readonly string[] {
    return RESOURCE_TYPES;
  }

  /** GET /bulkImportMappingTypes. */
  mappingTypes(): object[] {
    return MAPPING_TYPES.map(renderMappingType);
  }

  /** GET /bulkImportMappingTypes/{name}; null when unknown. */
  mappingType(name: string): object | null {
    const t = findMappingType(name);
    return t === undefined ? null : renderMappingType(t);
  }

  /** GET /bulkImportMappingTypes/{name}/{field}/values; null when the type or field is unknown. */
  async fieldValues(ctx: CallContext, name: string, fieldName: string): Promise<readonly MappingValue[] | null> {
    const t = findMappingType(name);
    const f = t === undefined ? undefined : findField(t, fieldName);
    if (t === undefined || f === undefined) return null;
    const [lists, settings] = await Promise.all([this.crm.canvassLists(ctx), this.crm.contextSettings(ctx)]);
    return fieldValues(t, f, lists, settings) ?? [];
  }
}

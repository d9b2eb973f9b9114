/**
 * Bulk import (interface.md section 4, compatibility.md "Bulk import"):
 * - `POST /bulkImportJobs` -> `201 {"jobId":N}` at once; the work runs in the background.
 * - `GET /bulkImportJobs/{jobId}` -> status, row counts, errors, result file URLs (absolute,
 *   on the origin the client used). Another tenant's job: 404.
 * - `GET /bulkImportJobs/resources`, `GET /bulkImportMappingTypes`, `.../{name}`,
 *   `.../{name}/{fieldName}/values`.
 * - `POST /bulkImportFiles`: the raw file as the body (any content type) or multipart
 *   (the first file part); answers `201 {"sourceUrl": ...}` on this server, for the tenant.
 * - `GET /bulkImportResultFiles/{name}.csv`: a result file; its name holds an unguessable
 *   token, so it needs no key (clients fetch it with a plain GET); sent with a key, only the
 *   key's tenant and context.
 * Jobs, uploads and result files are scoped by tenant AND context, like people: a key of the
 * voter-file context gets 404 for a campaign job and cannot start a job from a campaign upload.
 */
import Busboy from 'busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import type { BulkImports } from '../../crm/index.js';
import { callContextOf } from '../auth.js';
import { readCredentials } from '../credentials.js';
import { httpError, notFound } from '../http-error.js';
import { requestOrigin } from '../location.js';

/** Options of the bulk import routes. */
export interface BulkImportRouteOptions {
  readonly imports: BulkImports;
  readonly prefix: string;
  /** Largest upload in bytes. */
  readonly maxUploadBytes: number;
}

function jobIdOf(text: string): number {
  return /^\d{1,15}$/.test(text) ? Number(text) : -1;
}

/** The upload's bytes, refused past `max` bytes (413). */
async function* limited(stream: AsyncIterable<Uint8Array>, max: number): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.byteLength;
    if (total > max) {
      throw httpError(413, 'PAYLOAD_TOO_LARGE', `The file is over this server's upload limit of ${max} bytes.`, {
        hint: 'Zip it (a zip holding one delimited file is accepted), or split it into several jobs.',
      });
    }
    yield chunk;
  }
}

/** The first file part of a multipart body, as a stream, with its file name. */
function multipartFile(request: FastifyRequest, body: Readable): Promise<{ name: string; stream: Readable }> {
  return new Promise((resolve, reject) => {
    let found = false;
    let bb: Busboy.Busboy;
    try {
      bb = Busboy({ headers: request.headers, limits: { files: 1, fields: 20 } });
    } catch (err) {
      reject(httpError(400, 'BAD_REQUEST', `The multipart body cannot be read (${err instanceof Error ? err.message : String(err)}).`));
      return;
    }
    bb.on('file', (_field, stream, info) => {
      if (found) {
        stream.resume();
        return;
      }
      found = true;
      resolve({ name: info.filename || 'upload', stream });
    });
    bb.on('error', (err) => {
      if (!found) reject(httpError(400, 'BAD_REQUEST', `The multipart body cannot be read (${err instanceof Error ? err.message : String(err)}).`));
    });
    bb.on('close', () => {
      if (!found) reject(httpError(400, 'BAD_REQUEST', 'The multipart body holds no file part.'));
    });
    body.pipe(bb);
  });
}

/** Routes that need the API key (register inside the authenticated, prefixed scope). */
export function registerBulkImportRoutes(app: FastifyInstance, options: BulkImportRouteOptions): void {
  const { imports, prefix } = options;

  app.post('/bulkImportJobs', async (request, reply) => {
    const ctx = callContextOf(request);
    if (request.body === undefined) throw httpError(400, 'BAD_REQUEST', 'A JSON body with file and actions is required.');
    const jobId = await imports.createJob(ctx, request.body, requestOrigin(request));
    return reply.code(201).send({ jobId });
  });

  app.get('/bulkImportJobs/resources', async (_request, reply) => reply.send(imports.resources()));

  app.get<{ Params: { jobId: string } }>('/bulkImportJobs/:jobId', async (request, reply) => {
    const ctx = callContextOf(request);
    const view = await imports.getJob(ctx, jobIdOf(request.params.jobId));
    if (view === null) throw notFound();
    const origin = requestOrigin(request);
    const { resultFiles, ...rest } = view;
    return reply.send({ ...rest, resultFiles: resultFiles.map((f) => ({ url: `${origin}${prefix}${f.path}`, dateExpired: f.dateExpired })) });
  });

  app.get('/bulkImportMappingTypes', async (_request, reply) => reply.send(imports.mappingTypes()));

  app.get<{ Params: { name: string } }>('/bulkImportMappingTypes/:name', async (request, reply) => {
    const t = imports.mappingType(request.params.name);
    if (t === null) throw notFound();
    return reply.send(t);
  });

  app.get<{ Params: { name: string; field: string } }>('/bulkImportMappingTypes/:name/:field/values', async (request, reply) => {
    const values = await imports.fieldValues(callContextOf(request), request.params.name, request.params.field);
    if (values === null) throw notFound();
    return reply.send(values);
  });

  void app.register(async (uploads) => {
    // Any content type: the body is the file (or a multipart form holding it), read as a stream.
    uploads.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    uploads.addContentTypeParser(/^multipart\/form-data/i, (_request, payload, done) => done(null, payload));
    uploads.post('/bulkImportFiles', async (request, reply) => {
      const ctx = callContextOf(request);
      const raw = (request.body ?? request.raw) as Readable;
      let name = 'upload';
      let stream: Readable = raw;
      if (/^multipart\/form-data/i.test(request.headers['content-type'] ?? '')) {
        const file = await multipartFile(request, raw);
        name = file.name;
        stream = file.stream;
      } else {
        const declared = Number(request.headers['content-length'] ?? 'NaN');
        if (Number.isFinite(declared) && declared > options.maxUploadBytes) {
          raw.resume();
          throw httpError(413, 'PAYLOAD_TOO_LARGE', `The file is ${declared} bytes, over this server's upload limit of ${options.maxUploadBytes} bytes.`, {
            hint: 'Zip it (a zip holding one delimited file is accepted), or split it into several jobs.',
          });
        }
        const header = request.headers['x-file-name'];
        if (typeof header === 'string' && header.trim() !== '') name = header.trim();
      }
      const saved = await imports.saveUpload(ctx, name, limited(stream, options.maxUploadBytes));
      if (saved.size === 0) throw httpError(400, 'BAD_REQUEST', 'The uploaded file is empty.');
      return reply.code(201).send({ sourceUrl: `${requestOrigin(request)}${prefix}/bulkImportFiles/${saved.token}`, size: saved.size });
    });
  });
}

/**
 * The result file route: no API key needed (the name holds the job's secret token). A request
 * that does send a key is authenticated as any other, and then sees only the files of its
 * key's tenant and context (another context's file is a 404, as its job is).
 */
export function registerResultFileRoute(
  app: FastifyInstance,
  options: { readonly imports: BulkImports; readonly authenticate: (request: FastifyRequest) => Promise<void> },
): void {
  app.addHook('onRequest', async (request) => {
    if (readCredentials(request.headers).kind !== 'missing') await options.authenticate(request);
  });
  app.get<{ Params: { name: string } }>('/bulkImportResultFiles/:name', async (request, reply) => {
    const lines = await options.imports.resultFile(request.params.name, request.callContext);
    if (lines === null) throw notFound();
    return reply.type('text/csv; charset=utf-8').header('cache-control', 'private, no-store').send(Readable.from(lines));
  });
}

/**
 * Setup of the bulk import tests: the real Crm and app LISTENING on a port (the runner and
 * upload URLs need an origin), the import runner with short timings, and a local file server
 * that serves test files (the allow-listed "remote" host).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { zipSync, strToU8 } from 'fflate';
import { BulkImports, Crm, ImportRunner } from '../../src/crm/index.js';
import { fetchSource, hostAllowed, type SourceLimits } from '../../src/files/import-source.js';
import { buildApp } from '../../src/server/app.js';
import type { Metrics } from '../../src/server/metrics.js';
import { swaggerUiAssets } from '../../src/cli/docs-assets.js';

export interface ImportServer {
  readonly crm: Crm;
  readonly app: FastifyInstance;
  readonly runner: ImportRunner;
  readonly url: string;
  readonly files: FileServer;
  close(): Promise<void>;
}

/** A local HTTP server of test files: `put(path, body)`, then `${url}${path}`. */
export interface FileServer {
  readonly url: string;
  readonly host: string;
  put(path: string, body: Uint8Array | string, opts?: { delayMs?: number; status?: number }): string;
  close(): Promise<void>;
}

export async function openFileServer(): Promise<FileServer> {
  const files = new Map<string, { body: Uint8Array; delayMs: number; status: number }>();
  const server: Server = createServer((req, res) => {
    const f = files.get(req.url ?? '');
    if (f === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    setTimeout(() => res.writeHead(f.status, { 'content-type': 'application/octet-stream' }).end(Buffer.from(f.body)), f.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = `http://${host}`;
  return {
    url,
    host,
    put(path, body, opts = {}) {
      files.set(path, { body: typeof body === 'string' ? strToU8(body) : body, delayMs: opts.delayMs ?? 0, status: opts.status ?? 200 });
      return `${url}${path}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Zips text files (`name -> content`). */
export function zipOf(entries: Record<string, string | Uint8Array>, level: 0 | 1 | 6 | 9 = 6): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, [typeof v === 'string' ? strToU8(v) : v, { level }]])));
}

export async function openImportServer(opts: { limits?: Partial<SourceLimits>; allowFiles?: boolean; metrics?: Metrics } = {}): Promise<ImportServer> {
  const dir = mkdtempSync(join(tmpdir(), 'matchbook-import-'));
  const crm = await Crm.open({ db: join(dir, 'test.db') });
  const files = await openFileServer();
  const allowed = opts.allowFiles === false ? [] : [files.host];
  const limits: SourceLimits = { maxBytes: 10 * 1024 * 1024, maxZipRatio: 100, timeoutMs: 5000, ...opts.limits };
  const runner = new ImportRunner({
    crm,
    fetchUrl: (url) => fetchSource(url, allowed, limits),
    limits,
    leaseMs: 2000,
    pollMs: 20,
    batchRows: 50,
    ...(opts.metrics === undefined
      ? {}
      : { onRow: (ok: boolean) => opts.metrics?.observeImportRow(ok), onJobEnd: (status: string) => opts.metrics?.observeImportJob(status) }),
  });
  const imports = new BulkImports(crm, runner, (u) => hostAllowed(u, allowed));
  const app = buildApp({
    crm,
    imports,
    maxUploadBytes: limits.maxBytes,
    docsAssets: swaggerUiAssets(),
    ...(opts.metrics === undefined ? {} : { metrics: opts.metrics }),
  });
  app.addHook('onClose', async () => runner.stop());
  await app.listen({ host: '127.0.0.1', port: 0 });
  runner.start();
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    crm,
    app,
    runner,
    url,
    files,
    close: async () => {
      await app.close();
      await files.close();
      await crm.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A captured client body from data/van-clients. */
export function clientBody(name: string): Record<string, any> {
  return JSON.parse(readFileSync(new URL(`../../data/van-clients/${name}`, import.meta.url), 'utf8')) as Record<string, any>;
}

/** fetch with the key. */
export async function call(s: ImportServer, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any; text: string }> {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: { apiKey: key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, json, text };
}

/** Polls a job until it is finished; returns the last GET answer. */
export async function waitForJob(s: ImportServer, key: string, jobId: number, timeoutMs = 30_000): Promise<any> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await call(s, key, 'GET', `/v4/bulkImportJobs/${jobId}`);
    if (r.status !== 200) throw new Error(`GET job ${jobId}: ${r.status} ${r.text}`);
    if (['Completed', 'CompletedWithErrors', 'Failed'].includes(r.json.status)) return r.json;
    if (Date.now() > end) throw new Error(`job ${jobId} not finished: ${r.text}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Parses a simple result CSV (no quoted line breaks) into objects by header. */
export function parseResultCsv(text: string): Record<string, string>[] {
  const lines = text.trim().split('\n');
  const split = (line: string): string[] => {
    const out: string[] = [];
    let cur = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i] as string;
      if (quoted) {
        if (c === '"' && line[i + 1] === '"') {
          cur += '"';
          i++;
        } else if (c === '"') quoted = false;
        else cur += c;
      } else if (c === '"') quoted = true;
      else if (c === ',') {
        out.push(cur);
        cur = '';
      } else cur += c;
    }
    out.push(cur);
    return out;
  };
  const header = split(lines[0] ?? '');
  return lines.slice(1).map((l) => Object.fromEntries(split(l).map((v, i) => [header[i] ?? `c${i}`, v])));
}

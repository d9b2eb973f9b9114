/**
 * The newcomer path: the built server started exactly as `npm start` starts it (package.json's
 * `start` command, compiled dist/), polled on GET /ready until it answers 200, then its operator
 * endpoints read as a load balancer and a Prometheus scraper would.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../bench/lib/server.js';
import { openImportServer } from '../server/import-helpers.js';
import { answers200, pollUntil, type Waited } from '../wait.js';
import { REPO, runCliProcess } from './spawn.js';

/** package.json's `start` command as argv, `node` replaced by this Node. */
function startCommand(): string[] {
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const argv = pkg.scripts.start.trim().split(/\s+/);
  if (argv[0] !== 'node') throw new Error(`npm start does not run node: ${pkg.scripts.start}`);
  return [process.execPath, ...argv.slice(1)];
}

let dir: string;
let child: ChildProcess;
let base: string;
let stderr = '';

beforeAll(async () => {
  ensureBuilt(() => undefined);
  dir = mkdtempSync(join(tmpdir(), 'matchbook-npm-start-'));
  const [node, ...args] = startCommand();
  child = spawn(node!, [...args, '--port', '0', '--host', '127.0.0.1'], {
    // npm runs scripts in the package's directory; the database goes to a temp dir, not ./var.
    cwd: REPO,
    env: { ...process.env, LOG_LEVEL: 'warn', MATCHBOOK_DB: join(dir, 'matchbook.db') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  let ended: string | null = null;
  child.on('exit', (code, signal) => (ended = signal ?? `exit code ${code}`));
  // Start-up waits poll readiness, never a fixed sleep; giving up, they print the child's output.
  const waited: Waited = { what: 'npm start', output: () => stderr, ended: () => ended };
  base = await pollUntil(waited, () => /listening on (http:\/\/\S+?)[;\s]/.exec(stderr)?.[1]);
  await pollUntil(waited, async () => ((await answers200(`${base}/ready`)) ? true : undefined));
});

afterAll(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((r) => child.on('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('npm start, as a newcomer runs it', () => {
  it('prints the demo key with its tier and how to make keys of other tiers', () => {
    expect(stderr).toMatch(/^\s+[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\s*$/m);
    expect(stderr).toContain('Its tier is Internal: no rate limits');
    expect(stderr).toContain('matchbook keys create --tenant demo --tier Standard');
    expect(stderr).toMatch(/Startup\s+High 10\/s, Medium 5\/s, Low 2\/s; 1,000,000 requests a month/);
    expect(stderr).toMatch(/matchbook: ready: indexes loaded in \d+\.\d s/);
  });

  it('GET /health and GET /ready answer without a key', async () => {
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const ready = await fetch(`${base}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { database: true, loading: 0 } });
  });

  it('GET /openapi.json: `.paths | length` is the number of routes (an in-process app with every feature on counts them)', async () => {
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    const local = await openImportServer();
    try {
      const routes = new Set(local.app.registeredRoutes.filter((r) => r.method !== 'HEAD').map((r) => r.url.replace(/^\/v[24](?=\/)/, '')));
      expect(Object.keys(doc.paths).length).toBe(routes.size);
      expect(routes.size).toBeGreaterThan(20);
    } finally {
      await local.close();
    }
  });

  it("GET /metrics on loopback: Prometheus text with the demo tenant's indexes and the requests so far", async () => {
    expect(stderr).toContain(`matchbook: metrics: ${base}/metrics`);
    const key = /^\s+([0-9a-f-]{36})\s*$/m.exec(stderr)?.[1];
    const find = await fetch(`${base}/v4/people/find`, {
      method: 'POST',
      redirect: 'manual',
      headers: { authorization: `Basic ${Buffer.from(`default:${key}|1`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ emails: [{ email: 'grace.hopper@example.org' }] }),
    });
    expect(find.status).toBe(404);
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/^matchbook_index_people\{tenant="1",context="campaign"\} 0$/m);
    expect(text).toMatch(/^matchbook_http_requests_total\{route="\/ready",method="GET",status="200",category="none"\} [1-9]\d*$/m);
    expect(text).toMatch(/^matchbook_match_decisions_total\{operation="find",status="Unmatched",reason="no-candidates"\} 1$/m);
    expect(text).toMatch(/^matchbook_http_request_duration_seconds_bucket\{le="\+Inf",route="\/v4\/people\/find",method="POST",category="Low"\} 1$/m);
  });
});

/** Runs the built CLI (dist/cli/main.js, the bin) to completion. */
function runBuilt(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(REPO, 'dist/cli/main.js'), ...args], { cwd: REPO, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stdout, stderr }),
    );
  });
}

/** The first `rows` data rows of a file of data/, written to the test's directory. */
function head(file: string, rows: number): string {
  const path = join(dir, file.replace(/\//g, '-'));
  writeFileSync(
    path,
    readFileSync(join(REPO, 'data', file), 'utf8')
      .split('\n')
      .slice(0, rows + 1)
      .join('\n') + '\n',
  );
  return path;
}

describe('the built CLI: the bundle `npm run build` writes (src/cli/bundle.mjs)', () => {
  it('is a bundle: the bin imports its chunks', () => {
    expect(readFileSync(join(REPO, 'dist/cli/main.js'), 'utf8')).toContain('./chunks/');
  });

  it('dedupe on two threads (worker threads started from the bundle) writes what the source CLI writes on one', async () => {
    const input = head('febrl/dataset1.csv', 300);
    const [built, source] = await Promise.all([
      runBuilt(['dedupe', input, '--threads', '2', '--progress', 'none']),
      runCliProcess(['dedupe', input, '--threads', '1', '--progress', 'none']),
    ]);
    expect(built.stderr).toContain('on 2 threads');
    expect(built.code).toBe(0);
    expect(source.code).toBe(0);
    expect(built.stdout.split('\n').length).toBe(302);
    expect(built.stdout).toBe(source.stdout);
  });

  it('link writes what the source CLI writes', async () => {
    const left = head('febrl/dataset4a.csv', 300);
    const right = head('febrl/dataset4b.csv', 300);
    const [built, source] = await Promise.all([
      runBuilt(['link', left, right, '--progress', 'none']),
      runCliProcess(['link', left, right, '--progress', 'none']),
    ]);
    expect(built.code).toBe(0);
    expect(built.stdout).toBe(source.stdout);
    expect(built.stdout.split('\n').length).toBeGreaterThan(2);
  });

  it('link runs from the code cache (code-cache.ts) as without it, and a cache V8 refuses is written again', async () => {
    const left = head('febrl/dataset4a.csv', 200);
    const right = head('febrl/dataset4b.csv', 200);
    const chunks = join(REPO, 'dist/cli/chunks');
    const script = readdirSync(chunks).find((f) => /^files-\w+\.cjs$/.test(f));
    expect(script).toBeDefined();
    const caches = (): string[] => readdirSync(chunks).filter((f) => f.startsWith(`${script!}.`) && f.endsWith('.v8cache'));
    const first = await runBuilt(['link', left, right, '--progress', 'none']);
    expect(first.code).toBe(0);
    expect(caches().length).toBeGreaterThan(0);
    // Every cache of the script replaced by bytes V8 rejects: the run is the same, and writes its own again.
    for (const f of caches()) writeFileSync(join(chunks, f), 'not a code cache');
    const refused = await runBuilt(['link', left, right, '--progress', 'none']);
    const again = await runBuilt(['link', left, right, '--progress', 'none']);
    const source = await runCliProcess(['link', left, right, '--progress', 'none']);
    for (const run of [refused, again]) {
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(source.stdout);
    }
    expect(Math.max(...caches().map((f) => statSync(join(chunks, f)).size))).toBeGreaterThan(100_000);
  });
});

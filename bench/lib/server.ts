/**
 * The server under benchmark: what `npm start` runs (the compiled dist/cli/main.js, with the
 * Node flags of the `start` script), on a free loopback port, and what /proc says about its
 * process (Linux; null elsewhere). dist/ is rebuilt first when a source file is newer: run from
 * source, tsx's `keepNames` wraps every closure in a `__name` call (about 4% of an import's CPU).
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The Node flags of package.json's `start` script (`node <flags> dist/cli/main.js serve`): the benches run what users run. */
export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts?: { start?: string } };
  const m = /^node\s(.*?)dist\/cli\/main\.js\b/.exec(pkg.scripts?.start ?? '');
  return m?.[1] === undefined ? [] : m[1].split(/\s+/).filter((f) => f.startsWith('--'));
}

const MAIN = join(REPO, 'dist/cli/main.js');

/** The newest modification time of the TypeScript sources under `dir`. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') || entry.name.endsWith('.json')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds dist/ (`tsc -p src`, then the CLI's bundle: `npm run build`) unless it is newer than every source file. */
export function ensureBuilt(log: (s: string) => void = (s) => process.stderr.write(`${s}\n`)): void {
  let built = 0;
  try {
    built = statSync(MAIN).mtimeMs;
  } catch {
    // not built yet
  }
  if (built > newestSource(join(REPO, 'src'))) return;
  log('building dist/ (npm run build) so the bench runs what npm start runs...');
  execFileSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', join(REPO, 'src')], { cwd: REPO, stdio: 'inherit' });
  execFileSync(process.execPath, [join(REPO, 'src/cli/bundle.mjs')], { cwd: REPO, stdio: 'inherit' });
}

/** A running server: base URL, pid, milliseconds to start, and how to stop it. */
export interface BenchServer {
  readonly base: string;
  readonly pid: number;
  readonly startMs: number;
  stop(): Promise<void>;
}

/** Options of {@link startServer}. */
export interface StartOptions {
  /** More environment variables of the server. */
  readonly env?: Record<string, string>;
  /** Another built checkout to run (its dist/cli/main.js; an older build to compare with); default this one. */
  readonly repo?: string;
}

/**
 * Starts `matchbook serve --db DB --sync SYNC` and answers once it is ready: listening, and
 * `GET /ready` answering 200 (its indexes loaded: serve listens before it loads them).
 */
export async function startServer(db: string, sync: 'full' | 'normal', options: StartOptions = {}): Promise<BenchServer> {
  const repo = options.repo ?? REPO;
  if (options.repo === undefined) ensureBuilt();
  // The start time is the server's own: from spawn, after any build above.
  const started = performance.now();
  // MATCHBOOK_BENCH_CPU_PROF=DIR: each server writes a V8 CPU profile there when it stops (node --cpu-prof).
  const profile = process.env['MATCHBOOK_BENCH_CPU_PROF'];
  const profileFlags = profile === undefined || profile === '' ? [] : ['--cpu-prof', `--cpu-prof-dir=${profile}`];
  // MATCHBOOK_BENCH_NODE_FLAGS="--trace-gc ...": more node flags for each server (flags NODE_OPTIONS refuses).
  const extra = (process.env['MATCHBOOK_BENCH_NODE_FLAGS'] ?? '').split(/\s+/).filter((f) => f !== '');
  const args = [
    ...startFlags(),
    ...profileFlags,
    ...extra,
    join(repo, 'dist/cli/main.js'),
    'serve',
    '--db',
    db,
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--sync',
    sync,
  ];
  const child = spawn(process.execPath, args, { cwd: repo, env: { ...process.env, LOG_LEVEL: 'warn', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  // The server's log, less the 503s of the ready polls below.
  child.stdout.on('data', (d: Buffer) => {
    const lines = d
      .toString()
      .split('\n')
      .filter((line) => line !== '' && !line.includes('"url":"/ready"'));
    if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
  });
  let stderr = '';
  const base = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (m !== null) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  await waitReady(base, child.pid ?? 0);
  const startMs = performance.now() - started;
  const stop = () =>
    new Promise<void>((resolve) => {
      child.on('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { base, pid: child.pid ?? 0, startMs, stop };
}

/** Polls `GET /ready` until it answers 200 (the server's indexes are loaded). */
async function waitReady(base: string, pid: number): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(`${base}/ready`)).status === 200) return;
    } catch {
      // not answering yet
    }
    try {
      process.kill(pid, 0);
    } catch {
      throw new Error(`server ${pid} exited before it was ready`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Resident memory of a process in bytes, from /proc; null elsewhere. */
export function rssOf(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? null : Number(m[1]) * 1024;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc; null elsewhere. */
export function cpuSecondsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (USER_HZ, 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * The server under benchmark: `matchbook serve` from source (tsx) on a free loopback port,
 * with the Node flags `npm start` uses, and what /proc says about its process (Linux; null elsewhere).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The Node flags of package.json's `start` script (`node <flags> dist/cli/main.js serve`): the benches run what users run. */
export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts?: { start?: string } };
  const m = /^node\s+(.*?)\s*dist\/cli\/main\.js\b/.exec(pkg.scripts?.start ?? '');
  return m?.[1] === undefined ? [] : m[1].split(/\s+/).filter((f) => f.startsWith('--'));
}

/** A running server: base URL, pid, milliseconds to start, and how to stop it. */
export interface BenchServer {
  readonly base: string;
  readonly pid: number;
  readonly startMs: number;
  stop(): Promise<void>;
}

/** Starts `matchbook serve --db DB --sync SYNC` and answers once it listens. */
export async function startServer(db: string, sync: 'full' | 'normal', env: Record<string, string> = {}): Promise<BenchServer> {
  const started = performance.now();
  const args = [...startFlags(), '--import', 'tsx', join(REPO, 'src/cli/main.ts'), 'serve', '--db', db, '--port', '0', '--host', '127.0.0.1', '--sync', sync];
  const child = spawn(process.execPath, args, { cwd: REPO, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'inherit', 'pipe'] });
  let stderr = '';
  const base = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (m !== null) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  const startMs = performance.now() - started;
  const stop = () =>
    new Promise<void>((resolve) => {
      child.on('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { base, pid: child.pid ?? 0, startMs, stop };
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

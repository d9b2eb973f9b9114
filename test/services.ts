/**
 * Throwaway PostgreSQL and Redis servers for tests, on loopback and free ports, in temporary
 * directories (../shared/design/dependencies.md). `.ci/run` installs the Debian packages.
 *
 * When the binaries are missing: locally the tests that need them are skipped with a loud
 * message; in CI (`CI=true`) that is a failure, never a skip.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { START_LIMIT_MS, StartupError, pollUntil } from './wait.js';

const IN_CI = process.env['CI'] === 'true';

/** A free TCP port on loopback (asked of the kernel, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function which(name: string): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

/** Directory of initdb and pg_ctl: PATH first, else the newest /usr/lib/postgresql/N/bin. */
function postgresBin(): string | null {
  const onPath = which('initdb');
  if (onPath !== null && which('pg_ctl') !== null) return join(onPath, '..');
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? null : join(root, versions[0], 'bin');
}

function missing(what: string): false {
  const text = `${what} not found: the tests that need it are SKIPPED. Install it (apt-get install postgresql redis-server) to run them.`;
  if (IN_CI) throw new Error(`${what} not found, and CI=true: these tests must run in CI (.ci/run installs it).`);
  console.warn(`\n\n*** ${text} ***\n\n`);
  return false;
}

/** Whether PostgreSQL's server binaries exist (the suite using them is skipped otherwise, except in CI). */
export const HAVE_POSTGRES = postgresBin() !== null || missing('PostgreSQL (initdb, pg_ctl)');
/** Whether redis-server exists (as {@link HAVE_POSTGRES}). */
export const HAVE_REDIS = which('redis-server') !== null || missing('redis-server');

/** A running throwaway PostgreSQL cluster. */
export interface PgServer {
  readonly port: number;
  /** Creates a fresh empty database and returns its URL. */
  createDatabase(): Promise<string>;
  stop(): void;
}

/** Runs a PostgreSQL binary; as the `postgres` user when we are root (postgres refuses root). */
function runPg(bin: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
}

let databases = 0;

/**
 * Starts a cluster (initdb + pg_ctl, under a second): trust auth, loopback only, no fsync
 * unless `durable` (benchmarks: commits are fsynced as in production).
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<PgServer> {
  const bin = postgresBin();
  if (bin === null) throw new Error('PostgreSQL binaries not found');
  const dir = mkdtempSync(join(tmpdir(), 'matchbook-pg-'));
  chmodSync(dir, 0o777);
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
  const data = join(dir, 'data');
  const port = await freePort();
  runPg(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const sync = options.durable === true ? '' : ' -c fsync=off -c full_page_writes=off';
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${sync} -c max_connections=300`;
  // pg_ctl -w polls until the server accepts connections; a generous limit, and its log when it gives up.
  try {
    runPg(join(bin, 'pg_ctl'), ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', '-t', String(Math.ceil(START_LIMIT_MS / 1000)), 'start']);
  } catch (error) {
    const log = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8') : '(no log)';
    throw new StartupError(`PostgreSQL did not start (${error instanceof Error ? error.message : String(error)}):\n${log}`);
  }
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    try {
      runPg(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stop);
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    port,
    async createDatabase() {
      const name = `t${process.pid}_${++databases}`;
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop,
  };
}

/** A running throwaway Redis. */
export interface RedisServer {
  readonly url: string;
  stop(): void;
}

/** Starts redis-server in the foreground as a child: loopback, no persistence. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let ended: string | null = null;
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  child.on('exit', (code, signal) => (ended = signal ?? `exit code ${code}`));
  await pollUntil({ what: 'redis-server', output: () => out, ended: () => ended }, () => (out.includes('Ready to accept connections') ? true : undefined), {
    everyMs: 20,
  });
  const stop = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', stop);
  return { url: `redis://127.0.0.1:${port}`, stop };
}

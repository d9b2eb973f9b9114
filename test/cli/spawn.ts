/**
 * Run the real `matchbook` CLI as a child process (through tsx, so no build is needed and a
 * half-built tree elsewhere cannot break these tests).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { answers200, pollUntil, type Waited } from '../wait.js';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

/** Arguments of `node` that run the CLI from source. */
export function cliArgs(args: readonly string[]): string[] {
  return ['--import', 'tsx', MAIN, ...args];
}

/** Result of a finished CLI run. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the CLI to completion. */
export function runCliProcess(args: readonly string[], env: Record<string, string> = {}, timeoutMs = 30_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs(args), { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI timed out: ${args.join(' ')}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A `serve` child process that has started listening. */
export interface ServeProcess {
  readonly child: ChildProcess;
  readonly base: string;
  /** The demo key, when this start created the demo tenant. */
  readonly demoKey: string | null;
  stderr(): string;
  stdout(): string;
  /** Resolves with the exit code or signal when the process ends. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Start `serve` on a free port and wait until it is ready: it printed the address it listens
 * on, and `readyPath` (GET /ready: 200 once the indexes are loaded) answers 200. Gives up
 * after {@link START_LIMIT_MS} (or `limitMs`) with the child's output.
 */
export async function startServe(
  args: readonly string[],
  env: Record<string, string> = {},
  options: { limitMs?: number; readyPath?: string } = {},
): Promise<ServeProcess> {
  const child = spawn(process.execPath, cliArgs(['serve', '--port', '0', ...args]), {
    cwd: REPO,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  // How the process ended, once it has (set by its events: a property, read after awaits).
  const status: { ended: string | null } = { ended: null };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    child.on('exit', (code, signal) => {
      status.ended = signal !== null ? `signal ${signal}` : `exit code ${code}`;
      res({ code, signal });
    }),
  );
  child.on('error', (e) => (status.ended = `spawn error: ${e.message}`));
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const waited: Waited = {
    what: `matchbook serve ${args.join(' ')}`,
    output: () => `${err}${out === '' ? '' : `\n(stdout)\n${out}`}`,
    ended: () => status.ended,
  };
  try {
    const base = await pollUntil(waited, () => /listening on (http:\/\/[^\s;]+)/.exec(err)?.[1], options);
    await pollUntil(waited, async () => ((await answers200(`${base}${options.readyPath ?? '/ready'}`)) ? true : undefined), options);
    const key = /^\s+([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\s*$/m.exec(err);
    return { child, base, demoKey: key?.[1] ?? null, stderr: () => err, stdout: () => out, exited };
  } catch (error) {
    if (status.ended === null) child.kill('SIGKILL');
    throw error;
  }
}

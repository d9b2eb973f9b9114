/**
 * Helpers for the dedupe/link/eval CLI tests: a temp directory, CSV files written into it,
 * the CLI run in-process with captured output, and CSV output parsed back.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { registerDedupe } from '../../src/cli/dedupe.js';
import { registerEval } from '../../src/cli/eval.js';
import type { CliIo } from '../../src/cli/io.js';
import { registerLink } from '../../src/cli/link.js';
import { runCli } from '../../src/cli/program.js';

/** A run's exit code and captured streams. */
export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A scratch directory for one test file. */
export class Scratch {
  readonly dir = mkdtempSync(join(tmpdir(), 'matchbook-dedupe-'));

  /** Writes a file (lines joined with "\n" plus a final one) and answers its path. */
  file(name: string, content: string | readonly string[] | Buffer): string {
    const path = join(this.dir, name);
    writeFileSync(path, typeof content === 'string' || Buffer.isBuffer(content) ? content : `${content.join('\n')}\n`);
    return path;
  }

  path(name: string): string {
    return join(this.dir, name);
  }

  read(name: string): string {
    return readFileSync(join(this.dir, name), 'utf8');
  }

  /** Runs `matchbook ARGS` in-process, working directory = this directory. */
  async cli(args: readonly string[]): Promise<Run> {
    let stdout = '';
    let stderr = '';
    const io: CliIo = { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: {}, cwd: this.dir, handleSignals: false };
    const code = await runCli(args, [registerDedupe, registerLink, registerEval], io);
    return { code, stdout, stderr };
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Parses CSV text with a header into records. */
export function parseCsv(text: string): Record<string, string>[] {
  const result = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  return result.data;
}

/** Parses CSV text into rows of cells (header included). */
export function parseRows(text: string): string[][] {
  return Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
}

/** Asserts the shape of a clean one-line error: non-zero, one stderr line, no stack, no stdout. */
export function isOneLineError(run: Run): boolean {
  const lines = run.stderr.trim().split('\n');
  return run.code !== 0 && lines.length === 1 && /^matchbook: error: /.test(lines[0] ?? '') && !/\n\s+at /.test(run.stderr) && run.stdout === '';
}

/**
 * What a CLI command may touch of the outside world, passed in so that commands can run
 * in-process in tests: output streams, environment and working directory.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isPostgresUrl } from '../crm/index.js';

/** Outputs and environment of one CLI run. */
export interface CliIo {
  /** Write to standard output (machine-readable results). */
  readonly stdout: (text: string) => void;
  /** Write to standard error (messages for people). */
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Whether `serve` installs SIGINT/SIGTERM handlers (true for the real process). */
  readonly handleSignals: boolean;
}

/** The real process's io. */
export function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    handleSignals: true,
  };
}

/** Default database file, relative to the working directory. */
export const DEFAULT_DB = './var/matchbook.db';

/**
 * The database to use: `--db`, else `MATCHBOOK_DB`, else ./var/matchbook.db. A
 * `postgres://` URL is returned as given; a file path is made absolute against the working
 * directory, with its directory created.
 */
export function resolveDbPath(flag: string | undefined, io: CliIo): string {
  const db = flag ?? io.env['MATCHBOOK_DB'] ?? DEFAULT_DB;
  if (isPostgresUrl(db)) return db;
  const path = resolve(io.cwd, db);
  mkdirSync(dirname(path), { recursive: true });
  return path;
}

/** One line of text for an error, never a stack trace. */
export function describeError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/\s*\n\s*/g, ' ').trim() || 'unknown error';
}

/** A database for messages: a URL without its password. */
export function describeDb(db: string): string {
  return isPostgresUrl(db) ? db.replace(/^(\w+:\/\/[^:@/]*):[^@/]*@/, '$1:***@') : db;
}

/** The database a command opens: a SQLite file path or a PostgreSQL URL (commands that open one load this). */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isPostgresUrl } from '../crm/index.js';
import type { CliIo } from './io.js';

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

/** A database for messages: a URL without its password. */
export function describeDb(db: string): string {
  return isPostgresUrl(db) ? db.replace(/^(\w+:\/\/[^:@/]*):[^@/]*@/, '$1:***@') : db;
}

/**
 * Public entry of the persistence layer: the async {@link Store} contract, its embedded SQLite
 * implementation and the PostgreSQL one for several server processes.
 * Other layers import from here, never from deep files.
 */
import { PgStore } from './pg-store.js';
import { SqliteStore } from './sqlite-store.js';
import type { Store } from './types.js';

export * from './types.js';
export { SqliteStore, migrate, type SqliteStoreOptions } from './sqlite-store.js';
export { PgStore, migratePg, type PgStoreOptions } from './pg-store.js';
export { MIGRATIONS, columnOf, type Migration } from './migrations.js';
export { PG_MIGRATIONS } from './pg-migrations.js';
export { copySqliteToPg } from './copy-to-pg.js';

/** True when `db` names a PostgreSQL database (`postgres://` or `postgresql://` URL) rather than a SQLite file. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(db);
}

/** Opens the store `db` names: a PostgreSQL URL, else a SQLite file path (or ":memory:"). */
export async function openStore(db: string, options: { synchronous?: 'FULL' | 'NORMAL' } = {}): Promise<Store> {
  if (isPostgresUrl(db)) return PgStore.open({ url: db });
  const sqlite: { path: string; synchronous?: 'FULL' | 'NORMAL' } = { path: db };
  if (options.synchronous !== undefined) sqlite.synchronous = options.synchronous;
  return SqliteStore.open(sqlite);
}

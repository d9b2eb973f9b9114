/**
 * Public entry of the persistence layer: the async {@link Store} contract and its embedded
 * SQLite implementation. Other layers import from here, never from deep files.
 */
export * from './types.js';
export { SqliteStore, migrate, type SqliteStoreOptions } from './sqlite-store.js';
export { MIGRATIONS, columnOf, type Migration } from './migrations.js';

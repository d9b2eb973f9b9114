/**
 * `matchbook db copy --from FILE --to postgres://...`: moves a SQLite deployment to
 * PostgreSQL (every table, same ids and keys; the target must hold no tenant).
 */
import type { Command } from 'commander';
import { copySqliteToPg, isPostgresUrl } from '../crm/index.js';
import { describeDb, resolveDbPath } from './db-path.js';
import type { CliIo } from './io.js';

/** Register `db copy`. */
export function registerDb(program: Command, io: CliIo): void {
  const db = program.command('db').description('database maintenance');
  db.command('copy')
    .description('copy a SQLite database into an empty PostgreSQL database (for several server processes)')
    .requiredOption('--from <path>', 'SQLite database file')
    .requiredOption('--to <url>', 'postgres://user@host:port/database (migrated, must hold no tenant)')
    .action(async (opts: { from: string; to: string }) => {
      if (!isPostgresUrl(opts.to)) throw new Error('--to must be a postgres:// URL');
      const from = resolveDbPath(opts.from, io);
      const counts = await copySqliteToPg(from, opts.to);
      io.stdout(`${JSON.stringify(counts)}\n`);
      io.stderr(`matchbook: copied ${from} into ${describeDb(opts.to)}\n`);
    });
}

/**
 * `matchbook keys create --tenant NAME [...] | list | revoke ID`. `create` prints the new
 * key's GUID alone on stdout so that scripts can capture it; it is stored hashed and cannot
 * be shown again.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { CONTEXTS, TIERS, type ContextName, type Tier } from '../crm/index.js';
import { formatTable } from './format.js';
import { resolveDbPath } from './db-path.js';
import type { CliIo } from './io.js';
import { withCrm } from './with-crm.js';

const DB_FLAGS = '--db <path>';
const DB_HELP = 'SQLite database file (default: $MATCHBOOK_DB or ./var/matchbook.db)';

/** Parse `voterfile,campaign` (any case, blanks ignored) into a non-empty list of contexts. */
export function parseContexts(value: string): ContextName[] {
  const names = value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');
  const bad = names.filter((n) => !(CONTEXTS as readonly string[]).includes(n));
  if (bad.length > 0 || names.length === 0) {
    throw new InvalidArgumentError(`Use a comma list of: ${CONTEXTS.join(', ')}.`);
  }
  return [...new Set(names)] as ContextName[];
}

/** Register the `keys` command group. */
export function registerKeys(program: Command, io: CliIo): void {
  const keys = program.command('keys').description('manage API keys');

  keys
    .command('create')
    .description('create an API key for a tenant and print it (only time it is shown)')
    .requiredOption('--tenant <name>', 'tenant the key belongs to')
    .addOption(
      new Option(
        '--tier <tier>',
        'integration tier (rate limits of interface.md section 8; default Custom). Internal: no rate limits or quota, ' +
          "for operators' own tools and tests, outside the contract's tiers",
      ).choices(TIERS),
    )
    .addOption(new Option('--contexts <list>', 'contexts the key may use: voterfile,campaign').argParser(parseContexts))
    .addOption(new Option('--default-context <context>', 'context used when the key has no |0/|1 suffix').choices(CONTEXTS))
    .option(DB_FLAGS, DB_HELP)
    .action(async (opts: { tenant: string; tier?: Tier; contexts?: ContextName[]; defaultContext?: ContextName; db?: string }) => {
      const created = await withCrm(resolveDbPath(opts.db, io), (crm) =>
        crm.createKey({
          tenant: opts.tenant,
          ...(opts.tier !== undefined ? { tier: opts.tier } : {}),
          ...(opts.contexts !== undefined ? { contexts: opts.contexts } : {}),
          ...(opts.defaultContext !== undefined ? { defaultContext: opts.defaultContext } : {}),
        }),
      );
      io.stdout(`${created.key}\n`);
    });

  keys
    .command('list')
    .description('list API keys (never the keys themselves)')
    .option(DB_FLAGS, DB_HELP)
    .action(async (opts: { db?: string }) => {
      const rows = await withCrm(resolveDbPath(opts.db, io), (crm) => crm.listKeys());
      io.stdout(formatTable(rows));
    });

  keys
    .command('revoke')
    .description('revoke an API key by its id or prefix (see keys list), or by the key itself')
    .argument('<id>', 'key id, key prefix (at least 4 characters) or the key GUID')
    .option(DB_FLAGS, DB_HELP)
    .action(async (id: string, opts: { db?: string }) => {
      const revoked = await withCrm(resolveDbPath(opts.db, io), (crm) => crm.revokeKey(id));
      if (!revoked) throw new Error(`no active key matches ${id}`);
      io.stderr(`matchbook: revoked key ${id}\n`);
    });
}

/**
 * `matchbook tenants create NAME | list | configure NAME --file settings.json | train NAME`
 * (tenant-train.ts).
 * The settings file's shape is the domain's, documented in src/crm/settings.ts with an example
 * in data/examples/tenant-settings.example.json; this command only reads the JSON.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { formatTable } from './format.js';
import type { ModelInForce } from '../crm/index.js';
import { resolveDbPath } from './db-path.js';
import type { CliIo } from './io.js';
import { registerTenantTrain } from './tenant-train.js';
import { withCrm } from './with-crm.js';

const DB_FLAGS = '--db <path>';
const DB_HELP = 'SQLite database file (default: $MATCHBOOK_DB or ./var/matchbook.db)';

/** Read and parse a JSON file, with errors that name the file. */
export function readJsonFile(path: string, io: CliIo): unknown {
  const full = resolve(io.cwd, path);
  let text: string;
  try {
    text = readFileSync(full, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? `${path}: no such file` : `${path}: cannot read (${code ?? 'error'})`, { cause: err });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new Error(`${path}: not valid JSON (${err instanceof Error ? err.message : String(err)})`, { cause: err });
  }
}

/** Register the `tenants` command group. */
export function registerTenants(program: Command, io: CliIo): void {
  const tenants = program.command('tenants').description('manage tenants');

  tenants
    .command('create')
    .description('create a tenant')
    .argument('<name>', 'tenant name')
    .option(DB_FLAGS, DB_HELP)
    .action(async (name: string, opts: { db?: string }) => {
      await withCrm(resolveDbPath(opts.db, io), (crm) => crm.createTenant(name));
      io.stderr(`matchbook: created tenant "${name}"\n`);
    });

  tenants
    .command('list')
    .description('list tenants')
    .option(DB_FLAGS, DB_HELP)
    .action(async (opts: { db?: string }) => {
      const rows = await withCrm(resolveDbPath(opts.db, io), (crm) => crm.listTenants());
      // The model each context scores with: "shipped", or "trained:v2:2026-11-25T19:20:18Z".
      const model = (m: ModelInForce): string => (m.source === 'trained' ? `trained:v${m.version ?? '?'}:${m.since ?? '?'}` : 'shipped');
      io.stdout(formatTable(rows.map(({ models, ...row }) => ({ ...row, models: { voterfile: model(models.voterfile), campaign: model(models.campaign) } }))));
    });

  tenants
    .command('configure')
    .description("set a tenant's per-context settings from a JSON file (example: data/examples/tenant-settings.example.json)")
    .argument('<name>', 'tenant name')
    .requiredOption('--file <settings.json>', 'settings file (JSON)')
    .option(DB_FLAGS, DB_HELP)
    .action(async (name: string, opts: { file: string; db?: string }) => {
      const settings = readJsonFile(opts.file, io);
      await withCrm(resolveDbPath(opts.db, io), (crm) => crm.configureTenant(name, settings));
      io.stderr(`matchbook: configured tenant "${name}" from ${opts.file}\n`);
    });

  registerTenantTrain(tenants, io, { flags: DB_FLAGS, help: DB_HELP });
}

/**
 * Copies a SQLite database into an empty PostgreSQL one (same tables, same ids), for moving
 * a deployment from the embedded store to several processes on PostgreSQL, and for seeding
 * benchmarks. Rows travel in batches of JSON (`json_populate_recordset`), one statement per
 * batch, in one transaction; the sequences continue after the copied ids. Bulk imports come
 * too (uploads, jobs, their staged files and row marks): a job that was running is released
 * (no owner, no lease), so a server on the new database takes it over and resumes it after
 * its last marked row. The review queue comes too (pairs, decisions, merges, audit log).
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { PgStore } from './pg-store.js';
import { StoreError } from './types.js';

type Row = Record<string, unknown>;

/** A table to copy: its serial column (whose sequence must continue), order, batch size and row conversion. */
interface TableCopy {
  readonly name: string;
  readonly serial: string | null;
  /** ORDER BY of the read ('' for none). */
  readonly order: string;
  /** Rows per INSERT. */
  readonly batch: number;
  /** SQLite row -> the JSON object PostgreSQL reads (booleans, bytea, released leases). */
  readonly convert?: (row: Row) => Row;
}

const BATCH = 5000;

/** Tables in foreign-key order. */
const TABLES: readonly TableCopy[] = [
  { name: 'tenants', serial: 'id', order: 'id', batch: BATCH },
  { name: 'tenant_settings', serial: null, order: '', batch: BATCH },
  { name: 'tenant_models', serial: null, order: 'tenant_id, context, version', batch: BATCH },
  { name: 'api_keys', serial: 'id', order: 'id', batch: BATCH },
  { name: 'people', serial: 'crm_id', order: 'crm_id', batch: BATCH },
  { name: 'person_identifiers', serial: null, order: '', batch: BATCH },
  { name: 'api_key_usage', serial: null, order: '', batch: BATCH },
  { name: 'canvass_responses', serial: 'id', order: 'id', batch: BATCH },
  { name: 'bulk_import_files', serial: 'id', order: 'id', batch: BATCH, convert: (r) => ({ ...r, complete: r['complete'] === 1 }) },
  // Chunks are 1 MiB blobs, sent as bytea hex text: a few per statement.
  {
    name: 'bulk_import_file_chunks',
    serial: null,
    order: 'file_id, seq',
    batch: 8,
    convert: (r) => ({ ...r, data: `\\x${(r['data'] as Buffer).toString('hex')}` }),
  },
  { name: 'bulk_import_jobs', serial: 'id', order: 'id', batch: BATCH, convert: (r) => ({ ...r, owner: null, lease_until: null }) },
  { name: 'bulk_import_rows', serial: null, order: 'job_id, row_no', batch: BATCH },
  // The review queue (review-types.ts); its change numbers are given below, after the people's.
  { name: 'possible_matches', serial: 'id', order: 'id', batch: BATCH },
  { name: 'person_merges', serial: null, order: 'crm_id', batch: BATCH },
  { name: 'review_audit', serial: 'id', order: 'id', batch: BATCH },
];

/** Rows that take a people change number in PostgreSQL, and the column that holds it. */
function changeColumn(table: string, row: Row): string | null {
  if (table === 'people' || table === 'person_merges') return 'change_seq';
  if (table === 'possible_matches' && row['status'] === 'different') return 'decided_seq';
  return null;
}

/** Copies every row of the SQLite file `from` into the PostgreSQL database `to` (migrated here; must hold no tenant). Returns rows per table. */
export async function copySqliteToPg(from: string, to: string): Promise<Record<string, number>> {
  await (await PgStore.open({ url: to })).close();
  const sqlite = new Database(from, { readonly: true });
  const client = new pg.Client({ connectionString: to });
  await client.connect();
  const counts: Record<string, number> = {};
  try {
    const existing = Number((await client.query<{ n: string }>('SELECT COUNT(*) AS n FROM tenants')).rows[0]?.n ?? 0);
    if (existing > 0) throw new StoreError('The PostgreSQL database already holds tenants: copy into an empty one.', 'CONFLICT');
    await client.query('BEGIN');
    let change = 0;
    for (const table of TABLES) {
      let copied = 0;
      const stmt = sqlite.prepare(`SELECT * FROM ${table.name}${table.order === '' ? '' : ` ORDER BY ${table.order}`}`);
      let batch: Row[] = [];
      const flush = async (): Promise<void> => {
        if (batch.length === 0) return;
        await client.query(`INSERT INTO ${table.name} SELECT * FROM json_populate_recordset(NULL::${table.name}, $1::json)`, [JSON.stringify(batch)]);
        copied += batch.length;
        batch = [];
      };
      for (const row of stmt.iterate() as Iterable<Row>) {
        const converted = table.convert?.(row) ?? row;
        // change_xid (and its kin) stay NULL: every snapshot has seen these rows (pg-migrations.ts version 7).
        const column = changeColumn(table.name, converted);
        batch.push(column === null ? converted : { ...converted, [column]: ++change });
        if (batch.length >= table.batch) await flush();
      }
      await flush();
      counts[table.name] = copied;
      if (table.serial !== null) {
        await client.query(
          `SELECT setval(pg_get_serial_sequence('${table.name}', '${table.serial}'), GREATEST(1, (SELECT COALESCE(MAX(${table.serial}), 0) FROM ${table.name})))`,
        );
      }
    }
    const seq = (name: string): number => (sqlite.prepare('SELECT value FROM sequences WHERE name = ?').pluck().get(name) as number | undefined) ?? 0;
    for (const [name, value] of [
      ['phone_ids', seq('phone')],
      ['address_ids', seq('address')],
      ['people_changes', change],
    ] as const) {
      await client.query(`SELECT setval('${name}', $1::bigint, $2)`, [Math.max(1, value), value > 0]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
    sqlite.close();
  }
  return counts;
}

/**
 * Copies a SQLite database into an empty PostgreSQL one (same tables, same ids), for moving
 * a deployment from the embedded store to several processes on PostgreSQL, and for seeding
 * benchmarks. Rows travel in batches of JSON (`json_populate_recordset`), one statement per
 * batch, in one transaction; the sequences continue after the copied ids.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { PgStore } from './pg-store.js';
import { StoreError } from './types.js';

/** Tables in foreign-key order, with the serial column whose sequence must continue. */
const TABLES: readonly { name: string; serial: string | null }[] = [
  { name: 'tenants', serial: 'id' },
  { name: 'tenant_settings', serial: null },
  { name: 'api_keys', serial: 'id' },
  { name: 'people', serial: 'crm_id' },
  { name: 'person_identifiers', serial: null },
  { name: 'api_key_usage', serial: null },
  { name: 'canvass_responses', serial: 'id' },
];

const BATCH = 5000;

/** Copies every row of the SQLite file `from` into the PostgreSQL database `to` (migrated here; must hold no tenant). Returns rows per table. */
export async function copySqliteToPg(from: string, to: string): Promise<Record<string, number>> {
  await (await PgStore.open({ url: to })).close();
  const sqlite = new Database(from, { readonly: true });
  const client = new pg.Client({ connectionString: to });
  await client.connect();
  const counts: Record<string, number> = {};
  try {
    const existing = Number((await client.query('SELECT COUNT(*) AS n FROM tenants')).rows[0]?.n ?? 0);
    if (existing > 0) throw new StoreError('The PostgreSQL database already holds tenants: copy into an empty one.', 'CONFLICT');
    await client.query('BEGIN');
    let change = 0;
    for (const table of TABLES) {
      counts[table.name] = 0;
      const key = table.serial ?? 'rowid';
      const order = table.name === 'person_identifiers' || table.name === 'tenant_settings' || table.name === 'api_key_usage' ? '' : ` ORDER BY ${key}`;
      const stmt = sqlite.prepare(`SELECT * FROM ${table.name}${order}`);
      let batch: Record<string, unknown>[] = [];
      const flush = async (): Promise<void> => {
        if (batch.length === 0) return;
        await client.query(`INSERT INTO ${table.name} SELECT * FROM json_populate_recordset(NULL::${table.name}, $1::json)`, [JSON.stringify(batch)]);
        counts[table.name]! += batch.length;
        batch = [];
      };
      for (const row of stmt.iterate() as Iterable<Record<string, unknown>>) {
        batch.push(table.name === 'people' ? { ...row, change_seq: ++change } : row);
        if (batch.length >= BATCH) await flush();
      }
      await flush();
      if (table.serial !== null) {
        await client.query(`SELECT setval(pg_get_serial_sequence('${table.name}', '${table.serial}'), GREATEST(1, (SELECT COALESCE(MAX(${table.serial}), 0) FROM ${table.name})))`);
      }
    }
    const seq = (name: string): number => Number((sqlite.prepare('SELECT value FROM sequences WHERE name = ?').pluck().get(name) as number | undefined) ?? 0);
    for (const [name, value] of [['phone_ids', seq('phone')], ['address_ids', seq('address')], ['people_changes', change]] as const) {
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

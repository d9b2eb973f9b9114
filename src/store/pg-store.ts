/**
 * The PostgreSQL Store (node-postgres, a connection pool), for several server processes on
 * one database. Schema and its reasons: pg-migrations.ts.
 *
 * Durability: every write commits before its Promise resolves (PostgreSQL's own WAL and
 * `synchronous_commit`; concurrent commits share a WAL flush on the server), except people
 * writes: a {@link PgStore.writeScope} unit is applied (committed, visible) when it resolves
 * and durable after a WAL flush barrier (see scopeTransaction): the scope's lock is not held
 * during the flush.
 *
 * Concurrency across processes: every people write runs in a unit, a transaction holding the
 * advisory lock of its tenant+context (`pg_advisory_xact_lock(tenantId, context)`), and
 * stamps the row with the next `people_changes` value under that lock, so a scope's change
 * numbers are in commit order (the lock is released after the commit is visible). src/crm
 * runs find + write (findOrCreate) in one unit, and reads `peopleChangedSince` to keep its
 * index in step with the other processes.
 *
 * Past 400 lines because it is one class implementing the whole Store contract, mostly one SQL
 * statement per method; its parts live apart: migrations (pg-migrations.ts), bulk import tables
 * (pg-import.ts), the row layout shared with SQLite (rows.ts).
 */
import pg from 'pg';
import { foldIdentifier } from './identifier-fold.js';
import { PERSON_WRITE_COLUMNS, personValues, textOrNull, toKeyRow, toModelRow, toPerson, toTenant, type Row } from './rows.js';
import { PG_MIGRATIONS } from './pg-migrations.js';
import {
  StoreError,
  type Applied,
  type CanvassRow,
  type ContextName,
  type KeyRow,
  type KeyUsageDelta,
  type NewCanvassRow,
  type NewKeyRow,
  type PersonChange,
  type PersonRecord,
  type Scope,
  type ScopeWriteOptions,
  type ScopeWriter,
  type ModelRow,
  type SettingsRow,
  type Store,
  type StoredAddress,
  type StoredNormalization,
  type StoredNormalizationRow,
  type StoredPhone,
  type TenantRow,
} from './types.js';
import type { Migration } from './migrations.js';
import type { ImportFileRow, ImportJobPatch, ImportJobRow, ImportRowMark, ImportRowResult, NewImportFile, NewImportJob } from './import-types.js';
import { PgImportTables, writePgImportMark } from './pg-import.js';
import { PgMatchKeys } from './pg-match-keys.js';
import { PgReviewTables } from './pg-review.js';
import type { PersonMerge, PossibleMatchRow, PossibleMatchStatus, ReviewAuditRow } from './review-types.js';

/** Options of {@link PgStore.open}. */
export interface PgStoreOptions {
  /** `postgres://user:password@host:port/database` (libpq URL; `?sslmode=` etc. as pg accepts). */
  readonly url: string;
  /** Connections in the pool. Default 10. */
  readonly poolSize?: number;
}

type Queryable = pg.Pool | pg.PoolClient;

/** Key of the advisory lock held while migrating (any constant unlikely to clash). */
const MIGRATION_LOCK = 7_265_746_201;
const CONTEXT_NUMBER: Readonly<Record<ContextName, number>> = { voterfile: 0, campaign: 1 };

/** BIGINT (int8) and NUMERIC COUNT as JS numbers: every id and count here stays below 2^53. */
const TYPES: pg.CustomTypesConfig = {
  getTypeParser: (oid, format): unknown => (oid === pg.types.builtins.INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)),
};

/** Applies pending migrations in order, once across processes; refuses a newer database. */
export async function migratePg(pool: pg.Pool, migrations: readonly Migration[] = PG_MIGRATIONS): Promise<number[]> {
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
      const done = new Set((await client.query('SELECT version FROM schema_migrations')).rows.map((r: Row) => Number(r['version'])));
      for (const m of migrations) {
        if (done.has(m.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, new Date().toISOString()]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
        applied.push(m.version);
      }
      const newest = Number((await client.query<{ v: number | string }>('SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations')).rows[0]?.v ?? 0);
      const known = migrations.reduce((max, m) => Math.max(max, m.version), 0);
      if (newest > known) {
        throw new StoreError(`Database schema version ${newest} is newer than this program (${known}).`, 'SCHEMA');
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
  return applied;
}

/**
 * People of a scope changed after a change number ($1 tenant, $2 context, $3 after, $4 limit),
 * with the people merged away and the pairs decided different (pg-review.ts) in the same order.
 */
const CHANGES_SQL = `SELECT crm_id, change_seq, match_key, match_fp, contact_mode, NULL::bigint AS merged_into, NULL::bigint AS different_from FROM people
  WHERE tenant_id = $1 AND context = $2 AND change_seq > $3
  UNION ALL SELECT crm_id, change_seq, NULL, NULL, NULL, survivor_crm_id, NULL FROM person_merges
  WHERE tenant_id = $1 AND context = $2 AND change_seq > $3
  UNION ALL SELECT crm_id, decided_seq, NULL, NULL, NULL, NULL, candidate_crm_id FROM possible_matches
  WHERE tenant_id = $1 AND context = $2 AND decided_seq > $3
  ORDER BY change_seq LIMIT $4`;

function toChange(x: Row): PersonChange {
  return {
    crmId: Number(x['crm_id']),
    seq: Number(x['change_seq']),
    json: textOrNull(x['match_key']),
    fingerprint: x['match_fp'] == null ? null : Number(x['match_fp']),
    organization: x['contact_mode'] === 'Organization',
    mergedInto: x['merged_into'] == null ? null : Number(x['merged_into']),
    differentFrom: x['different_from'] == null ? null : Number(x['different_from']),
  };
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** The transaction of a {@link PgStore.writeScope} unit. */
interface Tx {
  readonly client: pg.PoolClient;
  /** A write ran in it (a durability barrier follows its commit). */
  wrote: boolean;
  /** Bulk import jobs with a row mark in it (their {@link PgStore.importDurable} waits for its barrier). */
  jobs: Set<number> | null;
}

const INSERT_COLUMNS = ['tenant_id', 'context', ...PERSON_WRITE_COLUMNS, 'change_seq'];
const INSERT_SQL = `INSERT INTO people (${INSERT_COLUMNS.join(', ')})
  VALUES (${INSERT_COLUMNS.map((c, i) => (c === 'change_seq' ? "nextval('people_changes')" : `$${i + 1}`)).join(', ')}) RETURNING crm_id`;
const UPDATE_COLUMNS = PERSON_WRITE_COLUMNS;
const UPDATE_SQL = `UPDATE people SET ${UPDATE_COLUMNS.map((c, i) => `${c} = $${i + 1}`).join(', ')}, change_seq = nextval('people_changes')
  WHERE crm_id = $${UPDATE_COLUMNS.length + 1} AND tenant_id = $${UPDATE_COLUMNS.length + 2} AND context = $${UPDATE_COLUMNS.length + 3}`;

/** PostgreSQL implementation of {@link Store}. Create with {@link PgStore.open}. */
export class PgStore implements Store {
  /** Several server processes may write people (see the module comment). */
  readonly sharedByProcesses = true;
  /** Database retrieval (pg-match-keys.ts). */
  readonly matchKeys: PgMatchKeys;
  private readonly imports: PgImportTables;
  private readonly review: PgReviewTables;
  /** Units under way, from their start to their barrier (what `flush` waits for). */
  private readonly pending = new Set<Promise<void>>();
  /** Prepared-statement names by SQL text. */
  private readonly names = new Map<string, string>();
  private closed = false;
  /** Barriers not yet done of units that wrote marks of a job, by job (see {@link importDurable}). */
  private readonly importBarriers = new Map<number, Set<Promise<void>>>();
  /** The failed barrier of a job's unit, until the job is claimed again. */
  private readonly importFailures = new Map<number, unknown>();

  private constructor(private readonly pool: pg.Pool) {
    this.imports = new PgImportTables(
      (sql, values, client) => this.q(sql, values ?? [], client ?? null),
      (fn) => this.transaction(fn),
    );
    this.matchKeys = new PgMatchKeys(
      (sql, values, client) => this.q(sql, values, client),
      (fn) => this.transaction(fn),
      () => this.pool.connect(),
      foldIdentifier,
    );
    this.review = new PgReviewTables((sql, values, client) => this.q(sql, values ?? [], client ?? null));
  }

  /** Runs `fn` in a transaction of its own. */
  private async transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      try {
        const value = await fn(client);
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw error;
      }
    } finally {
      client.release(broken);
    }
  }

  /** Connects, runs pending migrations, and returns the store. */
  static async open(options: PgStoreOptions): Promise<PgStore> {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10, types: TYPES });
    // An idle client that loses its connection must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    try {
      await migratePg(pool);
    } catch (error) {
      await pool.end();
      throw error;
    }
    return new PgStore(pool);
  }

  /** Runs a statement (prepared once per connection) on the transaction's client or the pool. */
  private async q(sql: string, values: unknown[] = [], on: Queryable | null = null): Promise<pg.QueryResult<Row>> {
    let name = this.names.get(sql);
    if (name === undefined) {
      name = `s${this.names.size + 1}`;
      this.names.set(sql, name);
    }
    return (on ?? this.pool).query<Row>({ name, text: sql, values });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flush().catch(() => undefined);
    await this.pool.end();
  }

  async flush(): Promise<void> {
    if (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** `last_value` of the `admin_changes` sequence: moves on every change of tenants, keys or settings. */
  async changeCounter(): Promise<number> {
    return Number((await this.q('SELECT last_value FROM admin_changes')).rows[0]?.['last_value'] ?? 0);
  }

  /** One transaction holding the scope's advisory lock; see {@link scopeTransaction}. */
  async writeScope<T>(
    scope: Scope,
    fn: (writer: ScopeWriter, changes: readonly PersonChange[]) => Promise<T>,
    options: ScopeWriteOptions = {},
  ): Promise<Applied<T>> {
    return this.scopeTransaction(scope, (tx, changes) => fn(this.writerOf(scope, tx), changes), options);
  }

  /** The {@link ScopeWriter} of a unit: every call runs in its transaction. */
  private writerOf(scope: Scope, tx: Tx): ScopeWriter {
    const wrote = (mark: ImportRowMark | undefined): void => {
      tx.wrote = true;
      if (mark !== undefined) (tx.jobs ??= new Set()).add(mark.jobId);
    };
    return {
      scope,
      getPerson: (crmId) => this.readPerson(scope, crmId, tx.client),
      findByIdentifier: (type, externalId) => this.readIdentifier(scope, type, externalId, tx.client),
      insertPerson: async (person, normalized, mark) => {
        wrote(mark);
        return this.insertPerson(tx.client, scope, person, normalized, mark);
      },
      updatePerson: async (person, normalized, mark) => {
        wrote(mark);
        return this.updatePerson(tx.client, scope, person, normalized, mark);
      },
      insertCanvassResponse: async (row, mark) => {
        wrote(mark);
        return this.insertCanvassResponse(tx.client, scope, row, mark);
      },
      peopleChangedSince: async (afterSeq, limit) => this.changesSince(scope, afterSeq, limit, tx.client),
      keys: this.matchKeys.reader(tx.client),
      insertPossibleMatch: async (row) => {
        wrote(undefined);
        return this.review.insertPossibleMatch(tx.client, scope, row);
      },
      getPossibleMatchForUpdate: async (id) => this.review.getPossibleMatchForUpdate(tx.client, scope, id),
      decidePossibleMatch: async (decision) => {
        wrote(undefined);
        return this.review.decidePossibleMatch(tx.client, scope, decision);
      },
      mergePerson: async (crmId, survivorCrmId, mergedAt) => {
        wrote(undefined);
        await this.review.mergePerson(tx.client, scope, crmId, survivorCrmId, mergedAt);
        await this.matchKeys.unfile(tx.client, scope, crmId);
      },
    };
  }

  /**
   * The unit's transaction. It commits with `synchronous_commit = off`, so the lock is
   * released as soon as the commit is visible, without waiting for the WAL flush (one fsync
   * per lock holder would cap a scope's writes at the disk's sync rate). Its writes become
   * durable with a barrier right after: a tiny transaction with synchronous commit (an xid,
   * hence a commit record, flushed with everything before it; concurrent barriers share one
   * flush). `durable` resolves after that barrier, and callers answer only then: a killed
   * server process never loses an answered write, and PostgreSQL's crash loses nothing anyone
   * was told about. Other processes may read such a row up to that flush (milliseconds)
   * before it is durable.
   */
  private async scopeTransaction<T>(
    scope: Scope,
    fn: (tx: Tx, changes: readonly PersonChange[]) => Promise<T>,
    options: ScopeWriteOptions,
  ): Promise<Applied<T>> {
    const client = await this.pool.connect();
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const durable = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    durable.catch(() => undefined);
    this.pending.add(durable);
    let broken = false;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.pending.delete(durable);
      client.release(broken);
    };
    try {
      const tenant = Math.trunc(scope.tenantId);
      const context = CONTEXT_NUMBER[scope.context];
      // Only integers and a fixed context name are spliced in: one round trip takes the lock
      // (and reads the changes the caller asked for, under it).
      const after = options.changesAfter;
      const changesSql =
        after === undefined
          ? ''
          : `; ${CHANGES_SQL.replaceAll('$1', String(tenant))
              .replaceAll('$2', `'${scope.context === 'campaign' ? 'campaign' : 'voterfile'}'`)
              .replaceAll('$3', String(Math.max(0, Math.trunc(after))))
              .replaceAll('$4', String(Math.max(1, Math.trunc(options.changesLimit ?? 5000))))}`;
      const began = (await client.query(
        `BEGIN; SET LOCAL synchronous_commit = off; SELECT pg_advisory_xact_lock(${tenant}, ${context})${changesSql}`,
      )) as unknown as pg.QueryResult<Row>[];
      const changes = after === undefined ? [] : (began[began.length - 1]?.rows ?? []).map(toChange);
      const tx: Tx = { client, wrote: false, jobs: null };
      let value: T;
      try {
        value = await fn(tx, changes);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw error;
      }
      if (!tx.wrote) {
        resolve();
        release();
      } else {
        client
          .query('BEGIN; SELECT txid_current(); COMMIT')
          .then(
            () => resolve(),
            (error: unknown) => {
              broken = true;
              reject(error);
            },
          )
          .finally(release);
        if (tx.jobs !== null) for (const jobId of tx.jobs) this.watchImportBarrier(jobId, durable);
      }
      return { value, durable };
    } catch (error) {
      reject(error);
      release();
      throw error;
    }
  }

  /** Notes the barrier of a unit that wrote marks of `jobId`, for {@link importDurable}. */
  private watchImportBarrier(jobId: number, barrier: Promise<void>): void {
    let waits = this.importBarriers.get(jobId);
    if (waits === undefined) this.importBarriers.set(jobId, (waits = new Set()));
    waits.add(barrier);
    barrier
      .then(
        () => undefined,
        (error: unknown) => {
          if (!this.importFailures.has(jobId)) this.importFailures.set(jobId, error);
        },
      )
      .finally(() => {
        waits.delete(barrier);
        if (waits.size === 0 && this.importBarriers.get(jobId) === waits) this.importBarriers.delete(jobId);
      });
  }

  async importDurable(jobId: number): Promise<void> {
    if (this.importFailures.has(jobId)) throw this.importFailures.get(jobId);
    const waits = this.importBarriers.get(jobId);
    if (waits !== undefined) await Promise.all([...waits]);
    if (this.importFailures.has(jobId)) throw this.importFailures.get(jobId);
  }

  async createTenant(name: string, createdAt: string): Promise<TenantRow> {
    try {
      const r = await this.q('INSERT INTO tenants (name, name_key, created_at) VALUES ($1, $2, $3) RETURNING id', [name, name.toLowerCase(), createdAt]);
      return { id: Number(r.rows[0]?.['id']), name, createdAt };
    } catch (error) {
      if (isUniqueViolation(error)) throw new StoreError(`A tenant named "${name}" already exists.`, 'CONFLICT');
      throw error;
    }
  }

  async getTenantByName(name: string): Promise<TenantRow | null> {
    const row = (await this.q('SELECT * FROM tenants WHERE name_key = $1', [name.toLowerCase()])).rows[0];
    return row === undefined ? null : toTenant(row);
  }

  async getTenantById(id: number): Promise<TenantRow | null> {
    const row = (await this.q('SELECT * FROM tenants WHERE id = $1', [id])).rows[0];
    return row === undefined ? null : toTenant(row);
  }

  async listTenants(): Promise<TenantRow[]> {
    return (await this.q('SELECT * FROM tenants ORDER BY id')).rows.map(toTenant);
  }

  async countTenants(): Promise<number> {
    return Number((await this.q('SELECT COUNT(*) AS n FROM tenants')).rows[0]?.['n'] ?? 0);
  }

  async putSettings(scope: Scope, json: string, updatedAt: string): Promise<number> {
    const r = await this.q(
      `INSERT INTO tenant_settings (tenant_id, context, version, json, updated_at)
      VALUES ($1, $2, 1, $3, $4)
      ON CONFLICT (tenant_id, context) DO UPDATE SET version = tenant_settings.version + 1, json = excluded.json,
        updated_at = excluded.updated_at
      RETURNING version`,
      [scope.tenantId, scope.context, json, updatedAt],
    );
    return Number(r.rows[0]?.['version']);
  }

  async getSettings(scope: Scope): Promise<SettingsRow | null> {
    const row = (await this.q('SELECT version, json, updated_at FROM tenant_settings WHERE tenant_id = $1 AND context = $2', [scope.tenantId, scope.context]))
      .rows[0];
    if (row === undefined) return null;
    return { version: Number(row['version']), json: String(row['json']), updatedAt: String(row['updated_at']) };
  }

  async addModelVersion(scope: Scope, json: string | null, createdAt: string): Promise<number> {
    const r = await this.q(
      `INSERT INTO tenant_models (tenant_id, context, version, json, created_at)
      SELECT $1, $2, COALESCE(MAX(version), 0) + 1, $3, $4 FROM tenant_models WHERE tenant_id = $1 AND context = $2
      RETURNING version`,
      [scope.tenantId, scope.context, json, createdAt],
    );
    return Number(r.rows[0]?.['version']);
  }

  async getModel(scope: Scope): Promise<ModelRow | null> {
    const row = (
      await this.q(
        `SELECT version, json, created_at FROM tenant_models WHERE tenant_id = $1 AND context = $2
      ORDER BY version DESC LIMIT 1`,
        [scope.tenantId, scope.context],
      )
    ).rows[0];
    return row === undefined ? null : toModelRow(row);
  }

  async listModelVersions(scope: Scope): Promise<ModelRow[]> {
    return (
      await this.q(
        `SELECT version, json, created_at FROM tenant_models WHERE tenant_id = $1 AND context = $2
      ORDER BY version DESC`,
        [scope.tenantId, scope.context],
      )
    ).rows.map(toModelRow);
  }

  async insertKey(key: NewKeyRow): Promise<KeyRow> {
    const tenant = await this.getTenantById(key.tenantId);
    if (tenant === null) throw new StoreError(`No tenant with id ${key.tenantId}.`, 'NOT_FOUND');
    const r = await this.q(
      `INSERT INTO api_keys (tenant_id, hash, prefix, tier, contexts, default_context, created_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [key.tenantId, key.hash, key.prefix, key.tier, JSON.stringify(key.contexts), key.defaultContext, key.createdAt],
    );
    return { ...key, id: Number(r.rows[0]?.['id']), tenantName: tenant.name, revokedAt: null };
  }

  async getKeyByHash(hash: string): Promise<KeyRow | null> {
    const row = (
      await this.q(
        `SELECT k.*, t.name AS tenant_name FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
      WHERE k.hash = $1`,
        [hash],
      )
    ).rows[0];
    return row === undefined ? null : toKeyRow(row);
  }

  async listKeys(): Promise<KeyRow[]> {
    return (
      await this.q(`SELECT k.*, t.name AS tenant_name FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
      ORDER BY k.id`)
    ).rows.map(toKeyRow);
  }

  async revokeKeys(ids: readonly number[], revokedAt: string): Promise<number> {
    if (ids.length === 0) return 0;
    const r = await this.q('UPDATE api_keys SET revoked_at = $1 WHERE id = ANY($2::bigint[]) AND revoked_at IS NULL', [revokedAt, [...ids]]);
    return r.rowCount ?? 0;
  }

  /** Gives phones and addresses with id 0 the next values of their sequences (inside the write's transaction). */
  private async assignIds(client: pg.PoolClient, person: PersonRecord): Promise<PersonRecord> {
    const newPhones = person.phones.filter((p) => p.phoneId === 0).length;
    const newAddresses = person.addresses.filter((a) => a.addressId === 0).length;
    if (newPhones === 0 && newAddresses === 0) return person;
    const r = await this.q(
      `SELECT 'p' AS k, nextval('phone_ids') AS v FROM generate_series(1, $1::int)
      UNION ALL SELECT 'a', nextval('address_ids') FROM generate_series(1, $2::int)`,
      [newPhones, newAddresses],
      client,
    );
    const phoneIds = r.rows
      .filter((x) => x['k'] === 'p')
      .map((x) => Number(x['v']))
      .sort((x, y) => x - y);
    const addressIds = r.rows
      .filter((x) => x['k'] === 'a')
      .map((x) => Number(x['v']))
      .sort((x, y) => x - y);
    let p = 0;
    let a = 0;
    const phones: StoredPhone[] = person.phones.map((x) => (x.phoneId === 0 ? { ...x, phoneId: phoneIds[p++] ?? 0 } : x));
    const addresses: StoredAddress[] = person.addresses.map((x) => (x.addressId === 0 ? { ...x, addressId: addressIds[a++] ?? 0 } : x));
    return { ...person, phones, addresses };
  }

  private async writeIdentifiers(client: pg.PoolClient, scope: Scope, person: PersonRecord, fresh: boolean): Promise<void> {
    if (!fresh) {
      await this.q(
        'DELETE FROM person_identifiers WHERE tenant_id = $1 AND context = $2 AND crm_id = $3',
        [scope.tenantId, scope.context, person.crmId],
        client,
      );
    }
    if (person.identifiers.length === 0) return;
    await this.q(
      `INSERT INTO person_identifiers (tenant_id, context, type_key, external_id_key, crm_id)
      SELECT $1, $2, t, e, $3 FROM unnest($4::text[], $5::text[]) AS u(t, e) ON CONFLICT DO NOTHING`,
      [
        scope.tenantId,
        scope.context,
        person.crmId,
        person.identifiers.map((i) => foldIdentifier(i.type)),
        person.identifiers.map((i) => foldIdentifier(i.externalId)),
      ],
      client,
    );
  }

  private async insertPerson(
    client: pg.PoolClient,
    scope: Scope,
    person: PersonRecord,
    normalized: StoredNormalization | undefined,
    mark: ImportRowMark | undefined,
  ): Promise<PersonRecord> {
    const withIds = await this.assignIds(client, person);
    const r = await this.q(INSERT_SQL, [scope.tenantId, scope.context, ...personValues(withIds, normalized)], client);
    const stored = { ...withIds, crmId: Number(r.rows[0]?.['crm_id']) };
    await this.writeIdentifiers(client, scope, stored, true);
    if (normalized?.keys !== undefined) await this.matchKeys.file(client, scope, stored.crmId, normalized.keys);
    if (mark !== undefined) await writePgImportMark((sql, v, c) => this.q(sql, v ?? [], c ?? null), client, mark, stored.crmId);
    return stored;
  }

  private async updatePerson(
    client: pg.PoolClient,
    scope: Scope,
    person: PersonRecord,
    normalized: StoredNormalization | undefined,
    mark: ImportRowMark | undefined,
  ): Promise<PersonRecord> {
    const withIds = await this.assignIds(client, person);
    const r = await this.q(UPDATE_SQL, [...personValues(withIds, normalized), person.crmId, scope.tenantId, scope.context], client);
    if (r.rowCount !== 1) {
      throw new StoreError(`No person ${person.crmId} in tenant ${scope.tenantId} ${scope.context}.`, 'NOT_FOUND');
    }
    await this.writeIdentifiers(client, scope, withIds, false);
    if (normalized?.keys !== undefined) await this.matchKeys.file(client, scope, withIds.crmId, normalized.keys);
    if (mark !== undefined) await writePgImportMark((sql, v, c) => this.q(sql, v ?? [], c ?? null), client, mark, withIds.crmId);
    return withIds;
  }

  private async insertCanvassResponse(client: pg.PoolClient, scope: Scope, row: NewCanvassRow, mark: ImportRowMark | undefined): Promise<number> {
    const r = await this.q(
      `INSERT INTO canvass_responses (tenant_id, context, crm_id, canvassed_at, created_at, json)
      VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [scope.tenantId, scope.context, row.crmId, row.canvassedAt, row.createdAt, row.json],
      client,
    );
    if (mark !== undefined) await writePgImportMark((sql, v, c) => this.q(sql, v ?? [], c ?? null), client, mark, row.crmId);
    return Number(r.rows[0]?.['id']);
  }

  async getPerson(scope: Scope, crmId: number): Promise<PersonRecord | null> {
    return this.readPerson(scope, crmId, null);
  }

  private async readPerson(scope: Scope, crmId: number, client: pg.PoolClient | null): Promise<PersonRecord | null> {
    const row = (await this.q('SELECT * FROM people WHERE crm_id = $1 AND tenant_id = $2 AND context = $3', [crmId, scope.tenantId, scope.context], client))
      .rows[0];
    return row === undefined ? null : toPerson(row);
  }

  async findByIdentifier(scope: Scope, type: string, externalId: string): Promise<number[]> {
    return this.readIdentifier(scope, type, externalId, null);
  }

  private async readIdentifier(scope: Scope, type: string, externalId: string, client: pg.PoolClient | null): Promise<number[]> {
    const r = await this.q(
      `SELECT crm_id FROM person_identifiers
      WHERE tenant_id = $1 AND context = $2 AND type_key = $3 AND external_id_key = $4 ORDER BY crm_id`,
      [scope.tenantId, scope.context, foldIdentifier(type), foldIdentifier(externalId)],
      client,
    );
    return r.rows.map((x) => Number(x['crm_id']));
  }

  async countPeople(scope: Scope): Promise<number> {
    return Number(
      (await this.q('SELECT COUNT(*) AS n FROM people WHERE tenant_id = $1 AND context = $2', [scope.tenantId, scope.context])).rows[0]?.['n'] ?? 0,
    );
  }

  async listPeople(scope: Scope, afterCrmId: number, limit: number): Promise<PersonRecord[]> {
    return (
      await this.q(
        `SELECT * FROM people WHERE tenant_id = $1 AND context = $2 AND crm_id > $3
      ORDER BY crm_id LIMIT $4`,
        [scope.tenantId, scope.context, afterCrmId, limit],
      )
    ).rows.map(toPerson);
  }

  async listNormalizations(scope: Scope, fingerprint: number, afterCrmId: number, limit: number): Promise<StoredNormalizationRow[]> {
    const r = await this.q(
      `SELECT crm_id, match_key, contact_mode FROM people
      WHERE tenant_id = $1 AND context = $2 AND crm_id > $3 AND match_fp = $4 AND match_key IS NOT NULL
      ORDER BY crm_id LIMIT $5`,
      [scope.tenantId, scope.context, afterCrmId, fingerprint, limit],
    );
    return r.rows.map((x) => ({ crmId: Number(x['crm_id']), json: String(x['match_key']), organization: x['contact_mode'] === 'Organization' }));
  }

  async listPeopleNotNormalizedBy(scope: Scope, fingerprint: number, afterCrmId: number, limit: number): Promise<PersonRecord[]> {
    return (
      await this.q(
        `SELECT * FROM people WHERE tenant_id = $1 AND context = $2 AND crm_id > $3
      AND (match_fp IS DISTINCT FROM $4 OR match_key IS NULL) ORDER BY crm_id LIMIT $5`,
        [scope.tenantId, scope.context, afterCrmId, fingerprint, limit],
      )
    ).rows.map(toPerson);
  }

  /** Not a change of the person (no new change number): another process would compute the same key. */
  async putNormalizations(scope: Scope, fingerprint: number, rows: readonly { readonly crmId: number; readonly json: string }[]): Promise<void> {
    if (rows.length === 0) return;
    await this.q(
      `UPDATE people SET match_key = u.j, match_fp = $3
      FROM unnest($4::bigint[], $5::text[]) AS u(id, j)
      WHERE people.crm_id = u.id AND people.tenant_id = $1 AND people.context = $2`,
      [scope.tenantId, scope.context, fingerprint, rows.map((row) => row.crmId), rows.map((row) => row.json)],
    );
  }

  async listPeopleScopes(): Promise<Scope[]> {
    const r = await this.q(`SELECT t.id AS tenant_id, c.context FROM tenants t CROSS JOIN (VALUES ('campaign'), ('voterfile')) AS c(context)
      WHERE EXISTS (SELECT 1 FROM people p WHERE p.tenant_id = t.id AND p.context = c.context) ORDER BY t.id, c.context`);
    return r.rows.map((x) => ({ tenantId: Number(x['tenant_id']), context: String(x['context']) as ContextName }));
  }

  async peopleChangedSince(scope: Scope, afterSeq: number, limit: number): Promise<PersonChange[]> {
    return this.changesSince(scope, afterSeq, limit, null);
  }

  private async changesSince(scope: Scope, afterSeq: number, limit: number, client: pg.PoolClient | null): Promise<PersonChange[]> {
    const r = await this.q(CHANGES_SQL, [scope.tenantId, scope.context, afterSeq, limit], client);
    return r.rows.map(toChange);
  }

  async lastPeopleChange(scope: Scope): Promise<number> {
    return Number(
      (await this.q('SELECT COALESCE(MAX(change_seq), 0) AS s FROM people WHERE tenant_id = $1 AND context = $2', [scope.tenantId, scope.context])).rows[0]?.[
        's'
      ] ?? 0,
    );
  }

  async addKeyUsage(rows: readonly KeyUsageDelta[]): Promise<void> {
    // Sorted, so that two processes adding to the same rows lock them in the same order (no deadlock).
    const live = rows.filter((r) => r.count > 0).sort((x, y) => x.keyId - y.keyId || (x.month < y.month ? -1 : x.month > y.month ? 1 : 0));
    if (live.length === 0) return;
    await this.q(
      `INSERT INTO api_key_usage (key_id, month, count)
      SELECT k, m, SUM(c) FROM unnest($1::bigint[], $2::text[], $3::bigint[]) AS u(k, m, c) GROUP BY k, m ORDER BY k, m
      ON CONFLICT (key_id, month) DO UPDATE SET count = api_key_usage.count + excluded.count`,
      [live.map((r) => r.keyId), live.map((r) => r.month), live.map((r) => r.count)],
    );
  }

  async getKeyUsage(keyId: number, month: string): Promise<number> {
    return Number((await this.q('SELECT count FROM api_key_usage WHERE key_id = $1 AND month = $2', [keyId, month])).rows[0]?.['count'] ?? 0);
  }

  // ---- bulk import (src/store/import-types.ts; implemented in pg-import.ts) -------------

  saveImportFile(file: NewImportFile, chunks: AsyncIterable<Uint8Array>): Promise<ImportFileRow> {
    return this.imports.saveImportFile(file, chunks);
  }

  getImportFile(scope: Scope, token: string): Promise<ImportFileRow | null> {
    return this.imports.getImportFile(scope, token);
  }

  readImportFile(fileId: number): AsyncIterable<Uint8Array> {
    return this.imports.readImportFile(fileId);
  }

  createImportJob(job: NewImportJob): Promise<number> {
    return this.imports.createImportJob(job);
  }

  getImportJob(scope: Scope, jobId: number): Promise<ImportJobRow | null> {
    return this.imports.getImportJob(scope, jobId);
  }

  async claimImportJob(owner: string, nowMs: number, leaseMs: number): Promise<ImportJobRow | null> {
    const job = await this.imports.claimImportJob(owner, nowMs, leaseMs);
    if (job !== null) this.importFailures.delete(job.id);
    return job;
  }

  renewImportLease(jobId: number, owner: string, nowMs: number, leaseMs: number): Promise<boolean> {
    return this.imports.renewImportLease(jobId, owner, nowMs, leaseMs);
  }

  updateImportJob(jobId: number, owner: string, patch: ImportJobPatch): Promise<boolean> {
    return this.imports.updateImportJob(jobId, owner, patch);
  }

  markImportRows(marks: readonly ImportRowMark[]): Promise<void> {
    return this.imports.markImportRows(marks);
  }

  lastImportRow(jobId: number): Promise<ImportRowResult | null> {
    return this.imports.lastImportRow(jobId);
  }

  listImportRows(jobId: number, fromRow: number, toRow: number, limit: number): Promise<ImportRowResult[]> {
    return this.imports.listImportRows(jobId, fromRow, toRow, limit);
  }

  purgeExpiredImports(nowIso: string): Promise<{ jobs: number; files: number }> {
    return this.imports.purgeExpiredImports(nowIso);
  }

  // ---- review queue (src/store/review-types.ts; implemented in pg-review.ts) -------------

  listPossibleMatches(scope: Scope, status: PossibleMatchStatus | null, skip: number, limit: number): Promise<PossibleMatchRow[]> {
    return this.review.listPossibleMatches(scope, status, skip, limit);
  }

  countPossibleMatches(scope: Scope, status: PossibleMatchStatus | null): Promise<number> {
    return this.review.countPossibleMatches(scope, status);
  }

  getPossibleMatch(scope: Scope, id: number): Promise<PossibleMatchRow | null> {
    return this.review.getPossibleMatch(scope, id);
  }

  listDifferentPairs(scope: Scope): Promise<[number, number][]> {
    return this.review.listDifferentPairs(scope);
  }

  getMerge(scope: Scope, crmId: number): Promise<PersonMerge | null> {
    return this.review.getMerge(scope, crmId);
  }

  listReviewAudit(scope: Scope, possibleMatchId: number | null, skip: number, limit: number): Promise<ReviewAuditRow[]> {
    return this.review.listReviewAudit(scope, possibleMatchId, skip, limit);
  }

  async listCanvassResponses(scope: Scope, crmId: number, skip: number, limit: number): Promise<CanvassRow[]> {
    const r = await this.q(
      `SELECT * FROM canvass_responses WHERE tenant_id = $1 AND context = $2 AND crm_id = $3
      ORDER BY id DESC LIMIT $4 OFFSET $5`,
      [scope.tenantId, scope.context, crmId, limit, skip],
    );
    return r.rows.map((x) => ({
      id: Number(x['id']),
      crmId: Number(x['crm_id']),
      canvassedAt: String(x['canvassed_at']),
      createdAt: String(x['created_at']),
      json: String(x['json']),
    }));
  }

  async countCanvassResponses(scope: Scope, crmId: number): Promise<number> {
    return Number(
      (
        await this.q('SELECT COUNT(*) AS n FROM canvass_responses WHERE tenant_id = $1 AND context = $2 AND crm_id = $3', [
          scope.tenantId,
          scope.context,
          crmId,
        ])
      ).rows[0]?.['n'] ?? 0,
    );
  }
}

/**
 * The PostgreSQL Store (node-postgres, a connection pool), for several server processes on
 * one database. Schema and its reasons: pg-migrations.ts.
 *
 * Durability: every write commits before its Promise resolves (PostgreSQL's own WAL and
 * `synchronous_commit`; concurrent commits share a WAL flush on the server), people units too.
 *
 * Concurrency across processes: every people write runs in a unit, a transaction that first
 * takes the transaction-level advisory locks of its keys (`pg_advisory_xact_lock(scope, key)`,
 * keys from src/crm/lock-keys.ts: what two requests for the same person share) and row-locks
 * the people it reads to update, so two requests that could match each other's person run in
 * turn while the others run in parallel, in this process and across processes. Each write
 * stamps the row with its transaction's id (`change_xid`) and a new change number (its
 * version, `change_seq`); a process follows the others' writes by reading the rows written by
 * transactions its last read's snapshot had not seen (pg-unit.ts). A unit that writes one
 * person takes two round trips: BEGIN + locks + changes + the row it will update (+ a crmId)
 * in one query, then the write (one statement with its identifiers) and COMMIT, pipelined
 * (the pool's `pipeline` mode) and sent in one socket write; a unit that wrote nothing ends
 * with a rollback.
 *
 * Past 400 lines because it is one class implementing the whole Store contract, mostly one SQL
 * statement per method; its parts live apart: migrations (pg-migrations.ts), a unit's SQL and
 * state (pg-unit.ts), bulk import tables (pg-import.ts), review queue tables (pg-review.ts),
 * database retrieval (pg-match-keys.ts), the row layout shared with SQLite (rows.ts).
 */
import pg from 'pg';
import { foldIdentifier } from './identifier-fold.js';
import { PERSON_WRITE_COLUMNS, personValues, textOrNull, toKeyRow, toModelRow, toPerson, toTenant, type Row } from './rows.js';
import { PG_MIGRATIONS } from './pg-migrations.js';
import {
  StoreError,
  type Applied,
  type CanvassRow,
  type ChangeCursor,
  type ChangeKey,
  type ContextName,
  type KeyRow,
  type KeyUsageDelta,
  type LockWaitStats,
  type NewCanvassRow,
  type NewKeyRow,
  type PeopleChanges,
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
import {
  CHANGES_SQL,
  IDS_SQL,
  IdPool,
  LOCK_PERSON_SQL,
  LockWaits,
  SNAPSHOT_SQL,
  changesLiteral,
  changesOf,
  changesValues,
  idsLiteral,
  lockLiteral,
  lockPersonLiteral,
  parseSnapshot,
} from './pg-unit.js';

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

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** The transaction of a {@link PgStore.writeScope} unit. */
interface Tx {
  readonly client: pg.PoolClient;
  /** People read with their row lock in the first round trip (the unit's `lockPerson`), until written. */
  readonly locked: Map<number, PersonRecord | null>;
  /** People whose row this unit holds locked (read FOR UPDATE): an update of one cannot miss it. */
  readonly rowLocked: Set<number>;
  /** The change number of each person this unit wrote (known once its write answered). */
  readonly versions: Map<number, number>;
  /** crmIds taken for this unit's inserts in its first round trip. */
  readonly crmIds: number[];
  /** Writes sent and not waited for: checked before the unit resolves (see scopeTransaction). */
  readonly pending: Promise<unknown>[];
  /** The unit wrote something (else it ends with a rollback: nothing to make durable). */
  wrote: boolean;
}

/** A resolved `durable`: a unit is durable when it resolves. */
const DURABLE: Promise<void> = Promise.resolve();

/** The socket of a client (node-postgres' connection stream), to cork; null when it has none such. */
function socketOf(client: pg.PoolClient): { cork(): void; uncork(): void; writableCorked: number } | null {
  const stream = (client as unknown as { connection?: { stream?: { cork?: unknown; uncork?: unknown; writableCorked?: number } } }).connection?.stream;
  return stream !== undefined && typeof stream.cork === 'function' && typeof stream.uncork === 'function'
    ? (stream as { cork(): void; uncork(): void; writableCorked: number })
    : null;
}

/**
 * Holds a client's writes to the socket until {@link uncork}, at the latest until the
 * promise jobs running now are done: the writes of a unit and its COMMIT, pipelined, leave in
 * one write (each query would be a write of its own, and on loopback each write costs the
 * sender the receiver's wake-up too), and a query awaited meanwhile still leaves.
 */
function hold(client: pg.PoolClient): void {
  const socket = socketOf(client);
  if (socket === null || socket.writableCorked > 0) return;
  socket.cork();
  process.nextTick(() => uncork(client));
}

/** Sends what {@link cork} held. */
function uncork(client: pg.PoolClient): void {
  const socket = socketOf(client);
  while (socket !== null && socket.writableCorked > 0) socket.uncork();
}

/** PostgreSQL's error code for a deadlock the server broke by aborting one transaction. */
const DEADLOCK = '40P01';

/** The person's identifiers, folded, as two arrays (type keys, external id keys). */
function identifierArrays(person: PersonRecord): [string[], string[]] {
  return [person.identifiers.map((i) => foldIdentifier(i.type)), person.identifiers.map((i) => foldIdentifier(i.externalId))];
}

const INSERT_COLUMNS = ['tenant_id', 'context', 'crm_id', ...PERSON_WRITE_COLUMNS];
/** Inserts a person (its crmId taken before, see IDS_SQL) and its identifiers in one statement. */
const INSERT_SQL = `WITH p AS (
    INSERT INTO people (${INSERT_COLUMNS.join(', ')}, change_seq, change_xid)
    VALUES (${INSERT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}, nextval('people_changes'), txid_current())
    RETURNING crm_id, change_seq),
  i AS (INSERT INTO person_identifiers (tenant_id, context, type_key, external_id_key, crm_id)
    SELECT $1, $2, u.t, u.e, p.crm_id FROM p, unnest($${INSERT_COLUMNS.length + 1}::text[], $${INSERT_COLUMNS.length + 2}::text[]) AS u(t, e)
    ON CONFLICT DO NOTHING)
  SELECT crm_id, change_seq FROM p`;
const U = PERSON_WRITE_COLUMNS.length;
/**
 * Replaces a person and its identifiers in one statement: the identifiers it no longer has are
 * deleted, the new ones inserted (a statement's parts see the same snapshot, so the two must
 * not touch the same row).
 */
const UPDATE_SQL = `WITH p AS (
    UPDATE people SET ${PERSON_WRITE_COLUMNS.map((c, i) => `${c} = $${i + 1}`).join(', ')},
      change_seq = nextval('people_changes'), change_xid = txid_current()
    WHERE crm_id = $${U + 1} AND tenant_id = $${U + 2} AND context = $${U + 3}
    RETURNING crm_id, change_seq),
  n AS (SELECT u.t, u.e FROM unnest($${U + 4}::text[], $${U + 5}::text[]) AS u(t, e)),
  d AS (DELETE FROM person_identifiers x USING p
    WHERE x.tenant_id = $${U + 2} AND x.context = $${U + 3} AND x.crm_id = p.crm_id
      AND (x.type_key, x.external_id_key) NOT IN (SELECT t, e FROM n)),
  i AS (INSERT INTO person_identifiers (tenant_id, context, type_key, external_id_key, crm_id)
    SELECT $${U + 2}, $${U + 3}, n.t, n.e, p.crm_id FROM p, n ON CONFLICT DO NOTHING)
  SELECT crm_id, change_seq FROM p`;

/** PostgreSQL implementation of {@link Store}. Create with {@link PgStore.open}. */
export class PgStore implements Store {
  /** Several server processes may write people (see the module comment). */
  readonly sharedByProcesses = true;
  /** Database retrieval (pg-match-keys.ts). */
  readonly matchKeys: PgMatchKeys;
  private readonly imports: PgImportTables;
  private readonly review: PgReviewTables;
  /** Units under way (what `flush` and `close` wait for). */
  private readonly pending = new Set<Promise<unknown>>();
  /** Prepared-statement names by SQL text. */
  private readonly names = new Map<string, string>();
  private closed = false;
  private readonly ids = new IdPool();
  private readonly waits = new LockWaits();

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
    // Pipelined: a unit sends its statements without waiting for each answer (pg-unit.ts).
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10, types: TYPES, pipeline: true });
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
    await Promise.allSettled([...this.pending]);
    await this.pool.end();
  }

  /**
   * Every unit that resolved is committed, hence durable: nothing to wait for, with or without
   * `crmId` (units still running are not applied yet).
   */
  async flush(): Promise<void> {
    return undefined;
  }

  lockWaits(): LockWaitStats {
    return this.waits.stats();
  }

  /** `last_value` of the `admin_changes` sequence: moves on every change of tenants, keys or settings. */
  async changeCounter(): Promise<number> {
    return Number((await this.q('SELECT last_value FROM admin_changes')).rows[0]?.['last_value'] ?? 0);
  }

  /**
   * One transaction taking the locks of `options.locks` first (see the module comment and
   * {@link Store.writeScope}). When the server breaks a deadlock by aborting it (a unit that
   * updates a person it had not locked first, while another holds that row and waits for this
   * unit's keys: rare), the unit runs again from the start, up to twice.
   */
  async writeScope<T>(
    scope: Scope,
    fn: (writer: ScopeWriter, changes: PeopleChanges | null) => Promise<T>,
    options: ScopeWriteOptions = {},
  ): Promise<Applied<T>> {
    for (let attempt = 0; ; attempt++) {
      const run = this.scopeTransaction(scope, fn, options);
      this.pending.add(run);
      try {
        return { value: await run, durable: DURABLE };
      } catch (error) {
        if (attempt >= 2 || (error as { code?: unknown }).code !== DEADLOCK) throw error;
        this.waits.retried();
      } finally {
        this.pending.delete(run);
      }
    }
  }

  /** The {@link ScopeWriter} of a unit: every call runs in its transaction. */
  private writerOf(scope: Scope, tx: Tx): ScopeWriter {
    return {
      scope,
      getPerson: async (crmId) => {
        if (tx.locked.has(crmId)) return tx.locked.get(crmId) ?? null;
        const row = (await this.q(LOCK_PERSON_SQL, [crmId, scope.tenantId, scope.context], tx.client)).rows[0];
        if (row === undefined) return null;
        tx.rowLocked.add(crmId);
        return toPerson(row);
      },
      readPerson: (crmId) => this.readPerson(scope, crmId, tx.client),
      findByIdentifier: (type, externalId) => this.readIdentifier(scope, type, externalId, tx.client),
      insertPerson: (person, normalized, mark) => this.insertPerson(tx, scope, person, normalized, mark),
      updatePerson: (person, normalized, mark) => this.updatePerson(tx, scope, person, normalized, mark),
      insertCanvassResponse: (row, mark) => {
        tx.wrote = true;
        return this.insertCanvassResponse(tx.client, scope, row, mark);
      },
      peopleChangedSince: async (after, limit, next) =>
        changesOf((await this.q(CHANGES_SQL, changesValues(scope, after, limit, next), tx.client)).rows, after, limit),
      versionWritten: (crmId) => tx.versions.get(crmId) ?? 0,
      keys: this.matchKeys.reader(tx.client),
      insertPossibleMatch: (row) => {
        tx.wrote = true;
        return this.review.insertPossibleMatch(tx.client, scope, row);
      },
      getPossibleMatchForUpdate: (id) => this.review.getPossibleMatchForUpdate(tx.client, scope, id),
      decidePossibleMatch: (decision) => {
        tx.wrote = true;
        return this.review.decidePossibleMatch(tx.client, scope, decision);
      },
      mergePerson: async (crmId, survivorCrmId, mergedAt) => {
        tx.wrote = true;
        tx.versions.set(crmId, await this.review.mergePerson(tx.client, scope, crmId, survivorCrmId, mergedAt));
        tx.locked.delete(crmId);
        await this.matchKeys.unfile(tx.client, scope, crmId);
      },
    };
  }

  /**
   * The unit's transaction, in two round trips when it writes one person: BEGIN, the locks and
   * what was asked for under them, in one query (pg-unit.ts); then `fn`'s writes, which need
   * no answer before the end (a new person's crmId was taken in the first round trip), sent
   * with COMMIT right behind them (pipelined, one write to the socket). COMMIT is synchronous:
   * the unit is durable when this resolves. A write that failed aborts the transaction (its
   * COMMIT then rolls back), and this rejects with its error.
   */
  private async scopeTransaction<T>(
    scope: Scope,
    fn: (writer: ScopeWriter, changes: PeopleChanges | null) => Promise<T>,
    options: ScopeWriteOptions,
  ): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    let released = false;
    try {
      const statements = ['BEGIN'];
      const locks = options.locks ?? [];
      if (locks.length > 0) statements.push(lockLiteral(scope, locks));
      const after = options.changesAfter;
      const limit = options.changesLimit ?? 5000;
      if (after !== undefined) statements.push(changesLiteral(scope, after, limit));
      const lockPerson = options.lockPerson;
      if (lockPerson !== undefined) statements.push(lockPersonLiteral(scope, lockPerson));
      const wanted = this.ids.wanted();
      const crmIds = options.creates === true ? 1 : 0;
      const refill = wanted.phones + wanted.addresses + crmIds > 0;
      if (refill) statements.push(idsLiteral(wanted.phones, wanted.addresses, crmIds));
      const raw = (await client.query(statements.join(';\n'))) as unknown as pg.QueryResult<Row> | pg.QueryResult<Row>[];
      const results = Array.isArray(raw) ? raw : [raw];
      let next = 1;
      if (locks.length > 0) this.waits.note(Number(results[next++]?.rows[0]?.['wait_ms'] ?? 0));
      const changes = after === undefined ? null : changesOf(results[next++]?.rows ?? [], after, limit);
      const tx: Tx = { client, locked: new Map(), rowLocked: new Set(), versions: new Map(), crmIds: [], pending: [], wrote: false };
      if (lockPerson !== undefined) {
        const row = results[next++]?.rows[0];
        tx.locked.set(lockPerson, row === undefined ? null : toPerson(row));
        if (row !== undefined) tx.rowLocked.add(lockPerson);
      }
      if (refill) tx.crmIds.push(...this.ids.add(results[next++]?.rows ?? []));
      const value = await fn(this.writerOf(scope, tx), changes);
      if (!tx.wrote) {
        // Nothing to commit (a match that changed nothing): the rollback ends the unit and
        // releases its locks without waiting for a WAL flush; the answer need not wait for it.
        this.endInBackground(client, 'ROLLBACK');
        released = true;
        return value;
      }
      const commit = client.query('COMMIT');
      uncork(client);
      const settled = await Promise.allSettled([...tx.pending, commit]);
      for (const s of settled) if (s.status === 'rejected') throw s.reason;
      if ((await commit).command !== 'COMMIT') throw new Error("The unit's transaction was rolled back (a statement in it failed).");
      return value;
    } catch (error) {
      uncork(client);
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      if (!released) client.release(broken);
    }
  }

  /** Ends a unit's transaction with `sql` without waiting for it; the client goes back to the pool after (close waits for it). */
  private endInBackground(client: pg.PoolClient, sql: string): void {
    const ended = client.query(sql).then(
      () => client.release(),
      () => client.release(true),
    );
    this.pending.add(ended);
    void ended.finally(() => this.pending.delete(ended));
  }

  /** Every unit commits synchronously: a job's rows are durable once their units resolved. */
  async importDurable(): Promise<void> {
    return undefined;
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

  /** Gives phones and addresses with id 0 ids from the pool (refilled by a query in the unit when it runs short). */
  private async assignIds(client: pg.PoolClient, person: PersonRecord): Promise<PersonRecord> {
    const newPhones = person.phones.filter((p) => p.phoneId === 0).length;
    const newAddresses = person.addresses.filter((a) => a.addressId === 0).length;
    if (newPhones === 0 && newAddresses === 0) return person;
    let phoneIds = this.ids.take('p', newPhones);
    let addressIds = this.ids.take('a', newAddresses);
    if (phoneIds === null || addressIds === null) {
      const wanted = this.ids.wanted();
      this.ids.add((await this.q(IDS_SQL, [newPhones + wanted.phones, newAddresses + wanted.addresses, 0], client)).rows);
      phoneIds ??= this.ids.take('p', newPhones) ?? [];
      addressIds ??= this.ids.take('a', newAddresses) ?? [];
    }
    let p = 0;
    let a = 0;
    const phones: StoredPhone[] = person.phones.map((x) => (x.phoneId === 0 ? { ...x, phoneId: phoneIds[p++] ?? 0 } : x));
    const addresses: StoredAddress[] = person.addresses.map((x) => (x.addressId === 0 ? { ...x, addressId: addressIds[a++] ?? 0 } : x));
    return { ...person, phones, addresses };
  }

  /**
   * Sends a write of the unit without waiting for its answer (the unit checks it before it
   * resolves, see scopeTransaction); `then` reads the answer.
   */
  private send(tx: Tx, write: Promise<pg.QueryResult<Row>> | Promise<void>, then?: (r: pg.QueryResult<Row>) => void): void {
    const sent = then === undefined ? write : (write as Promise<pg.QueryResult<Row>>).then(then);
    sent.catch(() => undefined); // awaited by the unit
    tx.pending.push(sent);
  }

  private async insertPerson(
    tx: Tx,
    scope: Scope,
    person: PersonRecord,
    normalized: StoredNormalization | undefined,
    mark: ImportRowMark | undefined,
  ): Promise<PersonRecord> {
    tx.wrote = true;
    const withIds = await this.assignIds(tx.client, person);
    const crmId = tx.crmIds.shift() ?? this.ids.add((await this.q(IDS_SQL, [0, 0, 1], tx.client)).rows)[0];
    if (crmId === undefined) throw new Error('No crmId from people_crm_id_seq.');
    const stored = { ...withIds, crmId };
    hold(tx.client);
    this.send(
      tx,
      this.q(INSERT_SQL, [scope.tenantId, scope.context, crmId, ...personValues(withIds, normalized), ...identifierArrays(withIds)], tx.client),
      (r) => tx.versions.set(crmId, Number(r.rows[0]?.['change_seq'])),
    );
    if (normalized?.keys !== undefined) this.send(tx, this.matchKeys.file(tx.client, scope, crmId, normalized.keys));
    if (mark !== undefined) await writePgImportMark((sql, v, c) => this.q(sql, v ?? [], c ?? null), tx.client, mark, crmId);
    return stored;
  }

  /** An update of a person whose row the unit holds locked is sent without waiting (it cannot miss the row). */
  private async updatePerson(
    tx: Tx,
    scope: Scope,
    person: PersonRecord,
    normalized: StoredNormalization | undefined,
    mark: ImportRowMark | undefined,
  ): Promise<PersonRecord> {
    tx.wrote = true;
    const withIds = await this.assignIds(tx.client, person);
    const crmId = person.crmId;
    if (tx.rowLocked.has(crmId)) hold(tx.client);
    const write = this.q(UPDATE_SQL, [...personValues(withIds, normalized), crmId, scope.tenantId, scope.context, ...identifierArrays(withIds)], tx.client);
    const done = (r: pg.QueryResult<Row>): void => {
      if (r.rowCount !== 1) throw new StoreError(`No person ${crmId} in tenant ${scope.tenantId} ${scope.context}.`, 'NOT_FOUND');
      tx.versions.set(crmId, Number(r.rows[0]?.['change_seq']));
    };
    if (tx.rowLocked.has(crmId)) this.send(tx, write, done);
    else done(await write);
    tx.locked.delete(crmId);
    if (normalized?.keys !== undefined) this.send(tx, this.matchKeys.file(tx.client, scope, crmId, normalized.keys));
    if (mark !== undefined) await writePgImportMark((sql, v, c) => this.q(sql, v ?? [], c ?? null), tx.client, mark, crmId);
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

  async peopleChangedSince(scope: Scope, after: ChangeCursor, limit: number, next?: ChangeKey): Promise<PeopleChanges> {
    return changesOf((await this.q(CHANGES_SQL, changesValues(scope, after, limit, next))).rows, after, limit);
  }

  /** The current snapshot (the scope does not matter: a snapshot covers the whole database). */
  async lastPeopleChange(_scope: Scope): Promise<ChangeCursor> {
    return parseSnapshot(textOrNull((await this.q(SNAPSHOT_SQL)).rows[0]?.['snap']) ?? '0:0:');
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

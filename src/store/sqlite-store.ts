/**
 * The embedded Store on better-sqlite3 (synchronous calls wrapped in Promises).
 *
 * Durability: WAL journal, and with `synchronous: 'FULL'` (the default) a write is on disk
 * before anyone is told about it; it survives `kill -9` and power loss. Measured on this
 * machine: a single-row commit costs 207 us with SQLite's FULL on a quiet disk (22 us with
 * NORMAL), but 1-3 ms while other processes load the disk, and better-sqlite3 would block the
 * event loop for that time: so the connection commits NORMAL and the store fsyncs the WAL on
 * the thread pool after each group commit, and checkpoints on a thread of their own
 * (sqlite-commit.ts, sqlite-checkpoint.ts).
 *
 * Writes go through a group commit (sqlite-commit.ts): the writes of one event-loop turn share
 * one transaction and one fsync; bulk import writes are batched by time and may skip the sync.
 *
 * `busy_timeout` lets the CLI and a running server share the file.
 *
 * Past 400 lines because it is one class implementing the whole Store contract, mostly one SQL
 * statement per method; its parts live apart: the group commit (sqlite-commit.ts), bulk import
 * tables (sqlite-import.ts), the row layout shared with PostgreSQL (rows.ts).
 */
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { foldIdentifier } from './identifier-fold.js';
import { MIGRATIONS, type Migration } from './migrations.js';
import { PERSON_WRITE_COLUMNS, personOf, personValues, toKeyRow, toModelRow, toPerson, toTenant, type Row } from './rows.js';
import { Checkpointer, syncDirectoryOf, syncFile } from './sqlite-checkpoint.js';
import { GroupCommit, IMPORT_BATCH_MS, LAZY_SYNC_MS, type GroupCommitOptions, type GroupCommitStats } from './sqlite-commit.js';
import { ImportMarkWriter, SqliteImportTables } from './sqlite-import.js';
import { SqliteReviewTables } from './sqlite-review.js';
import type { PersonMerge, PossibleMatchRow, PossibleMatchStatus, ReviewAuditRow } from './review-types.js';
import type { ImportFileRow, ImportJobPatch, ImportJobRow, ImportRowMark, ImportRowResult, NewImportFile, NewImportJob } from './import-types.js';
import {
  NO_CURSOR,
  StoreError,
  type Applied,
  type ChangeCursor,
  type LockWaitStats,
  type PeopleChanges,
  type ContextName,
  type KeyRow,
  type NewKeyRow,
  type PersonChange,
  type PersonRecord,
  type Scope,
  type ScopeWriter,
  type ModelRow,
  type SettingsRow,
  type Store,
  type StoredAddress,
  type StoredNormalization,
  type StoredNormalizationRow,
  type StoredPhone,
  type TenantRow,
  type CanvassRow,
  type KeyUsageDelta,
  type NewCanvassRow,
} from './types.js';

/** Options of {@link SqliteStore.open}. */
export interface SqliteStoreOptions {
  /** File path, or ":memory:" for a private in-memory database (tests). */
  readonly path: string;
  /** "FULL" (default, durable against power loss) or "NORMAL" (durable against process crash only). */
  readonly synchronous?: 'FULL' | 'NORMAL';
  /** Milliseconds to wait for another connection's write lock. Default 5000. */
  readonly busyTimeoutMs?: number;
  /**
   * With FULL: how long after a synced commit bulk import batches may commit without a sync
   * (see the module comment). 0 syncs them all. Default {@link LAZY_SYNC_MS}.
   */
  readonly importSyncLagMs?: number;
  /** How long a batch of bulk import writes stays open, ms. Default {@link IMPORT_BATCH_MS}. */
  readonly importBatchMs?: number;
  /** The clock the import sync lag is measured on, in milliseconds. Default `performance.now`; tests inject one. */
  readonly clock?: () => number;
}

const INSERT_PERSON_COLUMNS = ['tenant_id', 'context', ...PERSON_WRITE_COLUMNS];
const INSERT_PERSON = `INSERT INTO people (${INSERT_PERSON_COLUMNS.join(', ')}) VALUES (${INSERT_PERSON_COLUMNS.map(() => '?').join(', ')})`;
const UPDATE_PERSON = `UPDATE people SET ${PERSON_WRITE_COLUMNS.map((c) => `${c} = ?`).join(', ')}
      WHERE crm_id = ? AND tenant_id = ? AND context = ?`;
const DURABLE: Promise<void> = Promise.resolve();
/** Changes made by other processes: none, this process is the one writer. */
const NO_CHANGES: PeopleChanges = Object.freeze({ changes: Object.freeze<PersonChange[]>([]), cursor: NO_CURSOR, next: null });
/** No unit waits for another's locks: the caller serializes a scope's units. */
const NO_LOCK_WAITS: LockWaitStats = Object.freeze({ acquisitions: 0, waited: 0, totalMs: 0, maxMs: 0, retries: 0 });

/** Applies pending migrations in order, each in its own IMMEDIATE transaction. */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied: number[] = [];
  const has = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?');
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const m of migrations) {
    const run = db.transaction(() => {
      if (has.get(m.version) !== undefined) return false;
      db.exec(m.sql);
      record.run(m.version, m.name, new Date().toISOString());
      return true;
    });
    if (run.immediate()) applied.push(m.version);
  }
  const newest = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  const known = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  if ((newest.v ?? 0) > known) {
    throw new StoreError(`Database schema version ${newest.v} is newer than this program (${known}).`, 'SCHEMA');
  }
  return applied;
}

/** SQLite implementation of {@link Store}. Create with {@link SqliteStore.open}. */
export class SqliteStore implements Store {
  /** One writer process (plus admin commands, which write no people). */
  readonly sharedByProcesses = false;
  /** No database retrieval: a SQLite tenant is one process's, and its index fits that process (README). */
  readonly matchKeys = null;
  private readonly stmts = new Map<string, Database.Statement>();
  private readonly tx: GroupCommit;
  private readonly imports: SqliteImportTables;
  private readonly review: SqliteReviewTables;
  /** Row marks of the open transaction (their jobs' counters are written before its COMMIT). */
  private readonly marks: ImportMarkWriter;

  /** Runs checkpoints off the event loop (file databases in WAL mode); null otherwise. */
  private readonly checkpointer: Checkpointer | null;

  private constructor(
    readonly db: Database.Database,
    options: Omit<GroupCommitOptions, 'sync'>,
    wal: string | null,
    synced: boolean,
  ) {
    this.marks = new ImportMarkWriter((sql) => this.stmt(sql));
    this.checkpointer =
      wal === null
        ? null
        : new Checkpointer(resolve(db.name), () => {
            // The checkpoint thread failed: SQLite's own checkpoints again (on the event loop).
            if (db.open) db.pragma('wal_autocheckpoint = 1000');
          });
    const sync = wal !== null && synced ? () => this.syncWal(wal) : null;
    this.tx = new GroupCommit(
      db,
      { ...options, sync },
      {
        beforeWrite: () => this.marks.flush(),
        beforeCommit: () => this.beforeCommit(),
        ended: (error) => {
          this.ids = null;
          if (error === null) {
            this.marks.committed();
            this.checkpointer?.afterCommit();
          } else this.marks.rolledBack(error);
        },
      },
    );
    this.imports = new SqliteImportTables(
      db,
      (sql) => this.stmt(sql),
      (fn, importWrite) => this.write(fn, importWrite),
      this.marks,
    );
    this.review = new SqliteReviewTables(
      (sql) => this.stmt(sql),
      (fn, importWrite) => this.tx.apply(fn, importWrite),
    );
  }

  /** Commits and writes so far (for tests and benchmarks). */
  get stats(): GroupCommitStats {
    return this.tx.stats;
  }

  /** Tells `observer` of each COMMIT whether a sync makes it durable (tests and benchmarks). */
  observeCommits(observer: ((synced: boolean) => void) | null): void {
    this.tx.observer = observer;
  }

  /** Checkpoints run by the checkpoint thread so far (tests and benchmarks). */
  get checkpoints(): number {
    return this.checkpointer?.checkpoints ?? 0;
  }

  /**
   * Makes every commit so far durable: an fsync of the WAL file, on the thread pool (the group
   * commit calls it after a COMMIT). A method, so that a test can watch or delay it.
   */
  syncWal(wal: string): Promise<void> {
    return syncFile(wal);
  }

  /** A write that resolves once durable. */
  private async write<T>(fn: () => T, importWrite = false): Promise<T> {
    const applied = this.tx.apply(fn, importWrite);
    await applied.durable;
    return applied.value;
  }

  async flush(crmId?: number): Promise<void> {
    await this.tx.flush(crmId);
  }

  /** `PRAGMA data_version`: changes when another connection committed (not for this one's own commits). */
  async changeCounter(): Promise<number> {
    return Number(this.stmt('PRAGMA data_version').pluck().get());
  }

  /**
   * Opens (creating if needed) the database, sets WAL and durability, runs migrations. In WAL
   * mode the connection then commits with `synchronous=NORMAL` and never checkpoints itself:
   * a FULL store syncs the WAL after each group commit, and a thread checkpoints (see the
   * module comment). Without WAL (":memory:", or a file system that refuses it) SQLite's own
   * `synchronous` does it all.
   */
  static async open(options: SqliteStoreOptions): Promise<SqliteStore> {
    const db = new Database(options.path);
    const full = options.synchronous !== 'NORMAL';
    let wal: string | null = null;
    try {
      db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
      if (options.path !== ':memory:' && db.pragma('journal_mode = WAL', { simple: true }) === 'wal') wal = `${db.name}-wal`;
      db.pragma(`synchronous = ${full ? 'FULL' : 'NORMAL'}`);
      db.pragma('foreign_keys = ON');
      migrate(db);
      if (wal !== null) {
        db.pragma('synchronous = NORMAL');
        db.pragma('wal_autocheckpoint = 0');
        // The WAL file exists now: its directory entry is made durable once.
        if (full) await syncDirectoryOf(wal);
      }
    } catch (error) {
      db.close();
      throw error;
    }
    return new SqliteStore(
      db,
      {
        lagMs: full ? Math.max(0, options.importSyncLagMs ?? LAZY_SYNC_MS) : 0,
        holdMs: Math.max(0, options.importBatchMs ?? IMPORT_BATCH_MS),
        clock: options.clock ?? (() => performance.now()),
      },
      wal,
      full,
    );
  }

  private stmt(sql: string): Database.Statement {
    let s = this.stmts.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  async close(): Promise<void> {
    this.tx.close();
    await this.tx.settled();
    await this.checkpointer?.close();
    if (this.db.open) this.db.close();
  }

  async createTenant(name: string, createdAt: string): Promise<TenantRow> {
    try {
      const info = await this.write(() =>
        this.stmt('INSERT INTO tenants (name, name_key, created_at) VALUES (?, ?, ?)').run(name, name.toLowerCase(), createdAt),
      );
      return { id: Number(info.lastInsertRowid), name, createdAt };
    } catch (error) {
      if (error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new StoreError(`A tenant named "${name}" already exists.`, 'CONFLICT');
      }
      throw error;
    }
  }

  async getTenantByName(name: string): Promise<TenantRow | null> {
    const row = this.stmt('SELECT * FROM tenants WHERE name_key = ?').get(name.toLowerCase()) as Row | undefined;
    return row === undefined ? null : toTenant(row);
  }

  async getTenantById(id: number): Promise<TenantRow | null> {
    const row = this.stmt('SELECT * FROM tenants WHERE id = ?').get(id) as Row | undefined;
    return row === undefined ? null : toTenant(row);
  }

  async listTenants(): Promise<TenantRow[]> {
    return (this.stmt('SELECT * FROM tenants ORDER BY id').all() as Row[]).map(toTenant);
  }

  async countTenants(): Promise<number> {
    return Number((this.stmt('SELECT COUNT(*) AS n FROM tenants').get() as Row)['n']);
  }

  async putSettings(scope: Scope, json: string, updatedAt: string): Promise<number> {
    const row = await this.write(
      () =>
        this.stmt(
          `INSERT INTO tenant_settings (tenant_id, context, version, json, updated_at)
      VALUES (?, ?, 1, ?, ?)
      ON CONFLICT (tenant_id, context) DO UPDATE SET version = version + 1, json = excluded.json,
        updated_at = excluded.updated_at
      RETURNING version`,
        ).get(scope.tenantId, scope.context, json, updatedAt) as Row,
    );
    return Number(row['version']);
  }

  async getSettings(scope: Scope): Promise<SettingsRow | null> {
    const row = this.stmt('SELECT version, json, updated_at FROM tenant_settings WHERE tenant_id = ? AND context = ?').get(scope.tenantId, scope.context) as
      Row | undefined;
    if (row === undefined) return null;
    return { version: Number(row['version']), json: String(row['json']), updatedAt: String(row['updated_at']) };
  }

  async addModelVersion(scope: Scope, json: string | null, createdAt: string): Promise<number> {
    const row = await this.write(
      () =>
        this.stmt(
          `INSERT INTO tenant_models (tenant_id, context, version, json, created_at)
      SELECT ?, ?, COALESCE(MAX(version), 0) + 1, ?, ? FROM tenant_models WHERE tenant_id = ? AND context = ?
      RETURNING version`,
        ).get(scope.tenantId, scope.context, json, createdAt, scope.tenantId, scope.context) as Row,
    );
    return Number(row['version']);
  }

  async getModel(scope: Scope): Promise<ModelRow | null> {
    const row = this.stmt(
      `SELECT version, json, created_at FROM tenant_models WHERE tenant_id = ? AND context = ?
      ORDER BY version DESC LIMIT 1`,
    ).get(scope.tenantId, scope.context) as Row | undefined;
    return row === undefined ? null : toModelRow(row);
  }

  async listModelVersions(scope: Scope): Promise<ModelRow[]> {
    return (
      this.stmt(
        `SELECT version, json, created_at FROM tenant_models WHERE tenant_id = ? AND context = ?
      ORDER BY version DESC`,
      ).all(scope.tenantId, scope.context) as Row[]
    ).map(toModelRow);
  }

  async insertKey(key: NewKeyRow): Promise<KeyRow> {
    const tenant = await this.getTenantById(key.tenantId);
    if (tenant === null) throw new StoreError(`No tenant with id ${key.tenantId}.`, 'NOT_FOUND');
    const info = await this.write(() =>
      this.stmt(
        `INSERT INTO api_keys (tenant_id, hash, prefix, tier, contexts, default_context, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(key.tenantId, key.hash, key.prefix, key.tier, JSON.stringify(key.contexts), key.defaultContext, key.createdAt),
    );
    return { ...key, id: Number(info.lastInsertRowid), tenantName: tenant.name, revokedAt: null };
  }

  async getKeyByHash(hash: string): Promise<KeyRow | null> {
    const row = this.stmt(
      `SELECT k.*, t.name AS tenant_name FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
      WHERE k.hash = ?`,
    ).get(hash) as Row | undefined;
    return row === undefined ? null : toKeyRow(row);
  }

  async listKeys(): Promise<KeyRow[]> {
    return (
      this.stmt(
        `SELECT k.*, t.name AS tenant_name FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
      ORDER BY k.id`,
      ).all() as Row[]
    ).map(toKeyRow);
  }

  async revokeKeys(ids: readonly number[], revokedAt: string): Promise<number> {
    const revoke = this.stmt('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
    return this.write(() => ids.reduce((n, id) => n + revoke.run(revokedAt, id).changes, 0));
  }

  /**
   * Phone and address ids of the open transaction: the `sequences` row is read at the first
   * need and written back once, before COMMIT ({@link beforeCommit}), not updated per write.
   * No other connection can write while this one's transaction is open; ids of a write that
   * rolled back to its SAVEPOINT are skipped (a gap, as PostgreSQL sequences leave).
   */
  private ids: { phone: number; address: number; dirty: boolean } | null = null;

  /** Gives phones and addresses with id 0 the next ids of their sequences. Call inside a transaction. */
  private assignIds(person: PersonRecord): PersonRecord {
    let newPhones = 0;
    for (const p of person.phones) if (p.phoneId === 0) newPhones++;
    let newAddresses = 0;
    for (const a of person.addresses) if (a.addressId === 0) newAddresses++;
    if (newPhones === 0 && newAddresses === 0) return person;
    if (this.ids === null) {
      const rows = this.stmt(`SELECT name, value FROM sequences WHERE name IN ('phone', 'address')`).raw().all() as [string, number][];
      const value = (name: string): number => {
        const row = rows.find((r) => r[0] === name);
        if (row === undefined) throw new StoreError('The phone and address id sequences are missing.', 'SCHEMA');
        return row[1];
      };
      this.ids = { phone: value('phone'), address: value('address'), dirty: false };
    }
    const ids = this.ids;
    let phoneId = ids.phone;
    let addressId = ids.address;
    ids.phone += newPhones;
    ids.address += newAddresses;
    ids.dirty = true;
    const phones: readonly StoredPhone[] = newPhones === 0 ? person.phones : person.phones.map((p) => (p.phoneId === 0 ? { ...p, phoneId: ++phoneId } : p));
    const addresses: readonly StoredAddress[] =
      newAddresses === 0 ? person.addresses : person.addresses.map((a) => (a.addressId === 0 ? { ...a, addressId: ++addressId } : a));
    return { ...person, phones, addresses };
  }

  /** Writes what the open transaction keeps in memory (id sequences, import job counters); outside any SAVEPOINT. */
  private beforeCommit(): void {
    this.marks.flush();
    if (this.ids?.dirty === true) {
      this.stmt(`UPDATE sequences SET value = CASE name WHEN 'phone' THEN ? ELSE ? END WHERE name IN ('phone', 'address')`).run(
        this.ids.phone,
        this.ids.address,
      );
      this.ids.dirty = false;
    }
  }

  /** Replaces a person's identifier rows (`fresh`: a new person, who has none yet). */
  private writeIdentifiers(scope: Scope, person: PersonRecord, fresh: boolean): void {
    if (!fresh) {
      this.stmt('DELETE FROM person_identifiers WHERE tenant_id = ? AND context = ? AND crm_id = ?').run(scope.tenantId, scope.context, person.crmId);
    }
    if (person.identifiers.length === 0) return;
    const insert = this.stmt(`INSERT OR IGNORE INTO person_identifiers
      (tenant_id, context, type_key, external_id_key, crm_id) VALUES (?, ?, ?, ?, ?)`);
    for (const id of person.identifiers) {
      insert.run(scope.tenantId, scope.context, foldIdentifier(id.type), foldIdentifier(id.externalId), person.crmId);
    }
  }

  /**
   * A unit of people writes: `fn` runs at once (the caller, src/crm's scope write lock,
   * serializes a scope's units); each write joins the open group commit in a SAVEPOINT of
   * its own. The unit is durable when the batches it wrote in have committed.
   */
  async writeScope<T>(scope: Scope, fn: (writer: ScopeWriter, changes: PeopleChanges | null) => Promise<T>): Promise<Applied<T>> {
    const batches: Promise<void>[] = [];
    // A pair recorded by a bulk import row joins that row's batch (its write carried the mark).
    let importing = false;
    const wrote = <V>(applied: Applied<V>): V => {
      if (!batches.includes(applied.durable)) batches.push(applied.durable);
      return applied.value;
    };
    const writer: ScopeWriter = {
      scope,
      getPerson: (crmId) => this.getPerson(scope, crmId),
      readPerson: (crmId) => this.getPerson(scope, crmId),
      findByIdentifier: (type, externalId) => this.findByIdentifier(scope, type, externalId),
      insertPerson: async (person, normalized, mark) => {
        importing = mark !== undefined;
        return wrote(this.insertPerson(scope, person, normalized, mark));
      },
      updatePerson: async (person, normalized, mark) => wrote(this.updatePerson(scope, person, normalized, mark)),
      insertCanvassResponse: async (row, mark) => wrote(this.insertCanvassResponse(scope, row, mark)),
      peopleChangedSince: async () => NO_CHANGES,
      versionWritten: () => 0,
      keys: null,
      insertPossibleMatch: async (row) => wrote(this.review.insertPossibleMatch(scope, row, importing)),
      getPossibleMatchForUpdate: async (id) => this.review.getPossibleMatch(scope, id),
      decidePossibleMatch: async (decision) => wrote(this.review.decidePossibleMatch(scope, decision)),
      mergePerson: async (crmId, survivorCrmId, mergedAt) => wrote(this.review.mergePerson(scope, crmId, survivorCrmId, mergedAt)),
    };
    const value = await fn(writer, null);
    const durable = batches.length === 0 ? DURABLE : batches.length === 1 ? (batches[0] as Promise<void>) : Promise.all(batches).then(() => undefined);
    return { value, durable };
  }

  private insertPerson(
    scope: Scope,
    person: PersonRecord,
    normalized: StoredNormalization | undefined,
    mark: ImportRowMark | undefined,
  ): Applied<PersonRecord> {
    return this.tx.apply(() => {
      const withIds = this.assignIds(person);
      const info = this.stmt(INSERT_PERSON).run(scope.tenantId, scope.context, ...personValues(withIds, normalized));
      const stored = { ...withIds, crmId: Number(info.lastInsertRowid) };
      this.writeIdentifiers(scope, stored, true);
      if (mark !== undefined) this.marks.write(mark, stored.crmId);
      this.tx.notePerson(stored.crmId);
      return stored;
    }, mark !== undefined);
  }

  private updatePerson(
    scope: Scope,
    person: PersonRecord,
    normalized: StoredNormalization | undefined,
    mark: ImportRowMark | undefined,
  ): Applied<PersonRecord> {
    return this.tx.apply(() => {
      const withIds = this.assignIds(person);
      const info = this.stmt(UPDATE_PERSON).run(...personValues(withIds, normalized), person.crmId, scope.tenantId, scope.context);
      if (info.changes !== 1) {
        throw new StoreError(`No person ${person.crmId} in tenant ${scope.tenantId} ${scope.context}.`, 'NOT_FOUND');
      }
      this.writeIdentifiers(scope, withIds, false);
      if (mark !== undefined) this.marks.write(mark, withIds.crmId);
      this.tx.notePerson(withIds.crmId);
      return withIds;
    }, mark !== undefined);
  }

  private insertCanvassResponse(scope: Scope, row: NewCanvassRow, mark: ImportRowMark | undefined): Applied<number> {
    return this.tx.apply(() => {
      const inserted = this.stmt(
        `INSERT INTO canvass_responses
        (tenant_id, context, crm_id, canvassed_at, created_at, json) VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(scope.tenantId, scope.context, row.crmId, row.canvassedAt, row.createdAt, row.json);
      if (mark !== undefined) this.marks.write(mark, row.crmId);
      this.tx.notePerson(row.crmId);
      return Number(inserted.lastInsertRowid);
    }, mark !== undefined);
  }

  /** Always empty: this process is the one writer, its index has every change. */
  async peopleChangedSince(): Promise<PeopleChanges> {
    return NO_CHANGES;
  }

  /** Nothing to follow in a store with one writer. */
  async lastPeopleChange(): Promise<ChangeCursor> {
    return NO_CURSOR;
  }

  lockWaits(): LockWaitStats {
    return NO_LOCK_WAITS;
  }

  /** Column name -> position in a raw `SELECT * FROM people` row. */
  private peopleColumns: Map<string, number> | null = null;

  async getPerson(scope: Scope, crmId: number): Promise<PersonRecord | null> {
    // A raw row (an array) instead of an object of some 50 properties: the hottest read of findOrCreate.
    // Its own statement (the SQL differs by the comment), always raw.
    const select = this.stmt('SELECT * FROM people WHERE crm_id = ? AND tenant_id = ? AND context = ? -- raw');
    const values = select.raw(true).get(crmId, scope.tenantId, scope.context) as unknown[] | undefined;
    if (values === undefined) return null;
    let at = this.peopleColumns;
    if (at === null || at.size !== values.length) at = this.peopleColumns = new Map(select.columns().map((c, i) => [c.name, i]));
    const columns = at;
    return personOf((column) => {
      const i = columns.get(column);
      return i === undefined ? undefined : values[i];
    });
  }

  async findByIdentifier(scope: Scope, type: string, externalId: string): Promise<number[]> {
    return this.stmt(
      `SELECT crm_id FROM person_identifiers
      WHERE tenant_id = ? AND context = ? AND type_key = ? AND external_id_key = ? ORDER BY crm_id`,
    )
      .pluck()
      .all(scope.tenantId, scope.context, foldIdentifier(type), foldIdentifier(externalId)) as number[];
  }

  async countPeople(scope: Scope): Promise<number> {
    return Number(this.stmt('SELECT COUNT(*) FROM people WHERE tenant_id = ? AND context = ?').pluck().get(scope.tenantId, scope.context));
  }

  async listPeople(scope: Scope, afterCrmId: number, limit: number): Promise<PersonRecord[]> {
    return (
      this.stmt(
        `SELECT * FROM people WHERE tenant_id = ? AND context = ? AND crm_id > ?
      ORDER BY crm_id LIMIT ?`,
      ).all(scope.tenantId, scope.context, afterCrmId, limit) as Row[]
    ).map(toPerson);
  }

  async listNormalizations(scope: Scope, fingerprint: number, afterCrmId: number, limit: number): Promise<StoredNormalizationRow[]> {
    const rows = this.stmt(
      `SELECT crm_id, match_key, contact_mode FROM people
      WHERE tenant_id = ? AND context = ? AND crm_id > ? AND match_fp = ? AND match_key IS NOT NULL
      ORDER BY crm_id LIMIT ?`,
    )
      .raw()
      .all(scope.tenantId, scope.context, afterCrmId, fingerprint, limit) as [number, string, string | null][];
    return rows.map(([crmId, json, mode]) => ({ crmId, json, organization: mode === 'Organization' }));
  }

  async listPeopleNotNormalizedBy(scope: Scope, fingerprint: number, afterCrmId: number, limit: number): Promise<PersonRecord[]> {
    return (
      this.stmt(
        `SELECT * FROM people WHERE tenant_id = ? AND context = ? AND crm_id > ?
      AND (match_fp IS NOT ? OR match_key IS NULL) ORDER BY crm_id LIMIT ?`,
      ).all(scope.tenantId, scope.context, afterCrmId, fingerprint, limit) as Row[]
    ).map(toPerson);
  }

  async putNormalizations(scope: Scope, fingerprint: number, rows: readonly { readonly crmId: number; readonly json: string }[]): Promise<void> {
    const put = this.stmt('UPDATE people SET match_key = ?, match_fp = ? WHERE crm_id = ? AND tenant_id = ? AND context = ?');
    await this.write(() => {
      for (const row of rows) put.run(row.json, fingerprint, row.crmId, scope.tenantId, scope.context);
    });
  }

  async listPeopleScopes(): Promise<Scope[]> {
    const rows = this.stmt('SELECT DISTINCT tenant_id, context FROM people ORDER BY tenant_id, context').all() as Row[];
    return rows.map((r) => ({ tenantId: Number(r['tenant_id']), context: String(r['context']) as ContextName }));
  }

  async addKeyUsage(rows: readonly KeyUsageDelta[]): Promise<void> {
    if (rows.length === 0) return;
    const add = this.stmt(`INSERT INTO api_key_usage (key_id, month, count) VALUES (?, ?, ?)
      ON CONFLICT (key_id, month) DO UPDATE SET count = count + excluded.count`);
    // Through the group commit: resolves once durable.
    await this.write(() => {
      for (const r of rows) if (r.count > 0) add.run(r.keyId, r.month, r.count);
    });
  }

  async getKeyUsage(keyId: number, month: string): Promise<number> {
    const row = this.stmt('SELECT count FROM api_key_usage WHERE key_id = ? AND month = ?').get(keyId, month) as Row | undefined;
    return row === undefined ? 0 : Number(row['count']);
  }

  async listCanvassResponses(scope: Scope, crmId: number, skip: number, limit: number): Promise<CanvassRow[]> {
    const rows = this.stmt(
      `SELECT * FROM canvass_responses WHERE tenant_id = ? AND context = ? AND crm_id = ?
      ORDER BY id DESC LIMIT ? OFFSET ?`,
    ).all(scope.tenantId, scope.context, crmId, limit, skip) as Row[];
    return rows.map((r) => ({
      id: Number(r['id']),
      crmId: Number(r['crm_id']),
      canvassedAt: String(r['canvassed_at']),
      createdAt: String(r['created_at']),
      json: String(r['json']),
    }));
  }

  async countCanvassResponses(scope: Scope, crmId: number): Promise<number> {
    return Number(
      (
        this.stmt('SELECT COUNT(*) AS n FROM canvass_responses WHERE tenant_id = ? AND context = ? AND crm_id = ?').get(
          scope.tenantId,
          scope.context,
          crmId,
        ) as Row
      )['n'],
    );
  }

  // ---- review queue (src/store/review-types.ts; implemented in sqlite-review.ts) ---------

  async listPossibleMatches(scope: Scope, status: PossibleMatchStatus | null, skip: number, limit: number): Promise<PossibleMatchRow[]> {
    return this.review.listPossibleMatches(scope, status, skip, limit);
  }

  async countPossibleMatches(scope: Scope, status: PossibleMatchStatus | null): Promise<number> {
    return this.review.countPossibleMatches(scope, status);
  }

  async getPossibleMatch(scope: Scope, id: number): Promise<PossibleMatchRow | null> {
    return this.review.getPossibleMatch(scope, id);
  }

  async listDifferentPairs(scope: Scope): Promise<[number, number][]> {
    return this.review.listDifferentPairs(scope);
  }

  async getMerge(scope: Scope, crmId: number): Promise<PersonMerge | null> {
    return this.review.getMerge(scope, crmId);
  }

  async listReviewAudit(scope: Scope, possibleMatchId: number | null, skip: number, limit: number): Promise<ReviewAuditRow[]> {
    return this.review.listReviewAudit(scope, possibleMatchId, skip, limit);
  }

  // ---- bulk import (src/store/import-types.ts; implemented in sqlite-import.ts) ----------

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

  claimImportJob(owner: string, nowMs: number, leaseMs: number): Promise<ImportJobRow | null> {
    return this.imports.claimImportJob(owner, nowMs, leaseMs);
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

  importDurable(jobId: number): Promise<void> {
    const failure = this.marks.failureOf(jobId);
    if (failure !== null) return Promise.reject(failure.error);
    return (this.marks.inTransaction(jobId) ? this.tx.pending : null) ?? DURABLE;
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
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, SqliteStore, StoreError, migrate } from '../../src/store/index.js';
import { describeStoreContract, insert, person } from './store-contract.js';

describeStoreContract('SqliteStore', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'matchbook-store-'));
  return {
    open: () => SqliteStore.open({ path: join(dir, 'db.sqlite') }),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
    concurrentConnections: false,
  };
});

describe('SqliteStore migrations', () => {
  let store: SqliteStore;
  beforeEach(async () => {
    store = await SqliteStore.open({ path: ':memory:' });
  });
  afterEach(async () => store.close());

  it('records every migration once', () => {
    const rows = store.db.prepare('SELECT version FROM schema_migrations').pluck().all();
    expect(rows).toEqual(MIGRATIONS.map((m) => m.version));
    expect(migrate(store.db)).toEqual([]);
  });

  it('migration 7 gives existing import files the context of the job that names or staged them, and none to the rest', () => {
    const db = new Database(':memory:');
    try {
      migrate(
        db,
        MIGRATIONS.filter((m) => m.version < 7),
      );
      db.exec(`INSERT INTO tenants (id, name, name_key, created_at) VALUES (1, 'a', 'a', 't');
        INSERT INTO bulk_import_files (id, tenant_id, token, name, complete, created_at, expires_at) VALUES
          (1, 1, 'up_named', 'u', 1, 't', 'e'), (2, 1, 'staged', 's', 1, 't', 'e'), (3, 1, 'orphan', 'o', 1, 't', 'e');
        INSERT INTO bulk_import_jobs (tenant_id, context, status, request, result_token, file_id, created_at) VALUES
          (1, 'campaign', 'Pending', '{"source":{"kind":"upload","token":"up_named"}}', 'r', NULL, 't'),
          (1, 'voterfile', 'InProgress', '{"source":{"kind":"url","url":"x"}}', 'r', 2, 't');`);
      expect(migrate(db)).toEqual(MIGRATIONS.filter((m) => m.version >= 7).map((m) => m.version));
      expect(db.prepare('SELECT token, context FROM bulk_import_files ORDER BY id').all()).toEqual([
        { token: 'up_named', context: 'campaign' },
        { token: 'staged', context: 'voterfile' },
        { token: 'orphan', context: null },
      ]);
    } finally {
      db.close();
    }
  });

  it('refuses a database newer than the program', () => {
    store.db.prepare("INSERT INTO schema_migrations VALUES (999, 'future', 'x')").run();
    expect(() => migrate(store.db)).toThrow(StoreError);
  });
});

describe('SqliteStore on a file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'matchbook-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('uses WAL, commits without an fsync on the event loop, syncs the WAL before a write is durable, and keeps data across close and open', async () => {
    const path = join(dir, 'db.sqlite');
    const s1 = await SqliteStore.open({ path });
    expect(s1.db.pragma('journal_mode', { simple: true })).toBe('wal');
    // The connection's COMMIT does not sync (NORMAL), nor checkpoint: the store does both off the event loop.
    expect(s1.db.pragma('synchronous', { simple: true })).toBe(1);
    expect(s1.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const t = await s1.createTenant('t', 'x');
    const syncsBefore = s1.stats.syncs;
    const p = await insert(s1, { tenantId: t.id, context: 'campaign' }, person());
    expect(s1.stats.syncs).toBeGreaterThan(syncsBefore);
    await s1.close();
    const s2 = await SqliteStore.open({ path });
    expect((await s2.getPerson({ tenantId: t.id, context: 'campaign' }, p.crmId))?.scalars.lastName).toBe('Lovelace');
    await s2.close();
  });

  it('has no database retrieval, and a write unit says so (keys of a normalization are ignored)', async () => {
    const s = await SqliteStore.open({ path: join(dir, 'db.sqlite') });
    const scope = { tenantId: (await s.createTenant('t', 'x')).id, context: 'voterfile' as const };
    expect(s.matchKeys).toBeNull();
    const applied = await s.writeScope(scope, async (writer) => {
      expect(writer.keys).toBeNull();
      return writer.insertPerson(person(), { fingerprint: 1, json: '{}', keys: { hashes: [1], first: null, last: null } });
    });
    await applied.durable;
    expect(await s.listNormalizations(scope, 1, 0, 10)).toEqual([{ crmId: applied.value.crmId, json: '{}', organization: false }]);
    await s.close();
  });

  it('a committed write is visible to another connection at once (no buffering in the process)', async () => {
    const path = join(dir, 'db.sqlite');
    const s1 = await SqliteStore.open({ path });
    const t = await s1.createTenant('t', 'x');
    const p = await insert(s1, { tenantId: t.id, context: 'voterfile' }, person());
    const other = new Database(path, { readonly: true });
    expect(other.prepare('SELECT first_name FROM people WHERE crm_id = ?').pluck().get(p.crmId)).toBe('Ada');
    other.close();
    await s1.close();
  });

  it("changeCounter changes after another connection commits, not after this one's own commits", async () => {
    const path = join(dir, 'db.sqlite');
    const s1 = await SqliteStore.open({ path });
    const s2 = await SqliteStore.open({ path });
    const before = await s1.changeCounter();
    const t = await s1.createTenant('t', 'x');
    await insert(s1, { tenantId: t.id, context: 'voterfile' }, person());
    expect(await s1.changeCounter()).toBe(before);
    await s2.putSettings({ tenantId: t.id, context: 'campaign' }, '{}', 'y');
    const after = await s1.changeCounter();
    expect(after).not.toBe(before);
    expect(await s1.changeCounter()).toBe(after);
    await s2.close();
    await s1.close();
  });
});

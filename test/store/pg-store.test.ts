import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Crm } from '../../src/crm/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_MIGRATIONS, PgStore, StoreError, copySqliteToPg, migratePg, type Scope } from '../../src/store/index.js';
import { HAVE_POSTGRES, startPostgres, type PgServer } from '../services.js';
import { describeStoreContract, insert, person, update } from './store-contract.js';
import { describeMatchKeyContract } from './match-keys-contract.js';

let server: PgServer | null = null;
const cluster = async (): Promise<PgServer> => (server ??= await startPostgres());

describe.skipIf(!HAVE_POSTGRES)('PgStore', () => {
  afterAll(() => server?.stop());

  describeStoreContract('PgStore', async () => {
    const url = await (await cluster()).createDatabase();
    return { open: () => PgStore.open({ url }), dispose: async () => undefined };
  });

  describeMatchKeyContract('PgStore', async () => {
    const url = await (await cluster()).createDatabase();
    return { open: () => PgStore.open({ url }), dispose: async () => undefined };
  });

  describe('PgStore: migrations and several processes', () => {
    let url: string;
    beforeAll(async () => {
      url = await (await cluster()).createDatabase();
    });

    it('processes opening together migrate once; a newer database is refused', async () => {
      const stores = await Promise.all([1, 2, 3].map(() => PgStore.open({ url })));
      await Promise.all(stores.map((s) => s.close()));
      const pool = new pg.Pool({ connectionString: url });
      try {
        const rows = (await pool.query('SELECT version FROM schema_migrations ORDER BY version')).rows.map((r: { version: number }) => r.version);
        expect(rows).toEqual(PG_MIGRATIONS.map((m) => m.version));
        expect(await migratePg(pool)).toEqual([]);
        await pool.query("INSERT INTO schema_migrations VALUES (999, 'future', 'x')");
        await expect(PgStore.open({ url })).rejects.toBeInstanceOf(StoreError);
        await pool.query('DELETE FROM schema_migrations WHERE version = 999');
      } finally {
        await pool.end();
      }
    });

    it('follows people changes by snapshot: a writer that commits after a later one is still seen, once', async () => {
      const s1 = await PgStore.open({ url });
      const s2 = await PgStore.open({ url });
      const scope: Scope = { tenantId: (await s1.createTenant('changes', 't')).id, context: 'voterfile' };
      const start = await s1.lastPeopleChange(scope);
      const p = await insert(s1, scope, person(), { fingerprint: 3, json: '{"a":1}' });
      const q = await insert(s2, scope, person({ scalars: { ...person().scalars, contactMode: 'Organization' } }));
      await update(s2, scope, p, { fingerprint: 3, json: '{"a":2}' });
      const read = await s1.peopleChangedSince(scope, start, 10);
      // In write order: q's insert, then p's update (p's latest version only).
      expect(read.changes.map((c) => c.crmId)).toEqual([q.crmId, p.crmId]);
      expect(read.changes[0]).toMatchObject({ json: null, fingerprint: null, organization: true });
      expect(read.changes[1]).toMatchObject({ json: '{"a":2}', fingerprint: 3, organization: false });
      // Versions: the update of p is later than both inserts.
      expect(read.changes[1]!.seq).toBeGreaterThan(read.changes[0]!.seq);
      expect((await s1.peopleChangedSince(scope, read.cursor, 10)).changes).toEqual([]);
      expect((await s1.peopleChangedSince({ ...scope, context: 'campaign' }, start, 10)).changes).toEqual([]);

      // Writer A starts first and commits last: a reader that saw B's commit meanwhile still gets A's write next time.
      let releaseA!: () => void;
      const heldA = new Promise<void>((r) => (releaseA = r));
      let insertedA!: () => void;
      const aInserted = new Promise<void>((r) => (insertedA = r));
      const a = s1.writeScope(scope, async (writer) => {
        const stored = await writer.insertPerson(person());
        await writer.readPerson(stored.crmId); // the insert has run (writes are sent without waiting)
        insertedA();
        await heldA;
        return stored;
      });
      await aInserted;
      const b = await insert(s2, scope, person());
      const seenB = await s2.peopleChangedSince(scope, read.cursor, 10);
      expect(seenB.changes.map((c) => c.crmId)).toEqual([b.crmId]);
      releaseA();
      const stored = (await a).value;
      const seenA = await s2.peopleChangedSince(scope, seenB.cursor, 10);
      expect(seenA.changes.map((c) => c.crmId)).toEqual([stored.crmId]);
      expect((await s2.peopleChangedSince(scope, seenA.cursor, 10)).changes).toEqual([]);
      // Pages of at most 2 from one cursor, each continued from the last one's key, until none is full.
      const pages: number[][] = [];
      let page = await s1.peopleChangedSince(scope, start, 2);
      for (;;) {
        pages.push(page.changes.map((c) => c.crmId));
        if (page.next === null) break;
        page = await s1.peopleChangedSince(scope, start, 2, page.next);
      }
      expect(pages.every((ids) => ids.length <= 2)).toBe(true);
      expect(pages.flat().sort((x, y) => x - y)).toEqual([p.crmId, q.crmId, b.crmId, stored.crmId].sort((x, y) => x - y));
      await s1.close();
      await s2.close();
    });

    it('writeScope: units that share a lock key run in turn, others in parallel; writes commit at the end, or roll back together', async () => {
      const s1 = await PgStore.open({ url });
      const s2 = await PgStore.open({ url });
      const scope: Scope = { tenantId: (await s1.createTenant('locks', 't')).id, context: 'campaign' };
      const order: string[] = [];
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let entered!: () => void;
      const inFirst = new Promise<void>((r) => (entered = r));
      const first = s1.writeScope(
        scope,
        async (writer) => {
          order.push('1 in');
          const stored = await writer.insertPerson(person());
          // Visible in the unit, not to other connections before the commit.
          expect((await writer.getPerson(stored.crmId))?.crmId).toBe(stored.crmId);
          expect(await s2.countPeople(scope)).toBe(0);
          entered();
          await held;
          order.push('1 out');
          return stored;
        },
        { locks: [-5, 7, 11] },
      );
      await inFirst;
      // Another key: runs and commits while the first unit holds its locks.
      const other = await s2.writeScope(
        scope,
        async (writer) => {
          order.push('other');
          return writer.insertPerson(person());
        },
        { locks: [8, 12] },
      );
      await other.durable;
      expect(await s2.getPerson(scope, other.value.crmId)).not.toBeNull();
      // A shared key (11): waits for the first unit's commit, then sees its write.
      const second = s2.writeScope(
        scope,
        async (_writer, changes) => {
          order.push('2 in');
          return changes;
        },
        { locks: [11, 40], changesAfter: await s2.lastPeopleChange(scope) },
      );
      // Same key in another scope: never waits.
      await s2.writeScope({ ...scope, context: 'voterfile' }, async () => order.push('other scope'), { locks: [11] });
      expect(order).toEqual(['1 in', 'other', 'other scope']);
      release();
      const applied = await first;
      await applied.durable;
      const changes = (await second).value;
      expect(order).toEqual(['1 in', 'other', 'other scope', '1 out', '2 in']);
      expect(changes?.changes.map((c) => c.crmId)).toContain(applied.value.crmId);
      expect(s2.lockWaits()).toMatchObject({ acquisitions: 3 });
      expect(s2.lockWaits().totalMs).toBeGreaterThan(0);
      expect(await s2.countPeople(scope)).toBe(2);
      await expect(
        s1.writeScope(scope, async (writer) => {
          await writer.insertPerson(person());
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await s2.countPeople(scope)).toBe(2);
      await s1.close();
      await s2.close();
    });
  });

  it('copySqliteToPg moves a SQLite deployment to PostgreSQL: same ids, keys, matches; ids continue', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'matchbook-copy-'));
    try {
      const file = join(dir, 'db.sqlite');
      const lite = await Crm.open({ db: file });
      await lite.createTenant('moving');
      const { key } = await lite.createKey({ tenant: 'moving', tier: 'Custom' });
      const who = (await lite.authenticate(key))!;
      const ctx = { tenantId: who.tenantId, context: 'voterfile' as const };
      const ada = { firstName: 'Ada', lastName: 'Lovelace', emails: [{ email: 'ada@example.org' }], phones: [{ phoneNumber: '2024291000' }], identifiers: [] };
      const created = await lite.findOrCreate(ctx, ada);
      // A bulk import in the middle: an uploaded file (binary bytes), a job that was running (2 rows marked).
      const bytes = Buffer.from([0x46, 0x69, 0x72, 0x73, 0x74, 0x0a, 0x4a, 0x6f, 0x73, 0xe9, 0x0a, 0x00, 0xff]);
      const staged = await lite.store.saveImportFile(
        { tenantId: who.tenantId, context: 'campaign', token: 'up1', name: 'a.csv', createdAt: 't', expiresAt: '2999' },
        (async function* () {
          yield bytes;
        })(),
      );
      const jobId = await lite.store.createImportJob({ tenantId: who.tenantId, context: 'voterfile', request: '{}', resultToken: 'res', createdAt: 't' });
      await lite.store.claimImportJob('old-server', Date.now(), 60_000);
      await lite.store.updateImportJob(jobId, 'old-server', { fileId: staged.id, rowsTotal: 5 });
      await lite.store.markImportRows(
        [1, 2].map((rowNo) => ({ jobId, owner: 'old-server', rowNo, stepsDone: 1, rowDone: true, crmId: null, outcomes: ['Processed'], included: ['x'] })),
      );
      await lite.store.addModelVersion(ctx, '{"m":1}', 't1');
      await lite.store.addModelVersion(ctx, null, 't2');
      await lite.close();
      const url = await (await cluster()).createDatabase();
      const counts = await copySqliteToPg(file, url);
      expect(counts).toMatchObject({
        tenants: 1,
        tenant_models: 2,
        api_keys: 1,
        people: 1,
        bulk_import_files: 1,
        bulk_import_file_chunks: 1,
        bulk_import_jobs: 1,
        bulk_import_rows: 2,
      });
      await expect(copySqliteToPg(file, url)).rejects.toMatchObject({ code: 'CONFLICT' });
      const crm = await Crm.open({ db: url });
      expect((await crm.authenticate(key))?.tenantId).toBe(who.tenantId);
      expect((await crm.store.listModelVersions(ctx)).map((r) => r.version)).toEqual([2, 1]);
      expect(await crm.store.getImportFile(ctx, 'up1')).toBeNull(); // the copy keeps each file's context
      const upload = await crm.store.getImportFile({ ...ctx, context: 'campaign' }, 'up1');
      const back: Buffer[] = [];
      for await (const c of crm.store.readImportFile(upload!.id)) back.push(Buffer.from(c));
      expect(Buffer.concat(back).equals(bytes)).toBe(true);
      // The running job is released: a server on PostgreSQL takes it over and resumes after row 2.
      expect(await crm.store.getImportJob(ctx, jobId)).toMatchObject({ status: 'InProgress', owner: null, rowsDone: 2, rowsTotal: 5, fileId: staged.id });
      expect(await crm.store.claimImportJob('new-server', Date.now(), 60_000)).toMatchObject({ id: jobId, owner: 'new-server', attempts: 2 });
      expect((await crm.store.lastImportRow(jobId))?.rowNo).toBe(2);
      const again = await crm.findOrCreate(ctx, ada);
      expect(again).toMatchObject({ status: 'Matched', crmId: created.crmId });
      const bob = await crm.findOrCreate(ctx, {
        firstName: 'Bob',
        lastName: 'Babbage',
        emails: [{ email: 'bob@example.org' }],
        phones: [{ phoneNumber: '2024291001' }],
      });
      expect(bob.crmId).toBeGreaterThan(created.crmId!);
      const stored = await crm.getPerson(ctx, bob.crmId!, new Set(['phones']));
      expect((stored as unknown as { phones: { phoneId: number }[] }).phones[0]?.phoneId).toBe(2);
      await crm.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

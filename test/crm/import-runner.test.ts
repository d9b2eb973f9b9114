/**
 * The import worker's ways of ending a job that cannot go on: never silently stuck
 * InProgress. A job interrupted too often (its server crashed each time) ends Failed; a job
 * stopped cleanly is handed over and never counted; a job taken over from a dead owner
 * resumes after its last marked row.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BulkImports, Crm, ImportRunner } from '../../src/crm/index.js';
import { MAX_ATTEMPTS } from '../../src/crm/import/runner.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/index.js';
import { sqliteStoreOf } from './fixtures.js';

let crm: Crm;
let imports: BulkImports;
let ctx: { tenantId: number; context: 'campaign' };
let sourceUrl: string;

beforeEach(async () => {
  crm = await Crm.open({ db: ':memory:' });
  await crm.createTenant('t');
  const { key } = await crm.createKey({ tenant: 't', tier: 'Internal', contexts: ['campaign'], defaultContext: 'campaign' });
  ctx = { tenantId: (await crm.authenticate(key))!.tenantId, context: 'campaign' };
  imports = new BulkImports(crm, null, () => false);
  const csv = ['FirstName,LastName', ...Array.from({ length: 50 }, (_, i) => `F${i},L${i}`)].join('\n');
  const up = await imports.saveUpload(
    ctx,
    'names.csv',
    (async function* () {
      yield Buffer.from(csv);
    })(),
  );
  sourceUrl = `http://origin/v4/bulkImportFiles/${up.token}`;
});
afterEach(async () => {
  await crm.close();
});

const request = () => ({
  file: { hasHeader: true, columnDelimiter: 'csv', sourceUrl },
  actions: [{ actionType: 'loadMappedFile', mappingTypes: [{ name: 'CreateOrUpdateContact' }] }],
});
const runner = (owner: string) =>
  new ImportRunner({
    crm,
    owner,
    fetchUrl: () => {
      throw new Error('no fetch');
    },
    limits: { maxBytes: 1e6, maxZipRatio: 100 },
    leaseMs: 100,
  });

describe('ImportRunner', () => {
  it(`ends Failed after ${MAX_ATTEMPTS} interrupted attempts`, async () => {
    const id = await imports.createJob(ctx, request(), 'http://origin');
    let job = await crm.store.claimImportJob('dead-0', 0, 100);
    for (let i = 1; i <= MAX_ATTEMPTS; i++) job = await crm.store.claimImportJob(`dead-${i}`, i * 1000, 100);
    expect(job?.attempts).toBe(MAX_ATTEMPTS + 1);
    await runner(`dead-${MAX_ATTEMPTS}`).run(job!);
    const view = await imports.getJob(ctx, id);
    expect(view).toMatchObject({ status: 'Failed', errors: [{ code: 'IMPORT_FAILED', text: expect.stringMatching(/interrupted 5 times/) }] });
  });

  it('a job stopped midway resumes after its last marked row in another worker, each row applied once', async () => {
    const id = await imports.createJob(ctx, request(), 'http://origin');
    const a = new ImportRunner({
      crm,
      owner: 'a',
      fetchUrl: () => {
        throw new Error('no fetch');
      },
      limits: { maxBytes: 1e6, maxZipRatio: 100 },
      leaseMs: 100,
      pollMs: 10,
      batchRows: 3,
      sliceMs: 0,
    });
    // Stopped (as by SIGTERM) at its 10th row: no timing involved (polling the job's progress let
    // a loaded machine finish all 50 rows before the poll saw 10).
    let rows = 0;
    let stopped: (() => void) | null = null;
    const stopping = new Promise<void>((resolve) => (stopped = resolve));
    const apply = crm.importFindOrCreate.bind(crm);
    crm.importFindOrCreate = async (...args) => {
      if (++rows === 10) void a.stop().then(() => stopped?.());
      return apply(...args);
    };
    a.start();
    await stopping;
    crm.importFindOrCreate = apply;
    const midway = await imports.getJob(ctx, id);
    expect(midway?.status).toMatch(/^InProgress/);
    expect(midway?.rowsDone).toBeLessThan(50);
    const taken = await crm.store.claimImportJob('b', Date.now(), 100);
    expect(taken?.attempts).toBe(1); // a clean stop handed the job over: it does not count as an interruption
    await runner('b').run(taken!);
    expect(await imports.getJob(ctx, id)).toMatchObject({ status: 'Completed', rowsDone: 50, rowsFailed: 0 });
    expect((await crm.listTenants())[0]?.people.campaign).toBe(50);
  });

  it(`clean stops hand the job over: stopped ${MAX_ATTEMPTS + 2} times, it still completes, each row once`, async () => {
    const id = await imports.createJob(ctx, request(), 'http://origin');
    // Each worker is stopped (as by SIGTERM) at its 5th row: no timing involved.
    let current: ImportRunner | null = null;
    let rows = 0;
    const apply = crm.importFindOrCreate.bind(crm);
    crm.importFindOrCreate = async (...args) => {
      if (++rows % 5 === 0) void current?.stop();
      return apply(...args);
    };
    for (let i = 0; i < MAX_ATTEMPTS + 2; i++) {
      const w = new ImportRunner({
        crm,
        owner: `w${i}`,
        fetchUrl: () => {
          throw new Error('no fetch');
        },
        limits: { maxBytes: 1e6, maxZipRatio: 100 },
        leaseMs: 60_000,
        batchRows: 1,
        sliceMs: 0,
      });
      current = w;
      const job = await crm.store.claimImportJob(`w${i}`, Date.now(), 60_000);
      expect(job).toMatchObject({ id, attempts: 1 });
      await w.run(job!);
      expect(await imports.getJob(ctx, id)).toMatchObject({ status: 'InProgress', rowsDone: 5 * (i + 1) });
    }
    current = null;
    const last = await crm.store.claimImportJob('last', Date.now(), 60_000);
    expect(last?.attempts).toBe(1);
    await runner('last').run(last!);
    expect(await imports.getJob(ctx, id)).toMatchObject({ status: 'Completed', rowsDone: 50, rowsFailed: 0, errors: [] });
    expect((await crm.listTenants())[0]?.people.campaign).toBe(50);
  });

  it('CanvassResults rows do not wait for their commit one by one (issue 15: 4-5x slower than contacts alone)', async () => {
    // A store whose import batches never commit on their own: a row that waited for its
    // commit would wait a minute; the worker must track the commits and wait once, at the end.
    const dir = mkdtempSync(join(tmpdir(), 'matchbook-canvass-'));
    const store = await SqliteStore.open({ path: join(dir, 'db.sqlite'), importBatchMs: 60_000, importSyncLagMs: 60_000 });
    const slow = await Crm.open({ store });
    try {
      await slow.createTenant('t');
      const { key } = await slow.createKey({ tenant: 't', tier: 'Internal', contexts: ['campaign'], defaultContext: 'campaign' });
      const sctx = { tenantId: (await slow.authenticate(key))!.tenantId, context: 'campaign' as const };
      const simports = new BulkImports(slow, null, () => false);
      const csv = ['FirstName,LastName,Email', ...Array.from({ length: 50 }, (_, i) => `F${i},L${i},p${i}@example.org`)].join('\n');
      const up = await simports.saveUpload(
        sctx,
        'c.csv',
        (async function* () {
          yield Buffer.from(csv);
        })(),
      );
      const id = await simports.createJob(
        sctx,
        {
          file: { hasHeader: true, columnDelimiter: 'csv', sourceUrl: `http://origin/v4/bulkImportFiles/${up.token}` },
          actions: [
            {
              actionType: 'loadMappedFile',
              mappingTypes: [{ name: 'CreateOrUpdateContact' }, { name: 'CanvassResults', fieldValueMappings: [{ fieldName: 'ResultID', staticValue: '14' }] }],
            },
          ],
        },
        'http://origin',
      );
      const w = new ImportRunner({
        crm: slow,
        owner: 'w',
        fetchUrl: () => {
          throw new Error('no fetch');
        },
        limits: { maxBytes: 1e6, maxZipRatio: 100 },
        leaseMs: 60_000,
        sliceMs: 0,
      });
      const job = await slow.store.claimImportJob('w', Date.now(), 60_000);
      const before = store.stats.commits;
      await w.run(job!);
      expect(await simports.getJob(sctx, id)).toMatchObject({ status: 'Completed', rowsDone: 50, rowsFailed: 0 });
      // Staging and the job's own updates commit; the 50 rows' writes share the batch held open.
      expect(store.stats.commits - before).toBeLessThan(10);
      expect((await slow.listCanvassResponses(sctx, { kind: 'crmId', crmId: (await slow.store.listImportRows(id, 1, 1, 1))[0]!.crmId! }, 0, 10))?.count).toBe(
        1,
      );
    } finally {
      await slow.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a commit that fails stops the job Failed, with what was committed before it kept and counted', async () => {
    const id = await imports.createJob(ctx, request(), 'http://origin');
    const store = sqliteStoreOf(crm);
    const exec = store.db.exec.bind(store.db);
    let armed = false; // from the 20th row on, the next COMMIT fails
    store.db.exec = (sql: string) => {
      if (sql === 'COMMIT' && armed) {
        armed = false;
        throw new Error('disk I/O error (injected)');
      }
      return exec(sql);
    };
    const w = new ImportRunner({
      crm,
      owner: 'w',
      fetchUrl: () => {
        throw new Error('no fetch');
      },
      limits: { maxBytes: 1e6, maxZipRatio: 100 },
      leaseMs: 60_000,
      batchRows: 5,
      sliceMs: 0,
    });
    // Slow rows, so that the 50 take several of the store's 8 ms batches.
    const apply = crm.importFindOrCreate.bind(crm);
    let rows = 0;
    crm.importFindOrCreate = async (...args) => {
      await new Promise((r) => setTimeout(r, 1));
      if (++rows === 20) armed = true;
      return apply(...args);
    };
    const job = await crm.store.claimImportJob('w', Date.now(), 60_000);
    await w.run(job!);
    const view = await imports.getJob(ctx, id);
    expect(view).toMatchObject({ status: 'Failed', errors: [{ text: expect.stringMatching(/internal error.*injected/) }] });
    const people = (await crm.listTenants())[0]?.people.campaign ?? 0;
    expect(people).toBeGreaterThan(0);
    expect(people).toBeLessThan(50);
    expect(view?.rowsDone).toBe(people);
    // No gap: rows after the lost ones are never committed (a resume starts after the last mark).
    expect((await crm.store.listImportRows(id, 1, 100, 100)).map((r) => r.rowNo)).toEqual(Array.from({ length: people }, (_, i) => i + 1));
  });
});

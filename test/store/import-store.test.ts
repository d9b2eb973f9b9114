/**
 * The bulk import part of the Store contract (src/store/import-types.ts), on SQLite: one owner
 * per job, takeover after the lease, fencing of a stale owner (its row write is rolled back
 * with its mark), marks stored with the person write, files in chunks, tenant isolation,
 * purge of expired data. A second adapter (PostgreSQL) can run the same cases.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertApplied } from './store-contract.js';
import { PERSON_SCALARS, SqliteStore, StoreError, type ImportRowMark, type PersonRecord, type PersonScalars, type Scope } from '../../src/store/index.js';

function person(firstName: string): PersonRecord {
  return {
    crmId: 0,
    createdAt: 't',
    updatedAt: 't',
    scalars: { ...Object.fromEntries(PERSON_SCALARS.map((f) => [f, null])), firstName } as PersonScalars,
    selfReported: { races: [], ethnicities: [], genders: [], sexualOrientations: [], languagePreference: null },
    emails: [],
    phones: [],
    addresses: [],
    identifiers: [],
    customFieldValues: [],
    suppressions: [],
  };
}

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield Buffer.from(p);
}

describe('SqliteStore bulk import', () => {
  let dir: string;
  let store: SqliteStore;
  let scope: Scope;
  let jobId: number;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'import-store-'));
    store = await SqliteStore.open({ path: join(dir, 's.db') });
    scope = { tenantId: (await store.createTenant('a', 't')).id, context: 'campaign' };
    jobId = await store.createImportJob({ tenantId: scope.tenantId, context: 'campaign', request: '{}', resultToken: 'tok', createdAt: 't' });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const mark = (owner: string, rowNo: number, over: Partial<ImportRowMark> = {}): ImportRowMark => ({
    jobId,
    owner,
    rowNo,
    stepsDone: 1,
    rowDone: true,
    crmId: null,
    outcomes: ['Processed'],
    included: ['x'],
    ...over,
  });

  it('hands a job to one owner; another takes it over only after the lease', async () => {
    const claimed = await store.claimImportJob('p1', 1000, 500);
    expect(claimed).toMatchObject({ id: jobId, status: 'InProgress', owner: 'p1', leaseUntil: 1500, attempts: 1 });
    expect(await store.claimImportJob('p2', 1200, 500)).toBeNull();
    expect(await store.renewImportLease(jobId, 'p1', 1400, 500)).toBe(true);
    expect(await store.claimImportJob('p2', 1800, 500)).toBeNull();
    expect(await store.claimImportJob('p2', 2000, 500)).toMatchObject({ owner: 'p2', attempts: 2, status: 'InProgress' });
    expect(await store.renewImportLease(jobId, 'p1', 2100, 500)).toBe(false);
    expect(await store.updateImportJob(jobId, 'p1', { status: 'Failed' })).toBe(false);
  });

  it('a second connection (another process) sees the claim: still one owner', async () => {
    const other = await SqliteStore.open({ path: join(dir, 's.db') });
    try {
      // (Sequential: two connections in one thread would wait on each other's write lock.)
      expect(await store.claimImportJob('p1', 1000, 500)).not.toBeNull();
      expect(await other.claimImportJob('p2', 1000, 500)).toBeNull();
      expect(await other.claimImportJob('p2', 1600, 500)).toMatchObject({ owner: 'p2' });
    } finally {
      await other.close();
    }
  });

  it('stores a mark with the person write, and refuses (rolling both back) a stale owner', async () => {
    await store.claimImportJob('p1', 0, 100);
    const saved = await insertApplied(store, scope, person('Ada'), undefined, mark('p1', 1));
    await saved.durable;
    expect(await store.lastImportRow(jobId)).toEqual({ rowNo: 1, stepsDone: 1, crmId: saved.value.crmId, outcomes: ['Processed'], included: ['x'] });
    expect(await store.getImportJob(scope, jobId)).toMatchObject({ rowsDone: 1, rowsFailed: 0 });
    await store.claimImportJob('p2', 1000, 100);
    await expect(insertApplied(store, scope, person('Bob'), undefined, mark('p1', 2))).rejects.toThrow(StoreError);
    expect(await store.countPeople(scope)).toBe(1);
    expect((await store.lastImportRow(jobId))?.rowNo).toBe(1);
    await expect(store.markImportRows([mark('p1', 2)])).rejects.toThrow(/not owned/);
    await store.markImportRows([mark('p2', 2, { outcomes: ['Email: bad'] })]);
    expect(await store.getImportJob(scope, jobId)).toMatchObject({ rowsDone: 2, rowsFailed: 1, status: 'InProgressWithErrors' });
    expect((await store.listImportRows(jobId, 1, 10, 10)).map((r) => r.rowNo)).toEqual([1, 2]);
  });

  it('marks sharing one commit count right, also when the job changes hands inside that commit', async () => {
    await store.claimImportJob('p1', 0, 100);
    // One event-loop turn, so one transaction: p1's rows, then p2 takes over (p1's lease ended), then p1 again.
    const rows = [1, 2, 3].map((n) => insertApplied(store, scope, person(`P${n}`), undefined, mark('p1', n, n === 2 ? { outcomes: ['Email: bad'] } : {})));
    const seen = store.getImportJob(scope, jobId); // in the same transaction: progress as committed, none yet
    const claim = store.claimImportJob('p2', 1000, 100);
    const late = insertApplied(store, scope, person('Late'), undefined, mark('p1', 4)).then(
      () => null,
      (e: unknown) => e,
    );
    const p2row = store.markImportRows([mark('p2', 4, { outcomes: ['Phone: bad'] })]);
    await Promise.all((await Promise.all(rows)).map((r) => r.durable));
    expect(await seen).toMatchObject({ rowsDone: 0, rowsFailed: 0, status: 'InProgress' });
    expect(await claim).toMatchObject({ owner: 'p2', rowsDone: 3, rowsFailed: 1 });
    expect(await late).toMatchObject({ code: 'CONFLICT' });
    await p2row;
    expect(await store.getImportJob(scope, jobId)).toMatchObject({ owner: 'p2', rowsDone: 4, rowsFailed: 2 });
    expect(await store.countPeople(scope)).toBe(3);
    expect((await store.listImportRows(jobId, 1, 10, 10)).map((r) => [r.rowNo, r.outcomes[0]])).toEqual([
      [1, 'Processed'],
      [2, 'Email: bad'],
      [3, 'Processed'],
      [4, 'Phone: bad'],
    ]);
  });

  it('keeps files as chunks, per tenant and context, visible only once complete; a failed upload leaves nothing', async () => {
    const f = await store.saveImportFile({ ...scope, token: 'tok1', name: 'a.csv', createdAt: 't', expiresAt: '2999' }, chunks('a,b\n', '1,2\n'));
    expect(f.size).toBe(8);
    const back: Buffer[] = [];
    for await (const c of store.readImportFile(f.id)) back.push(Buffer.from(c));
    expect(Buffer.concat(back).toString()).toBe('a,b\n1,2\n');
    expect(await store.getImportFile({ ...scope, tenantId: scope.tenantId + 1 }, 'tok1')).toBeNull();
    expect(await store.getImportFile({ ...scope, context: 'voterfile' }, 'tok1')).toBeNull();
    expect(await store.getImportFile(scope, 'tok1')).toMatchObject({ id: f.id, context: 'campaign' });
    const failing = (async function* () {
      yield Buffer.from('x');
      throw new Error('client went away');
    })();
    await expect(store.saveImportFile({ ...scope, token: 'tok2', name: 'b', createdAt: 't', expiresAt: '2999' }, failing)).rejects.toThrow(/went away/);
    expect(await store.getImportFile(scope, 'tok2')).toBeNull();
    expect(await store.getImportJob({ ...scope, tenantId: scope.tenantId + 1 }, jobId)).toBeNull();
  });

  it("purges expired uploads and finished jobs' rows, not open jobs", async () => {
    await store.saveImportFile({ ...scope, token: 'old', name: 'a', createdAt: 't', expiresAt: '2020-01-01T00:00:00Z' }, chunks('x'));
    await store.claimImportJob('p1', 0, 100);
    await store.markImportRows([mark('p1', 1)]);
    await store.updateImportJob(jobId, 'p1', {
      status: 'Completed',
      expiresAt: '2021-01-01T00:00:00Z',
      resultParts: [{ firstRow: 1, lastRow: 1 }],
      release: true,
    });
    const purged = await store.purgeExpiredImports('2022-01-01T00:00:00Z');
    expect(purged.files).toBe(1);
    expect(await store.getImportFile(scope, 'old')).toBeNull();
    expect(await store.listImportRows(jobId, 1, 10, 10)).toEqual([]);
    expect(await store.claimImportJob('p9', 10_000, 100)).toBeNull();
  });
});

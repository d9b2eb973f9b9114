/**
 * The Store contract (src/store/types.ts) as one suite, run against every adapter:
 * sqlite-store.test.ts and pg-store.test.ts call {@link describeStoreContract}.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PERSON_SCALARS,
  StoreError,
  type Applied,
  type ImportRowMark,
  type NewCanvassRow,
  type PersonRecord,
  type PersonScalarName,
  type PersonScalars,
  type Scope,
  type Store,
  type StoredNormalization,
} from '../../src/store/index.js';

/** A fresh, empty database for one test: `open` opens a connection to it (call it twice for two). */
export interface StoreFixture {
  open(): Promise<Store>;
  /** Removes the database. */
  dispose(): Promise<void>;
  /**
   * False when two connections cannot write concurrently from one thread (SQLite: each
   * blocks the other's lock synchronously); the concurrent steps then run one after another.
   */
  readonly concurrentConnections?: boolean;
}

/** A person inserted in a unit of its own ({@link Store.writeScope}): the stored person and the unit's durability. */
export const insertApplied = (s: Store, scope: Scope, p: PersonRecord, n?: StoredNormalization, mark?: ImportRowMark): Promise<Applied<PersonRecord>> =>
  s.writeScope(scope, (writer) => writer.insertPerson(p, n, mark));
/** A person updated in a unit of its own. */
export const updateApplied = (s: Store, scope: Scope, p: PersonRecord, n?: StoredNormalization, mark?: ImportRowMark): Promise<Applied<PersonRecord>> =>
  s.writeScope(scope, (writer) => writer.updatePerson(p, n, mark));

/** A person inserted in a unit of its own, once durable. */
export const insert = async (s: Store, scope: Scope, p: PersonRecord, n?: StoredNormalization): Promise<PersonRecord> => {
  const applied = await insertApplied(s, scope, p, n);
  await applied.durable;
  return applied.value;
};
/** A person updated in a unit of its own, once durable. */
export const update = async (s: Store, scope: Scope, p: PersonRecord, n?: StoredNormalization): Promise<PersonRecord> => {
  const applied = await updateApplied(s, scope, p, n);
  await applied.durable;
  return applied.value;
};
/** A canvass response appended in a unit of its own, once durable; its id. */
export const insertCanvass = async (s: Store, scope: Scope, row: NewCanvassRow): Promise<number> => {
  const applied = await s.writeScope(scope, (writer) => writer.insertCanvassResponse(row));
  await applied.durable;
  return applied.value;
};

export const scalars = (over: Partial<Record<PersonScalarName, string | number | null>> = {}): PersonScalars =>
  ({ ...Object.fromEntries(PERSON_SCALARS.map((f) => [f, null])), ...over }) as PersonScalars;

export function person(over: Partial<PersonRecord> = {}): PersonRecord {
  return {
    crmId: 0,
    createdAt: '2024-01-01T00:00:00Z',
    updatedAt: '2024-01-01T00:00:00Z',
    scalars: scalars({ firstName: 'Ada', lastName: 'Lovelace', yearOfBirth: 1815 }),
    selfReported: { races: [], ethnicities: [], genders: [], sexualOrientations: [], languagePreference: null },
    emails: [],
    phones: [],
    addresses: [],
    identifiers: [],
    customFieldValues: [],
    suppressions: [],
    ...over,
  };
}

const phone = {
  phoneId: 0,
  phoneNumber: '2024291000',
  e164: '+12024291000',
  countryCode: 'US',
  dialingPrefix: '1',
  ext: null,
  phoneType: null,
  deviceType: null,
  isPreferred: false,
  phoneOptInStatus: 'U' as const,
  isCellStatusId: null,
  dateCreated: 'x',
};
const address = {
  addressId: 0,
  addressLine1: '1 Main St',
  addressLine2: null,
  addressLine3: null,
  city: null,
  stateOrProvince: null,
  zipOrPostalCode: '20009',
  countryCode: 'US',
  type: 'Home' as const,
  isPreferred: true,
  key: 'k',
  touched: 1,
  dateCreated: 'x',
  dateUpdated: 'x',
};

/** Every store test, against the adapter `fixture` makes. */
export function describeStoreContract(name: string, fixture: () => Promise<StoreFixture>): void {
  describe(`${name}: Store contract`, () => {
    let fx: StoreFixture;
    let store: Store;
    let a: Scope;
    let b: Scope;
    beforeEach(async () => {
      fx = await fixture();
      store = await fx.open();
      a = { tenantId: (await store.createTenant('a', 't')).id, context: 'voterfile' };
      b = { tenantId: (await store.createTenant('b', 't')).id, context: 'voterfile' };
    });
    afterEach(async () => {
      await store.close();
      await fx.dispose();
    });

    it('tenant names are unique ignoring case', async () => {
      await expect(store.createTenant('A', 't')).rejects.toMatchObject({ code: 'CONFLICT' });
      expect((await store.getTenantByName('A'))?.id).toBe(a.tenantId);
      expect((await store.getTenantById(b.tenantId))?.name).toBe('b');
      expect((await store.listTenants()).map((t) => t.name)).toEqual(['a', 'b']);
      expect(await store.countTenants()).toBe(2);
    });

    it('round-trips a person with all scalars and collections, assigning ids', async () => {
      const saved = await insert(
        store,
        a,
        person({
          phones: [phone, { ...phone, e164: '+12024291001', phoneNumber: '2024291001' }],
          addresses: [address],
          identifiers: [{ type: 'dwid', externalId: 'AbC' }],
          customFieldValues: [{ customFieldId: 1, customFieldGroupId: 2, assignedValue: 'x' }],
          suppressions: [{ suppressionCode: 'NC', suppressionName: 'Do Not Call', dateApplied: '2025-01-01T00:00:00Z' }],
          selfReported: { races: [1, 2], ethnicities: [], genders: [3], sexualOrientations: [], languagePreference: 4 },
          scalars: scalars({
            firstName: 'Ada',
            lastName: 'Lovelace',
            yearOfBirth: 1815,
            collectedLocationId: 7,
            dateOfBirth: '1815-12-10',
            contactMode: 'Person',
          }),
        }),
      );
      expect(saved.crmId).toBeGreaterThan(0);
      expect(saved.phones.map((p) => p.phoneId)).toEqual([1, 2]);
      expect(saved.addresses.map((x) => x.addressId)).toEqual([1]);
      expect(await store.getPerson(a, saved.crmId)).toEqual(saved);
      const again = await update(store, a, { ...saved, phones: [...saved.phones, { ...phone, e164: '+12024291002' }] });
      expect(again.phones.map((p) => p.phoneId)).toEqual([1, 2, 3]);
      expect(typeof (await store.getPerson(a, saved.crmId))?.scalars.yearOfBirth).toBe('number');
      expect(await store.getPerson(a, saved.crmId)).toEqual(again);
    });

    it('finds identifiers case-insensitively, only in the scope', async () => {
      const p = await insert(store, a, person({ identifiers: [{ type: 'DWID', externalId: 'AbC-1' }] }));
      expect(await store.findByIdentifier(a, 'dwid', 'abc-1')).toEqual([p.crmId]);
      expect(await store.findByIdentifier(a, 'dwid', ' ABC-1 ')).toEqual([p.crmId]);
      expect(await store.findByIdentifier(b, 'dwid', 'abc-1')).toEqual([]);
      expect(await store.findByIdentifier({ ...a, context: 'campaign' }, 'dwid', 'abc-1')).toEqual([]);
      await update(store, a, { ...p, identifiers: [] });
      expect(await store.findByIdentifier(a, 'dwid', 'abc-1')).toEqual([]);
    });

    it('never reads or updates a person through another scope', async () => {
      const p = await insert(store, a, person());
      expect(await store.getPerson(b, p.crmId)).toBeNull();
      expect(await store.getPerson({ ...a, context: 'campaign' }, p.crmId)).toBeNull();
      await expect(updateApplied(store, b, { ...p, scalars: scalars({ firstName: 'Eve' }) })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect((await store.getPerson(a, p.crmId))?.scalars.firstName).toBe('Ada');
      expect(await store.countPeople(a)).toBe(1);
      expect(await store.countPeople(b)).toBe(0);
      expect(await store.listPeopleScopes()).toEqual([a]);
    });

    it('match keys: listed by fingerprint, stale ones listed apart, refreshed per scope only', async () => {
      const p1 = await insert(store, a, person({ scalars: scalars({ contactMode: 'Organization' }) }), { fingerprint: 7, json: '{"k":1}' });
      const p2 = await insert(store, a, person(), { fingerprint: 6, json: '{"k":2}' });
      const p3 = await insert(store, a, person());
      const other = await insert(store, b, person(), { fingerprint: 7, json: '{"k":3}' });
      expect(await store.listNormalizations(a, 7, 0, 10)).toEqual([{ crmId: p1.crmId, json: '{"k":1}', organization: true }]);
      expect((await store.listPeopleNotNormalizedBy(a, 7, 0, 10)).map((p) => p.crmId)).toEqual([p2.crmId, p3.crmId]);
      await store.putNormalizations(a, 7, [
        { crmId: p2.crmId, json: '{"k":4}' },
        { crmId: other.crmId, json: 'stolen' },
      ]);
      expect((await store.listNormalizations(a, 7, 0, 10)).map((r) => r.json)).toEqual(['{"k":1}', '{"k":4}']);
      expect(await store.listNormalizations(b, 7, 0, 10)).toEqual([{ crmId: other.crmId, json: '{"k":3}', organization: false }]);
      await update(store, a, p1);
      expect((await store.listPeopleNotNormalizedBy(a, 7, 0, 10)).map((p) => p.crmId)).toEqual([p1.crmId, p3.crmId]);
    });

    it('pages people by crmId', async () => {
      for (let i = 0; i < 7; i++) await insert(store, i % 2 === 0 ? a : b, person());
      const page1 = await store.listPeople(a, 0, 3);
      const page2 = await store.listPeople(a, page1[2]?.crmId ?? 0, 3);
      expect(page1.length + page2.length).toBe(4);
      expect([...page1, ...page2].map((p) => p.crmId)).toEqual([...page1, ...page2].map((p) => p.crmId).sort((x, y) => x - y));
    });

    it('stores keys by hash and revokes them once', async () => {
      const k = await store.insertKey({
        tenantId: a.tenantId,
        hash: 'h1',
        prefix: 'abcd1234',
        tier: 'Custom',
        contexts: ['voterfile'],
        defaultContext: 'voterfile',
        createdAt: 't',
      });
      expect(await store.getKeyByHash('h1')).toMatchObject({ id: k.id, tenantName: 'a', contexts: ['voterfile'], revokedAt: null });
      expect((await store.listKeys()).map((x) => x.id)).toEqual([k.id]);
      expect(await store.revokeKeys([k.id], 'r')).toBe(1);
      expect(await store.revokeKeys([k.id], 'r2')).toBe(0);
      expect((await store.getKeyByHash('h1'))?.revokedAt).toBe('r');
      await expect(
        store.insertKey({ tenantId: 999, hash: 'h2', prefix: 'p', tier: 'Custom', contexts: ['voterfile'], defaultContext: 'voterfile', createdAt: 't' }),
      ).rejects.toBeInstanceOf(StoreError);
    });

    it('versions settings per tenant and context', async () => {
      expect(await store.getSettings(a)).toBeNull();
      expect(await store.putSettings(a, '{"x":1}', 't1')).toBe(1);
      expect(await store.putSettings(a, '{"x":2}', 't2')).toBe(2);
      expect(await store.getSettings(a)).toEqual({ version: 2, json: '{"x":2}', updatedAt: 't2' });
      expect(await store.getSettings({ ...a, context: 'campaign' })).toBeNull();
      expect(await store.getSettings(b)).toBeNull();
    });

    it("keeps every version of a context's model; the highest is in force; a null version is the shipped model", async () => {
      expect(await store.getModel(a)).toBeNull();
      expect(await store.listModelVersions(a)).toEqual([]);
      expect(await store.addModelVersion(a, '{"m":1}', 't1')).toBe(1);
      expect(await store.addModelVersion(a, null, 't2')).toBe(2);
      expect(await store.addModelVersion(a, '{"m":3}', 't3')).toBe(3);
      expect(await store.getModel(a)).toEqual({ version: 3, json: '{"m":3}', createdAt: 't3' });
      expect((await store.listModelVersions(a)).map((r) => [r.version, r.json])).toEqual([
        [3, '{"m":3}'],
        [2, null],
        [1, '{"m":1}'],
      ]);
      // Versions count per tenant and context; other scopes see none of them.
      expect(await store.getModel({ ...a, context: 'campaign' })).toBeNull();
      expect(await store.getModel(b)).toBeNull();
      expect(await store.addModelVersion(b, null, 't4')).toBe(1);
      expect(await store.getModel(b)).toEqual({ version: 1, json: null, createdAt: 't4' });
    });

    it('adds monthly key usage, also from concurrent writers', async () => {
      const k = await store.insertKey({
        tenantId: a.tenantId,
        hash: 'h1',
        prefix: 'abcd1234',
        tier: 'Custom',
        contexts: ['voterfile'],
        defaultContext: 'voterfile',
        createdAt: 't',
      });
      expect(await store.getKeyUsage(k.id, '2025-01')).toBe(0);
      const rows = [
        { keyId: k.id, month: '2025-01', count: 2 },
        { keyId: k.id, month: '2025-02', count: 1 },
        { keyId: k.id, month: '2025-03', count: 0 },
      ];
      await Promise.all(Array.from({ length: 19 }, () => store.addKeyUsage(rows)));
      // Another connection (another process) adds to the same rows. (Two SQLite connections
      // cannot write concurrently from one thread: each blocks the other's lock synchronously.)
      const other = await fx.open();
      await other.addKeyUsage(rows);
      await other.close();
      expect(await store.getKeyUsage(k.id, '2025-01')).toBe(40);
      expect(await store.getKeyUsage(k.id, '2025-02')).toBe(20);
      expect(await store.getKeyUsage(k.id, '2025-03')).toBe(0);
    });

    it('keeps canvass history per person and scope, newest first', async () => {
      const p = await insert(store, a, person());
      const ids: number[] = [];
      for (let i = 0; i < 3; i++)
        ids.push(await insertCanvass(store, a, { crmId: p.crmId, canvassedAt: `2025-01-0${i + 1}T00:00:00Z`, createdAt: 'c', json: `{"i":${i}}` }));
      expect(await store.countCanvassResponses(a, p.crmId)).toBe(3);
      expect(await store.countCanvassResponses(b, p.crmId)).toBe(0);
      const page = await store.listCanvassResponses(a, p.crmId, 1, 5);
      expect(page.map((r) => r.id)).toEqual([ids[1], ids[0]]);
      expect(page[0]).toEqual({ id: ids[1], crmId: p.crmId, canvassedAt: '2025-01-02T00:00:00Z', createdAt: 'c', json: '{"i":1}' });
    });

    it('a resolved write is visible to another connection; data survives close and open', async () => {
      const p = await insert(store, { ...a, context: 'campaign' }, person());
      const other = await fx.open();
      expect((await other.getPerson({ ...a, context: 'campaign' }, p.crmId))?.scalars.lastName).toBe('Lovelace');
      await other.close();
      await store.close();
      store = await fx.open();
      expect(await store.countPeople({ ...a, context: 'campaign' })).toBe(1);
    });

    it('changeCounter changes after another connection changes keys or settings', async () => {
      const other = await fx.open();
      const before = await store.changeCounter();
      await other.putSettings(a, '{}', 'y');
      const after = await store.changeCounter();
      expect(after).not.toBe(before);
      await other.revokeKeys(
        [
          (
            await other.insertKey({
              tenantId: a.tenantId,
              hash: 'h',
              prefix: 'p',
              tier: 'Custom',
              contexts: ['voterfile'],
              defaultContext: 'voterfile',
              createdAt: 't',
            })
          ).id,
        ],
        'r',
      );
      const afterKeys = await store.changeCounter();
      expect(afterKeys).not.toBe(after);
      await other.addModelVersion(a, null, 'z');
      expect(await store.changeCounter()).not.toBe(afterKeys);
      await other.close();
    });

    it('bulk import jobs: per tenant and context, one claimer among concurrent ones, lease takeover, fencing of writes and marks', async () => {
      const other = await fx.open();
      try {
        const job = await store.createImportJob({ tenantId: a.tenantId, context: 'voterfile', request: '{}', resultToken: 'tok', createdAt: 'c' });
        expect(await store.getImportJob(b, job)).toBeNull();
        expect(await store.getImportJob({ tenantId: a.tenantId, context: 'campaign' }, job)).toBeNull(); // another context of the tenant
        expect(await store.getImportJob(a, job)).toMatchObject({ status: 'Pending', owner: null, attempts: 0 });
        // Claims from two connections (two processes), at once where the adapter allows: exactly one wins.
        const claims =
          fx.concurrentConnections === false
            ? [await store.claimImportJob('p1', 1000, 500), await other.claimImportJob('p2', 1000, 500)]
            : await Promise.all([store.claimImportJob('p1', 1000, 500), other.claimImportJob('p2', 1000, 500)]);
        expect(claims.filter((c) => c !== null)).toHaveLength(1);
        const winner = claims[0] !== null ? 'p1' : 'p2';
        const loser = winner === 'p1' ? 'p2' : 'p1';
        expect(await store.claimImportJob('p3', 1200, 500)).toBeNull();
        expect(await store.renewImportLease(job, winner, 1400, 500)).toBe(true);
        expect(await store.renewImportLease(job, loser, 1400, 500)).toBe(false);
        // A write carrying the mark of a non-owner is refused and rolled back with its person.
        const bad = { jobId: job, owner: loser, rowNo: 1, stepsDone: 1, rowDone: true, crmId: null, outcomes: ['Processed'], included: [] };
        await expect(insertApplied(store, a, person(), undefined, bad).then((x) => x.durable)).rejects.toMatchObject({ code: 'CONFLICT' });
        expect(await store.countPeople(a)).toBe(0);
        const p = await insertApplied(store, a, person(), undefined, { ...bad, owner: winner });
        await p.durable;
        await store.markImportRows([{ ...bad, owner: winner, rowNo: 2, outcomes: ['Failed: no'], crmId: 5 }]);
        expect(await store.lastImportRow(job)).toEqual({ rowNo: 2, stepsDone: 1, crmId: 5, outcomes: ['Failed: no'], included: [] });
        expect((await store.listImportRows(job, 1, 2, 10)).map((r) => [r.rowNo, r.crmId])).toEqual([
          [1, p.value.crmId],
          [2, 5],
        ]);
        expect(await store.getImportJob(a, job)).toMatchObject({ rowsDone: 2, rowsFailed: 1, status: 'InProgressWithErrors' });
        // The owner died: after its lease, another process takes the job over.
        expect(await other.claimImportJob('p4', 1901, 500)).toMatchObject({ id: job, owner: 'p4', attempts: 2 });
        expect(await store.updateImportJob(job, winner, { status: 'Failed' })).toBe(false);
        await expect(store.markImportRows([{ ...bad, owner: winner, rowNo: 3 }])).rejects.toMatchObject({ code: 'CONFLICT' });
        await store.flush(); // (SQLite: the refused write's group commit must end before another connection writes)
        expect(
          await other.updateImportJob(job, 'p4', {
            status: 'Completed',
            finishedAt: 'f',
            expiresAt: '2000-01-01',
            release: true,
            resultParts: [{ firstRow: 1, lastRow: 2 }],
          }),
        ).toBe(true);
        expect(await store.getImportJob(a, job)).toMatchObject({ status: 'Completed', owner: null, resultParts: [{ firstRow: 1, lastRow: 2 }] });
        expect(await store.purgeExpiredImports('2001-01-01')).toMatchObject({ jobs: 1 });
        expect(await store.lastImportRow(job)).toBeNull();
      } finally {
        await other.close();
      }
    });

    it('bulk import files: stored in chunks, visible once complete, per tenant and context; a failed upload leaves nothing', async () => {
      async function* chunks(n: number, fail = false): AsyncIterable<Uint8Array> {
        for (let i = 0; i < n; i++) yield new Uint8Array(700_000).fill(i + 1);
        if (fail) throw new Error('connection reset');
      }
      const f = await store.saveImportFile(
        { tenantId: a.tenantId, context: 'voterfile', token: 'ft', name: 'x.csv', createdAt: 'c', expiresAt: '2000-01-01' },
        chunks(3),
      );
      expect(f.size).toBe(2_100_000);
      expect(await store.getImportFile(b, 'ft')).toBeNull();
      expect(await store.getImportFile({ tenantId: a.tenantId, context: 'campaign' }, 'ft')).toBeNull(); // another context of the tenant
      expect(await store.getImportFile(a, 'ft')).toMatchObject({ id: f.id, size: 2_100_000, name: 'x.csv' });
      const parts: Uint8Array[] = [];
      for await (const c of store.readImportFile(f.id)) parts.push(c);
      const all = Buffer.concat(parts);
      expect(all.length).toBe(2_100_000);
      expect([all[0], all[699_999], all[700_000], all[2_099_999]]).toEqual([1, 1, 2, 3]);
      await expect(
        store.saveImportFile({ tenantId: a.tenantId, context: 'voterfile', token: 'gone', name: 'y.csv', createdAt: 'c', expiresAt: 'e' }, chunks(1, true)),
      ).rejects.toThrow('connection reset');
      expect(await store.getImportFile(a, 'gone')).toBeNull();
      expect(await store.purgeExpiredImports('2001-01-01')).toEqual({ jobs: 0, files: 1 });
      expect(await store.getImportFile(a, 'ft')).toBeNull();
    });
  });
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MIGRATIONS, PERSON_SCALARS, SqliteStore, StoreError, migrate,
  type MatchKey, type PersonRecord, type PersonScalarName, type PersonScalars, type Scope,
} from '../../src/store/index.js';

const insert = async (s: SqliteStore, scope: Scope, p: PersonRecord, m?: MatchKey): Promise<PersonRecord> => {
  const applied = await s.insertPerson(scope, p, m);
  await applied.durable;
  return applied.value;
};
const update = async (s: SqliteStore, scope: Scope, p: PersonRecord, m?: MatchKey): Promise<PersonRecord> => {
  const applied = await s.updatePerson(scope, p, m);
  await applied.durable;
  return applied.value;
};

const scalars = (over: Partial<Record<PersonScalarName, string | number | null>> = {}): PersonScalars =>
  ({ ...Object.fromEntries(PERSON_SCALARS.map((f) => [f, null])), ...over }) as PersonScalars;

function person(over: Partial<PersonRecord> = {}): PersonRecord {
  return {
    crmId: 0, createdAt: '2024-01-01T00:00:00Z', updatedAt: '2024-01-01T00:00:00Z',
    scalars: scalars({ firstName: 'Ada', lastName: 'Lovelace', yearOfBirth: 1815 }),
    selfReported: { races: [], ethnicities: [], genders: [], sexualOrientations: [], languagePreference: null },
    emails: [], phones: [], addresses: [], identifiers: [], customFieldValues: [], suppressions: [],
    ...over,
  };
}

const phone = { phoneId: 0, phoneNumber: '2024291000', e164: '+12024291000', countryCode: 'US', dialingPrefix: '1', ext: null, phoneType: null, deviceType: null, isPreferred: false, phoneOptInStatus: 'U' as const, isCellStatusId: null, dateCreated: 'x' };
const address = { addressId: 0, addressLine1: '1 Main St', addressLine2: null, addressLine3: null, city: null, stateOrProvince: null, zipOrPostalCode: '20009', countryCode: 'US', type: 'Home' as const, isPreferred: true, key: 'k', touched: 1, dateCreated: 'x', dateUpdated: 'x' };

describe('SqliteStore', () => {
  let store: SqliteStore;
  let a: Scope;
  let b: Scope;
  beforeEach(async () => {
    store = await SqliteStore.open({ path: ':memory:' });
    a = { tenantId: (await store.createTenant('a', 't')).id, context: 'voterfile' };
    b = { tenantId: (await store.createTenant('b', 't')).id, context: 'voterfile' };
  });
  afterEach(async () => store.close());

  it('records every migration once', () => {
    const rows = store.db.prepare('SELECT version FROM schema_migrations').pluck().all();
    expect(rows).toEqual(MIGRATIONS.map((m) => m.version));
    expect(migrate(store.db)).toEqual([]);
  });

  it('refuses a database newer than the program', () => {
    store.db.prepare("INSERT INTO schema_migrations VALUES (999, 'future', 'x')").run();
    expect(() => migrate(store.db)).toThrow(StoreError);
  });

  it('tenant names are unique ignoring case', async () => {
    await expect(store.createTenant('A', 't')).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await store.getTenantByName('A'))?.id).toBe(a.tenantId);
    expect(await store.countTenants()).toBe(2);
  });

  it('round-trips a person with all scalars and collections, assigning ids', async () => {
    const saved = await insert(store, a, person({
      phones: [phone, { ...phone, e164: '+12024291001', phoneNumber: '2024291001' }],
      addresses: [address],
      identifiers: [{ type: 'dwid', externalId: 'AbC' }],
      customFieldValues: [{ customFieldId: 1, customFieldGroupId: 2, assignedValue: 'x' }],
      selfReported: { races: [1, 2], ethnicities: [], genders: [3], sexualOrientations: [], languagePreference: 4 },
    }));
    expect(saved.crmId).toBeGreaterThan(0);
    expect(saved.phones.map((p) => p.phoneId)).toEqual([1, 2]);
    expect(saved.addresses.map((x) => x.addressId)).toEqual([1]);
    expect(await store.getPerson(a, saved.crmId)).toEqual(saved);
    const again = await update(store, a, { ...saved, phones: [...saved.phones, { ...phone, e164: '+12024291002' }] });
    expect(again.phones.map((p) => p.phoneId)).toEqual([1, 2, 3]);
    expect(typeof (await store.getPerson(a, saved.crmId))?.scalars.yearOfBirth).toBe('number');
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
    await expect(store.updatePerson(b, { ...p, scalars: scalars({ firstName: 'Eve' }) })).rejects.toMatchObject({ code: 'NOT_FOUND' });
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
    expect(await store.listMatchKeys(a, 7, 0, 10)).toEqual([{ crmId: p1.crmId, json: '{"k":1}', organization: true }]);
    expect((await store.listPeopleWithStaleMatchKey(a, 7, 0, 10)).map((p) => p.crmId)).toEqual([p2.crmId, p3.crmId]);
    await store.putMatchKeys(a, 7, [{ crmId: p2.crmId, json: '{"k":4}' }, { crmId: other.crmId, json: 'stolen' }]);
    expect((await store.listMatchKeys(a, 7, 0, 10)).map((r) => r.json)).toEqual(['{"k":1}', '{"k":4}']);
    expect(await store.listMatchKeys(b, 7, 0, 10)).toEqual([{ crmId: other.crmId, json: '{"k":3}', organization: false }]);
    await update(store, a, p1);
    expect((await store.listPeopleWithStaleMatchKey(a, 7, 0, 10)).map((p) => p.crmId)).toEqual([p1.crmId, p3.crmId]);
  });

  it('pages people by crmId', async () => {
    for (let i = 0; i < 7; i++) await insert(store, i % 2 === 0 ? a : b, person());
    const page1 = await store.listPeople(a, 0, 3);
    const page2 = await store.listPeople(a, page1[2]?.crmId ?? 0, 3);
    expect(page1.length + page2.length).toBe(4);
    expect([...page1, ...page2].map((p) => p.crmId)).toEqual([...page1, ...page2].map((p) => p.crmId).sort((x, y) => x - y));
  });

  it('stores keys by hash and revokes them once', async () => {
    const k = await store.insertKey({ tenantId: a.tenantId, hash: 'h1', prefix: 'abcd1234', tier: 'Custom', contexts: ['voterfile'], defaultContext: 'voterfile', createdAt: 't' });
    expect(await store.getKeyByHash('h1')).toMatchObject({ id: k.id, tenantName: 'a', contexts: ['voterfile'], revokedAt: null });
    expect(await store.revokeKeys([k.id], 'r')).toBe(1);
    expect(await store.revokeKeys([k.id], 'r2')).toBe(0);
    expect((await store.getKeyByHash('h1'))?.revokedAt).toBe('r');
    await expect(store.insertKey({ tenantId: 999, hash: 'h2', prefix: 'p', tier: 'Custom', contexts: ['voterfile'], defaultContext: 'voterfile', createdAt: 't' })).rejects.toBeInstanceOf(StoreError);
  });

  it('versions settings per tenant and context', async () => {
    expect(await store.getSettings(a)).toBeNull();
    expect(await store.putSettings(a, '{"x":1}', 't1')).toBe(1);
    expect(await store.putSettings(a, '{"x":2}', 't2')).toBe(2);
    expect(await store.getSettings(a)).toEqual({ version: 2, json: '{"x":2}', updatedAt: 't2' });
    expect(await store.getSettings({ ...a, context: 'campaign' })).toBeNull();
    expect(await store.getSettings(b)).toBeNull();
  });
});

describe('SqliteStore on a file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'matchbook-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('uses WAL and synchronous FULL, and keeps data across close and open', async () => {
    const path = join(dir, 'db.sqlite');
    const s1 = await SqliteStore.open({ path });
    expect(s1.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(s1.db.pragma('synchronous', { simple: true })).toBe(2);
    const t = await s1.createTenant('t', 'x');
    const p = await insert(s1, { tenantId: t.id, context: 'campaign' }, person());
    await s1.close();
    const s2 = await SqliteStore.open({ path });
    expect((await s2.getPerson({ tenantId: t.id, context: 'campaign' }, p.crmId))?.scalars.lastName).toBe('Lovelace');
    await s2.close();
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

  it('changeCounter changes after another connection commits, not after this one\'s own commits', async () => {
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

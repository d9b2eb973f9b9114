/**
 * Database retrieval (src/crm/db-retrieval.ts) decides as the in-memory index: a seeded
 * property builds both on the same people (inserted and updated in the same order) and checks
 * every find's whole answer (and findOrCreate's, explained only when Possible); then the Crm
 * in `index: 'database'` mode end to end on PostgreSQL.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crm, type CallContext } from '../../src/crm/index.js';
import { DatabaseRetrieval } from '../../src/crm/db-retrieval.js';
import { newScopeIndex } from '../../src/crm/scope-index.js';
import { encodeNormalization } from '../../src/crm/stored-normalization.js';
import type { ContactInput, NormalizedContact } from '../../src/engine/index.js';
import { PgStore, type PersonRecord, type Scope } from '../../src/store/index.js';
import { HAVE_POSTGRES, startPostgres, type PgServer } from '../services.js';
import { person } from '../store/store-contract.js';

const FIRST = ['Ann', 'Anna', 'Bob', 'Robert', 'Jon', 'John', 'Maria', 'Mario'];
const LAST = ['Lee', 'Li', 'Smith', 'Smyth', 'Perez', 'Garcia'];
const DOB = ['1970-01-02', '1970-02-01', '1985-06-15', '1985-06-16'];
const ZIP = ['20500', '20501', '60601'];
const EMAIL = ['a@x.org', 'b@x.org', 'c@y.org'];
const PHONE = ['+12025550143', '+12025550144'];
const IDS = ['A1', 'a1 ', 'B2'];
const opt = <T>(values: readonly T[]) => fc.option(fc.constantFrom(...values), { nil: null });

const contact: fc.Arbitrary<ContactInput> = fc.record({
  firstName: opt(FIRST),
  lastName: opt(LAST),
  dateOfBirth: opt(DOB),
  emails: fc.subarray(EMAIL, { maxLength: 1 }),
  phones: fc.subarray(PHONE, { maxLength: 1 }),
  addresses: fc.option(
    fc.record({ n: fc.constantFrom('12', '14'), zip: fc.constantFrom(...ZIP) }).map((a) => [{ addressLine1: `${a.n} Main Street`, zipOrPostalCode: a.zip }]),
    { nil: [] },
  ),
  identifiers: fc.option(
    fc.constantFrom(...IDS).map((id) => [{ type: 'dwid', externalId: id }]),
    { nil: [] },
  ),
});

/** Small limits, so that a few dozen people make common keys, count filtering and the candidate cap matter. */
const LIMITS = { maxBlockSize: 2, selectiveBlockSize: 1, maxCandidates: 3 };

let server: PgServer | null = null;

describe.skipIf(!HAVE_POSTGRES)('database retrieval', () => {
  let url: string;
  let store: PgStore;
  beforeAll(async () => {
    server = await startPostgres();
    url = await server.createDatabase();
    store = await PgStore.open({ url });
  });
  afterAll(async () => {
    // Unset when beforeAll failed first (afterAll still runs).
    await (store as PgStore | undefined)?.close();
    server?.stop();
  });

  it('every find answers as the in-memory index over the same people (inserts and updates in the same order)', async () => {
    let run = 0;
    const write = fc.oneof(
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('insert' as const), c: contact }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('update' as const), at: fc.nat(), c: contact }) },
    );
    // Names with a date of birth or a zip only: every key can be common (the exact sizes decide).
    const namesOnly: fc.Arbitrary<ContactInput> = fc.record({
      firstName: fc.constantFrom(...FIRST),
      lastName: fc.constantFrom(...LAST),
      dateOfBirth: opt(DOB),
      addresses: fc.option(
        fc.constantFrom(...ZIP).map((zip) => [{ zipOrPostalCode: zip }]),
        { nil: [] },
      ),
    });
    const query = fc.record({ c: fc.oneof(contact, namesOnly), strict: fc.boolean(), id: fc.option(fc.nat({ max: 40 }), { nil: undefined }) });
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 50 }), fc.array(query, { minLength: 1, maxLength: 10 }), async (writes, queries) => {
        const scope: Scope = { tenantId: (await store.createTenant(`run${run++}`, 't')).id, context: 'voterfile' };
        const memory = newScopeIndex('US', LIMITS);
        const retrieval = new DatabaseRetrieval(scope, store.matchKeys, 'US', { ...LIMITS, cache: { size: 0 } });
        const stored: PersonRecord[] = [];
        const save = async (c: ContactInput, existing: PersonRecord | null): Promise<void> => {
          const n: NormalizedContact = retrieval.normalize(c);
          const record = { ...(existing ?? person()), identifiers: (c.identifiers ?? []).map((i) => ({ type: i.type, externalId: i.externalId })) };
          const normalization = { fingerprint: retrieval.fingerprint, json: encodeNormalization(n), keys: retrieval.keysOf(n) };
          const applied = await store.writeScope(scope, (w) =>
            existing === null ? w.insertPerson(record, normalization) : w.updatePerson(record, normalization),
          );
          await applied.durable;
          if (existing === null) stored.push(applied.value);
          memory.upsertNormalized(applied.value.crmId, n);
        };
        for (const w of writes) {
          const existing = w.kind === 'update' && stored.length > 0 ? (stored[w.at % stored.length] as PersonRecord) : null;
          await save(w.c, existing);
        }
        const getPerson = (crmId: number) => store.getPerson(scope, crmId);
        for (const q of queries) {
          const n = memory.normalize(q.c);
          const options: { strict: boolean; id?: number } = { strict: q.strict };
          if (q.id !== undefined) options.id = q.id < stored.length ? (stored[q.id] as PersonRecord).crmId : 999_999_999;
          const expected = memory.findNormalized(n, { ...options, explain: true });
          const { result } = await retrieval.find(n, { ...options, explain: true }, null, getPerson);
          expect(result).toEqual(expected);
          expect((await retrieval.find(n, options, null, getPerson)).result).toEqual(memory.findNormalized(n, options));
          // findOrCreate's 'possible': only a Possible carries its explanation (match-explanation.ts).
          const possible = (await retrieval.find(n, { ...options, explain: 'possible' }, null, getPerson)).result;
          expect(possible).toEqual(expected.decision === 'Possible' ? expected : memory.findNormalized(n, options));
        }
      }),
      { numRuns: 40 },
    );
  }, 600_000);

  it('the cache of hot keys answers within its TTL (injected clock), and a write of this process drops what it makes stale', async () => {
    const scope: Scope = { tenantId: (await store.createTenant('cache', 't')).id, context: 'voterfile' };
    let now = 0;
    const retrieval = new DatabaseRetrieval(scope, store.matchKeys, 'US', { ...LIMITS, cache: { size: 10, ttlMs: 1000, clock: () => now } });
    const memory = newScopeIndex('US', LIMITS);
    const ann: ContactInput = {
      firstName: 'Ann',
      lastName: 'Lee',
      dateOfBirth: '1970-01-02',
      addresses: [{ addressLine1: '12 Main Street', zipOrPostalCode: '20500' }],
    };
    const save = async (c: ContactInput): Promise<number> => {
      const n = retrieval.normalize(c);
      const keys = retrieval.keysOf(n);
      const applied = await store.writeScope(scope, (w) =>
        w.insertPerson(person(), { fingerprint: retrieval.fingerprint, json: encodeNormalization(n), keys }),
      );
      await applied.durable;
      memory.upsertNormalized(applied.value.crmId, n);
      return applied.value.crmId;
    };
    for (let i = 0; i < 4; i++) await save({ ...ann, emails: [`ann${i}@x.org`] });
    const q = retrieval.normalize(ann);
    const find = async () => (await retrieval.find(q, { strict: false }, null, (id) => store.getPerson(scope, id))).result;
    expect(await find()).toEqual(memory.findNormalized(q, { strict: false }));
    expect(retrieval.cache.keys).toBeGreaterThan(0);
    // Another process files a fifth Ann (no drop here): the cached keys still answer, until the TTL.
    const other = new DatabaseRetrieval(scope, store.matchKeys, 'US', LIMITS);
    const n5 = other.normalize({ ...ann, emails: ['ann5@x.org'] });
    const fifth = await store.writeScope(scope, (w) =>
      w.insertPerson(person(), { fingerprint: other.fingerprint, json: encodeNormalization(n5), keys: other.keysOf(n5) }),
    );
    await fifth.durable;
    memory.upsertNormalized(fifth.value.crmId, n5);
    const stale = await find();
    now += 1001;
    expect(await find()).toEqual(memory.findNormalized(q, { strict: false }));
    expect(stale.candidates).toBeLessThanOrEqual((await find()).candidates);
    // This process's write drops the keys it is filed under: the next find sees it at once.
    const sixth = await save({ ...ann, emails: ['ann6@x.org'] });
    retrieval.written(sixth, retrieval.keysOf(retrieval.normalize({ ...ann, emails: ['ann6@x.org'] })));
    expect(await find()).toEqual(memory.findNormalized(q, { strict: false }));
  });

  it('Crm with index "database": nothing loaded at start, keys built once for people written before, two processes see each other\'s writes', async () => {
    const db = await (server as PgServer).createDatabase();
    const before = await Crm.open({ db });
    const tenant = await before.createTenant('big');
    const ctx: CallContext = { tenantId: tenant.id, context: 'voterfile' };
    const ada = { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '1955-12-10', emails: [{ email: 'ada@example.org' }] };
    const created = await before.findOrCreate(ctx, ada);
    expect(created.status).toBe('UnmatchedStored');
    await before.close();

    const p1 = await Crm.open({ db, index: 'database' });
    const p2 = await Crm.open({ db, index: 'database' });
    try {
      expect(p1.indexSizes().every((s) => s.people === 0)).toBe(true);
      expect(await p1.find(ctx, ada)).toMatchObject({ status: 'Matched', crmId: created.crmId });
      const grace = { firstName: 'Grace', lastName: 'Hopper', dateOfBirth: '1966-12-09', emails: [{ email: 'grace@example.org' }] };
      const g = await p2.findOrCreate(ctx, grace);
      expect(g.status).toBe('UnmatchedStored');
      expect(await p1.findOrCreate(ctx, { ...grace, phones: [{ phoneNumber: '2025550143' }] })).toMatchObject({
        status: 'Matched',
        crmId: g.crmId,
        updated: true,
      });
      expect(await p2.find(ctx, { ...grace, emails: [], phones: [{ phoneNumber: '202-555-0143' }] })).toMatchObject({ status: 'Matched', crmId: g.crmId });
      expect(await p2.find({ ...ctx, context: 'campaign' }, grace)).toMatchObject({ status: 'Unmatched' });
    } finally {
      await p1.close();
      await p2.close();
    }
    await expect(Crm.open({ db: ':memory:', index: 'database' })).rejects.toThrow('needs a PostgreSQL store');
  });
});

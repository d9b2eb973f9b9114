/**
 * The review queue endpoints (src/server/routes/possible-matches.ts) in-process against the real
 * Crm: listing and paging, tenant and context isolation, errors in the envelope, merge then GET
 * of the old id reaching the survivor (a seeded property), audit entries, rate category.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, createTenantWithKey, envelopeOf, openTestServer, pathOf, type TestServer } from './helpers.js';

let t: TestServer;
let key: string;
let otherKey: string;
let tenants = 0;

const KATHERINE = { firstName: 'Katherine', lastName: 'Johnson', phones: [{ phoneNumber: '2024291000' }], emails: [{ email: 'kj@example.org' }] };
const near = (digit: number) => ({ firstName: 'Katherine', lastName: 'Johnson', phones: [{ phoneNumber: `202429100${digit}` }] });

beforeAll(async () => {
  t = await openTestServer();
  key = await createTenantWithKey(t.crm, 'acme', { contexts: ['voterfile', 'campaign'], defaultContext: 'campaign' });
  otherKey = await createTenantWithKey(t.crm, 'globex', { contexts: ['voterfile', 'campaign'], defaultContext: 'campaign' });
});
afterAll(async () => t.close());

const post = (url: string, body: unknown, secret = key) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { authorization: basic('apiuser', secret), 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
const get = (url: string, secret = key) => t.app.inject({ method: 'GET', url, headers: { apiKey: secret } });

function expectError(res: Awaited<ReturnType<typeof get>>, status: number, code: string, property?: string) {
  expect(res.statusCode, res.body).toBe(status);
  const envelope = envelopeOf(res);
  expect(envelope, res.body).not.toBeNull();
  expect(envelope?.errors[0]?.code).toBe(code);
  if (property !== undefined) expect(envelope?.errors[0]?.properties).toEqual([property]);
}

interface Item {
  possibleMatchId: number;
  status: string;
  crmId: number;
  candidateCrmId: number;
  person: { crmId: number } | null;
  candidate: { crmId: number } | null;
  explanation: { reason: string };
}
type Page = { items: Item[]; count: number; nextPageLink: string | null };

describe('GET /possibleMatches', () => {
  let older: number;
  const created: number[] = [];

  beforeAll(async () => {
    older = (await post('/v4/people/findOrCreate', KATHERINE)).json<{ crmId: number }>().crmId;
    for (const digit of [1, 2, 3]) {
      const res = await post('/v4/people/findOrCreate', near(digit));
      expect(res.statusCode).toBe(201);
      created.push(res.json<{ crmId: number }>().crmId);
    }
  });

  it('lists the pairs newest first with both people and the explanation, paged with $top/$skip and nextPageLink', async () => {
    const all = await get('/v4/possibleMatches?$expand=phones');
    expect(all.statusCode, all.body).toBe(200);
    const page = all.json<Page>();
    expect(page.count).toBe(3);
    expect(page.nextPageLink).toBeNull();
    expect(page.items.map((i) => i.crmId)).toEqual([...created].reverse());
    for (const item of page.items) {
      expect(item).toMatchObject({ status: 'open', person: { crmId: item.crmId, phones: [expect.any(Object)] }, explanation: { reason: 'below-threshold' } });
      expect([older, ...created]).toContain(item.candidateCrmId);
      expect(item.candidate?.crmId).toBe(item.candidateCrmId);
    }
    const first = await get('/v4/possibleMatches?$top=2');
    const body = first.json<Page>();
    expect(body.items).toHaveLength(2);
    expect(body.count).toBe(3);
    expect(body.nextPageLink).toMatch(/^http:\/\/[^/]+\/v4\/possibleMatches\?\$top=2&\$skip=2$/);
    const second = (await get(pathOf(body.nextPageLink))).json<Page>();
    expect(second.items.map((i) => i.crmId)).toEqual([created[0]]);
    expect(second.nextPageLink).toBeNull();
  });

  it('another tenant, or the other context of the same tenant, sees none of them and reaches none', async () => {
    const id = (await get('/v4/possibleMatches')).json<Page>().items[0]!.possibleMatchId;
    for (const secret of [otherKey, `${key}|0`]) {
      expect((await get('/v4/possibleMatches', secret)).json<Page>()).toEqual({ items: [], count: 0, nextPageLink: null });
      expectError(await get(`/v4/possibleMatches/${id}`, secret), 404, 'NOT_FOUND');
      expectError(await post(`/v4/possibleMatches/${id}`, { decision: 'same' }, secret), 404, 'NOT_FOUND');
    }
    expect((await get(`/v2/possibleMatches/${id}`)).statusCode).toBe(200);
  });

  it('errors name the field, in the envelope', async () => {
    const id = (await get('/v4/possibleMatches')).json<Page>().items[0]!.possibleMatchId;
    expectError(await get('/v4/possibleMatches?status=pending'), 400, 'INVALID_PARAMETER', 'status');
    expectError(await get('/v4/possibleMatches?$top=0'), 400, 'INVALID_PARAMETER', '$top');
    expectError(await get('/v4/possibleMatches?$expand=nope'), 400, 'INVALID_PARAMETER', '$expand');
    expectError(await post(`/v4/possibleMatches/${id}`, { decision: 'maybe' }), 400, 'INVALID_PARAMETER', 'decision');
    expectError(await post(`/v4/possibleMatches/${id}`, {}), 400, 'INVALID_PARAMETER', 'decision');
    expectError(await t.app.inject({ method: 'POST', url: `/v4/possibleMatches/${id}`, headers: { apiKey: key } }), 400, 'BAD_REQUEST', 'decision');
    for (const bad of ['999999', 'abc', '0', '-1']) {
      expectError(await get(`/v4/possibleMatches/${bad}`), 404, 'NOT_FOUND');
      expectError(await post(`/v4/possibleMatches/${bad}`, { decision: 'same' }), 404, 'NOT_FOUND');
    }
    expectError(await t.app.inject({ method: 'GET', url: '/v4/possibleMatches' }), 401, 'UNAUTHORIZED');
  });

  it('different is remembered and shown with its audit entry; deciding otherwise later is a 409', async () => {
    const item = (await get('/v4/possibleMatches')).json<Page>().items[0]!;
    const res = await post(`/v4/possibleMatches/${item.possibleMatchId}`, { decision: 'different' });
    expect(res.statusCode, res.body).toBe(200);
    const keyId = (await t.crm.authenticate(key))?.keyId;
    expect(res.json()).toMatchObject({ status: 'different', decidedByKeyId: keyId, audit: [{ action: 'different', keyId }] });
    expect((await get(`/v4/possibleMatches/${item.possibleMatchId}`)).json()).toMatchObject({ status: 'different', audit: [{ action: 'different' }] });
    expect((await get('/v4/possibleMatches?status=different')).json<Page>().count).toBe(1);
    expect((await get('/v4/possibleMatches')).json<Page>().count).toBe(2);
    expect((await get('/v4/possibleMatches?status=all')).json<Page>().count).toBe(3);
    // nextPageLink keeps the filter and $expand on every page.
    const first = (await get('/v4/possibleMatches?status=different&$top=1&$expand=phones')).json<Page>();
    expect(first).toMatchObject({ count: 1, nextPageLink: null, items: [{ possibleMatchId: item.possibleMatchId }] });
    const all = (await get('/v4/possibleMatches?status=all&$top=2&$expand=phones')).json<Page>();
    expect(all.items.map((i) => i.status)).toEqual(['different', 'open']);
    expect(all.nextPageLink).toMatch(/\/v4\/possibleMatches\?\$top=2&\$skip=2&status=all&\$expand=phones$/);
    const rest = (await get(pathOf(all.nextPageLink))).json<Page>();
    expect(rest).toMatchObject({ count: 3, nextPageLink: null, items: [{ status: 'open', person: { phones: [expect.any(Object)] } }] });
    expectError(await post(`/v4/possibleMatches/${item.possibleMatchId}`, { decision: 'same' }), 409, 'CONFLICT', 'decision');
  });

  it('is in the Medium rate category', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{ paths: Record<string, Record<string, { 'x-rate-category'?: string }>> }>();
    expect(doc.paths['/possibleMatches']?.['get']?.['x-rate-category']).toBe('Medium');
    expect(doc.paths['/possibleMatches/{id}']?.['get']?.['x-rate-category']).toBe('Medium');
    expect(doc.paths['/possibleMatches/{id}']?.['post']?.['x-rate-category']).toBe('Medium');
    await t.crm.createTenant('standard-co');
    const standard = (await t.crm.createKey({ tenant: 'standard-co', tier: 'Standard' })).key;
    expect((await get('/v4/possibleMatches', standard)).headers['ratelimit-limit']).toBe('10');
  });
});

describe('merge then GET of the old id reaches the survivor', () => {
  const names = fc.constantFrom(
    ['Katherine', 'Johnson'],
    ['Dorothy', 'Vaughan'],
    ['Mary', 'Jackson'],
    ['Grace', 'Hopper'],
    ['Alan', 'Turing'],
    ['Ada', 'Lovelace'],
  );
  const phone = fc.record({
    area: fc.constantFrom('202', '414', '516', '312', '617'),
    exchange: fc.integer({ min: 200, max: 999 }),
    line: fc.integer({ min: 0, max: 999 }),
    last: fc.integer({ min: 0, max: 8 }),
  });

  it('for any pair: POST same, then GET /people/{newer} is a 302 to the older, which holds both phones and the history', async () => {
    await fc.assert(
      fc.asyncProperty(names, phone, fc.boolean(), async ([firstName, lastName], p, viaV2) => {
        const secret = await createTenantWithKey(t.crm, `merge-${++tenants}`);
        const base = `${p.area}${p.exchange}${String(p.line).padStart(3, '0')}`;
        const older = await post(
          '/v4/people/findOrCreate',
          { firstName, lastName, phones: [{ phoneNumber: `${base}${p.last}` }], emails: [{ email: `${firstName}.${tenants}@example.org`.toLowerCase() }] },
          secret,
        );
        const newer = await post('/v4/people/findOrCreate', { firstName, lastName, phones: [{ phoneNumber: `${base}${p.last + 1}` }] }, secret);
        expect(newer.statusCode).toBe(201);
        const [olderId, newerId] = [older.json<{ crmId: number }>().crmId, newer.json<{ crmId: number }>().crmId];
        const queue = (await get('/v4/possibleMatches', secret)).json<Page>();
        expect(queue.items.map((i) => [i.crmId, i.candidateCrmId])).toEqual([[newerId, olderId]]);
        const prefix = viaV2 ? '/v2' : '/v4';
        expect((await post(`${prefix}/possibleMatches/${queue.items[0]!.possibleMatchId}`, { decision: 'same' }, secret)).statusCode).toBe(200);
        const moved = await get(`${prefix}/people/${newerId}?$expand=phones`, secret);
        expect(moved.statusCode).toBe(302);
        expect(pathOf(moved.headers['location'])).toBe(`${prefix}/people/${olderId}?$expand=phones`);
        const survivor = await get(pathOf(moved.headers['location']), secret);
        expect(survivor.statusCode).toBe(200);
        const body = survivor.json<{ crmId: number; phones: { phoneNumber: string }[] }>();
        expect(body.crmId).toBe(olderId);
        expect(body.phones.map((x) => x.phoneNumber).sort()).toEqual([`${base}${p.last}`, `${base}${p.last + 1}`]);
        const history = await get(`${prefix}/people/${newerId}/canvassResponses`, secret);
        expect(history.statusCode).toBe(302);
        expect(pathOf(history.headers['location'])).toBe(`${prefix}/people/${olderId}/canvassResponses`);
        // Another tenant's key does not learn of the merge.
        expectError(await get(`${prefix}/people/${newerId}`, otherKey), 404, 'NOT_FOUND');
      }),
      { numRuns: 12 },
    );
  });
});

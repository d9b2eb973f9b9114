/**
 * Every people endpoint, status code and error, in-process (app.inject) against the real Crm.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPANDABLE } from '../../src/crm/index.js';
import { basic, createTenantWithKey, envelopeOf, openTestServer, pathOf, type TestServer } from './helpers.js';

let t: TestServer;
let key: string;
let otherKey: string;
let voterOnlyKey: string;

const ada = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  emails: [{ email: 'ada@example.org' }],
  phones: [{ phoneNumber: '2024291000' }],
  addresses: [{ addressLine1: '12 Analytical Way', zipOrPostalCode: '20009', city: 'Washington', stateOrProvince: 'DC' }],
  identifiers: [{ type: 'dwid', externalId: 'AbC-123/x' }],
  dateOfBirth: '1975-09-18',
};

beforeAll(async () => {
  t = await openTestServer();
  key = await createTenantWithKey(t.crm, 'acme', { contexts: ['voterfile', 'campaign'], defaultContext: 'campaign' });
  otherKey = await createTenantWithKey(t.crm, 'globex', { contexts: ['voterfile', 'campaign'], defaultContext: 'campaign' });
  await t.crm.createTenant('initech');
  voterOnlyKey = (await t.crm.createKey({ tenant: 'initech', tier: 'Internal', contexts: ['voterfile'], defaultContext: 'voterfile' })).key;
});
afterAll(async () => {
  await t.close();
});

const post = (url: string, body: unknown, secret = key) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { authorization: basic('apiuser', secret), 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
const get = (url: string, secret = key) => t.app.inject({ method: 'GET', url, headers: { apiKey: secret } });

function expectError(res: Awaited<ReturnType<typeof get>>, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  const envelope = envelopeOf(res);
  expect(envelope, res.body).not.toBeNull();
  expect(envelope?.errors[0]?.code).toBe(code);
  return envelope!;
}

describe('POST /people/findOrCreate, /people/find, /contacts/findOrCreate', () => {
  let adaId: number;

  it('findOrCreate without a match: 201 UnmatchedStored with an absolute same-origin Location', async () => {
    const res = await post('/v4/people/findOrCreate', ada);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<{ crmId: number; status: string }>();
    expect(body.status).toBe('UnmatchedStored');
    expect(typeof body.crmId).toBe('number');
    adaId = body.crmId;
    expect(res.headers['location']).toBe(`http://localhost:80/v4/people/${adaId}`);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('findOrCreate with a match: 302 Matched to the same record, Location under the prefix used', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/people/findOrCreate',
      headers: { apiKey: key, host: 'crm.example.org', 'content-type': 'application/json' },
      payload: { firstName: 'ada', lastName: 'LOVELACE', emails: [{ email: 'ADA@example.org' }] },
    });
    expect(res.statusCode, res.body).toBe(302);
    expect(res.json()).toMatchObject({ crmId: adaId, status: 'Matched' });
    expect(res.headers['location']).toBe(`http://crm.example.org/v2/people/${adaId}`);
  });

  it('find with a match: 302 Matched with Location', async () => {
    const res = await post('/v2/people/find', { emails: [{ email: 'ada@example.org' }] });
    expect(res.statusCode, res.body).toBe(302);
    expect(res.json()).toMatchObject({ crmId: adaId, status: 'Matched' });
    expect(pathOf(res.headers['location'])).toBe(`/v2/people/${adaId}`);
  });

  it('find without a match: 404 Match Response (not the envelope) with a reason in body and header', async () => {
    const res = await post('/v4/people/find', { firstName: 'Grace', lastName: 'Hopper', emails: [{ email: 'grace@example.org' }] });
    expect(res.statusCode).toBe(404);
    const body = res.json<{ crmId: null; status: string; reason?: string }>();
    expect(body).toMatchObject({ crmId: null, status: 'Unmatched' });
    expect(typeof body.reason).toBe('string');
    expect(res.headers['x-match-reason']).toBe(body.reason);
    expect(res.headers['location']).toBeUndefined();
  });

  it('find below the minimum: 404 Unmatched (never 400) and the reason differs from "no candidate"', async () => {
    const noCandidate = (await post('/v4/people/find', { firstName: 'Grace', lastName: 'Hopper', emails: [{ email: 'grace@example.org' }] })).json<{
      reason: string;
    }>();
    const res = await post('/v4/people/find', { firstName: 'Ada' });
    expect(res.statusCode).toBe(404);
    const body = res.json<{ crmId: null; status: string; reason: string }>();
    expect(body).toMatchObject({ crmId: null, status: 'Unmatched' });
    expect(body.reason).not.toBe(noCandidate.reason);
    expect(res.headers['x-match-reason']).toBe(body.reason);
  });

  it('findOrCreate below the minimum always creates, and says why', async () => {
    const a = await post('/v4/people/findOrCreate', { firstName: 'Solo' });
    const b = await post('/v4/people/findOrCreate', { firstName: 'Solo' });
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(a.json<{ crmId: number }>().crmId).not.toBe(b.json<{ crmId: number }>().crmId);
    expect(typeof a.json<{ reason?: string }>().reason).toBe('string');
    expect(a.headers['x-match-reason']).toBe(a.json<{ reason?: string }>().reason);
  });

  it('contacts/findOrCreate has the same semantics', async () => {
    const created = await post('/v4/contacts/findOrCreate', { firstName: 'Katherine', lastName: 'Johnson', emails: [{ email: 'kj@example.org' }] });
    expect(created.statusCode, created.body).toBe(201);
    const crmId = created.json<{ crmId: number }>().crmId;
    expect(pathOf(created.headers['location'])).toBe(`/v4/people/${crmId}`);
    const again = await post('/v2/contacts/findOrCreate', { firstName: 'Katherine', lastName: 'Johnson', emails: [{ email: 'kj@example.org' }] });
    expect(again.statusCode).toBe(302);
    expect(again.json()).toMatchObject({ crmId, status: 'Matched' });
  });

  it('invalid input: 400 INVALID_PARAMETER naming every bad property by its path', async () => {
    const res = await post('/v4/people/findOrCreate', {
      firstName: 'x'.repeat(76),
      emails: [{ email: 'ada@example.org' }, { email: 'not an email' }],
      phones: [{ phoneNumber: '2024291000', ext: 'abcdefgh' }],
      dateOfBirth: '1812-01-01',
    });
    const envelope = expectError(res, 400, 'INVALID_PARAMETER');
    const props = envelope.errors.flatMap((e) => e.properties ?? []);
    expect(props).toEqual(expect.arrayContaining(['firstName', 'emails[1].email', 'phones[0].ext', 'dateOfBirth']));
    for (const e of envelope.errors) expect(e.text.length).toBeGreaterThan(5);
  });

  it('a body that is not an object: 4xx envelope', async () => {
    for (const body of [[], 'text', 42, null, true]) {
      const res = await post('/v4/people/find', body);
      expect(res.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(envelopeOf(res), res.body).not.toBeNull();
    }
  });
});

describe('GET /people/{crmId} and /people/{personIdType}:{personId}', () => {
  let adaId: number;
  beforeAll(async () => {
    adaId = (await post('/v4/people/findOrCreate', ada)).json<{ crmId: number }>().crmId;
  });

  it('returns the Person, on both prefixes', async () => {
    for (const prefix of ['/v2', '/v4']) {
      const res = await get(`${prefix}/people/${adaId}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.json()).toMatchObject({ crmId: adaId, firstName: 'Ada', lastName: 'Lovelace' });
    }
  });

  it('accepts every $expand value at once (any case, repeated key); collections not expanded are null', async () => {
    const plain = (await get(`/v4/people/${adaId}`)).json<Record<string, unknown>>();
    expect(plain['phones']).toBeNull();
    const res = await get(`/v4/people/${adaId}?$expand=${EXPANDABLE.join(',')}`);
    expect(res.statusCode, res.body).toBe(200);
    const person = res.json<Record<string, unknown>>();
    expect(Array.isArray(person['phones'])).toBe(true);
    expect(Array.isArray(person['emails'])).toBe(true);
    const mixed = await get(`/v4/people/${adaId}?$expand=PHONES,Emails&$expand=addresses`);
    expect(mixed.statusCode).toBe(200);
    expect(Array.isArray(mixed.json<Record<string, unknown>>()['addresses'])).toBe(true);
  });

  it('an unknown $expand value: 400 INVALID_PARAMETER on $expand with a hint listing the valid ones', async () => {
    const envelope = expectError(await get(`/v4/people/${adaId}?$expand=phones,bogus`), 400, 'INVALID_PARAMETER');
    expect(envelope.errors[0]?.properties).toEqual(['$expand']);
    for (const name of EXPANDABLE) expect(envelope.errors[0]?.hint).toContain(name);
  });

  it('by external id: type case-insensitive, id URL-decoded and case-insensitive', async () => {
    for (const ref of ['dwid:AbC-123%2Fx', 'DWID:abc-123%2FX', 'Dwid%3AABC-123%2Fx']) {
      const res = await get(`/v4/people/${ref}`);
      expect(res.statusCode, `${ref}: ${res.body}`).toBe(200);
      expect(res.json()).toMatchObject({ crmId: adaId });
    }
  });

  it('unknown ids: 404 envelope with the contract text', async () => {
    for (const ref of ['999999', 'dwid:nope', 'nosuchtype:1', 'abc', '0']) {
      const envelope = expectError(await get(`/v4/people/${ref}`), 404, 'NOT_FOUND');
      expect(envelope.errors[0]?.text).toBe('The specified resource cannot be found.');
    }
  });

  it("another tenant's or another context's record: 404 envelope", async () => {
    expectError(await get(`/v4/people/${adaId}`, otherKey), 404, 'NOT_FOUND');
    expectError(await get(`/v4/people/dwid:AbC-123%2Fx`, otherKey), 404, 'NOT_FOUND');
    expectError(await get(`/v4/people/${adaId}`, `${key}|0`), 404, 'NOT_FOUND');
    expect((await get(`/v4/people/${adaId}`, `${key}|1`)).statusCode).toBe(200);
  });
});

describe('authentication against real keys', () => {
  it('a context the key lacks: 401 Invalid Database Mode', async () => {
    const envelope = expectError(await get('/v4/people/1', `${voterOnlyKey}|1`), 401, 'UNAUTHORIZED');
    expect(envelope.errors[0]?.text).toBe('Invalid Database Mode');
    expect((await get('/v4/people/1', `${voterOnlyKey}|0`)).statusCode).toBe(404);
  });

  it('missing, unknown and revoked keys: 401 envelope', async () => {
    expectError(await t.app.inject({ method: 'POST', url: '/v4/people/find', payload: {} }), 401, 'UNAUTHORIZED');
    expectError(await get('/v4/people/1', '6ba7b810-9dad-11d1-80b4-00c04fd430c8'), 401, 'UNAUTHORIZED');
    await t.crm.createTenant('revoked-co');
    const created = await t.crm.createKey({ tenant: 'revoked-co', tier: 'Internal' });
    expect((await get('/v4/people/1', created.key)).statusCode).toBe(404);
    expect(await t.crm.revokeKey(String(created.id))).toBe(true);
    expectError(await get('/v4/people/1', created.key), 401, 'UNAUTHORIZED');
  });
});

describe('a Possible or below-threshold answer names the record it was near', () => {
  const katherine = { firstName: 'Katherine', lastName: 'Johnson', phones: [{ phoneNumber: '2024291000' }], emails: [{ email: 'kj@example.org' }] };
  // Same names, a phone one digit off: the engine scores the stored record below the match threshold.
  const near = { firstName: 'Katherine', lastName: 'Johnson', phones: [{ phoneNumber: '2024291001' }] };

  it('find: 404 Unmatched below-threshold with nearest {crmId, vanId, score}; findOrCreate: 201 with it too', async () => {
    const created = await post('/v4/people/findOrCreate', katherine, otherKey);
    const id = created.json<{ crmId: number }>().crmId;
    const found = await post('/v4/people/find', near, otherKey);
    expect(found.statusCode).toBe(404);
    const body = found.json<{ status: string; reason: string; nearest: { crmId: number; vanId: number; score: number } }>();
    expect(body).toMatchObject({ crmId: null, vanId: null, status: 'Unmatched', reason: 'below-threshold', nearest: { crmId: id, vanId: id } });
    expect(body.nearest.score).toBeGreaterThan(0);
    expect(body.nearest.score).toBeLessThan(18);
    const stored = await post('/v4/people/findOrCreate', near, otherKey);
    expect(stored.statusCode).toBe(201);
    expect(stored.json()).toMatchObject({ status: 'UnmatchedStored', reason: 'below-threshold', nearest: { crmId: id, vanId: id, score: body.nearest.score } });
  });

  it('no nearest on a match, on no candidates, or below the minimum', async () => {
    expect((await post('/v4/people/find', katherine, otherKey)).json()).not.toHaveProperty('nearest');
    expect((await post('/v4/people/find', { emails: [{ email: 'nobody-near@example.org' }] }, otherKey)).json()).not.toHaveProperty('nearest');
    expect((await post('/v4/people/find', { firstName: 'Katherine' }, otherKey)).json()).not.toHaveProperty('nearest');
  });

  it('another tenant never hears of the record: a nearest there is one of its own, which its key reads', async () => {
    const res = await post('/v4/people/find', near);
    const nearest = res.json<{ nearest?: { crmId: number } }>().nearest;
    if (nearest !== undefined) expect((await get(`/v4/people/${nearest.crmId}`)).statusCode).toBe(200);
    await t.crm.createTenant('umbrella');
    const fresh = (await t.crm.createKey({ tenant: 'umbrella', tier: 'Internal' })).key;
    expect((await post('/v4/people/find', near, fresh)).json()).toMatchObject({ status: 'Unmatched', reason: 'no-candidates' });
    expect((await post('/v4/people/find', near, fresh)).json()).not.toHaveProperty('nearest');
  });
});

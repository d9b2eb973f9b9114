/**
 * Replays every find / findOrCreate body captured from real clients (data/van-clients) with
 * every auth style they use and every database-mode suffix, against the real Crm.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_STYLES, SUFFIXES, createTenantWithKey, envelopeOf, openTestServer, pathOf, vanClientBody, vanClientFiles, type TestServer } from './helpers.js';

const FIND_FILES = vanClientFiles('parsons-sent-find-');
const FIND_OR_CREATE_FILES = vanClientFiles('parsons-sent-findOrCreate');

let t: TestServer;
beforeAll(async () => {
  t = await openTestServer();
});
afterAll(async () => {
  await t.close();
});

it('the captured bodies are there', () => {
  expect(FIND_FILES.length).toBeGreaterThanOrEqual(3);
  expect(FIND_OR_CREATE_FILES.length).toBeGreaterThanOrEqual(2);
});

let tenantNo = 0;
describe.each(AUTH_STYLES.flatMap((style) => SUFFIXES.map((s) => ({ style, ...s }))))('$style.name with suffix "$suffix"', ({ style, suffix, context }) => {
  let headers: Record<string, string>;
  let ownContextOnly: Record<string, string>;
  const prefix = tenantNo % 2 === 0 ? '/v4' : '/v2';

  beforeAll(async () => {
    tenantNo++;
    const key = await createTenantWithKey(t.crm, `client-${tenantNo}`, { contexts: ['voterfile', 'campaign'], defaultContext: 'campaign' });
    headers = { ...style.headers(key + suffix), 'content-type': 'application/json' };
    ownContextOnly = style.headers(key + (context === 'voterfile' ? '|1' : '|0'));
  });

  const send = (path: string, file: string) => t.app.inject({ method: 'POST', url: `${prefix}${path}`, headers, payload: JSON.stringify(vanClientBody(file)) });

  it('find before anything exists: 404 {"crmId":null,"status":"Unmatched"}', async () => {
    for (const file of FIND_FILES) {
      const res = await send('/people/find', file);
      expect(res.statusCode, `${file}: ${res.body}`).toBe(404);
      expect(res.json(), file).toMatchObject({ crmId: null, status: 'Unmatched' });
    }
  });

  it('findOrCreate: 201 then 302 to the same record, Location on our origin, GET follows', async () => {
    for (const file of FIND_OR_CREATE_FILES) {
      const created = await send('/people/findOrCreate', file);
      expect(created.statusCode, `${file}: ${created.body}`).toBe(201);
      const { crmId, status } = created.json<{ crmId: number; status: string }>();
      expect(status).toBe('UnmatchedStored');
      expect(created.headers['location']).toBe(`http://localhost:80${prefix}/people/${crmId}`);

      const again = await send('/people/findOrCreate', file);
      expect(again.statusCode, `${file} again: ${again.body}`).toBe(302);
      expect(again.json()).toMatchObject({ crmId, status: 'Matched' });

      const person = await t.app.inject({ method: 'GET', url: pathOf(again.headers['location']), headers });
      expect(person.statusCode, person.body).toBe(200);
      expect(person.json()).toMatchObject({ crmId });
      // The other context of the same tenant is a separate record set.
      const other = await t.app.inject({ method: 'GET', url: pathOf(again.headers['location']), headers: ownContextOnly });
      expect(other.statusCode).toBe(404);
    }
  });

  it('find after the records exist: 302 Matched (email-only finds the findOrCreate person)', async () => {
    const full = await send('/people/findOrCreate', 'parsons-sent-findOrCreate-request-upsert_person-full.json');
    const barack = full.json<{ crmId: number }>().crmId;
    const res = await send('/people/find', 'parsons-sent-find-request-email-only.json');
    expect(res.statusCode, res.body).toBe(302);
    expect(res.json()).toMatchObject({ crmId: barack, status: 'Matched' });
  });

  it('the find bodies sent as findOrCreate create once, then find them', async () => {
    const phoneFiles = FIND_FILES.filter((f) => f.includes('find_person'));
    const created = await send('/people/findOrCreate', phoneFiles[0]!);
    expect(created.statusCode, created.body).toBe(201);
    const crmId = created.json<{ crmId: number }>().crmId;
    for (const file of phoneFiles) {
      const res = await send('/people/find', file);
      expect(res.statusCode, `${file}: ${res.body}`).toBe(302);
      expect(res.json()).toMatchObject({ crmId, status: 'Matched' });
    }
  });
});

describe('other captured candidates', () => {
  it('the ngp_van match candidate (vanId, numeric ext, type "H") is answered without a 5xx', async () => {
    const key = await createTenantWithKey(t.crm, 'ngp-van-ruby');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v4/people/findOrCreate',
      headers: { apiKey: key, 'content-type': 'application/json' },
      payload: JSON.stringify(vanClientBody('ngp_van-ruby-match_candidate.json')),
    });
    expect([201, 302, 400]).toContain(res.statusCode);
    if (res.statusCode === 400) expect(envelopeOf(res), res.body).not.toBeNull();
  });
});

/**
 * votercrmid over HTTP (interface.md 2.5): in the campaign context (|1) an identifier
 * {type:"votercrmid", externalId:N} ties a person to voter-file record N of the same tenant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantWithKey, envelopeOf, openTestServer, pathOf, type TestServer } from './helpers.js';

let t: TestServer;
let key: string;
let otherKey: string;

beforeAll(async () => {
  t = await openTestServer();
  key = await createTenantWithKey(t.crm, 'acme', { contexts: ['voterfile', 'campaign'], defaultContext: 'campaign' });
  otherKey = await createTenantWithKey(t.crm, 'rival', { contexts: ['voterfile', 'campaign'], defaultContext: 'voterfile' });
});
afterAll(async () => t.close());

async function post(secret: string, path: string, body: unknown) {
  return t.app.inject({ method: 'POST', url: path, headers: { apiKey: secret, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
}

describe('votercrmid', () => {
  it('ties a campaign person to a voter-file record; GET /people/votercrmid:N finds that person', async () => {
    const voter = await post(`${key}|0`, '/v4/people/findOrCreate', { firstName: 'Grace', lastName: 'Hopper' });
    expect(voter.statusCode).toBe(201);
    const n = voter.json<{ crmId: number }>().crmId;
    const created = await post(`${key}|1`, '/v4/people/findOrCreate', {
      firstName: 'Grace',
      lastName: 'Hopper',
      identifiers: [{ type: 'VoterCrmId', externalId: String(n) }],
    });
    expect(created.statusCode).toBe(201);
    const campaignId = created.json<{ crmId: number }>().crmId;
    expect(campaignId).not.toBe(n);
    const byVoter = await t.app.inject({ method: 'GET', url: `/v4/people/votercrmid:${n}?$expand=externalIds`, headers: { apiKey: `${key}|1` } });
    expect(byVoter.statusCode, byVoter.body).toBe(200);
    expect(byVoter.json<{ crmId: number }>().crmId).toBe(campaignId);
    const upper = await t.app.inject({ method: 'GET', url: `/v2/people/VOTERCRMID:${n}`, headers: { apiKey: key } });
    expect(upper.json<{ crmId: number }>().crmId).toBe(campaignId);
    // Leading zeros name the same record, in every path that takes a person reference.
    const padded = await t.app.inject({ method: 'GET', url: `/v4/people/votercrmid:00${n}`, headers: { apiKey: `${key}|1` } });
    expect(padded.json<{ crmId: number }>().crmId).toBe(campaignId);
    const history = await t.app.inject({ method: 'GET', url: `/v4/people/votercrmid:00${n}/canvassResponses`, headers: { apiKey: `${key}|1` } });
    expect(history.statusCode, history.body).toBe(200);
    // find by the votercrmid matches the campaign person (302 to it).
    const found = await post(key, '/v2/people/find', { identifiers: [{ type: 'votercrmid', externalId: String(n) }] });
    expect(found.statusCode).toBe(302);
    expect(pathOf(found.headers['location'])).toBe(`/v2/people/${campaignId}`);
    // In the voter-file context the type does not exist: GET finds nobody, a body is a 400.
    const inVoterFile = await t.app.inject({ method: 'GET', url: `/v4/people/votercrmid:${n}`, headers: { apiKey: `${key}|0` } });
    expect(inVoterFile.statusCode).toBe(404);
    const bad = await post(`${key}|0`, '/v4/people/findOrCreate', {
      firstName: 'G',
      lastName: 'H',
      identifiers: [{ type: 'votercrmid', externalId: String(n) }],
    });
    expect(bad.statusCode).toBe(400);
    expect(envelopeOf(bad)?.errors[0]?.properties).toEqual(['identifiers[0].type']);
  });

  it("a votercrmid naming no voter-file record of the tenant is a 400, another tenant's included (no leak)", async () => {
    const foreign = await post(`${otherKey}|0`, '/v4/people/findOrCreate', { firstName: 'Eve', lastName: 'Spy' });
    const foreignId = foreign.json<{ crmId: number }>().crmId;
    const answers = [];
    for (const id of [String(foreignId), '987654321']) {
      for (const path of ['/v4/people/findOrCreate', '/v4/people/find', '/v4/contacts/findOrCreate']) {
        const res = await post(`${key}|1`, path, {
          firstName: 'Eve',
          lastName: 'Spy',
          identifiers: [
            { type: 'dwid', externalId: 'x' },
            { type: 'votercrmid', externalId: id },
          ],
        });
        expect(res.statusCode, `${path} ${id}: ${res.body}`).toBe(400);
        const envelope = envelopeOf(res);
        expect(envelope?.errors[0]).toMatchObject({ code: 'INVALID_PARAMETER', properties: ['identifiers[1].externalId'] });
        answers.push(res.body.replace(id, 'N'));
      }
    }
    // Same answer for the rival's record as for a missing one.
    expect(answers.slice(0, 3)).toEqual(answers.slice(3));
    const byForeign = await t.app.inject({ method: 'GET', url: `/v4/people/votercrmid:${foreignId}`, headers: { apiKey: `${key}|1` } });
    expect(byForeign.statusCode).toBe(404);
  });
});

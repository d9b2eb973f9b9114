/**
 * Unit tests of the HTTP layer alone (auth, envelope, routing, body parsing) against a
 * small fake facade. The endpoints' real behaviour is in people-endpoints.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { connect, type AddressInfo } from 'node:net';
import { buildApp } from '../../src/server/app.js';
import { CrmError } from '../../src/crm/index.js';
import { FAKE_KEY, FAKE_VOTERFILE_ONLY_KEY, FakeCrm, outcome } from './fake-crm.js';

const JSON_CT = 'application/json; charset=utf-8';
const basic = (password: string, user = 'apiuser') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

let crm: FakeCrm;
let app: FastifyInstance;

beforeAll(async () => {
  crm = new FakeCrm();
  app = buildApp({ crm });
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

interface EnvelopeBody {
  errors: { code: string; text: string; properties?: string[]; hint?: string; referenceCode?: string }[];
}

function expectEnvelope(res: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toBe(JSON_CT);
  const body = JSON.parse(res.body) as EnvelopeBody;
  expect(body.errors.length).toBeGreaterThan(0);
  expect(body.errors[0]?.code).toBe(code);
  expect(typeof body.errors[0]?.text).toBe('string');
  expect(res.body).not.toMatch(/\bat .*\.(ts|js):\d+/);
  return body;
}

describe('authentication', () => {
  const post = (headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/v4/people/find', headers: { 'content-type': 'application/json', ...headers }, payload: '{}' });

  it('accepts Basic with any username, key in any case, optional |0/|1', async () => {
    for (const user of ['apiuser', 'default', 'default_user', 'MyApp', '']) {
      for (const [suffix, context] of [
        ['', 'campaign'],
        ['|0', 'voterfile'],
        ['|1', 'campaign'],
      ] as const) {
        crm.calls = [];
        const res = await post({ authorization: basic(FAKE_KEY.toUpperCase() + suffix, user) });
        expect(res.statusCode, `${user}${suffix}`).toBe(404);
        expect(crm.calls[0]?.ctx).toEqual({ tenantId: 1, context });
      }
    }
  });

  it('accepts the apiKey header with optional suffix', async () => {
    for (const [suffix, context] of [
      ['', 'campaign'],
      ['|0', 'voterfile'],
      ['|1', 'campaign'],
    ] as const) {
      crm.calls = [];
      const res = await post({ apiKey: FAKE_KEY + suffix });
      expect(res.statusCode).toBe(404);
      expect(crm.calls[0]?.ctx.context).toBe(context);
    }
  });

  it('answers 401 envelopes for missing, malformed, unknown keys and bad modes', async () => {
    expectEnvelope(await post({}), 401, 'UNAUTHORIZED');
    expectEnvelope(await post({ authorization: basic('not-a-guid') }), 401, 'UNAUTHORIZED');
    expectEnvelope(await post({ authorization: 'Bearer ' + FAKE_KEY }), 401, 'UNAUTHORIZED');
    expectEnvelope(await post({ apiKey: '11111111-2222-3333-4444-555555555555' }), 401, 'UNAUTHORIZED');
    const badMode = expectEnvelope(await post({ apiKey: FAKE_KEY + '|2' }), 401, 'UNAUTHORIZED');
    expect(badMode.errors[0]?.text).toBe('Invalid Database Mode');
    const lacking = expectEnvelope(await post({ authorization: basic(FAKE_VOTERFILE_ONLY_KEY + '|1') }), 401, 'UNAUTHORIZED');
    expect(lacking.errors[0]?.text).toBe('Invalid Database Mode');
    const res = await post({});
    expect(res.headers['www-authenticate']).toMatch(/^Basic /);
  });

  it('checks the key before reading the body', async () => {
    const res = await app.inject({ method: 'POST', url: '/v2/people/find', headers: { 'content-type': 'application/json' }, payload: '{nope' });
    expectEnvelope(res, 401, 'UNAUTHORIZED');
  });
});

describe('routing and envelopes', () => {
  const auth = { apiKey: FAKE_KEY };

  it('404 envelope for unknown routes, with or without a key', async () => {
    for (const url of ['/', '/v4', '/v3/people/find', '/v4/nothing', '/v2/people/1/2/3']) {
      const body = expectEnvelope(await app.inject({ method: 'GET', url }), 404, 'NOT_FOUND');
      expect(body.errors[0]?.text).toBe('The specified resource cannot be found.');
      expectEnvelope(await app.inject({ method: 'GET', url, headers: auth }), 404, 'NOT_FOUND');
    }
  });

  it('405 envelope with Allow for a known path and another method', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/v4/people/find', headers: auth });
    expectEnvelope(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers['allow']).toBe('POST');
    const put = await app.inject({ method: 'PUT', url: '/v2/people/12', headers: auth });
    expectEnvelope(put, 405, 'METHOD_NOT_ALLOWED');
    expect(put.headers['allow']).toBe('GET, HEAD');
  });

  it('body-parse failures are 4xx envelopes', async () => {
    const cases: { headers: Record<string, string>; payload: string | Buffer; status: number }[] = [
      { headers: { 'content-type': 'application/json' }, payload: '{"firstName":', status: 400 },
      { headers: { 'content-type': 'application/json' }, payload: '', status: 400 },
      { headers: { 'content-type': 'text/plain' }, payload: '{}', status: 415 },
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1', status: 415 },
      { headers: { 'content-type': 'application/json; charset=latin1' }, payload: '{}', status: 415 },
      { headers: { 'content-type': 'application/json' }, payload: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), status: 400 },
      { headers: { 'content-type': 'application/json' }, payload: '['.repeat(100) + ']'.repeat(100), status: 400 },
      { headers: { 'content-type': 'application/json' }, payload: `{"a":"${'x'.repeat(1024 * 1024 + 10)}"}`, status: 413 },
    ];
    for (const c of cases) {
      const res = await app.inject({ method: 'POST', url: '/v4/people/findOrCreate', headers: { ...auth, ...c.headers }, payload: c.payload });
      expect(res.statusCode, JSON.stringify(c.headers) + String(c.payload).slice(0, 30)).toBe(c.status);
      expect(res.headers['content-type']).toBe(JSON_CT);
      expect((JSON.parse(res.body) as { errors: unknown[] }).errors.length).toBe(1);
    }
  });

  it('accepts a UTF-8 BOM and application/*+json', async () => {
    crm.next = outcome('Unmatched', null, 'below-minimum');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"firstName":"Zoë"}')]);
    const res = await app.inject({ method: 'POST', url: '/v4/people/find', headers: { ...auth, 'content-type': 'application/vnd.api+json' }, payload: bom });
    expect(res.statusCode).toBe(404);
    expect(crm.calls.at(-1)?.body).toEqual({ firstName: 'Zoë' });
  });

  it('a POST without a body is a 400 envelope', async () => {
    expectEnvelope(await app.inject({ method: 'POST', url: '/v4/people/find', headers: auth }), 400, 'BAD_REQUEST');
  });

  it('500 carries a reference code and no stack', async () => {
    crm.throwOnFind = new Error('database exploded at /secret/path.ts:12');
    const res = await app.inject({ method: 'POST', url: '/v4/people/find', headers: auth, payload: {} });
    crm.throwOnFind = null;
    const body = expectEnvelope(res, 500, 'INTERNAL_SERVER_ERROR');
    expect(body.errors[0]?.referenceCode).toMatch(/^E-[0-9A-F]{12}$/);
    expect(res.body).not.toContain('exploded');
  });

  it('renders domain errors with every issue', async () => {
    const err = new CrmError('INVALID_PARAMETER', [
      { property: 'phones[0].phoneNumber', text: 'Not a valid phone number.' },
      { property: 'emails[1].email', text: 'Not a valid email address.', hint: 'like a@b.org' },
    ]);
    crm.throwOnFind = err;
    const res = await app.inject({ method: 'POST', url: '/v2/people/find', headers: auth, payload: {} });
    crm.throwOnFind = null;
    const body = expectEnvelope(res, 400, 'INVALID_PARAMETER');
    expect(body).toEqual({
      errors: [
        { code: 'INVALID_PARAMETER', text: 'Not a valid phone number.', properties: ['phones[0].phoneNumber'] },
        { code: 'INVALID_PARAMETER', text: 'Not a valid email address.', properties: ['emails[1].email'], hint: 'like a@b.org' },
      ],
    });
  });

  it('a malformed URL is a 400 envelope', async () => {
    expectEnvelope(await app.inject({ method: 'GET', url: '/v4/people/%E0%A4%A', headers: auth }), 400, 'BAD_REQUEST');
  });
});

describe('match responses', () => {
  const auth = { apiKey: FAKE_KEY };

  it('302 with absolute Location under the prefix used, 201, 404 with reason', async () => {
    crm.next = outcome('Matched', 42, null);
    let res = await app.inject({ method: 'POST', url: '/v2/people/find', headers: { ...auth, host: 'crm.example.org:8443' }, payload: {} });
    expect(res.statusCode).toBe(302);
    expect(res.headers['location']).toBe('http://crm.example.org:8443/v2/people/42');
    expect(res.json()).toEqual({ crmId: 42, vanId: 42, status: 'Matched' });

    crm.next = outcome('UnmatchedStored', 43, 'below-minimum');
    res = await app.inject({ method: 'POST', url: '/v4/contacts/findOrCreate', headers: auth, payload: {} });
    expect(res.statusCode).toBe(201);
    expect(res.headers['location']).toBe('http://localhost:80/v4/people/43');
    expect(res.headers['x-match-reason']).toBe('below-minimum');
    expect(res.json()).toEqual({ crmId: 43, vanId: 43, status: 'UnmatchedStored', reason: 'below-minimum', reasonText: 'because below-minimum' });
    expect(crm.calls.at(-1)?.op).toBe('contacts');

    crm.next = outcome('Unmatched', null, 'no-candidates');
    res = await app.inject({ method: 'POST', url: '/v4/people/find', headers: auth, payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.headers['location']).toBeUndefined();
    expect(res.json()).toEqual({ crmId: null, vanId: null, status: 'Unmatched', reason: 'no-candidates', reasonText: 'because no-candidates' });
  });

  it('ignores X-Forwarded-* unless trustProxy is set', async () => {
    crm.next = outcome('Matched', 5, null);
    const headers = { ...auth, host: 'internal:8080', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.example.org' };
    let res = await app.inject({ method: 'POST', url: '/v4/people/find', headers, payload: {} });
    expect(res.headers['location']).toBe('http://internal:8080/v4/people/5');
    const proxied = buildApp({ crm, trustProxy: true });
    res = await proxied.inject({ method: 'POST', url: '/v4/people/find', headers, payload: {} });
    expect(res.headers['location']).toBe('https://api.example.org/v4/people/5');
    await proxied.close();
  });

  it('GET by id and by external id, with $expand validated', async () => {
    let res = await app.inject({ method: 'GET', url: '/v4/people/7?$expand=Phones,emails&$expand=addresses', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(crm.calls.at(-1)?.expand).toEqual(['phones', 'emails', 'addresses']);
    res = await app.inject({ method: 'GET', url: '/v4/people/DWID:A%2F1%20b', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(crm.calls.at(-1)?.body).toEqual(['DWID', 'A/1 b']);
    const bad = expectEnvelope(await app.inject({ method: 'GET', url: '/v4/people/7?$expand=phones,bogus', headers: auth }), 400, 'INVALID_PARAMETER');
    expect(bad.errors[0]?.properties).toEqual(['$expand']);
    expect(bad.errors[0]?.hint).toContain('recordedAddresses');
    for (const url of ['/v4/people/8', '/v4/people/0', '/v4/people/abc', '/v4/people/:x', '/v4/people/x:', '/v4/people/99999999999999999999']) {
      expectEnvelope(await app.inject({ method: 'GET', url, headers: auth }), 404, 'NOT_FOUND');
    }
  });
});

describe('logging', () => {
  it('logs one line per request with the match reason, and the reference code of a 500 (never the key)', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) };
    const logged = buildApp({ crm, logger: { level: 'info', stream } });
    crm.next = outcome('Unmatched', null, 'below-minimum');
    await logged.inject({ method: 'POST', url: '/v4/people/find', headers: { apiKey: FAKE_KEY }, payload: {} });
    const requestLines = lines.filter((l) => l['msg'] === 'request');
    expect(requestLines.length).toBe(1);
    expect(requestLines[0]).toMatchObject({
      method: 'POST',
      statusCode: 404,
      tenantId: 1,
      context: 'campaign',
      match: { status: 'Unmatched', reason: 'below-minimum' },
    });

    crm.throwOnFind = new Error('boom');
    const res = await logged.inject({ method: 'POST', url: '/v4/people/find', headers: { apiKey: FAKE_KEY }, payload: {} });
    crm.throwOnFind = null;
    const ref = (JSON.parse(res.body) as EnvelopeBody).errors[0]?.referenceCode;
    expect(lines.some((l) => l['referenceCode'] === ref && l['level'] === 50)).toBe(true);
    expect(JSON.stringify(lines)).not.toContain(FAKE_KEY);
    await logged.close();
  });
});

describe('requests the HTTP parser rejects (real socket)', () => {
  async function raw(request: string): Promise<string> {
    const listening = buildApp({ crm });
    await listening.listen({ host: '127.0.0.1', port: 0 });
    const { port } = listening.server.address() as AddressInfo;
    try {
      return await new Promise<string>((resolve, reject) => {
        let data = '';
        const socket = connect(port, '127.0.0.1', () => socket.write(request));
        socket.on('data', (d) => (data += d.toString()));
        socket.on('close', () => resolve(data));
        socket.on('error', reject);
        socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
      });
    } finally {
      await listening.close();
    }
  }

  it('a malformed request line gets a 400 envelope', async () => {
    const answer = await raw('THIS IS NOT HTTP\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('Content-Type: application/json; charset=utf-8');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ errors: [{ code: 'BAD_REQUEST' }] });
  });

  it('oversized headers get a 431 envelope', async () => {
    const answer = await raw(`GET /v4/people/1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ errors: [{ code: 'REQUEST_HEADER_FIELDS_TOO_LARGE' }] });
  });
});

/**
 * What an adversarial test of the real HTTP server found (issue 15), each through a listening
 * server on the real Crm:
 * - `__proto__` / `constructor` keys in a valid JSON body are answered as any unknown key
 *   (ignored), not as invalid JSON, and poison nothing;
 * - a key in the URL (query or path) and result file / upload tokens never reach the log;
 * - control characters and bidirectional overrides in text are a 400 naming the property,
 *   never stored.
 */
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crm } from '../../src/crm/index.js';
import { buildApp } from '../../src/server/app.js';
import { redactUrl } from '../../src/server/redact-url.js';

let crm: Crm;
let app: ReturnType<typeof buildApp>;
let base: string;
let key: string;
const logLines: string[] = [];

beforeAll(async () => {
  crm = await Crm.open({ db: ':memory:' });
  await crm.createTenant('acme');
  key = (await crm.createKey({ tenant: 'acme', tier: 'Internal' })).key;
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  app = buildApp({ crm, logger: { level: 'info', stream } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.close();
  await crm.close();
});

async function post(path: string, body: string): Promise<{ status: number; json: any }> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { apiKey: key, 'content-type': 'application/json' }, body, redirect: 'manual' });
  return { status: res.status, json: await res.json() };
}

describe('__proto__ and constructor keys', () => {
  it('are ignored as unknown keys, at the top and nested; nothing is polluted', async () => {
    const person = '"firstName":"Proto","lastName":"Type","emails":[{"email":"proto@example.org"}]';
    for (const body of [
      `{"__proto__":{"isAdmin":true},${person}}`,
      `{"constructor":{"prototype":{"isAdmin":true}},${person}}`,
      `{${person},"addresses":[{"__proto__":{"x":1},"addressLine1":"1 Main St","zipOrPostalCode":"20001"}]}`,
      `{"constructor":"plain",${person}}`,
    ]) {
      const r = await post('/v4/people/findOrCreate', body);
      expect([201, 302], body).toContain(r.status);
      expect(r.json.crmId).toBeGreaterThan(0);
    }
    expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('x');
    // A __proto__ key does not hide the body's real problems.
    const bad = await post('/v4/people/findOrCreate', '{"__proto__":{},"emails":[{"email":"not an email"}]}');
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].properties).toEqual(['emails[0].email']);
  });
});

describe('credentials in logged URLs', () => {
  it('a key in the query or a path segment, and result file tokens, are redacted in the request log', async () => {
    const urls = [
      `/v4/apiKeyProfiles?apiKey=${key}`,
      `/v4/apiKeyProfiles?x=1&api_key=${encodeURIComponent(`${key}|1`)}`,
      `/v4/people/${key}`,
      `/v4/people/find?token=${key.replace(/-/g, '%2D')}`,
      `/v4/bulkImportResultFiles/1-2-1-SECRETTOKENxxxxxxxxxxxxx.csv`,
    ];
    for (const url of urls) await fetch(`${base}${url}`, { headers: { apiKey: key } });
    await fetch(`${base}/v4/people/1?password=hunter2`, { headers: { apiKey: key } });
    const log = logLines.join('');
    expect(log).toContain('"url":"/v4/apiKeyProfiles?apiKey=[REDACTED]"');
    expect(log.toLowerCase()).not.toContain(key.toLowerCase());
    expect(log.toLowerCase()).not.toContain(key.slice(0, 8).toLowerCase());
    expect(log).not.toContain('SECRETTOKEN');
    expect(log).not.toContain('hunter2');
  });

  it('redactUrl keeps everything that is not a credential', () => {
    expect(redactUrl('/v4/people/12?$expand=emails,phones')).toBe('/v4/people/12?$expand=emails,phones');
    expect(redactUrl('/v4/people/votercrmid:123')).toBe('/v4/people/votercrmid:123');
    expect(redactUrl('http://user:pw@host/v4/x?Key=1')).toBe('http://[REDACTED]@host/v4/x?Key=[REDACTED]');
    expect(redactUrl('/v4/bulkImportFiles/abcDEF_-123')).toBe('/v4/bulkImportFiles/[REDACTED]');
  });
});

describe('control characters and bidirectional overrides in text', () => {
  it.each([
    ['NUL', 'Ada\u0000', 'U+0000'],
    ['an ESC sequence', '\u001b[31mAda', 'U+001B'],
    ['a right-to-left override', 'Ada\u202Egnp.exe', 'U+202E'],
    ['a C1 control', 'Ada\u0085', 'U+0085'],
    ['a line break', 'Ada\nLovelace', 'U+000A'],
  ])('%s in a name is a 400 naming the property, and nothing is stored', async (_what, firstName, code) => {
    const before = (await crm.listTenants())[0]?.people.voterfile;
    const r = await post('/v4/people/findOrCreate', JSON.stringify({ firstName, lastName: 'Lovelace', emails: [{ email: 'ada@example.org' }] }));
    expect(r.status).toBe(400);
    expect(r.json.errors[0]).toMatchObject({ code: 'INVALID_PARAMETER', properties: ['firstName'] });
    expect(r.json.errors[0].text).toContain(code);
    expect((await crm.listTenants())[0]?.people.voterfile).toBe(before);
  });

  it('names every property that holds one, nested too; left-to-right and right-to-left marks are fine', async () => {
    const r = await post(
      '/v4/people/findOrCreate',
      JSON.stringify({ firstName: 'A\u0007', lastName: 'B', emails: [{ email: 'x@example.org' }, { email: 'y\u2066@example.org' }] }),
    );
    expect(r.status).toBe(400);
    expect(r.json.errors.flatMap((e: any) => e.properties)).toEqual(['firstName', 'emails[1].email']);
    const ok = await post(
      '/v4/people/findOrCreate',
      JSON.stringify({ firstName: '\u200Fדוד', lastName: 'כהן\u200E', emails: [{ email: 'david@example.org' }] }),
    );
    expect(ok.status).toBe(201);
  });
});

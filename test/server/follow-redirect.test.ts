/**
 * What HTTP libraries do with our 302: Node's global fetch on a real listening port follows
 * the Location with a GET and the same credentials, and must land on the full Person.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { basic, createTenantWithKey, openTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let base: string;
let key: string;

beforeAll(async () => {
  t = await openTestServer();
  key = await createTenantWithKey(t.crm, 'fetchers');
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await t.close();
});

const grace = { firstName: 'Grace', lastName: 'Hopper', emails: [{ email: 'grace@navy.example' }], phones: [{ phoneNumber: 4142020792 }] };

it.each([
  { name: 'Basic', headers: () => ({ authorization: basic('default', key) }) },
  { name: 'apiKey', headers: () => ({ apiKey: `${key}|1` }) },
])('fetch follows the 302 of findOrCreate and of find to the Person ($name)', async ({ headers }) => {
  const created = await fetch(`${base}/v4/people/findOrCreate`, {
    method: 'POST',
    headers: { ...headers(), 'content-type': 'application/json' },
    body: JSON.stringify(grace),
    redirect: 'manual',
  });
  expect([201, 302]).toContain(created.status);
  const location = created.headers.get('location');
  expect(location?.startsWith(`${base}/v4/people/`)).toBe(true);
  const { crmId } = (await created.json()) as { crmId: number };

  for (const path of ['/v4/people/findOrCreate', '/v2/people/find']) {
    const followed = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...headers(), 'content-type': 'application/json' },
      body: JSON.stringify(grace),
    });
    expect(followed.redirected).toBe(true);
    expect(followed.url).toBe(`${base}${path.slice(0, 3)}/people/${crmId}`);
    expect(followed.status).toBe(200);
    expect(await followed.json()).toMatchObject({ crmId, firstName: 'Grace', lastName: 'Hopper' });
  }
});

/**
 * The operator endpoints in-process: GET /health and GET /ready need no key, are never rate
 * limited, and /ready says 503 with a reason while the indexes load or the database is gone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Crm } from '../../src/crm/index.js';
import { buildApp } from '../../src/server/app.js';
import { openStore, type Store } from '../../src/store/index.js';
import { createTenantWithKey } from './helpers.js';

let dir: string;
let db: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'matchbook-ops-'));
  db = join(dir, 'ops.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A store whose index reads wait for `release()`, and whose queries can be made to fail. */
async function gatedStore(): Promise<{ store: Store; release: () => void; breakDatabase: () => void }> {
  const inner = await openStore(db);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let broken = false;
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (prop === 'listNormalizations') {
        return async (...args: unknown[]) => {
          await gate;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      if (prop === 'countTenants') {
        return async () => {
          if (broken) throw new Error('disk I/O error');
          return (value as () => unknown).apply(target);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return { store, release, breakDatabase: () => (broken = true) };
}

describe('GET /health and GET /ready', () => {
  it('answer without a key, carry no rate-limit headers, and are not counted against a key', async () => {
    const crm = await Crm.open({ db });
    await crm.createTenant('t');
    await crm.createKey({ tenant: 't', tier: 'Startup' });
    const app = buildApp({ crm });
    for (let i = 0; i < 20; i++) {
      const health = await app.inject({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({ status: 'ok' });
      expect(health.headers['ratelimit-limit']).toBeUndefined();
      expect(health.headers['content-type']).toBe('application/json; charset=utf-8');
    }
    const ready = await app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    // The tenant was made after open: its indexes load when first used.
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: true, scopes: 0, people: 0, loading: 0 } });
    // A wrong method is a 405 envelope, as elsewhere.
    const post = await app.inject({ method: 'POST', url: '/ready' });
    expect(post.statusCode).toBe(405);
    await app.close();
    await crm.close();
  });

  it('/ready is 503 with a reason while the indexes load, then 200; API calls wait for their index meanwhile', async () => {
    const seed = await Crm.open({ db });
    const key = await createTenantWithKey(seed, 'acme');
    const ctx = { tenantId: (await seed.authenticate(key))!.tenantId, context: 'voterfile' as const };
    await seed.findOrCreate(ctx, { firstName: 'Ada', lastName: 'Lovelace', emails: [{ email: 'ada@example.org' }] });
    await seed.close();

    const gated = await gatedStore();
    const crm = await Crm.open({ store: gated.store, loadIndexes: false });
    const app = buildApp({ crm });
    const loaded = crm.loadAllIndexes();
    const waiting = await app.inject({ method: 'GET', url: '/ready' });
    expect(waiting.statusCode).toBe(503);
    expect(waiting.headers['retry-after']).toBe('1');
    const body = waiting.json<{ status: string; reason: string; errors: { code: string; text: string }[] }>();
    expect(body.status).toBe('not-ready');
    expect(body.reason).toMatch(/^Loading indexes: 0 of 2 tenant contexts loaded/);
    expect(body.errors).toEqual([{ code: 'SERVICE_UNAVAILABLE', text: body.reason }]);
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);

    const find = app.inject({
      method: 'POST',
      url: '/v4/people/find',
      headers: { apiKey: key, 'content-type': 'application/json' },
      payload: { firstName: 'Ada', lastName: 'Lovelace', emails: [{ email: 'ada@example.org' }] },
    });
    gated.release();
    expect(await loaded).toBe(true);
    expect((await find).statusCode).toBe(302);
    const ready = await app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ checks: { people: 1, scopes: 2, loading: 0 } });

    gated.breakDatabase();
    const down = await app.inject({ method: 'GET', url: '/ready' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ reason: 'The database does not answer: disk I/O error', checks: { database: false } });
    await app.close();
    await crm.close();
  });

  it('a facade without readiness (the HTTP layer alone) is ready once it answers', async () => {
    const crm = await Crm.open({ db: ':memory:' });
    const app = buildApp({
      crm: {
        authenticate: crm.authenticate.bind(crm),
        find: crm.find.bind(crm),
        findOrCreate: crm.findOrCreate.bind(crm),
        getPerson: crm.getPerson.bind(crm),
        getPersonByExternalId: crm.getPersonByExternalId.bind(crm),
      },
    });
    expect((await app.inject({ method: 'GET', url: '/ready' })).json()).toMatchObject({ status: 'ready' });
    await app.close();
    await crm.close();
  });
});

/**
 * Rate limits and quotas against a REAL listening server (port 0) with concurrent clients,
 * plus unit tests of the in-memory limiter on a fake clock. The server's limiter runs on an
 * injected clock too: a burst falls in one window however long the machine takes to send it,
 * and waiting out Retry-After moves the clock instead of sleeping (issue 15).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crm } from '../../src/crm/index.js';
import { buildApp } from '../../src/server/app.js';
import { MemoryRateLimiter, TIER_LIMITS, categoryOf, monthOf, msToMonthEnd, type UsageLedger } from '../../src/server/rate-limit.js';

interface Running {
  crm: Crm;
  app: FastifyInstance;
  base: string;
}

/** The server limiters' clock (ms since the epoch), moved by the tests. */
let clock = Date.now();

async function start(db: string, rateLimiter?: MemoryRateLimiter): Promise<Running> {
  const crm = await Crm.open({ db });
  const app = buildApp({ crm, rateLimiter: rateLimiter ?? new MemoryRateLimiter({ ledger: crm, now: () => clock }) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { crm, app, base: `http://127.0.0.1:${port}` };
}

async function stop(r: Running): Promise<void> {
  await r.app.close();
  await r.crm.close();
}

const FIND_BODY = JSON.stringify({ firstName: 'Ada', lastName: 'Lovelace', emails: [{ email: 'ada@example.org' }] });

function find(base: string, key: string, prefix = '/v2'): Promise<Response> {
  return fetch(`${base}${prefix}/people/find`, { method: 'POST', headers: { apiKey: key, 'content-type': 'application/json' }, body: FIND_BODY });
}

function profile(base: string, key: string): Promise<Response> {
  return fetch(`${base}/v4/apiKeyProfiles`, { headers: { authorization: `Basic ${Buffer.from(`default:${key}`).toString('base64')}` } });
}

describe('rate limits on a listening server', () => {
  let dir: string;
  let db: string;
  let r: Running;
  let startupA: string;
  let startupB: string;
  let internal: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'matchbook-rl-'));
    db = join(dir, 'rl.db');
    r = await start(db);
    await r.crm.createTenant('acme');
    startupA = (await r.crm.createKey({ tenant: 'acme', tier: 'Startup' })).key;
    startupB = (await r.crm.createKey({ tenant: 'acme', tier: 'Startup' })).key;
    internal = (await r.crm.createKey({ tenant: 'acme', tier: 'Internal' })).key;
  });

  afterAll(async () => {
    await stop(r);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a Startup key bursting a Low endpoint gets exactly 2 per second, the rest 429; another key of the tenant is unaffected', async () => {
    const [burst, other] = await Promise.all([
      Promise.all(Array.from({ length: 12 }, (_, i) => find(r.base, startupA, i % 2 === 0 ? '/v2' : '/v4'))),
      Promise.all(Array.from({ length: 2 }, () => find(r.base, startupB))),
    ]);
    const limited = burst.filter((res) => res.status === 429);
    const passed = burst.filter((res) => res.status !== 429);
    expect(passed.map((res) => res.status)).toEqual([404, 404]);
    expect(limited).toHaveLength(10);
    for (const res of limited) {
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const body = (await res.json()) as { errors: { code: string; text: string }[] };
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]?.code).toBe('429');
      expect(body.errors[0]?.text).toMatch(/^Rate limit exceeded\. Try again in [1-9]\d* ms\.$/);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.headers.get('ratelimit-limit')).toBe('2');
      expect(res.headers.get('ratelimit-remaining')).toBe('0');
    }
    for (const res of passed) {
      expect(res.headers.get('ratelimit-limit')).toBe('2');
      expect(['0', '1']).toContain(res.headers.get('ratelimit-remaining'));
      expect(res.headers.get('ratelimit-policy')).toBe('2;w=1');
      expect(res.headers.get('x-quota-limit')).toBe('1000000');
    }
    expect(other.map((res) => res.status)).toEqual([404, 404]);

    // A Medium endpoint of the same key has its own allowance.
    expect((await profile(r.base, startupA)).status).toBe(200);

    // Waiting out Retry-After, the call succeeds.
    clock += 1000 * Number(limited[0]?.headers.get('retry-after'));
    expect((await find(r.base, startupA)).status).toBe(404);
  });

  it('Internal keys are never limited and get no rate headers', async () => {
    const burst = await Promise.all(Array.from({ length: 30 }, () => find(r.base, internal)));
    expect(burst.every((res) => res.status === 404)).toBe(true);
    expect(burst[0]?.headers.get('ratelimit-limit')).toBeNull();
  });

  it('GET /apiKeyProfiles describes the key, and monthly usage survives a restart', async () => {
    const before = await profile(r.base, startupB);
    expect(before.status).toBe(200);
    const body = (await before.json()) as { items: Record<string, unknown>[]; count: number; nextPageLink: null };
    expect(body.count).toBe(1);
    expect(body.nextPageLink).toBeNull();
    const p = body.items[0] as {
      tenant: string;
      tier: string;
      limits: unknown;
      monthlyQuota: number;
      usage: { month: string; used: number; remaining: number; resetsAt: string };
      contexts: string[];
    };
    expect(p).toMatchObject({
      tenant: 'acme',
      tier: 'Startup',
      limits: { High: 10, Medium: 5, Low: 2 },
      monthlyQuota: 1_000_000,
      contexts: ['voterfile', 'campaign'],
    });
    // 2 finds before, plus this request.
    expect(p.usage.used).toBe(3);
    expect(p.usage.remaining).toBe(1_000_000 - 3);
    expect(p.usage.month).toBe(monthOf(clock));
    expect(p.usage.resetsAt).toMatch(/^\d{4}-\d{2}-01T00:00:00Z$/);

    const internalProfile = (await (await profile(r.base, internal)).json()) as {
      items: { limits: unknown; monthlyQuota: unknown; usage: { used: number } }[];
    };
    expect(internalProfile.items[0]).toMatchObject({ limits: null, monthlyQuota: null });

    await stop(r);
    r = await start(db);
    const after = (await (await profile(r.base, startupB)).json()) as typeof body;
    expect((after.items[0] as typeof p).usage.used).toBe(4);
  });

  it('over the monthly quota: 429 saying so, with Retry-After until the month ends', async () => {
    await stop(r);
    const limits = { ...TIER_LIMITS, Startup: { perSecond: { High: 100, Medium: 100, Low: 100 }, monthlyQuota: 6 } };
    r = await start(db, new MemoryRateLimiter({ ledger: null, limits, now: () => clock }));
    const keyC = (await r.crm.createKey({ tenant: 'acme', tier: 'Startup' })).key;
    const results = await Promise.all(Array.from({ length: 10 }, () => find(r.base, keyC)));
    expect(results.filter((res) => res.status === 404)).toHaveLength(6);
    const refused = results.filter((res) => res.status === 429);
    expect(refused).toHaveLength(4);
    const body = (await refused[0]!.json()) as { errors: { code: string; text: string }[] };
    expect(body.errors[0]?.code).toBe('429');
    expect(body.errors[0]?.text).toMatch(/monthly quota/i);
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused[0]!.headers.get('x-quota-remaining')).toBe('0');
  });
});

describe('categoryOf (interface.md section 8)', () => {
  it.each([
    ['POST', '/people/find', 'Low'],
    ['POST', '/people/findOrCreate', 'Low'],
    ['POST', '/bulkImportJobs', 'Low'],
    ['GET', '/bulkImportJobs/12', 'Low'],
    ['GET', '/bulkImportJobs/resources', 'Low'],
    ['GET', '/bulkImportMappingTypes', 'Low'],
    ['GET', '/bulkImportMappingTypes/Email/EmailSubscriptionStatusId/values', 'Low'],
    ['POST', '/people/:ref/canvassResponses', 'High'],
    ['POST', '/people/12/canvassResponses', 'High'],
    ['POST', '/contacts/findOrCreate', 'Medium'],
    ['GET', '/people/:ref', 'Medium'],
    ['POST', '/people/:ref', 'Medium'],
    ['POST', '/people/dwid:12', 'Medium'],
    ['GET', '/phones/isCellStatuses', 'Medium'],
    ['GET', '/apiKeyProfiles', 'Medium'],
  ] as const)('%s %s is %s', (method, path, category) => {
    expect(categoryOf(method, path)).toBe(category);
  });
});

describe('MemoryRateLimiter on a fake clock', () => {
  function ledger(): UsageLedger & { rows: Map<string, number>; fail: boolean } {
    const rows = new Map<string, number>();
    return {
      rows,
      fail: false,
      async addKeyUsage(delta) {
        if (this.fail) throw new Error('disk full');
        for (const d of delta) rows.set(`${d.keyId}|${d.month}`, (rows.get(`${d.keyId}|${d.month}`) ?? 0) + d.count);
      },
      async getKeyUsage(keyId, month) {
        return rows.get(`${keyId}|${month}`) ?? 0;
      },
    };
  }

  it('windows open at the first request and last one second; categories are separate', async () => {
    let now = Date.UTC(2026, 10, 21, 12, 0, 0, 500);
    const limiter = new MemoryRateLimiter({ ledger: null, now: () => now, flushIntervalMs: 0 });
    const key = { keyId: 1, tier: 'Standard' as const };
    const low = await Promise.all(Array.from({ length: 5 }, () => limiter.take(key, 'Low')));
    expect(low.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    const refused = low[4]!;
    expect(!refused.allowed && refused.reason === 'rate' && refused.retryAfterMs).toBe(1000);
    expect((await limiter.take(key, 'High')).allowed).toBe(true);
    now += 999;
    expect((await limiter.take(key, 'Low')).allowed).toBe(false);
    now += 1;
    expect((await limiter.take(key, 'Low')).allowed).toBe(true);
    await limiter.close();
  });

  it('monthly counts are loaded once, batched into the ledger, kept when a flush fails, and roll over with the month', async () => {
    const l = ledger();
    l.rows.set(`7|2026-11`, 100);
    let now = Date.UTC(2026, 10, 30, 23, 59, 59, 0);
    const limiter = new MemoryRateLimiter({ ledger: l, now: () => now, flushIntervalMs: 0 });
    const key = { keyId: 7, tier: 'Internal' as const };
    await Promise.all(Array.from({ length: 5 }, () => limiter.take(key, 'Medium')));
    expect((await limiter.usage(key)).used).toBe(105);
    l.fail = true;
    await expect(limiter.flush()).rejects.toThrow('disk full');
    l.fail = false;
    await limiter.flush();
    expect(l.rows.get('7|2026-11')).toBe(105);
    now += 2000;
    expect(monthOf(now)).toBe('2026-12');
    await limiter.take(key, 'Medium');
    expect((await limiter.usage(key)).used).toBe(1);
    await limiter.close();
    expect(l.rows.get('7|2026-12')).toBe(1);
  });

  it('an unreadable ledger neither fails nor refuses requests', async () => {
    const errors: unknown[] = [];
    const broken: UsageLedger = {
      addKeyUsage: async () => {
        throw new Error('down');
      },
      getKeyUsage: async () => {
        throw new Error('down');
      },
    };
    const limiter = new MemoryRateLimiter({ ledger: broken, flushIntervalMs: 0, onFlushError: (e) => errors.push(e) });
    const d = await limiter.take({ keyId: 1, tier: 'Startup' }, 'Low');
    expect(d.allowed).toBe(true);
    expect(d.quota.used).toBe(1);
    expect(errors).toHaveLength(1);
    await expect(limiter.close()).rejects.toThrow('down');
  });

  it('msToMonthEnd reaches the first of the next month (UTC)', () => {
    expect(msToMonthEnd(Date.UTC(2026, 11, 31, 23, 0, 0))).toBe(3_600_000);
    expect(monthOf(Date.UTC(2027, 0, 1))).toBe('2027-01');
  });
});

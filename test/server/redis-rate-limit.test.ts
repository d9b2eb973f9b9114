import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIER_LIMITS, type RateDecision, type TierLimits, type UsageLedger } from '../../src/server/rate-limit.js';
import { RedisRateLimiter } from '../../src/server/redis-rate-limit.js';
import type { Tier } from '../../src/store/index.js';
import { HAVE_REDIS, freePort, startRedis, type RedisServer } from '../services.js';

/** An in-memory ledger standing for the store. */
function ledger(start: Record<string, number> = {}): UsageLedger & { rows: Map<string, number> } {
  const rows = new Map(Object.entries(start));
  return {
    rows,
    async addKeyUsage(list) {
      for (const r of list) rows.set(`${r.keyId}|${r.month}`, (rows.get(`${r.keyId}|${r.month}`) ?? 0) + r.count);
    },
    async getKeyUsage(keyId, month) {
      return rows.get(`${keyId}|${month}`) ?? 0;
    },
  };
}

const allowed = (ds: RateDecision[]): number => ds.filter((d) => d.allowed).length;

describe.skipIf(!HAVE_REDIS)('RedisRateLimiter (limits shared by processes)', () => {
  let redis: RedisServer;
  let prefix = 0;
  const limiters: RedisRateLimiter[] = [];
  /** Three limiters on one Redis, as three server processes would have. */
  /** A window of 10 minutes: a burst falls in one window however slowly the machine sends it (no timing assumed). */
  const WINDOW = 600_000;
  const three = (options: { ledger?: UsageLedger | null; limits?: Readonly<Record<Tier, TierLimits | null>> } = {}): RedisRateLimiter[] => {
    const p = `t${++prefix}:`;
    const made = [1, 2, 3].map(
      () =>
        new RedisRateLimiter({
          url: redis.url,
          ledger: options.ledger ?? null,
          prefix: p,
          flushIntervalMs: 0,
          windowMs: WINDOW,
          ...(options.limits ? { limits: options.limits } : {}),
        }),
    );
    limiters.push(...made);
    return made;
  };
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(limiters.map((l) => l.close().catch(() => undefined)));
    redis.stop();
  });

  it('a Startup key gets exactly its Low allowance per window across three limiters under a concurrent burst', async () => {
    const ls = three();
    const key = { keyId: 1, tier: 'Startup' as const };
    const burst = await Promise.all(Array.from({ length: 90 }, (_, i) => ls[i % 3]!.take(key, 'Low')));
    expect(allowed(burst)).toBe(2);
    const refused = burst.filter((d) => !d.allowed);
    expect(refused.every((d) => d.reason === 'rate' && d.retryAfterMs >= 1 && d.retryAfterMs <= WINDOW)).toBe(true);
    // Other categories have their own windows.
    expect(allowed(await Promise.all(Array.from({ length: 30 }, (_, i) => ls[i % 3]!.take(key, 'Medium'))))).toBe(5);
    // The window is a Redis key that expires after the window's length...
    const raw = new Redis(redis.url);
    try {
      const windowKey = `t${prefix}:w:${key.keyId}:Low`;
      const ttl = await raw.pttl(windowKey);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(WINDOW);
      // ...and once it has (the event, made to happen now), the next window admits again.
      await raw.pexpire(windowKey, 1);
      while ((await raw.exists(windowKey)) === 1) await new Promise((r) => setTimeout(r, 5));
    } finally {
      raw.disconnect();
    }
    const next = await Promise.all(Array.from({ length: 30 }, (_, i) => ls[i % 3]!.take(key, 'Low')));
    expect(allowed(next)).toBe(2);
    expect(next.find((d) => d.allowed)?.window).toMatchObject({ limit: 2 });
  });

  it('a monthly quota is exact across limiters and seeded from the store', async () => {
    const limits = { ...TIER_LIMITS, Custom: { perSecond: { High: 1000, Medium: 1000, Low: 1000 }, monthlyQuota: 50 } };
    const month = new Date().toISOString().slice(0, 7);
    const store = ledger({ [`7|${month}`]: 20 });
    const ls = three({ ledger: store, limits });
    const key = { keyId: 7, tier: 'Custom' as const };
    const ds = await Promise.all(Array.from({ length: 120 }, (_, i) => ls[i % 3]!.take(key, 'High')));
    expect(allowed(ds)).toBe(30);
    expect(ds.filter((d) => !d.allowed).every((d) => d.reason === 'quota')).toBe(true);
    expect((await ls[0]!.usage(key)).used).toBe(50);
    await Promise.all(ls.map((l) => l.flush()));
    expect(store.rows.get(`7|${month}`)).toBe(50);
  });

  it('Internal keys are counted, never refused', async () => {
    const ls = three();
    const key = { keyId: 9, tier: 'Internal' as const };
    const ds = await Promise.all(Array.from({ length: 60 }, (_, i) => ls[i % 3]!.take(key, 'Low')));
    expect(allowed(ds)).toBe(60);
    expect(ds[0]?.window).toBeNull();
    expect((await ls[1]!.usage(key)).used).toBe(60);
  });

  it('admits requests (fail open) and reports the error when Redis is unreachable', async () => {
    const errors: unknown[] = [];
    const l = new RedisRateLimiter({ url: `redis://127.0.0.1:${await freePort()}`, ledger: null, flushIntervalMs: 0, onError: (e) => errors.push(e) });
    const d = await l.take({ keyId: 1, tier: 'Startup' }, 'Low');
    expect(d.allowed).toBe(true);
    expect(errors.length).toBeGreaterThan(0);
    await l.close();
  });
});

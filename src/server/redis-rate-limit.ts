/**
 * Rate limits and monthly quotas shared by several server processes through Redis
 * (`MATCHBOOK_REDIS`): the same windows, quotas and answers as {@link MemoryRateLimiter}
 * (rate-limit.ts), but counted in Redis, so N processes behind a load balancer admit a
 * key's allowance once, not N times.
 *
 * Exact under concurrency: each decision is one Lua script (atomic in Redis) that checks the
 * month's count against the quota, checks and increments the one-second window of the key
 * and category (the window opens with its first request: a key with a 1000 ms expiry), and
 * increments the month's count; refused requests change nothing. One round trip per request.
 *
 * Monthly counts persist as before: each process also adds the counts it admitted to the
 * store's usage table in batches (every second and on close). When a month's Redis counter
 * is missing (a new month, a restarted Redis) the script says so, and the process seeds it
 * from the store (SET NX: the first seed wins) and asks again, so a quota survives a Redis
 * restart up to the last second's unflushed counts.
 *
 * When Redis cannot be reached, requests are admitted (fail open) and the error is reported
 * through `onError`: a rate limiter must not take the API down with it.
 */
import { Redis } from 'ioredis';
import {
  UsageBatch,
  TIER_LIMITS,
  WINDOW_MS,
  DEFAULT_FLUSH_INTERVAL_MS,
  monthOf,
  msToMonthEnd,
  type QuotaState,
  type RateCategory,
  type RateDecision,
  type RateKey,
  type RateLimiter,
  type TierLimits,
  type UsageLedger,
} from './rate-limit.js';
import type { Tier } from './crm-port.js';

/** Options of {@link RedisRateLimiter}. */
export interface RedisRateLimiterOptions {
  /** `redis://host:port[/db]`. */
  readonly url: string;
  /** Persistent monthly usage (the Crm facade); null: counts live in Redis only. */
  readonly ledger: UsageLedger | null;
  /** Limits per tier. Default {@link TIER_LIMITS}. */
  readonly limits?: Readonly<Record<Tier, TierLimits | null>>;
  /** Prefix of every Redis key. Default "matchbook:". */
  readonly prefix?: string;
  /** Clock in ms since the epoch (months and quota resets), for tests. Default `Date.now`. */
  readonly now?: () => number;
  /**
   * Length of a rate window in ms. Default {@link WINDOW_MS} (one second, the contract's
   * "per second"); tests lengthen it, so that a burst falls in one window on any machine
   * (the window's expiry is Redis's clock, which a test cannot move).
   */
  readonly windowMs?: number;
  /** Ledger flush period in ms (0: only on close and `flush()`). Default 1000. */
  readonly flushIntervalMs?: number;
  /** Called when Redis or the ledger fails (the request is admitted; counts are retried). */
  readonly onError?: (error: unknown) => void;
}

/**
 * KEYS: window, month. ARGV: per-second limit (-1: none), window ms, quota (-1: none),
 * month key expiry ms, count to seed a missing month with (-1: none).
 * Returns {allowed (1) / refused by rate (0) / refused by quota (-1) / month missing, seed it (2),
 * window count, window ms left, month count}.
 */
const TAKE = `
local limit = tonumber(ARGV[1])
local quota = tonumber(ARGV[3])
local seed = tonumber(ARGV[5])
if seed >= 0 then
  redis.call('SET', KEYS[2], seed, 'NX', 'PX', ARGV[4])
elseif redis.call('EXISTS', KEYS[2]) == 0 then
  return {2, 0, 0, 0}
end
local used = tonumber(redis.call('GET', KEYS[2]) or '0')
local count = 0
local ttl = 0
if limit >= 0 then
  count = tonumber(redis.call('GET', KEYS[1]) or '0')
  ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then ttl = 0; count = 0 end
end
if quota >= 0 and used >= quota then return {-1, count, ttl, used} end
if limit >= 0 then
  if count >= limit then return {0, count, ttl, used} end
  count = redis.call('INCR', KEYS[1])
  if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); ttl = tonumber(ARGV[2]) end
end
used = redis.call('INCR', KEYS[2])
if used == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
return {1, count, ttl, used}
`;

type TakeReply = [number, number, number, number];

/** Keeps a month key a day past the month's end (so late flushes and resets cannot go below zero). */
const MONTH_MARGIN_MS = 24 * 3600 * 1000;

/** The shared limiter. Create with `new RedisRateLimiter(...)`; {@link ready} resolves when connected. */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;
  private readonly limits: Readonly<Record<Tier, TierLimits | null>>;
  private readonly prefix: string;
  private readonly now: () => number;
  private readonly windowMs: number;
  private readonly timer: NodeJS.Timeout | null;
  private readonly batch: UsageBatch;

  constructor(private readonly options: RedisRateLimiterOptions) {
    this.redis = new Redis(options.url, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: true });
    this.redis.on('error', (error: unknown) => options.onError?.(error));
    this.redis.defineCommand('matchbookTake', { numberOfKeys: 2, lua: TAKE });
    this.batch = new UsageBatch(options.ledger);
    this.limits = options.limits ?? TIER_LIMITS;
    this.prefix = options.prefix ?? 'matchbook:';
    this.now = options.now ?? Date.now;
    this.windowMs = options.windowMs ?? WINDOW_MS;
    const every = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
    this.timer = every > 0 ? setInterval(() => void this.flush().catch((e: unknown) => options.onError?.(e)), every) : null;
    this.timer?.unref();
  }

  /** Resolves once Redis answers a PING (startup check); rejects when it cannot be reached. */
  async ready(): Promise<void> {
    await this.redis.ping();
  }

  private monthKey(keyId: number, month: string): string {
    return `${this.prefix}m:${keyId}:${month}`;
  }

  /** The stored count of a month, to seed a missing Redis counter with. */
  private async seedOf(keyId: number, month: string): Promise<number> {
    const ledger = this.options.ledger;
    return ledger === null ? 0 : ledger.getKeyUsage(keyId, month);
  }

  async take(key: RateKey, category: RateCategory): Promise<RateDecision> {
    const now = this.now();
    const month = monthOf(now);
    const limits = this.limits[key.tier];
    const quotaLimit = limits?.monthlyQuota ?? null;
    const limit = limits === null ? -1 : limits.perSecond[category];
    const resetMonth = msToMonthEnd(now);
    let reply: TakeReply;
    try {
      const run = (seed: number): Promise<TakeReply> =>
        (this.redis as unknown as { matchbookTake(...args: (string | number)[]): Promise<TakeReply> }).matchbookTake(
          `${this.prefix}w:${key.keyId}:${category}`,
          this.monthKey(key.keyId, month),
          limit,
          this.windowMs,
          quotaLimit ?? -1,
          resetMonth + MONTH_MARGIN_MS,
          seed,
        );
      reply = await run(-1);
      if (reply[0] === 2) reply = await run(await this.seedOf(key.keyId, month));
    } catch (error) {
      this.options.onError?.(error);
      const quota: QuotaState = { month, used: 0, limit: quotaLimit, resetMs: resetMonth };
      return { allowed: true, window: limits === null ? null : { limit, remaining: limit, resetMs: this.windowMs }, quota };
    }
    const [status, count, ttl, used] = reply.map(Number) as TakeReply;
    const quota: QuotaState = { month, used, limit: quotaLimit, resetMs: resetMonth };
    const resetMs = Math.max(0, ttl);
    const window = limits === null ? null : { limit, remaining: Math.max(0, limit - count), resetMs };
    if (status === -1) return { allowed: false, reason: 'quota', retryAfterMs: resetMonth, window, quota };
    if (status === 0) return { allowed: false, reason: 'rate', retryAfterMs: Math.max(1, resetMs), window, quota };
    this.batch.add(key.keyId, month);
    return { allowed: true, window, quota };
  }

  async usage(key: RateKey): Promise<QuotaState> {
    const now = this.now();
    const month = monthOf(now);
    let used = 0;
    try {
      const k = this.monthKey(key.keyId, month);
      let value = await this.redis.get(k);
      if (value === null) {
        await this.redis.set(k, await this.seedOf(key.keyId, month), 'PX', msToMonthEnd(now) + MONTH_MARGIN_MS, 'NX');
        value = await this.redis.get(k);
      }
      used = Number(value ?? 0);
    } catch (error) {
      this.options.onError?.(error);
    }
    return { month, used, limit: this.limits[key.tier]?.monthlyQuota ?? null, resetMs: msToMonthEnd(now) };
  }

  /** Adds the counts this process admitted to the ledger; flushes run one after another. */
  flush(): Promise<void> {
    return this.batch.flush();
  }

  async close(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    try {
      await this.flush();
    } finally {
      this.redis.disconnect();
    }
  }
}

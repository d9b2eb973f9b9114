/**
 * Rate limits and monthly quotas (interface.md section 8), per API key, by the key's tier and
 * the endpoint's rate category.
 *
 * ## Limits
 *
 * | Tier      | High   | Medium | Low   | Monthly requests |
 * |-----------|--------|--------|-------|------------------|
 * | Startup   | 10 rps | 5 rps  | 2 rps | 1,000,000        |
 * | Standard  | 50 rps | 10 rps | 3 rps | 50,000,000       |
 * | Preferred | 200 rps| 15 rps | 4 rps | unlimited        |
 * | Custom    | 200 rps| 15 rps | 4 rps | 30,000,000       |
 * | Internal  | none   | none   | none  | unlimited (counted, never refused) |
 *
 * `Internal` is outside the contract's tiers: operators' own tools and tests, given only with
 * `matchbook keys create --tier Internal`.
 *
 * Categories (interface.md section 8): High = POST /people/{crmId}/canvassResponses and
 * POST /people/{personIdType}:{personId}/canvassResponses; Low = POST /people/find,
 * POST /people/findOrCreate and the bulk import endpoints (/bulkImportJobs...,
 * /bulkImportMappingTypes...); Medium = every other endpoint (POST /contacts/findOrCreate
 * included). Same under /v2 and /v4.
 *
 * ## Windows
 *
 * Each key and category has a one-second window that opens with the first request after the
 * previous window ended: a burst gets exactly the category's allowance, the rest are refused
 * until the window ends. Refused requests count neither in the window nor in the month.
 *
 * The monthly quota counts the key's admitted requests of all categories in the calendar
 * month (UTC). Counts live in memory and are added to the store in batches (every second and
 * on close), so a restart keeps them; a process killed with `kill -9` loses at most the last
 * second's counts. Each process counts on its own: {@link RateLimiter} is the seam a shared
 * (e.g. Redis) implementation plugs into.
 *
 * ## Response headers (every authenticated response of a limited tier)
 *
 * - `RateLimit-Limit`: requests per second allowed in this endpoint's category.
 * - `RateLimit-Remaining`: requests left in the current one-second window.
 * - `RateLimit-Reset`: seconds until the window ends (IETF draft-ietf-httpapi-ratelimit-headers).
 * - `RateLimit-Policy`: `<limit>;w=1` (the window is one second).
 * - `X-Quota-Limit`, `X-Quota-Remaining`: the monthly quota and what is left (not sent for
 *   unlimited tiers); `X-Quota-Used`: requests counted this month; `X-Quota-Reset`: seconds
 *   until the month ends (UTC).
 *
 * Internal keys get no headers. Over a limit: 429
 * `{"errors":[{"code":"429","text":"Rate limit exceeded. Try again in N ms."}]}` with
 * `Retry-After` in whole seconds (at least 1); over the monthly quota: 429 with a text saying
 * the quota is used up and when it resets, `Retry-After` until then.
 */
import type { Tier } from './crm-port.js';

/** Rate category of an endpoint (interface.md section 8). */
export type RateCategory = 'High' | 'Medium' | 'Low';

/** Every category, in the contract's order. */
export const RATE_CATEGORIES: readonly RateCategory[] = ['High', 'Medium', 'Low'];

/** The limits of a tier: requests per second per category and the monthly quota (null: unlimited). */
export interface TierLimits {
  readonly perSecond: Readonly<Record<RateCategory, number>>;
  readonly monthlyQuota: number | null;
}

/** The contract's table (interface.md section 8, policy from 17 November 2025); Internal: no limits (null). */
export const TIER_LIMITS: Readonly<Record<Tier, TierLimits | null>> = {
  Startup: { perSecond: { High: 10, Medium: 5, Low: 2 }, monthlyQuota: 1_000_000 },
  Standard: { perSecond: { High: 50, Medium: 10, Low: 3 }, monthlyQuota: 50_000_000 },
  Preferred: { perSecond: { High: 200, Medium: 15, Low: 4 }, monthlyQuota: null },
  Custom: { perSecond: { High: 200, Medium: 15, Low: 4 }, monthlyQuota: 30_000_000 },
  Internal: null,
};

/** Length of a rate window in ms. */
export const WINDOW_MS = 1000;

/** How often pending monthly counts are written to the store, in ms. */
export const DEFAULT_FLUSH_INTERVAL_MS = 1000;

const LOW_PATHS = [/^\/people\/find$/, /^\/people\/findOrCreate$/, /^\/bulkImportJobs(?:\/.*)?$/, /^\/bulkImportMappingTypes(?:\/.*)?$/];
const HIGH_PATH = /^\/people\/[^/]+\/canvassResponses$/;

/**
 * The category of a request, from its method and its path without the version prefix
 * (a route pattern such as `/people/:ref/canvassResponses` or a concrete path).
 */
export function categoryOf(method: string, path: string): RateCategory {
  const m = method.toUpperCase();
  if (m === 'POST' && HIGH_PATH.test(path)) return 'High';
  if (LOW_PATHS.some((re) => re.test(path))) {
    // The contract lists POST find/findOrCreate and POST+GET bulk import; GET of those paths is the same family.
    return 'Low';
  }
  return 'Medium';
}

/** Who is limited: the key's id and tier. */
export interface RateKey {
  readonly keyId: number;
  readonly tier: Tier;
}

/** The state of a key's one-second window in a category after a decision. */
export interface WindowState {
  readonly limit: number;
  readonly remaining: number;
  /** ms until the window ends. */
  readonly resetMs: number;
}

/** A key's monthly usage. */
export interface QuotaState {
  /** "YYYY-MM", UTC. */
  readonly month: string;
  readonly used: number;
  /** null: unlimited. */
  readonly limit: number | null;
  /** ms until the month ends (UTC). */
  readonly resetMs: number;
}

/** The answer for one request. `window` is null for unlimited (Internal) keys. */
export type RateDecision =
  | { readonly allowed: true; readonly window: WindowState | null; readonly quota: QuotaState }
  | {
      readonly allowed: false;
      readonly reason: 'rate' | 'quota';
      /** ms until a retry can succeed. */
      readonly retryAfterMs: number;
      readonly window: WindowState | null;
      readonly quota: QuotaState;
    };

/**
 * Counts requests per key and decides. Implementations must be correct under concurrent
 * calls (the in-memory one is: decisions run synchronously after the month's count is loaded).
 */
export interface RateLimiter {
  /** Counts one request of `key` in `category`, or refuses it. */
  take(key: RateKey, category: RateCategory): Promise<RateDecision>;
  /** The key's usage this month, without counting a request. */
  usage(key: RateKey): Promise<QuotaState>;
  /** Writes pending counts to the store. */
  flush(): Promise<void>;
  /** Flushes and stops timers. */
  close(): Promise<void>;
}

/** Where monthly usage persists (the Crm facade satisfies it). */
export interface UsageLedger {
  addKeyUsage(rows: readonly { readonly keyId: number; readonly month: string; readonly count: number }[]): Promise<void>;
  getKeyUsage(keyId: number, month: string): Promise<number>;
}

/**
 * Admitted requests not yet written to a {@link UsageLedger}, by key and month. Flushes run
 * one after another, so a row is never written twice; a failed flush keeps its counts for the
 * next one. Shared by both limiters (each process counts what it admitted).
 */
export class UsageBatch {
  private readonly pending = new Map<string, { keyId: number; month: string; count: number }>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly ledger: UsageLedger | null) {}

  /** Counts one admitted request. */
  add(keyId: number, month: string, count = 1): void {
    const k = `${keyId}|${month}`;
    const p = this.pending.get(k);
    if (p === undefined) this.pending.set(k, { keyId, month, count });
    else p.count += count;
  }

  /** Writes the pending counts (after any flush under way). */
  flush(): Promise<void> {
    const run = this.flushing.catch(() => undefined).then(() => this.write());
    this.flushing = run;
    return run;
  }

  private async write(): Promise<void> {
    if (this.ledger === null || this.pending.size === 0) {
      this.pending.clear();
      return;
    }
    const rows = [...this.pending.values()];
    this.pending.clear();
    try {
      await this.ledger.addKeyUsage(rows);
    } catch (error) {
      for (const r of rows) this.add(r.keyId, r.month, r.count);
      throw error;
    }
  }
}

/** Options of {@link MemoryRateLimiter}. */
export interface MemoryRateLimiterOptions {
  /** Persistent monthly usage; null keeps counts in memory only (lost on restart). */
  readonly ledger: UsageLedger | null;
  /** Limits per tier. Default {@link TIER_LIMITS}. */
  readonly limits?: Readonly<Record<Tier, TierLimits | null>>;
  /** Clock in ms since the epoch, for tests. Default `Date.now`. */
  readonly now?: () => number;
  /** Flush period in ms (0: only on close and `flush()`). Default {@link DEFAULT_FLUSH_INTERVAL_MS}. */
  readonly flushIntervalMs?: number;
  /** Called when a background flush fails (the counts are kept and retried) or a month's count cannot be read (counting goes on from this process' own count). */
  readonly onFlushError?: (error: unknown) => void;
}

/** "YYYY-MM" of a time, UTC. */
export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/** ms from `ms` to the start of the next UTC month. */
export function msToMonthEnd(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - ms;
}

interface Window {
  start: number;
  count: number;
}

interface MonthCount {
  readonly month: string;
  used: number;
  ready: Promise<void> | null;
}

/** The single-process limiter: windows in memory, monthly counts batched into a {@link UsageLedger}. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly months = new Map<number, MonthCount>();
  private readonly batch: UsageBatch;
  private readonly limits: Readonly<Record<Tier, TierLimits | null>>;
  private readonly now: () => number;
  private readonly timer: NodeJS.Timeout | null;

  constructor(private readonly options: MemoryRateLimiterOptions) {
    this.batch = new UsageBatch(options.ledger);
    this.limits = options.limits ?? TIER_LIMITS;
    this.now = options.now ?? Date.now;
    const every = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
    this.timer = every > 0 ? setInterval(() => this.background(), every) : null;
    this.timer?.unref();
  }

  private background(): void {
    this.flush().catch((error: unknown) => this.options.onFlushError?.(error));
    // Forget windows that ended long ago, so idle keys cost no memory.
    const now = this.now();
    for (const [k, w] of this.windows) if (now - w.start >= 10 * WINDOW_MS) this.windows.delete(k);
  }

  /** The key's count for the current month, loaded from the ledger once per key and month. */
  private async monthCount(keyId: number, now: number): Promise<MonthCount> {
    const month = monthOf(now);
    let entry = this.months.get(keyId);
    if (entry === undefined || entry.month !== month) {
      const created: MonthCount = { month, used: 0, ready: null };
      const ledger = this.options.ledger;
      if (ledger !== null) {
        created.ready = ledger.getKeyUsage(keyId, month).then(
          (stored) => {
            created.used += stored;
            created.ready = null;
          },
          (error: unknown) => {
            // The store is unreadable: count from what this process saw rather than refuse or fail requests.
            created.ready = null;
            this.options.onFlushError?.(error);
          },
        );
      }
      this.months.set(keyId, created);
      entry = created;
    }
    if (entry.ready !== null) await entry.ready;
    return entry;
  }

  private quotaState(entry: MonthCount, limit: number | null, now: number): QuotaState {
    return { month: entry.month, used: entry.used, limit, resetMs: msToMonthEnd(now) };
  }

  async take(key: RateKey, category: RateCategory): Promise<RateDecision> {
    const entry = await this.monthCount(key.keyId, this.now());
    // From here on everything is synchronous: concurrent requests cannot interleave.
    const now = this.now();
    const limits = this.limits[key.tier];
    if (limits === null) {
      this.count(key.keyId, entry);
      return { allowed: true, window: null, quota: this.quotaState(entry, null, now) };
    }
    const limit = limits.perSecond[category];
    const windowKey = `${key.keyId}|${category}`;
    let w = this.windows.get(windowKey);
    if (w === undefined || now - w.start >= WINDOW_MS || now < w.start) {
      w = { start: now, count: 0 };
      this.windows.set(windowKey, w);
    }
    const resetMs = Math.max(0, w.start + WINDOW_MS - now);
    const quota = limits.monthlyQuota;
    if (quota !== null && entry.used >= quota) {
      const q = this.quotaState(entry, quota, now);
      return { allowed: false, reason: 'quota', retryAfterMs: q.resetMs, window: { limit, remaining: Math.max(0, limit - w.count), resetMs }, quota: q };
    }
    if (w.count >= limit) {
      return {
        allowed: false,
        reason: 'rate',
        retryAfterMs: Math.max(1, resetMs),
        window: { limit, remaining: 0, resetMs },
        quota: this.quotaState(entry, quota, now),
      };
    }
    w.count++;
    this.count(key.keyId, entry);
    return { allowed: true, window: { limit, remaining: limit - w.count, resetMs }, quota: this.quotaState(entry, quota, now) };
  }

  private count(keyId: number, entry: MonthCount): void {
    entry.used++;
    this.batch.add(keyId, entry.month);
  }

  async usage(key: RateKey): Promise<QuotaState> {
    const now = this.now();
    const entry = await this.monthCount(key.keyId, now);
    return this.quotaState(entry, this.limits[key.tier]?.monthlyQuota ?? null, now);
  }

  /** Writes pending counts to the ledger. */
  flush(): Promise<void> {
    return this.batch.flush();
  }

  async close(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    await this.flush();
  }
}

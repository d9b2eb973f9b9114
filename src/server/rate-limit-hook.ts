/**
 * The HTTP side of rate limiting: an onRequest hook (after authentication) that asks the
 * {@link RateLimiter}, sets the headers documented in rate-limit.ts on every answer, and
 * refuses with 429 and `Retry-After`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './http-error.js';
import { categoryOf, type QuotaState, type RateCategory, type RateDecision, type RateLimiter } from './rate-limit.js';

/** Text of a 429 for the per-second limit (compatibility.md, verbatim but for N). */
export function rateLimitText(retryAfterMs: number): string {
  return `Rate limit exceeded. Try again in ${Math.max(1, Math.ceil(retryAfterMs))} ms.`;
}

/** Text of a 429 for a used-up monthly quota. */
export function quotaText(quota: QuotaState, now: number): string {
  const resetsAt = new Date(now + quota.resetMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `Monthly quota exceeded: this API key has used all ${(quota.limit ?? 0).toLocaleString('en-US')} requests of its monthly quota for ${quota.month}. The quota resets at ${resetsAt}.`;
}

/** Whole seconds, at least 1. */
function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** The rate-limit headers of a decision (none for unlimited keys). */
export function rateHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {};
  if (decision.window === null) return headers;
  const w = decision.window;
  headers['ratelimit-limit'] = String(w.limit);
  headers['ratelimit-remaining'] = String(w.remaining);
  headers['ratelimit-reset'] = String(seconds(w.resetMs));
  headers['ratelimit-policy'] = `${w.limit};w=1`;
  const q = decision.quota;
  if (q.limit !== null) {
    headers['x-quota-limit'] = String(q.limit);
    headers['x-quota-remaining'] = String(Math.max(0, q.limit - q.used));
  }
  headers['x-quota-used'] = String(q.used);
  headers['x-quota-reset'] = String(seconds(q.resetMs));
  return headers;
}

/**
 * The hook for one version prefix. The category comes from the matched route's pattern
 * (without the prefix), computed once per route. `onRefused` hears of every 429 (metrics).
 */
export function createRateLimitHook(
  limiter: RateLimiter,
  prefix: string,
  onRefused: (category: RateCategory, reason: 'rate' | 'quota', tier: string) => void = () => undefined,
) {
  const categories = new Map<string, RateCategory>();
  return async function rateLimit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const identity = request.identity;
    if (identity === null) return;
    const url = request.routeOptions.url ?? request.url.split('?', 1)[0] ?? '';
    const routeKey = `${request.method} ${url}`;
    let category = categories.get(routeKey);
    if (category === undefined) {
      const path = url.startsWith(prefix) ? url.slice(prefix.length) : url;
      category = categoryOf(request.method, path);
      categories.set(routeKey, category);
    }
    const decision = await limiter.take({ keyId: identity.keyId, tier: identity.tier }, category);
    const headers = rateHeaders(decision);
    if (decision.allowed) {
      reply.headers(headers);
      return;
    }
    onRefused(category, decision.reason === 'quota' ? 'quota' : 'rate', identity.tier);
    headers['retry-after'] = String(seconds(decision.retryAfterMs));
    const text = decision.reason === 'quota' ? quotaText(decision.quota, Date.now()) : rateLimitText(decision.retryAfterMs);
    throw new HttpError(429, [{ code: '429', text }], headers);
  };
}

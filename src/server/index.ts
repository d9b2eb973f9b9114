/**
 * Public entry of the HTTP adapter (architecture.md: src/server): the fastify app over the
 * CRM, and the rate limiters a process chooses between. The CLI's `serve` imports from here.
 */
export { API_PREFIXES, API_VERSION, MAX_PARAM_LENGTH, buildApp, buildMetricsApp, type BuildAppOptions } from './app.js';
export { Metrics, type MetricsAccess } from './metrics.js';
export type { DocsAssets } from './routes/docs.js';
export { MemoryRateLimiter, RATE_CATEGORIES, TIER_LIMITS, type RateCategory, type RateLimiter, type TierLimits, type UsageLedger } from './rate-limit.js';
export { RedisRateLimiter, type RedisRateLimiterOptions } from './redis-rate-limit.js';
export { DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts } from './timeouts.js';

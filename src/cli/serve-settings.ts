/**
 * The settings `matchbook serve` reads from the environment: who may read `/metrics`, bulk
 * import limits and leases, HTTP timeouts (README "Metrics", "Bulk import", "HTTP timeouts").
 */
import { InvalidArgumentError } from 'commander';
import { DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts, type MetricsAccess } from '../server/index.js';
import { DEFAULT_SOURCE_LIMITS, parseAllowedHosts, type SourceLimits } from '../files/index.js';

/** Default listening address: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';

/**
 * Who reads the Prometheus metrics: `port` (MATCHBOOK_METRICS_PORT) serves them on a port of
 * their own (on `host`, default loopback) and not on the API port; `key` (MATCHBOOK_METRICS_KEY)
 * asks for `Authorization: Bearer <key>` (on whichever port serves them). Neither: the API port
 * serves them to anyone when it listens on loopback only (as `npm start`), else not at all.
 */
export interface MetricsSettings {
  readonly port: number | null;
  readonly host: string;
  readonly key: string | null;
}

export const DEFAULT_METRICS: MetricsSettings = { port: null, host: DEFAULT_HOST, key: null };

/** What to set to read `/metrics` when the API port does not serve them. */
export const METRICS_HINT =
  'Set MATCHBOOK_METRICS_KEY (then send Authorization: Bearer <key>) or MATCHBOOK_METRICS_PORT (a port of their own); README, "Metrics".';

/** True for an address only this machine reaches. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);
}

/** The access rule of `/metrics` on the API port, and of the metrics port when there is one. */
export function metricsAccessOf(settings: MetricsSettings, apiHost: string): { api: MetricsAccess; own: MetricsAccess | null } {
  const keyed: MetricsAccess | null = settings.key === null ? null : { kind: 'key', key: settings.key };
  if (settings.port !== null)
    return { api: { kind: 'off', hint: 'They are served on the metrics port (MATCHBOOK_METRICS_PORT).' }, own: keyed ?? { kind: 'open' } };
  if (keyed !== null) return { api: keyed, own: null };
  return { api: isLoopback(apiHost) ? { kind: 'open' } : { kind: 'off', hint: METRICS_HINT }, own: null };
}

/** Bulk import settings of a server (README "Bulk import"). */
export interface ImportSettings {
  /** Hosts (`host` or `host:port`) whose URLs a job may fetch; empty: only this server's uploads. */
  readonly allowedHosts: readonly string[];
  readonly limits: SourceLimits;
  /** Lease of a job in ms; a job whose process died is taken over after it. */
  readonly leaseMs: number;
  /** Work of a job between yields to the event loop (and commits), ms. */
  readonly sliceMs: number;
}

function positiveInt(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text.trim() === '') return fallback;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive whole number.`);
  return n;
}

/** Reads MATCHBOOK_IMPORT_ALLOWED_HOSTS, _MAX_BYTES, _MAX_ZIP_RATIO, _TIMEOUT_MS, _LEASE_MS and _SLICE_MS. */
export function importSettingsFromEnv(env: Readonly<Record<string, string | undefined>>): ImportSettings {
  return {
    allowedHosts: parseAllowedHosts(env['MATCHBOOK_IMPORT_ALLOWED_HOSTS']),
    limits: {
      maxBytes: positiveInt(env, 'MATCHBOOK_IMPORT_MAX_BYTES', DEFAULT_SOURCE_LIMITS.maxBytes),
      maxZipRatio: positiveInt(env, 'MATCHBOOK_IMPORT_MAX_ZIP_RATIO', DEFAULT_SOURCE_LIMITS.maxZipRatio),
      timeoutMs: positiveInt(env, 'MATCHBOOK_IMPORT_TIMEOUT_MS', DEFAULT_SOURCE_LIMITS.timeoutMs),
    },
    leaseMs: positiveInt(env, 'MATCHBOOK_IMPORT_LEASE_MS', 15_000),
    sliceMs: positiveInt(env, 'MATCHBOOK_IMPORT_SLICE_MS', 1),
  };
}

/** Reads MATCHBOOK_HEADERS_TIMEOUT_MS, MATCHBOOK_REQUEST_TIMEOUT_MS and MATCHBOOK_IDLE_TIMEOUT_MS (README "HTTP timeouts"). */
export function httpTimeoutsFromEnv(env: Readonly<Record<string, string | undefined>>): HttpTimeouts {
  return {
    headersMs: positiveInt(env, 'MATCHBOOK_HEADERS_TIMEOUT_MS', DEFAULT_HTTP_TIMEOUTS.headersMs),
    requestMs: positiveInt(env, 'MATCHBOOK_REQUEST_TIMEOUT_MS', DEFAULT_HTTP_TIMEOUTS.requestMs),
    idleMs: positiveInt(env, 'MATCHBOOK_IDLE_TIMEOUT_MS', DEFAULT_HTTP_TIMEOUTS.idleMs),
  };
}

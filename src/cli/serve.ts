/**
 * `matchbook serve`: open the database, create a demo tenant and key on a first start, and
 * listen (default 127.0.0.1:8080). SIGINT/SIGTERM close the server, then the database.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { Crm } from '../crm/index.js';
import {
  DEFAULT_HTTP_TIMEOUTS,
  Metrics,
  RATE_CATEGORIES,
  RedisRateLimiter,
  TIER_LIMITS,
  buildApp,
  buildMetricsApp,
  type HttpTimeouts,
} from '../server/index.js';
import { swaggerUiAssets } from './docs-assets.js';
import { BulkImports, ImportRunner } from '../crm/index.js';
import { fetchSource, hostAllowed } from '../files/index.js';
import { describeDb, resolveDbPath } from './db-path.js';
import {
  DEFAULT_HOST,
  DEFAULT_METRICS,
  httpTimeoutsFromEnv,
  importSettingsFromEnv,
  METRICS_HINT,
  metricsAccessOf,
  type ImportSettings,
  type MetricsSettings,
} from './serve-settings.js';
import { describeError, type CliIo } from './io.js';
import { SignalGuard } from './signal-guard.js';

/** Default port. */
export const DEFAULT_PORT = 8080;
/** Name of the tenant created on a first start. */
export const DEMO_TENANT = 'demo';
/**
 * Tier of the demo key: Internal, no rate limits. Clients such as parsons never retry a 429, so
 * with a limited tier the fifth find of a script within a second would fail; the demo key is
 * the operator's own, for trying things out. Integrations get keys of a contract tier.
 */
export const DEMO_TIER = 'Internal';
/** Everything `serve` needs, already resolved from flags and environment. */
export interface ServeOptions {
  readonly db: string;
  readonly host: string;
  readonly port: number;
  readonly trustProxy: boolean;
  readonly logLevel: string;
  /** SQLite `synchronous`: FULL fsyncs every commit (survives power loss); NORMAL survives a killed process, not power loss. */
  readonly synchronous: 'FULL' | 'NORMAL';
  /** Bulk import settings (environment MATCHBOOK_IMPORT_*); defaults when absent. */
  readonly imports?: ImportSettings;
  /** Header, request and idle timeouts (environment MATCHBOOK_*_TIMEOUT_MS); defaults when absent. */
  readonly timeouts?: HttpTimeouts;
  /** `redis://` URL of the Redis that shares rate limits and quotas between processes; null: this process limits alone. */
  readonly redis?: string | null;
  /** Most people this process indexes (Crm maxIndexPeople); undefined: derived from the heap limit. */
  readonly maxIndexPeople?: number;
  /** Candidate retrieval (Crm index): in-memory indexes (default) or the database's keys (PostgreSQL). */
  readonly index?: 'memory' | 'database';
  /** Where `GET /metrics` is served and to whom (README "Metrics"); default {@link DEFAULT_METRICS}. */
  readonly metrics?: MetricsSettings;
}

/** A running server. */
export interface RunningServer {
  /** Base URL a client on this machine can use, e.g. http://127.0.0.1:8080. */
  readonly url: string;
  readonly port: number;
  /** The demo key when this start created the demo tenant, else null. */
  readonly demoKey: string | null;
  /** Where the metrics are served (`.../metrics`), or null when nobody may read them. */
  readonly metricsUrl: string | null;
  /**
   * Resolves true once every tenant's index is loaded (the server listens before: `GET /ready`
   * answers 503 meanwhile), false when the server was closed first; rejects when loading fails
   * (e.g. past the index limit).
   */
  readonly loaded: Promise<boolean>;
  /** Stop accepting requests, finish in-flight ones, close the database. Idempotent. */
  close(): Promise<void>;
}

/** Parse a TCP port (0 = any free port). */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d{1,5}$/.test(value.trim()) || port > 65535) {
    throw new InvalidArgumentError('A port is a number from 0 to 65535.');
  }
  return port;
}

/** Parse a positive whole number (a count). */
export function parseCount(value: string): number {
  const n = Number(value.trim().replace(/_/g, ''));
  if (!/^\d[\d_]*$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1) {
    throw new InvalidArgumentError('A count is a whole number of at least 1.');
  }
  return n;
}

/** A host a local curl can reach: wildcard addresses become loopback. */
function clientHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** A ready-to-paste curl command for findOrCreate with `key`. */
export function demoCurl(url: string, key: string): string {
  const body = '{"firstName":"Ada","lastName":"Lovelace","emails":[{"email":"ada@example.org"}]}';
  return [`curl -i -u 'apiuser:${key}' -H 'Content-Type: application/json' \\`, `  -d '${body}' \\`, `  ${url}/v4/people/findOrCreate`].join('\n');
}

/** Open the database, bootstrap a demo tenant if there is none, and listen. Prints nothing. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  // Indexes load after listen (loadAllIndexes below), so that GET /ready can say so meanwhile.
  const crm = await Crm.open({
    db: options.db,
    synchronous: options.synchronous,
    loadIndexes: false,
    ...(options.maxIndexPeople === undefined ? {} : { maxIndexPeople: options.maxIndexPeople }),
    ...(options.index === undefined ? {} : { index: options.index }),
  });
  let demoKey: string | null = null;
  try {
    if (!(await crm.hasAnyTenant())) {
      await crm.createTenant(DEMO_TENANT);
      demoKey = (await crm.createKey({ tenant: DEMO_TENANT, tier: DEMO_TIER })).key;
    }
  } catch (err) {
    await crm.close();
    throw err;
  }
  let log: ((error: unknown) => void) | null = null;
  let limiter: RedisRateLimiter | null = null;
  if (options.redis !== undefined && options.redis !== null && options.redis !== '') {
    limiter = new RedisRateLimiter({ url: options.redis, ledger: crm, onError: (error) => log?.(error) });
    try {
      await limiter.ready();
    } catch (err) {
      await limiter.close().catch(() => undefined);
      await crm.close();
      throw new Error(`Redis at ${options.redis} cannot be reached: ${describeError(err)}`, { cause: err });
    }
  }
  const settings = options.imports ?? importSettingsFromEnv({});
  const metrics = new Metrics();
  const access = metricsAccessOf(options.metrics ?? DEFAULT_METRICS, options.host);
  let app: ReturnType<typeof buildApp> | null = null;
  const runner = new ImportRunner({
    crm,
    fetchUrl: (url) => fetchSource(url, settings.allowedHosts, settings.limits),
    limits: settings.limits,
    leaseMs: settings.leaseMs,
    sliceMs: settings.sliceMs,
    onError: (err, jobId) => app?.log.error({ err, jobId }, 'bulk import failure'),
    onRow: (ok) => metrics.observeImportRow(ok),
    onJobEnd: (status) => metrics.observeImportJob(status),
  });
  const imports = new BulkImports(crm, runner, (url) => hostAllowed(url, settings.allowedHosts));
  app = buildApp({
    crm,
    logger: { level: options.logLevel },
    trustProxy: options.trustProxy,
    imports,
    timeouts: options.timeouts ?? DEFAULT_HTTP_TIMEOUTS,
    maxUploadBytes: settings.limits.maxBytes,
    metrics,
    metricsAccess: access.api,
    docsAssets: swaggerUiAssets(),
    ...(limiter === null ? {} : { rateLimiter: limiter }),
  });
  const metricsApp = access.own === null ? null : buildMetricsApp(metrics, access.own);
  if (metricsApp !== null) app.addHook('onClose', async () => metricsApp.close());
  const appLog = app.log;
  log = (err) => appLog.error({ err }, 'rate limiter (Redis) failed; request admitted');
  // Stop the import worker before the database closes (after in-flight requests).
  app.addHook('onClose', async () => runner.stop());
  const loaded = crm.loadAllIndexes();
  // Observed here so that a failure while listen is pending is not unhandled; the caller awaits `loaded`.
  loaded.catch(() => undefined);
  let metricsUrl: string | null = null;
  try {
    await app.listen({ host: options.host, port: options.port });
    if (metricsApp !== null) {
      const m = options.metrics ?? DEFAULT_METRICS;
      await metricsApp.listen({ host: m.host, port: m.port ?? 0 });
      const a = metricsApp.server.address();
      metricsUrl = `http://${clientHost(m.host)}:${typeof a === 'object' && a !== null ? a.port : m.port}/metrics`;
    }
  } catch (err) {
    await app.close();
    await loaded.catch(() => undefined);
    await crm.close();
    throw err;
  }
  runner.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  if (metricsApp === null && access.api.kind !== 'off') metricsUrl = `http://${clientHost(options.host)}:${port}/metrics`;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${clientHost(options.host)}:${port}`,
    port,
    demoKey,
    metricsUrl,
    loaded,
    close: () => {
      closing ??= (async () => {
        try {
          await app.close();
        } finally {
          await crm.close();
        }
      })();
      return closing;
    },
  };
}

/** One line per contract tier: its per-second limits by rate category and its monthly quota. */
export function tierLimitLines(): string[] {
  const lines: string[] = [];
  for (const [tier, limits] of Object.entries(TIER_LIMITS)) {
    if (limits === null) continue;
    const rates = RATE_CATEGORIES.map((c) => `${c} ${limits.perSecond[c]}/s`).join(', ');
    const month = limits.monthlyQuota === null ? 'no monthly quota' : `${limits.monthlyQuota.toLocaleString('en-US')} requests a month`;
    lines.push(`${tier.padEnd(10)} ${rates}; ${month}`);
  }
  return lines;
}

/** What `serve` prints once listening: the demo key, its tier and a curl on a first start, then the "listening" line last. */
export function startBanner(server: RunningServer, db: string): string {
  const demo =
    server.demoKey === null
      ? ''
      : `matchbook: first start: created tenant "${DEMO_TENANT}" and this API key (shown only now):\n` +
        `  ${server.demoKey}\n` +
        `Its tier is ${DEMO_TIER}: no rate limits and no monthly quota, so scripts that do not retry on 429\n` +
        `(parsons, for one) run at full speed. Give each integration a key of a contract tier instead:\n` +
        `  matchbook keys create --tenant ${DEMO_TENANT} --tier Standard\n` +
        `Tiers (per key; High: canvassResponses, Low: find, findOrCreate, bulk import; Medium: the rest):\n` +
        tierLimitLines()
          .map((l) => `  ${l}\n`)
          .join('') +
        `Try it:\n${demoCurl(server.url, server.demoKey)}\n`;
  const metrics = server.metricsUrl === null ? `matchbook: metrics: not served (${METRICS_HINT})\n` : `matchbook: metrics: ${server.metricsUrl}\n`;
  return `${demo}${metrics}matchbook: listening on ${server.url} (database ${describeDb(db)}); GET /ready answers 200 once the indexes are loaded\n`;
}

/** Register `serve`. */
export function registerServe(program: Command, io: CliIo): void {
  program
    .command('serve')
    .description('start the HTTP API server')
    .option('--port <port>', `port to listen on (default: $PORT or ${DEFAULT_PORT})`, parsePort)
    .option('--host <host>', `address to listen on (default: $HOST or ${DEFAULT_HOST})`)
    .option('--db <path>', 'SQLite database file, or postgres://user@host:port/db (default: $MATCHBOOK_DB or ./var/matchbook.db)')
    .option(
      '--redis <url>',
      'redis://host:port shared by several processes for rate limits and quotas (default: $MATCHBOOK_REDIS; none: each process limits alone)',
    )
    .option(
      '--max-index-people <n>',
      'most people this process indexes; past it loading refuses (default: $MATCHBOOK_MAX_INDEX_PEOPLE or 70% of the heap limit / 1000 B)',
      parseCount,
    )
    .option('--trust-proxy', 'build Location from X-Forwarded-Proto/Host (only behind a trusted proxy)')
    .option('--metrics-port <port>', 'serve GET /metrics on this port only, not on the API port (default: $MATCHBOOK_METRICS_PORT; none)', parsePort)
    .option('--metrics-host <host>', `address of the metrics port (default: $MATCHBOOK_METRICS_HOST or ${DEFAULT_HOST})`)
    .option('--log-level <level>', 'fatal|error|warn|info|debug|trace|silent (default: $LOG_LEVEL or info)')
    .addOption(
      new Option(
        '--index <where>',
        "memory: each tenant's index in this process, loaded at start; database: blocking keys in PostgreSQL, nothing loaded, memory flat in tenant size (default: $MATCHBOOK_INDEX or memory)",
      ).choices(['memory', 'database']),
    )
    .addOption(
      new Option('--sync <mode>', 'full: every answered write is fsynced (group commit), survives power loss; normal: survives a killed server, not power loss')
        .choices(['full', 'normal'])
        .default('full'),
    )
    .action(
      async (opts: {
        port?: number;
        host?: string;
        db?: string;
        redis?: string;
        maxIndexPeople?: number;
        trustProxy?: boolean;
        logLevel?: string;
        sync: 'full' | 'normal';
        metricsPort?: number;
        metricsHost?: string;
        index?: 'memory' | 'database';
      }) => {
        const envPort = io.env['PORT'];
        const envMetricsPort = io.env['MATCHBOOK_METRICS_PORT'];
        const metricsKey = io.env['MATCHBOOK_METRICS_KEY'];
        const metrics: MetricsSettings = {
          port: opts.metricsPort ?? (envMetricsPort !== undefined && envMetricsPort !== '' ? parsePort(envMetricsPort) : null),
          host: opts.metricsHost ?? io.env['MATCHBOOK_METRICS_HOST'] ?? DEFAULT_HOST,
          key: metricsKey !== undefined && metricsKey.trim() !== '' ? metricsKey.trim() : null,
        };
        const envMax = io.env['MATCHBOOK_MAX_INDEX_PEOPLE'];
        const maxIndexPeople = opts.maxIndexPeople ?? (envMax !== undefined && envMax !== '' ? parseCount(envMax) : undefined);
        const envIndex = io.env['MATCHBOOK_INDEX'];
        if (opts.index === undefined && envIndex !== undefined && envIndex !== '' && envIndex !== 'memory' && envIndex !== 'database') {
          throw new Error(`MATCHBOOK_INDEX must be "memory" or "database", not "${envIndex.slice(0, 40)}".`);
        }
        const index = opts.index ?? (envIndex === 'database' ? 'database' : 'memory');
        const options: ServeOptions = {
          db: resolveDbPath(opts.db, io),
          index,
          host: opts.host ?? io.env['HOST'] ?? DEFAULT_HOST,
          port: opts.port ?? (envPort !== undefined && envPort !== '' ? parsePort(envPort) : DEFAULT_PORT),
          trustProxy: opts.trustProxy ?? false,
          logLevel: opts.logLevel ?? io.env['LOG_LEVEL'] ?? 'info',
          synchronous: opts.sync === 'normal' ? 'NORMAL' : 'FULL',
          imports: importSettingsFromEnv(io.env),
          timeouts: httpTimeoutsFromEnv(io.env),
          redis: opts.redis ?? io.env['MATCHBOOK_REDIS'] ?? null,
          metrics,
          ...(maxIndexPeople === undefined ? {} : { maxIndexPeople }),
        };
        const guard = io.handleSignals ? new SignalGuard(io) : null;
        let server: RunningServer;
        try {
          server = await startServer(options);
        } catch (err) {
          guard?.dispose();
          throw err;
        }
        if (guard === null || guard.started(server)) io.stderr(startBanner(server, options.db));
        const started = performance.now();
        let complete: boolean;
        try {
          complete = await server.loaded;
        } catch (err) {
          // A server that cannot load its indexes (e.g. past --max-index-people) cannot serve: exit 1.
          await server.close().catch(() => undefined);
          guard?.dispose();
          throw err;
        }
        if (complete) io.stderr(`matchbook: ready: indexes loaded in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
      },
    );
}

/**
 * The HTTP adapter: a fastify instance serving the API under `/v2` (the contract) and `/v4`
 * (what real clients hard-code), same handlers. No I/O of its own beyond HTTP: the caller
 * listens (src/cli/serve.ts) or injects (tests).
 */
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { createAuthHook } from './auth.js';
import { EXPANDABLE, type CrmPort } from './crm-port.js';
import { JSON_TYPE, NOT_FOUND_TEXT, httpError, renderError, sendError } from './http-error.js';
import { DEFAULT_BODY_LIMIT, installJsonParser } from './json-body.js';
import { MethodTable } from './method-table.js';
import { MemoryRateLimiter, type RateLimiter, type UsageLedger } from './rate-limit.js';
import { createRateLimitHook } from './rate-limit-hook.js';
import { registerApiKeyProfileRoutes } from './routes/api-key-profiles.js';
import { registerCanvassRoutes } from './routes/canvass.js';
import { registerLookupRoutes } from './routes/lookups.js';
import { installRequestLog, serializeRequest } from './request-log.js';
import { DEFAULT_HTTP_TIMEOUTS, httpServerOptions, type HttpTimeouts } from './timeouts.js';
import { registerPeopleRoutes } from './routes/people.js';
import { registerPossibleMatchRoutes } from './routes/possible-matches.js';
import { registerOpsRoutes, type ReadinessCheck } from './routes/ops.js';
import { Metrics, installRequestMetrics, registerMetricsRoute, type MetricsAccess } from './metrics.js';
import { buildOpenApi, type RegisteredRoute } from './openapi.js';
import { registerDocsRoutes, registerOpenApiRoute, type DocsAssets } from './routes/docs.js';
import { registerBulkImportRoutes, registerResultFileRoute } from './routes/bulk-import.js';
import type { BulkImports } from '../crm/index.js';

/** Version prefixes every endpoint is served under. */
export const API_PREFIXES: readonly string[] = ['/v2', '/v4'];

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered (method and URL pattern, HEAD included), in order: the OpenAPI document's source. */
    readonly registeredRoutes: readonly RegisteredRoute[];
  }
}

/** The version the OpenAPI document states (package.json's). */
export const API_VERSION = '0.1.0';

/** Longest accepted path parameter (a `{personIdType}:{personId}` segment), in characters. */
export const MAX_PARAM_LENGTH = 500;

/** Options of {@link buildApp}. */
export interface BuildAppOptions {
  /** The domain facade (the real `Crm`, or a fake in HTTP-layer unit tests). */
  readonly crm: CrmPort;
  /** Fastify logger setting (`false`, `true` or pino options); default off. */
  readonly logger?: FastifyServerOptions['logger'];
  /** A ready pino-compatible logger instance; wins over `logger`. */
  readonly loggerInstance?: FastifyBaseLogger;
  /** Honour X-Forwarded-Proto / X-Forwarded-Host when building `Location`. Default false. */
  readonly trustProxy?: boolean;
  /** Largest accepted body in bytes. Default {@link DEFAULT_BODY_LIMIT} (1 MiB). */
  readonly bodyLimit?: number;
  /** Header, request and idle timeouts (timeouts.ts); each defaults to {@link DEFAULT_HTTP_TIMEOUTS}. */
  readonly timeouts?: Partial<HttpTimeouts>;
  /** Valid `$expand` values. Default: the facade's list. */
  readonly expandable?: readonly string[];
  /**
   * Rate limits and quotas (rate-limit.ts). Default: a {@link MemoryRateLimiter} keeping monthly
   * usage through the facade; closed with the app.
   */
  readonly rateLimiter?: RateLimiter;
  /** Bulk import service (src/crm/import); its routes are served when given. */
  readonly imports?: BulkImports;
  /** Largest upload of POST /bulkImportFiles in bytes. Default 100 MiB. */
  readonly maxUploadBytes?: number;
  /** What `GET /ready` asks. Default: the facade's `readiness`, else always ready. */
  readonly readiness?: ReadinessCheck;
  /** Where requests, decisions and refusals are counted (metrics.ts). Default: a new registry. */
  readonly metrics?: Metrics;
  /** Who may read `GET /metrics` on this app. Default: anyone (`open`). */
  readonly metricsAccess?: MetricsAccess;
  /** The files of the `/docs` page (src/cli/docs-assets.ts). Default: none (the page loads no UI). */
  readonly docsAssets?: DocsAssets;
}

/** The facade as a usage ledger, when it has the usage methods. */
function ledgerOf(crm: CrmPort): UsageLedger | null {
  const { addKeyUsage, getKeyUsage } = crm;
  if (addKeyUsage === undefined || getKeyUsage === undefined) return null;
  return { addKeyUsage: addKeyUsage.bind(crm), getKeyUsage: getKeyUsage.bind(crm) };
}

/** Build the API server. Call `.ready()` / `.listen()` / `.inject()` on the result. */
export function buildApp(options: BuildAppOptions): FastifyInstance {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const timeouts: HttpTimeouts = { ...DEFAULT_HTTP_TIMEOUTS, ...options.timeouts };
  const base = {
    trustProxy: options.trustProxy ?? false,
    bodyLimit,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.idleMs,
    // The default 503 body during shutdown is not our envelope; in-flight requests finish instead.
    return503OnClosing: false,
    // One line per request instead (request-log.ts), with the match outcome in it. (The
    // top-level disableRequestLogging option is deprecated since fastify 5.10: FSTDEP023.)
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
      sendError(reply, renderError(error, request.log));
    },
    clientErrorHandler: writeClientError,
  } satisfies FastifyServerOptions;
  // Node's own server options (FastifyHttpOptions.http): the header timeout and how often it is checked.
  const http = httpServerOptions(timeouts);
  const app: FastifyInstance =
    options.loggerInstance !== undefined
      ? Fastify({ ...base, http, loggerInstance: options.loggerInstance })
      : Fastify({ ...base, http, logger: withRedactingSerializer(options.logger ?? false) });

  app.decorateRequest('identity', null);
  app.decorateRequest('callContext', null);
  installJsonParser(app, bodyLimit);
  installRequestLog(app);
  const metrics = options.metrics ?? new Metrics();
  const sizes = options.crm.indexSizes?.bind(options.crm);
  if (sizes !== undefined) metrics.indexSizes = sizes;
  const waits = options.crm.lockWaits?.bind(options.crm);
  if (waits !== undefined) metrics.lockWaits = waits;
  installRequestMetrics(app, metrics);

  const methods = new MethodTable();
  methods.install(app);
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) routes.push({ method, url: route.url });
  });
  app.decorate('registeredRoutes', routes);
  let openApi: Record<string, unknown> | null = null;
  const document = (): Record<string, unknown> => (openApi ??= buildOpenApi(routes, API_VERSION));

  app.setErrorHandler((error, request, reply) => sendError(reply, renderError(error, request.log)));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '';
    const allowed = methods.allowedMethods(path);
    if (allowed.length > 0) {
      const err = httpError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed here; use ${allowed.join(' or ')}.`, {
        headers: { allow: allowed.join(', ') },
      });
      return sendError(reply, renderError(err, request.log));
    }
    return sendError(reply, renderError(httpError(404, 'NOT_FOUND', NOT_FOUND_TEXT), request.log));
  });

  const readiness = options.readiness ?? options.crm.readiness?.bind(options.crm) ?? null;
  registerOpsRoutes(app, { readiness });
  registerMetricsRoute(app, metrics, options.metricsAccess ?? { kind: 'open' });
  registerOpenApiRoute(app, document);
  registerDocsRoutes(app, options.docsAssets ?? (() => null));

  const authenticate = createAuthHook(options.crm);
  const expandable = options.expandable ?? EXPANDABLE;
  const limiter =
    options.rateLimiter ?? new MemoryRateLimiter({ ledger: ledgerOf(options.crm), onFlushError: (err) => app.log.error({ err }, 'usage flush failed') });
  // A failed last flush loses at most the last second's counts; it must not fail the shutdown.
  app.addHook('onClose', async () => limiter.close().catch((err: unknown) => app.log.error({ err }, 'usage flush failed')));
  for (const prefix of API_PREFIXES) {
    void app.register(
      async (api) => {
        api.addHook('onRequest', authenticate);
        api.addHook(
          'onRequest',
          createRateLimitHook(limiter, prefix, (category, reason, tier) => metrics.observeRefusal(category, reason, tier)),
        );
        registerApiKeyProfileRoutes(api, { limiter, crm: options.crm });
        registerLookupRoutes(api, { crm: options.crm });
        registerCanvassRoutes(api, { crm: options.crm, prefix });
        registerPeopleRoutes(api, { crm: options.crm, prefix, expandable });
        registerPossibleMatchRoutes(api, { crm: options.crm, expandable });
        if (options.imports !== undefined) {
          registerBulkImportRoutes(api, { imports: options.imports, prefix, maxUploadBytes: options.maxUploadBytes ?? 100 * 1024 * 1024 });
        }
      },
      { prefix },
    );
    const imports = options.imports;
    // Result files: their name is the secret; a key, when one is sent, narrows them to its scope.
    if (imports !== undefined) void app.register(async (files) => registerResultFileRoute(files, { imports, authenticate }), { prefix });
    // The document, outside the key's hook.
    void app.register(async (open) => registerOpenApiRoute(open, document), { prefix });
  }
  return app;
}

/** Logger options with the `req` serializer that redacts credentials from URLs (redact-url.ts). */
function withRedactingSerializer(logger: NonNullable<FastifyServerOptions['logger']>): NonNullable<FastifyServerOptions['logger']> {
  if (logger === false) return logger;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { ...options.serializers, req: serializeRequest } };
}

/**
 * The app of a metrics port of its own (`--metrics-port`): `GET /metrics` with `access`, and
 * the error envelope for anything else. The caller listens.
 */
export function buildMetricsApp(metrics: Metrics, access: MetricsAccess): FastifyInstance {
  const app = Fastify({ logger: false, return503OnClosing: false, clientErrorHandler: writeClientError });
  app.setErrorHandler((error, request, reply) => sendError(reply, renderError(error, request.log)));
  app.setNotFoundHandler((request, reply) => sendError(reply, renderError(httpError(404, 'NOT_FOUND', NOT_FOUND_TEXT), request.log)));
  registerMetricsRoute(app, metrics, access);
  return app;
}

/**
 * Answer a request Node's HTTP parser rejected (malformed request line, header overflow,
 * timeout) with the envelope instead of fastify's default body.
 */
function writeClientError(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let code = 'BAD_REQUEST';
  let text = 'The HTTP request is malformed.';
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    code = 'REQUEST_TIMEOUT';
    text = 'The request was not received in time.';
  } else if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    code = 'REQUEST_HEADER_FIELDS_TOO_LARGE';
    text = 'The request headers are too large.';
  }
  const body = JSON.stringify({ errors: [{ code, text }] });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: ${JSON_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

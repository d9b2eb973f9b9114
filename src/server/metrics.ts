/**
 * Prometheus metrics (prom-client), one registry per server, in the text exposition format at
 * `GET /metrics`. What is counted:
 *
 * | metric | type | labels |
 * |---|---|---|
 * | `matchbook_http_requests_total` | counter | `route` (pattern, e.g. `/v4/people/:ref`), `method`, `status`, `category` (High, Medium, Low; `none` outside the API) |
 * | `matchbook_http_request_duration_seconds` | histogram | `route`, `method`, `category` |
 * | `matchbook_match_decisions_total` | counter | `operation` (find, findOrCreate, contacts/findOrCreate, update), `status` (Matched, UnmatchedStored, Unmatched), `reason` (how it matched: crmId, identifier, score; or why not: below-minimum, no-candidates, below-threshold, criterion-disagrees, no-gate-agrees) |
 * | `matchbook_rate_limit_refusals_total` | counter | `category`, `reason` (rate, quota), `tier` |
 * | `matchbook_index_people` | gauge | `tenant` (id), `context`: people in each loaded index, read at scrape |
 * | `matchbook_import_rows_total` | counter | `result` (processed, failed): bulk import rows this process finished |
 * | `matchbook_people_lock_units_total`, `matchbook_people_lock_waited_total`, `matchbook_people_lock_wait_seconds_total` | counter | people units of this process that took locks (PostgreSQL), those that waited at least 1 ms for another's, and the time spent taking them: near zero while requests are for different people |
 * | `matchbook_import_jobs_total` | counter | `status` (Completed, CompletedWithErrors, Failed): jobs this process finished |
 * | `matchbook_process_*`, `matchbook_nodejs_*` | | prom-client's default process metrics (CPU, memory, event loop lag, GC) |
 *
 * Each process counts its own requests; sum over processes in PromQL. Who may read them is the
 * server's choice ({@link MetricsAccess}, README "Metrics").
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ContextName } from './crm-port.js';
import { httpError, sendError, renderError } from './http-error.js';
import { categoryOf, type RateCategory } from './rate-limit.js';

/** People in one loaded index. */
export interface IndexSize {
  readonly tenantId: number;
  readonly context: ContextName;
  readonly people: number;
}

/** Latency buckets in seconds: a find takes about 0.2-2 ms, an import upload seconds. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

const API_PREFIX = /^\/v[24](?=\/)/;

/** The metrics of one server. */
export class Metrics {
  /** The registry `GET /metrics` renders. */
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'method' | 'status' | 'category'>;
  private readonly duration: Histogram<'route' | 'method' | 'category'>;
  private readonly decisions: Counter<'operation' | 'status' | 'reason'>;
  private readonly refusals: Counter<'category' | 'reason' | 'tier'>;
  private readonly importRows: Counter<'result'>;
  private readonly importJobs: Counter<'status'>;
  /** Where the index sizes come from at scrape time (the Crm facade); none: the gauge is empty. */
  indexSizes: (() => readonly IndexSize[]) | null = null;
  /** Where the people lock waits come from at scrape time (the Crm facade); none: zeros. */
  lockWaits: (() => { readonly acquisitions: number; readonly waited: number; readonly totalMs: number }) | null = null;
  /** Children of the request metrics per label set: prom-client hashes labels on every call otherwise. */
  private readonly children = new Map<string, { count: Counter; time: Histogram }>();
  private readonly categories = new Map<string, RateCategory | 'none'>();

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'matchbook_' });
    this.requests = new Counter({
      name: 'matchbook_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method, status and rate category.',
      labelNames: ['route', 'method', 'status', 'category'],
      registers,
    });
    this.duration = new Histogram({
      name: 'matchbook_http_request_duration_seconds',
      help: 'Time from receiving a request to sending its answer, by route pattern, method and rate category.',
      labelNames: ['route', 'method', 'category'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.decisions = new Counter({
      name: 'matchbook_match_decisions_total',
      help: 'find, findOrCreate and update decisions, by operation, status and reason (how it matched, or why not).',
      labelNames: ['operation', 'status', 'reason'],
      registers,
    });
    this.refusals = new Counter({
      name: 'matchbook_rate_limit_refusals_total',
      help: 'Requests refused with 429, by rate category, reason (rate or quota) and tier.',
      labelNames: ['category', 'reason', 'tier'],
      registers,
    });
    this.importRows = new Counter({
      name: 'matchbook_import_rows_total',
      help: 'Bulk import rows this process finished, by result (processed: every mapping type applied; failed: at least one said why not).',
      labelNames: ['result'],
      registers,
    });
    this.importJobs = new Counter({
      name: 'matchbook_import_jobs_total',
      help: 'Bulk import jobs this process finished, by final status.',
      labelNames: ['status'],
      registers,
    });
    const sizes = (): readonly IndexSize[] => this.indexSizes?.() ?? [];
    new Gauge({
      name: 'matchbook_index_people',
      help: 'People in each loaded in-memory index, by tenant id and context.',
      labelNames: ['tenant', 'context'],
      registers,
      collect() {
        this.reset();
        for (const s of sizes()) this.set({ tenant: String(s.tenantId), context: s.context }, s.people);
      },
    });
    const waits = () => this.lockWaits?.() ?? { acquisitions: 0, waited: 0, totalMs: 0 };
    // Counters read from the store at scrape (prom-client's Counter has no setter: these are Gauges typed as counters).
    const lockMetric = (name: string, help: string, read: () => number): void => {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    };
    lockMetric('matchbook_people_lock_units_total', 'People units of this process that took locks (PostgreSQL).', () => waits().acquisitions);
    lockMetric('matchbook_people_lock_waited_total', "Of those, units that waited at least 1 ms for another unit's locks.", () => waits().waited);
    lockMetric('matchbook_people_lock_wait_seconds_total', 'Time people units of this process spent taking their locks.', () => waits().totalMs / 1000);
  }

  /** Counts an answered request (called once per response). */
  observeRequest(route: string, method: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let child = this.children.get(key);
    if (child === undefined) {
      const category = this.categoryOf(method, route);
      child = {
        count: this.requests.labels(route, method, String(status), category) as unknown as Counter,
        time: this.duration.labels(route, method, category) as unknown as Histogram,
      };
      this.children.set(key, child);
    }
    child.count.inc();
    child.time.observe(seconds);
  }

  /** The rate category of a route pattern; `none` outside the API prefixes. */
  private categoryOf(method: string, route: string): RateCategory | 'none' {
    const key = `${method} ${route}`;
    let category = this.categories.get(key);
    if (category === undefined) {
      const m = API_PREFIX.exec(route);
      category = m === null ? 'none' : categoryOf(method, route.slice(m[0].length));
      this.categories.set(key, category);
    }
    return category;
  }

  /** Counts a match decision. */
  observeDecision(operation: string, status: string, reason: string): void {
    this.decisions.inc({ operation, status, reason });
  }

  /** Counts a 429. */
  observeRefusal(category: RateCategory, reason: 'rate' | 'quota', tier: string): void {
    this.refusals.inc({ category, reason, tier });
  }

  /** Counts a finished bulk import row. */
  observeImportRow(ok: boolean): void {
    this.importRows.inc({ result: ok ? 'processed' : 'failed' });
  }

  /** Counts a finished bulk import job. */
  observeImportJob(status: string): void {
    this.importJobs.inc({ status });
  }
}

/**
 * Who may read `GET /metrics` on the API port:
 * - `open`: anyone who reaches the port (the default when the server listens on loopback only);
 * - `key`: requests with `Authorization: Bearer <key>`;
 * - `off`: nobody (403 saying how to turn it on): the metrics are served on a port of their
 *   own ({@link registerMetricsRoute} on another app), or not at all.
 */
export type MetricsAccess = { readonly kind: 'open' } | { readonly kind: 'key'; readonly key: string } | { readonly kind: 'off'; readonly hint: string };

function bearerOf(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1] ?? null;
}

/** Registers `GET /metrics` (no API key, no rate limit, debug-level log) with the given access rule. */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, access: MetricsAccess): void {
  app.get('/metrics', { logLevel: 'warn' }, async (request: FastifyRequest, reply: FastifyReply) => {
    if (access.kind === 'off') {
      return sendError(reply, renderError(httpError(403, 'FORBIDDEN', 'Metrics are not served on this port.', { hint: access.hint }), request.log));
    }
    if (access.kind === 'key' && bearerOf(request) !== access.key) {
      return sendError(
        reply,
        renderError(
          httpError(401, 'UNAUTHORIZED', 'The metrics need the metrics key.', {
            hint: 'Send Authorization: Bearer <MATCHBOOK_METRICS_KEY>.',
            headers: { 'www-authenticate': 'Bearer realm="matchbook-metrics"' },
          }),
          request.log,
        ),
      );
    }
    const text = await metrics.registry.metrics();
    return reply.code(200).header('cache-control', 'no-store').type(metrics.registry.contentType).send(text);
  });
}

/** Counts every answered request of `app` (its route pattern, or `unmatched` for a 404/405 of no route). */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    const match = request.matchLog;
    if (match !== null) metrics.observeDecision(match.operation, match.status, match.reason ?? match.matchedBy ?? 'none');
  });
}

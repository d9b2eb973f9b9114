/**
 * GET /metrics in-process: the Prometheus text format with requests by route, status and rate
 * category, latency histograms, match decisions by reason, rate-limit refusals, index sizes per
 * scope, import rows and jobs by status; and who may read it (open, a key, off, its own port).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_METRICS, metricsAccessOf } from '../../src/cli/serve-settings.js';
import { Crm } from '../../src/crm/index.js';
import { buildApp, buildMetricsApp } from '../../src/server/app.js';
import { Metrics } from '../../src/server/metrics.js';
import { MemoryRateLimiter } from '../../src/server/rate-limit.js';
import { clientBody, openImportServer, waitForJob, type ImportServer } from './import-helpers.js';

/** The value of one sample line `name{labels} value`, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf('}'));
    const got = Object.fromEntries([...body.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v) && Object.keys(got).length === Object.keys(labels).length) {
      return Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return undefined;
}

describe('GET /metrics', () => {
  let crm: Crm;
  let app: ReturnType<typeof buildApp>;
  let key: string;
  let clock = 1_700_000_000_000;

  beforeAll(async () => {
    crm = await Crm.open({ db: ':memory:' });
    const tenant = await crm.createTenant('metered');
    key = (await crm.createKey({ tenant: 'metered', tier: 'Startup' })).key;
    expect(tenant.id).toBe(1);
    // An injected clock: the three finds below fall in one rate window whatever the machine's load.
    app = buildApp({ crm, rateLimiter: new MemoryRateLimiter({ ledger: null, now: () => clock }) });
  });
  afterAll(async () => {
    await app.close();
    await crm.close();
  });

  const post = (url: string, payload: unknown) =>
    app.inject({ method: 'POST', url, headers: { apiKey: key, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
  const ada = { firstName: 'Ada', lastName: 'Lovelace', emails: [{ email: 'ada@example.org' }] };

  it('counts requests, latencies, decisions, refusals and index sizes', async () => {
    expect((await post('/v4/people/findOrCreate', ada)).statusCode).toBe(201);
    clock += 1000;
    expect((await post('/v4/people/find', ada)).statusCode).toBe(302);
    expect((await post('/v4/people/find', { emails: [{ email: 'grace.hopper@example.org' }] })).statusCode).toBe(404);
    expect((await post('/v4/people/find', ada)).statusCode).toBe(429);
    await app.inject({ method: 'GET', url: '/health' });

    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(sample(text, 'matchbook_http_requests_total', { route: '/v4/people/findOrCreate', method: 'POST', status: '201', category: 'Low' })).toBe(1);
    expect(sample(text, 'matchbook_http_requests_total', { route: '/v4/people/find', method: 'POST', status: '302', category: 'Low' })).toBe(1);
    expect(sample(text, 'matchbook_http_requests_total', { route: '/v4/people/find', method: 'POST', status: '404', category: 'Low' })).toBe(1);
    expect(sample(text, 'matchbook_http_requests_total', { route: '/v4/people/find', method: 'POST', status: '429', category: 'Low' })).toBe(1);
    expect(sample(text, 'matchbook_http_requests_total', { route: '/health', method: 'GET', status: '200', category: 'none' })).toBe(1);
    expect(sample(text, 'matchbook_http_request_duration_seconds_count', { route: '/v4/people/find', method: 'POST', category: 'Low' })).toBe(3);
    expect(sample(text, 'matchbook_http_request_duration_seconds_bucket', { route: '/v4/people/find', method: 'POST', category: 'Low', le: '+Inf' })).toBe(3);
    expect(sample(text, 'matchbook_match_decisions_total', { operation: 'findOrCreate', status: 'UnmatchedStored', reason: 'no-candidates' })).toBe(1);
    expect(sample(text, 'matchbook_match_decisions_total', { operation: 'find', status: 'Matched', reason: 'score' })).toBe(1);
    expect(sample(text, 'matchbook_match_decisions_total', { operation: 'find', status: 'Unmatched', reason: 'no-candidates' })).toBe(1);
    expect(sample(text, 'matchbook_rate_limit_refusals_total', { category: 'Low', reason: 'rate', tier: 'Startup' })).toBe(1);
    expect(sample(text, 'matchbook_index_people', { tenant: '1', context: 'voterfile' })).toBe(1);
    expect(text).toMatch(/^matchbook_process_resident_memory_bytes \d+/m);
    expect(text).toContain('# TYPE matchbook_http_request_duration_seconds histogram');
  });

  it('needs no API key and is not rate limited', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
    }
  });
});

describe('who may read the metrics', () => {
  it('open on loopback, off elsewhere, a key when set, its own port when set', () => {
    expect(metricsAccessOf(DEFAULT_METRICS, '127.0.0.1').api).toEqual({ kind: 'open' });
    expect(metricsAccessOf(DEFAULT_METRICS, '::1').api).toEqual({ kind: 'open' });
    expect(metricsAccessOf(DEFAULT_METRICS, '0.0.0.0').api).toMatchObject({ kind: 'off' });
    expect(metricsAccessOf({ ...DEFAULT_METRICS, key: 's3cret' }, '0.0.0.0')).toEqual({ api: { kind: 'key', key: 's3cret' }, own: null });
    const own = metricsAccessOf({ ...DEFAULT_METRICS, port: 9464 }, '0.0.0.0');
    expect(own.api).toMatchObject({ kind: 'off' });
    expect(own.own).toEqual({ kind: 'open' });
    expect(metricsAccessOf({ port: 9464, host: '127.0.0.1', key: 'k' }, '127.0.0.1').own).toEqual({ kind: 'key', key: 'k' });
  });

  it('key: 401 without it or with another, 200 with Authorization: Bearer', async () => {
    const crm = await Crm.open({ db: ':memory:' });
    const app = buildApp({ crm, metricsAccess: { kind: 'key', key: 's3cret' } });
    const none = await app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ errors: [{ code: 'UNAUTHORIZED', hint: 'Send Authorization: Bearer <MATCHBOOK_METRICS_KEY>.' }] });
    expect((await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer other' } })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer s3cret' } })).statusCode).toBe(200);
    await app.close();
    await crm.close();
  });

  it('off: 403 saying how to turn them on; a metrics app of its own serves them', async () => {
    const crm = await Crm.open({ db: ':memory:' });
    const metrics = new Metrics();
    const app = buildApp({ crm, metrics, metricsAccess: { kind: 'off', hint: 'Set MATCHBOOK_METRICS_KEY.' } });
    const off = await app.inject({ method: 'GET', url: '/metrics' });
    expect(off.statusCode).toBe(403);
    expect(off.json()).toEqual({ errors: [{ code: 'FORBIDDEN', text: 'Metrics are not served on this port.', hint: 'Set MATCHBOOK_METRICS_KEY.' }] });
    await app.inject({ method: 'GET', url: '/health' });
    const own = buildMetricsApp(metrics, { kind: 'open' });
    const res = await own.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(sample(res.body, 'matchbook_http_requests_total', { route: '/health', method: 'GET', status: '200', category: 'none' })).toBe(1);
    expect((await own.inject({ method: 'GET', url: '/v4/people/1' })).statusCode).toBe(404);
    await own.close();
    await app.close();
    await crm.close();
  });
});

describe('bulk import metrics', () => {
  let s: ImportServer;
  const metrics = new Metrics();
  beforeAll(async () => {
    s = await openImportServer({ metrics });
  });
  afterAll(async () => {
    await s.close();
  });

  it('count finished rows by result and jobs by status', async () => {
    await s.crm.createTenant('importer');
    const key = (await s.crm.createKey({ tenant: 'importer', tier: 'Internal' })).key;
    const body = clientBody('parsons-sent-bulk-import-job-request-upsert-contacts.json');
    body['file'].sourceUrl = s.files.put('/m.csv', 'Vanid,email\n,m1@example.org\n,bad\n,m2@example.org\n');
    const created = await fetch(`${s.url}/v4/bulkImportJobs`, {
      method: 'POST',
      headers: { apiKey: key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const job = await waitForJob(s, key, ((await created.json()) as { jobId: number }).jobId);
    expect(job.status).toBe('Completed');
    // The job's final status is readable as soon as it is applied; the runner counts the job
    // once its write is durable (SQLite syncs off the event loop), a moment later.
    let text = await metrics.registry.metrics();
    // Polled for as long as a start-up wait (a loaded machine can hold the sync back for seconds).
    for (const end = Date.now() + 100_000; Date.now() < end && sample(text, 'matchbook_import_jobs_total', { status: 'Completed' }) === undefined;) {
      await new Promise((r) => setTimeout(r, 10));
      text = await metrics.registry.metrics();
    }
    expect(sample(text, 'matchbook_import_rows_total', { result: 'processed' })).toBe(2);
    expect(sample(text, 'matchbook_import_rows_total', { result: 'failed' })).toBe(1);
    expect(sample(text, 'matchbook_import_jobs_total', { status: 'Completed' })).toBe(1);
  });
});

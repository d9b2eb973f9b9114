/**
 * autocannon runs of the API benches: POST bodies of a pool in turn (no body repeats within a
 * run of the pool's length), against one server or several at once.
 */
import autocannon, { type Result } from 'autocannon';

/**
 * POSTs `bodies` in turn to `base + path` with `connections` for `seconds`, authenticated with `key`;
 * as fast as answers come, or at most `rate` requests per second in all (latency at a set load).
 */
export async function hammer(
  base: string,
  path: string,
  key: string,
  bodies: readonly string[],
  connections: number,
  seconds: number,
  rate?: number,
): Promise<Result> {
  let next = 0;
  return autocannon({
    url: base,
    connections,
    duration: seconds,
    timeout: 10,
    ...(rate === undefined ? {} : { overallRate: rate }),
    requests: [
      {
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`apiuser:${key}`).toString('base64')}` },
        setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length]! }),
      },
    ],
  });
}

/** What {@link hammerAll} measured over several servers. */
export interface SpreadRun {
  reqPerSec: number;
  p50: number;
  p99: number;
  /** Requests answered, over all servers. */
  requests: number;
  statuses: string;
  /** Answers by status code, over all servers. */
  counts: ReadonlyMap<string, number>;
  errors: number;
}

/**
 * autocannon against `bases` at once, the connections split evenly (a load balancer's
 * round robin); req/s summed, p50 the mean and p99 the worst of the per-process runs.
 * `rate`: at most that many requests per second in all, split evenly too.
 */
export async function hammerAll(
  bases: readonly string[],
  path: string,
  key: string,
  bodies: readonly string[],
  connections: number,
  seconds: number,
  rate?: number,
): Promise<SpreadRun> {
  const per = Math.max(1, Math.round(connections / bases.length));
  const slice = Math.ceil(bodies.length / bases.length);
  const results = await Promise.all(
    bases.map((base, i) =>
      hammer(base, path, key, bodies.slice(i * slice, (i + 1) * slice), per, seconds, rate === undefined ? undefined : rate / bases.length),
    ),
  );
  const counts = new Map<string, number>();
  for (const r of results) for (const [code, { count }] of Object.entries(r.statusCodeStats)) counts.set(code, (counts.get(code) ?? 0) + count);
  return {
    reqPerSec: results.reduce((n, r) => n + r.requests.average, 0),
    p50: results.reduce((n, r) => n + r.latency.p50, 0) / results.length,
    p99: Math.max(...results.map((r) => r.latency.p99)),
    requests: results.reduce((n, r) => n + r.requests.total, 0),
    counts,
    statuses: [...counts]
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([c, n]) => `${c}: ${n}`)
      .join(', '),
    errors: results.reduce((n, r) => n + r.errors + r.timeouts, 0),
  };
}

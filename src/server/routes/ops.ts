/**
 * Operator endpoints, outside the API prefixes: no key, no rate limit, logged at debug level
 * (probes call them every few seconds).
 * - `GET /health`: the process is up and its event loop turns. Always 200 while it answers.
 * - `GET /ready`: the process can serve (see {@link Readiness}): 200, or 503 saying why (while
 *   the indexes load at start, while one is rebuilt, when the database does not answer).
 */
import type { FastifyInstance } from 'fastify';
import type { Readiness } from '../crm-port.js';

/** How the ready check asks the domain; without one the process is ready once it answers. */
export type ReadinessCheck = () => Promise<Readiness>;

/** Options of the operator routes. */
export interface OpsRoutesOptions {
  readonly readiness: ReadinessCheck | null;
}

const ALWAYS_READY: Readiness = { ready: true, reason: null, database: true, scopes: 0, people: 0, loading: 0 };

/** Register `/health` and `/ready` on the root instance. */
export function registerOpsRoutes(app: FastifyInstance, options: OpsRoutesOptions): void {
  app.get('/health', { logLevel: 'warn' }, async (_request, reply) =>
    reply
      .code(200)
      .header('cache-control', 'no-store')
      .send({ status: 'ok', uptimeSeconds: Math.floor(process.uptime()) }),
  );

  app.get('/ready', { logLevel: 'warn' }, async (_request, reply) => {
    const r = options.readiness === null ? ALWAYS_READY : await options.readiness();
    const checks = { database: r.database, scopes: r.scopes, people: r.people, loading: r.loading };
    reply.header('cache-control', 'no-store');
    if (r.ready) return reply.code(200).send({ status: 'ready', checks });
    // The API's error envelope too, so a client that parses every error body finds it.
    const reason = r.reason ?? 'Not ready.';
    return reply
      .code(503)
      .header('retry-after', '1')
      .send({
        status: 'not-ready',
        reason,
        checks,
        errors: [{ code: 'SERVICE_UNAVAILABLE', text: reason }],
      });
  });
}

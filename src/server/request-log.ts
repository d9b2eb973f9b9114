/**
 * One log line per request (instead of fastify's two), written when the response is sent:
 * method, URL, status, duration, tenant and context, and for find/findOrCreate the match
 * outcome with why it did or did not match. Keys never appear: only the key id, and the URL
 * is logged with its credentials redacted (redact-url.ts: a key pasted into the query or a
 * path, result file and upload tokens).
 */
import type { FastifyInstance } from 'fastify';
import { redactUrl } from './redact-url.js';

/** What a find/findOrCreate handler records about its decision, for the request's log line. */
export interface MatchLog {
  readonly operation: string;
  readonly status: string;
  readonly crmId: number | null;
  readonly reason: string | null;
  readonly matchedBy: string | null;
  readonly updated: boolean;
  readonly score: number;
  readonly gate: string | null;
  readonly candidates: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the match routes; logged with the request. */
    matchLog: MatchLog | null;
  }
}

/** fastify's `req` serializer (used by any log line given a request), with the URL redacted. */
export function serializeRequest(req: { method?: string; url?: string; hostname?: string; ip?: string }): Record<string, unknown> {
  return { method: req.method, url: redactUrl(req.url ?? ''), host: req.hostname, remoteAddress: req.ip };
}

/** Install the per-request log line. Call before routes are registered. */
export function installRequestLog(app: FastifyInstance): void {
  app.decorateRequest('matchLog', null);
  app.addHook('onResponse', async (request, reply) => {
    const line: Record<string, unknown> = {
      method: request.method,
      url: redactUrl(request.url),
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (request.identity !== null) {
      line['tenantId'] = request.identity.tenantId;
      line['keyId'] = request.identity.keyId;
    }
    if (request.callContext !== null) line['context'] = request.callContext.context;
    if (request.matchLog !== null) line['match'] = request.matchLog;
    if (reply.statusCode >= 500) request.log.error(line, 'request');
    else request.log.info(line, 'request');
  });
}

/**
 * The review queue of `Possible` matches (README "Possible matches", src/crm/review.ts):
 * `GET /possibleMatches` (paged as the other lists: `$top`/`$skip`, `{items, count,
 * nextPageLink}`; `status` open (default), same, different or all; `$expand` as GET
 * /people/{crmId}), `GET /possibleMatches/{id}` (one pair with its decision and audit
 * entries) and `POST /possibleMatches/{id}` with `{"decision":"same"|"different"}`. Medium
 * rate category (rate-limit.ts: every endpoint not named High or Low). A pair of another
 * tenant or context is a 404, as an unknown id.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callContextOf } from '../auth.js';
import type { CrmPort } from '../crm-port.js';
import { httpError, notFound } from '../http-error.js';
import { pagedList, readPage } from '../paging.js';
import { parseExpand } from '../query.js';

/** A pair id from the path, or null (404) when it is not a whole number. */
function pairId(segment: string): number | null {
  return /^\d{1,15}$/.test(segment) && Number(segment) > 0 ? Number(segment) : null;
}

function firstString(raw: unknown): string | undefined {
  const value = Array.isArray(raw) ? (raw as unknown[])[0] : raw;
  return typeof value === 'string' ? value : undefined;
}

function identityOf(request: FastifyRequest): { keyId: number; tenantName: string } {
  const identity = request.identity;
  if (identity === null) throw httpError(401, 'UNAUTHORIZED', 'An API key is required.');
  return { keyId: identity.keyId, tenantName: identity.tenantName };
}

/** Register the routes on an authenticated, prefixed instance (when the facade has them). */
export function registerPossibleMatchRoutes(app: FastifyInstance, options: { readonly crm: CrmPort; readonly expandable: readonly string[] }): void {
  const { crm, expandable } = options;
  const list = crm.listPossibleMatches?.bind(crm);
  const get = crm.getPossibleMatch?.bind(crm);
  const decide = crm.decidePossibleMatch?.bind(crm);
  if (list === undefined || get === undefined || decide === undefined) return;

  app.get<{ Querystring: Record<string, unknown> }>('/possibleMatches', async (request, reply) => {
    const page = readPage(request.query);
    const parsed = parseExpand(request.query['$expand'], expandable);
    if (!parsed.ok) throw parsed.error;
    const found = await list(callContextOf(request), firstString(request.query['status']), parsed.expand, page.skip, page.top);
    return reply.code(200).send(pagedList(request, found.items, found.count, page));
  });

  app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>('/possibleMatches/:id', async (request, reply) => {
    const parsed = parseExpand(request.query['$expand'], expandable);
    if (!parsed.ok) throw parsed.error;
    const id = pairId(request.params.id);
    const pair = id === null ? null : await get(callContextOf(request), id, parsed.expand);
    if (pair === null) throw notFound();
    return reply.code(200).send(pair);
  });

  app.post<{ Params: { id: string } }>('/possibleMatches/:id', async (request, reply) => {
    const id = pairId(request.params.id);
    if (request.body === undefined) {
      throw httpError(400, 'BAD_REQUEST', 'A JSON body with a decision is required.', {
        properties: ['decision'],
        hint: 'Send {"decision":"same"} or {"decision":"different"}.',
      });
    }
    const pair = id === null ? null : await decide(callContextOf(request), identityOf(request), id, request.body);
    if (pair === null) throw notFound();
    return reply.code(200).send(pair);
  });
}

/**
 * The people endpoints (interface.md section 4): find, findOrCreate, contacts/findOrCreate,
 * the two GET forms and the two POST forms that update the person a path names
 * (compatibility.md, parsons' update_person). Thin: parse the request, call the facade, shape
 * the answer.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callContextOf } from '../auth.js';
import type { CrmPort, MatchOutcome } from '../crm-port.js';
import { httpError, notFound } from '../http-error.js';
import { personLocation } from '../location.js';
import { parseExpand, parsePersonRef } from '../query.js';

/** Header that carries why a request did not match (also in the body as `reason`). */
export const MATCH_REASON_HEADER = 'x-match-reason';

/** HTTP status of each Match Response status (interface.md 2.7). */
const MATCH_HTTP_STATUS: Readonly<Record<MatchOutcome['status'], number>> = {
  Matched: 302,
  UnmatchedStored: 201,
  Unmatched: 404,
};

/** Options of the people routes. */
export interface PeopleRoutesOptions {
  readonly crm: CrmPort;
  /** The version prefix these routes are mounted under, e.g. `/v4`; used in `Location`. */
  readonly prefix: string;
  /** Valid `$expand` values. */
  readonly expandable: readonly string[];
}

/**
 * The Match Response body: `{crmId, status}` (interface.md 2.7), `vanId` beside `crmId` with the
 * same value (compatibility.md: parsons reads `vanId`), plus, when no record matched, `reason`
 * (a stable code) and `reasonText` (a sentence), and `nearest` when the best record scored below
 * the match threshold. Clients ignore unknown fields.
 */
interface MatchResponseBody {
  crmId: number | null;
  vanId: number | null;
  status: MatchOutcome['status'];
  reason?: string;
  reasonText?: string;
  /** The record the request was near (a Possible or below-threshold answer), with its score in bits. */
  nearest?: { crmId: number; vanId: number; score: number };
}

function requireBody(request: FastifyRequest): unknown {
  if (request.body === undefined) {
    throw httpError(400, 'BAD_REQUEST', 'A JSON body (a Match Candidate) is required.', {
      hint: 'Send Content-Type: application/json with an object such as {"firstName":"Ada","lastName":"Lovelace","emails":[{"email":"ada@example.org"}]}.',
    });
  }
  return request.body;
}

/** Answer a match outcome: status code, Location when there is a record, reason in body and header; noted for the log line. */
function sendOutcome(request: FastifyRequest, reply: FastifyReply, prefix: string, operation: string, outcome: MatchOutcome): FastifyReply {
  const body: MatchResponseBody = { crmId: outcome.crmId, vanId: outcome.crmId, status: outcome.status };
  if (outcome.reason !== null) {
    body.reason = outcome.reason;
    if (outcome.reasonText !== null) body.reasonText = outcome.reasonText;
    reply.header(MATCH_REASON_HEADER, outcome.reason);
  }
  const near = outcome.explanation.nearest;
  if (near !== null && outcome.status !== 'Matched') body.nearest = { crmId: near.crmId, vanId: near.crmId, score: near.score };
  if (outcome.crmId !== null && outcome.status !== 'Unmatched') {
    reply.header('location', personLocation(request, prefix, outcome.crmId));
  }
  request.matchLog = {
    operation,
    status: outcome.status,
    crmId: outcome.crmId,
    reason: outcome.reason,
    matchedBy: outcome.matchedBy,
    updated: outcome.updated,
    score: outcome.explanation.score,
    gate: outcome.explanation.gate,
    candidates: outcome.explanation.candidates,
  };
  return reply.code(MATCH_HTTP_STATUS[outcome.status]).send(body);
}

/** Register the people routes on an (already authenticated, prefixed) instance. */
export function registerPeopleRoutes(app: FastifyInstance, options: PeopleRoutesOptions): void {
  const { crm, prefix, expandable } = options;

  app.post('/people/find', async (request, reply) => {
    const outcome = await crm.find(callContextOf(request), requireBody(request));
    return sendOutcome(request, reply, prefix, 'find', outcome);
  });

  app.post('/people/findOrCreate', async (request, reply) => {
    const outcome = await crm.findOrCreate(callContextOf(request), requireBody(request));
    return sendOutcome(request, reply, prefix, 'findOrCreate', outcome);
  });

  app.post('/contacts/findOrCreate', async (request, reply) => {
    const outcome = await crm.findOrCreate(callContextOf(request), requireBody(request), { contacts: true });
    return sendOutcome(request, reply, prefix, 'contacts/findOrCreate', outcome);
  });

  const update = crm.updatePerson?.bind(crm);
  if (update !== undefined) {
    app.post<{ Params: { ref: string } }>('/people/:ref', async (request, reply) => {
      const ref = parsePersonRef(request.params.ref);
      if (ref === null) throw notFound();
      const outcome = await update(callContextOf(request), ref, requireBody(request));
      if (outcome === null) throw notFound();
      return sendOutcome(request, reply, prefix, 'update', outcome);
    });
  }

  app.get<{ Params: { ref: string }; Querystring: Record<string, unknown> }>('/people/:ref', async (request, reply) => {
    const ctx = callContextOf(request);
    const parsed = parseExpand(request.query['$expand'], expandable);
    if (!parsed.ok) throw parsed.error;
    const ref = parsePersonRef(request.params.ref);
    if (ref === null) throw notFound();
    const person =
      ref.kind === 'crmId' ? await crm.getPerson(ctx, ref.crmId, parsed.expand) : await crm.getPersonByExternalId(ctx, ref.type, ref.id, parsed.expand);
    if (person === null) {
      // A person merged into another (POST /possibleMatches/{id} "same") answers with the survivor ever after.
      const survivor = ref.kind === 'crmId' ? await crm.mergedInto?.(ctx, ref.crmId) : null;
      if (survivor === undefined || survivor === null) throw notFound();
      return reply
        .code(302)
        .header('location', withQuery(request, personLocation(request, prefix, survivor)))
        .send();
    }
    return reply.code(200).send(person);
  });
}

/** `location` followed by the request's query string, if any (a redirect keeps `$expand`). */
export function withQuery(request: FastifyRequest, location: string): string {
  const at = request.url.indexOf('?');
  return at === -1 ? location : `${location}${request.url.slice(at)}`;
}

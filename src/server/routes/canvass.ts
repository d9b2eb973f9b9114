/**
 * Canvass responses (interface.md section 4, compatibility.md "canvassResponses"):
 * `POST /people/{crmId}/canvassResponses` and `POST /people/{personIdType}:{personId}/canvassResponses`
 * answer 204 with no body (High rate category); `GET /people/{ref}/canvassResponses` lists
 * the person's canvass history, newest first, paged (`$top`/`$skip`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callContextOf } from '../auth.js';
import type { CrmPort } from '../crm-port.js';
import { httpError, notFound } from '../http-error.js';
import { pagedList, readPage } from '../paging.js';
import { personLocation } from '../location.js';
import { parsePersonRef } from '../query.js';
import { withQuery } from './people.js';

function requireBody(request: FastifyRequest): unknown {
  if (request.body === undefined) {
    throw httpError(400, 'BAD_REQUEST', 'A JSON body with a canvassContext is required.', {
      hint: 'Send Content-Type: application/json with e.g. {"canvassContext":{"contactTypeId":1,"inputTypeId":11},"resultCodeId":18}.',
    });
  }
  return request.body;
}

/** Register the canvass routes on an authenticated, prefixed instance (when the facade has them). */
export function registerCanvassRoutes(app: FastifyInstance, options: { readonly crm: CrmPort; readonly prefix: string }): void {
  const { crm, prefix } = options;
  const add = crm.addCanvassResponse?.bind(crm);
  const list = crm.listCanvassResponses?.bind(crm);
  if (add === undefined || list === undefined) return;

  app.post<{ Params: { ref: string } }>('/people/:ref/canvassResponses', async (request, reply) => {
    const ctx = callContextOf(request);
    const ref = parsePersonRef(request.params.ref);
    if (ref === null) throw notFound();
    const body = requireBody(request);
    if (!(await add(ctx, ref, body))) throw notFound();
    return reply.code(204).send();
  });

  app.get<{ Params: { ref: string } }>('/people/:ref/canvassResponses', async (request, reply) => {
    const ctx = callContextOf(request);
    const page = readPage(request.query);
    const ref = parsePersonRef(request.params.ref);
    if (ref === null) throw notFound();
    const found = await list(ctx, ref, page.skip, page.top);
    if (found === null) {
      // A merged person's history moved to the survivor: answer with it (as GET /people/{crmId}).
      const survivor = ref.kind === 'crmId' ? await crm.mergedInto?.(ctx, ref.crmId) : null;
      if (survivor === undefined || survivor === null) throw notFound();
      return reply
        .code(302)
        .header('location', withQuery(request, `${personLocation(request, prefix, survivor)}/canvassResponses`))
        .send();
    }
    return reply.code(200).send(pagedList(request, found.items, found.count, page));
  });
}

/**
 * Lookup lists (compatibility.md): `GET /phones/isCellStatuses`, `GET /surveyQuestions` and
 * `GET /activistCodes` (paged), and `GET /canvassResponses/contactTypes`, `/inputTypes`,
 * `/resultCodes` (bare arrays). The canvass lists are per tenant context: the seeded ids plus
 * the tenant settings' additions (src/crm/canvass-lists.ts).
 */
import type { FastifyInstance } from 'fastify';
import { callContextOf } from '../auth.js';
import { CELL_STATUSES, type CanvassLists, type CrmPort } from '../crm-port.js';
import { pageOf, readPage } from '../paging.js';

/** Register the lookup routes on an authenticated, prefixed instance. */
export function registerLookupRoutes(app: FastifyInstance, options: { readonly crm: CrmPort }): void {
  app.get('/phones/isCellStatuses', async (request, reply) => reply.code(200).send(pageOf(request, CELL_STATUSES, readPage(request.query))));

  const canvassLists = options.crm.canvassLists?.bind(options.crm);
  if (canvassLists === undefined) return;
  const lists = (request: Parameters<typeof callContextOf>[0]): Promise<CanvassLists> => canvassLists(callContextOf(request));

  app.get('/canvassResponses/contactTypes', async (request, reply) => reply.code(200).send((await lists(request)).contactTypes));
  app.get('/canvassResponses/inputTypes', async (request, reply) => reply.code(200).send((await lists(request)).inputTypes));
  app.get('/canvassResponses/resultCodes', async (request, reply) => reply.code(200).send((await lists(request)).resultCodes));
  app.get('/surveyQuestions', async (request, reply) => {
    const page = readPage(request.query);
    return reply.code(200).send(pageOf(request, (await lists(request)).surveyQuestions, page));
  });
  app.get('/activistCodes', async (request, reply) => {
    const page = readPage(request.query);
    return reply.code(200).send(pageOf(request, (await lists(request)).activistCodes, page));
  });
}

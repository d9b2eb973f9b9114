/**
 * The OpenAPI 3.1 document of this server (`GET /openapi.json`, also under `/v2` and `/v4`),
 * built from the routes the app registered and, for each, its description below: request
 * bodies are the very schemas the domain validates with (src/crm/schemas), answers the shapes
 * of openapi-schemas.ts. A route without a description makes the document fail to build (a
 * test builds it), so no route goes undocumented.
 *
 * Past 400 lines because it is the API's route table, one entry per route of the contract,
 * read as one document.
 */
import { BulkImportJobRequest, CanvassResponse, MatchCandidate } from '../crm/index.js';
import * as S from './openapi-schemas.js';
import * as R from './openapi-review.js';
import type { TSchema } from './openapi-schemas.js';
import { categoryOf, type RateCategory } from './rate-limit.js';

/** Who may call a route. */
type Auth = 'key' | 'none' | 'metrics';

interface Answer {
  readonly description: string;
  readonly schema?: TSchema;
  /** Default application/json. */
  readonly contentType?: string;
  readonly headers?: readonly string[];
}

interface RouteDoc {
  readonly summary: string;
  readonly tag: string;
  readonly auth: Auth;
  readonly body?: { readonly schema: object; readonly contentType?: string; readonly description?: string };
  readonly query?: readonly { readonly name: string; readonly description: string }[];
  readonly answers: Readonly<Record<string, Answer>>;
}

const PAGING = [
  { name: '$top', description: 'Page size, default 50, at most 200 (over it: 400).' },
  { name: '$skip', description: 'Items to skip.' },
];
const MATCHED: Answer = {
  description: 'Matched: `Location` is the person on this server (HTTP libraries follow it).',
  schema: S.MatchResponse,
  headers: ['Location', 'X-Match-Reason'],
};
const match = (summary: string, creates: boolean): RouteDoc => ({
  summary,
  tag: 'people',
  auth: 'key',
  body: { schema: MatchCandidate },
  answers: creates
    ? {
        302: MATCHED,
        201: {
          description: 'No match: a person was created (UnmatchedStored), with why none matched.',
          schema: S.MatchResponse,
          headers: ['Location', 'X-Match-Reason'],
        },
      }
    : {
        302: MATCHED,
        404: { description: 'Unmatched (a Match Response, not the error envelope), with why.', schema: S.MatchResponse, headers: ['X-Match-Reason'] },
      },
});
const list = (summary: string, item: TSchema, tag = 'lookups'): RouteDoc => ({
  summary,
  tag,
  auth: 'key',
  answers: { 200: { description: 'A bare JSON array.', schema: { type: 'array', items: item } } },
});
const page = (summary: string, item: TSchema, tag = 'lookups'): RouteDoc => ({
  summary,
  tag,
  auth: 'key',
  query: PAGING,
  answers: { 200: { description: 'A page.', schema: S.Page(item) } },
});
const openapi: RouteDoc = { summary: 'This document (OpenAPI 3.1).', tag: 'operations', auth: 'none', answers: { 200: { description: 'The document.' } } };

/** Every route's description, by `METHOD path` (path without the version prefix, fastify's `:param` form). */
const ROUTES: Readonly<Record<string, RouteDoc>> = {
  'GET /health': { summary: 'Liveness: the process answers.', tag: 'operations', auth: 'none', answers: { 200: { description: 'Up.', schema: S.Health } } },
  'GET /ready': {
    summary: 'Readiness: database reachable, indexes loaded and caught up.',
    tag: 'operations',
    auth: 'none',
    answers: {
      200: { description: 'Ready.', schema: S.Ready },
      503: { description: 'Not ready, saying why (with Retry-After).', schema: S.NotReady, headers: ['Retry-After'] },
    },
  },
  'GET /metrics': {
    summary: "Prometheus metrics (text format 0.0.4); who may read them is the operator's setting.",
    tag: 'operations',
    auth: 'metrics',
    answers: {
      200: { description: 'The metrics.', contentType: 'text/plain; version=0.0.4; charset=utf-8', schema: { type: 'string' } },
      401: { description: 'MATCHBOOK_METRICS_KEY is set and this request did not send it.', schema: S.ErrorEnvelope },
      403: { description: 'Not served on this port.', schema: S.ErrorEnvelope },
    },
  },
  'GET /openapi.json': openapi,
  'GET /docs': {
    summary: 'This document, browsable (Swagger UI, served from the server).',
    tag: 'operations',
    auth: 'none',
    answers: { 200: { description: 'An HTML page.', contentType: 'text/html; charset=utf-8' } },
  },
  'GET /docs/:file': {
    summary: "The docs page's script and style sheet.",
    tag: 'operations',
    auth: 'none',
    answers: { 200: { description: 'A file.', contentType: 'application/octet-stream' }, 404: { description: 'No such file.', schema: S.ErrorEnvelope } },
  },
  'GET /apiKeyProfiles': {
    summary: "What the calling key is: tenant, contexts, tier, limits, this month's usage.",
    tag: 'keys',
    auth: 'key',
    answers: { 200: { description: "A page holding this key's profile.", schema: S.Page(S.ApiKeyProfile) } },
  },
  'GET /phones/isCellStatuses': page('Phone cell statuses.', S.CellStatus),
  'GET /canvassResponses/contactTypes': list('Contact types of the context.', S.ContactType),
  'GET /canvassResponses/inputTypes': list('Input types of the context.', S.InputType),
  'GET /canvassResponses/resultCodes': list('Result codes of the context (seeded: 1 Not Home ... 131 Do Not Email).', S.ResultCode),
  'GET /surveyQuestions': page('Survey questions of the context.', S.SurveyQuestion),
  'GET /activistCodes': page('Activist codes of the context.', S.ActivistCode),
  'POST /people/find': match('Find the person a Match Candidate names; never writes.', false),
  'POST /people/findOrCreate': match('Find the person, updating it with what was sent, or create one.', true),
  'POST /contacts/findOrCreate': match('findOrCreate for contacts (organizations where the context enables them).', true),
  'POST /people/:ref': {
    summary:
      "Update the person the path names (crmId, or personIdType:personId; votervanid = votercrmid): findOrCreate's validation and update rules, no match attempted.",
    tag: 'people',
    auth: 'key',
    body: { schema: MatchCandidate },
    answers: {
      302: { description: 'Updated (or unchanged): Location is the person.', schema: S.MatchResponse, headers: ['Location'] },
      404: { description: 'No such person in this tenant and context.', schema: S.ErrorEnvelope },
    },
  },
  'GET /people/:ref': {
    summary: 'The Person (crmId, or personIdType:personId).',
    tag: 'people',
    auth: 'key',
    query: [
      {
        name: '$expand',
        description:
          'Comma list: contributionHistory, addresses, phones, emails, codes, customFields, externalIds, preferences, recordedAddresses, reportedDemographics, suppressions, cases, customProperties, districts, electionRecords, membershipStatuses, notes, organizationRoles, scores, disclosureFieldValues, primaryContact, pollingLocation, biography.',
      },
    ],
    answers: {
      200: { description: 'The Person.', schema: S.Person },
      302: { description: 'The crmId was merged into another person (POST /possibleMatches/{id} `same`): Location is the survivor.', headers: ['Location'] },
      404: { description: 'No such person.', schema: S.ErrorEnvelope },
    },
  },
  'POST /people/:ref/canvassResponses': {
    summary: 'Record a canvass response (a result code, or activist codes and survey responses).',
    tag: 'canvass',
    auth: 'key',
    body: { schema: CanvassResponse },
    answers: { 204: { description: 'Recorded (no body).' }, 404: { description: 'No such person.', schema: S.ErrorEnvelope } },
  },
  'GET /people/:ref/canvassResponses': {
    ...page("The person's canvass history, newest first.", S.CanvassHistoryItem, 'canvass'),
    answers: { 200: { description: 'A page.', schema: S.Page(S.CanvassHistoryItem) }, 404: { description: 'No such person.', schema: S.ErrorEnvelope } },
  },
  'GET /possibleMatches': {
    summary:
      'The review queue: pairs findOrCreate recorded when it created a person next to a Possible one, newest first, with both people and the explanation.',
    tag: 'review',
    auth: 'key',
    query: [
      ...PAGING,
      { name: 'status', description: 'open (default), same, different or all.' },
      { name: '$expand', description: 'As GET /people/{ref}, for both people.' },
    ],
    answers: { 200: { description: 'A page.', schema: S.Page(R.PossibleMatch) } },
  },
  'GET /possibleMatches/:id': {
    summary: 'A pair, its decision and audit entries.',
    tag: 'review',
    auth: 'key',
    query: [{ name: '$expand', description: 'As GET /people/{ref}, for both people.' }],
    answers: {
      200: { description: 'The pair.', schema: R.PossibleMatchDetail },
      404: { description: 'No such pair in this tenant and context.', schema: S.ErrorEnvelope },
    },
  },
  'POST /possibleMatches/:id': {
    summary:
      'Decide a pair: `same` merges the newer person into the older (the newer crmId then answers 302 with the survivor), `different` never matches them as one.',
    tag: 'review',
    auth: 'key',
    body: { schema: R.PossibleMatchDecision },
    answers: {
      200: { description: 'Decided (or already so).', schema: R.PossibleMatchDetail },
      404: { description: 'No such pair in this tenant and context.', schema: S.ErrorEnvelope },
      409: { description: 'Decided otherwise already, or one of its people was merged since.', schema: S.ErrorEnvelope },
    },
  },
  'POST /bulkImportJobs': {
    summary: 'Start a bulk import job (runs in the background).',
    tag: 'bulk import',
    auth: 'key',
    body: { schema: BulkImportJobRequest },
    answers: { 201: { description: 'Created.', schema: S.JobCreated } },
  },
  'GET /bulkImportJobs/resources': list('Resource types.', { type: 'string' }, 'bulk import'),
  'GET /bulkImportJobs/:jobId': {
    summary: 'A job: status, progress, errors, result files.',
    tag: 'bulk import',
    auth: 'key',
    answers: { 200: { description: 'The job.', schema: S.Job }, 404: { description: 'No such job of this tenant.', schema: S.ErrorEnvelope } },
  },
  'GET /bulkImportMappingTypes': list('Mapping types.', S.MappingType, 'bulk import'),
  'GET /bulkImportMappingTypes/:name': {
    summary: 'A mapping type.',
    tag: 'bulk import',
    auth: 'key',
    answers: { 200: { description: 'The mapping type.', schema: S.MappingType }, 404: { description: 'No such mapping type.', schema: S.ErrorEnvelope } },
  },
  'GET /bulkImportMappingTypes/:name/:field/values': {
    ...list('The predefined values of a field.', S.MappingValue, 'bulk import'),
    answers: {
      200: { description: 'A bare JSON array.', schema: { type: 'array', items: S.MappingValue } },
      404: { description: 'No such field.', schema: S.ErrorEnvelope },
    },
  },
  'POST /bulkImportFiles': {
    summary: 'Upload a file for a job (raw body or multipart/form-data); kept 24 hours.',
    tag: 'bulk import',
    auth: 'key',
    body: {
      schema: { type: 'string', format: 'binary' },
      contentType: 'application/octet-stream',
      description: 'The file, or multipart/form-data holding it.',
    },
    answers: {
      201: { description: 'Stored: use sourceUrl in a job.', schema: S.Upload },
      413: { description: 'Over the upload limit.', schema: S.ErrorEnvelope },
    },
  },
  'GET /bulkImportResultFiles/:name': {
    summary: "A job's result file (its name holds a secret token: no key).",
    tag: 'bulk import',
    auth: 'none',
    answers: {
      200: { description: 'CSV.', contentType: 'text/csv; charset=utf-8', schema: { type: 'string' } },
      404: { description: 'No such file, or expired.', schema: S.ErrorEnvelope },
    },
  },
};

/** Named schemas, referenced from the document's components. */
const COMPONENTS: Readonly<Record<string, object>> = {
  MatchCandidate,
  CanvassResponse,
  BulkImportJobRequest,
  ErrorEnvelope: S.ErrorEnvelope,
  MatchResponse: S.MatchResponse,
  Person: S.Person,
};

const RATE_HEADERS: Readonly<Record<string, { description: string }>> = {
  'RateLimit-Limit': { description: "Requests per second allowed in this endpoint's rate category for the key's tier." },
  'RateLimit-Remaining': { description: 'Requests left in the current one-second window.' },
  'RateLimit-Reset': { description: 'Seconds until the window ends.' },
  'RateLimit-Policy': { description: '<limit>;w=1' },
  'X-Quota-Limit': { description: "The key's monthly quota (absent when unlimited)." },
  'X-Quota-Remaining': { description: 'Requests left this month (absent when unlimited).' },
  'X-Quota-Used': { description: 'Requests counted this month (UTC).' },
  'X-Quota-Reset': { description: 'Seconds until the month ends.' },
};
const OTHER_HEADERS: Readonly<Record<string, { description: string }>> = {
  Location: { description: 'Absolute URL of the person on this server, under the prefix the request used.' },
  'X-Match-Reason': { description: 'Why no record matched (as `reason`).' },
  'Retry-After': { description: 'Whole seconds, at least 1.' },
};

/** A registered route: method and fastify URL pattern. */
export interface RegisteredRoute {
  readonly method: string;
  readonly url: string;
}

const PREFIX = /^\/v[24](?=\/)/;

/** `/v4/people/:ref` -> `/people/{ref}` and its prefix. */
function splitRoute(url: string): { prefix: string | null; path: string; pattern: string } {
  const m = PREFIX.exec(url);
  const pattern = m === null ? url : url.slice(m[0].length);
  return { prefix: m?.[0] ?? null, pattern, path: pattern.replace(/:(\w+)/g, '{$1}') };
}

/** A schema as plain JSON (TypeBox's symbols dropped), or a reference to a named component. */
function schemaJson(schema: TSchema | object): unknown {
  for (const [name, s] of Object.entries(COMPONENTS)) if (s === schema) return { $ref: `#/components/schemas/${name}` };
  return JSON.parse(JSON.stringify(schema)) as unknown;
}

function operation(method: string, pattern: string, doc: RouteDoc): Record<string, unknown> {
  const params = [...pattern.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
  const query = (doc.query ?? []).map((q) => ({ name: q.name, in: 'query', required: false, description: q.description, schema: { type: 'string' } }));
  const category: RateCategory | null = doc.auth === 'key' ? categoryOf(method, pattern) : null;
  const responses: Record<string, unknown> = {};
  for (const [status, a] of Object.entries(doc.answers)) {
    const headers: Record<string, unknown> = {};
    for (const h of a.headers ?? []) headers[h] = { $ref: `#/components/headers/${h}` };
    if (doc.auth === 'key' && Number(status) < 400) for (const h of Object.keys(RATE_HEADERS)) headers[h] = { $ref: `#/components/headers/${h}` };
    responses[status] = {
      description: a.description,
      ...(Object.keys(headers).length > 0 && { headers }),
      ...(a.schema !== undefined || a.contentType !== undefined
        ? { content: { [a.contentType ?? 'application/json']: a.schema === undefined ? {} : { schema: schemaJson(a.schema) } } }
        : {}),
    };
  }
  if (doc.body !== undefined) responses['400'] = { $ref: '#/components/responses/BadRequest' };
  if (doc.auth === 'key') {
    responses['401'] = { $ref: '#/components/responses/Unauthorized' };
    responses['429'] = { $ref: '#/components/responses/TooManyRequests' };
  }
  responses['405'] = { $ref: '#/components/responses/MethodNotAllowed' };
  responses['500'] = { $ref: '#/components/responses/ServerError' };
  return {
    summary: doc.summary,
    tags: [doc.tag],
    operationId: `${method.toLowerCase()}${pattern.replace(/[^A-Z0-9]+(.)?/gi, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    security: doc.auth === 'key' ? [{ basicAuth: [] }, { apiKeyHeader: [] }] : doc.auth === 'metrics' ? [{}, { metricsBearer: [] }] : [],
    ...(category !== null && { 'x-rate-category': category }),
    ...(params.length + query.length > 0 && { parameters: [...params, ...query] }),
    ...(doc.body !== undefined && {
      requestBody: {
        required: true,
        ...(doc.body.description !== undefined && { description: doc.body.description }),
        content: { [doc.body.contentType ?? 'application/json']: { schema: schemaJson(doc.body.schema) } },
      },
    }),
    responses,
  };
}

/**
 * Builds the document for the registered routes. Throws when a route has no description.
 * Paths are relative to the servers `/v4` and `/v2`; the operator routes outside the prefixes
 * carry their own `servers`.
 */
export function buildOpenApi(routes: readonly RegisteredRoute[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const prefixes = new Map<string, Set<string>>();
  for (const route of routes) {
    const method = route.method.toUpperCase();
    if (method === 'HEAD' || method === 'OPTIONS') continue;
    const { prefix, path, pattern } = splitRoute(route.url);
    const doc = ROUTES[`${method} ${pattern}`];
    if (doc === undefined) throw new Error(`No OpenAPI description for ${method} ${route.url} (src/server/openapi.ts).`);
    (paths[path] ??= {})[method.toLowerCase()] = operation(method, pattern, doc);
    const seen = prefixes.get(path) ?? new Set<string>();
    seen.add(prefix ?? '/');
    prefixes.set(path, seen);
  }
  for (const [path, seen] of prefixes) {
    if (seen.has('/')) (paths[path] as Record<string, unknown>)['servers'] = [...seen].sort().map((url) => ({ url }));
  }
  const schemas: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(COMPONENTS)) schemas[name] = JSON.parse(JSON.stringify(s)) as unknown;
  const envelope = (description: string) => ({
    description,
    content: { 'application/json; charset=utf-8': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Matchbook CRM matching API',
      version,
      description:
        'Find, create and update people without duplicates; canvass responses; bulk import. Every endpoint is served under /v2 (the contract) and /v4 (what existing clients hard-code). Errors are the envelope {"errors":[{code,text,properties,hint}]}.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [
      { url: '/v4', description: 'The prefix existing clients use.' },
      { url: '/v2', description: "The contract's prefix." },
    ],
    tags: ['people', 'canvass', 'review', 'lookups', 'bulk import', 'keys', 'operations'].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        basicAuth: {
          type: 'http',
          scheme: 'basic',
          description: 'Any username; the password is the API key, optionally followed by |0 (voter file) or |1 (campaign).',
        },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'apiKey', description: 'The API key, optionally followed by |0 or |1.' },
        metricsBearer: { type: 'http', scheme: 'bearer', description: 'MATCHBOOK_METRICS_KEY, when the operator set one.' },
      },
      headers: Object.fromEntries(
        [...Object.entries(RATE_HEADERS), ...Object.entries(OTHER_HEADERS)].map(([name, h]) => [
          name,
          { ...h, schema: { type: name === 'Location' || name === 'X-Match-Reason' || name === 'RateLimit-Policy' ? 'string' : 'integer' } },
        ]),
      ),
      responses: {
        BadRequest: envelope('The request is not valid: every bad property named by its path (INVALID_PARAMETER, BAD_REQUEST).'),
        Unauthorized: envelope('Missing or unknown key, or a database mode the key has no access to ("Invalid Database Mode").'),
        MethodNotAllowed: envelope('Another method is served here (see Allow).'),
        ServerError: envelope('An unexpected error, with a referenceCode that is also in the server log.'),
        TooManyRequests: {
          description:
            'Over the key\'s per-second limit in this rate category, or its monthly quota: {"errors":[{"code":"429","text":"Rate limit exceeded. Try again in N ms."}]}.',
          headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
          content: { 'application/json; charset=utf-8': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
        },
      },
    },
  };
}

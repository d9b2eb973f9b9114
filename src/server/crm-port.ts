/**
 * What the HTTP adapter needs from the CRM domain (src/crm), in one place: the facade's
 * types and values re-exported, and the narrow port of methods the server calls. The real
 * `Crm` satisfies the port; HTTP-layer unit tests pass a small fake.
 */
import type { Crm } from '../crm/index.js';

export { CELL_STATUSES, CrmError, EXPANDABLE, findUnsafeText } from '../crm/index.js';
export type { CallContext, CanvassLists, ContextName, KeyIdentity, MatchOutcome, Person, PersonRef, Readiness, Tier, ValidationIssue } from '../crm/index.js';

/** The part of the `Crm` facade the HTTP adapter calls. */
export type CrmPort = Pick<Crm, 'authenticate' | 'find' | 'findOrCreate' | 'getPerson' | 'getPersonByExternalId'> &
  // POST /people/{ref}; without it the route answers 405.
  Partial<Pick<Crm, 'updatePerson'>> &
  // Monthly usage for quotas (rate-limit.ts); without them usage is counted in memory only.
  Partial<Pick<Crm, 'addKeyUsage' | 'getKeyUsage'>> &
  // Canvass responses and their lookup lists; the routes are served when present.
  Partial<Pick<Crm, 'canvassLists' | 'addCanvassResponse' | 'listCanvassResponses'>> &
  // GET /ready; without it the process counts as ready once it answers.
  Partial<Pick<Crm, 'readiness'>> &
  // The index sizes and people lock waits of GET /metrics.
  Partial<Pick<Crm, 'indexSizes' | 'lockWaits'>> &
  // The model in force of GET /apiKeyProfiles; without it the profile has no `model`.
  Partial<Pick<Crm, 'modelInForce'>> &
  // The review queue of Possible matches (routes/possible-matches.ts) and the 302 of a merged crmId.
  Partial<Pick<Crm, 'listPossibleMatches' | 'getPossibleMatch' | 'decidePossibleMatch' | 'mergedInto'>>;

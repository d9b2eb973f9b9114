/**
 * Public entry of the CRM domain (architecture.md: src/crm). Adapters (src/server, src/cli)
 * import from here only.
 *
 * ```ts
 * const crm = await Crm.open({ db: 'var/matchbook.db' });     // migrations + index load
 * await crm.createTenant('acme');
 * const { key } = await crm.createKey({ tenant: 'acme', tier: 'Custom' });   // GUID, shown once
 * const who = await crm.authenticate(key);                    // KeyIdentity | null
 * const ctx = { tenantId: who!.tenantId, context: who!.defaultContext };
 * const outcome = await crm.findOrCreate(ctx, body);          // throws CrmError (400) with all issues
 * // outcome.status: 'Matched' -> 302, 'UnmatchedStored' -> 201, 'Unmatched' -> 404
 * const person = await crm.getPerson(ctx, outcome.crmId!, new Set(['emails', 'phones']));
 * ```
 *
 * Errors: every refusal is a {@link CrmError} with `code` (INVALID_PARAMETER, BAD_REQUEST,
 * NOT_FOUND, FORBIDDEN, CONFLICT), `status` (the HTTP status) and `issues` (each with a dot
 * path `property`, "" for the whole body, a `text` and an optional `hint`). Anything else
 * thrown is a bug or an I/O failure (HTTP 500).
 */
export {
  Crm,
  CONTEXTS,
  REASON_TEXT,
  TIERS,
  INDEX_BYTES_PER_PERSON,
  defaultMaxIndexPeople,
  type CallContext,
  type CrmOpenOptions,
  type KeyIdentity,
  type KeySummary,
  type MatchedBy,
  type MatchExplanation,
  type MatchOutcome,
  type Readiness,
  type TenantSummary,
  type UnmatchedReason,
  type DecisionChanges,
  type ModelInForce,
  type ModelPlan,
  type TrainingOptions,
  type TrainingProgress,
  type WeightChange,
} from './crm.js';
export { CrmError, type CrmErrorCode, type ValidationIssue } from './errors.js';
export { findUnsafeCharacter, findUnsafeText, unsafeTextIssue } from './unsafe-text.js';
export { EXPANDABLE, renderPerson, type Person } from './person-view.js';
export { CELL_STATUSES } from './codes.js';
export {
  SEEDED_CANVASS_LISTS,
  canvassListsOf,
  type ActivistCode,
  type CanvassLists,
  type ContactType,
  type InputType,
  type ResultCode,
  type SurveyQuestion,
  type VolunteerActivity,
} from './canvass-lists.js';
export { parseCanvassResponse, type CanvassHistoryItem, type CanvassInput, type PersonRef } from './canvass.js';
export {
  DEFAULT_CONTEXT_SETTINGS,
  parseTenantSettings,
  type ContextSettings,
  type CustomFieldGroupSetting,
  type CustomFieldSetting,
  type TenantSettings,
} from './settings.js';
export { validateCandidate, type ValidationContext } from './validate.js';
export type { CandidateResult, ValidCandidate } from './candidate.js';
export type { ContextName, KeyUsageDelta, Tier } from '../store/index.js';
export { BulkImports, UPLOAD_TTL_MS, type JobView } from './import/bulk-imports.js';
export { ImportRunner, type ImportRunnerOptions } from './import/runner.js';
export { MAPPING_TYPES, RESOURCE_TYPES, type MappingTypeDef } from './import/mapping-types.js';
export { copySqliteToPg, isPostgresUrl } from '../store/index.js';
export { MatchCandidate } from './schemas/match-candidate.js';
export { CanvassResponse } from './schemas/canvass-response.js';
export { BulkImportJobRequest } from './schemas/bulk-import-job.js';

/**
 * What the HTTP adapter needs from the CRM domain (src/crm), in one place.
 *
 * The server is written against this port so that its unit tests can pass a small fake; the
 * real `Crm` facade satisfies it structurally. The shapes mirror the planned facade.
 * TEMPORARY: until src/crm/index.ts lands, the shapes are spelled out here; then they become
 * re-exports of the facade's own types.
 */

/** A tenant's record set: voter file (`|0`) or campaign (`|1`). */
export type ContextName = 'voterfile' | 'campaign';

/** Integration tier of a key (interface.md section 8). */
export type Tier = 'Startup' | 'Standard' | 'Preferred' | 'Custom' | 'Internal';

/** Who a key is, as the facade's `authenticate` answers it. */
export interface KeyIdentity {
  readonly keyId: number;
  readonly tenantId: number;
  readonly tenantName: string;
  readonly tier: Tier;
  readonly contexts: readonly ContextName[];
  readonly defaultContext: ContextName;
}

/** The tenant and context every domain call is scoped to. */
export interface CallContext {
  readonly tenantId: number;
  readonly context: ContextName;
}

/** One bad property of a request, as the domain reports it. */
export interface ValidationIssue {
  readonly property: string;
  readonly text: string;
  readonly hint?: string;
}

/** Result of a find or findOrCreate. */
export interface MatchOutcome {
  readonly status: 'Matched' | 'Unmatched' | 'UnmatchedStored';
  readonly crmId: number | null;
  readonly reason: string | null;
}

/** A Person as the domain renders it (interface.md 2.8); the server sends it as is. */
export type PersonView = object;

/** The part of the `Crm` facade the HTTP adapter calls. */
export interface CrmPort {
  authenticate(guid: string): Promise<KeyIdentity | null>;
  find(ctx: CallContext, body: unknown): Promise<MatchOutcome>;
  findOrCreate(ctx: CallContext, body: unknown, opts?: { contacts?: boolean }): Promise<MatchOutcome>;
  getPerson(ctx: CallContext, crmId: number, expand: ReadonlySet<string>): Promise<PersonView | null>;
  getPersonByExternalId(
    ctx: CallContext,
    type: string,
    id: string,
    expand: ReadonlySet<string>,
  ): Promise<PersonView | null>;
}

/** Valid `$expand` values (compatibility.md). TEMPORARY copy until the facade exports EXPANDABLE. */
export const EXPANDABLE: readonly string[] = [
  'contributionHistory', 'addresses', 'phones', 'emails', 'codes', 'customFields', 'externalIds',
  'preferences', 'recordedAddresses', 'reportedDemographics', 'suppressions', 'cases',
  'customProperties', 'districts', 'electionRecords', 'membershipStatuses', 'notes',
  'organizationRoles', 'scores', 'disclosureFieldValues', 'primaryContact', 'pollingLocation',
  'biography',
];

/** A domain error, recognised by shape so that any copy of the class is understood. */
export interface CrmErrorLike extends Error {
  readonly code: string;
  readonly status: number;
  readonly issues: readonly ValidationIssue[];
}

/** Whether `err` is the domain's typed error (`CrmError`). */
export function isCrmError(err: unknown): err is CrmErrorLike {
  if (!(err instanceof Error)) return false;
  const e = err as Partial<CrmErrorLike>;
  return typeof e.code === 'string' && typeof e.status === 'number' && Array.isArray(e.issues);
}

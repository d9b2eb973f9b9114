/**
 * `votercrmid` identifiers (interface.md 2.5, compatibility.md): in a campaign-context call,
 * `{type: "votercrmid", externalId: "N"}` ties the campaign person to voter-file record N of
 * the same tenant. A person cannot be tied to a voter who does not exist, so a votercrmid
 * naming no voter-file record of the caller's tenant is a 400 naming
 * `identifiers[i].externalId`; another tenant's record gets the same answer as a missing one
 * (nothing leaks).
 */
import type { Scope, Store } from '../store/index.js';
import type { ValidCandidate } from './candidate.js';
import type { ValidationIssue } from './errors.js';

export const VOTER_CRM_ID = 'votercrmid';

/** What clients of the modeled API call votercrmid (compatibility.md): accepted as its synonym. */
export const VOTER_VAN_ID = 'votervanid';

/** An identifier type as sent, with `votervanid` (any case) read as votercrmid; trimmed. */
export function canonicalIdentifierType(type: string): string {
  const t = type.trim();
  return t.toLowerCase() === VOTER_VAN_ID ? VOTER_CRM_ID : t;
}

const DIGITS = /^\d{1,15}$/;

/** The canonical text of a votercrmid value ("007" -> "7"), or null when it is not a crmId. */
export function canonicalVoterCrmId(text: string): string | null {
  const t = text.trim();
  return DIGITS.test(t) ? String(Number(t)) : null;
}

/**
 * Issues for the votercrmid identifiers of a validated campaign-context Match Candidate that
 * name no voter-file record of `tenantId` (validation already made each value canonical).
 */
export async function unknownVoterIds(store: Pick<Store, 'getPerson'>, tenantId: number, candidate: ValidCandidate): Promise<ValidationIssue[]> {
  const voterFile: Scope = { tenantId, context: 'voterfile' };
  const issues: ValidationIssue[] = [];
  const known = new Map<number, boolean>();
  for (const [i, identifier] of candidate.identifiers.entries()) {
    if (identifier.type !== VOTER_CRM_ID) continue;
    const crmId = Number(identifier.externalId);
    let exists = known.get(crmId);
    if (exists === undefined) {
      exists = crmId > 0 && (await store.getPerson(voterFile, crmId)) !== null;
      known.set(crmId, exists);
    }
    if (exists) continue;
    const property = `identifiers[${i}].externalId`;
    issues.push({
      property,
      text: `${property} ${identifier.externalId} is not the crmId of a voter-file record of this tenant.`,
      hint: 'A votercrmid names a person of the voter-file context (database mode |0) of the same tenant.',
    });
  }
  return issues;
}

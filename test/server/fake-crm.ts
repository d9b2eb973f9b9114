/**
 * A tiny in-memory stand-in for the Crm facade, ONLY for unit tests of the HTTP layer
 * (auth parsing, envelope, routing). Endpoint behaviour is tested against the real Crm.
 */
import type { CallContext, CrmPort, KeyIdentity, MatchOutcome, Person } from '../../src/server/crm-port.js';

type PersonView = Person;

/** A MatchOutcome with the explanation fields filled in. */
export function outcome(status: MatchOutcome['status'], crmId: number | null, reason: MatchOutcome['reason']): MatchOutcome {
  return {
    status,
    crmId,
    reason,
    reasonText: reason === null ? null : `because ${reason}`,
    matchedBy: status === 'Matched' ? 'score' : null,
    updated: false,
    explanation: { score: 0, gates: [], gate: null, fields: [], candidates: 0, nearest: null },
  };
}

export const FAKE_KEY = '0f8fad5b-d9cb-469f-a165-70867728950e';
export const FAKE_VOTERFILE_ONLY_KEY = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

export class FakeCrm implements CrmPort {
  calls: { op: string; ctx: CallContext; body?: unknown; expand?: string[] }[] = [];
  next: MatchOutcome = outcome('Unmatched', null, 'no-candidates');
  throwOnFind: Error | null = null;
  people = new Map<number, PersonView>([[7, { crmId: 7, firstName: 'Ada' } as unknown as PersonView]]);

  async authenticate(guid: string): Promise<KeyIdentity | null> {
    if (guid === FAKE_KEY) {
      return { keyId: 1, tenantId: 1, tenantName: 't', tier: 'Internal', contexts: ['voterfile', 'campaign'], defaultContext: 'campaign' };
    }
    if (guid === FAKE_VOTERFILE_ONLY_KEY) {
      return { keyId: 2, tenantId: 2, tenantName: 'u', tier: 'Startup', contexts: ['voterfile'], defaultContext: 'voterfile' };
    }
    return null;
  }
  async find(ctx: CallContext, body: unknown): Promise<MatchOutcome> {
    this.calls.push({ op: 'find', ctx, body });
    if (this.throwOnFind !== null) throw this.throwOnFind;
    return this.next;
  }
  async findOrCreate(ctx: CallContext, body: unknown, opts?: { contacts?: boolean }): Promise<MatchOutcome> {
    this.calls.push({ op: opts?.contacts === true ? 'contacts' : 'findOrCreate', ctx, body });
    return this.next;
  }
  async getPerson(ctx: CallContext, crmId: number, expand: ReadonlySet<string>): Promise<PersonView | null> {
    this.calls.push({ op: 'getPerson', ctx, body: crmId, expand: [...expand] });
    return this.people.get(crmId) ?? null;
  }
  async getPersonByExternalId(ctx: CallContext, type: string, id: string, expand: ReadonlySet<string>): Promise<PersonView | null> {
    this.calls.push({ op: 'getPersonByExternalId', ctx, body: [type, id], expand: [...expand] });
    return type.toLowerCase() === 'dwid' && id === 'A/1 b' ? ({ crmId: 7 } as unknown as PersonView) : null;
  }
}

/**
 * Canvass responses of a person (interface.md 4; the rules in canvass.ts): recording one,
 * which may also change the dispositions of the person's phones, and reading the history.
 */
import type { ImportRowMark, PersonRecord, Store } from '../store/index.js';
import { canvassListsOf, type CanvassLists } from './canvass-lists.js';
import { applyPhoneDispositions, canvassHistoryItem, parseCanvassResponse, type CanvassHistoryItem, type PersonRef } from './canvass.js';
import type { SecondClock } from './clock.js';
import type { CallContext } from './crm-types.js';
import { CrmError } from './errors.js';
import type { PeopleScope } from './people-scope.js';
import { personByExternalId } from './people.js';
import type { Scopes } from './scopes.js';

/** See the module comment. */
export class CanvassResponses {
  constructor(
    private readonly store: Store,
    private readonly scopes: Scopes,
    private readonly clock: SecondClock,
  ) {}

  /** The canvass lookup lists of a context: the seeded ones plus its settings' additions. */
  async canvassLists(ctx: CallContext): Promise<CanvassLists> {
    return canvassListsOf((await this.scopes.get(ctx)).settings.canvass);
  }

  /** The stored person a path names, or null (an identifier type unknown in the context names nobody). */
  private async personByRef(people: PeopleScope, ref: PersonRef): Promise<PersonRecord | null> {
    if (ref.kind !== 'crmId') return personByExternalId(people, this.store, ref.type, ref.id);
    return Number.isSafeInteger(ref.crmId) && ref.crmId > 0 ? this.store.getPerson(people.scope, ref.crmId) : null;
  }

  /**
   * POST /people/{ref}/canvassResponses: validates the body against the context's lists and the
   * person (CrmError 400 naming every bad property), applies phone dispositions to the phone it
   * names, and appends the response to the person's canvass history. False when the person is
   * not in this tenant+context (404). Durable before the Promise resolves; with a bulk import
   * row's `mark` (stored with the response), applied (the job asks the store when it is durable).
   */
  async addCanvassResponse(ctx: CallContext, ref: PersonRef, body: unknown, opts: { mark?: ImportRowMark } = {}): Promise<boolean> {
    const people = await this.scopes.get(ctx);
    const lists = canvassListsOf(people.settings.canvass);
    const named = ref.kind === 'crmId' && Number.isSafeInteger(ref.crmId) && ref.crmId > 0 ? ref.crmId : null;
    return people.write(
      async (writer) => {
        // Read through the unit: a shared store locks the person's row until the unit ends.
        const found = ref.kind === 'crmId' ? (named ?? null) : ((await this.personByRef(people, ref))?.crmId ?? null);
        const p = found === null ? null : await writer.getPerson(found);
        if (p === null) return false;
        const now = this.clock.now();
        const parsed = parseCanvassResponse(body, lists, p, now);
        if (!parsed.ok) throw new CrmError('INVALID_PARAMETER', [...parsed.issues]);
        const phones = applyPhoneDispositions(p.phones, parsed.value);
        if (phones !== null) await people.savePerson(writer, { ...p, phones, updatedAt: now });
        await writer.insertCanvassResponse(
          { crmId: p.crmId, canvassedAt: parsed.value.dateCanvassed, createdAt: now, json: JSON.stringify(parsed.value) },
          opts.mark,
        );
        return true;
      },
      opts.mark === undefined ? 'wait' : 'job',
      { person: named },
    );
  }

  /** GET /people/{ref}/canvassResponses: the person's history, newest first; null when no such person. */
  async listCanvassResponses(ctx: CallContext, ref: PersonRef, skip: number, top: number): Promise<{ items: CanvassHistoryItem[]; count: number } | null> {
    const people = await this.scopes.get(ctx);
    await this.store.flush();
    const p = await this.personByRef(people, ref);
    if (p === null) return null;
    const rows = await this.store.listCanvassResponses(people.scope, p.crmId, skip, top);
    const count = await this.store.countCanvassResponses(people.scope, p.crmId);
    return { items: rows.map(canvassHistoryItem), count };
  }
}

/**
 * The people operations of the contract (interface.md 2): find, findOrCreate, reading a
 * person, and the bulk import's writes to people. Each reads as the rule it implements; the
 * scope (people-scope.ts) matches, locks, writes and waits for durability.
 */
import { foldIdentifier, placeholdersIn, type MatchResult } from '../engine/index.js';
import type { ImportRowMark, PersonRecord, ScopeWriter, Store } from '../store/index.js';
import type { ValidCandidate } from './candidate.js';
import type { SecondClock } from './clock.js';
import { REASON_TEXT, type CallContext, type MatchExplanation, type MatchOutcome, type UnmatchedReason } from './crm-types.js';
import { CrmError } from './errors.js';
import type { Durability, Match, PeopleScope } from './people-scope.js';
import type { UnitLocks } from './shared-units.js';
import { applyCandidate, createPerson } from './person.js';
import { expandSet, renderPerson, type Person } from './person-view.js';
import type { Scopes } from './scopes.js';
import { identifierTypesOf, type ContextSettings } from './settings.js';
import { SUPPRESSIONS, applySuppression, findSuppression } from './suppressions.js';
import { engineInput, sameEngineInput } from './stored-normalization.js';
import { recordPossibleMatch } from './review.js';
import type { Explain } from './match-explanation.js';
import { validateCandidate } from './validate.js';
import { VOTER_CRM_ID, canonicalIdentifierType, canonicalVoterCrmId, unknownVoterIds } from './voter-ids.js';
import type { PersonRef } from './canvass.js';

/** The engine reasons of a record that was scored but not matched ("below-threshold" for clients). */
const BELOW_THRESHOLD_REASONS: ReadonlySet<string> = new Set(['id', 'identifier', 'score', 'below-threshold']);

function explanationOf(r: MatchResult): MatchExplanation {
  const near = r.decision === 'Possible' || (r.decision !== 'Matched' && BELOW_THRESHOLD_REASONS.has(r.reason));
  const nearId = r.decision === 'Possible' ? (r.id ?? r.explainedId) : r.explainedId;
  return {
    score: r.score,
    gates: r.gates,
    gate: r.gate,
    fields: r.explanation,
    candidates: r.candidates,
    nearest: near && nearId !== null ? { crmId: nearId, score: Math.round(r.score * 100) / 100 } : null,
  };
}

/**
 * The reason's text, with why a close record was held back for review ("sexes differ: at most a
 * possible match") and what placeholders the request held: "Unknown Unknown" or a street of
 * "GENERAL DELIVERY" is read as missing, so such a request never matches on it.
 */
function reasonText(m: Match, reason: UnmatchedReason): string {
  let text = REASON_TEXT[reason];
  if (m.result.decision === 'Possible' && m.result.heldBack !== null) text += ` The closest record is left for review: ${m.result.heldBack}.`;
  const fakes = placeholdersIn(m.input);
  if (fakes.length === 0) return text;
  const list = fakes.length === 1 ? fakes[0] : `${fakes.slice(0, -1).join(', ')} and ${fakes[fakes.length - 1] as string}`;
  return `${text} The request's ${list} ${fakes.length === 1 ? 'is a placeholder' : 'are placeholders'} (such as "Unknown", "Baby Girl" or "GENERAL DELIVERY"), read as missing: a placeholder never matches anyone.`;
}

/**
 * The answer for a match: Matched, or Unmatched (find) / UnmatchedStored (a person was
 * created). `text`: the reason's text when the caller already made it.
 */
function outcomeOf(m: Match, created: PersonRecord | null, updated: boolean, text?: string): MatchOutcome {
  const status = m.crmId !== null ? 'Matched' : created !== null ? 'UnmatchedStored' : 'Unmatched';
  return {
    status,
    crmId: m.crmId ?? created?.crmId ?? null,
    reason: m.reason,
    reasonText: m.reason === null ? null : (text ?? reasonText(m, m.reason)),
    matchedBy: m.by,
    updated,
    explanation: explanationOf(m.result),
  };
}

/** A bulk import step applied to an existing person: `found` false when the scope has no such person. */
export interface ImportUpdate {
  readonly found: boolean;
  /** The step wrote (its mark is stored with the write); false: the caller stores the mark. */
  readonly written: boolean;
}

/** See the module comment. */
export class People {
  constructor(
    private readonly store: Store,
    private readonly scopes: Scopes,
    private readonly clock: SecondClock,
  ) {}

  /**
   * Validates a Match Candidate (CrmError 400 with every issue at once); in the campaign
   * context each votercrmid must then name a voter-file record of the tenant (voter-ids.ts).
   */
  private async validate(people: PeopleScope, body: unknown): Promise<ValidCandidate> {
    const result = validateCandidate(body, { context: people.scope.context, settings: people.settings });
    if (!result.ok) throw new CrmError(result.code, [...result.issues]);
    if (people.scope.context === 'campaign') {
      const voters = await unknownVoterIds(this.store, people.scope.tenantId, result.value);
      if (voters.length > 0) throw new CrmError('INVALID_PARAMETER', voters);
    }
    return result.value;
  }

  /**
   * POST /people/find: Matched with the crmId, or Unmatched with the reason. Never writes; a
   * matched record still in a pending commit is answered once durable. `explain`: fill the
   * explanation's per-field outcomes (the API's answer never carries them; diagnostics do).
   */
  async find(ctx: CallContext, body: unknown, explain = false): Promise<MatchOutcome> {
    const people = await this.scopes.get(ctx);
    const candidate = await this.validate(people, body);
    await people.catchUp();
    const m = await people.match(candidate, null, explain);
    if (m.crmId !== null) await people.waitUntilDurable(m.crmId);
    return outcomeOf(m, null, false);
  }

  /**
   * POST /people/findOrCreate and /contacts/findOrCreate: on a match the record is updated
   * with what was supplied (Matched), otherwise a record is created (UnmatchedStored, with
   * the reason no record matched). Answered once durable; find and write are one unit of
   * the scope's write lock, so concurrent requests create a new person once.
   *
   * With a store shared by several processes the unit is two round trips, whatever the
   * outcome (see {@link applyFindOrCreate}); one that writes nothing ends without a commit.
   *
   * The answer's per-field explanation is filled only for a person created next to a
   * `Possible` one (the pair the review queue records), or always with `explain` (diagnostics).
   */
  async findOrCreate(ctx: CallContext, body: unknown, explain = false): Promise<MatchOutcome> {
    const people = await this.scopes.get(ctx);
    const candidate = await this.validate(people, body);
    return this.applyFindOrCreate(people, candidate, undefined, 'wait', explain ? true : 'possible');
  }

  /**
   * findOrCreate for a bulk import row (src/crm/import): the same validation, match rules and
   * update rules, with the row's `mark` stored with the write. Answers once applied (the job
   * asks the store when its rows are durable). `written` false: the row wrote nothing (a
   * match that changes nothing), its mark is the caller's to store.
   */
  async importFindOrCreate(ctx: CallContext, body: unknown, mark: ImportRowMark): Promise<{ outcome: MatchOutcome; written: boolean }> {
    const people = await this.scopes.get(ctx);
    const candidate = await this.validate(people, body);
    const outcome = await this.applyFindOrCreate(people, candidate, mark, 'job', 'possible');
    return { outcome, written: outcome.status === 'UnmatchedStored' || outcome.updated };
  }

  /**
   * Match, then update the matched person or create one: one unit. On a shared store a first
   * match, with the index as it is, chooses what the unit locks: the keys of the candidate and
   * of the person it found, and that person's row (lock-keys.ts); under the locks the unit
   * catches up and matches again, unless nobody was indexed since.
   */
  private async applyFindOrCreate(
    people: PeopleScope,
    candidate: ValidCandidate,
    mark: ImportRowMark | undefined,
    durability: Durability,
    explain: Explain,
  ): Promise<MatchOutcome> {
    const hint = this.store.sharedByProcesses ? await people.match(candidate, null, explain) : null;
    const locks: UnitLocks = hint === null ? {} : { keys: people.lockKeys(hint), person: hint.crmId, creates: hint.crmId === null };
    return people.write(
      async (writer) => {
        let m = hint !== null && people.stillHolds(hint) ? hint : await people.match(candidate, writer, explain);
        let stored = m.crmId === null ? null : await writer.getPerson(m.crmId);
        // A shared store: the person was merged into another since the unit caught up (a review
        // decision on people it had not locked): catch up again and match again.
        for (let tries = 0; m.crmId !== null && stored === null && hint !== null && tries < 3; tries++) {
          await people.catchUpIn(writer);
          m = await people.match(candidate, writer, explain);
          stored = m.crmId === null ? null : await writer.getPerson(m.crmId);
        }
        if (m.crmId === null) {
          const person = createPerson(candidate, this.clock.now());
          // A new person usually has exactly what the candidate had: its normalization is the match's.
          const same = sameEngineInputAs(person, m);
          const saved = await people.savePerson(writer, person, same ? { mark, normalized: m.normalized } : { mark });
          if (m.reason === null) return outcomeOf(m, saved, false);
          // Created next to a Possible candidate: the pair goes to the review queue (review.ts), with the answer's text.
          const text = reasonText(m, m.reason);
          await recordPossibleMatch(writer, m.result, saved.crmId, this.clock.now(), { reason: m.reason, reasonText: text });
          return outcomeOf(m, saved, false, text);
        }
        if (stored === null) throw new Error(`Index and store disagree: person ${m.crmId} is indexed but not stored.`);
        const { person, changed } = applyCandidate(stored, candidate, this.clock.now());
        if (changed) await people.savePerson(writer, person, { mark });
        else people.answersWith(m.crmId);
        return outcomeOf(m, null, changed);
      },
      durability,
      locks,
    );
  }

  /**
   * Applies a Match Candidate to the existing person `crmId` with the findOrCreate update
   * rules (bulk import mapping types such as Email, Phones, MailingAddress and custom fields),
   * storing `mark` with the write. CrmError 400 when the body is invalid.
   */
  async importUpdatePerson(ctx: CallContext, crmId: number, body: unknown, mark: ImportRowMark): Promise<ImportUpdate> {
    const people = await this.scopes.get(ctx);
    const candidate = await this.validate(people, body);
    return this.updateExisting(people, crmId, mark, (stored) => applyCandidate(stored, candidate, this.clock.now()));
  }

  /**
   * Applies or removes a suppression (src/crm/suppressions.ts) on the person `crmId`, storing
   * `mark` with the write. CrmError 400 for an unknown code.
   */
  async importSuppression(ctx: CallContext, crmId: number, code: string, remove: boolean, mark: ImportRowMark): Promise<ImportUpdate> {
    const people = await this.scopes.get(ctx);
    if (findSuppression(code) === undefined) {
      throw new CrmError('INVALID_PARAMETER', [
        {
          property: 'suppressionCode',
          text: `"${code.slice(0, 40)}" is not a suppression code.`,
          hint: `Codes: ${SUPPRESSIONS.map((s) => s.suppressionCode).join(', ')}.`,
        },
      ]);
    }
    return this.updateExisting(people, crmId, mark, (stored) => applySuppression(stored, code, remove, this.clock.now()));
  }

  /** A bulk import step on an existing person: read, change, save when changed. */
  private updateExisting(
    people: PeopleScope,
    crmId: number,
    mark: ImportRowMark,
    change: (stored: PersonRecord) => { person: PersonRecord; changed: boolean },
  ): Promise<ImportUpdate> {
    return people.write(
      async (writer): Promise<ImportUpdate> => {
        const stored = Number.isSafeInteger(crmId) && crmId > 0 ? await writer.getPerson(crmId) : null;
        if (stored === null) return { found: false, written: false };
        const { person, changed } = change(stored);
        if (changed) await people.savePerson(writer, person, { mark });
        return { found: true, written: changed };
      },
      'job',
      { person: Number.isSafeInteger(crmId) && crmId > 0 ? crmId : null },
    );
  }

  /**
   * POST /people/{crmId} and POST /people/{personIdType}:{personId}: applies a Match Candidate
   * to the person the path names with findOrCreate's update rules (scalars given replace the
   * stored ones; new emails, phones and addresses are appended, one already there is not added
   * again) after the same validation (CrmError 400 with every issue). No match is attempted: the
   * path names the person, and a crmId or vanId in the body is ignored. Null when no such person
   * is in this tenant+context (404). Answered once durable.
   */
  async updatePerson(ctx: CallContext, ref: PersonRef, body: unknown): Promise<MatchOutcome | null> {
    const people = await this.scopes.get(ctx);
    const candidate = await this.validate(people, body);
    return people.write(
      async (writer): Promise<MatchOutcome | null> => {
        const stored =
          ref.kind === 'crmId'
            ? Number.isSafeInteger(ref.crmId) && ref.crmId > 0
              ? await writer.getPerson(ref.crmId)
              : null
            : await lockedByExternalId(people, this.store, writer, ref.type, ref.id);
        if (stored === null) return null;
        const { person, changed } = applyCandidate(stored, candidate, this.clock.now());
        if (changed) await people.savePerson(writer, person);
        else people.answersWith(stored.crmId);
        return {
          status: 'Matched',
          crmId: stored.crmId,
          reason: null,
          reasonText: null,
          matchedBy: 'crmId',
          updated: changed,
          explanation: { score: 0, gates: [], gate: null, fields: [], candidates: 0, nearest: null },
        };
      },
      'wait',
      { person: ref.kind === 'crmId' && Number.isSafeInteger(ref.crmId) && ref.crmId > 0 ? ref.crmId : null },
    );
  }

  /** The settings of a call's tenant and context (bulk import mapping values, custom fields). */
  async contextSettings(ctx: CallContext): Promise<ContextSettings> {
    return (await this.scopes.get(ctx)).settings;
  }

  /** GET /people/{crmId}: the Person with the `$expand` collections, or null when not in this tenant+context. */
  async getPerson(ctx: CallContext, crmId: number, expand: ReadonlySet<string>): Promise<Person | null> {
    const people = await this.scopes.get(ctx);
    const wanted = expandSet(expand);
    if (!Number.isSafeInteger(crmId) || crmId <= 0) return null;
    await people.waitUntilDurable(crmId);
    const p = await this.store.getPerson(people.scope, crmId);
    return p === null ? null : renderPerson(p, wanted, people.settings);
  }

  /**
   * GET /people/{type}:{id}: the person holding that external identifier (type and value
   * case-insensitive; the oldest record when several do), or null. A type not available in
   * the context finds nobody.
   */
  async getPersonByExternalId(ctx: CallContext, type: string, id: string, expand: ReadonlySet<string>): Promise<Person | null> {
    const people = await this.scopes.get(ctx);
    const wanted = expandSet(expand);
    const p = await personByExternalId(people, this.store, type, id, () => this.store.flush());
    return p === null ? null : renderPerson(p, wanted, people.settings);
  }
}

/** The engine input of a new person is the candidate's (so the match's normalization serves). */
function sameEngineInputAs(person: PersonRecord, m: Match): boolean {
  return sameEngineInput(engineInput(person), m.input);
}

/**
 * The stored value an external identifier named in a path is looked up by, or null when it
 * names nobody: a type unknown in the context, an empty value, or a votercrmid that is not a
 * crmId (votercrmid values are stored canonical: "007" is record 7).
 */
function identifierLookup(people: PeopleScope, type: string, id: string): string | null {
  const folded = foldIdentifier(type);
  const known = identifierTypesOf(people.scope.context, people.settings).some((t) => foldIdentifier(t) === folded);
  if (!known || id.trim() === '') return null;
  return folded === VOTER_CRM_ID ? canonicalVoterCrmId(id) : id;
}

/** {@link personByExternalId}, read again through a unit's writer (a shared store locks its row until the unit ends). */
async function lockedByExternalId(people: PeopleScope, store: Store, writer: ScopeWriter, named: string, id: string): Promise<PersonRecord | null> {
  const found = await personByExternalId(people, store, named, id);
  return found === null ? null : writer.getPerson(found.crmId);
}

/** The stored person holding an external identifier named in a path (the oldest when several do), or null. */
export async function personByExternalId(
  people: PeopleScope,
  store: Store,
  named: string,
  id: string,
  before?: () => Promise<void>,
): Promise<PersonRecord | null> {
  // `votervanid` (what clients of the modeled API call it) is votercrmid.
  const type = canonicalIdentifierType(named);
  const value = identifierLookup(people, type, id);
  if (value === null) return null;
  if (before !== undefined) await before();
  for (const crmId of await store.findByIdentifier(people.scope, type, value)) {
    const p = await store.getPerson(people.scope, crmId);
    if (p !== null) return p;
  }
  return null;
}

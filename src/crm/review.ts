/**
 * The review queue of `Possible` matches (issue 14 item 7; README "Possible matches"):
 * - findOrCreate that creates a person while the engine found an existing one `Possible`
 *   records the pair in the same unit as the create ({@link recordPossibleMatch});
 * - GET /possibleMatches lists a scope's pairs, newest first, each with both people as GET
 *   /people/{crmId} renders them and the engine's explanation; GET /possibleMatches/{id} one
 *   pair with its decision and audit entries;
 * - POST /possibleMatches/{id} decides: `same` merges the newer person into the older
 *   (merge-people.ts; the newer crmId then answers with the survivor: {@link Review.mergedInto}),
 *   `different` is remembered so that a request fitting both is never matched to either
 *   (different-pairs.ts; it outlives a merge of either person). Each decision is one unit of
 *   the scope's write lock with its audit entry (who: the API key; when: the injected clock).
 */
import type { MatchResult } from '../engine/index.js';
import type { ContextName, PersonRecord, PossibleMatchRow, PossibleMatchStatus, ReviewAuditRow, ScopeWriter, Store } from '../store/index.js';
import type { SecondClock } from './clock.js';
import type { CallContext, KeyIdentity, UnmatchedReason } from './crm-types.js';
import { CrmError } from './errors.js';
import { mergePeople } from './merge-people.js';
import type { PeopleScope } from './people-scope.js';
import { expandSet, renderPerson, type Person } from './person-view.js';
import type { Scopes } from './scopes.js';

/** The decisions a reviewer can send. */
export const DECISIONS = ['same', 'different'] as const;
export type ReviewDecision = (typeof DECISIONS)[number];

/** Values of the list's `status` filter. */
export const STATUS_FILTERS = ['open', 'same', 'different', 'all'] as const;

/** The engine's account of a pair, as stored and shown. */
export interface PairExplanation {
  /** The findOrCreate answer's reason and reasonText. */
  readonly reason: string;
  readonly reasonText: string;
  /** Why a candidate that scored above the match threshold was left for review (the engine's heldBack), else null. */
  readonly heldBack: string | null;
  readonly gates: readonly string[];
  readonly gate: string | null;
  readonly fields: MatchResult['explanation'];
}

/** One audit entry as shown. */
export interface AuditView {
  readonly action: ReviewDecision;
  readonly keyId: number;
  readonly by: string;
  readonly at: string;
  readonly detail: unknown;
}

/** A pair as GET /possibleMatches shows it. */
export interface PossibleMatchView {
  readonly possibleMatchId: number;
  readonly status: PossibleMatchStatus;
  readonly createdAt: string;
  /** Match weight in bits of the candidate for the request that created the person. */
  readonly score: number;
  /** The person findOrCreate created, and the existing one it was near (crmIds as recorded). */
  readonly crmId: number;
  readonly candidateCrmId: number;
  /** Both people as GET /people/{crmId} renders them (a merged one: its survivor); null when gone. */
  readonly person: Person | null;
  readonly candidate: Person | null;
  readonly explanation: PairExplanation;
  readonly decidedAt: string | null;
  readonly decidedByKeyId: number | null;
  /** After `same`: the crmId that survived. */
  readonly survivorCrmId: number | null;
}

/** A pair with its audit entries (GET /possibleMatches/{id}). */
export interface PossibleMatchDetail extends PossibleMatchView {
  readonly audit: readonly AuditView[];
}

/**
 * Inside findOrCreate's unit, after the person `crmId` was created: records the pair when
 * the engine found an existing person `Possible` for the request (`answer`: the reason and
 * reasonText findOrCreate answers with).
 */
export async function recordPossibleMatch(
  writer: ScopeWriter,
  result: MatchResult,
  crmId: number,
  now: string,
  answer: { readonly reason: UnmatchedReason; readonly reasonText: string },
): Promise<void> {
  if (result.decision !== 'Possible' || result.id === null || result.id === crmId) return;
  const explanation: PairExplanation = {
    reason: answer.reason,
    reasonText: answer.reasonText,
    heldBack: result.heldBack,
    gates: result.gates,
    gate: result.gate,
    fields: result.explanation,
  };
  await writer.insertPossibleMatch({
    crmId,
    candidateCrmId: result.id,
    score: Math.round(result.score * 100) / 100,
    explanation: JSON.stringify(explanation),
    createdAt: now,
  });
}

/** See the module comment. */
export class Review {
  constructor(
    private readonly store: Store,
    private readonly scopes: Scopes,
    private readonly clock: SecondClock,
  ) {}

  /** The crmId a merged-away person answers with (its survivor), or null (GET /people/{crmId} 302). */
  async mergedInto(ctx: CallContext, crmId: number): Promise<number | null> {
    if (!Number.isSafeInteger(crmId) || crmId <= 0) return null;
    const people = await this.scopes.get(ctx);
    return (await this.store.getMerge(people.scope, crmId))?.survivorCrmId ?? null;
  }

  /** GET /possibleMatches: a page of the scope's pairs, newest first, and how many there are. */
  async listPossibleMatches(
    ctx: CallContext,
    status: string | undefined,
    expand: ReadonlySet<string>,
    skip: number,
    top: number,
  ): Promise<{ items: PossibleMatchView[]; count: number }> {
    const people = await this.scopes.get(ctx);
    const filter = statusFilter(status);
    const wanted = expandSet(expand);
    await this.store.flush();
    const [rows, count] = await Promise.all([
      this.store.listPossibleMatches(people.scope, filter, skip, top),
      this.store.countPossibleMatches(people.scope, filter),
    ]);
    const items: PossibleMatchView[] = [];
    for (const row of rows) items.push(await this.view(people, row, wanted));
    return { items, count };
  }

  /** GET /possibleMatches/{id}: the pair, its decision and audit entries; null when the scope has none such. */
  async getPossibleMatch(ctx: CallContext, id: number, expand: ReadonlySet<string>): Promise<PossibleMatchDetail | null> {
    const people = await this.scopes.get(ctx);
    const wanted = expandSet(expand);
    if (!Number.isSafeInteger(id) || id <= 0) return null;
    await this.store.flush();
    const row = await this.store.getPossibleMatch(people.scope, id);
    if (row === null) return null;
    const audit = await this.store.listReviewAudit(people.scope, id, 0, 100);
    return { ...(await this.view(people, row, wanted)), audit: audit.map(auditView) };
  }

  /**
   * The audit log of a tenant (`matchbook review audit`), newest first, at most `limit` entries
   * of the given contexts; no index is loaded. CrmError NOT_FOUND naming `tenant` for an
   * unknown tenant.
   */
  async listAudit(
    tenantName: string,
    contexts: readonly ContextName[],
    limit: number,
  ): Promise<(AuditView & { context: ContextName; possibleMatchId: number })[]> {
    const tenant = await this.store.getTenantByName(tenantName);
    if (tenant === null) throw new CrmError('NOT_FOUND', [{ property: 'tenant', text: `No tenant named "${tenantName}".` }]);
    const rows: { context: ContextName; row: ReviewAuditRow }[] = [];
    for (const context of contexts) {
      for (const row of await this.store.listReviewAudit({ tenantId: tenant.id, context }, null, 0, limit)) rows.push({ context, row });
    }
    rows.sort((x, y) => y.row.id - x.row.id);
    return rows.slice(0, limit).map(({ context, row }) => ({ context, possibleMatchId: row.possibleMatchId, ...auditView(row) }));
  }

  /**
   * POST /possibleMatches/{id} with `{"decision":"same"|"different"}` (CrmError 400 naming
   * `decision` otherwise). Null when the scope has no such pair (404); CrmError 409 when it was
   * decided otherwise already, or its people no longer allow the decision (one was merged).
   * Sending the decision it already has answers the pair unchanged.
   */
  async decide(ctx: CallContext, who: Pick<KeyIdentity, 'keyId' | 'tenantName'>, id: number, body: unknown): Promise<PossibleMatchDetail | null> {
    const people = await this.scopes.get(ctx);
    const decision = readDecision(body);
    if (!Number.isSafeInteger(id) || id <= 0) return null;
    // Several processes: the unit locks both people (lock-keys.ts), so a findOrCreate that
    // matched either runs before or after the decision, never across it.
    const known = this.store.sharedByProcesses ? await this.store.getPossibleMatch(people.scope, id) : null;
    const locks = known === null ? {} : { keys: people.lockKeysOfPeople([known.crmId, known.candidateCrmId]) };
    const decided = await people.write(
      async (writer): Promise<boolean> => {
        const pair = await writer.getPossibleMatchForUpdate(id);
        if (pair === null) return false;
        if (pair.status !== 'open') {
          if (pair.status === decision) return true;
          throw new CrmError('CONFLICT', [{ property: 'decision', text: `Possible match ${id} was already decided "${pair.status}".` }]);
        }
        const now = this.clock.now();
        const newer = await writer.getPerson(pair.crmId);
        const older = await writer.getPerson(pair.candidateCrmId);
        const detail: Record<string, unknown> = { crmId: pair.crmId, candidateCrmId: pair.candidateCrmId };
        if (newer === null || older === null) {
          throw new CrmError('CONFLICT', [
            {
              property: 'decision',
              text: `Person ${newer === null ? pair.crmId : pair.candidateCrmId} of possible match ${id} was merged into another person since: decide on that person's pairs instead.`,
            },
          ]);
        }
        if (decision === 'same') {
          const [first, second] = older.crmId < newer.crmId ? [older, newer] : [newer, older];
          await this.merge(people, writer, first, second, now);
          detail['survivorCrmId'] = first.crmId;
          detail['mergedCrmId'] = second.crmId;
        }
        await writer.decidePossibleMatch({
          id,
          status: decision,
          decidedAt: now,
          keyId: who.keyId,
          actor: `key ${who.keyId} (${who.tenantName})`,
          detail: JSON.stringify(detail),
        });
        if (decision === 'different') people.markDifferent(writer, pair.crmId, pair.candidateCrmId);
        return true;
      },
      'wait',
      locks,
    );
    return decided ? this.getPossibleMatch(ctx, id, new Set()) : null;
  }

  /** Merges `newer` into `older` in the unit: the survivor saved, then `newer` removed (its history moved). */
  private async merge(people: PeopleScope, writer: ScopeWriter, older: PersonRecord, newer: PersonRecord, now: string): Promise<void> {
    await people.savePerson(writer, mergePeople(older, newer, now));
    await people.removeMerged(writer, newer.crmId, older.crmId, now);
  }

  /** A pair with both people rendered (a merged one as its survivor). */
  private async view(people: PeopleScope, row: PossibleMatchRow, expand: ReadonlySet<string>): Promise<PossibleMatchView> {
    const render = async (crmId: number): Promise<{ person: Person | null; merged: number | null }> => {
      let p = await this.store.getPerson(people.scope, crmId);
      let merged: number | null = null;
      if (p === null) {
        merged = (await this.store.getMerge(people.scope, crmId))?.survivorCrmId ?? null;
        if (merged !== null) p = await this.store.getPerson(people.scope, merged);
      }
      return { person: p === null ? null : renderPerson(p, expand, people.settings), merged };
    };
    const a = await render(row.crmId);
    const b = await render(row.candidateCrmId);
    return {
      possibleMatchId: row.id,
      status: row.status,
      createdAt: row.createdAt,
      score: row.score,
      crmId: row.crmId,
      candidateCrmId: row.candidateCrmId,
      person: a.person,
      candidate: b.person,
      explanation: { heldBack: null, ...(JSON.parse(row.explanation) as Omit<PairExplanation, 'heldBack'>) },
      decidedAt: row.decidedAt,
      decidedByKeyId: row.decidedByKeyId,
      survivorCrmId: row.status === 'same' ? (a.merged ?? b.merged ?? Math.min(row.crmId, row.candidateCrmId)) : null,
    };
  }
}

function auditView(a: ReviewAuditRow): AuditView {
  return { action: a.action, keyId: a.keyId, by: a.actor, at: a.at, detail: JSON.parse(a.detail) as unknown };
}

/** The body's decision; CrmError 400 naming `decision` otherwise. */
function readDecision(body: unknown): ReviewDecision {
  const raw = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)['decision'] : undefined;
  const value = typeof raw === 'string' ? raw.trim().toLowerCase() : raw;
  if (value === 'same' || value === 'different') return value;
  const text = raw === undefined ? 'decision is required.' : `decision ${JSON.stringify(raw).slice(0, 40)} is not one of ${DECISIONS.join(', ')}.`;
  throw new CrmError('INVALID_PARAMETER', [
    { property: 'decision', text, hint: 'Send {"decision":"same"} to merge the newer person into the older, or {"decision":"different"}.' },
  ]);
}

/** The list's status filter (default open); CrmError 400 naming `status`. */
function statusFilter(raw: string | undefined): PossibleMatchStatus | null {
  const value = (raw ?? 'open').trim().toLowerCase();
  if (value === 'all') return null;
  if (value === 'open' || value === 'same' || value === 'different') return value;
  throw new CrmError('INVALID_PARAMETER', [{ property: 'status', text: `status "${raw?.slice(0, 40)}" is not one of ${STATUS_FILTERS.join(', ')}.` }]);
}

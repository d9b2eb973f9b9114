/**
 * Persistence of the review queue of `Possible` matches (issue 14 item 7): the pairs
 * findOrCreate recorded when it created a person next to a `Possible` candidate, the
 * reviewers' decisions on them (`same`: the newer person merged into the older; `different`:
 * the pair never matches again), the merged crmIds (which answer with their survivor ever
 * after) and the audit log of decisions. Like people, every row belongs to a tenant AND a
 * context, and every query filters by both.
 *
 * The writes run inside a people unit ({@link ScopeWriter}, under the scope's write lock) so
 * that a pair is recorded in the same transaction as the person it names, and a merge (survivor
 * updated, newer person removed, history moved, decision, audit) is one transaction. With
 * PostgreSQL, a merge and a `different` decision take the next `people_changes` number, so the
 * other processes' catch-up (src/crm/people-scope.ts) removes the merged person from their
 * index and learns the different pair.
 */
import type { Scope } from './types.js';

/** The state of a recorded pair. */
export type PossibleMatchStatus = 'open' | 'same' | 'different';

/** A pair to record: the person just created and the existing `Possible` candidate. */
export interface NewPossibleMatch {
  /** The person findOrCreate created. */
  readonly crmId: number;
  /** The existing person the engine found `Possible`. */
  readonly candidateCrmId: number;
  /** Match weight in bits. */
  readonly score: number;
  /** The engine's account (JSON: reason, gate, field outcomes). */
  readonly explanation: string;
  readonly createdAt: string;
}

/** A recorded pair and its decision. */
export interface PossibleMatchRow extends NewPossibleMatch {
  readonly id: number;
  readonly status: PossibleMatchStatus;
  readonly decidedAt: string | null;
  /** The API key that decided (null while open). */
  readonly decidedByKeyId: number | null;
}

/** A decision to store on a pair, with its audit entry. */
export interface PossibleMatchDecision {
  readonly id: number;
  readonly status: Exclude<PossibleMatchStatus, 'open'>;
  readonly decidedAt: string;
  readonly keyId: number;
  /** Who, as a person reads it (the key's prefix and tenant). */
  readonly actor: string;
  /** What was done (JSON: the people, the survivor). */
  readonly detail: string;
}

/** One entry of the audit log. */
export interface ReviewAuditRow {
  readonly id: number;
  readonly possibleMatchId: number;
  readonly action: Exclude<PossibleMatchStatus, 'open'>;
  readonly keyId: number;
  readonly actor: string;
  readonly at: string;
  readonly detail: string;
}

/** A person merged into another: `crmId` answers with `survivorCrmId` ever after. */
export interface PersonMerge {
  readonly crmId: number;
  readonly survivorCrmId: number;
  readonly mergedAt: string;
}

/** The review writes of a people unit (see the module comment); part of the ScopeWriter. */
export interface ReviewWriter {
  /** Records a pair; returns its id. */
  insertPossibleMatch(row: NewPossibleMatch): Promise<number>;
  /** The pair, read in the unit (null when the scope has none such). */
  getPossibleMatchForUpdate(id: number): Promise<PossibleMatchRow | null>;
  /**
   * Stores a decision on an open pair and its audit entry (StoreError CONFLICT when the pair
   * was decided meanwhile). A `different` decision is numbered in the people change log
   * (PostgreSQL), so other processes learn it.
   */
  decidePossibleMatch(decision: PossibleMatchDecision): Promise<void>;
  /**
   * Removes the person `crmId` after its data was merged into `survivorCrmId` (updated before,
   * in the same unit): its canvass history moves to the survivor, its identifier rows go, the
   * merge is recorded (earlier merges into `crmId` now name the survivor), the person row
   * is deleted, and its blocking keys (database retrieval, PostgreSQL) are unfiled.
   */
  mergePerson(crmId: number, survivorCrmId: number, mergedAt: string): Promise<void>;
}

/** The review reads of a {@link Store} (see the module comment). */
export interface ReviewStore {
  /** Pairs of a scope, newest first; `status` null: all. */
  listPossibleMatches(scope: Scope, status: PossibleMatchStatus | null, skip: number, limit: number): Promise<PossibleMatchRow[]>;
  countPossibleMatches(scope: Scope, status: PossibleMatchStatus | null): Promise<number>;
  getPossibleMatch(scope: Scope, id: number): Promise<PossibleMatchRow | null>;
  /** Every pair of a scope decided `different`, as [crmId, candidateCrmId], a person merged since as its survivor (index loads). */
  listDifferentPairs(scope: Scope): Promise<[number, number][]>;
  /** The merge of a crmId that is no longer a person of the scope, or null. */
  getMerge(scope: Scope, crmId: number): Promise<PersonMerge | null>;
  /** The audit entries of a scope, newest first; `possibleMatchId` narrows to one pair. */
  listReviewAudit(scope: Scope, possibleMatchId: number | null, skip: number, limit: number): Promise<ReviewAuditRow[]>;
}

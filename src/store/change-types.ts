/**
 * How the processes sharing a store (PostgreSQL) follow each other's people changes and lock
 * what two requests for the same person share: the types of Store.peopleChangedSince and of a
 * unit's locks (types.ts, Store.writeScope; pg-unit.ts implements them).
 */

/** A person's latest change, as Store.peopleChangedSince lists it. */
export interface PersonChange {
  readonly crmId: number;
  /**
   * Its version: the change number of its last write. A later write of a person has a higher
   * one (writes of one person hold its row lock in turn), so a reader never replaces a newer
   * version of a person with an older one it read before.
   */
  readonly seq: number;
  /** The stored normalization and the fingerprint that made it (null when none). */
  readonly json: string | null;
  readonly fingerprint: number | null;
  /** contactMode is Organization. */
  readonly organization: boolean;
  /** The person was merged into this one (review-types.ts): it is no longer a person of the scope. */
  readonly mergedInto?: number | null;
  /** A reviewer decided this person and that one are different people (review-types.ts); not a change of the person. */
  readonly differentFrom?: number | null;
}

/**
 * A lock key of a unit (ScopeWriteOptions.locks, types.ts): a 32-bit integer, the hash of a
 * blocking key or an external identifier of a person (src/crm/lock-keys.ts). Two requests
 * that could match each other's person share one.
 */
export type LockKey = number;

/**
 * How far a reader has followed a scope's people changes. PostgreSQL: the snapshot of the
 * statement that read them (changes are the rows written by transactions that snapshot did
 * not see: ids from `xmax` on, and those in `xip`, still running then). SQLite: nothing to follow.
 */
export interface ChangeCursor {
  readonly xmax: number;
  /** Transactions in progress at the snapshot, ascending. */
  readonly xip: readonly number[];
}

/** The cursor of a store nobody else writes (SQLite). */
export const NO_CURSOR: ChangeCursor = Object.freeze({ xmax: 0, xip: Object.freeze<number[]>([]) });

/**
 * True when snapshot `a` was taken after `b` (it sees every transaction `b` saw, and more).
 * Snapshots of one database are ordered by time: the later one has a larger `xmax`, or the
 * same `xmax` with fewer transactions still in progress.
 */
export function cursorAfter(a: ChangeCursor, b: ChangeCursor): boolean {
  if (a.xmax !== b.xmax) return a.xmax > b.xmax;
  return a.xip.length < b.xip.length;
}

/** Waits for people locks (Store.lockWaits), since the store opened. */
export interface LockWaitStats {
  /** Units that took locks. */
  readonly acquisitions: number;
  /** Of those, how many waited at least a millisecond. */
  readonly waited: number;
  /** Time spent taking the locks (measured by the database), in all and the longest, ms. */
  readonly totalMs: number;
  readonly maxMs: number;
  /** Units run again after the database found a deadlock (rare: see pg-store.ts). */
  readonly retries: number;
}

/**
 * Where the next page of Store.peopleChangedSince starts: after this change (of
 * transaction `xid`, person `crmId`; `kind` and `id` tell changes of one person in one
 * transaction apart: a write, a merge, a decision).
 */
export interface ChangeKey {
  readonly xid: number;
  readonly crmId: number;
  readonly kind: number;
  readonly id: number;
}

/** A page of Store.peopleChangedSince: changes, and the snapshot they were read with. */
export interface PeopleChanges {
  readonly changes: readonly PersonChange[];
  readonly cursor: ChangeCursor;
  /** The page was full: read on from here (null: nothing more). */
  readonly next: ChangeKey | null;
}

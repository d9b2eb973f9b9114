/**
 * The units of a scope on a store shared by several processes (PostgreSQL; see
 * PeopleScope.write): no in-process lock; the store's unit takes the cross-process locks of
 * the people it may match or write (lock-keys.ts), the changes read under them are applied to
 * the index before the unit's function runs, and the index updates its writes make are held
 * until it committed (durable then): a rolled-back unit leaves the index as it was, and
 * nobody matches a person not yet committed.
 */
import type { LockKey, Scope, ScopeWriteOptions, ScopeWriter, Store } from '../store/index.js';
import { applyPeopleChanges, type ChangeApplier, type ChangeSource, type ScopeIndex } from './scope-index.js';

/** What a unit locks on a store shared by several processes (PeopleScope.write). */
export interface UnitLocks {
  /** Lock keys (lock-keys.ts); the unit then also catches up under them before `fn`. */
  readonly keys?: readonly LockKey[];
  /** The person the unit will likely update: read and row-locked in the unit's first round trip. */
  readonly person?: number | null;
  /** The unit will likely create a person (its crmId is then taken in the first round trip). */
  readonly creates?: boolean;
}

/** What {@link SharedUnits} needs from its scope. */
export interface UnitScope {
  readonly store: Store;
  readonly scope: Scope;
  /** Changes read per store call while catching up. */
  readonly batchSize: number;
  /** The scope's index as it is now (a reload replaces it). */
  current(): ScopeIndex;
  /** What a catch-up does with changes (undefined: put them into the index). */
  applier(): ChangeApplier | undefined;
}

/** A unit's reads as a catch-up's source (in its transaction, under its locks). */
function unitSource(writer: ScopeWriter): ChangeSource {
  return {
    peopleChangedSince: (after, limit, next) => writer.peopleChangedSince(after, limit, next),
    getPerson: (crmId) => writer.readPerson(crmId),
  };
}

/** The running units of one scope; see the module comment. */
export class SharedUnits {
  /** The index updates of each running unit, made once it commits. */
  private readonly units = new Map<ScopeWriter, (() => void)[]>();

  constructor(private readonly of: UnitScope) {}

  /** Runs `fn` as one unit holding `locks`; answers once it committed (durable then). */
  async run<T>(fn: (writer: ScopeWriter) => Promise<T>, locks: UnitLocks): Promise<T> {
    const { store, scope, batchSize } = this.of;
    const keys = locks.keys ?? [];
    const from = this.of.current().cursor;
    const options: { -readonly [K in keyof ScopeWriteOptions]: ScopeWriteOptions[K] } = {};
    if (keys.length > 0) {
      options.locks = keys;
      options.changesAfter = from;
      options.changesLimit = batchSize;
    }
    if (locks.person !== undefined && locks.person !== null) options.lockPerson = locks.person;
    if (locks.creates === true) options.creates = true;
    let updates: (() => void)[] = [];
    const { value } = await store.writeScope(
      scope,
      async (writer, changes) => {
        updates = []; // a unit run again (after a deadlock) starts over
        this.units.set(writer, updates);
        try {
          if (changes !== null) await applyPeopleChanges(() => this.of.current(), unitSource(writer), { from, page: changes }, batchSize, this.of.applier());
          return await fn(writer);
        } finally {
          this.units.delete(writer);
        }
      },
      options,
    );
    for (const update of updates) update();
    return value;
  }

  /**
   * Runs an update of the index that a write of `writer`'s unit makes: once the unit
   * committed when it is one of these units; at once otherwise (one writer process).
   */
  afterCommit(writer: ScopeWriter, update: () => void): void {
    const pending = this.units.get(writer);
    if (pending !== undefined) pending.push(update);
    else update();
  }

  /** Inside a unit: catches up again, reading in the unit's transaction. */
  async catchUpIn(writer: ScopeWriter): Promise<void> {
    await applyPeopleChanges(() => this.of.current(), unitSource(writer), null, this.of.batchSize, this.of.applier());
  }
}

/**
 * One tenant+context ("scope") of people, as this process holds it: its settings, its engine
 * index (loaded from the store, kept up to date with other processes: its catch-up), its write
 * lock, and {@link PeopleScope.savePerson}, the one way a person is written.
 *
 * A people operation runs its reads and writes in {@link PeopleScope.write}. With one writer
 * process (SQLite): under the scope's in-process mutex; the store answers when the unit is
 * durable, and `write` waits for that outside the mutex, so concurrent writers share a disk
 * sync. With a store shared by several processes (PostgreSQL): in the store's unit, which
 * first takes the cross-process locks of the operation's keys (lock-keys.ts) and reads the
 * changes the index has not seen, under them (so find + write is atomic for every two
 * requests that could match each other's person, in this process and across processes);
 * operations on other people run in parallel. Its writes reach the index once committed
 * (shared-units.ts).
 *
 * Past 400 lines because it is one class whose state (index, catch-up cursor, lock, durability
 * waits) every write and lookup of the scope reads and updates together; loading, change
 * following and locking already have files of their own (scope-index, shared-units, lock-keys).
 */
import type { ContactInput, MatchResult, NormalizedContact } from '../engine/index.js';
import { NO_CURSOR, type ImportRowMark, type LockKey, type PersonRecord, type Scope, type ScopeWriter, type Store } from '../store/index.js';
import type { ValidCandidate } from './candidate.js';
import type { MatchedBy, UnmatchedReason } from './crm-types.js';
import type { NamedMutex } from './mutex.js';
import {
  applyPeopleChanges,
  applyVersion,
  isOrganization,
  loadDifferentPairs,
  loadScopeIndex,
  newScopeIndex,
  scopeName,
  type ChangeApplier,
  type ChangeSource,
  type ScopeIndex,
} from './scope-index.js';
import type { ContextSettings } from './settings.js';
import { DatabaseRetrieval, type RetrievalOptions } from './db-retrieval.js';
import { lockKeysOf, lockKeysOfPeople } from './lock-keys.js';
import { SharedUnits, type UnitLocks } from './shared-units.js';
import { SHIPPED, type ContextModel } from './tenant-model.js';
import { DifferentPairs, judgeDifferent } from './different-pairs.js';
import { explainPossible, type Explain } from './match-explanation.js';
import { encodeNormalization, engineInput, normalizerFingerprint } from './stored-normalization.js';

/** What a {@link PeopleScope} needs from the registry that holds it (scopes.ts). */
export interface ScopeHost {
  readonly store: Store;
  readonly mutex: NamedMutex;
  /** People read per store call while loading or catching up. */
  readonly batchSize: number;
  /** Database retrieval's options when scopes keep their keys in the database (db-retrieval.ts); null: in-memory indexes. */
  readonly retrieval: RetrievalOptions | null;
  /**
   * Refuses (CrmError INDEX_FULL) when `more` people would take this process past its index
   * limit; `others`: count every scope but `people` (a reload replaces its index).
   */
  checkCapacity(people: PeopleScope, more: number, count: 'all' | 'others'): void;
  /** A (re)load of the scope's index starts. */
  loadStarted(people: PeopleScope): void;
  /** It ended; `failed`: the index could not be loaded, drop the scope so the next call loads it again. */
  loadEnded(people: PeopleScope, failed: boolean): void;
}

/** The engine's answer for a candidate in a scope, after the person/organization rule. */
export interface Match {
  readonly result: MatchResult;
  /** The matched person, or null. */
  readonly crmId: number | null;
  /** Why none matched; null when one did. */
  readonly reason: UnmatchedReason | null;
  readonly by: MatchedBy | null;
  /** The candidate as the engine took it, and its normalization. */
  readonly input: ContactInput;
  readonly normalized: NormalizedContact;
  /** The index it was made with, and its change count then ({@link PeopleScope.stillHolds}). */
  readonly index: ScopeIndex;
  readonly changes: number;
}

/** How a write's caller learns it is durable. */
export type Durability =
  /** `write` answers once the unit is durable (API calls). */
  | 'wait'
  /** `write` answers once applied: a bulk import job asks the store (Store.importDurable) for its rows. */
  | 'job';

/** A scope of people; see the module comment. Made and cached by scopes.ts. */
export class PeopleScope {
  readonly name: string;
  settings: ContextSettings;
  /** Version of the stored settings `settings` were read from (0: none stored). */
  version: number;
  /** The registry's cache generation when `settings` were last read from the store. */
  checked: number;
  /** The index and how far it follows the store; replaced whole by a reload (database retrieval: empty). */
  private indexed: ScopeIndex;
  /** Database retrieval (the host's option): set by each load; null for an in-memory index. */
  private retrieval: DatabaseRetrieval | null = null;
  /** Resolves when the index is loaded (rejects when that failed). */
  ready: Promise<void> = Promise.resolve();
  /** The catch-ups of this scope run one after another: the last one started or queued. */
  private catching: Promise<void> = Promise.resolve();
  /** A catch-up queued behind a running one and not started yet (later callers join it). */
  private queued: Promise<void> | null = null;
  /** Shared stores: the running units and their index updates (shared-units.ts). */
  private readonly units: SharedUnits;
  /** The last durability promise of a bulk import unit watched for failure (one watch per batch). */
  private watched: Promise<void> | null = null;
  /** During a unit (serialized by the write lock) that answers once durable: commits of people its answer names unchanged. */
  private answered: Promise<void>[] | null = null;
  private answering = false;

  /** The matching model in force (tenant-model.ts): the shipped one, or the context's trained one. */
  private contextModel: ContextModel = SHIPPED;

  constructor(
    private readonly host: ScopeHost,
    readonly scope: Scope,
    settings: ContextSettings,
    version: number,
    checked: number,
    model: ContextModel = SHIPPED,
  ) {
    this.name = scopeName(scope);
    this.settings = settings;
    this.version = version;
    this.checked = checked;
    this.contextModel = model;
    this.units = new SharedUnits({
      store: host.store,
      scope,
      batchSize: host.batchSize,
      current: () => this.indexed,
      applier: () => this.applier(),
    });
    const index = newScopeIndex(settings.defaultCountry, { model: model.model });
    this.indexed = {
      index,
      fingerprint: normalizerFingerprint(index),
      organizations: new Set(),
      cursor: NO_CURSOR,
      versions: new Map(),
      changes: 0,
      different: new DifferentPairs(),
    };
  }

  /** People in the index (0 with database retrieval: they stay in the database). */
  get size(): number {
    return this.indexed.index.size;
  }

  /** The matching model in force and which one it is. */
  get model(): ContextModel {
    return this.contextModel;
  }

  /**
   * Scores with `model` from the next find on (a trained model stored or reset, noticed by
   * scopes.ts like a settings change): the index's records stay, only the weights change.
   */
  useModel(model: ContextModel): void {
    this.contextModel = model;
    this.indexed.index.setModel(model.model);
    this.retrieval?.setModel(model.model);
  }

  // ---- the index: load, reload, catch-up ----------------------------------------------

  /**
   * (Re)builds the index from the store under the write lock; when that fails (an I/O
   * error), the registry forgets the scope, so the next call loads it again instead of
   * failing for ever. Sets and returns {@link ready}.
   */
  reload(): Promise<void> {
    this.host.loadStarted(this);
    this.ready = this.host.mutex
      .run(this.name, () => this.load())
      .then(
        () => this.host.loadEnded(this, false),
        (error: unknown) => {
          this.host.loadEnded(this, true);
          throw error;
        },
      );
    return this.ready;
  }

  /** Builds a fresh index (scope-index.ts) and swaps it in; runs under the write lock. */
  private async load(): Promise<void> {
    const { store, retrieval: options } = this.host;
    if (options !== null && store.matchKeys !== null) {
      // Nothing to load: check the keys were filed by this engine (else build them once).
      const cursor = await store.lastPeopleChange(this.scope);
      const retrieval = new DatabaseRetrieval(this.scope, store.matchKeys, this.settings.defaultCountry, options);
      retrieval.setModel(this.contextModel.model);
      await retrieval.ensureKeys(store, this.host.batchSize);
      const different = await loadDifferentPairs(store, this.scope);
      this.indexed = {
        index: newScopeIndex(this.settings.defaultCountry, { model: this.contextModel.model }),
        fingerprint: retrieval.fingerprint,
        organizations: new Set(),
        cursor,
        versions: new Map(),
        changes: 0,
        different,
      };
      this.retrieval = retrieval;
      return;
    }
    this.host.checkCapacity(this, await store.countPeople(this.scope), 'others');
    const model = this.contextModel.model;
    const indexed = await loadScopeIndex(store, this.scope, this.settings.defaultCountry, this.host.batchSize, { model });
    // The model was changed while loading: the new index takes it too.
    if (this.contextModel.model !== model) indexed.index.setModel(this.contextModel.model);
    this.indexed = indexed;
  }

  /**
   * Brings the index up to date with the writes other processes committed (stores shared by
   * several processes; nothing to do otherwise): applies every person written by transactions
   * the index has not seen (one indexed query, usually empty). Called before each find, so a
   * write answered by any process is seen by the next request to any process
   * (read-your-writes), and a process that started late or lost its connection catches up on
   * its next request. A caller arriving while one runs joins the next (which starts after it
   * arrived). A unit catches up on its own, with the changes read under its locks.
   */
  catchUp(): Promise<void> {
    if (!this.host.store.sharedByProcesses) return Promise.resolve();
    if (this.queued !== null) return this.queued;
    const store = this.host.store;
    const source: ChangeSource = {
      peopleChangedSince: (after, limit, next) => store.peopleChangedSince(this.scope, after, limit, next),
      getPerson: (crmId) => store.getPerson(this.scope, crmId),
    };
    const run: Promise<void> = this.catching.then(() => {
      if (this.queued === run) this.queued = null;
      return applyPeopleChanges(() => this.indexed, source, null, this.host.batchSize, this.applier());
    });
    this.queued = run;
    this.catching = run.catch(() => undefined);
    return run;
  }

  /**
   * Inside {@link write} on a shared store: catches up again, reading in the unit (a person it
   * found gone was merged meanwhile: the unit then matches again).
   */
  catchUpIn(writer: ScopeWriter): Promise<void> {
    return this.units.catchUpIn(writer);
  }

  /** What a catch-up does with changes: put them into the index (default), or database retrieval's. */
  private applier(): ChangeApplier | undefined {
    const retrieval = this.retrieval;
    return retrieval === null ? undefined : async (_, rows) => retrieval.changed(rows);
  }

  // ---- matching --------------------------------------------------------------------------

  /**
   * Runs the engine for a candidate; a person never matches an organization by score (nor
   * the reverse). With database retrieval, `writer` (inside {@link write}) reads in the unit.
   * `explain` (match-explanation.ts): when the result carries its per-field explanation, a
   * second scoring of the pair; false or 'possible' for an answer that is only sent.
   */
  async match(candidate: ValidCandidate, writer: ScopeWriter | null = null, explain: Explain = true): Promise<Match> {
    const options: { strict: boolean; id?: number; explain?: boolean; organization?: boolean } = { strict: this.settings.disablePartialMatching };
    if (candidate.crmId !== null) options.id = candidate.crmId;
    // An organization's info@ is its own address; a person's is a shared mailbox.
    if (isOrganization(candidate.scalars)) options.organization = true;
    if (explain === true) options.explain = true;
    const input = engineInput(candidate);
    const retrieval = this.retrieval;
    const indexed = this.indexed;
    const at = { index: indexed, changes: indexed.changes };
    let normalized: NormalizedContact;
    let result: MatchResult;
    let organizations: ReadonlySet<number>;
    if (retrieval === null) {
      normalized = indexed.index.normalize(input);
      result = judgeDifferent(indexed.index, indexed.different, normalized, indexed.index.findNormalized(normalized, options), options);
      if (explain === 'possible') result = explainPossible(indexed.index, normalized, result, options);
      organizations = indexed.organizations;
    } else {
      normalized = retrieval.normalize(input);
      const store = this.host.store;
      const getPerson = writer === null ? (crmId: number) => store.getPerson(this.scope, crmId) : (crmId: number) => writer.readPerson(crmId);
      ({ result, organizations } = await retrieval.find(normalized, { ...options, explain }, writer?.keys ?? null, getPerson, indexed.different));
    }
    if (result.decision === 'Matched' && result.id !== null) {
      const by: MatchedBy = result.reason === 'id' ? 'crmId' : result.reason === 'identifier' ? 'identifier' : 'score';
      if (by === 'score' && isOrganization(candidate.scalars) !== organizations.has(result.id)) {
        return { result, crmId: null, reason: 'criterion-disagrees', by: null, input, normalized, ...at };
      }
      return { result, crmId: result.id, reason: null, by, input, normalized, ...at };
    }
    const reason: UnmatchedReason = result.reason === 'id' || result.reason === 'identifier' || result.reason === 'score' ? 'below-threshold' : result.reason;
    return { result, crmId: null, reason, by: null, input, normalized, ...at };
  }

  /**
   * True when nobody was put into the index since `m` was made: matching again would give `m`.
   * Never with database retrieval (a unit matches again, reading in its transaction).
   */
  stillHolds(m: Match): boolean {
    return this.retrieval === null && m.index === this.indexed && m.changes === this.indexed.changes;
  }

  /** The lock keys of a findOrCreate unit for a match made before it (lock-keys.ts). */
  lockKeys(m: Match): LockKey[] {
    return lockKeysOf(this.indexed.index, m.normalized, m.crmId);
  }

  /** The lock keys of a unit that decides on existing people (lock-keys.ts). */
  lockKeysOfPeople(crmIds: readonly number[]): LockKey[] {
    return lockKeysOfPeople(this.indexed.index, crmIds);
  }

  // ---- writing ---------------------------------------------------------------------------

  /**
   * Runs `fn`, the reads and writes of one people operation, as one unit (see the module
   * comment; `locks`: what it locks on a shared store), and answers with its value once its
   * writes are durable (`'job'`: once applied). With one writer process, when its commit
   * failed, the index is rebuilt from the store.
   */
  async write<T>(fn: (writer: ScopeWriter) => Promise<T>, durability: Durability = 'wait', locks: UnitLocks = {}): Promise<T> {
    if (this.host.store.sharedByProcesses) return this.units.run(fn, locks);
    const store = this.host.store;
    // What the operation answered while it ran (taken in the lock's finally: a property, read after).
    const taken: { answered: Promise<void>[] | null } = { answered: null };
    const { value, durable } = await this.host.mutex.run(this.name, async () => {
      this.answering = durability === 'wait';
      try {
        return await store.writeScope(this.scope, fn);
      } finally {
        taken.answered = this.answered;
        this.answered = null;
        this.answering = false;
      }
    });
    if (durability === 'wait') {
      try {
        await durable;
        if (taken.answered !== null) await Promise.all(taken.answered);
      } catch (error) {
        await this.reload();
        throw error;
      }
    } else if (durable !== this.watched) {
      this.watched = durable;
      durable.catch(() => this.reload().catch(() => undefined));
    }
    return value;
  }

  /**
   * The one way a person is written, inside {@link write}: normalizes the person (or takes
   * `normalized`, the same person's normalization already made), stores it with that
   * normalization (and the bulk import row's `mark`, in the same transaction): a new person
   * (crmId 0) is inserted, past the index limit refused; then puts it into the index. Answers
   * the person as stored (ids assigned).
   */
  async savePerson(
    writer: ScopeWriter,
    person: PersonRecord,
    options: { readonly mark?: ImportRowMark | undefined; readonly normalized?: NormalizedContact } = {},
  ): Promise<PersonRecord> {
    const { index, fingerprint } = this.indexed;
    const retrieval = this.retrieval;
    const contact = options.normalized ?? (retrieval ?? index).normalize(engineInput(person));
    const keys = retrieval?.keysOf(contact);
    const normalization = { fingerprint, json: encodeNormalization(contact), ...(keys === undefined ? {} : { keys }) };
    let saved: PersonRecord;
    if (person.crmId === 0) {
      if (retrieval === null) this.host.checkCapacity(this, 1, 'all');
      saved = await writer.insertPerson(person, normalization, options.mark);
    } else {
      saved = await writer.updatePerson(person, normalization, options.mark);
    }
    // After the write, so a refused write leaves the index unchanged.
    const organization = isOrganization(saved.scalars);
    const update = (): void => {
      if (retrieval !== null && keys !== undefined) {
        retrieval.written(saved.crmId, keys);
        return;
      }
      const target = this.indexed;
      // Read when applied: a shared store knows the version once the unit committed.
      const version = writer.versionWritten(saved.crmId);
      if (version > 0) applyVersion(target, saved.crmId, version, organization, contact);
      else {
        target.index.upsertNormalized(saved.crmId, contact);
        target.changes++;
        if (organization) target.organizations.add(saved.crmId);
        else target.organizations.delete(saved.crmId);
      }
    };
    this.units.afterCommit(writer, update);
    return saved;
  }

  /**
   * Inside {@link write}, after the survivor was saved with the merged data: removes the person
   * `crmId` from the store (its history moved to `survivorCrmId`, its blocking keys unfiled,
   * see Store mergePerson) and from the index (database retrieval: the cache of hot keys); the
   * reviewers' different decisions on it pass to the survivor.
   */
  async removeMerged(writer: ScopeWriter, crmId: number, survivorCrmId: number, mergedAt: string): Promise<void> {
    await writer.mergePerson(crmId, survivorCrmId, mergedAt);
    this.units.afterCommit(writer, () => {
      const target = this.indexed;
      const version = writer.versionWritten(crmId);
      if (version > 0) target.versions.set(crmId, Math.max(version, target.versions.get(crmId) ?? 0));
      target.index.remove(crmId);
      target.changes++;
      target.organizations.delete(crmId);
      target.different.merged(crmId, survivorCrmId);
      this.retrieval?.cache.clear();
    });
  }

  /** Inside {@link write}, after the decision was stored: the two people never match as one (different-pairs.ts). */
  markDifferent(writer: ScopeWriter, a: number, b: number): void {
    this.units.afterCommit(writer, () => {
      this.indexed.different.add(a, b);
      this.indexed.changes++;
    });
  }

  /**
   * Inside {@link write}: the answer names the person `crmId`, unchanged; `write` answers
   * once that person's writes are durable too (it may still be in a pending commit). A bulk
   * import row need not wait: its mark, stored after, commits with that person or later.
   */
  answersWith(crmId: number): void {
    if (!this.answering) return;
    const commit = this.waitUntilDurable(crmId);
    commit.catch(() => undefined); // awaited after the unit's own commit
    (this.answered ??= []).push(commit);
  }

  /** Resolves when the person's writes so far are durable (a matched record may still be in a pending commit). */
  waitUntilDurable(crmId: number): Promise<void> {
    return this.host.store.flush(crmId);
  }
}

/**
 * One tenant+context ("scope") of people, as this process holds it: its settings, its engine
 * index (loaded from the store, kept up to date with other processes: its catch-up), its write
 * lock, and {@link PeopleScope.savePerson}, the one way a person is written.
 *
 * A people operation runs its reads and writes in {@link PeopleScope.write}: under the
 * scope's in-process mutex and, with a store shared by several processes, in the store's
 * unit holding the cross-process lock, after a catch-up (so find + write is atomic across
 * processes). The store answers when the unit is durable; `write` waits for that outside the
 * lock, so concurrent writers share a disk sync.
 */
import type { ContactInput, MatchResult, NormalizedContact } from '../engine/index.js';
import type { ImportRowMark, PersonChange, PersonRecord, Scope, ScopeWriter, Store } from '../store/index.js';
import type { ValidCandidate } from './candidate.js';
import type { MatchedBy, UnmatchedReason } from './crm-types.js';
import type { NamedMutex } from './mutex.js';
import {
  applyPeopleChanges,
  isOrganization,
  loadDifferentPairs,
  loadScopeIndex,
  newScopeIndex,
  scopeName,
  type ChangeSource,
  type ScopeIndex,
} from './scope-index.js';
import type { ContextSettings } from './settings.js';
import { DatabaseRetrieval, type RetrievalOptions } from './db-retrieval.js';
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
  /** The matching model in force (tenant-model.ts): the shipped one, or the context's trained one. */
  private contextModel: ContextModel = SHIPPED;
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
  /** Counts this process's writes put into the index (to know whether a rollback must rebuild it). */
  private localWrites = 0;
  /** The last durability promise of a bulk import unit watched for failure (one watch per batch). */
  private watched: Promise<void> | null = null;
  /** During a unit (serialized by the write lock) that answers once durable: commits of people its answer names unchanged. */
  private answered: Promise<void>[] | null = null;
  private answering = false;

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
    const index = newScopeIndex(settings.defaultCountry, { model: model.model });
    this.indexed = { index, fingerprint: normalizerFingerprint(index), organizations: new Set(), seq: 0, different: new DifferentPairs() };
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
      const seq = await store.lastPeopleChange(this.scope);
      const retrieval = new DatabaseRetrieval(this.scope, store.matchKeys, this.settings.defaultCountry, options);
      retrieval.setModel(this.contextModel.model);
      await retrieval.ensureKeys(store, this.host.batchSize);
      const different = await loadDifferentPairs(store, this.scope);
      this.indexed = {
        index: newScopeIndex(this.settings.defaultCountry, { model: this.contextModel.model }),
        fingerprint: retrieval.fingerprint,
        organizations: new Set(),
        seq,
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
   * several processes; nothing to do otherwise): applies every person changed after the last
   * change applied (one indexed query, usually empty). Called before each find and, under the
   * cross-process lock, before each write, so a write answered by any process is seen by the
   * next request to any process (read-your-writes), and a process that started late or lost
   * its connection catches up on its next request. Catch-ups of a scope run one at a time, so
   * the index never goes back to an older row; a caller arriving while one runs joins the next
   * (which starts after it arrived). Inside the lock (`writer`, with the `changes` read with
   * it, newer than any catch-up before) the catch-up must not wait for a pooled connection.
   */
  catchUp(writer: ScopeWriter | null = null, changes: readonly PersonChange[] | null = null): Promise<void> {
    if (!this.host.store.sharedByProcesses) return Promise.resolve();
    if (writer === null && this.queued !== null) return this.queued;
    const store = this.host.store;
    const source: ChangeSource = writer ?? {
      peopleChangedSince: (afterSeq, limit) => store.peopleChangedSince(this.scope, afterSeq, limit),
      getPerson: (crmId) => store.getPerson(this.scope, crmId),
    };
    const run: Promise<void> = this.catching.then(() => {
      if (this.queued === run) this.queued = null;
      const retrieval = this.retrieval;
      if (retrieval === null) return applyPeopleChanges(() => this.indexed, source, changes, this.host.batchSize);
      return applyPeopleChanges(
        () => this.indexed,
        source,
        changes,
        this.host.batchSize,
        async (_, rows) => retrieval.changed(rows),
      );
    });
    if (writer === null) this.queued = run;
    this.catching = run.catch(() => undefined);
    return run;
  }

  // ---- matching --------------------------------------------------------------------------

  /**
   * Runs the engine for a candidate; a person never matches an organization by score (nor
   * the reverse). With database retrieval, `writer` (inside {@link write}) reads in the unit.
   * `explain` (match-explanation.ts): when the result carries its per-field explanation, a
   * second scoring of the pair; false or 'possible' for an answer that is only sent.
   */
  async match(candidate: ValidCandidate, writer: ScopeWriter | null = null, explain: Explain = true): Promise<Match> {
    const options: { strict: boolean; id?: number; explain?: boolean } = { strict: this.settings.disablePartialMatching };
    if (candidate.crmId !== null) options.id = candidate.crmId;
    if (explain !== true) options.explain = false;
    const input = engineInput(candidate);
    const retrieval = this.retrieval;
    let normalized: NormalizedContact;
    let result: MatchResult;
    let organizations: ReadonlySet<number>;
    if (retrieval === null) {
      const index = this.indexed.index;
      normalized = index.normalize(input);
      result = judgeDifferent(index, this.indexed.different, normalized, index.findNormalized(normalized, options), options);
      if (explain === 'possible') result = explainPossible(index, normalized, result, options);
      organizations = this.indexed.organizations;
    } else {
      normalized = retrieval.normalize(input);
      const store = this.host.store;
      const getPerson = writer === null ? (crmId: number) => store.getPerson(this.scope, crmId) : (crmId: number) => writer.getPerson(crmId);
      ({ result, organizations } = await retrieval.find(normalized, { ...options, explain }, writer?.keys ?? null, getPerson, this.indexed.different));
    }
    if (result.decision === 'Matched' && result.id !== null) {
      const by: MatchedBy = result.reason === 'id' ? 'crmId' : result.reason === 'identifier' ? 'identifier' : 'score';
      if (by === 'score' && isOrganization(candidate.scalars) !== organizations.has(result.id)) {
        return { result, crmId: null, reason: 'criterion-disagrees', by: null, input, normalized };
      }
      return { result, crmId: result.id, reason: null, by, input, normalized };
    }
    const reason: UnmatchedReason = result.reason === 'id' || result.reason === 'identifier' || result.reason === 'score' ? 'below-threshold' : result.reason;
    return { result, crmId: null, reason, by: null, input, normalized };
  }

  // ---- writing ---------------------------------------------------------------------------

  /**
   * Runs `fn`, the reads and writes of one people operation, under the scope's write lock
   * (see the module comment), and answers with its value once its writes are durable
   * (`'job'`: once applied). When the store rolled the unit back (PostgreSQL) after `fn`
   * changed the index, or its commit failed, the index is rebuilt from the store.
   */
  async write<T>(fn: (writer: ScopeWriter) => Promise<T>, durability: Durability = 'wait'): Promise<T> {
    const store = this.host.store;
    // What the operation answered while it ran (taken in the lock's finally: a property, read after).
    const taken: { answered: Promise<void>[] | null } = { answered: null };
    const { value, durable } = await this.host.mutex.run(this.name, async () => {
      const writes = this.localWrites;
      this.answering = durability === 'wait';
      try {
        // One writer process (SQLite): nothing to catch up on, no lock to take.
        if (!store.sharedByProcesses) return await store.writeScope(this.scope, fn);
        return await store.writeScope(
          this.scope,
          async (writer, changes) => {
            await this.catchUp(writer, changes);
            return fn(writer);
          },
          { changesAfter: this.indexed.seq, changesLimit: this.host.batchSize },
        );
      } catch (error) {
        if (store.sharedByProcesses && this.localWrites !== writes) {
          // The transaction rolled back: forget what fn put into the index.
          this.ready = this.load();
          await this.ready.catch(() => undefined);
        }
        throw error;
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
    if (retrieval !== null && keys !== undefined) {
      retrieval.written(saved.crmId, keys);
      return saved;
    }
    // After the write, so a refused write leaves the index unchanged.
    this.localWrites++;
    this.indexed.index.upsertNormalized(saved.crmId, contact);
    if (isOrganization(saved.scalars)) this.indexed.organizations.add(saved.crmId);
    else this.indexed.organizations.delete(saved.crmId);
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
    this.localWrites++;
    this.indexed.index.remove(crmId);
    this.indexed.organizations.delete(crmId);
    this.indexed.different.merged(crmId, survivorCrmId);
    this.retrieval?.cache.clear();
  }

  /** Inside {@link write}, after the decision was stored: the two people never match as one (different-pairs.ts). */
  markDifferent(a: number, b: number): void {
    this.localWrites++;
    this.indexed.different.add(a, b);
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

/**
 * The CRM facade the server and the CLI use: one object over a {@link Store} that opens and
 * closes the domain and hands each call to the module that owns it:
 * - admin.ts: tenants, their settings, API keys; admin-cache.ts: authentication and the
 *   caches admin changes invalidate; model-training.ts: a context's model trained on its
 *   people (tenant-model.ts: which model a context scores with);
 * - people.ts: find, findOrCreate, reading a person, bulk import writes to people;
 * - canvass-responses.ts: canvass responses;
 * - review.ts: the review queue of Possible matches (merge, different, audit);
 * - scopes.ts and people-scope.ts: each tenant+context's settings, engine index (loaded at
 *   open, kept up to date with other processes), write lock, and the one way a person is
 *   written (savePerson).
 * Public types: crm-types.ts (re-exported here).
 */
import { openStore, type ContextName, type ImportRowMark, type KeyUsageDelta, type LockWaitStats, type Store, type Tier } from '../store/index.js';
import { Admin, type IssuedKey } from './admin.js';
import { AdminCache } from './admin-cache.js';
import { ModelTraining, type ModelPlan, type TrainingOptions } from './model-training.js';
import type { CanvassLists } from './canvass-lists.js';
import type { CanvassHistoryItem, PersonRef } from './canvass.js';
import { CanvassResponses } from './canvass-responses.js';
import { SecondClock } from './clock.js';
import {
  CONTEXTS,
  defaultMaxIndexPeople,
  type CallContext,
  type CrmOpenOptions,
  type KeyIdentity,
  type KeySummary,
  type MatchOutcome,
  type Readiness,
  type TenantSummary,
} from './crm-types.js';
import { People, type ImportUpdate } from './people.js';
import { Review, type AuditView, type PossibleMatchDetail, type PossibleMatchView } from './review.js';
import type { Person } from './person-view.js';
import { Scopes } from './scopes.js';
import type { ContextSettings } from './settings.js';
import type { ModelInForce } from './tenant-model.js';

export * from './crm-types.js';
export type { IssuedKey } from './admin.js';
export type { ImportUpdate } from './people.js';
export type { DecisionChanges, ModelPlan, TrainingOptions, TrainingProgress, WeightChange } from './model-training.js';
export type { AuditView, PairExplanation, PossibleMatchDetail, PossibleMatchView, ReviewDecision } from './review.js';

/** The CRM domain facade. Create with {@link Crm.open}; close with {@link Crm.close}. */
export class Crm {
  private readonly cache: AdminCache;
  private readonly scopes: Scopes;
  private readonly admin: Admin;
  private readonly people: People;
  private readonly canvass: CanvassResponses;
  private readonly training: ModelTraining;
  private readonly review: Review;
  /** The load of every tenant's indexes ({@link loadAllIndexes}): scopes to load and loaded; null when not started. */
  private startLoad: { total: number; done: number; finished: boolean } | null = null;
  private closed = false;

  private constructor(
    readonly store: Store,
    options: CrmOpenOptions,
  ) {
    const clock = new SecondClock(options.now);
    const wall = options.now ?? (() => new Date());
    this.cache = new AdminCache(store, () => wall().getTime());
    if (options.index === 'database' && store.matchKeys === null) {
      throw new Error('Database retrieval (index "database") needs a PostgreSQL store (--db postgres://...).');
    }
    const retrieval = options.index === 'database' ? { ...(options.keyCache === undefined ? {} : { cache: options.keyCache }) } : null;
    this.scopes = new Scopes(store, this.cache, Math.max(1, options.loadBatchSize ?? 5000), options.maxIndexPeople ?? defaultMaxIndexPeople(), retrieval);
    this.admin = new Admin(store, this.cache, this.scopes, clock);
    this.people = new People(store, this.scopes, clock);
    this.canvass = new CanvassResponses(store, this.scopes, clock);
    this.training = new ModelTraining(store, this.cache, this.scopes, clock);
    this.review = new Review(store, this.scopes, clock);
  }

  /**
   * Opens the database (running its migrations) and, unless `loadIndexes` is false, loads
   * every tenant's indexes. `Crm.open({ db: 'var/matchbook.db' })`, `Crm.open({ db: ':memory:' })`.
   */
  static async open(options: CrmOpenOptions): Promise<Crm> {
    const sync: { synchronous?: 'FULL' | 'NORMAL' } = {};
    if (options.synchronous !== undefined) sync.synchronous = options.synchronous;
    const store = options.store ?? (await openStore(options.db ?? ':memory:', sync));
    let crm: Crm;
    try {
      crm = new Crm(store, options);
      if (options.loadIndexes === false) return crm;
      await crm.loadAllIndexes();
    } catch (error) {
      await store.close();
      throw error;
    }
    return crm;
  }

  /**
   * Loads the index of every tenant and context (what {@link open} does unless `loadIndexes` is
   * false). A server calls it after it started listening, so that `GET /ready` can say it is
   * loading; requests meanwhile wait for their own scope's index. Answers false when the Crm was
   * closed meanwhile (it stops quietly then), true once all are loaded.
   */
  async loadAllIndexes(): Promise<boolean> {
    const progress = { total: 0, done: 0, finished: false };
    this.startLoad = progress;
    try {
      const tenants = await this.store.listTenants();
      progress.total = tenants.length * CONTEXTS.length;
      for (const tenant of tenants) {
        for (const context of CONTEXTS) {
          if (this.closed) return false;
          await this.scopes.get({ tenantId: tenant.id, context });
          progress.done++;
        }
      }
    } catch (error) {
      if (this.closed) return false;
      throw error;
    }
    progress.finished = true;
    return true;
  }

  /**
   * Whether this process is ready to serve (`GET /ready`); see {@link Readiness}. Cheap: one
   * trivial query, plus, on a store shared by several processes, a catch-up of each loaded
   * index (one indexed query each, usually empty).
   */
  async readiness(): Promise<Readiness> {
    const { scopes, people, loading } = this.scopes.counts();
    const base = { scopes, people, loading };
    try {
      await this.store.countTenants();
    } catch (error) {
      return { ...base, ready: false, database: false, reason: `The database does not answer: ${error instanceof Error ? error.message : String(error)}` };
    }
    const load = this.startLoad;
    if (load !== null && !load.finished) {
      return {
        ...base,
        ready: false,
        database: true,
        reason: `Loading indexes: ${load.done} of ${load.total || '?'} tenant contexts loaded (${people.toLocaleString('en-US')} people so far).`,
      };
    }
    if (loading > 0) {
      return {
        ...base,
        ready: false,
        database: true,
        reason: `Rebuilding ${loading} index${loading > 1 ? 'es' : ''} (after a settings change or a failed commit).`,
      };
    }
    try {
      await this.scopes.catchUpAll();
    } catch (error) {
      return {
        ...base,
        ready: false,
        database: true,
        reason: `Catching up with other processes' writes failed: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    return { ...base, ready: true, database: true, reason: null };
  }

  /** People in each loaded index (the `matchbook_index_people` metric). */
  indexSizes(): { tenantId: number; context: ContextName; people: number }[] {
    return this.scopes.sizes();
  }

  /** Time people writes of this process waited for each other's locks (the `matchbook_people_lock_*` metrics). */
  lockWaits(): LockWaitStats {
    return this.store.lockWaits();
  }

  /** Waits for running writes and their commit, then closes the store. */
  async close(): Promise<void> {
    this.closed = true;
    await this.scopes.close();
    await this.store.flush().catch(() => undefined);
    await this.store.close();
  }

  // ---- admin (admin.ts, admin-cache.ts) ---------------------------------------------------

  /** See {@link Admin.createTenant}. */
  createTenant(name: string): Promise<{ id: number; name: string }> {
    return this.admin.createTenant(name);
  }

  /** See {@link Admin.listTenants}. */
  listTenants(): Promise<TenantSummary[]> {
    return this.admin.listTenants();
  }

  /** See {@link Admin.hasAnyTenant}. */
  hasAnyTenant(): Promise<boolean> {
    return this.admin.hasAnyTenant();
  }

  /** See {@link Admin.configureTenant}. */
  configureTenant(name: string, settings: unknown): Promise<void> {
    return this.admin.configureTenant(name, settings);
  }

  /** See {@link Admin.getTenantSettings}. */
  getTenantSettings(name: string): Promise<Record<ContextName, ContextSettings>> {
    return this.admin.getTenantSettings(name);
  }

  /** See {@link Admin.createKey}. */
  createKey(opts: { tenant: string; tier?: Tier; contexts?: readonly ContextName[]; defaultContext?: ContextName }): Promise<IssuedKey> {
    return this.admin.createKey(opts);
  }

  /** See {@link Admin.listKeys}. */
  listKeys(): Promise<KeySummary[]> {
    return this.admin.listKeys();
  }

  /** See {@link Admin.revokeKey}. */
  revokeKey(idOrPrefix: string): Promise<boolean> {
    return this.admin.revokeKey(idOrPrefix);
  }

  /** See {@link ModelTraining.plan}. */
  planTenantModel(name: string, options: TrainingOptions = {}): Promise<ModelPlan> {
    return this.training.plan(name, options);
  }

  /** See {@link ModelTraining.save}. */
  saveTenantModel(plan: ModelPlan): Promise<ModelInForce> {
    return this.training.save(plan);
  }

  /** The matching model a context scores with (`GET /apiKeyProfiles`). */
  async modelInForce(ctx: CallContext): Promise<ModelInForce> {
    return (await this.scopes.get(ctx)).model.inForce;
  }

  /** See {@link AdminCache.authenticate}. */
  authenticate(guid: string): Promise<KeyIdentity | null> {
    return this.cache.authenticate(guid);
  }

  /** Adds batched request counts to keys' monthly usage ("YYYY-MM", UTC); counts only grow (src/server/rate-limit.ts counts). */
  async addKeyUsage(rows: readonly KeyUsageDelta[]): Promise<void> {
    await this.store.addKeyUsage(rows);
  }

  /** Requests counted for a key in a month ("YYYY-MM", UTC); 0 when none. */
  getKeyUsage(keyId: number, month: string): Promise<number> {
    return this.store.getKeyUsage(keyId, month);
  }

  // ---- people (people.ts) -----------------------------------------------------------------

  /** See {@link People.find}. `explain`: fill the explanation's per-field outcomes (diagnostics; the API never sends them). */
  find(ctx: CallContext, body: unknown, opts: { explain?: boolean } = {}): Promise<MatchOutcome> {
    return this.people.find(ctx, body, opts.explain === true);
  }

  /**
   * See {@link People.findOrCreate}. `contacts` marks the /contacts path (same rules).
   * `explain`: fill the explanation's per-field outcomes for every answer (diagnostics; the
   * API never sends them), not only for a pair recorded for review.
   */
  findOrCreate(ctx: CallContext, body: unknown, opts: { contacts?: boolean; explain?: boolean } = {}): Promise<MatchOutcome> {
    return this.people.findOrCreate(ctx, body, opts.explain === true);
  }

  /** See {@link People.getPerson}. */
  getPerson(ctx: CallContext, crmId: number, expand: ReadonlySet<string>): Promise<Person | null> {
    return this.people.getPerson(ctx, crmId, expand);
  }

  /** See {@link People.getPersonByExternalId}. */
  getPersonByExternalId(ctx: CallContext, type: string, id: string, expand: ReadonlySet<string>): Promise<Person | null> {
    return this.people.getPersonByExternalId(ctx, type, id, expand);
  }

  /** See {@link People.importFindOrCreate}. */
  importFindOrCreate(ctx: CallContext, body: unknown, mark: ImportRowMark): Promise<{ outcome: MatchOutcome; written: boolean }> {
    return this.people.importFindOrCreate(ctx, body, mark);
  }

  /** See {@link People.updatePerson}. */
  updatePerson(ctx: CallContext, ref: PersonRef, body: unknown): Promise<MatchOutcome | null> {
    return this.people.updatePerson(ctx, ref, body);
  }

  /** See {@link People.importUpdatePerson}. */
  importUpdatePerson(ctx: CallContext, crmId: number, body: unknown, mark: ImportRowMark): Promise<ImportUpdate> {
    return this.people.importUpdatePerson(ctx, crmId, body, mark);
  }

  /** See {@link People.importSuppression}. */
  importSuppression(ctx: CallContext, crmId: number, code: string, remove: boolean, mark: ImportRowMark): Promise<ImportUpdate> {
    return this.people.importSuppression(ctx, crmId, code, remove, mark);
  }

  /** See {@link People.contextSettings}. */
  contextSettings(ctx: CallContext): Promise<ContextSettings> {
    return this.people.contextSettings(ctx);
  }

  // ---- canvass responses (canvass-responses.ts) ------------------------------------------

  /** See {@link CanvassResponses.canvassLists}. */
  canvassLists(ctx: CallContext): Promise<CanvassLists> {
    return this.canvass.canvassLists(ctx);
  }

  /** See {@link CanvassResponses.addCanvassResponse}. */
  addCanvassResponse(ctx: CallContext, ref: PersonRef, body: unknown, opts: { mark?: ImportRowMark } = {}): Promise<boolean> {
    return this.canvass.addCanvassResponse(ctx, ref, body, opts);
  }

  /** See {@link CanvassResponses.listCanvassResponses}. */
  listCanvassResponses(ctx: CallContext, ref: PersonRef, skip: number, top: number): Promise<{ items: CanvassHistoryItem[]; count: number } | null> {
    return this.canvass.listCanvassResponses(ctx, ref, skip, top);
  }

  // ---- review queue of Possible matches (review.ts) -------------------------------------

  /** See {@link Review.mergedInto}. */
  mergedInto(ctx: CallContext, crmId: number): Promise<number | null> {
    return this.review.mergedInto(ctx, crmId);
  }

  /** See {@link Review.listPossibleMatches}. */
  listPossibleMatches(
    ctx: CallContext,
    status: string | undefined,
    expand: ReadonlySet<string>,
    skip: number,
    top: number,
  ): Promise<{ items: PossibleMatchView[]; count: number }> {
    return this.review.listPossibleMatches(ctx, status, expand, skip, top);
  }

  /** See {@link Review.getPossibleMatch}. */
  getPossibleMatch(ctx: CallContext, id: number, expand: ReadonlySet<string>): Promise<PossibleMatchDetail | null> {
    return this.review.getPossibleMatch(ctx, id, expand);
  }

  /** See {@link Review.decide}. */
  decidePossibleMatch(ctx: CallContext, who: Pick<KeyIdentity, 'keyId' | 'tenantName'>, id: number, body: unknown): Promise<PossibleMatchDetail | null> {
    return this.review.decide(ctx, who, id, body);
  }

  /** See {@link Review.listAudit}. */
  listReviewAudit(
    tenantName: string,
    contexts: readonly ContextName[],
    limit: number,
  ): Promise<(AuditView & { context: ContextName; possibleMatchId: number })[]> {
    return this.review.listAudit(tenantName, contexts, limit);
  }
}

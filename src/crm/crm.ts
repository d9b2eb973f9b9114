/**
 * The CRM facade: tenants, keys, settings, and the people operations, over a {@link Store} and
 * one in-memory engine index per tenant and context.
 *
 * Indexes are loaded from the store when the facade opens (scope-index.ts) and updated after
 * every committed write. findOrCreate runs find and write under its tenant+context's mutex, so
 * one process never creates the same new person twice. Writes commit before the Promise
 * resolves. Public types: crm-types.ts (re-exported here).
 */
import type { ContactInput, MatchResult, NormalizedContact } from '../engine/index.js';
import { encodeMatchKey, engineInput, normalizerFingerprint, sameEngineInput } from './match-key.js';
import {
  StoreError, openStore,
  type ContextName, type KeyRow, type PersonRecord, type Scope, type Store, type Tier,
  type KeyUsageDelta, type ImportRowMark, type PersonChange,
} from '../store/index.js';
import type { ValidCandidate } from './candidate.js';
import { CrmError } from './errors.js';
import { hashKey, isGuid, keyPrefix, newKey } from './keys.js';
import { KeyedMutex } from './mutex.js';
import { VOTER_CRM_ID, canonicalVoterCrmId, unknownVoterIds } from './voter-ids.js';
import { applyCandidate, createPerson } from './person.js';
import { SUPPRESSIONS, applySuppression, findSuppression } from './suppressions.js';
import { EXPANDABLE, renderPerson, type Person } from './person-view.js';
import {
  DEFAULT_CONTEXT_SETTINGS, identifierTypesOf, parseStoredContextSettings, parseTenantSettings,
  type ContextSettings,
} from './settings.js';
import { validateCandidate } from './validate.js';
import { canvassListsOf, type CanvassLists } from './canvass-lists.js';
import {
  applyPhoneDispositions, canvassHistoryItem, parseCanvassResponse, type CanvassHistoryItem, type PersonRef,
} from './canvass.js';
import {
  CONTEXTS, INDEX_BYTES_PER_PERSON, REASON_TEXT, TIERS, defaultMaxIndexPeople,
  type CallContext, type CrmOpenOptions, type KeyIdentity, type KeySummary, type MatchExplanation,
  type MatchOutcome, type MatchedBy, type Readiness, type TenantSummary, type UnmatchedReason,
} from './crm-types.js';
import { applyPeopleChanges, isOrganization, loadScopeIndex, newScopeIndex, scopeKey, type ScopeState } from './scope-index.js';

export * from './crm-types.js';

/** How often the caches of keys and settings ask the store whether another process changed it. */
const FRESHNESS_MS = 250;
/** Bound of the key cache (unknown GUIDs are cached too, so a flood of them cannot grow it). */
const MAX_CACHED_KEYS = 10_000;

const TENANT_NAME = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,99}$/;

function explanationOf(r: MatchResult): MatchExplanation {
  return { score: r.score, gates: r.gates, gate: r.gate, fields: r.explanation, candidates: r.candidates };
}

function summarizeKey(k: KeyRow): KeySummary {
  return {
    id: k.id, prefix: k.prefix, tenant: k.tenantName, tier: k.tier, contexts: k.contexts,
    defaultContext: k.defaultContext, createdAt: k.createdAt, revokedAt: k.revokedAt,
  };
}

/** The CRM domain facade. Create with {@link Crm.open}; close with {@link Crm.close}. */
export class Crm {
  private readonly scopes = new Map<string, ScopeState>();
  private readonly mutex = new KeyedMutex();
  private readonly clock: () => Date;
  private readonly batchSize: number;
  private readonly maxIndexPeople: number;
  /**
   * Cache of {@link authenticate}: identity by trimmed lower-cased GUID, null for unknown or
   * revoked. Together with the scopes' settings it is valid for one {@link generation}.
   */
  private readonly keys = new Map<string, KeyIdentity | null>();
  /** Bumped by every change of tenants, keys or settings made here or noticed in the store. */
  private generation = 0;
  private changeCheckedAt = -Infinity;
  private changeCounter: number | null = null;
  /** The load of every tenant's indexes ({@link loadAllIndexes}): scopes to load and loaded; null when not started. */
  private startLoad: { total: number; done: number; finished: boolean } | null = null;
  /** Scopes whose index is being built now. */
  private loadingScopes = 0;
  private closed = false;

  private constructor(readonly store: Store, options: CrmOpenOptions) {
    this.clock = options.now ?? (() => new Date());
    this.batchSize = Math.max(1, options.loadBatchSize ?? 5000);
    this.maxIndexPeople = options.maxIndexPeople ?? defaultMaxIndexPeople();
  }

  /**
   * Opens the database (running its migrations) and, unless `loadIndexes` is false, loads
   * every tenant's indexes. `Crm.open({ db: 'var/matchbook.db' })`, `Crm.open({ db: ':memory:' })`.
   */
  static async open(options: CrmOpenOptions): Promise<Crm> {
    const sync: { synchronous?: 'FULL' | 'NORMAL' } = {};
    if (options.synchronous !== undefined) sync.synchronous = options.synchronous;
    const store = options.store ?? (await openStore(options.db ?? ':memory:', sync));
    const crm = new Crm(store, options);
    try {
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
          await this.state({ tenantId: tenant.id, context });
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
    let people = 0;
    for (const st of this.scopes.values()) people += st.index.size;
    const base = { scopes: this.scopes.size, people, loading: this.loadingScopes };
    try {
      await this.store.countTenants();
    } catch (error) {
      return { ...base, ready: false, database: false, reason: `The database does not answer: ${error instanceof Error ? error.message : String(error)}` };
    }
    const load = this.startLoad;
    if (load !== null && !load.finished) {
      return { ...base, ready: false, database: true, reason: `Loading indexes: ${load.done} of ${load.total || '?'} tenant contexts loaded (${people.toLocaleString('en-US')} people so far).` };
    }
    if (this.loadingScopes > 0) {
      return { ...base, ready: false, database: true, reason: `Rebuilding ${this.loadingScopes} index${this.loadingScopes > 1 ? 'es' : ''} (after a settings change or a failed commit).` };
    }
    if (this.store.peopleChangedSince !== undefined) {
      try {
        await Promise.all([...this.scopes.values()].map((st) => this.catchUp(st)));
      } catch (error) {
        return { ...base, ready: false, database: true, reason: `Catching up with other processes' writes failed: ${error instanceof Error ? error.message : String(error)}` };
      }
    }
    return { ...base, ready: true, database: true, reason: null };
  }

  /** Waits for running writes and their commit, then closes the store. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.scopes.values()].map((s) => this.mutex.run(scopeKey(s.scope), async () => s.ready)));
    await this.store.flush().catch(() => undefined);
    await this.store.close();
  }

  /** The last second formatted by {@link now} (a bulk import asks thousands of times a second). */
  private nowCache = { second: Number.NaN, text: '' };

  private now(): string {
    const ms = this.clock().getTime();
    const second = Math.floor(ms / 1000);
    if (second !== this.nowCache.second) {
      this.nowCache = { second, text: new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') };
    }
    return this.nowCache.text;
  }

  // ---- caches of keys and settings ----------------------------------------------------

  /** Forgets every cached key and settings document (after a change made through this Crm). */
  private invalidate(): void {
    this.generation++;
    this.keys.clear();
  }

  /**
   * Notices changes committed by another process (the CLI revoking a key, configuring a
   * tenant): at most once per {@link FRESHNESS_MS}, asks the store's change counter (SQLite
   * `PRAGMA data_version`), and invalidates the caches when it moved, or always when the
   * store has none. Such a change thus takes effect within 250 ms (plus one request).
   * Undefined when nothing needs awaiting.
   */
  private noticeExternalChanges(): Promise<void> | undefined {
    const now = performance.now();
    if (now - this.changeCheckedAt < FRESHNESS_MS) return undefined;
    this.changeCheckedAt = now;
    if (this.store.changeCounter === undefined) {
      this.invalidate();
      return undefined;
    }
    return this.store.changeCounter().then((counter) => {
      if (counter !== this.changeCounter) {
        this.changeCounter = counter;
        this.invalidate();
      }
    });
  }

  // ---- tenant and context state -------------------------------------------------------

  /**
   * The scope's settings and index. The settings are cached for the current cache
   * generation; otherwise re-read, reloading the index when the stored settings changed.
   */
  private async state(ctx: CallContext): Promise<ScopeState> {
    const noticing = this.noticeExternalChanges();
    if (noticing !== undefined) await noticing;
    const scope: Scope = { tenantId: ctx.tenantId, context: ctx.context };
    const key = scopeKey(scope);
    const cached = this.scopes.get(key);
    if (cached !== undefined && cached.checked === this.generation) {
      await cached.ready;
      return cached;
    }
    const generation = this.generation;
    const row = await this.store.getSettings(scope);
    const version = row?.version ?? 0;
    let st = this.scopes.get(key);
    if (st === undefined) {
      const settings = row === null ? DEFAULT_CONTEXT_SETTINGS : parseStoredContextSettings(scope.context, row.json);
      const index = newScopeIndex(settings.defaultCountry);
      const created: ScopeState = {
        scope, settings, version, index, fingerprint: normalizerFingerprint(index),
        organizations: new Set(), ready: Promise.resolve(), checked: generation,
        seq: 0, catching: Promise.resolve(), queued: null, localWrites: 0,
      };
      created.ready = this.loadOrForget(created);
      this.scopes.set(key, created);
      st = created;
    } else if (st.version !== version && row !== null) {
      const state = st;
      const settings = parseStoredContextSettings(scope.context, row.json);
      const reindex = settings.defaultCountry !== state.settings.defaultCountry;
      state.version = version;
      state.settings = settings;
      // Normalization depends on the default country: rebuild the index when it changes.
      if (reindex) state.ready = this.loadOrForget(state);
    }
    st.checked = generation;
    await st.ready;
    return st;
  }

  /**
   * Loads a scope's index under its mutex. When loading fails (an I/O error), the scope is
   * forgotten, so the next call loads it again instead of failing for ever.
   */
  private loadOrForget(st: ScopeState): Promise<void> {
    const key = scopeKey(st.scope);
    this.loadingScopes++;
    return this.mutex.run(key, () => this.load(st)).then(
      () => {
        this.loadingScopes--;
      },
      (error: unknown) => {
        this.loadingScopes--;
        if (this.scopes.get(key) === st) this.scopes.delete(key);
        throw error;
      },
    );
  }

  /** People indexed by this process, all scopes together (`except` left out). */
  private indexedPeople(except?: ScopeState): number {
    let n = 0;
    for (const s of this.scopes.values()) if (s !== except) n += s.index.size;
    return n;
  }

  /** Refuses (CrmError INDEX_FULL) when `more` people would take this process past its index limit. */
  private checkCapacity(st: ScopeState, more: number, already: number): void {
    if (already + more <= this.maxIndexPeople) return;
    throw new CrmError('INDEX_FULL', `Tenant ${st.scope.tenantId} ${st.scope.context}: indexing ${more.toLocaleString('en-US')} more people would take this process to ${(already + more).toLocaleString('en-US')}, past its limit of ${this.maxIndexPeople.toLocaleString('en-US')} (MATCHBOOK_MAX_INDEX_PEOPLE, or 70% of the V8 heap at ${INDEX_BYTES_PER_PERSON} B per person: raise --max-old-space-size, or split tenants over more processes).`);
  }

  /** Builds a fresh index of a scope from the store (scope-index.ts) and swaps it in; runs under the scope's mutex. */
  private async load(st: ScopeState): Promise<void> {
    this.checkCapacity(st, await this.store.countPeople(st.scope), this.indexedPeople(st));
    const loaded = await loadScopeIndex(this.store, st.scope, st.settings.defaultCountry, this.batchSize);
    st.index = loaded.index;
    st.fingerprint = loaded.fingerprint;
    st.organizations = loaded.organizations;
    st.seq = loaded.seq;
  }

  // ---- several processes on one store (PostgreSQL) ------------------------------------

  /**
   * Brings a scope's index up to date with the writes other processes committed: applies
   * every person changed after `st.seq` (one indexed query, usually empty). Called before
   * each find and, under the scope's cross-process lock, before each write, so a write
   * answered by any process is seen by the next request to any process (read-your-writes),
   * and a process that started late or lost its connection catches up on its next request.
   * Catch-ups of a scope run one at a time, so the index never goes back to an older row;
   * a caller arriving while one runs joins the next (which starts after it arrived).
   */
  private catchUp(st: ScopeState, via: Store = this.store, prefetched: PersonChange[] | null = null): Promise<void> {
    if (via.peopleChangedSince === undefined) return Promise.resolve();
    // Inside the lock (`via` is the lock's transaction) the catch-up must not wait for a
    // pooled connection; `prefetched` are the changes read with the lock (newer than any
    // catch-up before, so they are applied after those).
    if (st.queued !== null && via === this.store) return st.queued;
    const run: Promise<void> = st.catching.then(() => {
      if (st.queued === run) st.queued = null;
      return applyPeopleChanges(st, via, prefetched, this.batchSize);
    });
    if (via === this.store) st.queued = run;
    st.catching = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs a people write of a scope: under the scope's in-process mutex and, with a store
   * shared by several processes, inside its cross-process lock after a catch-up, with the
   * store bound to that transaction (so find + write is atomic across processes). When the
   * transaction fails after `fn` changed the index, the index is rebuilt.
   */
  private write<T>(st: ScopeState, fn: (store: Store) => Promise<T>): Promise<T> {
    return this.mutex.run(scopeKey(st.scope), async () => {
      const store = this.store;
      if (store.withScopeLock === undefined) return fn(store);
      const writes = st.localWrites;
      try {
        return await store.withScopeLock(st.scope, async (tx, changes) => {
          await this.catchUp(st, tx, changes);
          return fn(tx);
        }, { changesAfter: st.seq, changesLimit: this.batchSize });
      } catch (error) {
        // The transaction rolled back: forget what fn put into the index.
        if (st.localWrites !== writes) {
          st.ready = this.load(st);
          await st.ready.catch(() => undefined);
        }
        throw error;
      }
    });
  }

  // ---- admin ---------------------------------------------------------------------------

  /** Creates a tenant. Names: 1-100 letters, digits, space, "_", ".", "-"; unique ignoring case. */
  async createTenant(name: string): Promise<{ id: number; name: string }> {
    const trimmed = typeof name === 'string' ? name.trim() : '';
    if (!TENANT_NAME.test(trimmed)) {
      throw new CrmError('INVALID_PARAMETER', [{ property: 'name', text: `"${trimmed}" is not a valid tenant name.`, hint: 'Use 1 to 100 letters, digits, spaces, "_", "." or "-", starting with a letter or digit.' }]);
    }
    try {
      const row = await this.store.createTenant(trimmed, this.now());
      this.invalidate();
      return { id: row.id, name: row.name };
    } catch (error) {
      if (error instanceof StoreError && error.code === 'CONFLICT') throw new CrmError('CONFLICT', error.message);
      throw error;
    }
  }

  /** Every tenant with its people counts and configured contexts. */
  async listTenants(): Promise<TenantSummary[]> {
    const out: TenantSummary[] = [];
    for (const t of await this.store.listTenants()) {
      const people = { voterfile: 0, campaign: 0 };
      const configured: ContextName[] = [];
      for (const context of CONTEXTS) {
        people[context] = await this.store.countPeople({ tenantId: t.id, context });
        if ((await this.store.getSettings({ tenantId: t.id, context })) !== null) configured.push(context);
      }
      out.push({ id: t.id, name: t.name, createdAt: t.createdAt, people, configured });
    }
    return out;
  }

  private async tenantNamed(name: string): Promise<{ id: number; name: string }> {
    const tenant = typeof name === 'string' ? await this.store.getTenantByName(name.trim()) : null;
    if (tenant === null) throw new CrmError('NOT_FOUND', [{ property: 'tenant', text: `No tenant named "${String(name)}".` }]);
    return tenant;
  }

  /**
   * Sets a tenant's settings from a settings file's JSON (shape documented in
   * src/crm/settings.ts and data/examples/tenant-settings.example.json). Contexts present in
   * the file replace that context's settings; others are kept. Throws CrmError
   * INVALID_PARAMETER naming each bad path ("campaign.customFieldGroups[0].id"), NOT_FOUND
   * for an unknown tenant. Takes effect on the next call, in this and other processes.
   */
  async configureTenant(name: string, settings: unknown): Promise<void> {
    const tenant = await this.tenantNamed(name);
    const parsed = parseTenantSettings(settings);
    for (const context of CONTEXTS) {
      const value = parsed[context];
      if (value !== undefined) await this.store.putSettings({ tenantId: tenant.id, context }, JSON.stringify(value), this.now());
    }
    this.invalidate();
    for (const context of CONTEXTS) if (this.scopes.has(scopeKey({ tenantId: tenant.id, context }))) await this.state({ tenantId: tenant.id, context });
  }

  /** The effective settings of both contexts of a tenant (defaults where not configured). */
  async getTenantSettings(name: string): Promise<Record<ContextName, ContextSettings>> {
    const tenant = await this.tenantNamed(name);
    const out = {} as Record<ContextName, ContextSettings>;
    for (const context of CONTEXTS) {
      const row = await this.store.getSettings({ tenantId: tenant.id, context });
      out[context] = row === null ? DEFAULT_CONTEXT_SETTINGS : parseStoredContextSettings(context, row.json);
    }
    return out;
  }

  /**
   * Issues an API key for a tenant. Defaults: tier Custom, both contexts, default context the
   * first of `contexts` (voterfile before campaign). The GUID is returned once and stored only
   * hashed.
   */
  async createKey(opts: { tenant: string; tier?: Tier; contexts?: readonly ContextName[]; defaultContext?: ContextName }): Promise<{ id: number; key: string; prefix: string; tenant: string; tier: Tier; contexts: ContextName[]; defaultContext: ContextName }> {
    const tenant = await this.tenantNamed(opts.tenant);
    const tier = opts.tier ?? 'Custom';
    if (!TIERS.includes(tier)) throw new CrmError('INVALID_PARAMETER', [{ property: 'tier', text: `"${String(tier)}" is not a tier.`, hint: `Use one of: ${TIERS.join(', ')}.` }]);
    const requested = opts.contexts ?? CONTEXTS;
    const bad = requested.filter((c) => !CONTEXTS.includes(c));
    if (bad.length > 0 || requested.length === 0) {
      throw new CrmError('INVALID_PARAMETER', [{ property: 'contexts', text: `Contexts must be a non-empty list of ${CONTEXTS.join(', ')}.` }]);
    }
    const contexts = CONTEXTS.filter((c) => requested.includes(c));
    const defaultContext = opts.defaultContext ?? (contexts[0] as ContextName);
    if (!contexts.includes(defaultContext)) {
      throw new CrmError('INVALID_PARAMETER', [{ property: 'defaultContext', text: `The default context "${String(defaultContext)}" is not one of the key's contexts (${contexts.join(', ')}).` }]);
    }
    const key = newKey();
    const row = await this.store.insertKey({ tenantId: tenant.id, hash: hashKey(key), prefix: keyPrefix(key), tier, contexts, defaultContext, createdAt: this.now() });
    this.invalidate();
    return { id: row.id, key, prefix: row.prefix, tenant: tenant.name, tier, contexts, defaultContext };
  }

  /** Every key (revoked ones too), without secrets. */
  async listKeys(): Promise<KeySummary[]> {
    return (await this.store.listKeys()).map(summarizeKey);
  }

  /**
   * Revokes a key given its id (digits, shorter than 8), its full GUID, or a prefix of at least
   * 4 characters of its GUID matching one active key. False when nothing was revoked; CrmError
   * CONFLICT when a prefix is ambiguous.
   */
  async revokeKey(idOrPrefix: string): Promise<boolean> {
    const text = String(idOrPrefix).trim().toLowerCase();
    const keys = await this.store.listKeys();
    let targets: KeyRow[];
    if (/^\d{1,7}$/.test(text)) targets = keys.filter((k) => k.id === Number(text));
    else if (isGuid(text)) targets = keys.filter((k) => k.hash === hashKey(text));
    else if (text.length >= 4) targets = keys.filter((k) => k.revokedAt === null && k.prefix.startsWith(text.slice(0, 8)) && text.length <= 8);
    else targets = [];
    if (targets.length > 1) {
      throw new CrmError('CONFLICT', `The prefix "${text}" matches ${targets.length} active keys; give more characters or the key id.`);
    }
    const revoked = await this.store.revokeKeys(targets.map((k) => k.id), this.now());
    this.invalidate();
    return revoked > 0;
  }

  /** True once any tenant exists (the server creates a demo tenant on a first start otherwise). */
  async hasAnyTenant(): Promise<boolean> {
    return (await this.store.countTenants()) > 0;
  }

  /**
   * The identity of an API key GUID (any case, surrounding spaces ignored), or null when it is
   * not a GUID, unknown, or revoked. The `|0`/`|1` suffix is the HTTP layer's to strip.
   * Cached: a key revoked through this Crm is refused at once, one revoked by another process
   * within 250 ms (see {@link noticeExternalChanges}).
   */
  async authenticate(guid: string): Promise<KeyIdentity | null> {
    if (typeof guid !== 'string') return null;
    const noticing = this.noticeExternalChanges();
    if (noticing !== undefined) await noticing;
    const text = guid.trim().toLowerCase();
    const cached = this.keys.get(text);
    if (cached !== undefined) return cached;
    if (!isGuid(text)) return null;
    const generation = this.generation;
    const key = await this.store.getKeyByHash(hashKey(text));
    const identity: KeyIdentity | null = key === null || key.revokedAt !== null ? null : {
      keyId: key.id, tenantId: key.tenantId, tenantName: key.tenantName, tier: key.tier,
      contexts: key.contexts, defaultContext: key.defaultContext,
    };
    if (generation === this.generation) {
      if (this.keys.size >= MAX_CACHED_KEYS) this.keys.clear();
      this.keys.set(text, identity);
    }
    return identity;
  }

  // ---- people --------------------------------------------------------------------------

  /**
   * Validates a Match Candidate (every issue at once); in the campaign context each votercrmid
   * must also name a voter-file record of the tenant (src/crm/voter-ids.ts).
   */
  private async validate(st: ScopeState, body: unknown): Promise<ValidCandidate> {
    const result = validateCandidate(body, { context: st.scope.context, settings: st.settings });
    const voters = st.scope.context === 'campaign' ? await unknownVoterIds(this.store, st.scope.tenantId, body) : [];
    if (!result.ok) throw new CrmError(result.code, [...result.issues, ...voters]);
    if (voters.length > 0) throw new CrmError('INVALID_PARAMETER', voters);
    return result.value;
  }

  /** Runs the engine for a candidate; applies the person/organization rule. */
  private match(st: ScopeState, c: ValidCandidate): { result: MatchResult; crmId: number | null; reason: UnmatchedReason | null; by: MatchedBy | null; input: ContactInput; normalized: NormalizedContact } {
    const options: { strict: boolean; id?: number } = { strict: st.settings.disablePartialMatching };
    if (c.crmId !== null) options.id = c.crmId;
    const input = engineInput(c);
    const normalized = st.index.normalize(input);
    const result = st.index.findNormalized(normalized, options);
    if (result.decision === 'Matched' && result.id !== null) {
      const by: MatchedBy = result.reason === 'id' ? 'crmId' : result.reason === 'identifier' ? 'identifier' : 'score';
      if (by === 'score' && isOrganization(c.scalars) !== st.organizations.has(result.id)) {
        return { result, crmId: null, reason: 'criterion-disagrees', by: null, input, normalized };
      }
      return { result, crmId: result.id, reason: null, by, input, normalized };
    }
    const reason: UnmatchedReason = result.reason === 'id' || result.reason === 'identifier' || result.reason === 'score'
      ? 'below-threshold'
      : result.reason;
    return { result, crmId: null, reason, by: null, input, normalized };
  }

  /**
   * POST /people/find: validates the Match Candidate (CrmError 400 with every issue) and
   * answers Matched with the crmId, or Unmatched with the reason. Never writes.
   */
  async find(ctx: CallContext, body: unknown): Promise<MatchOutcome> {
    const st = await this.state(ctx);
    const c = await this.validate(st, body);
    await this.catchUp(st);
    const m = this.match(st, c);
    // The matched record may be in a commit still pending: answer once it is durable.
    if (m.crmId !== null) await this.store.flush(m.crmId);
    return {
      status: m.crmId === null ? 'Unmatched' : 'Matched',
      crmId: m.crmId,
      reason: m.reason,
      reasonText: m.reason === null ? null : REASON_TEXT[m.reason],
      matchedBy: m.by,
      updated: false,
      explanation: explanationOf(m.result),
    };
  }

  /**
   * POST /people/findOrCreate and /contacts/findOrCreate: on a match the record is updated
   * with what was supplied (Matched), otherwise a record is created (UnmatchedStored, with
   * the reason no record matched; below the minimum combinations always creates). The write
   * is durable before the Promise resolves. `contacts` marks the /contacts path;
   * organizations are accepted on both paths where the context enables them.
   *
   * Find and write run under the tenant+context's mutex; the wait for the disk sync does not,
   * so concurrent requests share one commit (see src/store/sqlite-store.ts).
   */
  async findOrCreate(ctx: CallContext, body: unknown, opts: { contacts?: boolean } = {}): Promise<MatchOutcome> {
    void opts;
    const st = await this.state(ctx);
    const c = await this.validate(st, body);
    if (this.store.withScopeLock !== undefined) {
      const unchanged = await this.matchUnchanged(st, c);
      if (unchanged !== null) return unchanged;
    }
    const { outcome, durable } = await this.applyFindOrCreate(st, c);
    await this.durableOrReload(st, durable);
    return outcome;
  }

  /**
   * findOrCreate for a bulk import row (src/crm/import): the same validation, match rules
   * and update rules, with the row's `mark` stored in the write's transaction. Answers once
   * the write is applied; `durable` resolves when it is on disk (the importer waits for a
   * whole batch at once). A row that writes nothing (a match that changes nothing) has
   * `written` false and its mark is the caller's to store.
   */
  async importFindOrCreate(ctx: CallContext, body: unknown, mark: ImportRowMark): Promise<{ outcome: MatchOutcome; written: boolean; durable: Promise<void> }> {
    const st = await this.state(ctx);
    const c = await this.validate(st, body);
    const applied = await this.applyFindOrCreate(st, c, mark);
    return { ...applied, durable: this.durableOrReload(st, applied.durable) };
  }

  /**
   * Applies a Match Candidate to the existing person `crmId` with the findOrCreate update
   * rules (bulk import mapping types such as Email, Phones, MailingAddress and custom fields),
   * storing `mark` in the same transaction. `found` false: no such person in this
   * tenant+context (nothing written). CrmError 400 when the body is invalid.
   */
  async importUpdatePerson(ctx: CallContext, crmId: number, body: unknown, mark: ImportRowMark): Promise<{ found: boolean; written: boolean; durable: Promise<void> }> {
    const st = await this.state(ctx);
    const c = await this.validate(st, body);
    return this.write(st, async (store) => {
      const stored = Number.isSafeInteger(crmId) && crmId > 0 ? await store.getPerson(st.scope, crmId) : null;
      if (stored === null) return { found: false, written: false, durable: Promise.resolve() };
      const { person, changed } = applyCandidate(stored, c, this.now());
      if (!changed) return { found: true, written: false, durable: this.store.flush(crmId) };
      const contact = st.index.normalize(engineInput(person));
      const saved = await store.updatePerson(st.scope, person, { fingerprint: st.fingerprint, json: encodeMatchKey(contact) }, mark);
      this.indexPerson(st, saved.value, contact);
      return { found: true, written: true, durable: this.durableOrReload(st, saved.durable) };
    });
  }

  /**
   * Applies or removes a suppression (src/crm/suppressions.ts) on the person `crmId`, storing
   * `mark` in the same transaction. `found` false: no such person. CrmError 400 for an
   * unknown code.
   */
  async importSuppression(ctx: CallContext, crmId: number, code: string, remove: boolean, mark: ImportRowMark): Promise<{ found: boolean; written: boolean; durable: Promise<void> }> {
    const st = await this.state(ctx);
    if (findSuppression(code) === undefined) {
      throw new CrmError('INVALID_PARAMETER', [{ property: 'suppressionCode', text: `"${code.slice(0, 40)}" is not a suppression code.`, hint: `Codes: ${SUPPRESSIONS.map((s) => s.suppressionCode).join(', ')}.` }]);
    }
    return this.write(st, async (store) => {
      const stored = Number.isSafeInteger(crmId) && crmId > 0 ? await store.getPerson(st.scope, crmId) : null;
      if (stored === null) return { found: false, written: false, durable: Promise.resolve() };
      const { person, changed } = applySuppression(stored, code, remove, this.now());
      if (!changed) return { found: true, written: false, durable: this.store.flush(crmId) };
      // Suppressions do not change matching: the index entry stays as it is.
      const contact = st.index.normalize(engineInput(person));
      const saved = await store.updatePerson(st.scope, person, { fingerprint: st.fingerprint, json: encodeMatchKey(contact) }, mark);
      return { found: true, written: true, durable: this.durableOrReload(st, saved.durable) };
    });
  }

  /** The settings of a call's tenant and context (bulk import mapping values, custom fields). */
  async contextSettings(ctx: CallContext): Promise<ContextSettings> {
    return (await this.state(ctx)).settings;
  }

  /** Waits for a write to be durable; when its commit failed, reloads the index (the store rolled back) and rethrows. */
  private async durableOrReload(st: ScopeState, durable: Promise<void>): Promise<void> {
    try {
      await durable;
    } catch (error) {
      await this.reload(st);
      throw error;
    }
  }

  /** Find and write of findOrCreate, under the scope's mutex; answers once applied. */
  private applyFindOrCreate(st: ScopeState, c: ValidCandidate, mark?: ImportRowMark): Promise<{ outcome: MatchOutcome; written: boolean; durable: Promise<void> }> {
    return this.write(st, async (store): Promise<{ outcome: MatchOutcome; written: boolean; durable: Promise<void> }> => {
      const m = this.match(st, c);
      const now = this.now();
      if (m.crmId !== null) {
        const stored = await store.getPerson(st.scope, m.crmId);
        if (stored === null) throw new Error(`Index and store disagree: person ${m.crmId} is indexed but not stored.`);
        const { person, changed } = applyCandidate(stored, c, now);
        // Unchanged: the matched record may still be in a pending commit; wait for it too.
        let durable = this.store.flush(m.crmId);
        if (changed) {
          const contact = st.index.normalize(engineInput(person));
          const saved = await store.updatePerson(st.scope, person, { fingerprint: st.fingerprint, json: encodeMatchKey(contact) }, mark);
          this.indexPerson(st, saved.value, contact);
          durable = saved.durable;
        }
        return {
          outcome: { status: 'Matched', crmId: m.crmId, reason: null, reasonText: null, matchedBy: m.by, updated: changed, explanation: explanationOf(m.result) },
          written: changed,
          durable,
        };
      }
      this.checkCapacity(st, 1, this.indexedPeople());
      const person = createPerson(c, now);
      // A new person usually has exactly what the candidate had: its normalization is the match's.
      const input = engineInput(person);
      const contact = sameEngineInput(input, m.input) ? m.normalized : st.index.normalize(input);
      const saved = await store.insertPerson(st.scope, person, { fingerprint: st.fingerprint, json: encodeMatchKey(contact) }, mark);
      this.indexPerson(st, saved.value, contact);
      return {
        outcome: {
          status: 'UnmatchedStored', crmId: saved.value.crmId, reason: m.reason,
          reasonText: m.reason === null ? null : REASON_TEXT[m.reason], matchedBy: null, updated: false,
          explanation: explanationOf(m.result),
        },
        written: true,
        durable: saved.durable,
      };
    });
  }

  /**
   * With a store shared by several processes, findOrCreate first tries without the
   * cross-process lock: after a catch-up, a candidate that matches a committed record and
   * would not change it is answered Matched at once (most repeated sends). Anything else
   * (no match, or an update to make) goes through the lock, which matches again. Null then.
   */
  private async matchUnchanged(st: ScopeState, c: ValidCandidate): Promise<MatchOutcome | null> {
    await this.catchUp(st);
    const m = this.match(st, c);
    if (m.crmId === null) return null;
    // Read from the store: a record this process is still committing is not there yet.
    const stored = await this.store.getPerson(st.scope, m.crmId);
    if (stored === null || applyCandidate(stored, c, this.now()).changed) return null;
    return { status: 'Matched', crmId: m.crmId, reason: null, reasonText: null, matchedBy: m.by, updated: false, explanation: explanationOf(m.result) };
  }

  /** Rebuilds a scope's index from the store (after a failed commit). */
  private async reload(st: ScopeState): Promise<void> {
    st.ready = this.loadOrForget(st);
    await st.ready;
  }

  /** Puts an applied person into the in-memory index (after the write, so a refused write leaves it unchanged). */
  private indexPerson(st: ScopeState, p: PersonRecord, contact: NormalizedContact): void {
    st.localWrites++;
    st.index.upsertNormalized(p.crmId, contact);
    if (isOrganization(p.scalars)) st.organizations.add(p.crmId);
    else st.organizations.delete(p.crmId);
  }

  private expandSet(expand: ReadonlySet<string>): Set<string> {
    const out = new Set<string>();
    const bad: string[] = [];
    for (const value of expand) {
      const known = EXPANDABLE.find((e) => e.toLowerCase() === value.trim().toLowerCase());
      if (known === undefined) bad.push(value);
      else out.add(known);
    }
    if (bad.length > 0) {
      throw new CrmError('INVALID_PARAMETER', [{ property: '$expand', text: `Unknown $expand value${bad.length > 1 ? 's' : ''}: ${bad.join(', ')}.`, hint: `Valid values: ${EXPANDABLE.join(', ')}.` }]);
    }
    return out;
  }

  /** GET /people/{crmId}: the Person with the `$expand` collections, or null when not in this tenant+context. */
  async getPerson(ctx: CallContext, crmId: number, expand: ReadonlySet<string>): Promise<Person | null> {
    const st = await this.state(ctx);
    const wanted = this.expandSet(expand);
    if (!Number.isSafeInteger(crmId) || crmId <= 0) return null;
    await this.store.flush(crmId);
    const p = await this.store.getPerson(st.scope, crmId);
    return p === null ? null : renderPerson(p, wanted, st.settings);
  }

  /**
   * GET /people/{type}:{id}: the person holding that external identifier (type and value
   * case-insensitive; the oldest record when several do), or null. A type not available in
   * the context finds nobody.
   */
  async getPersonByExternalId(ctx: CallContext, type: string, id: string, expand: ReadonlySet<string>): Promise<Person | null> {
    const st = await this.state(ctx);
    const wanted = this.expandSet(expand);
    const known = identifierTypesOf(st.scope.context, st.settings).some((t) => t.toLowerCase() === type.trim().toLowerCase());
    if (!known || id.trim() === '') return null;
    const value = lookupValue(type, id);
    if (value === null) return null;
    await this.store.flush();
    const ids = await this.store.findByIdentifier(st.scope, type, value);
    for (const crmId of ids) {
      const p = await this.store.getPerson(st.scope, crmId);
      if (p !== null) return renderPerson(p, wanted, st.settings);
    }
    return null;
  }

  // ---- canvass responses (src/crm/canvass.ts) ------------------------------------------

  /** The canvass lookup lists of a context: the seeded ones plus its settings' additions. */
  async canvassLists(ctx: CallContext): Promise<CanvassLists> {
    const st = await this.state(ctx);
    return canvassListsOf(st.settings.canvass);
  }

  /** The stored person a path names, or null (an identifier type unknown in the context names nobody). */
  private async personByRef(st: ScopeState, ref: PersonRef): Promise<PersonRecord | null> {
    if (ref.kind === 'crmId') {
      return Number.isSafeInteger(ref.crmId) && ref.crmId > 0 ? this.store.getPerson(st.scope, ref.crmId) : null;
    }
    const known = identifierTypesOf(st.scope.context, st.settings).some((t) => t.toLowerCase() === ref.type.trim().toLowerCase());
    const value = lookupValue(ref.type, ref.id);
    if (!known || ref.id.trim() === '' || value === null) return null;
    for (const crmId of await this.store.findByIdentifier(st.scope, ref.type, value)) {
      const p = await this.store.getPerson(st.scope, crmId);
      if (p !== null) return p;
    }
    return null;
  }

  /**
   * POST /people/{ref}/canvassResponses: validates the body against the context's lists and the
   * person (CrmError 400 naming every bad property), applies phone dispositions to the phone it
   * names, and appends the response to the person's canvass history. False when the person is
   * not in this tenant+context (404). Durable before the Promise resolves.
   */
  async addCanvassResponse(ctx: CallContext, ref: PersonRef, body: unknown, opts: { mark?: ImportRowMark } = {}): Promise<boolean> {
    const st = await this.state(ctx);
    const lists = canvassListsOf(st.settings.canvass);
    const pending = await this.write(st, async (store): Promise<Promise<unknown>[] | null> => {
      const p = await this.personByRef(st, ref);
      if (p === null) return null;
      const now = this.now();
      const parsed = parseCanvassResponse(body, lists, p, now);
      if (!parsed.ok) throw new CrmError('INVALID_PARAMETER', [...parsed.issues]);
      const waits: Promise<unknown>[] = [];
      const phones = applyPhoneDispositions(p.phones, parsed.value);
      if (phones !== null) {
        const person: PersonRecord = { ...p, phones, updatedAt: now };
        const contact = st.index.normalize(engineInput(person));
        const saved = await store.updatePerson(st.scope, person, { fingerprint: st.fingerprint, json: encodeMatchKey(contact) });
        this.indexPerson(st, saved.value, contact);
        waits.push(saved.durable);
      }
      // Started under the mutex (history order), awaited outside it (the disk sync is shared);
      // inside a cross-process lock's transaction it must succeed before that commits.
      const inserted = store.insertCanvassResponse(st.scope, { crmId: p.crmId, canvassedAt: parsed.value.dateCanvassed, createdAt: now, json: JSON.stringify(parsed.value) }, opts.mark);
      if (store !== this.store) await inserted;
      waits.push(inserted);
      return waits;
    });
    if (pending === null) return false;
    try {
      await Promise.all(pending);
    } catch (error) {
      await this.reload(st);
      throw error;
    }
    return true;
  }

  /** GET /people/{ref}/canvassResponses: the person's history, newest first; null when no such person. */
  async listCanvassResponses(ctx: CallContext, ref: PersonRef, skip: number, top: number): Promise<{ items: CanvassHistoryItem[]; count: number } | null> {
    const st = await this.state(ctx);
    await this.store.flush();
    const p = await this.personByRef(st, ref);
    if (p === null) return null;
    const rows = await this.store.listCanvassResponses(st.scope, p.crmId, skip, top);
    const count = await this.store.countCanvassResponses(st.scope, p.crmId);
    return { items: rows.map(canvassHistoryItem), count };
  }

  // ---- usage (monthly quotas; the HTTP layer counts, see src/server/rate-limit.ts) -----

  /** Adds batched request counts to keys' monthly usage ("YYYY-MM", UTC); counts only grow. */
  async addKeyUsage(rows: readonly KeyUsageDelta[]): Promise<void> {
    await this.store.addKeyUsage(rows);
  }

  /** Requests counted for a key in a month ("YYYY-MM", UTC); 0 when none. */
  async getKeyUsage(keyId: number, month: string): Promise<number> {
    return this.store.getKeyUsage(keyId, month);
  }
}

/**
 * The stored form of an identifier value named in a path: votercrmid values are stored
 * canonical ("007" is record 7); null when a votercrmid is not a crmId (it names nobody).
 */
function lookupValue(type: string, id: string): string | null {
  return type.trim().toLowerCase() === VOTER_CRM_ID ? canonicalVoterCrmId(id) : id;
}

/**
 * The scopes (tenant+context) this process holds, by name: each made on first use with its
 * settings, matching model (tenant-model.ts) and index (people-scope.ts), its settings and
 * model re-read when the admin caches moved on (admin-cache.ts), its index rebuilt when the
 * default country changed, and every index kept within the process's limit of indexed people.
 */
import type { ContextName, Scope, Store } from '../store/index.js';
import type { AdminCache } from './admin-cache.js';
import { INDEX_BYTES_PER_PERSON, type CallContext } from './crm-types.js';
import { CrmError } from './errors.js';
import type { RetrievalOptions } from './db-retrieval.js';
import { NamedMutex } from './mutex.js';
import { PeopleScope, type ScopeHost } from './people-scope.js';
import { scopeName } from './scope-index.js';
import { DEFAULT_CONTEXT_SETTINGS, parseStoredContextSettings } from './settings.js';
import { contextModelOf } from './tenant-model.js';

/** See the module comment. */
export class Scopes implements ScopeHost {
  private readonly byName = new Map<string, PeopleScope>();
  readonly mutex = new NamedMutex();
  /** Scopes whose index is being built now. */
  private loading = 0;

  constructor(
    readonly store: Store,
    private readonly cache: AdminCache,
    readonly batchSize: number,
    private readonly maxIndexPeople: number,
    readonly retrieval: RetrievalOptions | null = null,
  ) {}

  /** True when this process holds the scope (its index is loaded or loading). */
  has(scope: Scope): boolean {
    return this.byName.has(scopeName(scope));
  }

  /**
   * The scope of a call, its index loaded. Its settings are cached for the current cache
   * generation; otherwise re-read, the index rebuilt when the default country changed.
   */
  async get(ctx: CallContext): Promise<PeopleScope> {
    const noticing = this.cache.noticeExternalChanges();
    if (noticing !== undefined) await noticing;
    const scope: Scope = { tenantId: ctx.tenantId, context: ctx.context };
    const name = scopeName(scope);
    const cached = this.byName.get(name);
    if (cached !== undefined && cached.checked === this.cache.generation) {
      await cached.ready;
      return cached;
    }
    const generation = this.cache.generation;
    const row = await this.store.getSettings(scope);
    const modelRow = await this.store.getModel(scope);
    const version = row?.version ?? 0;
    let people = this.byName.get(name);
    if (people === undefined) {
      const settings = row === null ? DEFAULT_CONTEXT_SETTINGS : parseStoredContextSettings(scope.context, row.json);
      people = new PeopleScope(this, scope, settings, version, generation, contextModelOf(modelRow));
      this.byName.set(name, people);
      void people.reload().catch(() => undefined);
    } else {
      // A model trained or reset (`matchbook tenants train`): the weights change, the index stays.
      if (people.model.inForce.version !== (modelRow?.version ?? null)) people.useModel(contextModelOf(modelRow));
    }
    if (people.version !== version && row !== null) {
      const settings = parseStoredContextSettings(scope.context, row.json);
      const reindex = settings.defaultCountry !== people.settings.defaultCountry;
      people.version = version;
      people.settings = settings;
      // Normalization depends on the default country: rebuild the index when it changes.
      if (reindex) void people.reload().catch(() => undefined);
    }
    people.checked = generation;
    await people.ready;
    return people;
  }

  loadStarted(): void {
    this.loading++;
  }

  loadEnded(people: PeopleScope, failed: boolean): void {
    this.loading--;
    if (failed && this.byName.get(people.name) === people) this.byName.delete(people.name);
  }

  /** Scopes held, the people in their indexes, and the scopes whose index is being built (GET /ready). */
  counts(): { scopes: number; people: number; loading: number } {
    let people = 0;
    for (const s of this.byName.values()) people += s.size;
    return { scopes: this.byName.size, people, loading: this.loading };
  }

  /** Catches every held scope up with the other processes' committed changes (a no-op for a store with one writer). */
  async catchUpAll(): Promise<void> {
    await Promise.all([...this.byName.values()].map((people) => people.catchUp()));
  }

  /** People in each loaded index. */
  sizes(): { tenantId: number; context: ContextName; people: number }[] {
    return [...this.byName.values()].map((s) => ({ tenantId: s.scope.tenantId, context: s.scope.context, people: s.size }));
  }

  checkCapacity(people: PeopleScope, more: number, count: 'all' | 'others'): void {
    let already = 0;
    for (const s of this.byName.values()) if (count === 'all' || s !== people) already += s.size;
    if (already + more <= this.maxIndexPeople) return;
    const n = (x: number): string => x.toLocaleString('en-US');
    throw new CrmError(
      'INDEX_FULL',
      `Tenant ${people.scope.tenantId} ${people.scope.context}: indexing ${n(more)} more people would take this process to ${n(already + more)}, past its limit of ${n(this.maxIndexPeople)} (MATCHBOOK_MAX_INDEX_PEOPLE, or 70% of the V8 heap at ${INDEX_BYTES_PER_PERSON} B per person: raise --max-old-space-size, or split tenants over more processes).`,
    );
  }

  /** Waits for every scope's running writes (and index loads). */
  async close(): Promise<void> {
    await Promise.all([...this.byName.values()].map((people) => this.mutex.run(people.name, async () => people.ready)));
  }
}

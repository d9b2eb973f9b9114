/**
 * The caches of what admin commands change: the identity of each API key seen (so a request
 * authenticates without a store read) and, through {@link AdminCache.generation}, every
 * scope's settings (scopes.ts re-reads them when the generation moved).
 *
 * A change made through this process's Crm invalidates them at once; one made by another
 * process (the CLI revoking a key, configuring a tenant) is noticed within
 * {@link FRESHNESS_MS}: the store's change counter is asked at most that often.
 */
import type { Store } from '../store/index.js';
import type { KeyIdentity } from './crm-types.js';
import { hashKey, isGuid } from './api-keys.js';

/** How often the caches ask the store whether another process changed tenants, keys or settings. */
export const FRESHNESS_MS = 250;
/** Bound of the key cache (unknown GUIDs are cached too, so a flood of them cannot grow it). */
const MAX_CACHED_KEYS = 10_000;

/** See the module comment. */
export class AdminCache {
  /** Identity by trimmed lower-cased GUID, null for unknown or revoked; valid for one {@link generation}. */
  private readonly keys = new Map<string, KeyIdentity | null>();
  /** Bumped by every change of tenants, keys or settings made here or noticed in the store. */
  generation = 0;
  private checkedAt = -Infinity;
  private counter: number | null = null;

  /** `clock`: ms since the epoch (the Crm's injected clock, so tests move it instead of waiting). */
  constructor(
    private readonly store: Store,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Forgets every cached key and settings document (after a change made through this Crm). */
  invalidate(): void {
    this.generation++;
    this.keys.clear();
  }

  /**
   * Notices changes committed by another process: at most once per {@link FRESHNESS_MS},
   * asks the store's change counter, and invalidates the caches when it moved. Undefined when
   * nothing needs awaiting.
   */
  noticeExternalChanges(): Promise<void> | undefined {
    // A clock that went back (an adjusted wall clock) checks at once.
    const now = this.clock();
    if (now >= this.checkedAt && now - this.checkedAt < FRESHNESS_MS) return undefined;
    this.checkedAt = now;
    return this.store.changeCounter().then((counter) => {
      if (counter !== this.counter) {
        this.counter = counter;
        this.invalidate();
      }
    });
  }

  /**
   * The identity of an API key GUID (any case, surrounding spaces ignored), or null when it is
   * not a GUID, unknown, or revoked. The `|0`/`|1` suffix is the HTTP layer's to strip.
   * A key revoked through this Crm is refused at once, one revoked by another process within
   * 250 ms.
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
    const row = await this.store.getKeyByHash(hashKey(text));
    const identity: KeyIdentity | null =
      row === null || row.revokedAt !== null
        ? null
        : {
            keyId: row.id,
            tenantId: row.tenantId,
            tenantName: row.tenantName,
            tier: row.tier,
            contexts: row.contexts,
            defaultContext: row.defaultContext,
          };
    if (generation === this.generation) {
      if (this.keys.size >= MAX_CACHED_KEYS) this.keys.clear();
      this.keys.set(text, identity);
    }
    return identity;
  }
}

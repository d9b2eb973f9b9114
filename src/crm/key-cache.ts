/**
 * The in-process cache of hot blocking keys of database retrieval (db-retrieval.ts): a key
 * filed under many people ("john smith" in a big city) is read by many lookups, so its
 * entries are kept, least recently used first out, for at most `ttlMs` of the injected clock.
 * Writes of this process and the other processes' changes (the catch-up) drop every cached
 * key a changed person is or was filed under; the TTL bounds what a missed change could cost.
 * A lookup that read the database while something was dropped does not store what it read
 * (it may predate the change).
 */
import type { KeyEntry } from '../store/index.js';

/** Options of a {@link KeyCache}. */
export interface KeyCacheOptions {
  /** Keys held at most; 0 turns the cache off. Default 4096. */
  readonly size?: number;
  /** How long a key is trusted, in ms of `clock`. Default 2000. */
  readonly ttlMs?: number;
  /** Milliseconds now (tests inject one). Default Date.now. */
  readonly clock?: () => number;
}

interface Cached {
  readonly entries: readonly KeyEntry[];
  readonly at: number;
}

/** See the module comment. */
export class KeyCache {
  private readonly byHash = new Map<number, Cached>();
  /** The cached keys each person is filed under (to drop them when the person changes). */
  private readonly byPerson = new Map<number, Set<number>>();
  private readonly size: number;
  private readonly ttlMs: number;
  private readonly clock: () => number;
  /** Moves on every drop: a lookup stores what it read only if none happened meanwhile. */
  generation = 0;

  constructor(options: KeyCacheOptions = {}) {
    this.size = Math.max(0, options.size ?? 4096);
    this.ttlMs = Math.max(0, options.ttlMs ?? 2000);
    this.clock = options.clock ?? Date.now;
  }

  /** Keys held now. */
  get keys(): number {
    return this.byHash.size;
  }

  /** A key's entries when cached and fresh (marked most recently used), else undefined. */
  get(hash: number): readonly KeyEntry[] | undefined {
    const hit = this.byHash.get(hash);
    if (hit === undefined) return undefined;
    if (this.clock() - hit.at > this.ttlMs) {
      this.remove(hash);
      return undefined;
    }
    this.byHash.delete(hash);
    this.byHash.set(hash, hit);
    return hit.entries;
  }

  /** Stores a key read at `generation` (nothing when a drop happened since). */
  put(hash: number, entries: readonly KeyEntry[], generation: number): void {
    if (this.size === 0 || generation !== this.generation) return;
    this.remove(hash);
    while (this.byHash.size >= this.size) {
      const oldest = this.byHash.keys().next();
      if (oldest.done === true) break;
      this.remove(oldest.value);
    }
    this.byHash.set(hash, { entries, at: this.clock() });
    for (const e of entries) {
      let set = this.byPerson.get(e.crmId);
      if (set === undefined) this.byPerson.set(e.crmId, (set = new Set()));
      set.add(hash);
    }
  }

  /** A person changed: drops the keys it is filed under now (`hashes`) and the cached ones that list it. */
  drop(crmId: number, hashes: readonly number[]): void {
    this.generation++;
    for (const h of hashes) this.remove(h);
    const listed = this.byPerson.get(crmId);
    if (listed !== undefined) for (const h of [...listed]) this.remove(h);
  }

  /** Drops everything (a change whose keys are unknown). */
  clear(): void {
    this.generation++;
    this.byHash.clear();
    this.byPerson.clear();
  }

  private remove(hash: number): void {
    const hit = this.byHash.get(hash);
    if (hit === undefined) return;
    this.byHash.delete(hash);
    for (const e of hit.entries) {
      const set = this.byPerson.get(e.crmId);
      if (set === undefined) continue;
      set.delete(hash);
      if (set.size === 0) this.byPerson.delete(e.crmId);
    }
  }
}

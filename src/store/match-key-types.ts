/**
 * Database retrieval (README "Tenants bigger than memory"): each person's blocking key hashes
 * live in an indexed, hash-partitioned table, filed in the same transaction as the person,
 * and a lookup reads the candidate's keys there instead of an in-memory index. The store
 * files and reads; which keys a person has, and what a lookup does with what it read, are
 * the engine's (src/crm/db-retrieval.ts runs the engine's candidate selection on it).
 */
import type { Scope } from './types.js';

/** A person's keys as filed: the engine's blocking key hashes and the names it counts. */
export interface PersonKeys {
  /** Distinct 32-bit blocking key hashes (signed). */
  readonly hashes: readonly number[];
  /** Compact first and last name (term frequencies), or null. */
  readonly first: string | null;
  readonly last: string | null;
}

/** One lookup's first read ({@link MatchKeyReader.lookupKeys}). */
export interface KeyLookup {
  readonly hashes: readonly number[];
  /** Entries read per key at most: a key holding this many is common (maxBlockSize + 1). */
  readonly perKey: number;
  /** The candidate's compact first and last name, whose counts are read (null: none). */
  readonly first: string | null;
  readonly last: string | null;
}

/** A key's entry: the person filed under it and when it was filed (larger: more recently). */
export interface KeyEntry {
  readonly crmId: number;
  readonly seq: number;
}

/** What {@link MatchKeyReader.lookupKeys} read. */
export interface KeyLookupResult {
  /** Per hash of the lookup (same order): up to `perKey` of its entries, in no particular order. */
  readonly entries: readonly (readonly KeyEntry[])[];
  /** People filed in the scope, and those with the lookup's first and last name. */
  readonly total: number;
  readonly firstCount: number;
  readonly lastCount: number;
}

/** A candidate's stored normalization, as a lookup loads it. */
export interface CandidateRow {
  readonly crmId: number;
  /** Null when missing or made by another fingerprint (the caller normalizes the person). */
  readonly json: string | null;
  /** contactMode is Organization. */
  readonly organization: boolean;
}

/** An external identifier as the store compares it (type, value), both folded by the caller or not. */
export interface IdentifierRef {
  readonly type: string;
  readonly value: string;
}

/** The reads of a lookup, on the store's pool or inside a unit (ScopeWriter.keys: its transaction). */
export interface MatchKeyReader {
  /** Entries of each key (at most perKey) and the name counts: one round trip. */
  lookupKeys(scope: Scope, lookup: KeyLookup): Promise<KeyLookupResult>;
  /** Exact number of people filed under each hash (same order). */
  countKeys(scope: Scope, hashes: readonly number[]): Promise<number[]>;
  /** crmIds filed under `hash`, most recently filed first, at most `limit`. */
  readKey(scope: Scope, hash: number, limit: number): Promise<number[]>;
  /**
   * Stored normalizations of these people and of every person of the scope holding one of
   * `identifiers` (type and value compared as the store folds them), made by `fingerprint`.
   */
  loadCandidates(scope: Scope, crmIds: readonly number[], identifiers: readonly IdentifierRef[], fingerprint: number): Promise<CandidateRow[]>;
}

/** Database retrieval's store side; see the module comment. PostgreSQL only. */
export interface MatchKeyStore extends MatchKeyReader {
  /** The fingerprint the scope's keys were completely filed by, or null (none, or a build not finished). */
  keysFiledBy(scope: Scope): Promise<number | null>;
  /**
   * Runs `fn` holding the scope's key-build lock (one builder across processes); `fn` re-reads
   * {@link keysFiledBy} first, since another process may have built meanwhile.
   */
  withBuildLock<T>(scope: Scope, fn: () => Promise<T>): Promise<T>;
  /** Forgets the scope's keys (a build by another fingerprint starts). */
  clearKeys(scope: Scope): Promise<void>;
  /**
   * Files the keys of existing people not filed yet (a person filed meanwhile by a write
   * keeps its newer keys), in crmId order; one transaction.
   */
  fileMissing(scope: Scope, rows: readonly { readonly crmId: number; readonly keys: PersonKeys }[]): Promise<void>;
  /** Records that every person of the scope is filed by `fingerprint`. */
  keysComplete(scope: Scope, fingerprint: number): Promise<void>;
}

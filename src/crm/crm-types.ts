/**
 * The Crm facade's public types and constants: who a key is, what a call works on, what a
 * match answers, summaries of tenants and keys, and the facade's open options.
 */
import type { KeyCacheOptions } from './key-cache.js';
import { getHeapStatistics } from 'node:v8';
import type { MatchResult } from '../engine/index.js';
import type { ContextName, Store, Tier } from '../store/index.js';
import type { ModelInForce } from './tenant-model.js';

export type { ModelInForce } from './tenant-model.js';

/** Both contexts, in the order of the `|0` / `|1` database modes. */
export const CONTEXTS: readonly ContextName[] = ['voterfile', 'campaign'];
/** Every tier a key can have. */
export const TIERS: readonly Tier[] = ['Startup', 'Standard', 'Preferred', 'Custom', 'Internal'];

/** Who an API key is: the answer of {@link Crm.authenticate}. */
export interface KeyIdentity {
  readonly keyId: number;
  readonly tenantId: number;
  readonly tenantName: string;
  readonly tier: Tier;
  /** Contexts the key may use; the HTTP layer answers 401 "Invalid Database Mode" for others. */
  readonly contexts: readonly ContextName[];
  /** The context of a key sent without a `|0`/`|1` suffix. */
  readonly defaultContext: ContextName;
}

/** The tenant and context a people call works in (from the authenticated key). */
export interface CallContext {
  readonly tenantId: number;
  readonly context: ContextName;
}

/** Why a find did not match (machine codes, stable). */
export type UnmatchedReason = 'below-minimum' | 'no-candidates' | 'below-threshold' | 'criterion-disagrees' | 'no-gate-agrees';

/** How a match was decided. */
export type MatchedBy = 'crmId' | 'identifier' | 'score';

/** The engine's account of a decision, for logs and debugging. */
export interface MatchExplanation {
  readonly score: number;
  /** Minimum combinations the request supplies. */
  readonly gates: readonly string[];
  /** The combination the chosen record agrees on, or null. */
  readonly gate: string | null;
  readonly fields: MatchResult['explanation'];
  /** Number of records compared. */
  readonly candidates: number;
  /**
   * When no record matched because the best one scored below the match threshold (a `Possible`
   * or `below-threshold` answer): that record and its score in bits, so that a client can offer
   * a review. It is a person of the caller's own tenant and context (an index holds no other),
   * so the key may read it. Null otherwise.
   */
  readonly nearest: { readonly crmId: number; readonly score: number } | null;
}

/**
 * The result of find / findOrCreate. HTTP: Matched 302 (Location), UnmatchedStored 201
 * (Location), Unmatched 404, body `{crmId, status}` plus `reason` when not null.
 */
export interface MatchOutcome {
  readonly status: 'Matched' | 'Unmatched' | 'UnmatchedStored';
  /** The matched or created record; null when Unmatched. */
  readonly crmId: number | null;
  /** Why no record matched (also set on UnmatchedStored); null when Matched. */
  readonly reason: UnmatchedReason | null;
  /** A sentence explaining `reason`, or null. */
  readonly reasonText: string | null;
  /** How the match was decided; null unless Matched. */
  readonly matchedBy: MatchedBy | null;
  /** Matched by findOrCreate: whether the update changed the stored record. */
  readonly updated: boolean;
  readonly explanation: MatchExplanation;
}

/** Human text of each {@link UnmatchedReason}. */
export const REASON_TEXT: Readonly<Record<UnmatchedReason, string>> = {
  'below-minimum':
    'No match was attempted: the request holds none of the minimum combinations (first name, last name and email; first name, last name and phone; first name, last name, zip5 and date of birth; first name, last name, street number, street name and zip5; or an email alone).',
  'no-candidates': 'No stored record shares a name, email, phone, address or identifier with the request.',
  'below-threshold': 'Records were compared, but none was similar enough to be a match.',
  'criterion-disagrees': 'The closest record disagrees on a supplied criterion (such as the first name, the date of birth or the contact mode).',
  'no-gate-agrees': 'The closest record does not agree on all the fields of any minimum combination.',
};

/**
 * Whether this process can answer API requests at full speed (`GET /ready`): the database
 * answers, the indexes loaded at start are loaded, none is being rebuilt, and (stores shared by
 * several processes) every loaded index has applied the other processes' committed changes.
 */
export interface Readiness {
  readonly ready: boolean;
  /** Why not, as a sentence; null when ready. */
  readonly reason: string | null;
  /** The store answered a trivial query. */
  readonly database: boolean;
  /** Scopes (tenant+context) with an index in memory, and the people in them. */
  readonly scopes: number;
  readonly people: number;
  /** Scopes whose index is being built or rebuilt now. */
  readonly loading: number;
}

/** A tenant as {@link Crm.listTenants} lists it. */
export interface TenantSummary {
  readonly id: number;
  readonly name: string;
  readonly createdAt: string;
  /** Number of people per context. */
  readonly people: Readonly<Record<ContextName, number>>;
  /** Contexts with stored settings (others use the defaults). */
  readonly configured: readonly ContextName[];
  /** The matching model each context scores with (`matchbook tenants train`). */
  readonly models: Readonly<Record<ContextName, ModelInForce>>;
}

/** A key as {@link Crm.listKeys} lists it (never the GUID). */
export interface KeySummary {
  readonly id: number;
  /** The GUID's first 8 characters. */
  readonly prefix: string;
  readonly tenant: string;
  readonly tier: Tier;
  readonly contexts: readonly ContextName[];
  readonly defaultContext: ContextName;
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

/** Options of {@link Crm.open}. */
export interface CrmOpenOptions {
  /** SQLite file path, ":memory:", or a `postgres://` URL. Ignored when `store` is given. */
  readonly db?: string;
  /** An open store to use instead (tests). Closed by `close()`. */
  readonly store?: Store;
  /** SQLite durability, default "FULL" (see src/store/sqlite-store.ts). */
  readonly synchronous?: 'FULL' | 'NORMAL';
  /** Clock, for tests. Default `() => new Date()`. */
  readonly now?: () => Date;
  /** People read per store call while loading an index. Default 5000. */
  readonly loadBatchSize?: number;
  /**
   * Most people this process indexes, all tenants and contexts together. Loading a scope that
   * would pass it fails with CrmError INDEX_FULL (507) naming the numbers, instead of the
   * process running out of memory; so does creating a person past it. Default
   * {@link defaultMaxIndexPeople} (from the V8 heap limit).
   */
  readonly maxIndexPeople?: number;
  /**
   * Load every tenant's indexes at open. Default true: a server answers its first requests at
   * full speed. Admin commands pass false: they use no index, and on a big database loading
   * them all took long (and memory); a scope's index then loads when first used.
   */
  readonly loadIndexes?: boolean;
  /**
   * Where a scope's candidates are retrieved: `'memory'` (default), an engine index per scope
   * loaded at start; `'database'`, the blocking keys in PostgreSQL (README "Tenants bigger
   * than memory"; src/crm/db-retrieval.ts): nothing loaded at start, memory flat in tenant
   * size. Every process on one database must use the same. Needs a PostgreSQL store.
   */
  readonly index?: 'memory' | 'database';
  /** Database retrieval's cache of hot keys (key-cache.ts): size, TTL and clock. */
  readonly keyCache?: KeyCacheOptions;
}

/**
 * Heap one indexed person costs, with margin: the engine index measures 881 B/record at 1M
 * (bench/README.md "Engine"); the index load at start grows the heap by about 410 B/person,
 * plus GC headroom. Used to derive the default {@link CrmOpenOptions.maxIndexPeople}.
 */
export const INDEX_BYTES_PER_PERSON = 1000;

/**
 * The default index limit: 70% of the V8 heap limit (`--max-old-space-size`) divided by
 * {@link INDEX_BYTES_PER_PERSON}; the rest is left for requests, caches and GC. On this
 * machine's default 4.3 GB heap: about 3.0M people; with `--max-old-space-size=16384`, 11.5M.
 */
export function defaultMaxIndexPeople(heapLimitBytes: number = getHeapStatistics().heap_size_limit): number {
  return Math.floor((heapLimitBytes * 0.7) / INDEX_BYTES_PER_PERSON);
}

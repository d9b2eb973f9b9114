/**
 * Persistence contract of the CRM (architecture.md: src/store, "persistence adapters").
 *
 * Every method returns a Promise so that the networked adapter (PostgreSQL, pg-store.ts)
 * implements the same interface as the embedded SQLite one; test/store/store-contract.ts runs
 * every store test against both. An adapter must:
 * - commit before a write's Promise resolves (a resolved write survives `kill -9` of the
 *   process), except people writes, which go through {@link Store.writeScope}: a unit of
 *   them is applied (visible to this store's reads) when it resolves, and the store answers
 *   when it is durable (its `durable`), so that an adapter can commit many units with one
 *   disk sync (group commit). Nobody may be told about such a write before then;
 *   {@link Store.flush} waits for everything applied.
 *   Bulk import writes (those given an {@link ImportRowMark}) are the one exception: the mark
 *   and the row's effects commit together, so an adapter may let them become durable after
 *   the disk sync (a power loss then rolls back a tail of rows, marks included, which the job
 *   re-applies on resume); the job asks {@link ImportStore.importDurable}. The SQLite store
 *   does, for at most 5 seconds;
 * - filter every people and identifier query by BOTH `tenantId` and `context` (tenant and
 *   context isolation is enforced here as well as above);
 * - assign `phoneId` and `addressId` values of 0 from a store-wide sequence, in the same
 *   transaction as the write.
 *
 * Past 400 lines because it is the one contract both adapters implement: the Store interface
 * and the rows its methods take and return, documented where they are declared. The import,
 * match-key and review parts of the contract have files of their own (re-exported below).
 */

import type { ImportRowMark, ImportStore } from './import-types.js';
import type { MatchKeyReader, MatchKeyStore, PersonKeys } from './match-key-types.js';
import type { ReviewStore, ReviewWriter } from './review-types.js';
import type { ChangeCursor, ChangeKey, LockKey, LockWaitStats, PeopleChanges } from './change-types.js';

export type * from './import-types.js';
export type * from './match-key-types.js';
export type * from './review-types.js';
export * from './change-types.js';

/** The two record sets of a tenant (interface.md 1.6). */
export type ContextName = 'voterfile' | 'campaign';

/** Rate-limit tier of an API key (interface.md section 8); Internal is ours, unlimited. */
export type Tier = 'Startup' | 'Standard' | 'Preferred' | 'Custom' | 'Internal';

/** One tenant's one context: the unit of isolation of people. */
export interface Scope {
  readonly tenantId: number;
  readonly context: ContextName;
}

export interface TenantRow {
  readonly id: number;
  readonly name: string;
  readonly createdAt: string;
}

/** A tenant's settings document for one context, as stored (validated by src/crm/settings.ts). */
export interface SettingsRow {
  /** Increases on every write; lets callers cache the parsed document. */
  readonly version: number;
  readonly json: string;
  readonly updatedAt: string;
}

/**
 * One version of a tenant's matching model for one context (`matchbook tenants train`): the
 * highest version is in force.
 */
export interface ModelRow {
  /** 1, 2, ... per tenant and context. */
  readonly version: number;
  /** The engine's model document (src/engine/model-json.ts), or null: back to the shipped model. */
  readonly json: string | null;
  readonly createdAt: string;
}

export interface NewKeyRow {
  readonly tenantId: number;
  /** SHA-256 hex of the lower-cased GUID. The GUID itself is never stored. */
  readonly hash: string;
  /** First 8 characters of the GUID, to recognise a key in listings and revoke it. */
  readonly prefix: string;
  readonly tier: Tier;
  readonly contexts: readonly ContextName[];
  readonly defaultContext: ContextName;
  readonly createdAt: string;
}

export interface KeyRow extends NewKeyRow {
  readonly id: number;
  readonly tenantName: string;
  readonly revokedAt: string | null;
}

/** Email subscription states (interface.md section 3). */
export type SubscriptionStatus = 'S' | 'N' | 'U';
export type EmailType = 'P' | 'W' | 'O';
export type PhoneType = 'H' | 'W' | 'C' | 'M' | 'F';
export type DeviceType = 'C' | 'L' | 'U' | 'F' | 'V';
export type PhoneOptInStatus = 'I' | 'U' | 'O';
export type AddressType = 'Mailing' | 'Home' | 'Voting' | 'Work' | 'Custom';

export interface StoredEmail {
  /** As supplied, trimmed. */
  readonly email: string;
  /** Lower-cased address, the comparison key for "not added twice". */
  readonly key: string;
  readonly type: EmailType;
  readonly isPreferred: boolean;
  readonly subscriptionStatus: SubscriptionStatus;
  /** `isSubscribed:false` was ever received: a permanent opt-out (interface.md 3, rule 1). */
  readonly optedOut: boolean;
  readonly dateCreated: string;
}

export interface StoredPhone {
  /** 0 until the store assigns it. */
  readonly phoneId: number;
  /** National significant number, digits only, e.g. "4142020792". */
  readonly phoneNumber: string;
  /** E.164, the comparison key together with `ext`. */
  readonly e164: string;
  readonly countryCode: string | null;
  readonly dialingPrefix: string | null;
  readonly ext: string | null;
  readonly phoneType: PhoneType | null;
  readonly deviceType: DeviceType | null;
  readonly isPreferred: boolean;
  readonly phoneOptInStatus: PhoneOptInStatus;
  /** Explicitly applied cell-status id (1..4 of GET /phones/isCellStatuses), or null. */
  readonly isCellStatusId: number | null;
  readonly dateCreated: string;
}

export interface StoredAddress {
  /** 0 until the store assigns it. */
  readonly addressId: number;
  readonly addressLine1: string | null;
  readonly addressLine2: string | null;
  readonly addressLine3: string | null;
  readonly city: string | null;
  readonly stateOrProvince: string | null;
  readonly zipOrPostalCode: string | null;
  readonly countryCode: string | null;
  readonly type: AddressType;
  readonly isPreferred: boolean;
  /** Comparison key for "not added twice" (folded lines, city, state, zip5, country). */
  readonly key: string;
  /** Per-person counter, larger = more recently created or re-supplied (decides isBest). */
  readonly touched: number;
  readonly dateCreated: string;
  readonly dateUpdated: string;
}

export interface StoredIdentifier {
  /** Type as spelled in the context settings, e.g. "dwid". */
  readonly type: string;
  /** As supplied, trimmed. Compared case-insensitively. */
  readonly externalId: string;
}

export interface StoredCustomFieldValue {
  readonly customFieldId: number;
  readonly customFieldGroupId: number;
  readonly assignedValue: string | null;
}

/** A suppression on a person (interface.md 2.9); codes from src/crm/suppressions.ts. */
export interface StoredSuppression {
  readonly suppressionCode: string;
  readonly suppressionName: string;
  readonly dateApplied: string;
}

/** Self-reported demographics: ids from the context's value lists. */
export interface StoredSelfReported {
  readonly races: readonly number[];
  readonly ethnicities: readonly number[];
  readonly genders: readonly number[];
  readonly sexualOrientations: readonly number[];
  readonly languagePreference: number | null;
}

/** Scalar fields of a person kept as columns. Text unless listed in INTEGER_SCALARS. */
export const PERSON_SCALARS = [
  'firstName',
  'middleName',
  'lastName',
  'suffix',
  'title',
  'salutation',
  'envelopeName',
  'nickname',
  'website',
  'party',
  'contactMethodPreferenceCode',
  'employer',
  'occupation',
  'jobTitle',
  'sex',
  'dateOfBirth',
  'yearOfBirth',
  'collectedLocationId',
  'electionType',
  'cycle',
  'organizationContactCommonName',
  'organizationContactOfficialName',
  'contactMode',
  'pronounId',
  'sourceFileTitle',
  'sourceFileFirstName',
  'sourceFileMiddleName',
  'sourceFileLastName',
  'sourceFileSuffix',
] as const;

export type PersonScalarName = (typeof PERSON_SCALARS)[number];

/** The scalars stored as integers; every other scalar is text. */
export const INTEGER_SCALARS: ReadonlySet<PersonScalarName> = new Set<PersonScalarName>(['yearOfBirth', 'collectedLocationId', 'pronounId']);

export type PersonScalars = { readonly [K in PersonScalarName]: string | number | null };

/** A person as stored. `dateOfBirth` is "YYYY-MM-DD". */
export interface PersonRecord {
  /** 0 until inserted. */
  readonly crmId: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly scalars: PersonScalars;
  readonly selfReported: StoredSelfReported;
  readonly emails: readonly StoredEmail[];
  readonly phones: readonly StoredPhone[];
  readonly addresses: readonly StoredAddress[];
  readonly identifiers: readonly StoredIdentifier[];
  readonly customFieldValues: readonly StoredCustomFieldValue[];
  /** Suppressions (do not call, do not mail...), one per code. */
  readonly suppressions: readonly StoredSuppression[];
}

/**
 * The matching engine's normalized form of a person, stored beside the record so that the
 * in-memory index loads without normalizing every person again. `fingerprint` identifies the
 * normalizer that produced `json` (see src/crm/stored-normalization.ts). Columns `match_key`
 * and `match_fp`.
 */
export interface StoredNormalization {
  readonly fingerprint: number;
  readonly json: string;
  /**
   * Database retrieval: the person's blocking keys, filed (replacing the ones filed before) in
   * the same transaction as the person (match-key-types.ts). Only a store with
   * {@link Store.matchKeys} takes them.
   */
  readonly keys?: PersonKeys;
}

/** One stored normalization, as the index load reads it. */
export interface StoredNormalizationRow {
  readonly crmId: number;
  readonly json: string;
  /** contactMode is Organization. */
  readonly organization: boolean;
}

/**
 * A unit of writes that is applied (this store's reads see it) and will be durable when
 * `durable` resolves. When `durable` rejects, the unit is lost (with the others of its
 * commit) and the store holds the state from before it.
 */
export interface Applied<T> {
  readonly value: T;
  readonly durable: Promise<void>;
}

/**
 * The people writes of one scope inside {@link Store.writeScope}, bound to its unit (with
 * PostgreSQL, its transaction: reads see the unit's own writes).
 */
export interface ScopeWriter extends ReviewWriter {
  readonly scope: Scope;
  /**
   * The person. With a store shared by several processes, read with a row lock held until the
   * unit ends (`SELECT ... FOR UPDATE`): two units that update one person run one after the
   * other, and the second reads what the first committed.
   */
  getPerson(crmId: number): Promise<PersonRecord | null>;
  /** The person as the unit sees it, without a lock (a catch-up's read). */
  readPerson(crmId: number): Promise<PersonRecord | null>;
  /** crmIds (ascending) holding this identifier; `type` and `externalId` compared case-insensitively. */
  findByIdentifier(type: string, externalId: string): Promise<number[]>;
  /**
   * Inserts a person (crmId 0), assigning crmId, phoneIds and addressIds; returns it stored.
   * `normalized`: the person's normalized form, stored in the same transaction. `mark`: a
   * bulk import row's progress, stored in the same transaction with the new person's crmId
   * (see src/store/import-types.ts).
   */
  insertPerson(person: PersonRecord, normalized?: StoredNormalization, mark?: ImportRowMark): Promise<PersonRecord>;
  /**
   * Replaces a person of the scope (StoreError NOT_FOUND when it has none such), assigning ids
   * of new phones and addresses; replaces or clears the normalized form; stores `mark` in the
   * same transaction.
   */
  updatePerson(person: PersonRecord, normalized?: StoredNormalization, mark?: ImportRowMark): Promise<PersonRecord>;
  /** Appends a canvass response to a person's history; returns its id. `mark` as for insertPerson. */
  insertCanvassResponse(row: NewCanvassRow, mark?: ImportRowMark): Promise<number>;
  /** {@link Store.peopleChangedSince}, read in the unit (under its locks). */
  peopleChangedSince(after: ChangeCursor, limit: number, next?: ChangeKey): Promise<PeopleChanges>;
  /** The version ({@link PersonChange.seq}) this unit wrote of a person; 0 when it wrote none, and with SQLite. */
  versionWritten(crmId: number): number;
  /** {@link Store.matchKeys}' reads in the unit (its transaction); null when the store has none. */
  readonly keys: MatchKeyReader | null;
}

/** Persistence of tenants, keys, settings, people and bulk imports. See the module comment for the rules. */
export interface Store extends ImportStore, ReviewStore {
  /**
   * True when several server processes write this store's people (PostgreSQL): each process
   * then follows the others' changes ({@link peopleChangedSince}) and a unit takes the
   * cross-process locks of the people it may match or write (see {@link ScopeWriter}); a
   * {@link writeScope} unit is one transaction, rolled back whole when its function throws;
   * reads see committed writes only.
   * False (SQLite): this process is the one writer: its reads see its own applied writes
   * before they are durable, and each write of a unit is applied on its own.
   */
  readonly sharedByProcesses: boolean;
  /** Database retrieval (match-key-types.ts): PostgreSQL's; null for a store without it (SQLite). */
  readonly matchKeys: MatchKeyStore | null;
  /** Time people writes of this process spent waiting for each other's locks (metrics, benchmarks). */
  lockWaits(): LockWaitStats;
  /** Commits what is pending, then closes. */
  close(): Promise<void>;
  /**
   * Resolves when every write applied so far is durable; rejects if their commit failed.
   * With `crmId`: an adapter may wait only for the writes of that person (a find that matched
   * it), and then commits a batch of bulk import writes at once only if it wrote that person.
   */
  flush(crmId?: number): Promise<void>;
  /**
   * A number that changes whenever another connection or process (the CLI) has committed a
   * change of tenants, keys or settings since the last call, so callers can cache them
   * (SQLite: `PRAGMA data_version`, which moves on any commit of another connection;
   * PostgreSQL: a sequence bumped by triggers).
   */
  changeCounter(): Promise<number>;

  createTenant(name: string, createdAt: string): Promise<TenantRow>;
  getTenantByName(name: string): Promise<TenantRow | null>;
  getTenantById(id: number): Promise<TenantRow | null>;
  listTenants(): Promise<TenantRow[]>;
  countTenants(): Promise<number>;

  /** Replaces the settings of one context; returns the new version. */
  putSettings(scope: Scope, json: string, updatedAt: string): Promise<number>;
  getSettings(scope: Scope): Promise<SettingsRow | null>;
  /**
   * Stores a new version of a context's model (null: back to the shipped one), one above the
   * highest so far; returns it. A change of settings for {@link changeCounter}.
   */
  addModelVersion(scope: Scope, json: string | null, createdAt: string): Promise<number>;
  /** The model version in force (the highest), or null when the context never had one. */
  getModel(scope: Scope): Promise<ModelRow | null>;
  /** Every version of a context's model, newest first. */
  listModelVersions(scope: Scope): Promise<ModelRow[]>;

  insertKey(key: NewKeyRow): Promise<KeyRow>;
  getKeyByHash(hash: string): Promise<KeyRow | null>;
  listKeys(): Promise<KeyRow[]>;
  /** Marks keys revoked (those not yet revoked); returns how many changed. */
  revokeKeys(ids: readonly number[], revokedAt: string): Promise<number>;

  /**
   * Runs `fn`, one unit of people writes of `scope`, with a {@link ScopeWriter} bound to it.
   * Resolves with `fn`'s value once its writes are applied, and `durable`, which resolves
   * once they are on disk (at once when `fn` wrote nothing). The caller answers only then;
   * waiting for `durable` holds no lock, so concurrent units share a disk sync.
   *
   * PostgreSQL: one transaction that first takes the cross-process locks of `options.locks`
   * (transaction-level advisory locks of the people's keys, in one statement, in ascending
   * order), so a find followed by a write is atomic across processes for every two requests
   * that share a key (findOrCreate creates a new person once), while requests that share none
   * run in parallel; `changes` are the scope's people changed after `options.changesAfter`,
   * read after the locks are held, in the same round trip (with the row of
   * `options.lockPerson`, locked). It commits synchronously: durable when it resolves. When
   * `fn` throws, the transaction rolls back and this rejects.
   * SQLite: one writer process, whose caller serializes a scope's units (src/crm's write
   * lock); the writes join the open group commit; `changes` is null.
   */
  writeScope<T>(scope: Scope, fn: (writer: ScopeWriter, changes: PeopleChanges | null) => Promise<T>, options?: ScopeWriteOptions): Promise<Applied<T>>;
  getPerson(scope: Scope, crmId: number): Promise<PersonRecord | null>;
  /** crmIds (ascending) holding this identifier; `type` and `externalId` compared case-insensitively. */
  findByIdentifier(scope: Scope, type: string, externalId: string): Promise<number[]>;
  countPeople(scope: Scope): Promise<number>;
  /** People of a scope in ascending crmId order, after `afterCrmId`, at most `limit`. */
  listPeople(scope: Scope, afterCrmId: number, limit: number): Promise<PersonRecord[]>;
  /** Stored normalizations made by `fingerprint`, ascending crmId after `afterCrmId`, at most `limit`. */
  listNormalizations(scope: Scope, fingerprint: number, afterCrmId: number, limit: number): Promise<StoredNormalizationRow[]>;
  /** People whose normalization is missing or made by another fingerprint (ascending crmId). */
  listPeopleNotNormalizedBy(scope: Scope, fingerprint: number, afterCrmId: number, limit: number): Promise<PersonRecord[]>;
  /** Stores fresh normalizations of existing people of this scope (one transaction; not a change of the people). */
  putNormalizations(scope: Scope, fingerprint: number, rows: readonly { readonly crmId: number; readonly json: string }[]): Promise<void>;
  /** Scopes that hold at least one person. */
  listPeopleScopes(): Promise<Scope[]>;
  /**
   * People of a scope inserted or updated by transactions that `after` did not see (committed
   * since, or running then), a page of at most about `limit` (continued from `next`, the
   * previous page's {@link PeopleChanges.next}); and the snapshot the first page was read
   * with. A reader that applies every page and then reads after the first page's cursor
   * misses no change, whatever order concurrent writers commit in (a change may come twice).
   * Always empty when not {@link sharedByProcesses} (this process made every change).
   */
  peopleChangedSince(scope: Scope, after: ChangeCursor, limit: number, next?: ChangeKey): Promise<PeopleChanges>;
  /** Where to follow a scope's changes from (the current snapshot; {@link NO_CURSOR} when not shared); read before an index load. */
  lastPeopleChange(scope: Scope): Promise<ChangeCursor>;

  /** Adds request counts to keys' monthly usage (one transaction; counts only grow). */
  addKeyUsage(rows: readonly KeyUsageDelta[]): Promise<void>;
  /** Requests counted for a key in a month ("YYYY-MM", UTC); 0 when none. */
  getKeyUsage(keyId: number, month: string): Promise<number>;

  /** A person's canvass history, newest first, at most `limit` rows after skipping `skip`. */
  listCanvassResponses(scope: Scope, crmId: number, skip: number, limit: number): Promise<CanvassRow[]>;
  /** Number of canvass responses stored for a person. */
  countCanvassResponses(scope: Scope, crmId: number): Promise<number>;
}

/** Options of {@link Store.writeScope}. */
export interface ScopeWriteOptions {
  /**
   * Also list the scope's people changed after this cursor, read under the locks (at most
   * `changesLimit`, default 5000), and pass them to `fn`.
   */
  readonly changesAfter?: ChangeCursor;
  readonly changesLimit?: number;
  /** Lock keys to hold from the start of the unit (see {@link ScopeWriter}). */
  readonly locks?: readonly LockKey[];
  /** A person the unit will likely update: read and row-locked in the first round trip (its {@link ScopeWriter.getPerson} answers from it). */
  readonly lockPerson?: number;
  /** The unit will likely insert a person: PostgreSQL takes its crmId in the first round trip, so the insert needs no answer before the commit. */
  readonly creates?: boolean;
}

/** Requests to add to a key's usage of a month ("YYYY-MM", UTC). */
export interface KeyUsageDelta {
  readonly keyId: number;
  readonly month: string;
  readonly count: number;
}

/** A canvass response to store: the person, when it happened (UTC ISO 8601) and its JSON. */
export interface NewCanvassRow {
  readonly crmId: number;
  readonly canvassedAt: string;
  readonly createdAt: string;
  readonly json: string;
}

/** A stored canvass response. */
export interface CanvassRow extends NewCanvassRow {
  readonly id: number;
}

/**
 * Misuse or a broken invariant inside a store adapter; IO: a write refused because an
 * earlier commit it depends on failed.
 */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    message: string,
    readonly code: 'NOT_FOUND' | 'CONFLICT' | 'SCHEMA' | 'IO',
  ) {
    super(message);
  }
}

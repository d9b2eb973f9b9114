/**
 * The in-memory engine index of one tenant+context ("scope") and how it follows the store:
 * built from the people's stored normalizations (re-normalizing the rows another normalizer
 * made, and storing their new normalizations), then kept up to date with the changes other
 * processes commit (stores shared by several processes, see {@link Store.peopleChangedSince}).
 */
import { AddressMemo, ContactIndex, PhoneMemo, type IndexOptions, type MatchModel, type NormalizedContact } from '../engine/index.js';
import {
  cursorAfter,
  type ChangeCursor,
  type ChangeKey,
  type PeopleChanges,
  type PersonChange,
  type PersonRecord,
  type Scope,
  type Store,
} from '../store/index.js';
import { DifferentPairs } from './different-pairs.js';
import { decodeNormalization, encodeNormalization, engineInput, normalizerFingerprint } from './stored-normalization.js';

/** The name of a scope in maps and locks ("7:voterfile"). */
export function scopeName(scope: Scope): string {
  return `${scope.tenantId}:${scope.context}`;
}

/** True for an organization contact (contactMode Organization). */
export function isOrganization(scalars: { readonly contactMode?: string | number | null }): boolean {
  return scalars.contactMode === 'Organization';
}

/**
 * Phone parses a scope's index remembers per generation (see PhoneMemo): a server parses a
 * query's phones once and a findOrCreate's twice, so a small memo per scope is enough and
 * many scopes stay small.
 */
const SCOPE_PHONE_MEMO_SIZE = 1024;

/**
 * Pairs of stored names a scope's index remembers comparing, per memo (IndexOptions.nameMemoEntries):
 * a find compares its names against a few candidates', and names repeat across requests; at
 * most about 2.4 MB a memo, four an index, so many scopes stay small.
 */
const SCOPE_NAME_MEMO_ENTRIES = 1 << 17;

/**
 * A new, empty engine index for a scope's default country (with its own address and phone
 * memos); `more`: further options (the context's model, tenant-model.ts; database retrieval's
 * lookup index: its name counts and limits).
 */
export function newScopeIndex(defaultCountry: string, more: IndexOptions = {}): ContactIndex {
  return new ContactIndex({
    ...more,
    defaultCountry,
    // yearOfBirth without a dateOfBirth goes in as a year alone (stored-normalization.ts engineInput).
    yearOnlyDates: true,
    addressMemo: new AddressMemo(),
    phoneMemo: new PhoneMemo(SCOPE_PHONE_MEMO_SIZE),
    nameMemoEntries: SCOPE_NAME_MEMO_ENTRIES,
  });
}

/** Options of {@link loadScopeIndex}. */
export interface LoadOptions {
  /** The model the index scores with (default the engine's CRM model). */
  readonly model?: MatchModel;
  /**
   * Store the normalizations made for rows another normalizer made, for the next load.
   * Default true; false reads only (training a model: a dry run writes nothing).
   */
  readonly storeNormalizations?: boolean;
  /** Called with the crmId of each person indexed. */
  readonly onRecord?: (crmId: number) => void;
  /** Called after each batch with the people indexed so far. */
  readonly onBatch?: (indexed: number) => void;
}

/** A scope's index as built from the store, and how far it follows the store's changes. */
export interface ScopeIndex {
  readonly index: ContactIndex;
  /** Fingerprint of the index's normalizer (see stored-normalization.ts). */
  readonly fingerprint: number;
  /** crmIds of organization contacts (a person never matches an organization by score). */
  readonly organizations: Set<number>;
  /**
   * Stores shared by several processes: how far `index` follows the store (the snapshot the
   * load began with, then each catch-up's): every person has in `index` the version that
   * snapshot saw, or a later one. NO_CURSOR otherwise.
   */
  cursor: ChangeCursor;
  /**
   * The version ({@link PersonChange.seq}) of each person put into `index` since the load
   * (catch-ups and this process's writes), so that an older version read by a slower
   * catch-up never replaces a newer one. It holds the people changed while the process runs.
   */
  readonly versions: Map<number, number>;
  /** Counts the changes made to `index` since it was built (a match made at the same count still holds). */
  changes: number;
  /** Pairs a reviewer decided are different people (review.ts, different-pairs.ts). */
  readonly different: DifferentPairs;
}

/** The pairs the store holds decided different (merged crmIds as their survivors). */
export async function loadDifferentPairs(store: Store, scope: Scope): Promise<DifferentPairs> {
  const different = new DifferentPairs();
  for (const [a, b] of await store.listDifferentPairs(scope)) different.add(a, b);
  return different;
}

/**
 * Builds a scope's index from the store, `batchSize` people per store call. Rows whose stored
 * normalization was made by this normalizer are parsed; the others are normalized and their
 * normalizations stored for the next load.
 */
export async function loadScopeIndex(store: Store, scope: Scope, defaultCountry: string, batchSize: number, options: LoadOptions = {}): Promise<ScopeIndex> {
  // Changes this snapshot did not see are applied by the next catch-up (re-applying one loaded here is harmless).
  const cursor = await store.lastPeopleChange(scope);
  const index = newScopeIndex(defaultCountry, options.model === undefined ? {} : { model: options.model });
  const fingerprint = normalizerFingerprint(index);
  const organizations = new Set<number>();
  let after = 0;
  for (;;) {
    const rows = await store.listNormalizations(scope, fingerprint, after, batchSize);
    for (const row of rows) {
      const contact = decodeNormalization(row.json);
      if (contact !== null) index.upsertNormalized(row.crmId, contact);
      else {
        const p = await store.getPerson(scope, row.crmId);
        if (p !== null) index.upsert(p.crmId, engineInput(p));
      }
      if (row.organization) organizations.add(row.crmId);
      options.onRecord?.(row.crmId);
      after = row.crmId;
    }
    options.onBatch?.(index.size);
    if (rows.length < batchSize) break;
  }
  after = 0;
  for (;;) {
    const people = await store.listPeopleNotNormalizedBy(scope, fingerprint, after, batchSize);
    const fresh: { crmId: number; json: string }[] = [];
    for (const p of people) {
      const contact = index.normalize(engineInput(p));
      index.upsertNormalized(p.crmId, contact);
      fresh.push({ crmId: p.crmId, json: encodeNormalization(contact) });
      if (isOrganization(p.scalars)) organizations.add(p.crmId);
      options.onRecord?.(p.crmId);
      after = p.crmId;
    }
    if (fresh.length > 0 && options.storeNormalizations !== false) await store.putNormalizations(scope, fingerprint, fresh);
    options.onBatch?.(index.size);
    if (people.length < batchSize) break;
  }
  return { index, fingerprint, organizations, cursor, versions: new Map(), changes: 0, different: await loadDifferentPairs(store, scope) };
}

/** Where a catch-up reads changes and people: the store, or a unit's writer (under its locks). */
export interface ChangeSource {
  peopleChangedSince(after: ChangeCursor, limit: number, next?: ChangeKey): Promise<PeopleChanges>;
  getPerson(crmId: number): Promise<PersonRecord | null>;
}

/**
 * Puts one version of a person into the index unless it already holds a later one. `contact`:
 * its normalization (null: normalize `person`, read for it).
 */
export function applyVersion(
  target: ScopeIndex,
  crmId: number,
  version: number,
  organization: boolean,
  contact: NormalizedContact | null,
  person: PersonRecord | null = null,
): void {
  const have = target.versions.get(crmId);
  if (have !== undefined && have >= version) return;
  if (contact !== null) target.index.upsertNormalized(crmId, contact);
  else if (person !== null) target.index.upsert(crmId, engineInput(person));
  else return;
  target.versions.set(crmId, version);
  target.changes++;
  if (organization) target.organizations.add(crmId);
  else target.organizations.delete(crmId);
}

/** What a catch-up does with a page of changes (default: put each person into the index). */
export type ChangeApplier = (target: ScopeIndex, changes: readonly PersonChange[], source: ChangeSource) => Promise<void>;

/**
 * Applies to a scope's index every person written by transactions its cursor had not seen,
 * reading through `source` (`prefetched`: a first page already read, under a unit's locks,
 * after the cursor `from`), and moves the cursor to the snapshot of the first page read (when
 * later than the cursor). Reads first and applies without waiting, so concurrent catch-ups
 * need not run in turn: versions keep each person's latest. A prefetched page no later than
 * the cursor is skipped (the index has seen more). Stops early when the index was rebuilt
 * meanwhile (`current()` is another object). `apply`: what a page does (database retrieval
 * drops what it makes stale in its cache instead).
 */
export async function applyPeopleChanges(
  current: () => ScopeIndex,
  source: ChangeSource,
  prefetched: { readonly from: ChangeCursor; readonly page: PeopleChanges } | null,
  batchSize: number,
  apply: ChangeApplier = indexChanges,
): Promise<void> {
  const target = current();
  if (prefetched !== null && !cursorAfter(prefetched.page.cursor, target.cursor)) return;
  const from = prefetched?.from ?? target.cursor;
  let page = prefetched?.page ?? (await source.peopleChangedSince(from, batchSize));
  const snapshot = page.cursor;
  for (;;) {
    if (target !== current()) return; // reloaded meanwhile: the load set its own cursor
    await apply(target, reviewChanges(target, page.changes), source);
    if (page.next === null) break;
    page = await source.peopleChangedSince(from, batchSize, page.next);
  }
  if (target === current() && cursorAfter(snapshot, target.cursor)) target.cursor = snapshot;
}

/**
 * Applies the review queue's changes (review.ts): a pair decided different is noted; a person
 * merged into another leaves the index (its merge is its last version: an older write read
 * later by a slower catch-up does not bring it back), its decisions pass to the survivor, and
 * the row goes on to `apply` (which has nothing to put back; database retrieval drops its
 * cache). Answers the rows that are changes of people.
 */
function reviewChanges(target: ScopeIndex, rows: readonly PersonChange[]): readonly PersonChange[] {
  if (!rows.some((row) => row.differentFrom != null || row.mergedInto != null)) return rows;
  const people: PersonChange[] = [];
  for (const row of rows) {
    if (row.differentFrom != null) {
      target.different.add(row.crmId, row.differentFrom);
      target.changes++;
      continue;
    }
    if (row.mergedInto != null && (target.versions.get(row.crmId) ?? -1) < row.seq) {
      target.versions.set(row.crmId, row.seq);
      target.index.remove(row.crmId);
      target.organizations.delete(row.crmId);
      target.different.merged(row.crmId, row.mergedInto);
      target.changes++;
    }
    people.push(row);
  }
  return people;
}

/**
 * Puts each changed person into the index (its stored normalization, else normalized again),
 * unless the index holds a later version: the people to normalize are read first, then all
 * are applied at once.
 */
async function indexChanges(target: ScopeIndex, rows: readonly PersonChange[], source: ChangeSource): Promise<void> {
  const decoded: (NormalizedContact | null)[] = [];
  const people = new Map<number, PersonRecord | null>();
  for (const row of rows) {
    // A version the index holds already (this process's own writes, mostly) needs no decoding.
    const known = (target.versions.get(row.crmId) ?? -1) >= row.seq;
    const contact = !known && row.json !== null && row.fingerprint === target.fingerprint ? decodeNormalization(row.json) : null;
    decoded.push(contact);
    if (!known && contact === null) people.set(row.crmId, await source.getPerson(row.crmId));
  }
  rows.forEach((row, i) => applyVersion(target, row.crmId, row.seq, row.organization, decoded[i] ?? null, people.get(row.crmId) ?? null));
}

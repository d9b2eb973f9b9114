/**
 * The in-memory engine index of one tenant+context ("scope") and how it follows the store:
 * built from the people's stored normalizations (re-normalizing the rows another normalizer
 * made, and storing their new normalizations), then kept up to date with the changes other
 * processes commit (stores shared by several processes, see {@link Store.peopleChangedSince}).
 */
import { AddressMemo, ContactIndex, PhoneMemo, type IndexOptions, type MatchModel } from '../engine/index.js';
import type { PersonChange, PersonRecord, Scope, Store } from '../store/index.js';
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
 * A new, empty engine index for a scope's default country (with its own address and phone
 * memos); `more`: further options (the context's model, tenant-model.ts; database retrieval's
 * lookup index: its name counts and limits).
 */
export function newScopeIndex(defaultCountry: string, more: IndexOptions = {}): ContactIndex {
  return new ContactIndex({ ...more, defaultCountry, addressMemo: new AddressMemo(), phoneMemo: new PhoneMemo(SCOPE_PHONE_MEMO_SIZE) });
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
   * Stores shared by several processes: the last change of the scope's people applied to
   * `index` (the last when the load began, then each catch-up's). 0 otherwise.
   */
  seq: number;
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
  // Changes after this one are applied by the next catch-up (re-applying one loaded here is harmless).
  const seq = await store.lastPeopleChange(scope);
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
  return { index, fingerprint, organizations, seq, different: await loadDifferentPairs(store, scope) };
}

/** Where a catch-up reads changes and people: the store, or a unit's writer (under its lock). */
export interface ChangeSource {
  peopleChangedSince(afterSeq: number, limit: number): Promise<PersonChange[]>;
  getPerson(crmId: number): Promise<PersonRecord | null>;
}

/**
 * Applies to a scope's index every person changed after `target.seq`, reading through
 * `source` (`prefetched`: changes already read with the lock). Stops early when the index
 * was rebuilt meanwhile (`current()` is another object: the load set its own seq). `apply`:
 * what a batch of changes does (default: put each person into the index; database retrieval
 * drops what they make stale in its cache instead).
 */
export async function applyPeopleChanges(
  current: () => ScopeIndex,
  source: ChangeSource,
  prefetched: readonly PersonChange[] | null,
  batchSize: number,
  apply: (target: ScopeIndex, rows: readonly PersonChange[], source: ChangeSource) => Promise<void> = indexChanges,
): Promise<void> {
  let first = prefetched;
  for (;;) {
    const target = current();
    const rows = first ?? (await source.peopleChangedSince(target.seq, batchSize));
    first = null;
    if (target !== current()) return; // reloaded meanwhile: the load set its own seq
    await apply(target, reviewChanges(target, rows), source);
    for (const row of rows) target.seq = Math.max(target.seq, row.seq);
    if (rows.length < batchSize) return;
  }
}

/**
 * Applies the review queue's changes (review.ts): a pair decided different is noted; a person
 * merged into another leaves the index, its decisions pass to the survivor (and the row goes
 * on to `apply`, which finds the person gone). Answers the rows that are changes of people.
 */
function reviewChanges(target: ScopeIndex, rows: readonly PersonChange[]): readonly PersonChange[] {
  if (!rows.some((row) => row.differentFrom != null || row.mergedInto != null)) return rows;
  const people: PersonChange[] = [];
  for (const row of rows) {
    if (row.differentFrom != null) {
      target.different.add(row.crmId, row.differentFrom);
      continue;
    }
    if (row.mergedInto != null) {
      target.index.remove(row.crmId);
      target.organizations.delete(row.crmId);
      target.different.merged(row.crmId, row.mergedInto);
    }
    people.push(row);
  }
  return people;
}

/** Puts each changed person into the index (its stored normalization, else normalized again). */
async function indexChanges(target: ScopeIndex, rows: readonly PersonChange[], source: ChangeSource): Promise<void> {
  for (const row of rows) {
    const contact = row.json !== null && row.fingerprint === target.fingerprint ? decodeNormalization(row.json) : null;
    if (contact !== null) target.index.upsertNormalized(row.crmId, contact);
    else {
      const p = await source.getPerson(row.crmId);
      if (p !== null) target.index.upsert(p.crmId, engineInput(p));
    }
    if (row.organization) target.organizations.add(row.crmId);
    else target.organizations.delete(row.crmId);
  }
}

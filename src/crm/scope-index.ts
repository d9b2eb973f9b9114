/**
 * The in-memory engine index of one tenant+context ("scope") and how it follows the store:
 * built from the people's stored match keys (re-normalizing the rows whose key another
 * normalizer made, and storing their new keys), then kept up to date with the changes other
 * processes commit (stores shared by several processes, see {@link Store.peopleChangedSince}).
 */
import { AddressMemo, ContactIndex } from '../engine/index.js';
import type { PersonChange, Scope, Store } from '../store/index.js';
import { decodeMatchKey, encodeMatchKey, engineInput, normalizerFingerprint } from './match-key.js';
import type { ContextSettings } from './settings.js';

/** A scope's settings and index, as the Crm facade keeps them. */
export interface ScopeState {
  readonly scope: Scope;
  settings: ContextSettings;
  version: number;
  index: ContactIndex;
  /** Fingerprint of the index's normalizer (see match-key.ts). */
  fingerprint: number;
  /** crmIds of organization contacts (a person never matches an organization by score). */
  organizations: Set<number>;
  ready: Promise<void>;
  /** The Crm's cache generation when `settings` were last read from the store. */
  checked: number;
  /**
   * Stores shared by several processes: the last change of the scope's people applied to
   * `index` (see {@link applyPeopleChanges}). 0 otherwise.
   */
  seq: number;
  /** The catch-ups of this scope run one after another: the last one started or queued. */
  catching: Promise<void>;
  /** A catch-up queued behind a running one and not started yet (later callers join it). */
  queued: Promise<void> | null;
  /** Counts this process's writes put into `index` (to know whether a rollback must rebuild it). */
  localWrites: number;
}

/** The map key of a scope. */
export function scopeKey(scope: Scope): string {
  return `${scope.tenantId}:${scope.context}`;
}

/** True for an organization contact (contactMode Organization). */
export function isOrganization(scalars: { readonly contactMode?: string | number | null }): boolean {
  return scalars.contactMode === 'Organization';
}

/** A new, empty engine index for a scope's default country (with its own address memo). */
export function newScopeIndex(defaultCountry: string): ContactIndex {
  return new ContactIndex({ defaultCountry, addressMemo: new AddressMemo() });
}

/** A scope's index as built from the store. */
export interface LoadedIndex {
  readonly index: ContactIndex;
  readonly fingerprint: number;
  readonly organizations: Set<number>;
  /** The scope's last people change when the load began (0 for stores without a change log). */
  readonly seq: number;
}

/**
 * Builds a scope's index from the store, `batchSize` people per store call. Rows whose cached
 * match key was made by this normalizer are parsed; the others are normalized and their keys
 * stored for the next load.
 */
export async function loadScopeIndex(store: Store, scope: Scope, defaultCountry: string, batchSize: number): Promise<LoadedIndex> {
  // Changes after this one are applied by the next catch-up (re-applying one loaded here is harmless).
  const seq = store.lastPeopleChange === undefined ? 0 : await store.lastPeopleChange(scope);
  const index = newScopeIndex(defaultCountry);
  const fingerprint = normalizerFingerprint(index);
  const organizations = new Set<number>();
  let after = 0;
  for (;;) {
    const rows = await store.listMatchKeys(scope, fingerprint, after, batchSize);
    for (const row of rows) {
      const contact = decodeMatchKey(row.json);
      if (contact !== null) index.upsertNormalized(row.crmId, contact);
      else {
        const p = await store.getPerson(scope, row.crmId);
        if (p !== null) index.upsert(p.crmId, engineInput(p));
      }
      if (row.organization) organizations.add(row.crmId);
      after = row.crmId;
    }
    if (rows.length < batchSize) break;
  }
  after = 0;
  for (;;) {
    const people = await store.listPeopleWithStaleMatchKey(scope, fingerprint, after, batchSize);
    const keys: { crmId: number; json: string }[] = [];
    for (const p of people) {
      const contact = index.normalize(engineInput(p));
      index.upsertNormalized(p.crmId, contact);
      keys.push({ crmId: p.crmId, json: encodeMatchKey(contact) });
      if (isOrganization(p.scalars)) organizations.add(p.crmId);
      after = p.crmId;
    }
    if (keys.length > 0) await store.putMatchKeys(scope, fingerprint, keys);
    if (people.length < batchSize) break;
  }
  return { index, fingerprint, organizations, seq };
}

/**
 * Applies to a scope's index every person changed after `st.seq` (through `via`: the store,
 * or the transaction of its cross-process lock; `prefetched`: changes already read with the
 * lock). Stops early when the index was rebuilt meanwhile (the load set its own seq).
 */
export async function applyPeopleChanges(st: ScopeState, via: Store, prefetched: PersonChange[] | null, batchSize: number): Promise<void> {
  const changed = via.peopleChangedSince;
  if (changed === undefined) return;
  let first = prefetched;
  for (;;) {
    const index = st.index;
    const rows = first ?? await changed.call(via, st.scope, st.seq, batchSize);
    first = null;
    if (index !== st.index) return; // reloaded meanwhile: the load set its own seq
    for (const row of rows) {
      const contact = row.json !== null && row.fingerprint === st.fingerprint ? decodeMatchKey(row.json) : null;
      if (contact !== null) index.upsertNormalized(row.crmId, contact);
      else {
        const p = await via.getPerson(st.scope, row.crmId);
        if (p !== null) index.upsert(p.crmId, engineInput(p));
      }
      if (row.organization) st.organizations.add(row.crmId);
      else st.organizations.delete(row.crmId);
      st.seq = Math.max(st.seq, row.seq);
    }
    if (rows.length < batchSize) return;
  }
}

/**
 * The lock keys of a findOrCreate unit on a store shared by several processes
 * ({@link ScopeWriteOptions.locks}): what two requests that could match each other's person
 * must share, so that they run one after the other while requests for other people run in
 * parallel.
 *
 * Why these: the engine compares a candidate only with the records that share one of its
 * blocking keys (src/engine/blocking.ts; a lookup reads the same keys a record is filed
 * under), or one of its external identifiers. So when request B could match the person that a
 * concurrent request A creates, A's candidate and B's share a blocking key or an identifier:
 * both lock it, B waits for A's commit, then catches up and matches A's person. When they
 * share none, B cannot match A's person whatever the order, and creating two people is what
 * running them one after the other gives too. The matched person's own keys are locked as
 * well (from the index, as of the match before the unit), so two requests that update the
 * same person through different keys also run in turn (its row lock keeps every update of a
 * person in turn in any case, see ScopeWriter.getPerson).
 */
import { hashKeyParts, type ContactIndex, type NormalizedContact } from '../engine/index.js';
import type { LockKey } from '../store/index.js';

/** The keys of a contact: its blocking key hashes and a hash of each external identifier. */
function addKeys(keys: Set<number>, index: ContactIndex, contact: NormalizedContact): void {
  for (const h of index.keyHashes(contact)) keys.add(h);
  for (const id of contact.identifiers) keys.add(hashKeyParts('id', id));
}

/**
 * The lock key of a person itself: taken by a unit that matched it and by a review decision on
 * it (a merge, a different decision), so that these run one after the other in every index
 * mode (database retrieval has no blocking keys of the person at hand).
 */
export function personLockKey(crmId: number): LockKey {
  return hashKeyParts('crm', String(crmId));
}

/**
 * The lock keys of a candidate (normalized by `index`) and of the person it matched (`matched`,
 * or null: its blocking keys when the index holds it, and its own key), ascending (every unit
 * takes its locks in that order: no two wait on each other in a cycle).
 */
export function lockKeysOf(index: ContactIndex, candidate: NormalizedContact, matched: number | null): LockKey[] {
  const keys = new Set<number>();
  addKeys(keys, index, candidate);
  if (matched !== null) {
    keys.add(personLockKey(matched));
    const record = index.get(matched);
    if (record !== undefined) addKeys(keys, index, record);
  }
  return [...keys].sort((a, b) => a - b);
}

/** The lock keys of a unit on existing people (a review decision): their own keys and blocking keys, ascending. */
export function lockKeysOfPeople(index: ContactIndex, crmIds: readonly number[]): LockKey[] {
  const keys = new Set<number>();
  for (const crmId of crmIds) {
    keys.add(personLockKey(crmId));
    const record = index.get(crmId);
    if (record !== undefined) addKeys(keys, index, record);
  }
  return [...keys].sort((a, b) => a - b);
}

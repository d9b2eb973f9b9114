/**
 * Blocking: the keys under which the index files a record, so that a lookup compares a
 * candidate only with records that share at least one key. Several keys per record, built
 * from different fields, so that one typo or one missing field does not hide a true match.
 */
import { doubleMetaphone } from 'double-metaphone';
import { compactName } from './name.js';
import { nicknameGroupsOf, type NicknameTable } from './nicknames.js';
import type { NormalizedContact } from './types.js';

/** Phonetic code of a compact name (Double Metaphone primary), or the name when it has none. */
export function phoneticKey(name: string): string {
  const code = doubleMetaphone(name)[0];
  return code.length > 0 ? code : name;
}

/**
 * The blocking keys of a contact. Kinds (prefix):
 * - `e` each email mailbox; `p` each phone;
 * - `pd` the sound of the surname, and of the first name, with the date of birth (typos in
 *   names; swapped first and last names still share a key); `nd` a first name's nickname
 *   group with the date of birth (Bob and Robert sound different);
 * - `fl` first-name and surname sounds, in sorted order (swap-proof);
 * - `dz` date of birth with postal code; `lz`/`fz` surname/first-name sound with postal code;
 * - `az` street number with postal code; `sa` street number with street name (a postal code
 *   typo); `dn` date of birth with street number.
 * Keys are distinct; order is stable.
 */
export function blockingKeys(c: NormalizedContact, nicknames: NicknameTable): string[] {
  const keys = new UniqueList();
  for (const e of c.emails) keys.add(`e:${e}`);
  for (const p of c.phones) keys.add(`p:${p}`);
  const first = c.first !== null ? compactName(c.first) : null;
  const last = c.last !== null ? compactName(c.last) : null;
  const firstSound = first !== null ? phoneticKey(first) : null;
  const lastSound = last !== null ? phoneticKey(last) : null;
  if (c.dob !== null) {
    if (lastSound !== null) keys.add(`pd:${lastSound}:${c.dob}`);
    if (firstSound !== null) keys.add(`pd:${firstSound}:${c.dob}`);
    if (first !== null) for (const g of nicknameGroupsOf(nicknames, first)) keys.add(`nd:${g}:${c.dob}`);
  }
  if (firstSound !== null && lastSound !== null) {
    keys.add(firstSound < lastSound ? `fl:${firstSound}:${lastSound}` : `fl:${lastSound}:${firstSound}`);
  }
  for (const a of c.addresses) {
    if (a.number !== null && a.street !== null) keys.add(`sa:${a.number}:${compactName(a.street)}`);
    if (a.number !== null && c.dob !== null) keys.add(`dn:${c.dob}:${a.number}`);
    if (a.zip === null) continue;
    if (c.dob !== null) keys.add(`dz:${c.dob}:${a.zip}`);
    if (lastSound !== null) keys.add(`lz:${lastSound}:${a.zip}`);
    if (firstSound !== null) keys.add(`fz:${firstSound}:${a.zip}`);
    if (a.number !== null) keys.add(`az:${a.number}:${a.zip}`);
  }
  return keys.items;
}

/** A short list that ignores repeats (cheaper than a Set for a dozen keys). */
class UniqueList {
  readonly items: string[] = [];
  add(key: string): void {
    if (!this.items.includes(key)) this.items.push(key);
  }
}

/** Keys of a contact's external identifiers, kept apart: an identifier decides alone. */
export function identifierKeys(c: NormalizedContact): readonly string[] {
  return c.identifiers;
}

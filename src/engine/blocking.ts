/**
 * Blocking: the keys under which the index files a record, so that a lookup compares a
 * candidate only with records that share at least one key. Several keys per record, built
 * from different fields, so that one typo or one missing field does not hide a true match.
 *
 * The index files keys by a 32-bit hash computed from the key's parts without building the
 * key string ({@link hashKeyParts}); a collision only adds a candidate, which scoring then
 * rejects.
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

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** 32-bit FNV-1a of a string, as a signed integer. */
function fnv(text: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h | 0;
}

/** Murmur3's mixing of one 32-bit word into a running hash. */
function mixIn(h: number, k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/**
 * The 32-bit hash under which a key is filed, from its parts: each part is hashed once
 * (FNV-1a) and the part hashes are combined (Murmur3 mixing), so a date of birth or a postal
 * code that appears in several keys of a contact is read once, not once per key.
 */
export function hashKeyParts(prefix: string, a: string, b?: string): number {
  return combine(fnv(prefix), fnv(a), b === undefined ? 0 : fnv(b));
}

function combine(prefix: number, a: number, b: number): number {
  let h = mixIn(mixIn(prefix, a), b);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/** Receives each key as its prefix and parts (`prefix:a` or `prefix:a:b`). */
type KeySink<T> = (prefix: string, a: T, b?: T) => void;

/**
 * Emits the blocking keys of a contact. Kinds (prefix):
 * - `e` each email mailbox; `p` each phone;
 * - `pd` the sound of the surname, and of the first name, with the date of birth (typos in
 *   names; swapped first and last names still share a key); `nd` a first name's nickname
 *   group with the date of birth (Bob and Robert sound different);
 * - `fl` first-name and surname sounds, in sorted order (swap-proof);
 * - `dz` date of birth with postal code; `lz`/`fz` surname/first-name sound with postal code;
 * - `az` street number with postal code; `sa` street number with street name (a postal code
 *   typo); `dn` date of birth with street number.
 * Each part is converted once by `part` (the identity for key strings, a hash for filing).
 */
function emitKeys<T>(c: NormalizedContact, nicknames: NicknameTable, soundOf: (name: string) => string, part: (text: string) => T, sink: KeySink<T>): void {
  for (const e of c.emails) sink('e', part(e));
  for (const p of c.phones) sink('p', part(p));
  const first = c.first !== null ? compactName(c.first) : null;
  const last = c.last !== null ? compactName(c.last) : null;
  const firstSoundText = first !== null ? soundOf(first) : null;
  const lastSoundText = last !== null ? soundOf(last) : null;
  const firstSound = firstSoundText !== null ? part(firstSoundText) : null;
  const lastSound = lastSoundText !== null ? part(lastSoundText) : null;
  const dob = c.dob !== null ? part(c.dob) : null;
  if (dob !== null) {
    if (lastSound !== null) sink('pd', lastSound, dob);
    if (firstSound !== null) sink('pd', firstSound, dob);
    if (first !== null) for (const g of nicknameGroupsOf(nicknames, first)) sink('nd', part(String(g)), dob);
  }
  if (firstSound !== null && lastSound !== null) {
    if ((firstSoundText as string) < (lastSoundText as string)) sink('fl', firstSound, lastSound);
    else sink('fl', lastSound, firstSound);
  }
  for (const a of c.addresses) {
    const number = a.number !== null ? part(a.number) : null;
    if (number !== null && a.street !== null) sink('sa', number, part(compactName(a.street)));
    if (number !== null && dob !== null) sink('dn', dob, number);
    if (a.zip === null) continue;
    const zip = part(a.zip);
    if (dob !== null) sink('dz', dob, zip);
    if (lastSound !== null) sink('lz', lastSound, zip);
    if (firstSound !== null) sink('fz', firstSound, zip);
    if (number !== null) sink('az', number, zip);
  }
}

const identity = (text: string): string => text;

/** The blocking keys of a contact as strings ("pd:SM0:1975-09-18"); distinct, in a stable order. */
export function blockingKeys(c: NormalizedContact, nicknames: NicknameTable, soundOf: (name: string) => string = phoneticKey): string[] {
  const keys: string[] = [];
  emitKeys(c, nicknames, soundOf, identity, (prefix, a, b) => {
    const key = b === undefined ? `${prefix}:${a}` : `${prefix}:${a}:${b}`;
    if (!keys.includes(key)) keys.push(key);
  });
  return keys;
}

/** Hash of each key prefix. */
const PREFIX_HASHES: ReadonlyMap<string, number> = new Map(['e', 'p', 'pd', 'nd', 'fl', 'sa', 'dn', 'dz', 'lz', 'fz', 'az'].map((p) => [p, fnv(p)]));

/**
 * The hashes of {@link blockingKeys} ({@link hashKeyParts} of each key's parts), computed
 * without building the strings; distinct, in the same order.
 */
export function blockingHashes(c: NormalizedContact, nicknames: NicknameTable, soundOf: (name: string) => string = phoneticKey): number[] {
  const hashes: number[] = [];
  emitKeys(c, nicknames, soundOf, fnv, (prefix, a, b) => {
    const h = combine(PREFIX_HASHES.get(prefix) as number, a, b === undefined ? 0 : b);
    if (!hashes.includes(h)) hashes.push(h);
  });
  return hashes;
}

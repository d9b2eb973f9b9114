/**
 * Blocking: the keys under which the index files a record, so that a lookup compares a
 * candidate only with records that share at least one key. Several keys per record, built
 * from different fields, so that one typo or one missing field does not hide a true match.
 *
 * The index files keys by a 32-bit hash, computed while the key is built (FNV-1a is
 * streaming, so the hash of the parts equals the hash of the joined key string); a
 * collision only adds a candidate, which scoring then rejects.
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
const COLON = 58;

function fnv(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

/** 32-bit FNV-1a of a key string, as a signed integer (a small integer in V8, no heap number). */
export function hashKey(key: string): number {
  return fnv(FNV_OFFSET, key) | 0;
}

/** Receives each key as its parts: `prefix:a` or `prefix:a:b`. */
interface KeySink {
  key(prefix: string, a: string, b?: string): void;
}

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
 */
function emitKeys(c: NormalizedContact, nicknames: NicknameTable, sink: KeySink, soundOf: (name: string) => string): void {
  for (const e of c.emails) sink.key('e', e);
  for (const p of c.phones) sink.key('p', p);
  const first = c.first !== null ? compactName(c.first) : null;
  const last = c.last !== null ? compactName(c.last) : null;
  const firstSound = first !== null ? soundOf(first) : null;
  const lastSound = last !== null ? soundOf(last) : null;
  if (c.dob !== null) {
    if (lastSound !== null) sink.key('pd', lastSound, c.dob);
    if (firstSound !== null) sink.key('pd', firstSound, c.dob);
    if (first !== null) for (const g of nicknameGroupsOf(nicknames, first)) sink.key('nd', String(g), c.dob);
  }
  if (firstSound !== null && lastSound !== null) {
    if (firstSound < lastSound) sink.key('fl', firstSound, lastSound);
    else sink.key('fl', lastSound, firstSound);
  }
  for (const a of c.addresses) {
    if (a.number !== null && a.street !== null) sink.key('sa', a.number, compactName(a.street));
    if (a.number !== null && c.dob !== null) sink.key('dn', c.dob, a.number);
    if (a.zip === null) continue;
    if (c.dob !== null) sink.key('dz', c.dob, a.zip);
    if (lastSound !== null) sink.key('lz', lastSound, a.zip);
    if (firstSound !== null) sink.key('fz', firstSound, a.zip);
    if (a.number !== null) sink.key('az', a.number, a.zip);
  }
}

/** The blocking keys of a contact as strings ("pd:SM0:1975-09-18"); distinct, in a stable order. */
export function blockingKeys(c: NormalizedContact, nicknames: NicknameTable, soundOf: (name: string) => string = phoneticKey): string[] {
  const keys: string[] = [];
  emitKeys(c, nicknames, {
    key(prefix, a, b) {
      const key = b === undefined ? `${prefix}:${a}` : `${prefix}:${a}:${b}`;
      if (!keys.includes(key)) keys.push(key);
    },
  }, soundOf);
  return keys;
}

/**
 * The hashes of {@link blockingKeys} (`hashKey` of each), computed without building the
 * strings; distinct.
 */
export function blockingHashes(c: NormalizedContact, nicknames: NicknameTable, soundOf: (name: string) => string = phoneticKey): number[] {
  const hashes: number[] = [];
  emitKeys(c, nicknames, {
    key(prefix, a, b) {
      let h = fnv(FNV_OFFSET, prefix);
      h = fnv(Math.imul(h ^ COLON, FNV_PRIME), a);
      if (b !== undefined) h = fnv(Math.imul(h ^ COLON, FNV_PRIME), b);
      h |= 0;
      if (!hashes.includes(h)) hashes.push(h);
    },
  }, soundOf);
  return hashes;
}

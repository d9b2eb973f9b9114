/**
 * Blocking: the keys under which the index files a record, so that a lookup compares a
 * candidate only with records that share at least one key. Several keys per record, built
 * from different fields, so that one typo or one missing field does not hide a true match.
 *
 * The index files keys by a 32-bit hash computed from the key's parts without building the
 * key string ({@link hashKeyParts}); a collision only adds a candidate, which scoring then
 * rejects.
 *
 * Past 400 lines because the key kinds, the one function that emits them, and the hashing of
 * their parts are one definition: a key must be built and hashed the same way for filing, for
 * lookups and for the keys some rows skip, and split apart they could drift.
 */
import { doubleMetaphone } from 'double-metaphone';
import { compactName } from './name.js';
import { nicknameGroupsOf, type NicknameTable } from './nicknames.js';
import { ocrFold } from './similarity.js';
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
 * Kinds of blocking key, as bits of a key set. {@link CRM_KEYS} are the index's default;
 * {@link FILE_KEYS} add keys that survive a corrupted field in files of messy records.
 */
export const KEY_KINDS = {
  /** Each email mailbox (`e`) and phone (`p`). */
  contact: 1 << 0,
  /** Surname or first-name sound with the date of birth (`pd`); nickname group with it (`nd`). */
  nameDob: 1 << 1,
  /** First and last name sounds in sorted order (`fl`): swap-proof. */
  names: 1 << 2,
  /** Date of birth, surname sound, first-name sound, street number, each with the postal code (`dz`, `lz`, `fz`, `az`). */
  zip: 1 << 3,
  /** Street number with street name (`sa`) and with the date of birth (`dn`). */
  street: 1 << 4,
  /** Each identifier (`i`) and the last seven digits of each phone (`p7`: local numbers). */
  identifiers: 1 << 5,
  /** Surname and first-name sounds with the city (`lc`, `fc`); the date of birth with it (`dc`: both names missing or misspelt). */
  city: 1 << 6,
  /** Surname or first-name sound with the year of birth (`py`): day or month wrong or unknown. */
  year: 1 << 7,
  /**
   * Spelling fragments that survive one or two corrupted characters (OCR, typos): the
   * surname's first and last three letters with the first initial (`l3`, `s3`), the first
   * name's first three letters with the surname's initial (`f3`; also of the names as OCR
   * folds them when one holds a digit: "k1nae" keeps "kin"), each surname fragment with
   * the postal code's first three characters (`z3`), the middle name's sound with the
   * surname's (`ml`: a middle name used as first name), consonant skeletons (`sk`: names
   * romanized from scripts without vowels), both initials with the postal code (`iz`), with
   * its first three characters (`i3`: its last digits misread or mistyped too) and with the
   * city (`ic`): OCR that took two characters of each name. `ic` is filed for every record but
   * looked up only by an address without a postal code ({@link townPostalHashes}): a row that
   * lost its postal code finds the same person's rows that kept theirs, while rows with one
   * do not read every namesake of their initials in a large town.
   */
  fragments: 1 << 8,
  /**
   * Each email's local part (`el`, three characters or more): the same mailbox with a
   * mistyped or changed domain ("oa14@lee.com" / "oa14@lee.coom"); and, for a local part of
   * six characters or more, its first four and its last four characters, each with the
   * domain's first three (`eh`, `et`): one or two characters garbled elsewhere in the
   * address ("samuelcampbell35@hebert.com" / "samuelcampbel35@hebert.com",
   * "eviejones@brewer-sparks.org" / "evejones@brewer-sparksi.org").
   */
  emailLocal: 1 << 9,
  /**
   * Surname and first-name sounds with the first word of each free-text attribute column
   * (`la`, `fa`; the column's position is part of the key): a birth place or an occupation
   * links records whose other name, date of birth or postcode is missing ("Leeds, Yorks" and
   * "Leeds" share the word); the year of birth with it (`ya`): both names missing or misread.
   */
  attributes: 1 << 10,
  /**
   * Name sounds read through OCR's confusions (`fl`, `lz`, `fz` of the names as ocrFold
   * reads them, when that differs): "arlee melson" and "ariee meison" share their keys.
   */
  ocr: 1 << 11,
  /**
   * A full date of birth alone (`d`): both names misspelt or missing and no address shared.
   * Selective on its own only in files of up to a few hundred thousand records (a date is
   * shared by about one record in 36,500 per century of birth years); in larger ones it
   * counts as one hit, which another key must join (candidate-selection.ts).
   */
  dob: 1 << 12,
  /**
   * Keys filed for every record but looked up only by a row without a first name or a
   * surname (contact-index.ts), whose one name, or none, leaves it few keys: the postal code
   * alone (`z`: with no date of birth either, its address is all that finds such a row,
   * 'Missus Taylor, OL9 7JU' / 'Mrs Euphemia Mary, OL9 7JU'), the first initial with the
   * postal code's first three characters (`u3`: a row that lost its surname, one of the two
   * postal codes mistyped: 'Samuel, E20 8EZ' / 'Samuel Doile, E20 8Z'), the first initial
   * with the first word of each free-text column (`ua`: 'M., Newcastle upon Tyne' / 'Mary
   * Powell, Newcastle upon Tyne, Northumberland', where `fa` needs the name's sound), and each name's
   * sound with the year of birth and with the next (`pn`: two records a year apart share one;
   * a date worked back from an age, a year misremembered). A fine postal code (British, Canadian: a
   * street's side) is selective alone; under a coarse one candidate selection counts a record
   * only when another key joins it. A named row's own names find its records.
   */
  unnamed: 1 << 13,
  /**
   * Each name alone, as OCR folds it (`n`, three letters or more; one prefix for the first
   * name and the surname, so that a swap keeps it): the other name and every other field
   * corrupted or missing ("emily stephens" / "cmily stephens", no year). A rare name is
   * selective alone; a common one counts only with another key (candidate-selection.ts).
   */
  nameAlone: 1 << 14,
} as const;

/** The index's default keys (the CRM's). */
export const CRM_KEYS = KEY_KINDS.contact | KEY_KINDS.nameDob | KEY_KINDS.names | KEY_KINDS.zip | KEY_KINDS.street;
/** Keys for linking messy files: every kind. */
export const FILE_KEYS =
  CRM_KEYS |
  KEY_KINDS.identifiers |
  KEY_KINDS.city |
  KEY_KINDS.year |
  KEY_KINDS.fragments |
  KEY_KINDS.emailLocal |
  KEY_KINDS.attributes |
  KEY_KINDS.ocr |
  KEY_KINDS.dob |
  KEY_KINDS.unnamed |
  KEY_KINDS.nameAlone;

/**
 * The consonant skeleton of a compact name: vowels (and y, h, w) dropped, doubled letters
 * collapsed ("mohammed" -> "mmd", "muhammad" -> "mmd", "mhmd" -> "mmd"). Names romanized
 * from Arabic or Hebrew script come without their vowels; the skeleton compares them with
 * the usual spellings.
 */
export function consonantSkeleton(name: string): string {
  let out = '';
  let last = '';
  for (let i = 0; i < name.length; i++) {
    const ch = name.charAt(i);
    if ('aeiouyhw'.includes(ch)) continue;
    if (ch !== last) out += ch;
    last = ch;
  }
  return out;
}

/** Characters of a local part in each of its `eh` and `et` keys (KEY_KINDS.emailLocal). */
const EMAIL_WINDOW = 4;
/** Shortest local part with `eh` and `et` keys: shorter ones ("jo12@") are mostly one window. */
const EMAIL_WINDOW_LOCAL = 6;
/** Characters of the domain in the `eh` and `et` keys. */
const EMAIL_WINDOW_DOMAIN = 3;

/**
 * Emits the blocking keys of a contact, by the kinds in `kinds` (see {@link KEY_KINDS}).
 * Each part is converted once by `part` (the identity for key strings, a hash for filing).
 */
function emitKeys<T>(
  c: NormalizedContact,
  nicknames: NicknameTable,
  soundOf: (name: string) => string,
  part: (text: string) => T,
  sink: KeySink<T>,
  kinds: number,
  ocrOf: (name: string) => string = ocrFold,
): void {
  if ((kinds & KEY_KINDS.contact) !== 0) {
    for (const e of c.emails) sink('e', part(e));
    for (const p of c.phones) sink('p', part(p));
  }
  if ((kinds & KEY_KINDS.emailLocal) !== 0) {
    for (const e of c.emails) {
      const at = e.lastIndexOf('@');
      if (at >= 3) sink('el', part(e.slice(0, at)));
      if (at >= EMAIL_WINDOW_LOCAL && e.length - at > EMAIL_WINDOW_DOMAIN) {
        const domain = part(e.slice(at + 1, at + 1 + EMAIL_WINDOW_DOMAIN));
        sink('eh', part(e.slice(0, EMAIL_WINDOW)), domain);
        sink('et', part(e.slice(at - EMAIL_WINDOW, at)), domain);
      }
    }
  }
  if ((kinds & KEY_KINDS.identifiers) !== 0) {
    for (const id of c.identifiers) sink('i', part(id));
    for (const p of c.phones) if (p.length >= 8) sink('p7', part(p.slice(-7)));
  }
  const first = c.first !== null ? compactName(c.first) : null;
  const last = c.last !== null ? compactName(c.last) : null;
  const firstSoundText = first !== null ? soundOf(first) : null;
  const lastSoundText = last !== null ? soundOf(last) : null;
  const firstSound = firstSoundText !== null ? part(firstSoundText) : null;
  const lastSound = lastSoundText !== null ? part(lastSoundText) : null;
  const dob = c.dob !== null ? part(c.dob) : null;
  if (dob !== null && (kinds & KEY_KINDS.dob) !== 0 && (c.dob as string).length === 10) sink('d', dob);
  if (dob !== null && (kinds & KEY_KINDS.nameDob) !== 0) {
    if (lastSound !== null) sink('pd', lastSound, dob);
    if (firstSound !== null) sink('pd', firstSound, dob);
    if (first !== null) for (const g of nicknameGroupsOf(nicknames, first)) sink('nd', part(String(g)), dob);
  }
  if ((kinds & KEY_KINDS.year) !== 0 && c.dob !== null && c.dob.length >= 4) {
    const year = part(c.dob.slice(0, 4));
    if (lastSound !== null) sink('py', lastSound, year);
    if (firstSound !== null) sink('py', firstSound, year);
    if ((kinds & KEY_KINDS.unnamed) !== 0) {
      const next = part(String(Number(c.dob.slice(0, 4)) + 1));
      for (const sound of [lastSound, firstSound]) {
        if (sound === null) continue;
        sink('pn', sound, year);
        sink('pn', sound, next);
      }
    }
  }
  if (firstSound !== null && lastSound !== null && (kinds & KEY_KINDS.names) !== 0) {
    if ((firstSoundText as string) < (lastSoundText as string)) sink('fl', firstSound, lastSound);
    else sink('fl', lastSound, firstSound);
  }
  const firstOcr = (kinds & KEY_KINDS.ocr) !== 0 && first !== null ? ocrOf(first) : first;
  const lastOcr = (kinds & KEY_KINDS.ocr) !== 0 && last !== null ? ocrOf(last) : last;
  if ((kinds & KEY_KINDS.fragments) !== 0) {
    emitFragments(c, first, last, lastSoundText, soundOf, part, sink);
    // A name OCR put a digit in ("k1nae", "je5ux"): the fragments of the names as OCR folds
    // them too. Only then: clean names fold as well ("maria" through "ri") and would be filed
    // twice for nothing (+10-15% of a dedupe's matching time, bench/README eighth session).
    if ((kinds & KEY_KINDS.ocr) !== 0 && (hasDigit(first) || hasDigit(last))) spellingFragments(firstOcr, lastOcr, part, sink);
  }
  if ((kinds & KEY_KINDS.nameAlone) !== 0) {
    // The folds above when the OCR keys took them (the same memo reads, not twice).
    const ocrKeys = (kinds & KEY_KINDS.ocr) !== 0;
    if (last !== null && last.length >= 3) sink('n', part(ocrKeys ? (lastOcr as string) : ocrOf(last)));
    if (first !== null && first.length >= 3) sink('n', part(ocrKeys ? (firstOcr as string) : ocrOf(first)));
  }
  const firstOcrSound = firstOcr !== first && firstOcr !== null ? soundOf(firstOcr) : firstSoundText;
  const lastOcrSound = lastOcr !== last && lastOcr !== null ? soundOf(lastOcr) : lastSoundText;
  const ocrDiffers = firstOcrSound !== firstSoundText || lastOcrSound !== lastSoundText;
  if (ocrDiffers && firstOcrSound !== null && lastOcrSound !== null) {
    if (firstOcrSound < lastOcrSound) sink('fl', part(firstOcrSound), part(lastOcrSound));
    else sink('fl', part(lastOcrSound), part(firstOcrSound));
  }
  const birthYear = c.dob !== null && c.dob.length >= 4 ? c.dob.slice(0, 4) : null;
  if ((kinds & KEY_KINDS.attributes) !== 0 && (firstSound !== null || lastSound !== null || birthYear !== null)) {
    for (let i = 0; i < c.attributes.length; i++) {
      const word = firstWord(c.attributes[i] ?? null);
      if (word === null) continue;
      const value = part(`${i}:${word}`);
      if (lastSound !== null) sink('la', lastSound, value);
      if (firstSound !== null) sink('fa', firstSound, value);
      if (birthYear !== null) sink('ya', part(birthYear), value);
      if ((kinds & KEY_KINDS.unnamed) !== 0 && first !== null && first.length > 0) sink('ua', part(first.charAt(0)), value);
    }
  }
  // Both initials, in sorted order (a swap keeps them), with the postal code (`iz`) and with the
  // city (`ic`, looked up only by an address without a postal code: townPostalHashes): what is
  // left of two names that each lost two characters to OCR.
  const initials =
    (kinds & KEY_KINDS.fragments) !== 0 && first !== null && last !== null && first.length > 0 && last.length > 0 ? part(sortedInitials(first, last)) : null;
  for (const a of c.addresses) {
    const number = a.number !== null ? part(a.number) : null;
    if ((kinds & KEY_KINDS.street) !== 0) {
      if (number !== null && a.street !== null) sink('sa', number, part(compactName(a.street)));
      if (number !== null && dob !== null) sink('dn', dob, number);
    }
    if ((kinds & KEY_KINDS.city) !== 0 && a.city !== null) {
      const city = part(compactName(a.city));
      if (lastSound !== null) sink('lc', lastSound, city);
      if (firstSound !== null) sink('fc', firstSound, city);
      if (dob !== null && c.dob !== null && c.dob.length === 10) sink('dc', dob, city);
    }
    if (initials !== null && a.city !== null) sink('ic', initials, part(compactName(a.city)));
    if (a.zip === null) continue;
    if (initials !== null) sink('iz', initials, part(a.zip));
    if ((kinds & KEY_KINDS.fragments) !== 0 && last !== null && a.zip.length >= 3) {
      const zip3 = part(a.zip.slice(0, 3));
      if (initials !== null) sink('i3', initials, zip3);
      if (last.length >= 3) sink('z3', part(last.slice(0, 3)), zip3);
      if (last.length >= 5) sink('z3', part(`-${last.slice(-3)}`), zip3);
    }
    if ((kinds & KEY_KINDS.zip) === 0) continue;
    const zip = part(a.zip);
    if ((kinds & KEY_KINDS.unnamed) !== 0) {
      sink('z', zip);
      if (first !== null && first.length > 0 && a.zip.length >= 3) sink('u3', part(first.charAt(0)), part(a.zip.slice(0, 3)));
    }
    if (dob !== null) sink('dz', dob, zip);
    if (lastSound !== null) sink('lz', lastSound, zip);
    if (firstSound !== null) sink('fz', firstSound, zip);
    if (ocrDiffers && lastOcrSound !== null && lastOcrSound !== lastSoundText) sink('lz', part(lastOcrSound), zip);
    if (ocrDiffers && firstOcrSound !== null && firstOcrSound !== firstSoundText) sink('fz', part(firstOcrSound), zip);
    if (number !== null) sink('az', number, zip);
  }
}

/** The first letters of two compact names, in sorted order ("jd" for John Doe and for Doe John). */
function sortedInitials(first: string, last: string): string {
  const f = first.charAt(0);
  const l = last.charAt(0);
  return f < l ? f + l : l + f;
}

/** The first word of a folded free-text value (two characters or more), or null. */
function firstWord(value: string | null): string | null {
  if (value === null) return null;
  const m = /[\p{L}\p{N}]{2,}/u.exec(value);
  return m === null ? null : m[0];
}

/** The `fragments` keys (see KEY_KINDS). */
function emitFragments<T>(
  c: NormalizedContact,
  first: string | null,
  last: string | null,
  lastSoundText: string | null,
  soundOf: (name: string) => string,
  part: (text: string) => T,
  sink: KeySink<T>,
): void {
  spellingFragments(first, last, part, sink);
  if (c.middle !== null && last !== null && lastSoundText !== null) {
    const middle = compactName(c.middle);
    if (middle.length > 1) {
      const middleSound = soundOf(middle);
      if (middleSound < lastSoundText) sink('fl', part(middleSound), part(lastSoundText));
      else sink('fl', part(lastSoundText), part(middleSound));
    }
  }
  if (first !== null && last !== null) {
    const fs = consonantSkeleton(first);
    const ls = consonantSkeleton(last);
    if (fs.length >= 2 && ls.length >= 2) sink('sk', part(fs < ls ? `${fs}|${ls}` : `${ls}|${fs}`));
  }
}

/** True when a compact name holds a digit (an OCR misreading: "k1nae"). */
function hasDigit(name: string | null): boolean {
  if (name === null) return false;
  for (let i = 0; i < name.length; i++) {
    const ch = name.charCodeAt(i);
    if (ch >= 48 && ch <= 57) return true;
  }
  return false;
}

/** The `l3`, `s3` and `f3` fragments of two compact names (see KEY_KINDS.fragments). */
function spellingFragments<T>(first: string | null, last: string | null, part: (text: string) => T, sink: KeySink<T>): void {
  if (last !== null && last.length >= 3) {
    const initial = first !== null ? part(first.charAt(0)) : part('');
    sink('l3', part(last.slice(0, 3)), initial);
    if (last.length >= 5) sink('s3', part(last.slice(-3)), initial);
  }
  if (first !== null && first.length >= 3 && last !== null) sink('f3', part(first.slice(0, 3)), part(last.charAt(0)));
}

const identity = (text: string): string => text;

/** The blocking keys of a contact as strings ("pd:SM0:1975-09-18"); distinct, in a stable order. */
export function blockingKeys(
  c: NormalizedContact,
  nicknames: NicknameTable,
  soundOf: (name: string) => string = phoneticKey,
  kinds: number = CRM_KEYS,
): string[] {
  const keys: string[] = [];
  emitKeys(
    c,
    nicknames,
    soundOf,
    identity,
    (prefix, a, b) => {
      const key = b === undefined ? `${prefix}:${a}` : `${prefix}:${a}:${b}`;
      if (!keys.includes(key)) keys.push(key);
    },
    kinds,
  );
  return keys;
}

/** Hash of each key prefix. */
const PREFIX_HASHES: ReadonlyMap<string, number> = new Map(
  [
    'e',
    'p',
    'pd',
    'nd',
    'fl',
    'sa',
    'dn',
    'dz',
    'lz',
    'fz',
    'az',
    'i',
    'p7',
    'lc',
    'fc',
    'py',
    'l3',
    's3',
    'f3',
    'z3',
    'sk',
    'el',
    'eh',
    'et',
    'la',
    'fa',
    'dc',
    'd',
    'ya',
    'z',
    'pn',
    'iz',
    'i3',
    'u3',
    'ua',
    'ic',
    'n',
  ].map((p) => [p, fnv(p)]),
);

/**
 * The hashes of {@link blockingKeys} ({@link hashKeyParts} of each key's parts), computed
 * without building the strings; distinct, in the same order. `ocrOf`: {@link ocrFold}, or a
 * memo of it (names repeat: an index filing a million records folds each name once).
 */
export function blockingHashes(
  c: NormalizedContact,
  nicknames: NicknameTable,
  soundOf: (name: string) => string = phoneticKey,
  kinds: number = CRM_KEYS,
  ocrOf: (name: string) => string = ocrFold,
): number[] {
  const hashes: number[] = [];
  emitKeys(
    c,
    nicknames,
    soundOf,
    fnv,
    (prefix, a, b) => {
      const h = combine(PREFIX_HASHES.get(prefix) as number, a, b === undefined ? 0 : b);
      if (!hashes.includes(h)) hashes.push(h);
    },
    kinds,
    ocrOf,
  );
  return hashes;
}

/**
 * The hashes of a contact's `ic` keys (both initials with a city, {@link KEY_KINDS.fragments})
 * of addresses that have a postal code, which such an address does not look up by; an `ic`
 * key an address without a postal code gives as well is looked up.
 */
export function townPostalHashes(c: NormalizedContact): number[] {
  const first = c.first === null ? null : compactName(c.first);
  const last = c.last === null ? null : compactName(c.last);
  if (first === null || last === null || first.length === 0 || last.length === 0) return [];
  const initials = fnv(sortedInitials(first, last));
  const ic = PREFIX_HASHES.get('ic') as number;
  const hashOf = (city: string): number => combine(ic, initials, fnv(compactName(city)));
  const out: number[] = [];
  for (const a of c.addresses) if (a.zip !== null && a.city !== null) out.push(hashOf(a.city));
  if (out.length === 0) return out;
  const kept = c.addresses.filter((a) => a.zip === null && a.city !== null).map((a) => hashOf(a.city as string));
  return out.filter((h, i) => !kept.includes(h) && out.indexOf(h) === i);
}

/**
 * The hashes of a contact's {@link KEY_KINDS.unnamed} keys (`z`, `u3`, `ua`, `pn`, as {@link blockingHashes}
 * files them), which a row with both names does not look up by.
 */
export function unnamedHashes(c: NormalizedContact, soundOf: (name: string) => string = phoneticKey): number[] {
  const out: number[] = [];
  const add = (h: number): void => {
    if (!out.includes(h)) out.push(h);
  };
  const z = PREFIX_HASHES.get('z') as number;
  const u3 = PREFIX_HASHES.get('u3') as number;
  const initial = c.first === null ? '' : compactName(c.first).charAt(0);
  for (const a of c.addresses) {
    if (a.zip === null) continue;
    add(combine(z, fnv(a.zip), 0));
    if (initial.length > 0 && a.zip.length >= 3) add(combine(u3, fnv(initial), fnv(a.zip.slice(0, 3))));
  }
  if (initial.length > 0) {
    const ua = PREFIX_HASHES.get('ua') as number;
    for (let i = 0; i < c.attributes.length; i++) {
      const word = firstWord(c.attributes[i] ?? null);
      if (word !== null) add(combine(ua, fnv(initial), fnv(`${i}:${word}`)));
    }
  }
  if (c.dob !== null && c.dob.length >= 4) {
    const pn = PREFIX_HASHES.get('pn') as number;
    const year = fnv(c.dob.slice(0, 4));
    const next = fnv(String(Number(c.dob.slice(0, 4)) + 1));
    for (const name of [c.last, c.first]) {
      if (name === null) continue;
      const sound = fnv(soundOf(compactName(name)));
      add(combine(pn, sound, year));
      add(combine(pn, sound, next));
    }
  }
  return out;
}

/**
 * Field comparators: each maps a pair of normalized values to a comparison level
 * (comparisons.ts). A comparator tests the levels in their order and returns the first that
 * the pair reaches among those the model enables (`levels`, a mask of level bits; a level
 * outside it is skipped). Symmetric: swapping the arguments never changes the level. The
 * whole-address comparison of files is whole-address.ts's; streets' forms, street-forms.ts's.
 */
import { levelBit, type LevelName } from './comparisons.js';
import {
  compareFirstNameForms,
  compareLastNameForms,
  compareMiddleNameForms,
  formsOf,
  NameForms,
  namesSwappedForms,
  type NameCompareOptions,
} from './name-compare.js';
import { compactJaroWinklerFrom, equalWithoutSpaces, levenshtein, ocrFold, withinOneEdit } from './similarity.js';
import type { NormalizedAddress } from './types.js';
import { compareUnit, hyphenDropped } from './compare-unit.js';
import { streetLevel } from './street-forms.js';

/** Every level enabled. */
export const ALL_LEVELS = 0xffff;

const B_TYPO = levelBit('typo');
const B_FUZZY_HIGH = levelBit('fuzzy-high');
const B_FUZZY_LOW = levelBit('fuzzy-low');
const B_TRANSPOSED = levelBit('transposed');
const B_YEAR = levelBit('year');
const B_PREFIX = levelBit('prefix');
const B_PARTIAL = levelBit('partial');
const B_PART = levelBit('part');

export type { NameCompareOptions } from './name-compare.js';
export { MAX_PREFIX_NAME } from './name-compare.js';

/** One edit apart, directly or once OCR confusions are undone ("rnary"/"mary", "dav9d"/"david"). */
export function isTypo(a: string, b: string): boolean {
  return withinOneEdit(a, b) || withinOneEdit(ocrFold(a), ocrFold(b));
}

/**
 * Compares first names: exact, nickname, typo, nearly equal, part ("mary ann"/"mary"), the
 * other's middle name (`middleA`/`middleB`), initial or short prefix, similar, sound-alike,
 * disagree (name-compare.ts).
 */
export function compareFirstName(
  a: string | null,
  b: string | null,
  o: NameCompareOptions,
  levels = ALL_LEVELS,
  middleA: string | null = null,
  middleB: string | null = null,
): LevelName {
  return compareFirstNameForms(formsOf(a), formsOf(b), o, levels, formsOf(middleA), formsOf(middleB));
}

/** Compares surnames: exact (compact: "O'Brien" = "OBrien"), typo, nearly equal, compound part, similar, sound-alike, disagree. */
export function compareLastName(a: string | null, b: string | null, o: NameCompareOptions, levels = ALL_LEVELS): LevelName {
  return compareLastNameForms(formsOf(a), formsOf(b), o, levels);
}

/**
 * True when first and last names are swapped between the two records ("Isla Hall" / "Hall
 * Isla"), each allowing one typo or OCR confusion ("braitwaite imogen" / "imogen braithwaite").
 */
export function namesSwapped(aFirst: string, aLast: string, bFirst: string, bLast: string, loose = false): boolean {
  return namesSwappedForms(new NameForms(aFirst), new NameForms(aLast), new NameForms(bFirst), new NameForms(bLast), undefined, loose);
}

/** Compares middle names: exact, initial, nearly equal, disagree. */
export function compareMiddleName(a: string | null, b: string | null, levels = ALL_LEVELS): LevelName {
  return compareMiddleNameForms(formsOf(a), formsOf(b), levels);
}

/**
 * Compares generational suffixes: equal, disagree (Jr and Sr are different people), or, where
 * `levels` has it, partial: a suffix on one record only (a father and his namesake son share
 * the name and the address, and the father's record often carries no suffix).
 */
export function compareSuffix(a: string | null, b: string | null, levels = ALL_LEVELS): LevelName {
  if (a === null || b === null) return a !== b && (levels & B_PARTIAL) !== 0 ? 'partial' : 'missing';
  return a === b ? 'exact' : 'disagree';
}

/** Compares sexes ("m"/"f"): equal or disagree. */
export function compareSex(a: string | null, b: string | null): LevelName {
  if (a === null || b === null) return 'missing';
  return a === b ? 'exact' : 'disagree';
}

/** True when the two strings have equal characters in [from, to). */
function sameRange(a: string, b: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return false;
  return true;
}

function yearOf(d: string): number {
  return (d.charCodeAt(0) - 48) * 1000 + (d.charCodeAt(1) - 48) * 100 + (d.charCodeAt(2) - 48) * 10 + (d.charCodeAt(3) - 48);
}

/**
 * Compares dates of birth, "YYYY-MM-DD" or a year alone ("YYYY"): exact, day and month
 * swapped, one digit apart (a typo, or two adjacent digits transposed), the same year (one
 * side knows only the year, or the day or month differ, or the years are one apart with the
 * same day and month), a year alone one year off the other's (an age), less than five years
 * apart, else disagree. Allocation-free: this runs for every candidate.
 */
export function compareDate(a: string | null, b: string | null, levels = ALL_LEVELS): LevelName {
  if (a === null || b === null) return 'missing';
  if (a.length === 4 || b.length === 4) {
    if (a.length < 4 || b.length < 4) return 'disagree';
    // No 'year' level (a CRM's yearOfBirth): within a year it says nothing, further off disagrees.
    if ((levels & B_YEAR) === 0) return Math.abs(yearOf(a) - yearOf(b)) <= 1 ? 'missing' : 'disagree';
    if (a === b) return 'exact';
    if ((levels & B_YEAR) !== 0 && sameRange(a, b, 0, 4)) return 'year';
    const dy = yearOf(a) - yearOf(b);
    // A year alone is often worked out from an age: one out either way.
    if ((levels & B_PARTIAL) !== 0 && (dy === 1 || dy === -1)) return 'partial';
    return (levels & B_FUZZY_LOW) !== 0 && dy > -NEAR_BIRTH_YEARS && dy < NEAR_BIRTH_YEARS ? 'fuzzy-low' : 'disagree';
  }
  if (a === b) return 'exact';
  if (a.length !== 10 || b.length !== 10) return 'disagree';
  // Same year, month and day swapped: 1975-09-12 / 1975-12-09.
  if (
    (levels & B_TRANSPOSED) !== 0 &&
    sameRange(a, b, 0, 4) &&
    a.charCodeAt(5) === b.charCodeAt(8) &&
    a.charCodeAt(6) === b.charCodeAt(9) &&
    a.charCodeAt(8) === b.charCodeAt(5) &&
    a.charCodeAt(9) === b.charCodeAt(6)
  ) {
    return 'transposed';
  }
  // Positions that differ, over the eight digits.
  let first = -1;
  let second = -1;
  let count = 0;
  for (let i = 0; i < 10; i++) {
    if (a.charCodeAt(i) === b.charCodeAt(i)) continue;
    count++;
    if (count > 2) break;
    if (first === -1) first = i;
    else second = i;
  }
  if ((levels & B_TYPO) !== 0) {
    if (count === 1) return 'typo';
    // Two adjacent digits transposed (skipping the dash between fields: 1975-09 vs 1975-90 is not).
    if (count === 2 && second === first + 1 && a.charCodeAt(first) === b.charCodeAt(second) && a.charCodeAt(second) === b.charCodeAt(first)) {
      return 'typo';
    }
  }
  const dy = yearOf(a) - yearOf(b);
  if ((levels & B_YEAR) !== 0) {
    if (dy === 0) return 'year';
    if ((dy === 1 || dy === -1) && sameRange(a, b, 4, 10)) return 'year';
  }
  // Two of the eight digits misread or mistyped, wherever they are (1974-10-05 / 1984-10-03).
  if ((levels & B_FUZZY_HIGH) !== 0 && count === 2) return 'fuzzy-high';
  if ((levels & B_FUZZY_LOW) !== 0 && dy > -NEAR_BIRTH_YEARS && dy < NEAR_BIRTH_YEARS) return 'fuzzy-low';
  return 'disagree';
}

/** Dates of birth fewer than this many years apart are "near" (the 'fuzzy-low' level of dates). */
export const NEAR_BIRTH_YEARS = 5;

/**
 * Fewest characters (dots aside) of a mailbox name, the part before the @, that count as the
 * same mailbox at another domain: "hday48@thomas-carter.com" / "hday48@thomas-carter.mc" (a
 * mistyped domain), "ann.lee1987@yahoo.com" / "annlee1987@gmail.com" (one name at two
 * providers; Gmail's own form has no dots). Shorter names ("jo@", "ann@") are shared by strangers.
 */
export const MIN_MAILBOX_NAME = 5;

/**
 * The mailbox name of `email` (before its first @) with its dots left out, when it is long
 * enough to count as the same mailbox at another domain (at least {@link MIN_MAILBOX_NAME}
 * characters), else null.
 */
export function mailboxName(email: string): string | null {
  const at = email.indexOf('@');
  if (at < MIN_MAILBOX_NAME) return null;
  const name = email.slice(0, at).replaceAll('.', '');
  return name.length >= MIN_MAILBOX_NAME ? name : null;
}

/**
 * Compares two sets of emails (mailbox form): any equal; any nearly equal (two edits, six
 * characters or more); the same mailbox name at another domain ('fuzzy-low', see
 * {@link mailboxName}; `shared` tells a role account); a few characters apart ('typo',
 * {@link nearEmailEdits}); else disagree.
 */
export function compareEmails(a: readonly string[], b: readonly string[], levels = ALL_LEVELS, shared?: (email: string) => boolean): LevelName {
  if (a.length === 0 || b.length === 0) return 'missing';
  for (const x of a) if (b.includes(x)) return 'exact';
  let near = false;
  if ((levels & (B_FUZZY_HIGH | B_TYPO)) !== 0) {
    for (const x of a) {
      for (const y of b) {
        if (x.length < 6 || y.length < 6) continue;
        const d = levenshtein(x, y);
        if (d <= 2 && (levels & B_FUZZY_HIGH) !== 0) return 'fuzzy-high';
        if (
          !near &&
          (levels & B_TYPO) !== 0 &&
          d <= nearEmailEdits(x.length, y.length) &&
          levenshtein(mailboxOf(x), mailboxOf(y)) <= NEAR_MAILBOX_EDITS &&
          shared?.(x) !== true
        )
          near = true;
      }
    }
  }
  if ((levels & B_FUZZY_LOW) !== 0) {
    for (const x of a) {
      let name: string | null | undefined;
      for (const y of b) {
        // Most addresses differ from the first letter: names are built only behind one that starts alike.
        if (y.charCodeAt(0) !== x.charCodeAt(0)) continue;
        name ??= mailboxName(x);
        if (name === null) break;
        if (mailboxName(y) === name) {
          if (shared?.(x) === true) break;
          return 'fuzzy-low';
        }
      }
    }
  }
  return near && (levels & B_TYPO) !== 0 ? 'typo' : 'disagree';
}

/**
 * Most edits between two emails (six characters or more each) of the 'typo' level of files:
 * one in five of the longer address, so never fewer than three beyond 'fuzzy-high's two
 * (15 characters or more), with the mailbox names (before the last @) at most two apart. A
 * file's typist or OCR garbles the mailbox name and the domain at once
 * ("hmay32@richardson-rhodes.com" / "hmay3@richarsson-rhooded.com", 4 edits); among
 * strangers' addresses so close are rare (fake_1000: 113 of 1,277 true pairs with two
 * different emails, none of 124,346 random pairs). The mailbox names' bound keeps out a
 * household's name-built addresses at one provider ("john.smith@" / "jane.smith@", three
 * edits), which without it cost the generated mixed sets 0.0002-0.0006 of precision. Its
 * weight is the file's (m by EM, u from random pairs): the CRM model has no such level.
 */
export function nearEmailEdits(a: number, b: number): number {
  return Math.floor(Math.max(a, b) / 5);
}

/** Most edits between the mailbox names of two emails of the 'typo' level ({@link nearEmailEdits}). */
export const NEAR_MAILBOX_EDITS = 2;

/** The part of an email before its last @ (the whole value when it has none). */
function mailboxOf(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? email : email.slice(0, at);
}

/** Prefix of a local (seven-digit, no area code) phone in a normalized phone list. */
export const LOCAL_PHONE_PREFIX = 'L';

/**
 * Compares two sets of phones (E.164, or `L` and seven digits for a local number without
 * its area code): any equal; a local number equal to the last seven digits of a full one
 * (or of another local one); else disagree.
 */
export function comparePhones(a: readonly string[], b: readonly string[], levels = ALL_LEVELS): LevelName {
  if (a.length === 0 || b.length === 0) return 'missing';
  for (const x of a) if (b.includes(x)) return 'exact';
  if ((levels & B_PARTIAL) !== 0) {
    for (const x of a) {
      for (const y of b) {
        const xl = x.charCodeAt(0) === 76;
        const yl = y.charCodeAt(0) === 76;
        if ((xl || yl) && x.slice(-7) === y.slice(-7)) return 'partial';
      }
    }
  }
  return 'disagree';
}

/**
 * Compares external identifiers ("type:value"): an identifier of the same type equal; one
 * character apart; all of the shared types differ; missing when the records share no type.
 */
export function compareIdentifiers(a: readonly string[], b: readonly string[], levels = ALL_LEVELS): LevelName {
  if (a.length === 0 || b.length === 0) return 'missing';
  let shared = false;
  let typo = false;
  for (const x of a) {
    // The type, through the first ':' (none: every value shares it), compared in place.
    const type = x.indexOf(':') + 1;
    for (const y of b) {
      if (!samePrefix(x, y, type)) continue;
      if (x === y) return 'exact';
      shared = true;
      if (!typo && (levels & B_TYPO) !== 0 && withinOneEdit(x, y)) typo = true;
    }
  }
  if (!shared) return 'missing';
  return typo ? 'typo' : 'disagree';
}

/** True when `y` begins with the first `n` characters of `x` (`y.startsWith(x.slice(0, n))`, without the slice). */
function samePrefix(x: string, y: string, n: number): boolean {
  if (y.length < n) return false;
  for (let i = 0; i < n; i++) if (x.charCodeAt(i) !== y.charCodeAt(i)) return false;
  return true;
}

/** Compares short codes (postal code, street number): equal, one character apart, same first three, disagree. */
export function compareCode(a: string | null, b: string | null, levels = ALL_LEVELS): LevelName {
  if (a === null || b === null) return 'missing';
  if (a === b) return 'exact';
  // One edit or one swap of neighbours apart (Levenshtein 1 or an adjacent transposition): for
  // two different codes, exactly withinOneEdit, which allocates nothing.
  if ((levels & B_TYPO) !== 0 && withinOneEdit(a, b)) return 'typo';
  if ((levels & B_PREFIX) !== 0 && a.length >= 4 && b.length >= 4 && sameRange(a, b, 0, 3)) return 'prefix';
  return 'disagree';
}

/** Compares free text (street, city, building, attribute) by Jaro-Winkler on the compact form. */
export function compareText(a: string | null, b: string | null, high = 0.92, low = 0.85, levels = ALL_LEVELS): LevelName {
  if (a === null || b === null) return 'missing';
  if (a === b || equalWithoutSpaces(a, b)) return 'exact';
  if ((levels & (B_FUZZY_HIGH | B_FUZZY_LOW)) === 0) return 'disagree';
  // Jaro-Winkler of the compact forms (name.ts compactName), which most pairs never need.
  const jw = compactJaroWinklerFrom(a, b, Math.min((levels & B_FUZZY_HIGH) !== 0 ? high : 1, (levels & B_FUZZY_LOW) !== 0 ? low : 1));
  if ((levels & B_FUZZY_HIGH) !== 0 && jw >= high) return 'fuzzy-high';
  if ((levels & B_FUZZY_LOW) !== 0 && jw >= low) return 'fuzzy-low';
  return 'disagree';
}

const WORD = /[\p{L}\p{N}]{3,}/gu;
const SMALL_NUMBER = /^\d{1,3}$/;

/**
 * Compares free-text attribute values (a birth place, an occupation, an age): equal, nearly
 * equal (Jaro-Winkler >= `high`, or whole numbers of up to three digits one apart: an age a
 * year later), sharing a word of three characters or more ("leeds, yorks" / "leeds", "farm
 * labourer" / "labourer"), or different.
 */
export function compareAttribute(a: string | null, b: string | null, high = 0.92, levels = ALL_LEVELS): LevelName {
  const level = compareText(a, b, high, high, levels);
  if (level === 'disagree' && (levels & B_FUZZY_HIGH) !== 0 && SMALL_NUMBER.test(a as string) && SMALL_NUMBER.test(b as string)) {
    if (Math.abs(Number(a) - Number(b)) === 1) return 'fuzzy-high';
  }
  if (level !== 'disagree' || (levels & B_PART) === 0) return level;
  const words = (a as string).match(WORD);
  if (words === null) return 'disagree';
  for (const w of (b as string).match(WORD) ?? []) if (words.includes(w)) return 'part';
  return 'disagree';
}

/** Compares values where only equality counts (state). */
export function compareEqual(a: string | null, b: string | null): LevelName {
  if (a === null || b === null) return 'missing';
  return a === b ? 'exact' : 'disagree';
}

export { compareUnit };

/** The address-part levels of one pair of addresses. */
export interface AddressLevels {
  zip5: LevelName;
  streetNumber: LevelName;
  streetName: LevelName;
  building: LevelName;
  unit: LevelName;
  city: LevelName;
  state: LevelName;
}

/** Enabled levels of each address part (masks); every level when absent. */
export interface AddressLevelMasks {
  readonly zip5: number;
  readonly streetNumber: number;
  readonly streetName: number;
  readonly city: number;
}

const ALL_ADDRESS_LEVELS: AddressLevelMasks = { zip5: ALL_LEVELS, streetNumber: ALL_LEVELS, streetName: ALL_LEVELS, city: ALL_LEVELS };

/** True when two addresses have the same street number and the same street name (as written, folded). */
function sameBuilding(a: NormalizedAddress, b: NormalizedAddress): boolean {
  return a.number !== null && a.number === b.number && a.street !== null && a.street === b.street;
}

/** Compares every part of two addresses. */
export function compareAddress(a: NormalizedAddress, b: NormalizedAddress, masks: AddressLevelMasks = ALL_ADDRESS_LEVELS): AddressLevels {
  return {
    zip5: compareCode(a.zip, b.zip, masks.zip5),
    streetNumber: hyphenDropped(a.number, b.number) ? 'exact' : compareCode(a.number, b.number, masks.streetNumber),
    streetName: streetLevel(compareText(a.street, b.street, 0.92, 0.85, masks.streetName), a.street, b.street, (masks.streetName & B_FUZZY_HIGH) !== 0),
    building: compareText(a.building, b.building),
    // A flat is compared only within one building: another street's units say nothing more.
    unit: sameBuilding(a, b) ? compareUnit(a.unit, b.unit) : 'missing',
    city: compareText(a.city, b.city, 0.92, 0.85, masks.city),
    state: compareEqual(a.state, b.state),
  };
}

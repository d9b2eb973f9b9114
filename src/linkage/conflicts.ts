/**
 * Conflicts between rows that clustering must keep apart: two rows whose first names,
 * surnames, dates of birth or identifiers clearly differ are different people, however they
 * came to be linked through a third (a twin through a shared email, a father through a
 * son's record without a date of birth). Clearly: a typo, a nickname, an initial, a
 * transposed day and month, a one-digit slip or a swap of first and last names is no
 * conflict.
 */
import {
  compareDate,
  compareFirstName,
  compareIdentifiers,
  DEFAULT_NICKNAMES,
  namesSwapped,
  phoneticKey,
  type NameCompareOptions,
} from '../engine/index.js';

/** What clustering reads of some rows (parallel arrays; identifiers joined by U+0001). */
export interface RowSignatures {
  readonly rows: number[];
  readonly first: (string | null)[];
  readonly middle: (string | null)[];
  readonly last: (string | null)[];
  readonly dob: (string | null)[];
  readonly identifiers: (string | null)[];
  readonly suffix: (string | null)[];
  readonly sex: (string | null)[];
}

/** One row's signature. */
export interface Signature {
  readonly first: string | null;
  readonly middle: string | null;
  readonly last: string | null;
  readonly dob: string | null;
  readonly identifiers: readonly string[];
  readonly suffix: string | null;
  readonly sex: string | null;
}

/** Signatures by row. */
export function signatureMap(s: RowSignatures): Map<number, Signature> {
  const out = new Map<number, Signature>();
  s.rows.forEach((row, i) => {
    const ids = s.identifiers[i] ?? null;
    out.set(row, {
      first: s.first[i] ?? null, middle: s.middle[i] ?? null, last: s.last[i] ?? null, dob: s.dob[i] ?? null,
      identifiers: ids === null ? [] : ids.split('\u0001'), suffix: s.suffix[i] ?? null, sex: s.sex[i] ?? null,
    });
  });
  return out;
}

/** Names compared leniently: only names that share nothing (no nickname, typo, initial, sound or 70% similarity) differ. */
const NAMES: NameCompareOptions = { nicknames: DEFAULT_NICKNAMES, strict: false, fuzzyHigh: 0.92, fuzzyLow: 0.7, soundOf: phoneticKey };

/** Years between two dates of birth from which they are two people's, not one person's with an error. */
export const CONFLICTING_BIRTH_YEARS = 5;

/** True when a row has a first name or a surname. */
export function isNamed(s: Signature): boolean {
  return s.first !== null || s.last !== null;
}

/**
 * Why two rows cannot be the same person, or null when nothing says so: dates of birth
 * {@link CONFLICTING_BIRTH_YEARS} or more years apart (not a typo, a transposition, a swapped
 * day and month), identifiers of one type that differ by more than a character, Jr against
 * Sr, male against female, or first names that share nothing. A surname may change (marriage)
 * and is no conflict.
 */
export function conflictOf(a: Signature, b: Signature): string | null {
  if (a.dob !== null && b.dob !== null && compareDate(a.dob, b.dob) === 'disagree' && Math.abs(Number(a.dob.slice(0, 4)) - Number(b.dob.slice(0, 4))) >= CONFLICTING_BIRTH_YEARS) {
    return 'dates of birth years apart';
  }
  if (compareIdentifiers(a.identifiers, b.identifiers) === 'disagree') return 'identifiers differ';
  if (a.suffix !== null && b.suffix !== null && a.suffix !== b.suffix) return 'generational suffixes differ';
  if (a.sex !== null && b.sex !== null && a.sex !== b.sex) return 'sexes differ';
  const swapped = a.first !== null && a.last !== null && b.first !== null && b.last !== null && namesSwapped(a.first, a.last, b.first, b.last);
  if (swapped) return null;
  if (compareFirstName(a.first, b.first, NAMES, undefined, a.middle, b.middle) === 'disagree') return 'first names differ';
  return null;
}

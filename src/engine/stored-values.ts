/**
 * Comparing a lookup's emails, phones and identifiers with a stored record's where the record
 * store keeps them (UTF-16 code units, record-store.ts), without building the record's
 * strings: the same levels as compare.ts compareEmails, comparePhones and compareIdentifiers.
 * Building them was the largest single cost of scoring a candidate at a million records (a
 * cache miss and a string per value, for values that mostly differ); a file's identifier (one
 * per record, FEBRL's social security number) was decoded for every candidate pair.
 *
 * A stored list is `n` values whose (offset, length) pairs start at `lists[k]`.
 */
import { MIN_MAILBOX_NAME, NEAR_MAILBOX_EDITS, nearEmailEdits } from './compare.js';
import { levelBit, type LevelName } from './comparisons.js';

const B_FUZZY_HIGH = levelBit('fuzzy-high');
const B_FUZZY_LOW = levelBit('fuzzy-low');
const B_TYPO = levelBit('typo');
const B_PARTIAL = levelBit('partial');
/** Code unit of ':', which ends an identifier's type (contact.ts: "type:value"). */
const COLON = 58;
/** Code unit of the local-phone prefix 'L' (compare.ts LOCAL_PHONE_PREFIX). */
const LOCAL = 76;
/** Code units of '.' and '@'. */
const DOT = 46;
const AT = 64;
/** Suffix compared by the 'partial' phone level. */
const LOCAL_DIGITS = 7;

/** A record whose emails and phones are compared where they are stored (record-store.ts RecordView). */
export interface StoredLists {
  /** compareEmails(q, this record's emails, levels, shared). */
  emailLevel(q: readonly string[], levels: number, shared?: (email: string) => boolean): LevelName;
  /** comparePhones(q, this record's phones). */
  phoneLevel(q: readonly string[], levels: number): LevelName;
  /** compareIdentifiers(q, this record's identifiers, levels). */
  identifierLevel(q: readonly string[], levels: number): LevelName;
  /** True when this record holds the email (mailbox form). */
  holdsEmail(value: string): boolean;
  /** True when this record holds the phone. */
  holdsPhone(value: string): boolean;
}

/** True when `units[at..at+len)` spells `s`. */
export function unitsEqual(units: Uint16Array, at: number, len: number, s: string): boolean {
  if (len !== s.length) return false;
  for (let i = 0; i < len; i++) if (units[at + i] !== s.charCodeAt(i)) return false;
  return true;
}

/** True when the stored list holds `value`. */
export function storedHolds(units: Uint16Array, lists: Int32Array, k: number, n: number, value: string): boolean {
  for (let i = 0; i < n; i++) if (unitsEqual(units, lists[k + 2 * i] as number, lists[k + 2 * i + 1] as number, value)) return true;
  return false;
}

let previous = new Int32Array(64);
let current = new Int32Array(64);
const FAR = 1 << 20;

/** True when the Levenshtein distance between `units[at..at+m)` and `s` is at most 2. */
export function unitsWithinTwoEdits(units: Uint16Array, at: number, m: number, s: string): boolean {
  return unitsWithinEdits(units, at, m, s, 2);
}

/**
 * True when the Levenshtein distance between `units[at..at+m)` and `s`'s first `n` code units
 * (all of them by default) is at most `k` (the band of the edit table within `k` of its
 * diagonal; any cell outside it costs more than `k`).
 */
export function unitsWithinEdits(units: Uint16Array, at: number, m: number, s: string, k: number, n = s.length): boolean {
  if (m - n > k || n - m > k) return false;
  if (previous.length <= n + 1) {
    previous = new Int32Array(2 * (n + 2));
    current = new Int32Array(2 * (n + 2));
  }
  let prev = previous;
  let cur = current;
  for (let j = 0; j <= n; j++) prev[j] = j <= k ? j : FAR;
  for (let i = 1; i <= m; i++) {
    const lo = Math.max(1, i - k);
    const hi = Math.min(n, i + k);
    cur[lo - 1] = lo === 1 ? i : FAR;
    let best = cur[lo - 1] as number;
    const ch = units[at + i - 1] as number;
    for (let j = lo; j <= hi; j++) {
      const substitute = (prev[j - 1] as number) + (ch === s.charCodeAt(j - 1) ? 0 : 1);
      const remove = (prev[j] as number) + 1;
      const insert = (cur[j - 1] as number) + 1;
      const v = substitute < remove ? (substitute < insert ? substitute : insert) : remove < insert ? remove : insert;
      cur[j] = v;
      if (v < best) best = v;
    }
    if (hi < n) cur[hi + 1] = FAR;
    if (best > k) return false;
    const t = prev;
    prev = cur;
    cur = t;
  }
  return (prev[n] as number) <= k;
}

/**
 * compare.ts compareEmails(q, the stored list): any equal, any nearly equal (six characters or
 * more, two edits), the same mailbox name at another domain, a few characters apart, else disagree.
 */
export function storedEmailLevel(
  units: Uint16Array,
  lists: Int32Array,
  k: number,
  n: number,
  q: readonly string[],
  levels: number,
  shared?: (email: string) => boolean,
): LevelName {
  if (q.length === 0 || n === 0) return 'missing';
  for (const x of q) if (storedHolds(units, lists, k, n, x)) return 'exact';
  let near = false;
  if ((levels & (B_FUZZY_HIGH | B_TYPO)) !== 0) {
    for (const x of q) {
      if (x.length < 6) continue;
      for (let i = 0; i < n; i++) {
        const len = lists[k + 2 * i + 1] as number;
        if (len < 6) continue;
        const at = lists[k + 2 * i] as number;
        if ((levels & B_FUZZY_HIGH) !== 0 && unitsWithinTwoEdits(units, at, len, x)) return 'fuzzy-high';
        if (!near && (levels & B_TYPO) !== 0) {
          const most = nearEmailEdits(len, x.length);
          // The mailbox names first: the shorter test, and strangers' differ there.
          near =
            (most > 2 || (levels & B_FUZZY_HIGH) === 0) &&
            unitsNearMailbox(units, at, len, x) &&
            unitsWithinEdits(units, at, len, x, most) &&
            shared?.(x) !== true;
        }
      }
    }
  }
  if ((levels & B_FUZZY_LOW) !== 0) {
    for (const x of q) {
      const xAt = x.indexOf('@');
      if (xAt < MIN_MAILBOX_NAME) continue;
      for (let i = 0; i < n; i++) {
        if (!unitsSameMailbox(units, lists[k + 2 * i] as number, lists[k + 2 * i + 1] as number, x, xAt)) continue;
        if (shared?.(x) === true) break;
        return 'fuzzy-low';
      }
    }
  }
  return near ? 'typo' : 'disagree';
}

/** True when the mailbox names (before the last @) of a stored email and `x` are at most NEAR_MAILBOX_EDITS apart. */
function unitsNearMailbox(units: Uint16Array, at: number, len: number, x: string): boolean {
  let end = at + len - 1;
  while (end >= at && units[end] !== AT) end--;
  const xAt = x.lastIndexOf('@');
  return unitsWithinEdits(units, at, end < at ? len : end - at, x, NEAR_MAILBOX_EDITS, xAt < 0 ? x.length : xAt);
}

/**
 * True when a stored email and `x` (whose first @ is at `xAt`) have the same mailbox name (before
 * the first @), dots left out, of at least MIN_MAILBOX_NAME characters (compare.ts mailboxName),
 * read in place: most pairs stop at their first letters.
 */
function unitsSameMailbox(units: Uint16Array, at: number, len: number, x: string, xAt: number): boolean {
  const end = at + len;
  let i = at;
  let j = 0;
  let count = 0;
  for (;;) {
    while (i < end && units[i] === DOT) i++;
    while (j < xAt && x.charCodeAt(j) === DOT) j++;
    const c = i < end ? (units[i] as number) : -1;
    if (j === xAt) return c === AT && count >= MIN_MAILBOX_NAME;
    if (c !== x.charCodeAt(j)) return false;
    i++;
    j++;
    count++;
  }
}

/** True when the last (up to) seven code units of a stored value and of `s` are the same (`slice(-7)` of both). */
function sameLocalDigits(units: Uint16Array, at: number, len: number, s: string): boolean {
  const a = Math.min(LOCAL_DIGITS, len);
  const b = Math.min(LOCAL_DIGITS, s.length);
  if (a !== b) return false;
  for (let i = 1; i <= a; i++) if (units[at + len - i] !== s.charCodeAt(s.length - i)) return false;
  return true;
}

/** compare.ts comparePhones(q, the stored list): any equal, a local number's seven digits equal, else disagree. */
export function storedPhoneLevel(units: Uint16Array, lists: Int32Array, k: number, n: number, q: readonly string[], levels: number): LevelName {
  if (q.length === 0 || n === 0) return 'missing';
  for (const x of q) if (storedHolds(units, lists, k, n, x)) return 'exact';
  if ((levels & B_PARTIAL) !== 0) {
    for (const x of q) {
      const xl = x.charCodeAt(0) === LOCAL;
      for (let i = 0; i < n; i++) {
        const at = lists[k + 2 * i] as number;
        const len = lists[k + 2 * i + 1] as number;
        const yl = len > 0 && units[at] === LOCAL;
        if ((xl || yl) && sameLocalDigits(units, at, len, x)) return 'partial';
      }
    }
  }
  return 'disagree';
}

/** True when `units[at..at+len)` begins with the first `n` code units of `s`. */
function unitsStartWith(units: Uint16Array, at: number, len: number, s: string, n: number): boolean {
  if (len < n) return false;
  for (let i = 0; i < n; i++) if (units[at + i] !== s.charCodeAt(i)) return false;
  return true;
}

/** True when `units[at + i..at + m)` and `s.slice(j)` are the same. */
function unitsSameFrom(units: Uint16Array, at: number, m: number, s: string, i: number, j: number): boolean {
  if (m - i !== s.length - j) return false;
  for (; i < m; i++, j++) if (units[at + i] !== s.charCodeAt(j)) return false;
  return true;
}

/**
 * similarity.ts withinOneEdit of `units[at..at+m)` and `s`, read in place: at most one
 * insertion, deletion, substitution or swap of neighbours apart.
 */
export function unitsWithinOneEdit(units: Uint16Array, at: number, m: number, s: string): boolean {
  const n = s.length;
  if (m - n > 1 || n - m > 1) return false;
  let i = 0;
  while (i < m && i < n && units[at + i] === s.charCodeAt(i)) i++;
  if (m === n) {
    if (i === m || unitsSameFrom(units, at, m, s, i + 1, i + 1)) return true;
    return i + 1 < m && units[at + i] === s.charCodeAt(i + 1) && units[at + i + 1] === s.charCodeAt(i) && unitsSameFrom(units, at, m, s, i + 2, i + 2);
  }
  return m > n ? unitsSameFrom(units, at, m, s, i + 1, i) : unitsSameFrom(units, at, m, s, i, i + 1);
}

/**
 * compare.ts compareIdentifiers(q, the stored list): any equal; else, among values of the same
 * type (the text up to the first ':' of the lookup's, inclusive), one a typo of the other
 * (the 'typo' level, where enabled) or none; no value of a shared type: missing.
 */
export function storedIdentifierLevel(units: Uint16Array, lists: Int32Array, k: number, n: number, q: readonly string[], levels: number): LevelName {
  if (q.length === 0 || n === 0) return 'missing';
  let shared = false;
  let typo = false;
  for (const x of q) {
    let type = 0;
    while (type < x.length && x.charCodeAt(type) !== COLON) type++;
    // Through the colon; a value without one has no type, and shares it with every value.
    type = type < x.length ? type + 1 : 0;
    for (let i = 0; i < n; i++) {
      const at = lists[k + 2 * i] as number;
      const len = lists[k + 2 * i + 1] as number;
      if (!unitsStartWith(units, at, len, x, type)) continue;
      if (unitsEqual(units, at, len, x)) return 'exact';
      shared = true;
      if (!typo && (levels & B_TYPO) !== 0 && unitsWithinOneEdit(units, at, len, x)) typo = true;
    }
  }
  if (!shared) return 'missing';
  return typo ? 'typo' : 'disagree';
}

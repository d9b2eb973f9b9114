/**
 * String similarity measures used by the comparators.
 *
 * Jaro-Winkler is our own (about 25 lines): measured identical to `natural`'s on 200k name
 * pairs and as fast or faster, without natural's 77 MB of dependencies and its stdout
 * banner on load (bench/deps.bench.ts). Levenshtein comes from `fastest-levenshtein`,
 * 6-14x faster than natural's.
 */
import { distance } from 'fastest-levenshtein';

/** Winkler's prefix scale: how much a common prefix (up to 4 chars) raises the score. 0-0.25. */
export const JARO_WINKLER_PREFIX_SCALE = 0.1;

/**
 * Jaro-Winkler similarity in [0, 1]; 1 for equal strings, 0 when nothing matches.
 * Symmetric. Two empty strings are equal (1). Allocation-free for strings of up to 31
 * characters (matched positions kept as bits), which is every name.
 */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0) return 0;
  // Iterate over the shorter string so the result does not depend on argument order.
  if (la > lb) return jaroWinkler(b, a);
  if (lb > 31) return jaroWinklerLong(a, b);
  const window = Math.max(0, (lb >> 1) - 1);
  let matchedA = 0;
  let matchedB = 0;
  let matches = 0;
  for (let i = 0; i < la; i++) {
    const lo = Math.max(0, i - window);
    const hi = Math.min(lb - 1, i + window);
    const ch = a.charCodeAt(i);
    for (let j = lo; j <= hi; j++) {
      if ((matchedB & (1 << j)) === 0 && b.charCodeAt(j) === ch) {
        matchedA |= 1 << i;
        matchedB |= 1 << j;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < la; i++) {
    if ((matchedA & (1 << i)) === 0) continue;
    while ((matchedB & (1 << k)) === 0) k++;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions++;
    k++;
  }
  return winkler(a, b, la, lb, matches, transpositions);
}

/** How far below `least` the ceiling of {@link jaroWinklerFrom} must be to skip the comparison: rounding, many times over. */
const CEILING_MARGIN = 1e-9;

/**
 * {@link jaroWinkler} where it can reach `least`; elsewhere a number below `least` (a ceiling
 * of it) found without matching the strings. Comparing the answer with any threshold of
 * `least` or more says what comparing {@link jaroWinkler}'s would. Most pairs of a file are
 * strangers, whose streets and names share too few letters to come near a threshold of 0.85
 * or more: counting the letters of each found anywhere in the other is a pass over each,
 * where matching them scans a window of the other for each letter.
 *
 * The ceiling: a matched letter of `a` occurs in `b` and one of `b` in `a`, so at most
 * m = min(letters of `a` found in `b`, letters of `b` found in `a`) match; Jaro is then at
 * most (m/|a| + m/|b| + 1) / 3 (no transpositions), and Winkler's boost, with the same common
 * prefix, grows with Jaro.
 */
export function jaroWinklerFrom(a: string, b: string, least: number): number {
  if (a === b) return 1;
  const ceiling = jaroWinklerCeiling(a, b, -1);
  return ceiling < least - CEILING_MARGIN ? ceiling : jaroWinkler(a, b);
}

/**
 * {@link jaroWinklerFrom} of the two strings without their spaces (compactName's form, in which
 * streets and cities are compared), reading them as they are: the spaces are taken out only
 * where Jaro-Winkler itself is computed.
 */
export function compactJaroWinklerFrom(a: string, b: string, least: number): number {
  if (a === b) return 1;
  const ceiling = jaroWinklerCeiling(a, b, SPACE);
  return ceiling < least - CEILING_MARGIN ? ceiling : jaroWinkler(withoutSpaces(a), withoutSpaces(b));
}

/** True when the two strings are equal once their spaces are taken out. */
export function equalWithoutSpaces(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < a.length && a.charCodeAt(i) === SPACE) i++;
    while (j < b.length && b.charCodeAt(j) === SPACE) j++;
    if (i === a.length || j === b.length) return i === a.length && j === b.length;
    if (a.charCodeAt(i) !== b.charCodeAt(j)) return false;
    i++;
    j++;
  }
}

const SPACE = 32;

function withoutSpaces(text: string): string {
  return text.indexOf(' ') === -1 ? text : text.replace(/ /g, '');
}

/**
 * The ceiling of {@link jaroWinklerFrom} (1 for strings equal but for `skip`), of the strings
 * without the character `skip` (-1: none).
 */
function jaroWinklerCeiling(a: string, b: string, skip: number): number {
  // Letters a-z as bits of one word; any other character hashed to a bit of a second (a
  // collision only counts too many letters, which keeps the ceiling a ceiling).
  let lettersA = 0;
  let othersA = 0;
  let la = 0;
  for (let i = 0; i < a.length; i++) {
    const c = a.charCodeAt(i);
    if (c === skip) continue;
    la++;
    if (c >= 97 && c <= 122) lettersA |= 1 << (c - 97);
    else othersA |= 1 << (c & 31);
  }
  let lettersB = 0;
  let othersB = 0;
  let lb = 0;
  for (let j = 0; j < b.length; j++) {
    const c = b.charCodeAt(j);
    if (c === skip) continue;
    lb++;
    if (c >= 97 && c <= 122) lettersB |= 1 << (c - 97);
    else othersB |= 1 << (c & 31);
  }
  if (la === 0 || lb === 0) return la === lb ? 1 : 0;
  let inB = 0;
  for (let i = 0; i < a.length; i++) {
    const c = a.charCodeAt(i);
    if (c !== skip && (c >= 97 && c <= 122 ? (lettersB & (1 << (c - 97))) !== 0 : (othersB & (1 << (c & 31))) !== 0)) inB++;
  }
  let inA = 0;
  for (let j = 0; j < b.length; j++) {
    const c = b.charCodeAt(j);
    if (c !== skip && (c >= 97 && c <= 122 ? (lettersA & (1 << (c - 97))) !== 0 : (othersA & (1 << (c & 31))) !== 0)) inA++;
  }
  const m = Math.min(inA, inB);
  if (m === 0) return 0;
  const jaro = (m / la + m / lb + 1) / 3;
  // The common prefix (at most 4) of the strings without `skip`.
  let prefix = 0;
  const maxPrefix = Math.min(4, la, lb);
  for (let i = 0, j = 0; prefix < maxPrefix; prefix++, i++, j++) {
    while (a.charCodeAt(i) === skip) i++;
    while (b.charCodeAt(j) === skip) j++;
    if (a.charCodeAt(i) !== b.charCodeAt(j)) break;
  }
  return jaro + prefix * JARO_WINKLER_PREFIX_SCALE * (1 - jaro);
}

function winkler(a: string, b: string, la: number, lb: number, m: number, transpositions: number): number {
  const jaro = (m / la + m / lb + (m - transpositions / 2) / m) / 3;
  let prefix = 0;
  const maxPrefix = Math.min(4, la);
  while (prefix < maxPrefix && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return jaro + prefix * JARO_WINKLER_PREFIX_SCALE * (1 - jaro);
}

/** The same for strings longer than 31 characters, with arrays for the matched flags. */
function jaroWinklerLong(a: string, b: string): number {
  const la = a.length;
  const lb = b.length;
  const window = Math.max(0, (lb >> 1) - 1);
  const matchedB = new Uint8Array(lb);
  const matchedA = new Uint8Array(la);
  let matches = 0;
  for (let i = 0; i < la; i++) {
    const lo = Math.max(0, i - window);
    const hi = Math.min(lb - 1, i + window);
    const ch = a.charCodeAt(i);
    for (let j = lo; j <= hi; j++) {
      if (matchedB[j] === 0 && b.charCodeAt(j) === ch) {
        matchedA[i] = 1;
        matchedB[j] = 1;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < la; i++) {
    if (matchedA[i] === 0) continue;
    while (matchedB[k] === 0) k++;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions++;
    k++;
  }
  return winkler(a, b, la, lb, matches, transpositions);
}

/** Levenshtein edit distance (insert, delete, substitute each cost 1). Symmetric. */
export function levenshtein(a: string, b: string): number {
  return a === b ? 0 : distance(a, b);
}

/**
 * True when `a` and `b` differ by exactly one adjacent transposition ("1975" / "1957").
 * Levenshtein counts that as two edits; typists make it as one.
 */
export function isAdjacentTransposition(a: string, b: string): boolean {
  if (a.length !== b.length || a === b) return false;
  let first = -1;
  for (let i = 0; i < a.length; i++) {
    if (a.charCodeAt(i) !== b.charCodeAt(i)) {
      if (first === -1) first = i;
      else if (i === first + 1) {
        return a[first] === b[i] && a[i] === b[first] && a.slice(i + 1) === b.slice(i + 1);
      } else return false;
    }
  }
  return false;
}

/**
 * True when `a` and `b` are at most one edit apart, counting an adjacent transposition as
 * one edit (optimal-string-alignment Damerau-Levenshtein distance <= 1). Linear time, no
 * allocation. Symmetric.
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (la - lb > 1 || lb - la > 1) return false;
  let i = 0;
  while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (la === lb) {
    // One substitution, or one adjacent transposition at i.
    if (sameFrom(a, b, i + 1, i + 1)) return true;
    return i + 1 < la && a.charCodeAt(i) === b.charCodeAt(i + 1) && a.charCodeAt(i + 1) === b.charCodeAt(i) && sameFrom(a, b, i + 2, i + 2);
  }
  // One insertion or deletion at i.
  return la > lb ? sameFrom(a, b, i + 1, i) : sameFrom(a, b, i, i + 1);
}

/** Rows of {@link withinTwoEdits}' table (reused: scoring is synchronous). */
const OSA_ROWS = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * True when `a` and `b` are at most two edits apart, counting an adjacent transposition as
 * one edit (optimal-string-alignment Damerau-Levenshtein distance <= 2): two keyboard slips
 * or OCR confusions, one of them a swap of neighbouring letters ("nacnu"/"nancy"), which
 * Levenshtein counts as three. The common prefix and suffix are skipped; the table stops as
 * soon as a row exceeds two. No allocation for strings of up to 62 characters. Symmetric.
 */
export function withinTwoEdits(a: string, b: string): boolean {
  if (a === b) return true;
  let la = a.length;
  let lb = b.length;
  if (la - lb > 2 || lb - la > 2) return false;
  let start = 0;
  while (start < la && start < lb && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  while (la > start && lb > start && a.charCodeAt(la - 1) === b.charCodeAt(lb - 1)) {
    la--;
    lb--;
  }
  const n = la - start;
  const m = lb - start;
  if (n <= 2 && m <= 2) return true;
  if (n === 0 || m === 0) return false;
  if (m + 1 > 64) return levenshtein(a, b) <= 2;
  let prev2 = OSA_ROWS[0] as Int32Array;
  let prev = OSA_ROWS[1] as Int32Array;
  let cur = OSA_ROWS[2] as Int32Array;
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let least = i;
    const ca = a.charCodeAt(start + i - 1);
    for (let j = 1; j <= m; j++) {
      const cb = b.charCodeAt(start + j - 1);
      let d = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(start + j - 2) && a.charCodeAt(start + i - 2) === cb) d = Math.min(d, (prev2[j - 2] as number) + 1);
      cur[j] = d;
      if (d < least) least = d;
    }
    if (least > 2) return false;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return (prev[m] as number) <= 2;
}

function sameFrom(a: string, b: string, i: number, j: number): boolean {
  if (a.length - i !== b.length - j) return false;
  for (; i < a.length; i++, j++) if (a.charCodeAt(i) !== b.charCodeAt(j)) return false;
  return true;
}

/**
 * Letters that OCR reads as one another which {@link ocrFold} cannot fold to one form (each
 * letter is confused with several others: "c" with "e", "o" and "g"), as pairs of an OCR
 * fold: c/e, c/o, a/o, d/o, o/q, g/q, c/g, u/v, v/y, n/h, f/t, t/i (t/l), e/f, p/r. Sources:
 * the confusion matrices of printed-text OCR (Rice, Jenkins and Nartker 1996; Tong and Evans
 * 1996, "A statistical approach to automatic OCR error correction").
 */
const OCR_LETTER_PAIRS: ReadonlySet<number> = new Set(
  ['ce', 'co', 'ao', 'do', 'oq', 'gq', 'cg', 'uv', 'vy', 'hn', 'ft', 'it', 'ef', 'pr'].map((p) => p.charCodeAt(0) * 128 + p.charCodeAt(1)),
);

function lettersConfused(x: number, y: number): boolean {
  return OCR_LETTER_PAIRS.has(x < y ? x * 128 + y : y * 128 + x);
}

/**
 * True when two OCR folds ({@link ocrFold}) of the same length differ only in one or two
 * letters OCR confuses ({@link OCR_LETTER_PAIRS}; two only in four letters or more):
 * "rcsc"/"rose", "ngvyen"/"nguyen". Allocation-free.
 */
export function ocrConfusions(a: string, b: string): boolean {
  const n = a.length;
  if (n !== b.length) return false;
  let diffs = 0;
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (++diffs > (n >= 4 ? 2 : 1) || !lettersConfused(x, y)) return false;
  }
  return true;
}

/**
 * Character sequences that optical character recognition confuses, each with the form both
 * are read as: a scanned "rn" is often read as "m", "0" as "o", "1" and "l" as "i". Applied
 * by {@link ocrFold} so that one OCR confusion costs one edit at most ("rnary"/"mary",
 * "j0hn"/"john", "wi11iam"/"william"). Sources: the confusion pairs reported for
 * commercial OCR engines on typewritten and printed forms (e.g. Rice, Jenkins and Nartker,
 * "The Fifth Annual Test of OCR Accuracy", 1996).
 */
export const OCR_CONFUSIONS: readonly (readonly [string, string])[] = 'rn:m vv:w cl:d 0:o 1:i l:i |:i !:i 5:s 8:b 6:b 9:g 2:z 4:a 3:e 7:t'
  .split(' ')
  .map((pair) => pair.split(':') as [string, string]);

/** The letter each single character, and each pair (first code * 128 + second), of {@link OCR_CONFUSIONS} is read as (0: none). */
const OCR_SINGLE = new Uint16Array(128);
const OCR_PAIR = new Uint16Array(128 * 128);
for (const [from, to] of OCR_CONFUSIONS) {
  if (from.length === 1) OCR_SINGLE[from.charCodeAt(0)] = to.charCodeAt(0);
  else OCR_PAIR[from.charCodeAt(0) * 128 + from.charCodeAt(1)] = to.charCodeAt(0);
}

/** The pair of characters at `i` of {@link OCR_CONFUSIONS} read as one letter: its code, or 0. */
function ocrPairAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  const d = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
  return c < 128 && d < 128 ? (OCR_PAIR[c * 128 + d] as number) : 0;
}

/** True when "ri" or "ii" (a letter read as two narrow ones: n, h) starts at `i`. */
function splitAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return (c === 114 || c === 105) && i + 1 < text.length && text.charCodeAt(i + 1) === 105;
}

/**
 * A (folded, compact) string with OCR confusions undone: each of {@link OCR_CONFUSIONS} read
 * as its letter (the pairs first, left to right), then "ri" as "n" and "ii" as "h", letters
 * read as two narrow ones once "l" and "1" are "i" ("anthoriy", "elizabetli"). Two values
 * whose OCR folds are one edit apart are one OCR error apart.
 */
export function ocrFold(text: string): string {
  if (!ocrFoldChanges(text)) return text;
  let read = '';
  for (let i = 0; i < text.length; i++) {
    const pair = ocrPairAt(text, i);
    const c = text.charCodeAt(i);
    if (pair !== 0) read += String.fromCharCode(pair);
    else read += c < 128 && OCR_SINGLE[c] !== 0 ? String.fromCharCode(OCR_SINGLE[c] as number) : text.charAt(i);
    if (pair !== 0) i++;
  }
  let out = '';
  for (let i = 0; i < read.length; i++) {
    const split = splitAt(read, i);
    out += split ? (read.charCodeAt(i) === 114 ? 'n' : 'h') : read.charAt(i);
    if (split) i++;
  }
  return out;
}

/** False when {@link ocrFold} leaves `text` as it is (most names): nothing it replaces. */
function ocrFoldChanges(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 128 && OCR_SINGLE[c] !== 0) || ocrPairAt(text, i) !== 0 || splitAt(text, i)) return true;
  }
  return false;
}

/**
 * One street written two ways. Numbered roads and rural routes are written one way (USPS Publication 28 237 highways, 24
 * rural routes, 25 highway contract routes): "CR 12", "Co Rd 12", "County Road 12" and
 * "County Hwy 12" are one road, as are "SR 9", "St Rt 9", "State Route 9", "State Road 9",
 * "State Hwy 9" (Ohio writes SR for its routes, Florida for its roads), "I-95" and
 * "Interstate 95", "FM 1960" and "Farm to Market Road 1960", "RR 2", "Rural Route 2" and
 * "RFD 2". A voter file writes one form and a canvassing app or a form another; compared as
 * text they were other streets (Jaro-Winkler of "cr 12" and "county rd 12" is far below any
 * level). Only before a road's number: "State St" and "County Line Rd" are names.
 *
 * Kinds stay apart: a county road and a state route of one number are two roads in one
 * county, and a plain "Route 9" or "Highway 9" may be either, so it is left as written.
 *
 * A directional written before the street by one and after it by another ("N Main St" /
 * "Main St N") is read at comparison ({@link directionalMoved}): a city that has both is
 * rare, and its two streets then differ in their house numbers' ranges. Two different
 * directionals are two streets ({@link directionalsDiffer}): "1st St N" and "1st St S" are
 * miles apart in a grid city, however alike their letters; so are two numbers
 * ({@link numbersDiffer}: "W 35th St" / "W 47th St", "PO Box 12" / "PO Box 99"), and
 * numbers one slip apart ({@link numbersOneSlipApart}: "W 35th St" / "W 36th St") stay
 * nearly equal in the CRM's street names (a typo more often than the next street).
 */
import { DIRECTIONALS as DIRECTIONAL_TABLE } from './address-tables.js';
import type { LevelName } from './comparisons.js';
import { withinOneEdit } from './similarity.js';

/** A road's number: "9", "9W", "1960". */
const ROAD_NUMBER = /^\d+[a-z]?$/;

/**
 * Designation words (folded, after the street's suffix is standardized: "road" -> "rd",
 * "route" -> "rte" and "highway" -> "hwy" where they come before the number) -> the
 * designation written for all of them.
 */
const DESIGNATIONS: ReadonlyMap<string, string> = new Map([
  ...['county rd', 'county hwy', 'county rte', 'co rd', 'co hwy', 'co rte', 'cnty rd', 'cty rd', 'cr'].map((w) => [w, 'county rd'] as const),
  ...['state rte', 'state rt', 'state rd', 'state hwy', 'st rte', 'st rt', 'st rd', 'st hwy', 'sr', 'sh'].map((w) => [w, 'state rte'] as const),
  ...['us hwy', 'us rte', 'us rt', 'us'].map((w) => [w, 'us hwy'] as const),
  ...['interstate', 'interstate hwy', 'i', 'ih'].map((w) => [w, 'interstate'] as const),
  ...['fm', 'farm to market rd', 'farm to market', 'farm market rd'].map((w) => [w, 'fm'] as const),
  ...['rr', 'rural rte', 'rural route', 'rural rt', 'rfd'].map((w) => [w, 'rr'] as const),
  ...['hc', 'star rte', 'star route', 'hwy contract rte'].map((w) => [w, 'hc'] as const),
  ['rt', 'rte'],
]);

/** Most words a designation has ("farm to market rd"). */
const LONGEST = 4;

/**
 * `street` (standardized words, without its directionals) with a numbered road's or a rural
 * route's designation written as {@link DESIGNATIONS} writes it, when the street begins with
 * one followed by a number ("cr 12" -> "county rd 12", "rfd 2 box 5" -> "rr 2 box 5"); else
 * `street` itself. Idempotent.
 */
export function standardRoad(street: string): string {
  const words = street.split(' ');
  for (let n = Math.min(LONGEST, words.length - 1); n >= 1; n--) {
    if (!ROAD_NUMBER.test(words[n] as string)) continue;
    const standard = DESIGNATIONS.get(words.slice(0, n).join(' '));
    if (standard !== undefined) return [standard, ...words.slice(n)].join(' ');
  }
  return street;
}

/** Directionals as normalization writes them: the standard forms of Pub 28 233's table. */
const DIRECTIONALS: ReadonlySet<string> = new Set(DIRECTIONAL_TABLE.values());

/**
 * True when two standardized streets are one street with its directional before it in one
 * and after it in the other ("n main st" / "main st n").
 */
export function directionalMoved(a: string, b: string): boolean {
  return a.length === b.length && a !== b && (movedTo(a, b) || movedTo(b, a));
}

/** `a` is "D rest" and `b` "rest D" for a directional D. */
function movedTo(a: string, b: string): boolean {
  const d = leading(a);
  return d !== null && trailing(b) === d && a.slice(d.length + 1) === b.slice(0, b.length - d.length - 1);
}

/** The directional a street begins with ("n main st": "n"), or null; a one-word street has none. */
function leading(s: string): string | null {
  const space = s.indexOf(' ');
  return space >= 1 && space <= 2 && DIRECTIONALS.has(s.slice(0, space)) ? s.slice(0, space) : null;
}

/** The directional a street ends with ("main st nw": "nw"), or null; a one-word street has none. */
function trailing(s: string): string | null {
  const space = s.lastIndexOf(' ');
  return space >= 1 && s.length - space - 1 <= 2 && DIRECTIONALS.has(s.slice(space + 1)) ? s.slice(space + 1) : null;
}

/**
 * True when two standardized streets name different directionals: both before the street
 * ("n main st" / "s main st"), both after it ("1st st n" / "1st st s", "oak ave ne" / "oak
 * ave nw"), or one before and the other after ("n main st" / "main st s"). A directional on
 * one side only is no difference ("main st" / "main st n").
 */
export function directionalsDiffer(a: string, b: string): boolean {
  const preA = leading(a);
  const preB = leading(b);
  const postA = trailing(a);
  const postB = trailing(b);
  if (preA !== null && preB !== null && preA !== preB) return true;
  if (postA !== null && postB !== null && postA !== postB) return true;
  const onlyA = preA !== null && postA === null ? preA : postA !== null && preA === null ? postA : null;
  const onlyB = preB !== null && postB === null ? preB : postB !== null && preB === null ? postB : null;
  return onlyA !== null && onlyB !== null && (preA === null) !== (preB === null) && onlyA !== onlyB;
}

/**
 * Whether two streets both hold digits and not the same numbers, in order: "county rd 5" and
 * "county rd 7", "w 35th st" and "w 36th st", "rte 9" and "rte 20" are other roads however
 * near their letters, and "rr 1 box 23" and "rr 12 box 3" another route and box (the same
 * digits, other numbers). A street without digits says nothing ("hwy 1" and "hwy"), nor do a
 * number's leading zeros ("po box 0012" and "po box 12"). A scan, no allocation: it runs
 * where a street's nearness is read.
 */
export function numbersDiffer(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  let seen = false;
  for (;;) {
    while (i < a.length && !isDigit(a.charCodeAt(i))) i++;
    while (j < b.length && !isDigit(b.charCodeAt(j))) j++;
    i = pastLeadingZeros(a, i);
    j = pastLeadingZeros(b, j);
    if (i === a.length || j === b.length) return seen && (i !== a.length || j !== b.length);
    if (a.charCodeAt(i) !== b.charCodeAt(j)) return true;
    seen = true;
    i++;
    j++;
    // One number ends where the other goes on ("rr 1 box 23" / "rr 12 box 3"): other numbers.
    const aGoesOn = isDigit(a.charCodeAt(i));
    if (aGoesOn !== isDigit(b.charCodeAt(j))) return true;
    // Both end: another letter after them ("rte 9" / "rte 9w", "county rd 5a" / "county rd 5b").
    if (!aGoesOn) {
      const x = letterAfter(a, i);
      const y = letterAfter(b, j);
      if (x !== y && x !== ORDINAL && y !== ORDINAL) return true;
    }
  }
}

/** {@link letterAfter}: more letters than one, an ordinal's ("35th"), whole or cut ("1s"). */
const ORDINAL = -1;

/**
 * What follows a number at `at`: 0 when nothing, a space or a sign ("rte 9", "9 w"), a letter
 * alone ("9w", "5-b": its code), {@link ORDINAL} when more letters follow or the letter is one
 * an ordinal begins with ("35th", "1st", "2nd", "3rd": "1s" is "1st" cut more often than a
 * road "1S"), which says nothing of another number.
 */
function letterAfter(s: string, at: number): number {
  let k = at;
  if (s.charCodeAt(k) === 45) k++;
  const c = s.charCodeAt(k);
  if (!(c >= 97 && c <= 122)) return 0;
  const next = s.charCodeAt(k + 1);
  if (!(Number.isNaN(next) || next === 32)) return ORDINAL;
  return c === 115 || c === 110 || c === 114 || c === 116 ? ORDINAL : c;
}

/** The numbers of a street, in order, without their leading zeros ("rr 2 box 05" -> ["2", "5"]). */
function numbersOf(s: string): string[] {
  return (s.match(DIGIT_RUNS) ?? []).map((n) => n.replace(LEADING_ZEROS, ''));
}

const DIGIT_RUNS = /\d+/g;
const LEADING_ZEROS = /^0+(?=\d)/;

/**
 * True when two streets' numbers ({@link numbersDiffer}) are as many, and only one of them is
 * one edit or one swap from the other's ("35" / "36", "181" / "101", "rr 2 box 5" / "rr 2 box
 * 6"); not two numbers' digits read as one run ("rr 1 box 23" / "rr 12 box 3").
 */
export function numbersOneSlipApart(a: string, b: string): boolean {
  const x = numbersOf(a);
  const y = numbersOf(b);
  if (x.length !== y.length) return false;
  let slips = 0;
  for (let k = 0; k < x.length; k++) {
    if (x[k] === y[k]) continue;
    if (++slips > 1 || !withinOneEdit(x[k] as string, y[k] as string)) return false;
  }
  // The same numbers: they differ in a letter after one ("rte 9" / "rte 9w"), another road.
  return slips === 1;
}

/** Past the zeros that begin the digits at `at` (not the last digit: "0" stays "0"), when `at` begins a run of digits. */
function pastLeadingZeros(s: string, at: number): number {
  if (at > 0 && isDigit(s.charCodeAt(at - 1))) return at;
  let k = at;
  while (k + 1 < s.length && s.charCodeAt(k) === 48 && isDigit(s.charCodeAt(k + 1))) k++;
  return k;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * The CRM's level of two streets (compare.ts compareAddress) from the level their letters give
 * (`level`: compare.ts compareText, Jaro-Winkler): a directional written before the street in
 * one and after it in the other ("N Main St" / "Main St N") is nearly equal, as a directional
 * dropped ("Main St" / "Main St N") already is; other numbers ("W 35th St" / "W 53rd St", "PO
 * Box 12" / "PO Box 41", "County Road 5" / "County Road 17") or two different directionals
 * ("1st St N" / "1st St S") are two streets however alike their letters; numbers one slip apart
 * ("W 35th St" / "W 36th St") keep the level their letters give. `fuzzyHigh`: the comparison
 * has that level.
 */
export function streetLevel(level: LevelName, a: string | null, b: string | null, fuzzyHigh: boolean): LevelName {
  if (a === null || b === null) return level;
  if (level === 'fuzzy-high' || level === 'fuzzy-low') {
    if (directionalsDiffer(a, b)) return 'disagree';
    // Numbers one slip apart ("12th" / "13th", OCR's "181st" / "101st") keep their level: with
    // the same name, house number and postal code, a typo far more often than the next street.
    if (numbersDiffer(a, b) && !numbersOneSlipApart(a, b)) return 'disagree';
  }
  const moved = (level === 'disagree' || level === 'fuzzy-low') && fuzzyHigh && directionalMoved(a, b);
  return moved ? 'fuzzy-high' : level;
}

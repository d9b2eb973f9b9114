/**
 * Field comparators: each maps a pair of normalized values to a comparison level
 * (`exact`, `nickname`, `fuzzy-high`, ..., `disagree`, `missing`). Symmetric: swapping the
 * arguments never changes the level.
 */
import { compactName, surnameParts } from './name.js';
import { areNicknameVariants, type NicknameTable } from './nicknames.js';
import { isAdjacentTransposition, jaroWinkler, levenshtein } from './similarity.js';
import type { LevelName } from './model.js';
import type { NormalizedAddress } from './types.js';

/** What first and last name comparators need beyond the two values. */
export interface NameCompareOptions {
  readonly nicknames: NicknameTable;
  /** Disable Partial Matching (interface.md 1.5): only equal (folded) names agree. */
  readonly strict: boolean;
  readonly fuzzyHigh: number;
  readonly fuzzyLow: number;
}

function tokensOverlap(a: string, b: string): boolean {
  if (a.indexOf(' ') === -1 && b.indexOf(' ') === -1) return false;
  const ta = a.split(' ');
  const tb = b.split(' ');
  for (const x of ta) if (x.length > 1 && tb.includes(x)) return true;
  return false;
}

/** Compares first names: exact, nickname, part ("mary ann"/"mary"), initial, fuzzy, disagree. */
export function compareFirstName(a: string | null, b: string | null, o: NameCompareOptions): LevelName {
  if (a === null || b === null) return 'missing';
  if (a === b) return 'exact';
  const ac = compactName(a);
  const bc = compactName(b);
  if (ac === bc) return 'exact';
  if (o.strict) return 'disagree';
  if (areNicknameVariants(o.nicknames, ac, bc)) return 'nickname';
  if (ac.length === 1 || bc.length === 1) return ac[0] === bc[0] ? 'initial' : 'disagree';
  if (tokensOverlap(a, b)) return 'part';
  const jw = jaroWinkler(ac, bc);
  if (jw >= o.fuzzyHigh) return 'fuzzy-high';
  if (jw >= o.fuzzyLow) return 'fuzzy-low';
  return 'disagree';
}

/** Compares surnames: exact (compact: "O'Brien" = "OBrien"), fuzzy, compound part, disagree. */
export function compareLastName(a: string | null, b: string | null, o: NameCompareOptions): LevelName {
  if (a === null || b === null) return 'missing';
  if (a === b) return 'exact';
  const ac = compactName(a);
  const bc = compactName(b);
  if (ac === bc) return 'exact';
  if (o.strict) return 'disagree';
  const jw = jaroWinkler(ac, bc);
  // Jaro-Winkler is harsh on short names: "smith"/"smyth" is 0.89. One edit in five or more
  // letters is a typo too.
  if (jw >= o.fuzzyHigh || (ac.length >= 5 && bc.length >= 5 && levenshtein(ac, bc) === 1)) return 'fuzzy-high';
  if (a.indexOf(' ') !== -1 || b.indexOf(' ') !== -1) {
    const pb = surnameParts(b);
    for (const part of surnameParts(a)) if (pb.includes(part)) return 'part';
  }
  if (jw >= o.fuzzyLow) return 'fuzzy-low';
  return 'disagree';
}

/** Compares middle names: exact, initial, nearly equal, disagree. */
export function compareMiddleName(a: string | null, b: string | null): LevelName {
  if (a === null || b === null) return 'missing';
  const ac = compactName(a);
  const bc = compactName(b);
  if (ac === bc) return 'exact';
  if (ac.length === 1 || bc.length === 1) return ac[0] === bc[0] ? 'initial' : 'disagree';
  return jaroWinkler(ac, bc) >= 0.92 ? 'fuzzy-high' : 'disagree';
}

/** Compares generational suffixes: equal, or disagree (Jr and Sr are different people). */
export function compareSuffix(a: string | null, b: string | null): LevelName {
  if (a === null || b === null) return 'missing';
  return a === b ? 'exact' : 'disagree';
}

/** True when the two strings have equal characters in [from, to). */
function sameRange(a: string, b: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return false;
  return true;
}

/**
 * Compares "YYYY-MM-DD" dates: exact, day and month swapped, one digit apart (a typo, or
 * two adjacent digits transposed), else disagree. Allocation-free: this runs for every
 * candidate.
 */
export function compareDate(a: string | null, b: string | null): LevelName {
  if (a === null || b === null) return 'missing';
  if (a === b) return 'exact';
  if (a.length !== 10 || b.length !== 10) return 'disagree';
  // Same year, month and day swapped: 1975-09-12 / 1975-12-09.
  if (
    sameRange(a, b, 0, 4) &&
    a.charCodeAt(5) === b.charCodeAt(8) && a.charCodeAt(6) === b.charCodeAt(9) &&
    a.charCodeAt(8) === b.charCodeAt(5) && a.charCodeAt(9) === b.charCodeAt(6)
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
    if (count > 2) return 'disagree';
    if (first === -1) first = i;
    else second = i;
  }
  if (count === 1) return 'fuzzy-high';
  // Two adjacent digits transposed (skipping the dash between fields: 1975-09 vs 1975-90 is not).
  if (second === first + 1 && a.charCodeAt(first) === b.charCodeAt(second) && a.charCodeAt(second) === b.charCodeAt(first)) {
    return 'fuzzy-high';
  }
  return 'disagree';
}

/** Compares two sets of emails (mailbox form): any equal, any nearly equal, else disagree. */
export function compareEmails(a: readonly string[], b: readonly string[]): LevelName {
  if (a.length === 0 || b.length === 0) return 'missing';
  for (const x of a) if (b.includes(x)) return 'exact';
  for (const x of a) {
    for (const y of b) {
      if (x.length >= 6 && y.length >= 6 && levenshtein(x, y) <= 2) return 'fuzzy-high';
    }
  }
  return 'disagree';
}

/** Compares two sets of E.164 phones: any equal, else disagree. */
export function comparePhones(a: readonly string[], b: readonly string[]): LevelName {
  if (a.length === 0 || b.length === 0) return 'missing';
  for (const x of a) if (b.includes(x)) return 'exact';
  return 'disagree';
}

/** Compares short codes (postal code, street number): equal, one character apart, disagree. */
export function compareCode(a: string | null, b: string | null): LevelName {
  if (a === null || b === null) return 'missing';
  if (a === b) return 'exact';
  if (levenshtein(a, b) === 1 || isAdjacentTransposition(a, b)) return 'fuzzy-high';
  return 'disagree';
}

/** Compares free text (street, city, building) by Jaro-Winkler on the compact form. */
export function compareText(a: string | null, b: string | null, high = 0.92, low = 0.85): LevelName {
  if (a === null || b === null) return 'missing';
  if (a === b) return 'exact';
  const ac = compactName(a);
  const bc = compactName(b);
  if (ac === bc) return 'exact';
  const jw = jaroWinkler(ac, bc);
  if (jw >= high) return 'fuzzy-high';
  if (jw >= low) return 'fuzzy-low';
  return 'disagree';
}

/** Compares values where only equality counts (state, unit). */
export function compareEqual(a: string | null, b: string | null): LevelName {
  if (a === null || b === null) return 'missing';
  return a === b ? 'exact' : 'disagree';
}

/**
 * Compares units by their number, whatever the designator: "apt 4" = "# 4" = "unit 4"
 * (people and forms write the designator every way; the number is what identifies).
 */
export function compareUnit(a: string | null, b: string | null): LevelName {
  if (a === null || b === null) return 'missing';
  if (a === b) return 'exact';
  const na = a.slice(a.lastIndexOf(' ') + 1);
  const nb = b.slice(b.lastIndexOf(' ') + 1);
  return na === nb ? 'exact' : 'disagree';
}

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

/** Compares every part of two addresses. */
export function compareAddress(a: NormalizedAddress, b: NormalizedAddress): AddressLevels {
  return {
    zip5: compareCode(a.zip, b.zip),
    streetNumber: compareCode(a.number, b.number),
    streetName: compareText(a.street, b.street),
    building: compareText(a.building, b.building),
    unit: compareUnit(a.unit, b.unit),
    city: compareText(a.city, b.city),
    state: compareEqual(a.state, b.state),
  };
}

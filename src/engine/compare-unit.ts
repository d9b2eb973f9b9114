/**
 * Compares two units of one building (compare.ts compareAddress reads it only where the street
 * number and street agree): the same flat whatever its designator or spacing, two neighbouring
 * characters swapped, or another flat. And house numbers, where a hyphen may be dropped.
 */
import type { LevelName } from './comparisons.js';
import { isAdjacentTransposition } from './similarity.js';

/**
 * True when two different house numbers are one number written with and without its hyphen:
 * "45-12" / "4512" (Queens numbers, which USPS writes hyphenated and many sources without).
 */
export function hyphenDropped(a: string | null, b: string | null): boolean {
  if (a === null || b === null || a === b || a.replace('-', '') !== b.replace('-', '')) return false;
  const hyphened = a.includes('-') ? a : b.includes('-') ? b : null;
  return hyphened !== null && !numberRange(hyphened);
}

/**
 * A building's range of numbers ("12-14", "1-3", "101-105": the second above the first, as long
 * and of the same parity, one side of a street), not a Queens number ("45-12"): "12-14" is no
 * "1214".
 */
function numberRange(text: string): boolean {
  const m = /^(\d+)-(\d+)$/.exec(text);
  if (m === null) return false;
  const [from, to] = [m[1] as string, m[2] as string];
  return from.length === to.length && Number(to) > Number(from) && (Number(to) - Number(from)) % 2 === 0;
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
  if (na === nb) return 'exact';
  // The number without its designator and spaces ("apt 2 005" / "apt 2005"); two neighbouring
  // characters swapped ("2005" / "2050") is a slip. Any other difference is another flat ("4b" / "4c").
  const ka = unitNumber(a);
  const kb = unitNumber(b);
  if (ka === kb) return 'exact';
  return isAdjacentTransposition(ka, kb) ? 'typo' : 'disagree';
}

/** A unit's number: a leading designator word ("apt", "ste", "#") and the spaces left out. */
function unitNumber(unit: string): string {
  return unit.replace(UNIT_DESIGNATOR, '').replace(/ /g, '');
}

const UNIT_DESIGNATOR = /^(?:[a-z]+|#) (?=.)/;

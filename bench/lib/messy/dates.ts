/**
 * Calendar dates of any year (proleptic Gregorian, no `Date`, no locale), their written
 * forms, and the errors people make writing them: a digit struck wrong, day and month
 * swapped, the year off by one (an age converted to a year), only the year known.
 */
import type { Rng } from '../prng.js';

export interface Ymd {
  readonly y: number;
  readonly m: number;
  readonly d: number;
}

export function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeap(y) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

export function isValidDate(date: Ymd): boolean {
  return Number.isInteger(date.y) && date.m >= 1 && date.m <= 12 && date.d >= 1 && date.d <= daysInMonth(date.y, date.m);
}

/** A uniform day of a year. */
export function randomDateIn(rng: Rng, year: number): Ymd {
  const m = rng.range(1, 12);
  return { y: year, m, d: rng.range(1, daysInMonth(year, m)) };
}

export const MONTHS: readonly string[] = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** How a date is written. */
export type DateFormat =
  | 'iso' // 1843-03-07
  | 'mdy' // 03/07/1843
  | 'dmy' // 07/03/1843
  | 'dmy-dot' // 07.03.1843
  | 'd-mon-y' // 7 Mar 1843
  | 'mon-d-y' // Mar 7, 1843
  | 'year'; // 1843

function two(n: number): string {
  return String(n).padStart(2, '0');
}

function year4(y: number): string {
  return String(y).padStart(4, '0');
}

export function formatDate(date: Ymd, format: DateFormat): string {
  const { y, m, d } = date;
  switch (format) {
    case 'iso':
      return `${year4(y)}-${two(m)}-${two(d)}`;
    case 'mdy':
      return `${two(m)}/${two(d)}/${year4(y)}`;
    case 'dmy':
      return `${two(d)}/${two(m)}/${year4(y)}`;
    case 'dmy-dot':
      return `${two(d)}.${two(m)}.${year4(y)}`;
    case 'd-mon-y':
      return `${d} ${MONTHS[m - 1] ?? 'Jan'} ${year4(y)}`;
    case 'mon-d-y':
      return `${MONTHS[m - 1] ?? 'Jan'} ${d}, ${year4(y)}`;
    case 'year':
      return year4(y);
  }
}

/**
 * One digit of the written YYYYMMDD struck as another, keeping a valid date (the century
 * digits are left alone: "1843" -> "1848" or "1893", not "2843"). Null if no digit works.
 */
export function dateDigitTypo(date: Ymd, rng: Rng): Ymd | null {
  const digits = `${year4(date.y)}${two(date.m)}${two(date.d)}`;
  const options: Ymd[] = [];
  for (let pos = 2; pos < 8; pos++) {
    for (let v = 0; v <= 9; v++) {
      if (String(v) === digits.charAt(pos)) continue;
      const s = digits.slice(0, pos) + String(v) + digits.slice(pos + 1);
      const next = { y: Number(s.slice(0, 4)), m: Number(s.slice(4, 6)), d: Number(s.slice(6, 8)) };
      if (isValidDate(next)) options.push(next);
    }
  }
  return options.length === 0 ? null : rng.pick(options);
}

/** Day and month swapped (possible when the day is 1..12 and differs from the month). */
export function swapDayMonth(date: Ymd): Ymd | null {
  if (date.d > 12 || date.d === date.m) return null;
  return { y: date.y, m: date.d, d: date.m };
}

/** The year moved by `delta`, 29 February becoming the 28th when needed. */
export function shiftYear(date: Ymd, delta: number): Ymd {
  const y = date.y + delta;
  return { y, m: date.m, d: Math.min(date.d, daysInMonth(y, date.m)) };
}

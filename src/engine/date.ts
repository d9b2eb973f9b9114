/**
 * Calendar-date normalization (dates of birth). The contract (interface.md 2.1) wants ISO
 * 8601 dates in the 20th or 21st century; files bring every other common form too. The
 * result is a plain calendar date: a datetime's clock time and offset are ignored, never
 * applied ("1975-09-18T00:00:00-05:00" is 18 September 1975, as written).
 *
 * No clock: a two-digit year is placed by an explicit pivot year, not by "today".
 * Every regex is anchored and linear, and input longer than MAX_DATE_INPUT_LENGTH is refused
 * before any regex runs.
 */
import type { NormalizeFailure, Normalized, NormalizedDate } from './types.js';

/** Order of the parts of an ambiguous numeric date such as "03/04/75". */
export type DateOrder = 'mdy' | 'dmy' | 'ymd';

/** Options of {@link normalizeDate}. */
export interface DateOptions {
  /**
   * Order of an ambiguous numeric date ("03/04/1975"). Default {@link DEFAULT_DATE_ORDER}
   * ('mdy', the US convention). A part greater than 12 settles the order whatever this says.
   */
  readonly order?: DateOrder | undefined;
  /**
   * A two-digit year becomes the latest year that ends in those digits and is not after
   * this year. Default {@link DEFAULT_PIVOT_YEAR} (2029: "29" -> 2029, "30" -> 1930).
   * Any integer; the result must still fall in the accepted range.
   */
  readonly pivotYear?: number | undefined;
  /**
   * Earliest and latest accepted year. Default {@link MIN_YEAR}..{@link MAX_YEAR}, the
   * contract's 20th and 21st centuries; files of historical records pass wider bounds.
   */
  readonly years?: { readonly min: number; readonly max: number } | undefined;
  /**
   * Accept a year alone ("1875", "c. 1875", "abt 1875", "1875-00-00"): the value's `iso` is
   * then the four-digit year and `month`/`day` are 0. Default false.
   */
  readonly yearOnly?: boolean | undefined;
}

/** Default order of ambiguous numeric dates: month/day/year (US). */
export const DEFAULT_DATE_ORDER: DateOrder = 'mdy';

/**
 * Default pivot of two-digit years: 2029. "00".."29" -> 2000..2029, "30".."99" -> 1930..1999.
 * The engine has no clock; callers that want a sliding window pass their own.
 */
export const DEFAULT_PIVOT_YEAR = 2029;

/**
 * Earliest accepted date, 1900-01-01. The contract says "20th or 21st century"; strictly the
 * 20th century starts in 1901, but 1900 is commonly counted in it ("the 1900s"), so it is
 * accepted.
 */
export const MIN_DATE_ISO = '1900-01-01';

/** Latest accepted date, 2100-12-31: the last day of the 21st century. */
export const MAX_DATE_ISO = '2100-12-31';

/** Longest input looked at (characters, after trimming); longer input is 'too-long'. */
export const MAX_DATE_INPUT_LENGTH = 64;

/** Earliest year the contract accepts (see MIN_DATE_ISO). */
export const MIN_YEAR = 1900;
/** Latest year the contract accepts (see MAX_DATE_ISO). */
export const MAX_YEAR = 2100;
/** Bounds of historical files: any year from 1000 to 2100. */
export const HISTORICAL_YEARS = { min: 1000, max: 2100 } as const;

/** English month names and abbreviations -> month number. */
export const MONTH_NAMES: ReadonlyMap<string, number> = new Map([
  ['jan', 1],
  ['january', 1],
  ['feb', 2],
  ['february', 2],
  ['mar', 3],
  ['march', 3],
  ['apr', 4],
  ['april', 4],
  ['may', 5],
  ['jun', 6],
  ['june', 6],
  ['jul', 7],
  ['july', 7],
  ['aug', 8],
  ['august', 8],
  ['sep', 9],
  ['sept', 9],
  ['september', 9],
  ['oct', 10],
  ['october', 10],
  ['nov', 11],
  ['november', 11],
  ['dec', 12],
  ['december', 12],
]);

// ISO 8601 calendar date, optionally followed by a time and an offset (ignored, not applied).
const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[t ]\s*(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?\s*(?:z|[+-]\d{2}(?::?\d{2})?)?)?$/;
// YYYYMMDD (ISO 8601 basic format; FEBRL files).
const COMPACT_DATE = /^(\d{4})(\d{2})(\d{2})$/;
// Three numeric parts with one repeated separator, an optional clock time after them.
const NUMERIC_DATE = /^(\d{1,4})([/.\- ])(\d{1,2})\2(\d{1,4})(?:[t ]\s*\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:\s*[ap]\.?m\.?)?)?$/;
// "18 Sep 1975", "18-Sep-75", "18th September, 1975".
const DAY_MONTH_YEAR = /^(\d{1,2})(?:st|nd|rd|th)?[\s\-/.]*([a-z]+)[\s\-/.,]*(\d{4}|\d{2})(?:[t ]\s*\d{1,2}:\d{2}[^\n]*)?$/;
// "Sep 18, 1975", "September 18th 1975", and JavaScript's "Sep 18 1975 00:00:00 GMT...".
// The day and the year are apart (a separator or an ordinal's suffix between them): "Mar 1843"
// is a month and a year, not 18 March '43; "September 18th1975" is a date.
const MONTH_DAY_YEAR = /^([a-z]+)[\s\-/.]*(\d{1,2})(?:(?:st|nd|rd|th)[\s\-/.,]*|[\s\-/.,]+)(\d{4}|\d{2})(?:[t ]\s*\d{1,2}:\d{2}[^\n]*)?$/;
// "1975-Sep-18", "1975 September 18".
const YEAR_MONTH_DAY = /^(\d{4})[\s\-/.]*([a-z]+)[\s\-/.]*(\d{1,2})$/;
// A year alone, with the approximations genealogy writes before or after it ("c. 1875", "abt
// 1875", "1875?", "1875 (est)"), or a date whose day and month are unknown ("1875-00-00",
// "00/00/1875").
const YEAR_ONLY = /^(?:(?:c|ca|circa|abt|about|approx|est|bef|before|aft|after)\.?\s*|~\s*)?(\d{4})(?:\?|\s*\(?(?:est|estimated|approx|abt|circa|c)\.?\)?)?$/;
const UNKNOWN_DAY = /^(?:(\d{4})[-/.](?:0?\d|1[0-2])[-/.]0{1,2}|0{1,2}[-/.](?:0?\d|1[0-2])[-/.](\d{4})|(?:0?\d|1[0-2])[-/.]0{1,2}[-/.](\d{4}))$/;
// A month and a year, the day unknown: "Mar 1843", "March, 1843", "1843 Mar", "1843-03",
// "03/1843"; a quarter of a year, as civil registration indexes give births: "Q1 1843",
// "1843 Q1", "Mar Qtr 1843". Read as the year.
const MONTH_YEAR = /^([a-z]+)\.?,?\s*(\d{4})$/;
const YEAR_MONTH = /^(\d{4})[\s\-/.]*([a-z]+)\.?$/;
const NUMERIC_MONTH_YEAR = /^(?:(\d{4})[-/.](\d{1,2})|(\d{1,2})[-/.](\d{4}))$/;
const QUARTER_YEAR =
  /^(?:q([1-4])\s*(\d{4})|(\d{4})\s*q([1-4])|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*(?:qtr|quarter|q)\.?\s*(\d{4}))$/;
// Words a register writes before a date: born (the date is the birth's), baptised or
// christened (a date days to months after the birth: only its year is kept).
const BORN = /^(?:born\b|b\.)\s*/;
const BAPTISED = /^(?:baptised|baptized|bapt|bap|christened|chr)\b\.?\s*/;
// A leading weekday: "Thu, 18 Sep 1975", "Thursday September 18, 1975".
const WEEKDAY = /^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s*/;

function fail(reason: NormalizeFailure, input: string): Normalized<NormalizedDate> {
  return { ok: false, reason, input };
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in a month of the proleptic Gregorian calendar; 0 for a month outside 1..12. */
export function daysInMonth(year: number, month: number): number {
  switch (month) {
    case 1:
    case 3:
    case 5:
    case 7:
    case 8:
    case 10:
    case 12:
      return 31;
    case 4:
    case 6:
    case 9:
    case 11:
      return 30;
    case 2:
      return isLeapYear(year) ? 29 : 28;
    default:
      return 0;
  }
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** Places a two-digit year: the latest year ending in `yy` that is not after `pivot`. */
function expandYear(yy: number, pivot: number): number {
  const mod = (((pivot - yy) % 100) + 100) % 100;
  return pivot - mod;
}

function yearOf(text: string, pivot: number): number {
  const n = Number(text);
  return text.length <= 2 ? expandYear(n, pivot) : n;
}

/** Accepted years. */
type YearBounds = { readonly min: number; readonly max: number };

function build(year: number, month: number, day: number, input: string, yearBounds: YearBounds): Normalized<NormalizedDate> {
  if (!Number.isInteger(year) || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return fail('invalid', input);
  }
  if (year < yearBounds.min || year > yearBounds.max) return fail('out-of-range', input);
  const iso = `${year}-${pad2(month)}-${pad2(day)}`;
  return { ok: true, value: { iso, year, month, day } };
}

function buildYear(year: number, input: string, yearBounds: YearBounds): Normalized<NormalizedDate> {
  if (year < yearBounds.min || year > yearBounds.max) return fail('out-of-range', input);
  return { ok: true, value: { iso: String(year), year, month: 0, day: 0 } };
}

/** Resolves the order of "a/b/c" where c is the year or order is 'ymd' with a short year. */
function buildNumeric(a: string, b: string, c: string, order: DateOrder, pivot: number, input: string, bounds: YearBounds): Normalized<NormalizedDate> {
  if (a.length === 4 || a.length === 3) {
    // Year first: YYYY/MM/DD (a three-digit year is not a year we accept).
    if (a.length === 3 || c.length > 2) return fail('invalid', input);
    return build(Number(a), Number(b), Number(c), input, bounds);
  }
  if (c.length === 1 || c.length === 3) return fail('invalid', input);
  const na = Number(a);
  const nb = Number(b);
  if (order === 'ymd' && c.length === 2) {
    return build(yearOf(a, pivot), nb, Number(c), input, bounds);
  }
  const year = yearOf(c, pivot);
  // A part greater than 12 cannot be a month: it settles the order.
  let dayFirst = order === 'dmy';
  if (na > 12 && nb <= 12) dayFirst = true;
  else if (nb > 12 && na <= 12) dayFirst = false;
  return dayFirst ? build(year, nb, na, input, bounds) : build(year, na, nb, input, bounds);
}

/**
 * Normalizes a date to a calendar date ("YYYY-MM-DD" plus parts). Accepts ISO 8601 dates
 * and datetimes (the date as written; time and offset ignored), YYYYMMDD, YYYY/MM/DD,
 * M/D/YYYY or D/M/YYYY (per `options.order`, unless a part > 12 settles it), two-digit
 * years (per `options.pivotYear`), and English month names ("18-Sep-75", "18 September
 * 1975", "Sep 18, 1975"). Validates the calendar (29 February only in leap years).
 * A month and a year ("Mar 1975") is no calendar date. With `options.yearOnly`, what gives
 * a year but no day is read as that year: "1875", "abt 1875", "1875 (est)", "Mar 1875",
 * "1875-03", "1875-03-00", "Q1 1875", and a baptism's or christening's date ("chr 12 Mar
 * 1875"); "born 12 Mar 1875" is the date itself.
 * Dates outside 1900-01-01..2100-12-31 are `{ok:false, reason:'out-of-range'}`.
 * Total: any string in, a result out. Idempotent on `value.iso`.
 */
export function normalizeDate(raw: string | null | undefined, options?: DateOptions): Normalized<NormalizedDate> {
  const input = typeof raw === 'string' ? raw : raw == null ? '' : String(raw);
  const text = input.trim();
  if (text.length === 0) return fail('empty', input);
  if (text.length > MAX_DATE_INPUT_LENGTH) return fail('too-long', input);
  const order = options?.order ?? DEFAULT_DATE_ORDER;
  const pivotOption = options?.pivotYear;
  const pivot = typeof pivotOption === 'number' && Number.isFinite(pivotOption) ? Math.trunc(pivotOption) : DEFAULT_PIVOT_YEAR;
  const lower = text.toLowerCase();
  return parseDate(lower, input, order, pivot, options?.yearOnly === true, options?.years ?? CONTRACT_YEARS);
}

const CONTRACT_YEARS = { min: MIN_YEAR, max: MAX_YEAR } as const;

function parseDate(lower: string, input: string, order: DateOrder, pivot: number, yearOnly: boolean, bounds: YearBounds): Normalized<NormalizedDate> {
  if (yearOnly) {
    const partial = partialDate(lower);
    if (partial !== null) return buildYear(partial, input, bounds);
    const born = BORN.exec(lower);
    if (born !== null) return parseDate(lower.slice(born[0].length), input, order, pivot, yearOnly, bounds);
    const baptised = BAPTISED.exec(lower);
    if (baptised !== null) {
      const date = parseDate(lower.slice(baptised[0].length), input, order, pivot, yearOnly, bounds);
      return date.ok ? buildYear(date.value.year, input, bounds) : date;
    }
  }
  let m = ISO_DATE.exec(lower);
  if (m !== null) {
    const [, y, mo, d, hh, mm, ss] = m;
    if (hh !== undefined && (Number(hh) > 24 || Number(mm) > 59 || (ss !== undefined && Number(ss) > 60))) {
      return fail('invalid', input);
    }
    return build(Number(y), Number(mo), Number(d), input, bounds);
  }
  m = COMPACT_DATE.exec(lower);
  if (m !== null) return build(Number(m[1]), Number(m[2]), Number(m[3]), input, bounds);
  m = NUMERIC_DATE.exec(lower);
  if (m !== null) return buildNumeric(m[1] ?? '', m[3] ?? '', m[4] ?? '', order, pivot, input, bounds);

  const words = lower.replace(WEEKDAY, '');
  m = DAY_MONTH_YEAR.exec(words);
  if (m !== null) {
    const month = MONTH_NAMES.get(m[2] ?? '');
    if (month === undefined) return fail('invalid', input);
    return build(yearOf(m[3] ?? '', pivot), month, Number(m[1]), input, bounds);
  }
  m = MONTH_DAY_YEAR.exec(words);
  if (m !== null) {
    const month = MONTH_NAMES.get(m[1] ?? '');
    if (month === undefined) return fail('invalid', input);
    return build(yearOf(m[3] ?? '', pivot), month, Number(m[2]), input, bounds);
  }
  m = YEAR_MONTH_DAY.exec(words);
  if (m !== null) {
    const month = MONTH_NAMES.get(m[2] ?? '');
    if (month === undefined) return fail('invalid', input);
    return build(Number(m[1]), month, Number(m[3]), input, bounds);
  }
  return fail('invalid', input);
}

/**
 * The year of a date that gives no day (a year alone, approximate or not; a month or a
 * quarter and a year; a day or month written as zero), or null when `lower` is not one.
 */
function partialDate(lower: string): number | null {
  const y = YEAR_ONLY.exec(lower) ?? UNKNOWN_DAY.exec(lower);
  if (y !== null) return Number(y[1] ?? y[2] ?? y[3]);
  const q = QUARTER_YEAR.exec(lower);
  if (q !== null) return Number(q[2] ?? q[3] ?? q[5]);
  let m = MONTH_YEAR.exec(lower);
  if (m !== null) return MONTH_NAMES.has(m[1] ?? '') ? Number(m[2]) : null;
  m = YEAR_MONTH.exec(lower);
  if (m !== null) return MONTH_NAMES.has(m[2] ?? '') ? Number(m[1]) : null;
  m = NUMERIC_MONTH_YEAR.exec(lower);
  if (m !== null) {
    const month = Number(m[2] ?? m[3]);
    return month >= 1 && month <= 12 ? Number(m[1] ?? m[4]) : null;
  }
  return null;
}

/**
 * The datetime form the API writes dates in: "1975-09-18T00:00:00Z" (midnight UTC of the
 * calendar date; interface.md sample payloads).
 */
export function isoDateTime(date: Pick<NormalizedDate, 'iso'>): string {
  return `${date.iso}T00:00:00Z`;
}

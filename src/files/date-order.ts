/**
 * The order a file writes its numeric dates in (day first, "07/03/1843", or month first,
 * "03/07/1843"), from what the file itself says: a format in the date column's header ("DOB
 * (DD/MM/YYYY)"), else the dates that only one order can read ("18/02/1832" is day first).
 * Without either the settings' order stands (`--date-format`, else `--country`'s).
 *
 * A date whose two first numbers are both 12 or less reads either way: read in the wrong
 * order, one person's "07/03/1843" and "1843-03-07" are two dates a day-month swap apart.
 */
import { open } from 'node:fs/promises';
import { TextDecoder } from 'node:util';
import Papa from 'papaparse';
import type { DateOrder } from '../engine/index.js';
import type { CsvLayout } from './csv-reader.js';
import { bareCrToLf, hasBareCr, readSepLine } from './line-ends.js';
import { DECODER_LABELS, ROW_BREAK } from './sniff.js';

/** What separates the numbers of a numeric date ("07/03/1843", "07.03.1843", "07-03-1843"). */
export type DateSeparator = '/' | '.' | '-';
export const DATE_SEPARATORS: readonly DateSeparator[] = ['/', '.', '-'];

/**
 * A file's date order and how it was told, for the summary: by separator, since a file of
 * several sources may write "05/13/1965" month first and "17.08.1964" day first. A separator
 * absent here keeps the settings' order.
 */
export interface FileDateOrder {
  readonly orders: Readonly<Partial<Record<DateSeparator, DateOrder>>>;
  /** "the header "DOB (DD/MM/YYYY)" says so", "212 dates such as "18/02/1832" can only be day first, none month first". */
  readonly how: string;
}

/** The same order for dates of every separator (a header's format). */
export function everySeparator(order: DateOrder): Partial<Record<DateSeparator, DateOrder>> {
  return Object.fromEntries(DATE_SEPARATORS.map((sep) => [sep, order]));
}

/** A date format in a header: d, m and y (or j: jour) in runs, with separators or none ("dd/mm/yyyy", "yyyymmdd"). */
const FORMAT_RUNS = '[dmyj]{1,4}[/. -][dmyj]{1,4}[/. -][dmyj]{1,4}|[dmyj]{3,10}';
const FORMAT = new RegExp(`(?:^|[^a-z])(${FORMAT_RUNS})(?![a-z])`, 'i');
const FORMATS = new RegExp(`(^|[^a-z])(?:${FORMAT_RUNS})(?![a-z])`, 'gi');

/** A header without the date formats it writes ("DOB mm/dd/yyyy" -> "DOB"). */
export function withoutDateFormat(header: string): string {
  return header.replace(FORMATS, '$1 ');
}

/** The order of the date format a header names ("DOB (mm/dd/yyyy)", "Date of birth DD.MM.YY"), or null. */
export function dateOrderInHeader(header: string): DateOrder | null {
  const text = FORMAT.exec(header)?.[1]?.toLowerCase().replace(/j/g, 'd');
  if (text === undefined) return null;
  // Runs of one letter each: "dd/mm/yyyy" and "ddmmyyyy" are d, m, y.
  const runs = text.split(/[/. -]/).flatMap((part) => part.match(/d+|m+|y+/g) ?? []);
  if (runs.length !== 3 || runs.some((r) => r.length > (r.startsWith('y') ? 4 : 2) || (r.startsWith('y') && r.length < 2))) return null;
  const order = runs.map((r) => r.charAt(0)).join('');
  return order === 'dmy' || order === 'mdy' || order === 'ymd' ? order : null;
}

/**
 * A numeric date with the year last, as written (trimmed): its first two numbers, their
 * separator, the year and any time after it ("07/03/1843", "7.3.43", "07/03/1985 00:00").
 */
export const DAY_MONTH_DATE = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{2}|\d{4})((?:[\sT]+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AP]\.?M\.?)?)?)$/i;

/** Share of the dates that settle the order which must agree (a few misfiled dates aside). */
const AGREEMENT = 0.95;
/** Dates that settle the order needed before the file's order is taken from them. */
const MIN_SETTLING = 3;

/** Dates of one separator that only one order reads, and the first of each. */
interface Settling {
  dayFirst: number;
  monthFirst: number;
  dayExample: string;
  monthExample: string;
}

/**
 * The order the values' numeric dates are written in, by separator, from those only one
 * order reads (a first number over 12: day first; a second one: month first): where at least
 * {@link MIN_SETTLING} settle it and {@link AGREEMENT} of them agree. A separator too rare to
 * settle takes the others' order when those agree. Null when no separator is settled (no
 * numeric dates, none that settle, or dates of both orders mixed).
 */
export function detectDateOrder(values: Iterable<string>): FileDateOrder | null {
  const tally = new Map<DateSeparator, Settling>();
  for (const value of values) {
    const m = DAY_MONTH_DATE.exec(value.trim());
    if (m === null) continue;
    const a = Number(m[1]);
    const b = Number(m[3]);
    const sep = m[2] as DateSeparator;
    let t = tally.get(sep);
    if (t === undefined) tally.set(sep, (t = { dayFirst: 0, monthFirst: 0, dayExample: '', monthExample: '' }));
    if (a > 12 && b <= 12 && a <= 31) {
      if (t.dayFirst++ === 0) t.dayExample = value.trim();
    } else if (b > 12 && a <= 12 && b <= 31) {
      if (t.monthFirst++ === 0) t.monthExample = value.trim();
    }
  }
  const orders: Partial<Record<DateSeparator, DateOrder>> = {};
  const said: string[] = [];
  const count = (n: number): string => `${n} date${n === 1 ? '' : 's'}`;
  for (const sep of DATE_SEPARATORS) {
    const t = tally.get(sep);
    if (t === undefined || t.dayFirst + t.monthFirst < MIN_SETTLING) continue;
    const settling = t.dayFirst + t.monthFirst;
    if (t.dayFirst >= AGREEMENT * settling) {
      orders[sep] = 'dmy';
      said.push(`${count(t.dayFirst)} such as "${t.dayExample}" can only be day first, ${t.monthFirst === 0 ? 'none' : t.monthFirst} month first`);
    } else if (t.monthFirst >= AGREEMENT * settling) {
      orders[sep] = 'mdy';
      said.push(`${count(t.monthFirst)} such as "${t.monthExample}" can only be month first, ${t.dayFirst === 0 ? 'none' : t.dayFirst} day first`);
    }
  }
  const settled = new Set(Object.values(orders));
  if (settled.size === 0) return null;
  if (settled.size === 1) {
    // A separator with too few dates of its own takes the others' order, unless one of its
    // dates can only be read the other way ("05-13-1980" in a file writing "18/02/1980").
    const [order = 'mdy'] = settled;
    for (const sep of DATE_SEPARATORS) {
      const t = tally.get(sep);
      const against = t === undefined ? 0 : order === 'dmy' ? t.monthFirst : t.dayFirst;
      if (orders[sep] === undefined && against === 0) orders[sep] = order;
    }
  }
  return { orders, how: said.join('; ') };
}

const ORDER_WORDS: Readonly<Record<DateOrder, string>> = { dmy: 'day first', mdy: 'month first', ymd: 'year first' };

/** "day first", or by separator where they differ: "day first with ".", month first with "/"". */
export function describeDateOrder(order: FileDateOrder): string {
  const entries = DATE_SEPARATORS.flatMap((sep) => {
    const o = order.orders[sep];
    return o === undefined ? [] : [[sep, o] as const];
  });
  const kinds = new Set(entries.map(([, o]) => o));
  if (kinds.size === 1 && entries.length === DATE_SEPARATORS.length) return ORDER_WORDS[entries[0]?.[1] ?? 'mdy'];
  return entries.map(([sep, o]) => `${ORDER_WORDS[o]} with "${sep}"`).join(', ');
}

/** Bytes of a file read to find its date order: the first mebibyte (some 10,000 rows). */
export const DATE_SAMPLE_BYTES = 1024 * 1024;

/**
 * The values of one column in the first `maxBytes` of a file (its header row left out; the
 * last line, perhaps cut, too), read as the file's layout says.
 */
export async function sampleColumn(layout: CsvLayout, column: number, maxBytes = DATE_SAMPLE_BYTES): Promise<string[]> {
  const handle = await open(layout.path, 'r');
  let text: string;
  try {
    const buffer = Buffer.alloc(Math.min(maxBytes, Math.max(0, layout.size)));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    text = new TextDecoder(DECODER_LABELS[layout.encoding]).decode(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
  if (layout.sepLine) text = text.slice(readSepLine(text)?.length ?? 0);
  if (hasBareCr(text)) text = bareCrToLf(text, layout.delimiter, layout.size <= maxBytes);
  if (layout.size > maxBytes) {
    const end = text.lastIndexOf(ROW_BREAK);
    text = end === -1 ? '' : text.slice(0, end);
  }
  // Rows end as CsvFile ends them: LF and CRLF lines may mix (the CR is the line end's, not the value's).
  const parsed = Papa.parse<string[]>(text, { delimiter: layout.delimiter, newline: ROW_BREAK, skipEmptyLines: 'greedy' });
  return parsed.data.slice(1 + layout.preambleRows).map((row) => (row[column] ?? '').replace(/\r$/, ''));
}

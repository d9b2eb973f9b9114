/**
 * What a file says before its header, and line ends of several systems in one file: pure
 * functions over decoded text, applied alike by every reader of a file (csv-reader.ts,
 * csv-row-text.ts, date-order.ts) so that they all read the same rows.
 *
 * - Excel's "sep=" line: Excel writes `sep=;` (or `sep=,`, `sep=<TAB>`, `sep=|`) as the
 *   first line of a CSV to name its delimiter, and reads it so; it is not the header.
 * - Line ends: a file may end its lines in LF, CRLF or a bare CR (classic Mac OS, some
 *   exporters), and one edited on two systems mixes them. Rows are split at LF (a CR before
 *   it is the line end's); a bare CR outside a quoted field is turned into LF first, so
 *   that a file starting with CR lines and going on with LF or CRLF lines reads row by row.
 *   A CR inside a quoted field is the cell's own and stays.
 */

/** An Excel "sep=" first line: the delimiter it names and its length with its line end. */
export interface SepLine {
  readonly delimiter: string;
  readonly length: number;
}

/**
 * `sep=X` (X one character, or `\t` written out for a tab), perhaps in double quotes, perhaps
 * followed by the delimiter repeated (a spreadsheet that saved it as a row of cells).
 */
const SEP_LINE = /^(?:"sep=(\\t|[^\r\n"])"|sep=(\\t|[^\r\n"]))([^\r\n]*)(\r\n|\n|\r|$)/i;

/**
 * The "sep=" line a decoded text starts with (after a byte-order mark, if one is left), or null.
 */
export function readSepLine(text: string): SepLine | null {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const m = SEP_LINE.exec(start === 0 ? text : text.slice(start));
  if (m === null) return null;
  const written = (m[1] ?? m[2]) as string;
  const delimiter = written === '\\t' || written === '\\T' ? '\t' : written;
  const rest = m[3] as string;
  for (const ch of rest) if (ch !== delimiter && ch !== ' ' && ch !== '"') return null;
  return { delimiter, length: start + m[0].length };
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/** Whether `text` holds a CR not followed by LF (perhaps a line end of its own). */
export function hasBareCr(text: string): boolean {
  let at = text.indexOf('\r');
  while (at !== -1) {
    if (text.charCodeAt(at + 1) !== LF) return true;
    at = text.indexOf('\r', at + 2);
  }
  return false;
}

/**
 * `text`, read from the start of a row, with each bare CR outside a quoted field turned
 * into LF (a line end of its own). A field is quoted when it starts with `"` and runs to the
 * next lone `"`; a quote elsewhere is text (as csv-rows-excel.ts reads it). A CR at the very
 * end stays unless `atEnd`: the next chunk may start with its LF.
 */
export function bareCrToLf(text: string, delimiter: string, atEnd: boolean): string {
  const delim = delimiter.charCodeAt(0);
  const n = text.length;
  let out = '';
  let copied = 0;
  let fieldStart = true;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE && fieldStart) {
      let q = i + 1;
      for (;;) {
        const close = text.indexOf('"', q);
        if (close === -1) {
          q = n;
          break;
        }
        if (text.charCodeAt(close + 1) === QUOTE) {
          q = close + 2;
          continue;
        }
        q = close + 1;
        break;
      }
      i = q;
      fieldStart = false;
      continue;
    }
    if (c === CR) {
      const next = i + 1 < n ? text.charCodeAt(i + 1) : -1;
      if (next !== LF && (next !== -1 || atEnd)) {
        out += `${text.slice(copied, i)}\n`;
        copied = i + 1;
      }
      fieldStart = true;
    } else fieldStart = c === delim || c === LF;
    i++;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Line breaks in a cell: LF (with any CR before it), and in a file of CR lines a bare CR too. */
export function lineBreaksIn(cell: string, crLines: boolean): number {
  let n = 0;
  let at = cell.indexOf('\n');
  while (at !== -1) {
    n++;
    at = cell.indexOf('\n', at + 1);
  }
  if (crLines) {
    at = cell.indexOf('\r');
    while (at !== -1) {
      if (cell.charCodeAt(at + 1) !== LF) n++;
      at = cell.indexOf('\r', at + 1);
    }
  }
  return n;
}

/**
 * Takes the CR of a CRLF line end off each row's last cell: papaparse splits rows at LF (so
 * that LF and CRLF lines may mix) and leaves it there. Only for text without `\r"`, where no
 * quoted cell ends with a CR of its own.
 */
export function dropLineEndCr(rows: string[][]): void {
  for (const row of rows) {
    const last = row.length - 1;
    const cell = row[last] as string;
    if (cell.charCodeAt(cell.length - 1) === 13) row[last] = cell.slice(0, -1);
  }
}

/** Rows before the header an export may write (LinkedIn's "Notes:" and a sentence): at most this many. */
const MAX_PREAMBLE_ROWS = 10;
/** Rows after the header looked at to tell a preamble from a file of one column. */
const PREAMBLE_SAMPLE = 100;

/**
 * How many of the first rows are a preamble, not the table: 0 unless `first` (the first
 * non-blank row) is one cell and is followed by up to {@link MAX_PREAMBLE_ROWS} - 1 more
 * one-cell rows, then a row of several cells that most rows after it share (the header of
 * the table they form). LinkedIn's Connections.csv opens with "Notes:", a quoted sentence and
 * a blank line. A file of one column stays one: most of its rows are one cell; so does a
 * header followed by a single row (nothing to tell it by).
 */
export function preambleRows(first: readonly string[], rows: readonly (readonly string[])[]): number {
  if (first.length !== 1) return 0;
  let k = 0;
  while (k < rows.length && k < MAX_PREAMBLE_ROWS - 1 && rows[k]?.length === 1) k++;
  const width = rows[k]?.length ?? 0;
  if (width < 2) return 0;
  const after = rows.slice(k + 1, k + 1 + PREAMBLE_SAMPLE);
  const same = after.filter((r) => r.length === width).length;
  return after.length > 0 && same * 5 >= after.length * 4 ? k + 1 : 0;
}

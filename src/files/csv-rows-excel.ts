/**
 * Rows of delimited text read as Excel and Python's csv module read them, for the text
 * papaparse misreads: a quoted field closed and followed by more text before the delimiter
 * (`"Acme" Inc`) keeps that text (`Acme Inc`) and the row ends at its line break, where
 * papaparse reads on to the next closing quote and swallows the lines between. Also the text
 * where papaparse cannot tell a quoted cell ending in a carriage return (`"a\r"`) from a CRLF
 * line end. On any other text it gives papaparse's rows (the reader and the dedupe output's
 * second read use papaparse there, this only where papaparse reports a malformed quote):
 *
 * - a field starting with `"` runs to the next lone `"` (`""` is one quote); spaces between
 *   the closing quote and the delimiter or line end are dropped (papaparse drops them too);
 * - any other field runs to the delimiter or the line end; a quote in it is text;
 * - rows end at `rowBreak` outside quotes; when that is LF, a CR before it is part of the
 *   line end (CRLF and LF lines mixed in one file), as one at the file's end is;
 * - a quote never closed runs to the end of the file (the row is malformed).
 *
 * Per character JavaScript: slower than papaparse, so used only for the few chunks and rows
 * that need it.
 */

/** Rows read from a text, in papaparse's result shape (csv-reader.ts takes either). */
export interface ExcelRows {
  data: string[][];
  /** One per malformed row (a quote closed and followed by text, or never closed). */
  errors: { type: string; code: string; row: number }[];
  /** Where the first row not read starts (an incomplete last row, unless `atEnd`). */
  meta: { cursor: number };
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/** Whitespace as String.prototype.trim sees it (papaparse's test of "unnecessary spaces"). */
function isSpace(code: number): boolean {
  return String.fromCharCode(code).trim().length === 0;
}

/**
 * Reads up to `maxRows` rows of `text` from `from`. Unless `atEnd`, a row must end with a
 * line break to be read (the next chunk may continue it); at the end, the rest is the last
 * row. `delimiter` is one character; `rowBreak` is "\n" or "\r".
 */
export function readExcelRows(text: string, delimiter: string, rowBreak: '\n' | '\r', atEnd: boolean, from = 0, maxRows = Infinity): ExcelRows {
  const len = text.length;
  const delim = delimiter.charCodeAt(0);
  const brk = rowBreak.charCodeAt(0);
  const data: string[][] = [];
  const errors: ExcelRows['errors'] = [];
  let pos = from;
  /** An unquoted value ending at a row break (or the end): a CR before an LF line end is not its text. */
  const unquotedEnd = (value: string): string => (brk === LF && value.charCodeAt(value.length - 1) === CR ? value.slice(0, -1) : value);
  rows: while (pos < len && data.length < maxRows) {
    const row: string[] = [];
    let bad = false;
    let p = pos;
    for (;;) {
      let value = '';
      if (text.charCodeAt(p) === QUOTE) {
        let q = p + 1;
        for (;;) {
          const close = text.indexOf('"', q);
          if (close === -1) {
            // Never closed: at the end the rest is the field; else the next chunk may close it.
            if (!atEnd) break rows;
            value += text.slice(q);
            row.push(value);
            data.push(row);
            errors.push({ type: 'Quotes', code: 'MissingQuotes', row: data.length - 1 });
            pos = len;
            break rows;
          }
          if (close + 1 === len && !atEnd) break rows;
          value += text.slice(q, close);
          if (text.charCodeAt(close + 1) === QUOTE) {
            value += '"';
            q = close + 2;
            continue;
          }
          p = close + 1;
          break;
        }
        let w = p;
        while (w < len) {
          const c = text.charCodeAt(w);
          if (c === delim || c === brk || !isSpace(c)) break;
          w++;
        }
        if (w === len && !atEnd) break rows;
        const c = text.charCodeAt(w);
        if (w === len || c === delim || c === brk) {
          row.push(value);
          if (w === len) {
            pos = len;
            break;
          }
          p = w + 1;
          if (c === delim) continue;
          pos = p;
          break;
        }
        // Text after the closing quote: it belongs to the field, which runs on unquoted.
        bad = true;
      }
      let end = p;
      while (end < len) {
        const c = text.charCodeAt(end);
        if (c === delim || c === brk) break;
        end++;
      }
      if (end === len && !atEnd) break rows;
      value += text.slice(p, end);
      if (end < len && text.charCodeAt(end) === delim) {
        row.push(value);
        p = end + 1;
        continue;
      }
      row.push(unquotedEnd(value));
      pos = end === len ? len : end + 1;
      break;
    }
    data.push(row);
    if (bad) errors.push({ type: 'Quotes', code: 'InvalidQuotes', row: data.length - 1 });
  }
  return { data, errors, meta: { cursor: pos } };
}

/**
 * A streaming parser of delimited text with an explicit dialect (bulk import files, whose
 * dialect the client states: `columnDelimiter` Csv/Tab/Pipe, `hasQuotes`). Pure: text in,
 * rows out, fed chunk by chunk, so memory is bounded by the longest row.
 *
 * - With quotes (RFC 4180): a field that starts with `"` runs to the next lone `"`; `""`
 *   inside is one quote; it may hold delimiters and line breaks. Text between a closing
 *   quote and the next delimiter, or a quote never closed, makes the row malformed: the row
 *   is still handed out (as best read), with `error` saying why.
 * - Without quotes: `"` is an ordinary character.
 * - Line ends: `\n`, `\r\n` or `\r`. Blank lines are skipped (counted in line numbers).
 * - A row longer than `maxRowChars` (a quote never closed swallowing the file) throws
 *   {@link DelimitedError}: the file cannot be read.
 */

/** A file that cannot be read at all; the message says why, for the user. */
export class DelimitedError extends Error {
  override readonly name = 'DelimitedError';
}

/** The dialect of a file. */
export interface Dialect {
  /** One character: ",", "\t" or "|" (any single character works). */
  readonly delimiter: string;
  /** Whether `"` quotes fields. */
  readonly quotes: boolean;
  /** Longest row in characters; default 1 MiB. */
  readonly maxRowChars?: number;
}

/** One row: its cells, the line it starts on (1-based), and why it is malformed (or null). */
export interface ParsedRow {
  readonly cells: string[];
  readonly line: number;
  readonly error: string | null;
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const DEFAULT_MAX_ROW_CHARS = 1024 * 1024;

function countLineBreaks(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF) n++;
    else if (c === CR && text.charCodeAt(i + 1) !== LF) n++;
  }
  return n;
}

/** Incremental parser: `push` chunks, then `end`. */
export class DelimitedParser {
  private buffer = '';
  private line = 1;
  private readonly delimiter: number;
  private readonly quotes: boolean;
  private readonly maxRowChars: number;

  constructor(dialect: Dialect) {
    if (dialect.delimiter.length !== 1) throw new Error('DelimitedParser: the delimiter must be one character');
    this.delimiter = dialect.delimiter.charCodeAt(0);
    this.quotes = dialect.quotes;
    this.maxRowChars = Math.max(16, dialect.maxRowChars ?? DEFAULT_MAX_ROW_CHARS);
  }

  /** Rows completed by this chunk. */
  push(text: string): ParsedRow[] {
    this.buffer += text;
    return this.drain(false);
  }

  /** The last rows (the file's end ends the last row). */
  end(): ParsedRow[] {
    return this.drain(true);
  }

  private drain(final: boolean): ParsedRow[] {
    const out: ParsedRow[] = [];
    let start = 0;
    const s = this.buffer;
    while (start < s.length) {
      const row = this.readRow(s, start, final);
      if (row === null) break;
      const { cells, next, error, breaks } = row;
      const blank = cells.length === 1 && cells[0] === '' && error === null && s.charCodeAt(start) !== QUOTE;
      if (!blank) out.push({ cells, line: this.line, error });
      this.line += breaks;
      start = next;
    }
    this.buffer = s.slice(start);
    if (!final && this.buffer.length > this.maxRowChars) {
      throw new DelimitedError(`Line ${this.line}: a row longer than ${this.maxRowChars} characters; a quoted field is probably not closed (a stray '"').`);
    }
    if (final) this.buffer = '';
    return out;
  }

  /**
   * Reads the row starting at `start`; null when it is not complete in the buffer yet.
   * `breaks` counts the line breaks consumed (embedded ones and the row's own).
   */
  private readRow(s: string, start: number, final: boolean): { cells: string[]; next: number; error: string | null; breaks: number } | null {
    const cells: string[] = [];
    let error: string | null = null;
    let breaks = 0;
    let pos = start;
    const n = s.length;
    for (;;) {
      let value: string;
      let p: number;
      if (this.quotes && s.charCodeAt(pos) === QUOTE) {
        value = '';
        p = pos + 1;
        let closed = false;
        for (;;) {
          const q = s.indexOf('"', p);
          if (q === -1) {
            if (!final) return null;
            value += s.slice(p);
            p = n;
            break;
          }
          value += s.slice(p, q);
          if (q + 1 >= n && !final) return null;
          if (s.charCodeAt(q + 1) === QUOTE) {
            value += '"';
            p = q + 2;
            continue;
          }
          p = q + 1;
          closed = true;
          break;
        }
        breaks += countLineBreaks(value);
        if (!closed) {
          error ??= "a quoted field is not closed (a stray '\"')";
        } else if (p < n) {
          const c = s.charCodeAt(p);
          if (c !== this.delimiter && c !== LF && c !== CR) {
            let e = p;
            while (e < n) {
              const k = s.charCodeAt(e);
              if (k === this.delimiter || k === LF || k === CR) break;
              e++;
            }
            if (e >= n && !final) return null;
            value += s.slice(p, e);
            p = e;
            error ??= `text after a closing quote in field ${cells.length + 1}`;
          }
        }
      } else {
        let e = pos;
        while (e < n) {
          const k = s.charCodeAt(e);
          if (k === this.delimiter || k === LF || k === CR) break;
          e++;
        }
        if (e >= n && !final) return null;
        value = s.slice(pos, e);
        p = e;
      }
      cells.push(value);
      if (p >= n) return { cells, next: n, error, breaks };
      const c = s.charCodeAt(p);
      if (c === this.delimiter) {
        pos = p + 1;
        continue;
      }
      // A line end closes the row; "\r" at the buffer's end may be the first half of "\r\n".
      if (c === CR) {
        if (p + 1 >= n && !final) return null;
        return { cells, next: s.charCodeAt(p + 1) === LF ? p + 2 : p + 1, error, breaks: breaks + 1 };
      }
      return { cells, next: p + 1, error, breaks: breaks + 1 };
    }
  }
}

/** Parses a whole text (tests, small files). */
export function parseDelimited(text: string, dialect: Dialect): ParsedRow[] {
  const parser = new DelimitedParser(dialect);
  return [...parser.push(text), ...parser.end()];
}

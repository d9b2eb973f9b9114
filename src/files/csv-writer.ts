/**
 * Writing delimited text: RFC 4180 quoting (a field holding the delimiter, a double quote
 * or a line break is quoted; quotes doubled), UTF-8, "\n" line
 * ends. Output goes to a file (through a write stream, respecting back-pressure) or to a
 * text sink such as standard output.
 *
 * Every CSV the project writes (bulk import result files, the CLI's dedupe and link outputs)
 * goes through {@link formatCsvCell}, which neutralizes cells a spreadsheet would run as a
 * formula (CSV injection, OWASP "CSV Injection": a cell starting with `=`, `+`, `-`, `@`, TAB
 * or CR gets a leading `'`). A plain number (`-12.5`, `+15551234567`) is left alone: a
 * spreadsheet reads it as a number, not a formula.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { FileInputError } from './csv-reader.js';

/** First characters that make a spreadsheet read a cell as a formula (OWASP CSV Injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain decimal number, signed or not: a spreadsheet reads it as a number (no formula can hide in it). */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * The cell as a spreadsheet will show it as text: `'` before a cell that starts like a formula
 * (`=HYPERLINK(...)`, `+1+1`, `-2+3`, `@SUM(1,1)`, a leading TAB or CR), except a plain number.
 */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/** Whether a cell's first character is one of FORMULA_START's (`=`, `+`, `-`, `@`, TAB, CR): the regular expression's test without running it. */
function formulaStart(value: string): boolean {
  const c = value.charCodeAt(0);
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13;
}

/** Characters that make a field need quoting, by delimiter: a double quote, a line break, the delimiter. */
const NEEDS_QUOTES = new Map<string, RegExp>();
function needsQuotes(delimiter: string): RegExp {
  let re = NEEDS_QUOTES.get(delimiter);
  if (re === undefined) {
    re = new RegExp(`["\\n\\r${delimiter.replace(/[\\\]^-]/g, '\\$&')}]`);
    NEEDS_QUOTES.set(delimiter, re);
  }
  return re;
}

/** How cells are written. */
export interface CsvCellOptions {
  /**
   * Neutralize formula cells ({@link neutralizeFormula}). Default true: every CSV a person may
   * open. False only for files that a program reads back as data (a benchmark's input).
   */
  readonly neutralize?: boolean;
}

/** Quotes one field if it needs quoting, after {@link neutralizeFormula}. */
export function formatCsvCell(raw: string, delimiter = ',', options: CsvCellOptions = {}): string {
  if (raw.length === 0) return raw;
  // One native scan for the characters that need quotes, and a regular expression only for a
  // cell that starts like a formula: a dedupe writes a million rows of a dozen cells each.
  const value = options.neutralize === false || !formulaStart(raw) ? raw : neutralizeFormula(raw);
  if (delimiter.length !== 1) {
    const needs = value.indexOf('"') !== -1 || value.indexOf(delimiter) !== -1 || value.indexOf('\n') !== -1 || value.indexOf('\r') !== -1;
    return needs ? `"${value.replace(/"/g, '""')}"` : value;
  }
  return needsQuotes(delimiter).test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * One row as a line without its line end. A row of one empty field is written `""` so that
 * it reads back as a row, not as a blank line.
 */
export function formatCsvRow(cells: readonly string[], delimiter = ',', options: CsvCellOptions = {}): string {
  if (cells.length === 1 && cells[0] === '') return '""';
  let out = '';
  for (let i = 0; i < cells.length; i++) {
    if (i > 0) out += delimiter;
    out += formatCsvCell(cells[i] ?? '', delimiter, options);
  }
  return out;
}

/** Where written text goes. */
export interface TextSink {
  write(text: string): void | Promise<void>;
  close(): Promise<void>;
}

/** A sink over a function (standard output in the CLI, a string in tests). */
export function functionSink(write: (text: string) => void): TextSink {
  return { write, close: async () => undefined };
}

/** A sink writing a file; waits for the stream to drain when its buffer is full. `close` is idempotent. */
export async function fileSink(path: string): Promise<TextSink> {
  const stream: WriteStream = createWriteStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  let failure: Error | null = null;
  stream.on('error', (err) => {
    failure = err;
  });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (err) => reject(new FileInputError(describeWriteError(path, err))));
  });
  let closing: Promise<void> | null = null;
  const check = (): void => {
    if (failure !== null) throw new FileInputError(describeWriteError(path, failure));
  };
  return {
    write(text: string): void | Promise<void> {
      check();
      if (stream.write(text)) return;
      return new Promise<void>((resolve, reject) => {
        const onDrain = (): void => {
          stream.off('error', onError);
          resolve();
        };
        const onError = (err: Error): void => {
          stream.off('drain', onDrain);
          reject(new FileInputError(describeWriteError(path, err)));
        };
        stream.once('drain', onDrain);
        stream.once('error', onError);
      });
    },
    close(): Promise<void> {
      if (closing !== null) return closing;
      closing = new Promise<void>((resolve, reject) => {
        stream.end((err?: Error | null) => {
          if (err || failure) reject(new FileInputError(describeWriteError(path, err ?? failure ?? new Error('write failed'))));
          else resolve();
        });
      });
      return closing;
    },
  };
}

function describeWriteError(path: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return `${path}: cannot write (no such directory)`;
    case 'EACCES':
    case 'EPERM':
      return `${path}: cannot write (permission denied)`;
    case 'EISDIR':
      return `${path}: cannot write (is a directory)`;
    case 'ENOSPC':
      return `${path}: cannot write (no space left on device)`;
    default:
      return `${path}: cannot write (${code ?? (err instanceof Error ? err.message : String(err))})`;
  }
}

/** Buffers rows and writes them to a sink in blocks of about 256 KiB. */
export class CsvWriter {
  private buffer = '';
  /** Rows written so far (header included). */
  rows = 0;

  constructor(
    private readonly sink: TextSink,
    private readonly delimiter = ',',
  ) {}

  /** Adds a row; flushes when the buffer is full. */
  async writeRow(cells: readonly string[]): Promise<void> {
    if (this.add(cells)) await this.flush();
  }

  /**
   * Adds a row without writing: true when the buffer is full and the caller should
   * {@link flush} (one promise per block instead of one per row, for a million-row output).
   */
  add(cells: readonly string[]): boolean {
    this.buffer += formatCsvRow(cells, this.delimiter) + '\n';
    this.rows++;
    return this.buffer.length >= 1 << 18;
  }

  /** Adds a line already formatted (without its line end); answers as {@link add}. */
  addLine(line: string): boolean {
    this.buffer += line + '\n';
    this.rows++;
    return this.buffer.length >= 1 << 18;
  }

  /** Writes what is buffered. */
  async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const text = this.buffer;
    this.buffer = '';
    await this.sink.write(text);
  }

  /** Flushes and closes the sink. */
  async close(): Promise<void> {
    await this.flush();
    await this.sink.close();
  }
}

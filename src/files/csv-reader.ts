/**
 * Streaming reader of delimited text files (CSV, TSV...): reads the file in chunks, decodes
 * them (UTF-8, Latin-1, UTF-16; detected or given), splits rows with papaparse's parser
 * (the fastest measured here, docs dependencies.md) and hands out batches of data rows.
 *
 * Nothing is dropped silently: blank lines, rows with fewer or more fields than the header,
 * malformed quotes and bytes that are not valid in the encoding are counted with the line
 * numbers of the first few, for the summary. Cell values are handed out as written
 * (untrimmed); the header's names are trimmed.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { TextDecoder } from 'node:util';
import Papa from 'papaparse';
import { readExcelRows } from './csv-rows-excel.js';
import { issue, note, type CsvIssues } from './csv-issues.js';
import { fieldForHeader } from './header-map.js';
import { bareCrToLf, dropLineEndCr, hasBareCr, lineBreaksIn, preambleRows, readSepLine } from './line-ends.js';
import { DECODER_LABELS, detectDelimiter, detectEncoding, detectNewline, ROW_BREAK, type EncodingChoice, type TextEncodingName } from './sniff.js';

export { ISSUE_EXAMPLES, type CsvIssues, type IssueCount } from './csv-issues.js';

/** A file that cannot be read as delimited text: the message is meant for the user. */
export class FileInputError extends Error {
  override readonly name = 'FileInputError';
}

/** Options of {@link openCsv}. */
export interface CsvReadOptions {
  /** Field delimiter; detected from the first lines when absent. */
  readonly delimiter?: string | undefined;
  /** Encoding; default 'auto' (byte-order mark, else UTF-8 if valid, else Latin-1). */
  readonly encoding?: EncodingChoice | undefined;
  /** Rows per batch handed out. Default 2048. */
  readonly batchRows?: number | undefined;
  /**
   * Longest row, in characters, before a quoted field that is never closed is reported as
   * an error instead of swallowing the rest of the file. Default 4 MiB.
   */
  readonly maxRowChars?: number | undefined;
  /** Bytes read per chunk. Default 1 MiB. */
  readonly chunkBytes?: number | undefined;
}

/** How the file is written. */
export interface CsvLayout {
  readonly path: string;
  /** Size in bytes (for progress). */
  readonly size: number;
  readonly encoding: TextEncodingName;
  /** Why that encoding (detected or given). */
  readonly encodingReason: string;
  readonly delimiter: string;
  /**
   * The file opens with Excel's "sep=" line (line-ends.ts): it named the delimiter (unless
   * `--delimiter` did) and is not the header. Every reader of the file skips it.
   */
  readonly sepLine: boolean;
  /** The first line's end; rows end at {@link ROW_BREAK} (LF, CRLF and CR lines may mix). */
  readonly newline: string;
  /** Non-blank rows before the header, skipped: an export's notes (line-ends.ts preambleRows). */
  readonly preambleRows: number;
  /** Header names, trimmed; an empty name becomes "column N". */
  readonly header: readonly string[];
  /** Line number of the header (after leading blank lines). */
  readonly headerLine: number;
}

const DEFAULT_BATCH_ROWS = 2048;
const DEFAULT_MAX_ROW_CHARS = 4 * 1024 * 1024;
const DEFAULT_CHUNK_BYTES = 1024 * 1024;

interface ParseOutput {
  data: string[][];
  errors: { type: string; code: string; row?: number }[];
  meta: { cursor: number };
}

/** Consecutive data rows, with the line each starts on. */
export interface CsvBatch {
  readonly rows: string[][];
  readonly lines: number[];
}

/** An open delimited file: its layout, its issues so far, and its data rows in batches. */
export class CsvFile {
  readonly issues: CsvIssues = {
    blankLines: issue(),
    shortRows: issue(),
    longRows: issue(),
    badQuotes: issue(),
    swallowedLines: issue(),
    badBytes: issue(),
    preamble: issue(),
  };
  /** Data rows handed out so far. */
  rowsRead = 0;
  /** Bytes read from the file so far. */
  bytesRead = 0;
  private layoutValue: CsvLayout | null = null;
  private readonly pending: string[][] = [];
  private readonly pendingLines: number[] = [];
  private remainder = '';
  private line = 1;
  private eof = false;
  private closed = false;
  private readonly parser: Papa.Parser;
  private readonly decoder: TextDecoder;
  private readonly buffer: Buffer;
  private readonly batchRows: number;
  private readonly maxRowChars: number;
  private readonly newlineChar = ROW_BREAK;
  private headerWidth = 0;
  private sepLine = false;

  private constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
    private readonly size: number,
    private readonly encoding: TextEncodingName,
    private readonly encodingReason: string,
    private readonly delimiter: string,
    private readonly newline: string,
    firstText: string,
    options: CsvReadOptions,
  ) {
    this.parser = new Papa.Parser({ delimiter, newline: this.newlineChar, quoteChar: '"' });
    this.decoder = new TextDecoder(DECODER_LABELS[encoding]);
    this.buffer = Buffer.allocUnsafe(Math.max(16, options.chunkBytes ?? DEFAULT_CHUNK_BYTES));
    this.batchRows = Math.max(1, options.batchRows ?? DEFAULT_BATCH_ROWS);
    this.maxRowChars = Math.max(1024, options.maxRowChars ?? DEFAULT_MAX_ROW_CHARS);
    this.remainder = firstText;
  }

  /** Opens a file, detects its layout and reads its header. Throws FileInputError. */
  static async open(path: string, options: CsvReadOptions = {}): Promise<CsvFile> {
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch (err) {
      throw new FileInputError(describeOpenError(path, err));
    }
    try {
      const stat = await handle.stat();
      if (stat.isDirectory()) throw new FileInputError(`${path}: is a directory, not a file`);
      const chunkBytes = Math.max(16, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
      const first = Buffer.allocUnsafe(chunkBytes);
      const { bytesRead } = await handle.read(first, 0, chunkBytes, null);
      const sample = first.subarray(0, bytesRead);
      const complete = bytesRead < chunkBytes;
      const choice = options.encoding ?? 'auto';
      const guess = choice === 'auto' ? detectEncoding(sample, complete) : { encoding: choice, reason: 'given by --encoding' };
      const decoder = new TextDecoder(DECODER_LABELS[guess.encoding]);
      const text = decoder.decode(sample, { stream: true });
      // Detection looks at the first lines only; the decoder keeps any cut multi-byte tail.
      // Excel's "sep=;" first line names the delimiter and is not the header.
      const sep = readSepLine(text);
      const body = sep === null ? text : text.slice(sep.length);
      const delimiter = options.delimiter ?? sep?.delimiter ?? detectDelimiter(body);
      const newline = detectNewline(body);
      const file = new CsvFile(handle, path, stat.size, guess.encoding, guess.reason, delimiter, newline, '', options);
      // Re-decode the first chunk with the file's own decoder so its state carries on.
      file.remainder = file.decoder.decode(sample, { stream: true });
      if (sep !== null) {
        file.remainder = file.remainder.slice(sep.length);
        file.sepLine = true;
        file.line = 2;
      }
      file.bytesRead = bytesRead;
      if (complete) {
        file.eof = true;
        file.remainder += file.decoder.decode();
      }
      file.parseRemainder();
      await file.readHeader();
      return file;
    } catch (err) {
      await handle.close().catch(() => undefined);
      if (err instanceof FileInputError) throw err;
      throw new FileInputError(`${path}: cannot read (${err instanceof Error ? err.message : String(err)})`);
    }
  }

  /** The file's layout (available once open). */
  get layout(): CsvLayout {
    if (this.layoutValue === null) throw new Error('CsvFile: layout read before open');
    return this.layoutValue;
  }

  /** Number of fields of the header. */
  get width(): number {
    return this.headerWidth;
  }

  /** Data rows in batches, in file order. Closes the file at the end. */
  async *batches(): AsyncGenerator<CsvBatch> {
    try {
      for (;;) {
        while (this.pending.length < this.batchRows && !this.eof) await this.readChunk();
        if (this.pending.length === 0) break;
        const rows = this.pending.splice(0, this.batchRows);
        const lines = this.pendingLines.splice(0, rows.length);
        this.rowsRead += rows.length;
        yield { rows, lines };
      }
    } finally {
      await this.close();
    }
  }

  /** Closes the file (idempotent). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close().catch(() => undefined);
  }

  private async readHeader(): Promise<void> {
    while (this.headerRow === null && !this.eof) await this.readChunk();
    // A one-cell first row may be an export's notes: the rows after it tell (line-ends.ts).
    while (this.headerWidth === 1 && this.pending.length < 128 && !this.eof) await this.readChunk();
    // A first row that names a field ("Name") is a header of one column, whatever follows it.
    const named = this.headerRow !== null && fieldForHeader(this.headerRow[0] ?? '') !== null;
    const preamble = this.headerRow === null || named ? 0 : preambleRows(this.headerRow, this.pending);
    if (preamble > 0) this.skipPreamble(preamble);
    const header = this.headerRow;
    if (header === null) throw new FileInputError(`${this.path}: the file is empty (no header line)`);
    const names = header.map((h, i) => {
      const name = h.trim();
      return name.length > 0 ? name : `column ${i + 1}`;
    });
    this.layoutValue = {
      path: this.path,
      size: this.size,
      encoding: this.encoding,
      encodingReason: this.encodingReason,
      delimiter: this.delimiter,
      sepLine: this.sepLine,
      newline: this.newline,
      preambleRows: preamble,
      header: names,
      headerLine: this.headerLineNumber,
    };
  }

  private headerLineNumber = 1;
  private headerRow: string[] | null = null;

  /** Takes the header from the pending rows, after `count` rows of notes; short and long rows are counted again against it. */
  private skipPreamble(count: number): void {
    note(this.issues.preamble, this.headerLineNumber);
    this.pendingLines.slice(0, count - 1).forEach((line) => note(this.issues.preamble, line));
    this.headerRow = this.pending[count - 1] as string[];
    this.headerWidth = this.headerRow.length;
    this.headerLineNumber = this.pendingLines[count - 1] as number;
    this.pending.splice(0, count);
    this.pendingLines.splice(0, count);
    for (const issue of [this.issues.shortRows, this.issues.longRows]) {
      issue.count = 0;
      issue.lines.length = 0;
    }
    this.pending.forEach((row, i) => {
      const line = this.pendingLines[i] as number;
      if (row.length < this.headerWidth) note(this.issues.shortRows, line);
      else if (row.length > this.headerWidth) note(this.issues.longRows, line);
    });
  }

  private async readChunk(): Promise<void> {
    const { bytesRead } = await this.handle.read(this.buffer, 0, this.buffer.length, null);
    if (bytesRead === 0) {
      this.eof = true;
      this.remainder += this.decoder.decode();
    } else {
      this.bytesRead += bytesRead;
      this.remainder += this.decoder.decode(this.buffer.subarray(0, bytesRead), { stream: true });
    }
    this.parseRemainder();
  }

  /** Parses the buffered text into rows; keeps a last incomplete row unless at the end. */
  private parseRemainder(): void {
    // The buffered text starts a row: bare CR line ends (a file of CR lines, or CR lines mixed with others) become LF.
    if (hasBareCr(this.remainder)) this.remainder = bareCrToLf(this.remainder, this.delimiter, this.eof);
    const text = this.remainder;
    if (text.length === 0) return;
    // Rows that end in a line break first; at the end, what is left is the last row.
    const result = this.parse(text, false);
    this.remainder = text.slice(result.meta.cursor);
    this.take(result, text);
    if (this.eof) {
      const last = this.remainder;
      this.remainder = '';
      if (last.length > 0) this.take(this.parse(last, true), last, true);
    } else if (this.remainder.length > this.maxRowChars) {
      throw new FileInputError(
        `${this.path}: line ${this.line}: a row longer than ${this.maxRowChars} characters; a quoted field is probably not closed (a stray '"')`,
      );
    }
  }

  /**
   * The rows of `text` (the complete ones, unless `atEnd`): papaparse's, or where papaparse
   * reports a malformed quote or cannot tell a quoted cell's CR from a CRLF line end, the
   * rows Excel reads (csv-rows-excel.ts). Well-formed text takes papaparse's path only.
   */
  private parse(text: string, atEnd: boolean): ParseOutput {
    const result = this.parser.parse(text, 0, !atEnd) as ParseOutput;
    const cr = text.indexOf('\r') !== -1;
    if (result.errors.length === 0 && !(cr && text.indexOf('\r"') !== -1)) {
      if (cr) dropLineEndCr(result.data);
      return result;
    }
    return readExcelRows(text, this.delimiter, this.newlineChar, atEnd);
  }

  private take(result: ParseOutput, text: string, atEnd = false): void {
    const quoted = text.indexOf('"') !== -1;
    const replaced = text.indexOf('\uFFFD') !== -1;
    const badQuoteRows = new Set<number>();
    for (const e of result.errors) {
      if (e.type === 'Quotes' && typeof e.row === 'number') badQuoteRows.add(e.row);
    }
    const rows = result.data;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r] as string[];
      const line = this.line;
      const embedded = quoted ? embeddedNewlines(row, this.newline === '\r') : 0;
      this.line += 1 + embedded;
      if (row.length === 1 && (row[0] as string).trim().length === 0) {
        note(this.issues.blankLines, line);
        continue;
      }
      if (this.headerRow === null) {
        this.headerRow = row;
        this.headerWidth = row.length;
        this.headerLineNumber = line;
        continue;
      }
      if (badQuoteRows.has(r)) {
        note(this.issues.badQuotes, line);
        // An unclosed quote at the end swallows the file's last line break too: not a line.
        const lastCell = row[row.length - 1] ?? '';
        const endsInBreak = lastCell.endsWith('\n') || (this.newline === '\r' && lastCell.endsWith('\r'));
        const swallowed = embedded - (atEnd && r === rows.length - 1 && endsInBreak ? 1 : 0);
        if (swallowed > 0) {
          note(this.issues.swallowedLines, line);
          this.issues.swallowedLines.count += swallowed - 1;
        }
      }
      if (replaced && row.some((cell) => cell.indexOf('\uFFFD') !== -1)) note(this.issues.badBytes, line);
      if (row.length < this.headerWidth) note(this.issues.shortRows, line);
      else if (row.length > this.headerWidth) note(this.issues.longRows, line);
      this.pending.push(row);
      this.pendingLines.push(line);
    }
  }
}

/** Convenience for {@link CsvFile.open}. */
export function openCsv(path: string, options: CsvReadOptions = {}): Promise<CsvFile> {
  return CsvFile.open(path, options);
}

/** Line breaks inside a row's cells (a quoted cell's own; in a file of CR lines, its bare CRs too). */
function embeddedNewlines(row: readonly string[], crLines: boolean): number {
  let n = 0;
  for (const cell of row) n += lineBreaksIn(cell, crLines);
  return n;
}

/** One line for a failure to open a file. */
export function describeOpenError(path: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return `${path}: no such file`;
    case 'EACCES':
    case 'EPERM':
      return `${path}: permission denied`;
    case 'EISDIR':
      return `${path}: is a directory, not a file`;
    default:
      return `${path}: cannot open (${code ?? (err instanceof Error ? err.message : String(err))})`;
  }
}

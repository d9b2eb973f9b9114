/**
 * Reading a delimited file a second time to write its rows out again (a dedupe's output): each
 * data row comes as the text {@link formatCsvCell} would give its cells joined by the delimiter,
 * without building the cells when it can. A line without a double quote is split as papaparse
 * splits it (at the delimiter: it has no quoted field), and most such lines are their own
 * output (no cell needs quotes or starts like a formula): the line is handed out as it is. A
 * line holding a quote is parsed by papaparse from the row's start, one row at a time, so that
 * the rows and cells are the ones {@link CsvFile} reads (papaparse parses a row the same from
 * its start whatever came before it). At 1,000,000 rows of the bench file (3% of lines
 * quoted) this skips most of the second parse and of the formatting.
 *
 * The layout (encoding, delimiter, line end) is the one read the first time; an Excel "sep="
 * line, notes before the header, the header and blank lines are skipped as CsvFile skips them. Rows end where CsvFile
 * ends them (LF, a CR before it being the line end's; a bare CR outside quotes made LF first:
 * line-ends.ts), and a row papaparse misreads (a malformed quote) is read as CsvFile reads it
 * (csv-rows-excel.ts).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { TextDecoder } from 'node:util';
import Papa from 'papaparse';
import { describeOpenError, FileInputError, type CsvLayout } from './csv-reader.js';
import { readExcelRows } from './csv-rows-excel.js';
import { formatCsvCell } from './csv-writer.js';
import { bareCrToLf, dropLineEndCr, hasBareCr, readSepLine } from './line-ends.js';
import { DECODER_LABELS, ROW_BREAK } from './sniff.js';

/** Bytes read at a time (csv-reader.ts reads the same). */
const CHUNK_BYTES = 1024 * 1024;
const MAX_ROW_CHARS = 4 * 1024 * 1024;

/** Data rows, in file order: each one's cells as an output line's text, and its cells on demand. */
export interface CsvTextBatch {
  /** The row's cells, each formatted by {@link formatCsvCell}, joined by the delimiter. */
  readonly texts: string[];
  /** Row `i`'s cells as read (for the few rows a caller keeps). */
  cells(i: number): string[];
}

interface ParseOutput {
  data: string[][];
  errors: unknown[];
  meta: { cursor: number };
}

/** Whether a cell starting with this character code may be neutralized (csv-writer.ts formulaStart: `=`, `+`, `-`, `@`, TAB, CR). */
function formulaCode(c: number): boolean {
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13;
}

/** Cells formatted for output and joined (csv-writer.ts formatCsvRow, without its single-empty-cell rule: the caller prefixes cells). */
function formatCells(cells: readonly string[], delimiter: string): string {
  let out = '';
  for (let i = 0; i < cells.length; i++) {
    if (i > 0) out += delimiter;
    out += formatCsvCell(cells[i] ?? '', delimiter);
  }
  return out;
}

/** A row of papaparse's that is a blank line (csv-reader.ts take). */
function blank(row: readonly string[]): boolean {
  return row.length === 1 && (row[0] as string).trim().length === 0;
}

/** A file opened again: its data rows, and closing it (idempotent; the batches close it at their end). */
export interface CsvRowTexts {
  batches(): AsyncGenerator<CsvTextBatch>;
  close(): Promise<void>;
}

/**
 * Opens `layout.path` again (throws FileInputError as {@link CsvFile.open} does); its data rows
 * come in batches of at least `batchRows` rows (or the rest).
 */
export async function openCsvRowTexts(layout: CsvLayout, batchRows: number, chunkBytes = CHUNK_BYTES): Promise<CsvRowTexts> {
  let handle: FileHandle;
  try {
    handle = await open(layout.path, 'r');
  } catch (err) {
    throw new FileInputError(describeOpenError(layout.path, err));
  }
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await handle.close().catch(() => undefined);
  };
  return { batches: () => rowTexts(handle, layout, batchRows, Math.max(16, chunkBytes), close), close };
}

async function* rowTexts(
  handle: FileHandle,
  layout: CsvLayout,
  batchRows: number,
  chunkBytes: number,
  close: () => Promise<void>,
): AsyncGenerator<CsvTextBatch> {
  const { delimiter } = layout;
  const delimLen = delimiter.length;
  // Rows end at LF (a CR before it is part of the line end; a bare CR outside quotes was made LF): as CsvFile reads them.
  const newline = ROW_BREAK;
  const parser = new Papa.Parser({ delimiter, newline, quoteChar: '"', preview: 1 });
  const decoder = new TextDecoder(DECODER_LABELS[layout.encoding]);
  const buffer = Buffer.allocUnsafe(chunkBytes);
  let remainder = '';
  let eof = false;
  // Excel's "sep=" line, which CsvFile skipped (it is not the header).
  let sepPending = layout.sepLine;
  // Rows before the first data row: an export's notes (CsvFile skipped them) and the header.
  let skip = 1 + layout.preambleRows;
  let texts: string[] = [];
  // A row's cells: a string is a line without quotes (its cells are its split), an array papaparse's cells.
  let rows: (string | string[])[] = [];
  const batch = (): CsvTextBatch => {
    const own = rows;
    const cells = (i: number): string[] => {
      const row = own[i];
      return typeof row === 'string' ? row.split(delimiter) : (row ?? []);
    };
    const out = { texts, cells };
    texts = [];
    rows = [];
    return out;
  };
  /** Takes the complete rows of `text` (all of it at the end of the file); answers where the rest starts. */
  const take = (text: string): number => {
    const end = text.length;
    let pos = 0;
    let nextQuote = text.indexOf('"');
    let nextCr = -2;
    let nextLf = -2;
    while (pos < end) {
      if (nextQuote !== -1 && nextQuote < pos) nextQuote = text.indexOf('"', pos);
      let nl = text.indexOf(newline, pos);
      if (nextQuote !== -1 && (nl === -1 || nextQuote < nl)) {
        // A quote in this line: papaparse reads the row (which may span lines) from its start.
        const rest = pos === 0 ? text : text.slice(pos);
        let result = parser.parse(rest, 0, !eof) as ParseOutput;
        const row0 = result.data[0];
        if (row0 === undefined && result.errors.length === 0) return pos;
        // A malformed quote, or a CR papaparse cannot place: the row as CsvFile reads it (csv-reader.ts parse).
        if (result.errors.length > 0 || rest.slice(0, result.meta.cursor).indexOf('\r"') !== -1) {
          result = readExcelRows(rest, delimiter, newline, eof, 0, 1);
        } else dropLineEndCr(result.data);
        const row = result.data[0];
        if (row === undefined) return pos;
        pos += result.meta.cursor;
        if (!blank(row)) {
          if (skip > 0) skip--;
          else {
            texts.push(formatCells(row, delimiter));
            rows.push(row);
          }
        }
        if (result.meta.cursor === 0) return end; // papaparse took nothing: the rest of the file is that row (not reached in practice)
        continue;
      }
      if (nl === -1) {
        if (!eof) return pos;
        nl = end;
      }
      // No quote up to the line end: the cells are the line split at the delimiter; a CR before an LF is the line end's.
      const lineEnd = nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      let plain = true;
      if (nextCr !== -1 && nextCr < pos) nextCr = text.indexOf('\r', pos);
      if (nextLf !== -1 && nextLf < pos) nextLf = text.indexOf('\n', pos);
      // A line break inside the line (a CR in a file of LF lines...) makes its cell need quotes.
      if ((nextCr !== -1 && nextCr < lineEnd) || (nextLf !== -1 && nextLf < nl)) plain = false;
      let cellsAfter = 0;
      if (plain && formulaCode(text.charCodeAt(pos))) plain = false;
      let d = text.indexOf(delimiter, pos);
      while (d !== -1 && d < lineEnd) {
        cellsAfter++;
        if (plain && d + delimLen < lineEnd && formulaCode(text.charCodeAt(d + delimLen))) plain = false;
        d = text.indexOf(delimiter, d + delimLen);
      }
      const line = text.slice(pos, lineEnd);
      pos = nl + 1;
      if (cellsAfter === 0 && line.trim().length === 0) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      texts.push(plain ? line : formatCells(line.split(delimiter), delimiter));
      rows.push(line);
    }
    return end;
  };
  try {
    while (!eof) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) {
        eof = true;
        remainder += decoder.decode();
      } else remainder += decoder.decode(buffer.subarray(0, bytesRead), { stream: true });
      if (sepPending) {
        // Skipped once its line end is read (a CR may be the first half of a CRLF).
        const sep = readSepLine(remainder);
        if (!eof && sep !== null && sep.length >= remainder.length) continue;
        remainder = remainder.slice(sep?.length ?? 0);
        sepPending = false;
      }
      // The rest starts a row: bare CR line ends become LF, as CsvFile reads them.
      if (hasBareCr(remainder)) remainder = bareCrToLf(remainder, delimiter, eof);
      const used = take(remainder);
      remainder = used >= remainder.length ? '' : remainder.slice(used);
      if (remainder.length > MAX_ROW_CHARS) throw new FileInputError(`${layout.path}: a row longer than ${MAX_ROW_CHARS} characters on the second read`);
      if (texts.length >= batchRows || (eof && texts.length > 0)) yield batch();
    }
  } finally {
    await close();
  }
}

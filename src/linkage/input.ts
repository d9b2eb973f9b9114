/**
 * An input file of a matching command: opened, its header mapped, then read in batches
 * into the matching pool, with ids checked and reading progress shown.
 */
import { openCsv, type CsvFile, type CsvIssues, type CsvLayout } from '../files/csv-reader.js';
import { describeDateOrder, detectDateOrder, sampleColumn } from '../files/date-order.js';
import { mapHeaders, type ColumnOverride, type HeaderPlan } from '../files/header-map.js';
import type { EncodingChoice } from '../files/sniff.js';
import type { ProgressSink } from './progress.js';
import { LinkageInputError } from './errors.js';
import type { RowBatch } from './shard.js';

/** How to read and map a file. */
export interface InputOptions {
  readonly delimiter?: string | undefined;
  readonly encoding?: EncodingChoice | undefined;
  readonly overrides: readonly ColumnOverride[];
  readonly idColumn?: string | undefined;
  /** Identifier columns by type (`--identifier TYPE=COLUMN`). */
  readonly identifiers?: readonly { readonly type: string; readonly header: string }[] | undefined;
  /** Columns compared as attributes (`--attribute COLUMN`). */
  readonly attributes?: readonly string[] | undefined;
  /** Rows per batch. */
  readonly batchRows: number;
  /** Find the order the file writes dates in (no `--date-format` given): see {@link mapFile}. */
  readonly readDateOrder?: boolean | undefined;
}

/** An opened, mapped input. */
export interface OpenedInput {
  readonly path: string;
  readonly csv: CsvFile;
  readonly plan: HeaderPlan;
  readonly layout: CsvLayout;
}

/** What reading a whole input gave. */
export interface ReadInput {
  readonly rows: number;
  /** Id of each row (the id column) or null when ids are row numbers (1-based). */
  readonly ids: string[] | null;
  /** Line each row starts on. */
  readonly lines: Int32Array;
  readonly issues: CsvIssues;
  readonly batches: number;
  /** Why a detected id column was not used (its values repeat or are empty), or null. */
  readonly idNote: string | null;
}

/** Input paths that mean standard input, which the commands cannot read twice. */
const STDIN_NAMES = new Set(['-', '/dev/stdin']);

/** Opens a file and reads its header; a LinkageInputError on any problem. */
export async function openFile(path: string, options: Pick<InputOptions, 'delimiter' | 'encoding' | 'batchRows'>): Promise<CsvFile> {
  if (STDIN_NAMES.has(path) || path.endsWith('/-')) {
    throw new LinkageInputError('reading standard input is not supported (the file is read more than once): save it to a file and pass its name');
  }
  try {
    return await openCsv(path, { delimiter: options.delimiter, encoding: options.encoding, batchRows: options.batchRows });
  } catch (err) {
    throw new LinkageInputError(err instanceof Error ? err.message : String(err));
  }
}

/**
 * Maps an opened file's header (closing it on error). `readDateOrder` (no `--date-format`
 * given): the order the file writes dates in, from the date column's header or else its
 * first rows (files date-order.ts), goes in the plan, with a note.
 */
export async function mapFile(
  path: string,
  csv: CsvFile,
  options: Pick<InputOptions, 'overrides' | 'idColumn' | 'identifiers' | 'attributes' | 'readDateOrder'>,
): Promise<OpenedInput> {
  const mapped = mapHeaders(csv.layout.header, {
    overrides: options.overrides,
    idColumn: options.idColumn,
    detectId: true,
    ...(options.identifiers !== undefined ? { identifiers: options.identifiers } : {}),
    ...(options.attributes !== undefined ? { attributes: options.attributes } : {}),
  });
  if ('error' in mapped) {
    await csv.close();
    throw new LinkageInputError(`${path}: ${mapped.error}`);
  }
  let plan: HeaderPlan = mapped;
  if (options.readDateOrder === true) {
    const column = plan.columns.indexOf('dateOfBirth');
    let dateOrder = plan.dateOrder;
    if (dateOrder === null && column !== -1) {
      try {
        dateOrder = detectDateOrder(await sampleColumn(csv.layout, column));
      } catch (err) {
        await csv.close();
        throw new LinkageInputError(`${path}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    if (dateOrder !== null) {
      const said = `dates are read ${describeDateOrder(dateOrder)}: ${dateOrder.how}`;
      plan = { ...plan, dateOrder, notes: [...plan.notes, said] };
    }
  } else if (plan.dateOrder !== null) plan = { ...plan, dateOrder: null };
  return { path, csv, plan, layout: csv.layout };
}

/** Opens and maps an input; a LinkageInputError on any problem. */
export async function openInput(path: string, options: InputOptions): Promise<OpenedInput> {
  return mapFile(path, await openFile(path, options), options);
}

/** Growable Int32 storage. */
class IntList {
  private data = new Int32Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  toArray(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

/**
 * Reads every row of an opened input and hands batches to `send` (which may wait, for
 * back-pressure). Checks that ids are present and unique. Shows progress by bytes read.
 */
export async function readInput(input: OpenedInput, send: (batch: RowBatch) => Promise<void>, progress: ProgressSink, phase: string): Promise<ReadInput> {
  const { csv, plan } = input;
  let idColumn = plan.idColumn;
  let ids: string[] | null = idColumn === null ? null : [];
  let idNote: string | null = null;
  const firstLine = new Map<string, number>();
  const lines = new IntList();
  let seq = 0;
  let rows = 0;
  progress.start(phase, null);
  try {
    for await (const batch of csv.batches()) {
      if (ids !== null && idColumn !== null) {
        for (let i = 0; i < batch.rows.length; i++) {
          const id = (batch.rows[i]?.[idColumn] ?? '').trim();
          const line = batch.lines[i] ?? 0;
          const header = plan.headers[idColumn] ?? '';
          const seen = firstLine.get(id);
          const problem =
            id.length === 0
              ? `line ${line}: the id column "${header}" is empty`
              : seen !== undefined
                ? `line ${line}: id "${id}" repeats line ${seen} (column "${header}")`
                : null;
          if (problem !== null) {
            if (!plan.idDetected) throw new LinkageInputError(`${input.path}: ${problem}; ids must be unique (omit --id to use row numbers)`);
            // A column that only looks like an id: row numbers stand in.
            idNote = `column "${header}" looked like an id column but its values are not unique (${problem}): rows are numbered instead`;
            ids = null;
            idColumn = null;
            break;
          }
          firstLine.set(id, line);
          ids.push(id);
        }
      }
      for (const line of batch.lines) lines.push(line);
      await send({ seq, firstId: rows, rows: batch.rows, lines: batch.lines });
      seq++;
      rows += batch.rows.length;
      progress.update(rows, csv.layout.size > 0 ? csv.bytesRead / csv.layout.size : null);
    }
  } catch (err) {
    await csv.close();
    if (err instanceof LinkageInputError) throw err;
    throw new LinkageInputError(err instanceof Error ? err.message : String(err));
  } finally {
    progress.finish();
  }
  return { rows, ids, lines: lines.toArray(), issues: csv.issues, batches: seq, idNote };
}

/** The id shown for a row: its id column value, else its 1-based row number. */
export function idOf(ids: readonly string[] | null, row: number): string {
  return ids === null ? String(row + 1) : (ids[row] ?? String(row + 1));
}

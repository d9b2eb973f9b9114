/** Temporary CSV files and a reader of all their rows, shared by the CSV reader's tests. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openCsv, type CsvReadOptions } from '../../src/files/csv-reader.js';

/** A writer of files in a temporary directory removed after the test file: `file(content)` gives its path. */
export function tempCsvFiles(prefix: string): { readonly dir: string; readonly file: (content: string | Buffer) => string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let seq = 0;
  return {
    dir,
    file: (content: string | Buffer): string => {
      const path = join(dir, `f${seq++}.csv`);
      writeFileSync(path, content);
      return path;
    },
  };
}

/** Every row of a file as the reader hands them out, with their line numbers, layout and issues. */
export async function readAllRows(path: string, options: CsvReadOptions = {}) {
  const csv = await openCsv(path, options);
  const rows: string[][] = [];
  const lines: number[] = [];
  for await (const batch of csv.batches()) {
    rows.push(...batch.rows);
    lines.push(...batch.lines);
  }
  return { layout: csv.layout, issues: csv.issues, rows, lines, rowsRead: csv.rowsRead };
}

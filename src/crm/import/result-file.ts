/**
 * The result file of a bulk import job (compatibility.md "Bulk import"): CSV with
 * `BulkUploadDataID, ULFileID, PrimaryKey, PrimaryKeyType`, the columns to include, then one
 * column per mapping type with the row's outcome there (`Processed`, or why not). Split into
 * parts of at most `resultFileSizeKbLimit` KB (each part repeats the header).
 */
import { formatCsvRow } from '../../files/csv-writer.js';
import type { ImportResultPart, ImportRowResult } from '../../store/index.js';
import type { JobSpec } from './job-request.js';

/** The header line's cells. */
export function resultHeader(spec: JobSpec): string[] {
  return ['BulkUploadDataID', 'ULFileID', 'PrimaryKey', 'PrimaryKeyType', ...spec.columnsToInclude, ...spec.mappingTypes.map((m) => m.name)];
}

/** One row's line (without line end). */
export function resultLine(spec: JobSpec, fileId: number | null, row: ImportRowResult): string {
  const outcomes = spec.mappingTypes.map((_, i) => row.outcomes[i] ?? '');
  const included = spec.columnsToInclude.map((_, i) => row.included[i] ?? '');
  return formatCsvRow([
    String(row.rowNo),
    fileId === null ? '' : String(fileId),
    row.crmId === null ? '' : String(row.crmId),
    row.crmId === null ? '' : 'VanID',
    ...included,
    ...outcomes,
  ]);
}

/** Splits rows into parts: appends row `rowNo` of `bytes` (its line with the line end) to `parts`. */
export class PartSplitter {
  readonly parts: ImportResultPart[] = [];
  private size = 0;

  constructor(
    private readonly limitBytes: number,
    private readonly headerBytes: number,
  ) {}

  add(rowNo: number, bytes: number): void {
    const last = this.parts[this.parts.length - 1];
    if (last !== undefined && this.size + bytes <= this.limitBytes) {
      this.parts[this.parts.length - 1] = { firstRow: last.firstRow, lastRow: rowNo };
      this.size += bytes;
      return;
    }
    this.parts.push({ firstRow: rowNo, lastRow: rowNo });
    this.size = this.headerBytes + bytes;
  }
}

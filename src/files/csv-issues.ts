/**
 * Irregularities met while reading a delimited file (csv-reader.ts): what kind, how many, and
 * the line numbers of the first few, for the summary.
 */

/** A kind of irregularity: how many rows, and the line numbers of the first few. */
export interface IssueCount {
  count: number;
  readonly lines: number[];
}

/** Irregularities met while reading; filled as rows are read. */
export interface CsvIssues {
  /** Blank lines (not rows: they carry no data and are not written out). */
  readonly blankLines: IssueCount;
  /** Rows with fewer fields than the header: the missing fields read as empty. */
  readonly shortRows: IssueCount;
  /** Rows with more fields than the header: the extra fields are kept but not matched on. */
  readonly longRows: IssueCount;
  /** Rows with a malformed quoted field (papaparse reads them as best it can). */
  readonly badQuotes: IssueCount;
  /**
   * Lines swallowed by a malformed quoted field (read into the previous row's field instead
   * of as rows of their own); `lines` holds the line of each such row.
   */
  readonly swallowedLines: IssueCount;
  /** Rows holding bytes that are not valid in the encoding (shown as U+FFFD). */
  readonly badBytes: IssueCount;
  /** Rows of notes before the header (LinkedIn's "Notes:"), skipped. */
  readonly preamble: IssueCount;
}

/** How many example line numbers an issue keeps. */
export const ISSUE_EXAMPLES = 5;

export function issue(): IssueCount {
  return { count: 0, lines: [] };
}

export function note(target: IssueCount, line: number): void {
  target.count++;
  if (target.lines.length < ISSUE_EXAMPLES) target.lines.push(line);
}

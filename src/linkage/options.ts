/**
 * What a linkage run needs besides its files: the matching settings, how to read the files,
 * and how many threads to use. Plain data, so that the CLI and scripts build it alike.
 */
import { availableParallelism } from 'node:os';
import type { ColumnOverride } from '../files/header-map.js';
import type { EncodingChoice } from '../files/sniff.js';
import type { MatchSettings } from './settings.js';

/** Options of a dedupe or link run. */
export interface RunOptions {
  readonly settings: MatchSettings;
  /** Columns read as another field than their header says (`--map HEADER=field`). */
  readonly overrides: readonly ColumnOverride[];
  /** Column holding each row's id; undefined: detected (`id`, `unique_id`, `rec_id`...) or row numbers. */
  readonly idColumn?: string | undefined;
  /** Field delimiter; undefined: detected. */
  readonly delimiter?: string | undefined;
  /** Input encoding; undefined: detected. */
  readonly encoding?: EncodingChoice | undefined;
  /** Identifier columns by type (`--identifier TYPE=COLUMN`); others are found by their headers. */
  readonly identifiers?: readonly { readonly type: string; readonly header: string }[] | undefined;
  /** Columns compared as free-text attributes (`--attribute COLUMN`); others are found by their headers. */
  readonly attributes?: readonly string[] | undefined;
  /** Matching threads; null: decided by the input's size ({@link threadsFor}). */
  readonly threads: number | null;
}

/** Files at least this large are matched on several threads by default (worker start-up pays off). */
export const PARALLEL_MIN_BYTES = 4 * 1024 * 1024;

/** Threads to use: the option, else up to 2 (the cores there are) for large inputs, else 1. */
export function threadsFor(requested: number | null, inputBytes: number): number {
  if (requested !== null) return requested;
  return inputBytes >= PARALLEL_MIN_BYTES ? Math.max(1, Math.min(2, availableParallelism())) : 1;
}

/**
 * What every scenario shares: the public types, how many records an entity gets, and the
 * last step that shuffles the drafted records, numbers them and counts the statistics.
 */
import { Rng, WeightedSampler } from '../prng.js';
import type { Level, ProcessCount } from './rates.js';

export type Scenario = 'historical' | 'ocr' | 'mixed';
export const SCENARIOS: readonly Scenario[] = ['historical', 'ocr', 'mixed'];

export interface MessyOptions {
  readonly scenario: Scenario;
  readonly level: Level;
  /** Any 32-bit integer. The same options give the same bytes on every machine. */
  readonly seed: number;
  /** Number of people (default: the scenario's, for a file of about 3,000-8,000 rows). */
  readonly entities?: number;
  /**
   * Historical scenario: 4-18 records per person (a life through censuses, parish and civil
   * registers) instead of 1-6; the other scenarios ignore it. Default false.
   */
  readonly manyRecords?: boolean;
}

export interface MessyStats {
  readonly scenario: Scenario;
  readonly level: Level;
  readonly seed: number;
  readonly rows: number;
  /** People with at least one row. */
  readonly entities: number;
  /** Pairs of rows of the same person: the sum of n(n-1)/2 over people. */
  readonly truePairs: number;
  /** People by number of rows: { "1": 1520, "2": 640, ... }. */
  readonly clusterSizes: Record<string, number>;
  /** Rows tagged with at least one error process. */
  readonly rowsWithErrors: number;
  /** Rows beyond each person's first, and how many of them carry an error. */
  readonly duplicateRows: number;
  readonly duplicateRowsWithErrors: number;
  /** Every documented rate: how often it could apply, how often it did, and its value. */
  readonly processes: Record<string, ProcessCount>;
  /** Every per-row tag ("ocr:zip", "dobYearOnly", ...) and its count. */
  readonly tags: Record<string, number>;
}

export interface MessyFile {
  /** Column names, the id column first and the truth column last. */
  readonly header: string[];
  readonly rows: string[][];
  /** The column holding the entity id: a matcher must be told to ignore it. */
  readonly truthColumn: string;
  /** The column holding each row's own unique id. */
  readonly idColumn: string;
  readonly stats: MessyStats;
  /** For analysis: the error tags of each row (same order as `rows`), not in the CSV. */
  readonly applied: string[][];
}

/** One record before shuffling: its person, its cells (without id and truth), its tags. */
export interface Draft {
  readonly entity: string;
  readonly cells: readonly string[];
  readonly tags: readonly string[];
}

/** A sampler of records per person, 1..weights.length, from relative weights. */
export function clusterSizes(weights: readonly number[]): (rng: Rng) => number {
  const sampler = new WeightedSampler(weights);
  return (rng) => sampler.sample(rng) + 1;
}

/** Fisher-Yates, in place. */
export function shuffle<T>(items: T[], rng: Rng): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = items[i] as T;
    items[i] = items[j] as T;
    items[j] = t;
  }
  return items;
}

export interface AssembleSpec {
  readonly options: Required<MessyOptions>;
  /** Data columns (the id and truth columns are added around them). */
  readonly columns: readonly string[];
  readonly idColumn: string;
  readonly truthColumn: string;
  /** The id of row n (0-based, after shuffling). */
  readonly rowId: (n: number) => string;
  readonly drafts: readonly Draft[];
  readonly processes: Record<string, ProcessCount>;
  readonly shuffleSeed: number;
}

/** Shuffles the drafts (records of one person end up far apart), numbers them, counts. */
export function assemble(spec: AssembleSpec): MessyFile {
  const { options, drafts } = spec;
  const perEntity = new Map<string, number>();
  let duplicateRowsWithErrors = 0;
  for (const d of drafts) {
    const seen = perEntity.get(d.entity) ?? 0;
    if (seen > 0 && d.tags.length > 0) duplicateRowsWithErrors++;
    perEntity.set(d.entity, seen + 1);
  }
  const order = shuffle(
    drafts.map((_d, i) => i),
    new Rng(spec.shuffleSeed),
  );
  const rows: string[][] = [];
  const applied: string[][] = [];
  const tags: Record<string, number> = {};
  let rowsWithErrors = 0;
  order.forEach((i, n) => {
    const d = drafts[i] as Draft;
    rows.push([spec.rowId(n), ...d.cells, d.entity]);
    applied.push([...d.tags]);
    if (d.tags.length > 0) rowsWithErrors++;
    for (const t of d.tags) tags[t] = (tags[t] ?? 0) + 1;
  });
  const sizes: Record<string, number> = {};
  let truePairs = 0;
  for (const n of perEntity.values()) {
    sizes[String(n)] = (sizes[String(n)] ?? 0) + 1;
    truePairs += (n * (n - 1)) / 2;
  }
  return {
    header: [spec.idColumn, ...spec.columns, spec.truthColumn],
    rows,
    truthColumn: spec.truthColumn,
    idColumn: spec.idColumn,
    applied,
    stats: {
      scenario: options.scenario,
      level: options.level,
      seed: options.seed,
      rows: rows.length,
      entities: perEntity.size,
      truePairs,
      clusterSizes: sizes,
      rowsWithErrors,
      duplicateRows: rows.length - perEntity.size,
      duplicateRowsWithErrors,
      processes: spec.processes,
      tags,
    },
  };
}

/** Upper-cases the first letter of every word ("mary ann o'neil" -> "Mary Ann O'Neil"). */
export function titleCase(text: string): string {
  return text.toLowerCase().replace(/(^|[\s'-])(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
}

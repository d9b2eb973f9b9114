/**
 * The labelled set a diagnostic script is asked for (bench/diagnose.ts, bench/true-m.ts): a
 * generated messy set, a public set of data/, or any labelled CSV, with the column that names
 * each row's entity and, for FEBRL, the pattern that takes the entity out of a record id.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateMessy, toCsv, type Level, type Scenario } from './messy/index.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where a labelled set is and how its truth reads. */
export interface LabelledSet {
  readonly path: string;
  readonly truthColumn: string;
  /** The entity is this pattern's first group of the truth column (FEBRL's rec-123-dup-0), else the column's value. */
  readonly pattern: RegExp | null;
  /** A generated set's error tags per row, else null. */
  readonly tags: string[][] | null;
}

/**
 * `febrl1`..`febrl4`, `fake_1000`, `FILE.csv [TRUTH]`, or `SCENARIO [LEVEL]` (a generated set of
 * data seed `seed`, written into `dir`).
 */
export function labelledSet(args: readonly string[], dir: string, seed = 1): LabelledSet {
  const first = args[0] ?? '';
  if (first.startsWith('febrl'))
    return { path: join(ROOT, `data/febrl/dataset${first.slice(5)}.csv`), truthColumn: 'rec_id', pattern: /^rec-(\d+)-/, tags: null };
  if (first.endsWith('.csv')) return { path: first, truthColumn: args[1] ?? 'cluster', pattern: null, tags: null };
  if (first === 'fake_1000') return { path: join(ROOT, 'data/splink/fake_1000.csv'), truthColumn: 'cluster', pattern: null, tags: null };
  const file = generateMessy({ scenario: first as Scenario, level: (args[1] ?? 'medium') as Level, seed });
  const path = join(dir, 'set.csv');
  writeFileSync(path, toCsv(file.header, file.rows));
  return { path, truthColumn: file.truthColumn, pattern: null, tags: file.applied };
}

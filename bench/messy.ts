/**
 * Writes a labelled messy person file (bench/lib/messy): one scenario at one level, or all
 * nine with --all.
 *
 *   tsx bench/messy.ts --scenario ocr --level high --seed 1 [--entities 3000] -o ocr-high.csv
 *   tsx bench/messy.ts --all DIR [--seed 1]        # DIR/{historical,ocr,mixed}-{low,medium,high}.csv
 *   tsx bench/messy.ts --rates                      # the rate tables, as Markdown
 *   tsx bench/messy.ts --docs                       # rewrite the docs' rate tables and seed-1 figures
 *
 * --stats FILE also writes the statistics (rows, people, true pairs, every process's
 * eligible/applied counts) as JSON (with --all: one FILE per CSV, named CSV.stats.json).
 * A summary line per file goes to stderr.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { LEVELS, SCENARIOS, SCENARIO_RATES, generateMessy, ratesMarkdown, refreshDocs, toCsv } from './lib/messy/index.js';
import type { Level, MessyFile, Scenario } from './lib/messy/index.js';

function integer(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text)) throw new RangeError(`--${name} must be an integer (got ${text})`);
  return Number(text);
}

function oneOf<T extends string>(name: string, text: string | undefined, values: readonly T[]): T {
  if (text === undefined || !values.includes(text as T)) throw new RangeError(`--${name} must be one of ${values.join(', ')} (got ${String(text)})`);
  return text as T;
}

function write(file: MessyFile, path: string, statsPath: string | undefined): void {
  writeFileSync(path, toCsv(file.header, file.rows));
  if (statsPath !== undefined) writeFileSync(statsPath, `${JSON.stringify(file.stats, null, 2)}\n`);
  const s = file.stats;
  process.stderr.write(
    `${path}: ${s.scenario} ${s.level} seed ${s.seed}: ${s.rows} rows, ${s.entities} people, ${s.truePairs} true pairs; id column ${file.idColumn}, truth column ${file.truthColumn}\n`,
  );
}

export function main(argv: readonly string[]): void {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      scenario: { type: 'string' },
      level: { type: 'string' },
      seed: { type: 'string' },
      entities: { type: 'string' },
      out: { type: 'string', short: 'o' },
      stats: { type: 'string' },
      all: { type: 'string' },
      rates: { type: 'boolean' },
      docs: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    process.stdout.write(
      [
        'tsx bench/messy.ts --scenario ocr --level high --seed 1 [--entities 3000] -o ocr-high.csv [--stats FILE]',
        'tsx bench/messy.ts --all DIR [--seed 1]      DIR/{historical,ocr,mixed}-{low,medium,high}.csv',
        'tsx bench/messy.ts --rates                    the rate tables, as Markdown',
        "tsx bench/messy.ts --docs                     rewrite the docs' rate tables and seed-1 figures",
        '',
      ].join('\n'),
    );
    return;
  }
  if (values.rates === true) {
    for (const scenario of SCENARIOS) process.stdout.write(`### ${scenario}\n\n${ratesMarkdown(SCENARIO_RATES[scenario]).join('\n')}\n\n`);
    return;
  }
  if (values.docs === true) {
    refreshDocs(SCENARIOS.flatMap((scenario) => LEVELS.map((level) => generateMessy({ scenario, level, seed: 1 }))));
    return;
  }
  const seed = integer('seed', values.seed) ?? 1;
  const entities = integer('entities', values.entities);
  const extra = entities === undefined ? {} : { entities };
  if (values.all !== undefined) {
    mkdirSync(values.all, { recursive: true });
    for (const scenario of SCENARIOS) {
      for (const level of LEVELS) {
        const path = join(values.all, `${scenario}-${level}.csv`);
        write(generateMessy({ scenario, level, seed, ...extra }), path, values.stats === undefined ? undefined : `${path}.stats.json`);
      }
    }
    return;
  }
  const scenario: Scenario = oneOf('scenario', values.scenario, SCENARIOS);
  const level: Level = oneOf('level', values.level, LEVELS);
  if (values.out === undefined) throw new RangeError('-o/--out FILE is required (or --all DIR)');
  write(generateMessy({ scenario, level, seed, ...extra }), values.out, values.stats);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`messy: ${(err as Error).message}\n`);
    process.exit(2);
  }
}

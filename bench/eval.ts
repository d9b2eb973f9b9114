/**
 * `npm run eval`: precision, recall and F1 (pairwise, and after clustering), pair
 * completeness and comparisons, on every labelled set the project has, for the CLI's
 * defaults (no flags): FEBRL 1-4 and Splink's fake_1000 (data/), and the seeded messy files
 * of bench/lib/messy (historical, OCR and mixed-source scenarios at three corruption levels,
 * the historical one again with 4-18 records a person, the OCR files cut down to names,
 * city and postal code, as many voter extracts are, and the historical ones to names, birth
 * place and sex),
 * generated into a temporary directory. Each set runs through the same code as
 * `matchbook dedupe` / `link` (src/linkage), header mapping included.
 *
 *   npm run eval                      # the table
 *   npm run eval -- --json            # the figures as JSON
 *   npm run eval -- --only ocr        # sets whose name contains "ocr"
 *   npm run eval -- --rules crm       # any matching option, as the CLI takes it
 *   npm run eval -- --seed 7          # another seed of estimation's sampling (how much a figure is the sample's)
 *   npm run eval -- --data-seed 2     # other generated files (the public sets stay)
 *   npm run eval -- --subsets         # 39 column subsets of the generated files instead (SUBSETS)
 *   npm run eval -- --links           # 18 links of two files cut from the generated ones, each with its columns (LINK_COLUMNS)
 *   npm run eval -- --large           # the scenarios at medium corruption with 20,000-25,000 people (46,000-58,000 rows)
 *   npm run eval -- --exports         # the same at the usual size as another export writes them (renamed headers, dates day first, one-line addresses)
 *
 * "best F1" is the pairwise F1 at the best threshold, picked against the truth: an upper
 * bound of what the candidates allow, never a result.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluateFiles, parseSettings, SILENT, type EvalFigures, type RawMatchOptions, type RunOptions, type TruthSource } from '../src/linkage/index.js';
import { SeededRandom } from '../src/engine/index.js';
import { asExported } from './lib/exports.js';
import { generateMessy, LEVELS, SCENARIOS, toCsv, type MessyFile } from './lib/messy/index.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const data = (path: string): string => join(ROOT, 'data', path);

/** One labelled set: a dedupe of `input`, or a link of `input` to `right`. */
export interface EvalSet {
  readonly name: string;
  readonly input: string;
  readonly right?: string;
  readonly truth: TruthSource;
}

const FEBRL_TRUTH: TruthSource = { column: 'rec_id', pattern: /^rec-(\d+)-/ };

/** The public sets in data/. */
export function publicSets(): EvalSet[] {
  return [
    { name: 'FEBRL4 link', input: data('febrl/dataset4a.csv'), right: data('febrl/dataset4b.csv'), truth: FEBRL_TRUTH },
    { name: 'FEBRL3 dedupe', input: data('febrl/dataset3.csv'), truth: FEBRL_TRUTH },
    { name: 'FEBRL2 dedupe', input: data('febrl/dataset2.csv'), truth: FEBRL_TRUTH },
    { name: 'FEBRL1 dedupe', input: data('febrl/dataset1.csv'), truth: FEBRL_TRUTH },
    { name: 'fake_1000 dedupe', input: data('splink/fake_1000.csv'), truth: { column: 'cluster' } },
  ];
}

/** The seeded messy files (seed 1), written to `dir`. */
export function messySets(dir: string, seed = 1): EvalSet[] {
  const out: EvalSet[] = [];
  for (const scenario of SCENARIOS) {
    for (const level of LEVELS) {
      const file = generateMessy({ scenario, level, seed });
      const path = join(dir, `${scenario}-${level}.csv`);
      writeFileSync(path, toCsv(file.header, file.rows));
      out.push({ name: `messy ${scenario} ${level}`, input: path, truth: { column: file.truthColumn } });
    }
  }
  return out;
}

/**
 * Files with fewer columns (with their id and truth columns): the OCR scenario cut down to
 * first name, surname, city and postal code, as many voter and member extracts are; the
 * historical one to the names, a birth place and the sex, as a parish list or an index of
 * births is. Without a date of birth or a street, estimation cannot learn a name's errors from
 * a session that does not block on it (the surname and postal code sessions take households,
 * the first name's takes namesakes): what the model does then is what these measure.
 */
export const NARROW_COLUMNS: Readonly<Partial<Record<(typeof SCENARIOS)[number], { readonly columns: readonly string[]; readonly label: string }>>> = {
  ocr: { columns: ['FIRST NAME', 'LAST NAME', 'CITY', 'ZIP'], label: 'names+city+zip' },
  historical: { columns: ['given_name', 'surname', 'birth_place', 'gender'], label: 'names+birth place+sex' },
};

/**
 * The historical scenario with 4-18 records per person (a life through censuses and
 * registers; bench/lib/messy MessyOptions.manyRecords), 600 people, every level: large
 * clusters, in which one person's rows give several first names and dates.
 */
export function manyRecordSets(dir: string, seed = 1): EvalSet[] {
  return LEVELS.map((level) => {
    const file = generateMessy({ scenario: 'historical', level, seed, entities: 600, manyRecords: true });
    const path = join(dir, `historical-${level}-many.csv`);
    writeFileSync(path, toCsv(file.header, file.rows));
    return { name: `messy historical ${level}, 4-18 records a person`, input: path, truth: { column: file.truthColumn } };
  });
}

/**
 * Writes `file` cut down to its id column, `columns` and its truth column (rows where `keep`
 * holds, all by default) to `path`; returns `path`.
 */
function writeCut(file: MessyFile, scenario: string, columns: readonly string[], path: string, keep: (row: number) => boolean = () => true): string {
  const at = [file.idColumn, ...columns, file.truthColumn].map((c) => {
    const i = file.header.indexOf(c);
    if (i < 0) throw new Error(`${scenario} has no column ${c}`);
    return i;
  });
  writeFileSync(
    path,
    toCsv(
      at.map((i) => file.header[i] as string),
      file.rows.filter((_, r) => keep(r)).map((r) => at.map((i) => r[i] ?? '')),
    ),
  );
  return path;
}

/** {@link NARROW_COLUMNS}'s files (seed 1, every level), written to `dir`. */
export function narrowSets(dir: string, seed = 1): EvalSet[] {
  const out: EvalSet[] = [];
  for (const scenario of SCENARIOS) {
    const narrow = NARROW_COLUMNS[scenario];
    if (narrow === undefined) continue;
    const { columns, label } = narrow;
    for (const level of LEVELS) {
      const file = generateMessy({ scenario, level, seed });
      const path = writeCut(file, scenario, columns, join(dir, `${scenario}-${level}-narrow.csv`));
      out.push({ name: `messy ${scenario} ${level}, ${label}`, input: path, truth: { column: file.truthColumn } });
    }
  }
  return out;
}

/**
 * Column subsets of the generated scenarios (`npm run eval -- --subsets`): what real extracts
 * keep of a person (a name and a date of birth, a name and an email, an address without a
 * postal code...). No set here was tuned on; they show whether what the model learns from a
 * file still holds when the columns it usually learns from are gone.
 */
export const SUBSETS: Readonly<Partial<Record<(typeof SCENARIOS)[number], readonly (readonly string[])[]>>> = {
  ocr: [
    ['FIRST NAME', 'LAST NAME', 'BIRTH YEAR'],
    ['FIRST NAME', 'LAST NAME', 'ZIP'],
    ['FIRST NAME', 'LAST NAME', 'STREET ADDRESS', 'CITY'],
    ['FIRST NAME', 'MIDDLE NAME', 'LAST NAME', 'CITY', 'BIRTH YEAR'],
    ['FIRST NAME', 'LAST NAME', 'STREET ADDRESS', 'ZIP'],
  ],
  mixed: [
    ['first_name', 'last_name', 'name', 'dob'],
    ['first_name', 'last_name', 'name', 'email'],
    ['first_name', 'last_name', 'name', 'phone', 'zip'],
    ['first_name', 'last_name', 'name', 'address', 'city', 'zip'],
    ['first_name', 'last_name', 'name', 'dob', 'sex'],
  ],
  historical: [
    ['full_name', 'given_name', 'surname', 'birth_date'],
    ['full_name', 'birth_date', 'postcode'],
    ['given_name', 'surname', 'postcode', 'occupation'],
  ],
};

/** {@link SUBSETS}' files (every level), written to `dir`. */
export function subsetSets(dir: string, seed = 1): EvalSet[] {
  const out: EvalSet[] = [];
  for (const scenario of SCENARIOS) {
    for (const level of LEVELS) {
      const file = generateMessy({ scenario, level, seed });
      for (const [n, columns] of (SUBSETS[scenario] ?? []).entries()) {
        const path = writeCut(file, scenario, columns, join(dir, `${scenario}-${level}-subset${n}.csv`));
        out.push({ name: `${scenario} ${level}: ${columns.join(', ')}`, input: path, truth: { column: file.truthColumn } });
      }
    }
  }
  return out;
}

/**
 * Two files' columns for {@link linkSets}: a CRM export against a voter or a register extract,
 * which share some fields and each hold others.
 */
export const LINK_COLUMNS: Readonly<Partial<Record<(typeof SCENARIOS)[number], readonly (readonly [readonly string[], readonly string[]])[]>>> = {
  ocr: [
    [
      ['FIRST NAME', 'MIDDLE NAME', 'LAST NAME', 'STREET ADDRESS', 'CITY', 'ZIP', 'BIRTH YEAR'],
      ['FIRST NAME', 'LAST NAME', 'CITY', 'ZIP'],
    ],
    [
      ['FIRST NAME', 'LAST NAME', 'STREET ADDRESS', 'ZIP'],
      ['FIRST NAME', 'LAST NAME', 'BIRTH YEAR', 'CITY'],
    ],
  ],
  mixed: [
    [
      ['first_name', 'last_name', 'name', 'email', 'phone'],
      ['first_name', 'last_name', 'name', 'dob', 'address', 'city', 'zip'],
    ],
    [
      ['first_name', 'last_name', 'name', 'dob', 'email'],
      ['first_name', 'last_name', 'name', 'dob', 'phone', 'zip'],
    ],
  ],
  historical: [
    [
      ['full_name', 'birth_date', 'birth_place'],
      ['given_name', 'surname', 'birth_date', 'postcode', 'occupation'],
    ],
    [
      ['given_name', 'surname', 'birth_date', 'gender'],
      ['full_name', 'birth_date', 'birth_place'],
    ],
  ],
};

/**
 * Links of two files cut from one generated file (`npm run eval -- --links`): each person's
 * first record goes to one file at random and the second to the other (further records are
 * left out: a link finds each right row's one best left row), each file with its own columns
 * ({@link LINK_COLUMNS}).
 */
export function linkSets(dir: string, seed = 1): EvalSet[] {
  const out: EvalSet[] = [];
  for (const scenario of SCENARIOS) {
    for (const level of LEVELS) {
      const file = generateMessy({ scenario, level, seed });
      const truth = file.header.indexOf(file.truthColumn);
      const rng = new SeededRandom(seed);
      const firstSide = new Map<string, number>();
      const side = file.rows.map((row) => {
        const id = row[truth] ?? '';
        const first = firstSide.get(id);
        if (first === undefined) {
          const s = rng.float() < 0.5 ? 0 : 1;
          firstSide.set(id, s);
          return s;
        }
        firstSide.set(id, 2 + first);
        return first < 2 ? 1 - first : -1;
      });
      for (const [n, columns] of (LINK_COLUMNS[scenario] ?? []).entries()) {
        const write = (cols: readonly string[], s: number): string =>
          writeCut(file, scenario, cols, join(dir, `${scenario}-${level}-link${n}-${s === 0 ? 'left' : 'right'}.csv`), (r) => side[r] === s);
        const [left, right] = columns;
        out.push({
          name: `${scenario} ${level} link: ${left.join(', ')} <- ${right.join(', ')}`,
          input: write(left, 0),
          right: write(right, 1),
          truth: { column: file.truthColumn },
        });
      }
    }
  }
  return out;
}

/** People a scenario's file holds in {@link largeSets}: about ten times the usual, 46,000-58,000 rows. */
export const LARGE_ENTITIES: Readonly<Record<(typeof SCENARIOS)[number], number>> = { historical: 25_000, ocr: 25_000, mixed: 20_000 };

/**
 * The scenarios at medium corruption, about ten times as large (`npm run eval -- --large`):
 * more namesakes and households per block, larger blocks for training sessions to sample
 * (what a register of 50,000 people is like, and what the 5,000-row sets cannot show).
 */
export function largeSets(dir: string, seed = 1): EvalSet[] {
  return SCENARIOS.map((scenario) => {
    const file = generateMessy({ scenario, level: 'medium', seed, entities: LARGE_ENTITIES[scenario] });
    const path = join(dir, `${scenario}-medium-large.csv`);
    writeFileSync(path, toCsv(file.header, file.rows));
    return { name: `messy ${scenario} medium, ${LARGE_ENTITIES[scenario].toLocaleString('en-US')} people`, input: path, truth: { column: file.truthColumn } };
  });
}

/**
 * The scenarios at medium corruption as another export writes the same records
 * (`npm run eval -- --exports`; bench/lib/exports.ts): renamed headers, dates day first, the
 * mixed file's CRM addresses in one cell. Each should score exactly what its original does.
 */
export function exportSets(dir: string, seed = 1): EvalSet[] {
  return SCENARIOS.map((scenario) => {
    const file = generateMessy({ scenario, level: 'medium', seed });
    const exported = asExported(scenario, file);
    const path = join(dir, `${scenario}-medium-exported.csv`);
    writeFileSync(path, toCsv(exported.header, exported.rows));
    return { name: `messy ${scenario} medium, as another export writes it`, input: path, truth: { column: file.truthColumn } };
  });
}

/** The run options of the CLI's defaults, with `raw` matching options on top. */
export function defaultRun(raw: RawMatchOptions = {}): RunOptions {
  const settings = parseSettings(raw);
  if ('error' in settings) throw new Error(settings.error);
  return { settings, overrides: [], threads: null };
}

/** Evaluates one set. */
export function evaluateSet(set: EvalSet, run: RunOptions = defaultRun()): Promise<EvalFigures> {
  return evaluateFiles(set.input, set.right, { truth: set.truth }, run, SILENT);
}

const f = (x: number | undefined | null): string => (x === undefined || x === null ? '-' : x.toFixed(4));

function table(rows: { set: EvalSet; figures: EvalFigures }[]): string {
  const head = ['set', 'records', 'P', 'R', 'F1', 'clustered P', 'R', 'F1', 'pair compl.', 'comparisons', 'best F1*', 'seconds'];
  const lines = [
    head,
    ...rows.map(({ set, figures: r }) => [
      set.name,
      String(r.records),
      f(r.pairwise.precision),
      f(r.pairwise.recall),
      f(r.pairwise.f1),
      f(r.clustered?.precision),
      f(r.clustered?.recall),
      f(r.clustered?.f1),
      f(r.pairCompleteness),
      String(r.comparisons),
      f(r.oracle?.metrics.f1),
      r.seconds.toFixed(2),
    ]),
  ];
  const widths = head.map((_, i) => Math.max(...lines.map((l) => (l[i] ?? '').length)));
  return lines.map((l) => l.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')).join('\n');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? (args[onlyAt + 1] ?? '') : '';
  const raw: Record<string, string> = {};
  for (const name of ['rules', 'threshold', 'match-probability', 'gates', 'country', 'date-format', 'seed']) {
    const at = args.indexOf(`--${name}`);
    if (at >= 0 && args[at + 1] !== undefined) raw[name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = args[at + 1] as string;
  }
  const run = defaultRun(raw);
  const dir = mkdtempSync(join(tmpdir(), 'matchbook-eval-'));
  try {
    const dataSeedAt = args.indexOf('--data-seed');
    const dataSeed = dataSeedAt >= 0 ? Number(args[dataSeedAt + 1]) : 1;
    if (!Number.isInteger(dataSeed) || dataSeed < 0) throw new Error('--data-seed: a whole number >= 0');
    const all = args.includes('--subsets')
      ? subsetSets(dir, dataSeed)
      : args.includes('--links')
        ? linkSets(dir, dataSeed)
        : args.includes('--large')
          ? largeSets(dir, dataSeed)
          : args.includes('--exports')
            ? exportSets(dir, dataSeed)
            : [...publicSets(), ...messySets(dir, dataSeed), ...manyRecordSets(dir, dataSeed), ...narrowSets(dir, dataSeed)];
    const sets = all.filter((s) => s.name.includes(only));
    const rows: { set: EvalSet; figures: EvalFigures }[] = [];
    for (const set of sets) {
      const figures = await evaluateSet(set, run);
      rows.push({ set, figures });
      if (!json) process.stderr.write(`${set.name}: F1 ${f(figures.pairwise.f1)}, clustered ${f(figures.clustered?.f1)} (${figures.seconds.toFixed(1)} s)\n`);
    }
    if (json) {
      console.log(
        JSON.stringify(
          rows.map(({ set, figures }) => ({ set: set.name, ...figures })),
          null,
          2,
        ),
      );
      return;
    }
    console.log(table(rows));
    console.log(`
Pairwise figures of the matched pairs; "clustered" = after clustering (what dedupe writes; a link
has no clusters). "pair compl." = share of true pairs blocking compared. * best F1 = pairwise F1
of the compared pairs at the best score threshold, picked against the truth: not a result (the
scores alone, without the minimum combinations).
Settings: ${rows[0]?.figures.settings ?? '-'} (the CLI's defaults unless options were given).
Load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}; ${new Date().toISOString().slice(0, 10)}.`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();

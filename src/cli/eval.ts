/**
 * `matchbook eval INPUT.csv [RIGHT.csv] --truth COLUMN | --pairs FILE`: runs `dedupe` (one
 * file) or `link` (two files) with the given options and measures the result against
 * labelled truth: pairwise precision, recall and F1, and for dedupe the same after
 * clustering plus the share of true clusters found exactly. Figures go to stdout (text, or
 * JSON with --json).
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { clustersFromPairs, exactClusterRate, pairKey, pairMetrics, pairsFromClusters, type PairMetrics } from '../eval/index.js';
import { openCsv, findColumn, IGNORE } from '../files/index.js';
import type { CliIo } from './io.js';
import { addMatchingOptions, parseCommonOptions, type CommonOptions, type RawCommonOptions } from './matching/options.js';
import { seconds } from './matching/summary.js';
import { formatCount, Progress } from './progress.js';
import { matchDedupe, LinkageInputError, idOf, matchLink, describeSettings } from '../linkage/index.js';

interface EvalRawOptions extends RawCommonOptions {
  readonly truth?: string;
  readonly truthPattern?: string;
  readonly pairs?: string;
  readonly pairsColumns?: string;
  readonly oneToOne?: boolean;
  readonly json?: boolean;
  readonly leftId?: string;
  readonly rightId?: string;
}

/** The figures `eval` reports. */
export interface EvalFigures {
  readonly mode: 'dedupe' | 'link';
  readonly records: number;
  readonly truePairs: number;
  readonly predictedPairs: number;
  readonly pairwise: PairMetrics;
  /** Dedupe only: after joining matched pairs into clusters (what `dedupe` writes). */
  readonly clustered: PairMetrics | null;
  /** Dedupe only: share of true clusters reproduced exactly. */
  readonly exactClusters: number | null;
  readonly seconds: number;
  readonly settings: string;
}

/** Register `eval`. */
export function registerEval(program: Command, io: CliIo): void {
  const command = program
    .command('eval')
    .description('measure dedupe (one file) or link (two files) against labelled truth: precision, recall, F1, clusters')
    .argument('<input>', 'CSV file (the left file when linking)')
    .argument('[right]', 'second CSV file: evaluate linkage instead of deduplication')
    .option('--truth <column>', 'column holding the true cluster (entity) of each row; in both files when linking')
    .option('--truth-pattern <regex>', 'the entity is the first group this regex captures from the truth column (e.g. "^rec-(\\d+)-")')
    .option('--pairs <file>', 'CSV of true pairs of row ids (instead of --truth); a score or label column, if any, keeps pairs >= 0.5')
    .option('--pairs-columns <A,B[,LABEL]>', 'columns of --pairs holding the two ids (and the label); default: detected')
    .option('--one-to-one', 'linking: each row linked at most once')
    .option('--left-id <column>', 'id column of the left file (overrides --id)')
    .option('--right-id <column>', 'id column of the right file (overrides --id)')
    .option('--json', 'print the figures as JSON');
  addMatchingOptions(command);
  command.action(async (input: string, right: string | undefined, raw: EvalRawOptions) => {
    const common = parseCommonOptions({ ...raw, progress: raw.progress ?? 'auto' }, process.stderr.isTTY);
    const figures = await runEval(input, right, raw, common, io);
    io.stdout(raw.json === true ? `${JSON.stringify(figures, null, 2)}\n` : formatFigures(figures));
  });
}

function compilePattern(text: string | undefined): RegExp | null {
  if (text === undefined) return null;
  try {
    return new RegExp(text);
  } catch (err) {
    throw new LinkageInputError(`--truth-pattern "${text}": not a regular expression (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** Reads one column of every row of a file (by the file's own layout). */
async function readColumn(path: string, common: CommonOptions, column: string): Promise<string[]> {
  const csv = await openCsv(path, { delimiter: common.delimiter, encoding: common.encoding }).catch((err: unknown) => {
    throw new LinkageInputError(err instanceof Error ? err.message : String(err));
  });
  const at = findColumn(csv.layout.header, column, '--truth');
  if (typeof at !== 'number') {
    await csv.close();
    throw new LinkageInputError(`${path}: ${at.error}`);
  }
  const out: string[] = [];
  for await (const batch of csv.batches()) for (const row of batch.rows) out.push((row[at] ?? '').trim());
  return out;
}

function entityOf(value: string, pattern: RegExp | null): string {
  if (pattern === null) return value;
  const m = pattern.exec(value);
  return m === null ? value : m[1] ?? m[0];
}

/** True pairs from a pairs file: two id columns, and a label column kept at >= 0.5 if any. */
async function readPairs(path: string, spec: string | undefined, common: CommonOptions, key: (a: string, b: string) => string): Promise<Set<string>> {
  const csv = await openCsv(path, { delimiter: common.delimiter, encoding: common.encoding }).catch((err: unknown) => {
    throw new LinkageInputError(err instanceof Error ? err.message : String(err));
  });
  const header = csv.layout.header;
  let cols: number[];
  if (spec !== undefined) {
    const names = spec.split(',').map((s) => s.trim());
    if (names.length < 2 || names.length > 3) throw new LinkageInputError(`--pairs-columns "${spec}": expected A,B or A,B,LABEL`);
    cols = names.map((n) => {
      const at = findColumn(header, n, '--pairs-columns');
      if (typeof at !== 'number') throw new LinkageInputError(`${path}: ${at.error}`);
      return at;
    });
  } else {
    const lower = header.map((h) => h.toLowerCase());
    const a = lower.findIndex((h) => /id.*_l$|^left_?id$|^id_?1$|^id_l$/.test(h));
    const b = lower.findIndex((h) => /id.*_r$|^right_?id$|^id_?2$|^id_r$/.test(h));
    const label = lower.findIndex((h) => /score|label|match|is_?dup/.test(h));
    cols = a !== -1 && b !== -1 ? [a, b] : [0, 1];
    if (label !== -1 && !cols.includes(label)) cols.push(label);
  }
  if (header.length < 2) throw new LinkageInputError(`${path}: a pairs file needs two id columns`);
  const pairs = new Set<string>();
  for await (const batch of csv.batches()) {
    for (const row of batch.rows) {
      const [a, b, labelAt] = cols;
      const left = (row[a as number] ?? '').trim();
      const right = (row[b as number] ?? '').trim();
      if (left.length === 0 || right.length === 0) continue;
      if (labelAt !== undefined) {
        const v = Number((row[labelAt] ?? '').trim());
        if (!(v >= 0.5)) continue;
      }
      pairs.add(key(left, right));
    }
  }
  return pairs;
}

/** Runs the evaluation. */
export async function runEval(input: string, right: string | undefined, raw: EvalRawOptions, common: CommonOptions, io: CliIo): Promise<EvalFigures> {
  if ((raw.truth === undefined) === (raw.pairs === undefined)) throw new LinkageInputError('give the truth with --truth COLUMN or --pairs FILE (one of them)');
  const pattern = compilePattern(raw.truthPattern);
  const progress = new Progress({ mode: common.progress, write: io.stderr });
  const started = performance.now();
  const leftPath = resolve(io.cwd, input);
  // The truth column must not be matched on.
  const truthIsId = (id: string | undefined): boolean => id !== undefined && raw.truth !== undefined && id.trim().toLowerCase() === raw.truth.trim().toLowerCase();
  const withTruthIgnored = (c: CommonOptions, id: string | undefined): CommonOptions =>
    raw.truth === undefined || truthIsId(id) ? c : { ...c, overrides: [...c.overrides, { header: raw.truth, field: IGNORE }] };
  // Truth labels first: a wrong --truth column fails before the work.
  const leftLabels = raw.truth !== undefined ? await readColumn(leftPath, common, raw.truth) : null;
  const rightLabels = raw.truth !== undefined && right !== undefined ? await readColumn(resolve(io.cwd, right), common, raw.truth) : null;
  if (right === undefined) {
    const run = await matchDedupe(leftPath, withTruthIgnored(common, common.idColumn), progress, { keepEdges: true, sampleLowScores: false });
    await run.pool.close();
    const { results, read } = run;
    const ids = Array.from({ length: read.rows }, (_, i) => idOf(read.ids, i));
    const edges = results.edges ?? { from: [], to: [], score: [] };
    const predicted = new Set<string>();
    const links: [string, string][] = [];
    for (let k = 0; k < edges.from.length; k++) {
      const a = ids[edges.from[k] as number] as string;
      const b = ids[edges.to[k] as number] as string;
      predicted.add(pairKey(a, b));
      links.push([a, b]);
    }
    const clusters = clustersFromPairs(ids, links);
    let truth: Set<string>;
    let truthClusters: Map<string, string>;
    if (leftLabels !== null) {
      truthClusters = new Map(ids.map((id, i) => [id, entityOf(leftLabels[i] ?? '', pattern)]));
      truth = pairsFromClusters(truthClusters);
    } else {
      truth = await readPairs(resolve(io.cwd, raw.pairs as string), raw.pairsColumns, common, pairKey);
      truthClusters = clustersFromPairs(ids, [...truth].map((p) => p.split('|') as [string, string]));
    }
    return {
      mode: 'dedupe',
      records: read.rows,
      truePairs: truth.size,
      predictedPairs: predicted.size,
      pairwise: pairMetrics(predicted, truth),
      clustered: pairMetrics(pairsFromClusters(clusters), truth),
      exactClusters: exactClusterRate(clusters, truthClusters),
      seconds: (performance.now() - started) / 1000,
      settings: describeSettings(common.settings),
    };
  }
  const rightPath = resolve(io.cwd, right);
  const idsOpt = { left: raw.leftId ?? common.idColumn, right: raw.rightId ?? common.idColumn };
  const run = await matchLink(leftPath, rightPath, withTruthIgnored(common, idsOpt.left === idsOpt.right ? idsOpt.left : undefined), idsOpt, progress, { keepQueries: false, sampleLowScores: false });
  await run.pool.close();
  const key = (l: string, r: string): string => `${l}|${r}`;
  const predicted = new Set(run.results.links(raw.oneToOne === true).map((l) => key(idOf(run.leftRead.ids, l.left), idOf(run.rightRead.ids, l.right))));
  let truth: Set<string>;
  if (leftLabels !== null && rightLabels !== null) {
    const byEntity = new Map<string, string[]>();
    leftLabels.forEach((label, i) => {
      const e = entityOf(label, pattern);
      const list = byEntity.get(e);
      const id = idOf(run.leftRead.ids, i);
      if (list) list.push(id);
      else byEntity.set(e, [id]);
    });
    truth = new Set<string>();
    rightLabels.forEach((label, i) => {
      for (const l of byEntity.get(entityOf(label, pattern)) ?? []) truth.add(key(l, idOf(run.rightRead.ids, i)));
    });
  } else {
    truth = await readPairs(resolve(io.cwd, raw.pairs as string), raw.pairsColumns, common, key);
  }
  return {
    mode: 'link',
    records: run.leftRead.rows + run.rightRead.rows,
    truePairs: truth.size,
    predictedPairs: predicted.size,
    pairwise: pairMetrics(predicted, truth),
    clustered: null,
    exactClusters: null,
    seconds: (performance.now() - started) / 1000,
    settings: describeSettings(common.settings),
  };
}

const f4 = (x: number): string => x.toFixed(4);

function metricsLine(label: string, m: PairMetrics): string {
  return `${label.padEnd(10)} precision ${f4(m.precision)}  recall ${f4(m.recall)}  F1 ${f4(m.f1)}  (TP ${formatCount(m.truePositives)}, FP ${formatCount(m.falsePositives)}, FN ${formatCount(m.falseNegatives)})`;
}

/** The figures as text. */
export function formatFigures(f: EvalFigures): string {
  const lines = [
    `${f.mode}: ${formatCount(f.records)} records; ${formatCount(f.truePairs)} true pairs; ${formatCount(f.predictedPairs)} predicted pairs; ${seconds(f.seconds * 1000)}`,
    metricsLine('pairwise', f.pairwise),
  ];
  if (f.clustered !== null) lines.push(metricsLine('clustered', f.clustered));
  if (f.exactClusters !== null) lines.push(`exact clusters: ${(f.exactClusters * 100).toFixed(1)}% of true clusters reproduced exactly`);
  lines.push(`settings: ${f.settings}`);
  return `${lines.join('\n')}\n`;
}

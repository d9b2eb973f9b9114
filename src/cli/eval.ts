/**
 * `matchbook eval INPUT.csv [RIGHT.csv] --truth COLUMN | --pairs FILE`: runs `dedupe` (one
 * file) or `link` (two files) with the given options and measures the result against
 * labelled truth: pairwise precision, recall and F1, and for dedupe the same after
 * clustering plus the share of true clusters found exactly. Figures go to stdout (text, or
 * JSON with --json).
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliIo } from './io.js';
import { addMatchingOptions, parseCommonOptions, type CommonOptions, type RawCommonOptions } from './matching/options.js';
import { seconds } from './matching/summary.js';
import { formatCount, Progress } from './progress.js';
import { evaluateFiles, LinkageInputError, type EvalFigures, type PairMetrics, type TruthSource } from '../linkage/index.js';

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

/** Register `eval`. */
export function registerEval(program: Command, io: CliIo): void {
  const command = program
    .command('eval')
    .description('measure dedupe (one file) or link (two files) against labelled truth: precision, recall, F1, clusters, pair completeness')
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

/** Runs the evaluation. */
export async function runEval(input: string, right: string | undefined, raw: EvalRawOptions, common: CommonOptions, io: CliIo): Promise<EvalFigures> {
  if ((raw.truth === undefined) === (raw.pairs === undefined)) throw new LinkageInputError('give the truth with --truth COLUMN or --pairs FILE (one of them)');
  const truth: TruthSource =
    raw.truth !== undefined
      ? { column: raw.truth, pattern: compilePattern(raw.truthPattern) }
      : { pairsFile: resolve(io.cwd, raw.pairs as string), columns: raw.pairsColumns };
  const progress = new Progress({ mode: common.progress, write: io.stderr });
  return evaluateFiles(
    resolve(io.cwd, input),
    right === undefined ? undefined : resolve(io.cwd, right),
    {
      truth,
      oneToOne: raw.oneToOne === true,
      leftId: raw.leftId,
      rightId: raw.rightId,
    },
    common,
    progress,
  );
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
  lines.push(`pair completeness: ${f4(f.pairCompleteness)} of true pairs compared; ${formatCount(f.comparisons)} comparisons`);
  if (f.oracle !== null)
    lines.push(`best threshold, picked against the truth (an upper bound, not a result): ${f.oracle.threshold.toFixed(2)} bits, F1 ${f4(f.oracle.metrics.f1)}`);
  if (f.model !== null && f.model.prior !== null)
    lines.push(
      `model: prior ${f.model.prior.toPrecision(3)}; ${Object.entries(f.model.sources)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  for (const note of f.model?.notes ?? []) lines.push(`  note: ${note}`);
  lines.push(`settings: ${f.settings}`);
  return `${lines.join('\n')}\n`;
}

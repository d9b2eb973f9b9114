/**
 * `matchbook dedupe INPUT.csv [-o OUTPUT.csv]`: finds the rows of a file that describe the
 * same person. Writes every input row, with its cluster, decision, score and the id of the
 * row it matched first, then its own cells; prints a summary on stderr (records, clusters,
 * duplicates, rows that could not be matched and why, time). Progress on stderr only.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliIo } from './io.js';
import { openOutput } from './matching/output.js';
import { addMatchingOptions, parseCommonOptions, type CommonOptions, type RawCommonOptions } from './matching/options.js';
import { describeInput, describeIssues, describeModel, describeResources, describeUnreadable, plural, seconds } from './matching/summary.js';
import { saveModel } from './matching/model-file.js';
import { formatCount, Progress } from './progress.js';
import { buildDedupeReport, reportPairsFor } from './report/dedupe-report.js';
import { writeReport } from './report/write.js';
import {
  describeAboveThreshold,
  explainPairs,
  matchDedupe,
  writeDedupe,
  type DedupeRun,
  LinkageInputError,
  describeGates,
  describeSettings,
  thresholdsOf,
  formatExplanation,
  type PairRequest,
} from '../linkage/index.js';

interface DedupeRawOptions extends RawCommonOptions {
  readonly output?: string;
  readonly explain?: boolean;
  readonly report?: string;
  readonly saveModel?: string;
}

/** Register `dedupe`. */
export function registerDedupe(program: Command, io: CliIo): void {
  const command = program
    .command('dedupe')
    .description('find the rows of a CSV file that describe the same person; writes every row with cluster_id, match_score, matched_id and match_note')
    .argument('<input>', 'CSV file (header line first)')
    .option('-o, --output <file>', 'output CSV (default: standard output)')
    .option('--explain', "add each field's contribution to the row's best match")
    .option('--report <file.html>', 'also write a self-contained HTML report (the model, score distribution, fields, clusters, borderline pairs)')
    .option('--save-model <file.json>', 'write the model used (estimated from this file) as JSON, for --model');
  addMatchingOptions(command);
  command.action(async (input: string, raw: DedupeRawOptions) => {
    const common = parseCommonOptions(raw, process.stderr.isTTY);
    await runDedupe(resolve(io.cwd, input), input, raw, common, io);
  });
}

async function runDedupe(path: string, label: string, raw: DedupeRawOptions, common: CommonOptions, io: CliIo): Promise<void> {
  const started = performance.now();
  const startCpu = process.cpuUsage();
  const progress = new Progress({ mode: common.progress, write: io.stderr });
  const wantReport = raw.report !== undefined;
  const explain = raw.explain === true;
  // Open the output first: a bad path fails before the work, not after.
  const output = await openOutput(raw.output, io);
  let run: DedupeRun | null = null;
  let done = false;
  try {
    run = await matchDedupe(path, common, progress, { keepEdges: wantReport, sampleLowScores: wantReport, readAhead: !wantReport });
    const { results } = run;
    let explanations: Map<number, string> | null = null;
    if (explain) {
      const rows: number[] = [];
      const pairs: PairRequest[] = [];
      for (let row = 0; row < results.size; row++) {
        const d = results.decision(row);
        const other = d === 'Matched' ? results.partner[row] : d === 'Possible' ? results.possible[row] : -1;
        if (other === undefined || other < 0) continue;
        rows.push(row);
        pairs.push({ query: row, record: other });
      }
      const outcomes = await explainPairs(run.pool, pairs, progress);
      explanations = new Map(rows.map((row, i) => [row, formatExplanation(outcomes[i] ?? [])]));
    }
    if (raw.saveModel !== undefined && run.learned !== null)
      await saveModel(resolve(io.cwd, raw.saveModel), run.learned.model, `estimated by matchbook dedupe from ${label}`);
    const reportPlan = wantReport ? reportPairsFor(run, run.learned?.model.thresholds?.match ?? thresholdsOf(common.settings).match) : null;
    const reportOutcomes = reportPlan ? await explainPairs(run.pool, reportPlan.pairs, progress) : null;
    await run.pool.close();
    const tWrite = performance.now();
    const cWrite = process.cpuUsage();
    const capture = reportPlan ? { rows: reportPlan.rows, cells: new Map<number, string[]>() } : null;
    const written = await writeDedupe(run, output.sink, explanations, progress, capture);
    await output.commit();
    const writeMs = performance.now() - tWrite;
    const writeCpu = process.cpuUsage(cWrite);
    const counts = results.counts();
    const totalMs = performance.now() - started;
    const summary = [
      `matchbook dedupe: ${label}`,
      ...describeInput('input', label, run.input.layout, run.input.plan, run.read.rows),
      ...describeIssues(run.read.issues),
      ...describeUnreadable(run.unreadable),
      ...(run.read.idNote !== null ? [`  note: ${run.read.idNote}`] : []),
      `  settings: ${describeSettings(common.settings, [run.input.plan], run.learned?.model)}`,
      ...describeModel(run.learned),
      `records ${formatCount(run.read.rows)}; clusters ${formatCount(counts.clusters)} (${formatCount(counts.multiClusters)} with 2+ rows, largest ${formatCount(counts.largest)}); duplicates ${formatCount(counts.duplicates)} ${plural(counts.duplicates, 'row')}`,
    ];
    if (counts.possible > 0)
      summary.push(
        `possible matches for review: ${formatCount(counts.possible)} ${plural(counts.possible, 'row')} (match_decision = Possible; match_note says why)`,
      );
    const above: string[] = [];
    for (const [row, note] of results.shortfalls) {
      if (results.decision(row) === 'Possible' && (results.possibleScore[row] as number) >= run.match) above.push(note);
    }
    const aboveLine = describeAboveThreshold(above, 'match_note says which');
    if (aboveLine !== null) summary.push(aboveLine);
    if (counts.unmatchable > 0) {
      summary.push(
        `cannot be matched on their own: ${formatCount(counts.unmatchable)} ${counts.unmatchable === 1 ? 'row supplies' : 'rows supply'} none of the ${describeGates(common.settings, [run.input.plan])}; written as Unmatchable`,
      );
    }
    if (counts.refused > 0) {
      summary.push(
        `kept apart: ${formatCount(counts.refused)} matched ${plural(counts.refused, 'pair')} not joined into one cluster, because a row of one cluster conflicts with a row of the other (different dates of birth, identifiers, first names), a row without a name, or without a surname, would have bridged two people, or the other pairs compared between the two clusters scored against them`,
      );
    }
    if (raw.saveModel !== undefined)
      summary.push(run.learned === null ? `--save-model: nothing written (--rules ${common.settings.rules} has no model to save)` : `model: ${raw.saveModel}`);
    // Not "every row read" when a quote never closed read lines into one cell (they are rows of the file, not of the output).
    const swallowed = run.read.issues.swallowedLines.count;
    const read =
      swallowed > 0
        ? `not every line a row: ${formatCount(swallowed)} ${plural(swallowed, 'line')} read into a quoted field never closed, see above`
        : 'every row read';
    summary.push(`wrote ${formatCount(written)} ${plural(written, 'row')} (${read}) to ${output.label}`);
    if (raw.report !== undefined && reportPlan && reportOutcomes && capture) {
      const reportPath = resolve(io.cwd, raw.report);
      const data = buildDedupeReport(run, common, reportPlan, reportOutcomes, capture.cells, summary, totalMs);
      await writeReport(reportPath, data).catch((err: unknown) => {
        throw new LinkageInputError(`${raw.report}: cannot write the report (${err instanceof Error ? err.message : String(err)})`);
      });
      summary.push(`report: ${raw.report}`);
    }
    const rate = run.read.rows / Math.max(1e-9, totalMs / 1000);
    summary.push(
      `time ${seconds(totalMs)} (read and index ${seconds(run.timings.read)}, ${run.learned !== null ? `estimate ${seconds(run.timings.learn)}, ` : ''}match ${seconds(run.timings.match)}, cluster ${seconds(run.timings.cluster)}, write ${seconds(writeMs)}) on ${run.threads} thread${run.threads > 1 ? 's' : ''}; ${formatCount(rate)} rows/s; ${describeResources(startCpu)}`,
      `cpu by phase (every thread): read and index ${seconds(run.cpu.read)}, ${run.learned !== null ? `estimate ${seconds(run.cpu.learn)}, ` : ''}match ${seconds(run.cpu.match)}, cluster ${seconds(run.cpu.cluster)}, write ${seconds((writeCpu.user + writeCpu.system) / 1000)}`,
    );
    if (!common.quiet) io.stderr(`${summary.join('\n')}\n`);
    done = true;
  } finally {
    await run?.pool.close();
    if (!done) await output.discard();
  }
}

/**
 * `matchbook link LEFT.csv RIGHT.csv [-o LINKS.csv]`: for each right row, the best left row
 * above the match threshold, written as `left_id,right_id,score` (one to one with
 * `--one-to-one`). Every right row is accounted for in the summary (linked, possible,
 * unmatched, cannot be matched); `--all-rows` also writes the unlinked ones.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { Command } from 'commander';
import { CsvWriter } from '../files/index.js';
import type { CliIo } from './io.js';
import { addMatchingOptions, parseCommonOptions, type CommonOptions, type RawCommonOptions } from './matching/options.js';
import { openOutput } from './matching/output.js';
import { describeInput, describeIssues, describeModel, describeResources, describeUnreadable, plural, seconds } from './matching/summary.js';
import { saveModel } from './matching/model-file.js';
import { formatCount, Progress } from './progress.js';
import { buildLinkReport, linkReportPlan } from './report/link-report.js';
import { writeReport } from './report/write.js';
import {
  describeAboveThreshold,
  explainPairs,
  formatScore,
  idOf,
  matchLink,
  type LinkRun,
  describeGates,
  describeSettings,
  thresholdsOf,
  formatExplanation,
  type PairRequest,
  LinkageInputError,
  PARALLEL_MIN_BYTES,
} from '../linkage/index.js';

interface LinkRawOptions extends RawCommonOptions {
  readonly output?: string;
  readonly explain?: boolean;
  readonly report?: string;
  readonly oneToOne?: boolean;
  readonly allRows?: boolean;
  readonly leftId?: string;
  readonly rightId?: string;
  readonly saveModel?: string;
}

/** Register `link`. */
export function registerLink(program: Command, io: CliIo): void {
  const command = program
    .command('link')
    .description('link the rows of RIGHT to the rows of LEFT that describe the same person; writes left_id,right_id,score')
    .argument('<left>', 'CSV file indexed (e.g. the master list)')
    .argument('<right>', 'CSV file whose rows are looked up in LEFT')
    .option('-o, --output <file>', 'output CSV (default: standard output)')
    .option('--one-to-one', 'link each left row and each right row at most once (best scores first)')
    .option('--all-rows', 'write every right row, with empty left_id when it has no link')
    .option('--explain', "add each field's contribution to the link's score")
    .option('--report <file.html>', 'also write a self-contained HTML report')
    .option('--left-id <column>', 'id column of LEFT (overrides --id)')
    .option('--right-id <column>', 'id column of RIGHT (overrides --id)')
    .option('--save-model <file.json>', 'write the model used (estimated from these files) as JSON, for --model');
  addMatchingOptions(command);
  command.action(async (left: string, right: string, raw: LinkRawOptions) => {
    const common = parseCommonOptions(raw, process.stderr.isTTY);
    await runLink(left, right, raw, common, io);
  });
}

/** Bytes of both inputs, at most, for which `link` trades V8's inlining for less compiling ({@link compileLess}). */
const COMPILE_LESS_MAX_BYTES = PARALLEL_MIN_BYTES;

/**
 * A link of small files (one thread) runs for a second or two, much of it cold code: V8 compiles
 * the hot functions with TurboFan, on its background threads, and inlining the functions they
 * call (the engine's many small ones, into normalizing and scoring) made those compilations
 * about a third of the CPU (FEBRL4: 2.5 s of CPU, 1.3 s of it on this thread). With less
 * inlining (at most 200 bytes of bytecode inlined into one function, V8's default 920) the
 * process uses 0.3-0.35 s less CPU for the same work on this thread, which leaves more of the
 * second core to others (bench/README.md, "CLI start-up"). Larger inputs keep V8's defaults: there, the code's speed once compiled counts.
 * The flag holds for the rest of the process (one command).
 */
function compileLess(paths: readonly string[]): void {
  let bytes = 0;
  for (const path of paths) {
    try {
      bytes += statSync(path).size;
    } catch {
      return;
    }
  }
  if (bytes < COMPILE_LESS_MAX_BYTES) setFlagsFromString('--max-inlined-bytecode-size-cumulative=200');
}

async function runLink(leftLabel: string, rightLabel: string, raw: LinkRawOptions, common: CommonOptions, io: CliIo): Promise<void> {
  compileLess([resolve(io.cwd, leftLabel), resolve(io.cwd, rightLabel)]);
  const started = performance.now();
  const startCpu = process.cpuUsage();
  const progress = new Progress({ mode: common.progress, write: io.stderr });
  const explain = raw.explain === true;
  const wantReport = raw.report !== undefined;
  const output = await openOutput(raw.output, io);
  let run: LinkRun | null = null;
  let done = false;
  try {
    run = await matchLink(
      resolve(io.cwd, leftLabel),
      resolve(io.cwd, rightLabel),
      common,
      {
        left: raw.leftId ?? common.idColumn,
        right: raw.rightId ?? common.idColumn,
      },
      progress,
      { keepQueries: explain || wantReport, sampleLowScores: wantReport },
    );
    const { results, leftRead, rightRead } = run;
    const oneToOne = raw.oneToOne === true;
    const links = results.links(oneToOne);
    let explanations: string[] | null = null;
    if (explain) {
      const pairs: PairRequest[] = links.map((l) => ({ query: l.right, record: l.left }));
      explanations = (await explainPairs(run.pool, pairs, progress)).map(formatExplanation);
    }
    if (raw.saveModel !== undefined && run.learned !== null)
      await saveModel(resolve(io.cwd, raw.saveModel), run.learned.model, `estimated by matchbook link from ${leftLabel} and ${rightLabel}`);
    const reportPlan = wantReport ? linkReportPlan(run, links, run.learned?.model.thresholds?.match ?? thresholdsOf(common.settings).match) : null;
    const reportOutcomes = reportPlan ? await explainPairs(run.pool, reportPlan.pairs, progress) : null;
    await run.pool.close();

    const writer = new CsvWriter(output.sink);
    const header = ['left_id', 'right_id', 'score'];
    if (raw.allRows === true) header.push('note');
    if (explanations) header.push('explanation');
    await writer.writeRow(header);
    let k = 0;
    let written = 0;
    progress.start('writing', rightRead.rows);
    for (let right = 0; right < rightRead.rows; right++) {
      const link = links[k];
      if (link !== undefined && link.right === right) {
        const row = [idOf(leftRead.ids, link.left), idOf(rightRead.ids, right), formatScore(link.score)];
        if (raw.allRows === true) row.push('');
        if (explanations) row.push(explanations[k] ?? '');
        await writer.writeRow(row);
        written++;
        k++;
      } else if (raw.allRows === true) {
        const why =
          results.possible[right] !== -1
            ? `possible: ${idOf(leftRead.ids, results.possible[right] as number)} scored ${formatScore(results.possibleScore[right] as number)}${results.possibleWhy.has(right) ? `; ${results.possibleWhy.get(right) as string}` : ''}`
            : '';
        await writer.writeRow(explanations ? ['', idOf(rightRead.ids, right), '', why, ''] : ['', idOf(rightRead.ids, right), '', why]);
        written++;
      }
      if (right % 8192 === 0) progress.update(right);
    }
    progress.finish();
    await writer.flush();
    await output.commit();

    // Every right row is one of: linked, possible, unmatched, cannot be matched, or a
    // one-to-one loser (it had a Matched candidate that went to a better-scoring row).
    const linked = new Set(links.map((l) => l.right));
    const hadCandidate = new Set(results.candRight);
    let possible = 0;
    const match = run.learned?.model.thresholds?.match ?? thresholdsOf(common.settings).match;
    const above: string[] = [];
    let unmatchable = 0;
    let lost = 0;
    let unmatched = 0;
    for (let r = 0; r < rightRead.rows; r++) {
      if (linked.has(r)) continue;
      if (hadCandidate.has(r)) lost++;
      else if (results.possible[r] !== -1) {
        possible++;
        const note = results.shortfalls.get(r);
        if (note !== undefined && (results.possibleScore[r] as number) >= match) above.push(note);
      } else if (results.noGate[r] === 1) unmatchable++;
      else unmatched++;
    }
    const totalMs = performance.now() - started;
    const summary = [
      `matchbook link: ${leftLabel} <- ${rightLabel}`,
      ...describeInput('left', leftLabel, run.left.layout, run.left.plan, leftRead.rows),
      ...describeIssues(leftRead.issues),
      ...describeUnreadable(run.leftUnreadable),
      ...describeInput('right', rightLabel, run.right.layout, run.right.plan, rightRead.rows),
      ...describeIssues(rightRead.issues),
      ...describeUnreadable(run.rightUnreadable),
      `  settings: ${describeSettings(common.settings, [run.left.plan, run.right.plan], run.learned?.model)}${oneToOne ? '; one to one' : ''}`,
      ...describeModel(run.learned),
      `right rows ${formatCount(rightRead.rows)}: linked ${formatCount(linked.size)}; possible (for review, not linked) ${formatCount(possible)}; no match ${formatCount(unmatched)}` +
        (unmatchable > 0
          ? `; cannot be matched (none of the ${describeGates(common.settings, [run.left.plan, run.right.plan])}) ${formatCount(unmatchable)}`
          : '') +
        (oneToOne ? `; matched but their left row went to a better-scoring right row ${formatCount(lost)}` : ''),
      ...[describeAboveThreshold(above, null) ?? []].flat(),
      `wrote ${formatCount(written)} ${plural(written, 'line')} (${raw.allRows === true ? 'every right row' : 'one per link'}) to ${output.label}`,
    ];
    if (raw.report !== undefined && reportPlan && reportOutcomes) {
      const data = await buildLinkReport(run, common, links, reportPlan, reportOutcomes, summary, totalMs, oneToOne);
      await writeReport(resolve(io.cwd, raw.report), data).catch((err: unknown) => {
        throw new LinkageInputError(`${raw.report}: cannot write the report (${err instanceof Error ? err.message : String(err)})`);
      });
      summary.push(`report: ${raw.report}`);
    }
    const rate = (leftRead.rows + rightRead.rows) / Math.max(1e-9, totalMs / 1000);
    if (raw.saveModel !== undefined)
      summary.push(run.learned === null ? `--save-model: nothing written (--rules ${common.settings.rules} has no model to save)` : `model: ${raw.saveModel}`);
    summary.push(
      `time ${seconds(totalMs)} (read and index left ${seconds(run.timings.index)}, ${run.learned !== null ? `estimate ${seconds(run.timings.learn)}, ` : ''}match right ${seconds(run.timings.match)}) on ${run.threads} thread${run.threads > 1 ? 's' : ''}; ${formatCount(rate)} rows/s; ${describeResources(startCpu)}`,
    );
    if (!common.quiet) io.stderr(`${summary.join('\n')}\n`);
    done = true;
  } finally {
    await run?.pool.close();
    if (!done) await output.discard();
  }
}

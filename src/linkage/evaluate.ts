/**
 * Measuring dedupe (one file) or link (two files) against labelled truth, exactly as the
 * commands run: pairwise precision, recall and F1 of the matched pairs; for a dedupe the
 * same after clustering (what `dedupe` writes) and the share of true clusters found
 * exactly; pair completeness (the share of true pairs blocking ever compared) and the
 * number of comparisons, so that a blocking change is measured; and, marked as picked
 * against the truth (never the headline), the best threshold's F1.
 */
import { openCsv } from '../files/csv-reader.js';
import { findColumn, IGNORE } from '../files/header-map.js';
import { matchDedupe } from './dedupe-run.js';
import { LinkageInputError } from './errors.js';
import { idOf } from './input.js';
import { matchLink } from './link-run.js';
import { exactClusterRate, pairKey, pairMetrics, pairsFromClusters, type PairMetrics } from './metrics.js';
import type { RunOptions } from './options.js';
import type { ProgressSink } from './progress.js';
import { describeSettings } from './settings.js';

/** Where the truth is: a column of entity labels (optionally a regex group of it), or a file of true pairs. */
export type TruthSource = { readonly column: string; readonly pattern?: RegExp | null } | { readonly pairsFile: string; readonly columns?: string | undefined };

/** Options of {@link evaluateFiles}. */
export interface EvaluateOptions {
  readonly truth: TruthSource;
  /** Linking: each row linked at most once. */
  readonly oneToOne?: boolean;
  /** Linking: id columns of each file (default: the run's). */
  readonly leftId?: string | undefined;
  readonly rightId?: string | undefined;
}

/** The best threshold found by trying every one against the truth (diagnostic, not a result). */
export interface OracleThreshold {
  /** Bits of total weight. */
  readonly threshold: number;
  readonly metrics: PairMetrics;
}

/** The figures an evaluation gives. */
export interface EvalFigures {
  readonly mode: 'dedupe' | 'link';
  readonly records: number;
  readonly truePairs: number;
  readonly predictedPairs: number;
  readonly pairwise: PairMetrics;
  /** Dedupe only: after clustering (what `dedupe` writes). */
  readonly clustered: PairMetrics | null;
  /** Dedupe only: share of true clusters reproduced exactly. */
  readonly exactClusters: number | null;
  /** Share of true pairs that blocking compared (0-1). */
  readonly pairCompleteness: number;
  /** Distinct pairs compared. */
  readonly comparisons: number;
  /** Pairwise F1 of the compared pairs at the best score threshold, picked against the truth: not a result (scores alone, no minimum combinations). */
  readonly oracle: OracleThreshold | null;
  readonly seconds: number;
  readonly settings: string;
  /** Learned rules: the estimated prior and where each comparison's m came from. */
  readonly model: {
    readonly prior: number | null;
    /** The estimated share of matches blocking compares, by which the prior was scaled (learn.ts), or null. */
    readonly blockingRecall: number | null;
    readonly sources: Readonly<Record<string, string>>;
    readonly notes: readonly string[];
  } | null;
}

/** Reads one column of every row of a file. */
async function readColumn(path: string, run: RunOptions, column: string): Promise<string[]> {
  const csv = await openCsv(path, { delimiter: run.delimiter, encoding: run.encoding }).catch((err: unknown) => {
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

function entityOf(value: string, pattern: RegExp | null | undefined): string {
  if (pattern === null || pattern === undefined) return value;
  const m = pattern.exec(value);
  return m === null ? value : (m[1] ?? m[0]);
}

/** True pairs from a pairs file: two id columns, and a label column kept at >= 0.5 if any. */
export async function readPairs(path: string, spec: string | undefined, run: RunOptions, key: (a: string, b: string) => string): Promise<Set<string>> {
  const csv = await openCsv(path, { delimiter: run.delimiter, encoding: run.encoding }).catch((err: unknown) => {
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

/**
 * The best pairwise F1 over all thresholds, trying each candidate score as the threshold
 * (`scores` of the candidate pairs whose keys are `keys`). Picked against the truth.
 */
export function oracleThreshold(keys: readonly string[], scores: readonly number[], truth: ReadonlySet<string>): OracleThreshold | null {
  const best = new Map<string, number>();
  keys.forEach((k, i) => best.set(k, Math.max(best.get(k) ?? -Infinity, scores[i] as number)));
  const list = [...best.entries()].sort((a, b) => b[1] - a[1]);
  let tp = 0;
  let top: OracleThreshold | null = null;
  for (let i = 0; i < list.length; i++) {
    const [key, score] = list[i] as [string, number];
    if (truth.has(key)) tp++;
    const next = list[i + 1];
    if (next !== undefined && next[1] === score) continue;
    const predicted = i + 1;
    const precision = tp / predicted;
    const recall = truth.size === 0 ? 1 : tp / truth.size;
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    if (top === null || f1 > top.metrics.f1) {
      top = { threshold: score, metrics: { truePositives: tp, falsePositives: predicted - tp, falseNegatives: truth.size - tp, precision, recall, f1 } };
    }
  }
  return top;
}

/** Runs dedupe (`right` undefined) or link as the commands do and measures it against the truth. */
export async function evaluateFiles(
  input: string,
  right: string | undefined,
  options: EvaluateOptions,
  run: RunOptions,
  progress: ProgressSink,
): Promise<EvalFigures> {
  const started = performance.now();
  const truth = options.truth;
  const column = 'column' in truth ? truth.column : null;
  const pattern = 'column' in truth ? truth.pattern : null;
  // The truth column must not be matched on.
  const withTruthIgnored = (r: RunOptions, id: string | undefined): RunOptions =>
    column === null || (id !== undefined && id.trim().toLowerCase() === column.trim().toLowerCase())
      ? r
      : { ...r, overrides: [...r.overrides, { header: column, field: IGNORE }] };
  // Truth labels first: a wrong truth column fails before the work.
  const leftLabels = column !== null ? await readColumn(input, run, column) : null;
  const rightLabels = column !== null && right !== undefined ? await readColumn(right, run, column) : null;
  if (right === undefined) {
    const result = await matchDedupe(input, withTruthIgnored(run, run.idColumn), progress, {
      keepEdges: true,
      sampleLowScores: false,
      collectCandidates: true,
    });
    await result.pool.close();
    const { results, read } = result;
    const ids = Array.from({ length: read.rows }, (_, i) => idOf(read.ids, i));
    const edges = results.edges ?? { from: [], to: [], score: [] };
    const predicted = new Set<string>();
    for (let k = 0; k < edges.from.length; k++) predicted.add(pairKey(ids[edges.from[k] as number] as string, ids[edges.to[k] as number] as string));
    const clusters = new Map(ids.map((id, i) => [id, ids[results.root(i)] as string]));
    let truePairs: Set<string>;
    let truthClusters: Map<string, string>;
    if (leftLabels !== null) {
      truthClusters = new Map(ids.map((id, i) => [id, entityOf(leftLabels[i] ?? '', pattern)]));
      truePairs = pairsFromClusters(truthClusters);
    } else {
      const file = truth as { pairsFile: string; columns?: string };
      truePairs = await readPairs(file.pairsFile, file.columns, run, pairKey);
      truthClusters = new Map(ids.map((id) => [id, id]));
    }
    const cand = results.candidates;
    const candKeys = cand.from.map((a, k) => pairKey(ids[a] as string, ids[cand.to[k] as number] as string));
    const compared = new Set(candKeys);
    return {
      mode: 'dedupe',
      records: read.rows,
      truePairs: truePairs.size,
      predictedPairs: predicted.size,
      pairwise: pairMetrics(predicted, truePairs),
      clustered: pairMetrics(pairsFromClusters(clusters), truePairs),
      exactClusters: leftLabels !== null ? exactClusterRate(clusters, truthClusters) : null,
      pairCompleteness: completeness(compared, truePairs),
      comparisons: compared.size,
      oracle: oracleThreshold(candKeys, cand.score, truePairs),
      seconds: (performance.now() - started) / 1000,
      settings: describeSettings(run.settings, [result.input.plan], result.learned?.model),
      model: modelFigures(result.learned?.model, result.learned?.blockingRecall ?? null),
    };
  }
  const idsOpt = { left: options.leftId ?? run.idColumn, right: options.rightId ?? run.idColumn };
  const result = await matchLink(input, right, withTruthIgnored(run, idsOpt.left === idsOpt.right ? idsOpt.left : undefined), idsOpt, progress, {
    keepQueries: false,
    sampleLowScores: false,
    collectCandidates: true,
  });
  await result.pool.close();
  const key = (l: string, r: string): string => `${l}|${r}`;
  const leftId = (i: number): string => idOf(result.leftRead.ids, i);
  const rightId = (i: number): string => idOf(result.rightRead.ids, i);
  const predicted = new Set(result.results.links(options.oneToOne === true).map((l) => key(leftId(l.left), rightId(l.right))));
  let truePairs: Set<string>;
  if (leftLabels !== null && rightLabels !== null) {
    const byEntity = new Map<string, string[]>();
    leftLabels.forEach((label, i) => {
      const e = entityOf(label, pattern);
      const list = byEntity.get(e);
      if (list) list.push(leftId(i));
      else byEntity.set(e, [leftId(i)]);
    });
    truePairs = new Set<string>();
    rightLabels.forEach((label, i) => {
      for (const l of byEntity.get(entityOf(label, pattern)) ?? []) truePairs.add(key(l, rightId(i)));
    });
  } else {
    const file = truth as { pairsFile: string; columns?: string };
    truePairs = await readPairs(file.pairsFile, file.columns, run, key);
  }
  const cand = result.results.candidates;
  const candKeys = cand.right.map((r, k) => key(leftId(cand.left[k] as number), rightId(r)));
  const compared = new Set(candKeys);
  return {
    mode: 'link',
    records: result.leftRead.rows + result.rightRead.rows,
    truePairs: truePairs.size,
    predictedPairs: predicted.size,
    pairwise: pairMetrics(predicted, truePairs),
    clustered: null,
    exactClusters: null,
    pairCompleteness: completeness(compared, truePairs),
    comparisons: compared.size,
    oracle: oracleThreshold(candKeys, cand.score, truePairs),
    seconds: (performance.now() - started) / 1000,
    settings: describeSettings(run.settings, [result.left.plan, result.right.plan], result.learned?.model),
    model: modelFigures(result.learned?.model, result.learned?.blockingRecall ?? null),
  };
}

function completeness(compared: ReadonlySet<string>, truth: ReadonlySet<string>): number {
  if (truth.size === 0) return 1;
  let hit = 0;
  for (const p of truth) if (compared.has(p)) hit++;
  return hit / truth.size;
}

function modelFigures(
  model: { prior?: number; sources?: Readonly<Record<string, string>>; notes?: readonly string[] } | undefined,
  blockingRecall: number | null,
): EvalFigures['model'] {
  if (model === undefined) return null;
  return { prior: model.prior ?? null, blockingRecall, sources: model.sources ?? {}, notes: model.notes ?? [] };
}

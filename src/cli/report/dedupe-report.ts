/**
 * The deduplication report's data: which pairs to explain and which rows to show (chosen
 * before the output is written, when the rows' cells are captured), then the figures.
 */
import type { FieldOutcome } from '../../engine/index.js';
import type { CommonOptions } from '../matching/options.js';
import { formatCount } from '../progress.js';
import { modelView } from './model-view.js';
import type { ReportData, ShownRow } from './data.js';
import { buildFieldContributions, buildHistogram, pickBorderline, pickSample, shownColumns, shownValues } from './figures.js';
import { type DedupeRun, idOf, describeSettings, possibleNote, thresholdsOf, type PairRequest } from '../../linkage/index.js';

/** Pairs sampled per kind for the field contributions. */
export const FIELD_SAMPLE = 1500;
/** Borderline pairs shown. */
export const BORDERLINE_PAIRS = 20;
/** Largest clusters shown, and rows shown per cluster. */
export const CLUSTERS_SHOWN = 8;
export const ROWS_PER_CLUSTER = 12;

/** What the report needs explained and shown. */
export interface ReportPlan {
  readonly pairs: PairRequest[];
  /** pairs[0..matched) are sampled Matched pairs, then Possible ones, then the borderline ones. */
  readonly matched: number;
  readonly possible: number;
  readonly borderline: { readonly a: number; readonly b: number; readonly score: number; readonly decision: string }[];
  readonly clusters: { readonly root: number; readonly members: number[] }[];
  /** Rows whose cells the output pass should capture. */
  readonly rows: Set<number>;
}

/** Chooses the pairs and rows of the report; `matchThreshold` centres the borderline pairs. */
export function reportPairsFor(run: DedupeRun, matchThreshold: number): ReportPlan {
  const { results } = run;
  const edges = results.edges ?? { from: [], to: [], score: [] };
  const matchedPairs: { a: number; b: number; score: number }[] = [];
  const seen = new Set<string>();
  for (let k = 0; k < edges.from.length; k++) {
    const a = Math.min(edges.from[k] as number, edges.to[k] as number);
    const b = Math.max(edges.from[k] as number, edges.to[k] as number);
    const key = `${a}|${b}`;
    if (seen.has(key)) continue;
    seen.add(key);
    matchedPairs.push({ a, b, score: edges.score[k] as number });
  }
  const possiblePairs: { a: number; b: number; score: number }[] = [];
  for (let row = 0; row < results.size; row++) {
    const other = results.possible[row] as number;
    if (results.partner[row] === -1 && other !== -1) possiblePairs.push({ a: row, b: other, score: results.possibleScore[row] as number });
  }
  const m = pickSample(matchedPairs, FIELD_SAMPLE);
  const p = pickSample(possiblePairs, FIELD_SAMPLE);
  const borderline = pickBorderline(
    [...matchedPairs.map((x) => ({ ...x, decision: 'Matched' })), ...possiblePairs.map((x) => ({ ...x, decision: 'Possible' }))],
    matchThreshold,
    BORDERLINE_PAIRS,
  );
  const clusters = results.largestClusters(CLUSTERS_SHOWN).map((c) => ({ root: c.root, members: c.members.slice(0, ROWS_PER_CLUSTER) }));
  const rows = new Set<number>();
  for (const x of borderline) {
    rows.add(x.a);
    rows.add(x.b);
  }
  for (const c of clusters) for (const r of c.members) rows.add(r);
  const pairs: PairRequest[] = [
    ...m.map((x) => ({ query: x.a, record: x.b })),
    ...p.map((x) => ({ query: x.a, record: x.b })),
    ...borderline.map((x) => ({ query: x.a, record: x.b })),
  ];
  return { pairs, matched: m.length, possible: p.length, borderline, clusters, rows };
}

/** Builds the report once the explanations and the shown rows' cells are in. */
export function buildDedupeReport(
  run: DedupeRun,
  common: CommonOptions,
  plan: ReportPlan,
  outcomes: readonly FieldOutcome[][],
  cells: ReadonlyMap<number, string[]>,
  summary: readonly string[],
  totalMs: number,
): ReportData {
  const { results, read } = run;
  const thresholds = run.learned?.model.thresholds ?? thresholdsOf(common.settings);
  const counts = results.counts();
  const columns = shownColumns(run.input.plan);
  const show = (row: number): ShownRow => ({ id: idOf(read.ids, row), values: shownValues(run.input.plan, cells.get(row) ?? []) });
  const bestScores: number[] = [];
  const kinds: ('matched' | 'possible')[] = [];
  for (let row = 0; row < results.size; row++) {
    if (results.partner[row] !== -1) {
      bestScores.push(results.partnerScore[row] as number);
      kinds.push('matched');
    } else if (results.possible[row] !== -1) {
      bestScores.push(results.possibleScore[row] as number);
      kinds.push('possible');
    }
  }
  const histogram = buildHistogram(bestScores, kinds, results.lowScores, run.lowSampleEvery, thresholds);
  const matchedOutcomes = outcomes.slice(0, plan.matched);
  const possibleOutcomes = outcomes.slice(plan.matched, plan.matched + plan.possible);
  const borderOutcomes = outcomes.slice(plan.matched + plan.possible);
  return {
    title: `Deduplication of ${run.input.layout.path.split('/').pop() ?? run.input.layout.path}`,
    subtitle: `${describeSettings(common.settings, [run.input.plan], run.learned?.model)}; ${run.threads} thread${run.threads > 1 ? 's' : ''}, ${(totalMs / 1000).toFixed(1)} s`,
    summary,
    figures: [
      { label: 'records', value: formatCount(read.rows) },
      { label: 'clusters', value: formatCount(counts.clusters) },
      { label: 'duplicate rows', value: formatCount(counts.duplicates) },
      { label: 'clusters of 2+', value: formatCount(counts.multiClusters) },
      { label: 'possible (review)', value: formatCount(counts.possible) },
      { label: 'cannot be matched', value: formatCount(counts.unmatchable) },
    ],
    thresholds,
    histogram,
    fields: buildFieldContributions(matchedOutcomes, possibleOutcomes),
    fieldSample: { matched: matchedOutcomes.length, possible: possibleOutcomes.length },
    columns,
    rightColumns: columns,
    clustersTitle: 'Largest clusters',
    clustersEmpty: 'No cluster has more than one row.',
    clusters: plan.clusters.map((c) => ({ id: `cluster ${idOf(read.ids, c.root)}`, size: results.clusterSize(c.root), rows: c.members.map(show) })),
    model: modelView(run.learned),
    borderline: plan.borderline.map((x, i) => ({
      score: x.score,
      decision: x.decision,
      left: show(x.a),
      right: show(x.b),
      explanation: (borderOutcomes[i] ?? []).filter((o) => o.level !== 'missing').map((o) => ({ field: o.field, label: o.label, weight: o.weight })),
      ...(x.decision === 'Possible' ? { note: possibleNote(x.score, thresholds.match, results.shortfalls.get(x.a), results.possibleWhy.get(x.a)) } : {}),
    })),
  };
}

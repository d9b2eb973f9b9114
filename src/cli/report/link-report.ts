/** The linkage report's data (see dedupe-report.ts for the deduplication one). */
import type { FieldOutcome } from '../../engine/index.js';
import { openCsv, type CsvLayout } from '../../files/index.js';
import type { CommonOptions } from '../matching/options.js';
import { formatCount } from '../progress.js';
import { modelView } from './model-view.js';
import type { ReportData } from './data.js';
import { BORDERLINE_PAIRS, CLUSTERS_SHOWN, FIELD_SAMPLE, ROWS_PER_CLUSTER } from './dedupe-report.js';
import { buildFieldContributions, buildHistogram, pickBorderline, pickSample, sharedFields, valuesByField } from './figures.js';
import { idOf, type LinkRun, describeSettings, possibleNote, thresholdsOf, type PairRequest } from '../../linkage/index.js';

type Link = { readonly right: number; readonly left: number; readonly score: number };

/** Pairs to explain and rows to show. */
export interface LinkReportPlan {
  readonly pairs: PairRequest[];
  readonly matched: number;
  readonly possible: number;
  readonly borderline: { a: number; b: number; score: number; decision: string }[];
  /** Left rows linked by several right rows, most first. */
  readonly groups: { left: number; rights: number[] }[];
}

/** Chooses what the report explains and shows. `a` is the left row, `b` the right row. */
export function linkReportPlan(run: LinkRun, links: readonly Link[], matchThreshold: number): LinkReportPlan {
  const { results } = run;
  const linkPairs = links.map((l) => ({ a: l.left, b: l.right, score: l.score }));
  const linkedRight = new Set(links.map((l) => l.right));
  const possiblePairs: { a: number; b: number; score: number }[] = [];
  for (let r = 0; r < results.size; r++) {
    const left = results.possible[r] as number;
    if (!linkedRight.has(r) && left !== -1) possiblePairs.push({ a: left, b: r, score: results.possibleScore[r] as number });
  }
  const m = pickSample(linkPairs, FIELD_SAMPLE);
  const p = pickSample(possiblePairs, FIELD_SAMPLE);
  const borderline = pickBorderline(
    [...linkPairs.map((x) => ({ ...x, decision: 'Matched' })), ...possiblePairs.map((x) => ({ ...x, decision: 'Possible' }))],
    matchThreshold,
    BORDERLINE_PAIRS,
  );
  const byLeft = new Map<number, number[]>();
  for (const l of links) {
    const list = byLeft.get(l.left);
    if (list) list.push(l.right);
    else byLeft.set(l.left, [l.right]);
  }
  const groups = [...byLeft.entries()]
    .filter(([, rights]) => rights.length > 1)
    .sort((a, b) => b[1].length - a[1].length || a[0] - b[0])
    .slice(0, CLUSTERS_SHOWN)
    .map(([left, rights]) => ({ left, rights: rights.slice(0, ROWS_PER_CLUSTER) }));
  const pairs: PairRequest[] = [...m, ...p, ...borderline].map((x) => ({ query: x.b, record: x.a }));
  return { pairs, matched: m.length, possible: p.length, borderline, groups };
}

/** Reads the cells of some rows of a file (a second pass, for the report only). */
async function captureRows(layout: CsvLayout, rows: ReadonlySet<number>): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (rows.size === 0) return out;
  const csv = await openCsv(layout.path, { delimiter: layout.delimiter, encoding: layout.encoding });
  let row = 0;
  for await (const batch of csv.batches()) {
    for (const cells of batch.rows) {
      if (rows.has(row)) out.set(row, cells);
      row++;
    }
  }
  return out;
}

/** Builds the report (reads the shown rows again from both files). */
export async function buildLinkReport(
  run: LinkRun,
  common: CommonOptions,
  links: readonly Link[],
  plan: LinkReportPlan,
  outcomes: readonly FieldOutcome[][],
  summary: readonly string[],
  totalMs: number,
  oneToOne: boolean,
): Promise<ReportData> {
  const { results } = run;
  const thresholds = run.learned?.model.thresholds ?? thresholdsOf(common.settings);
  const leftRows = new Set<number>();
  const rightRows = new Set<number>();
  for (const x of plan.borderline) {
    leftRows.add(x.a);
    rightRows.add(x.b);
  }
  for (const g of plan.groups) {
    leftRows.add(g.left);
    for (const r of g.rights) rightRows.add(r);
  }
  const leftCells = await captureRows(run.left.layout, leftRows);
  const rightCells = await captureRows(run.right.layout, rightRows);
  // Rows of both files are shown by field, so that they line up whatever their headers.
  const fields = sharedFields(run.left.plan, run.right.plan);
  const showLeft = (row: number) => ({ id: `L ${idOf(run.leftRead.ids, row)}`, values: valuesByField(run.left.plan, leftCells.get(row) ?? [], fields) });
  const showRight = (row: number) => ({ id: `R ${idOf(run.rightRead.ids, row)}`, values: valuesByField(run.right.plan, rightCells.get(row) ?? [], fields) });
  const scores: number[] = [];
  const kinds: ('matched' | 'possible')[] = [];
  const linked = new Set<number>();
  for (const l of links) {
    scores.push(l.score);
    kinds.push('matched');
    linked.add(l.right);
  }
  for (let r = 0; r < results.size; r++) {
    if (!linked.has(r) && results.possible[r] !== -1) {
      scores.push(results.possibleScore[r] as number);
      kinds.push('possible');
    }
  }
  const matchedOutcomes = outcomes.slice(0, plan.matched);
  const possibleOutcomes = outcomes.slice(plan.matched, plan.matched + plan.possible);
  const borderOutcomes = outcomes.slice(plan.matched + plan.possible);
  const name = (p: string): string => p.split('/').pop() ?? p;
  return {
    title: `Linkage of ${name(run.right.layout.path)} to ${name(run.left.layout.path)}`,
    subtitle: `${describeSettings(common.settings, [run.left.plan, run.right.plan], run.learned?.model)}${oneToOne ? '; one to one' : ''}; ${run.threads} thread${run.threads > 1 ? 's' : ''}, ${(totalMs / 1000).toFixed(1)} s`,
    summary,
    figures: [
      { label: 'left rows', value: formatCount(run.leftRead.rows) },
      { label: 'right rows', value: formatCount(run.rightRead.rows) },
      { label: 'links', value: formatCount(links.length) },
      { label: 'possible (review)', value: formatCount(kinds.length - links.length) },
    ],
    thresholds,
    histogram: buildHistogram(scores, kinds, results.lowScores, run.lowSampleEvery, thresholds),
    fields: buildFieldContributions(matchedOutcomes, possibleOutcomes),
    fieldSample: { matched: matchedOutcomes.length, possible: possibleOutcomes.length },
    columns: fields,
    rightColumns: fields,
    clustersTitle: 'Left rows linked most often',
    clustersEmpty: oneToOne ? 'One to one: each left row is linked at most once.' : 'No left row is linked by more than one right row.',
    clusters: plan.groups.map((g) => ({
      id: `L ${idOf(run.leftRead.ids, g.left)}`,
      size: g.rights.length + 1,
      rows: [showLeft(g.left), ...g.rights.map(showRight)],
    })),
    model: modelView(run.learned),
    borderline: plan.borderline.map((x, i) => ({
      score: x.score,
      decision: x.decision,
      left: showLeft(x.a),
      right: showRight(x.b),
      explanation: (borderOutcomes[i] ?? []).filter((o) => o.level !== 'missing').map((o) => ({ field: o.field, label: o.label, weight: o.weight })),
      ...(x.decision === 'Possible'
        ? { note: possibleNote(x.score, thresholds.match, run.results.shortfalls.get(x.b), run.results.possibleWhy.get(x.b)) }
        : {}),
    })),
  };
}

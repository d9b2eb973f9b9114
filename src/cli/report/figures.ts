/** Pure helpers computing the report's figures from results. */
import type { FieldOutcome, Thresholds } from '../../engine/index.js';
import { CONTACT_FIELDS, type ContactField, type HeaderPlan } from '../../files/index.js';
import type { FieldContribution, ScoreHistogram } from './data.js';

/** Scores outside this range are drawn in the first or last bin. */
export const HISTOGRAM_RANGE = { min: -40, max: 100 } as const;

/** An evenly spread deterministic sample of at most `limit` items, in their order. */
export function pickSample<T>(items: readonly T[], limit: number): T[] {
  if (items.length <= limit) return [...items];
  const out: T[] = [];
  const step = items.length / limit;
  for (let i = 0; i < limit; i++) out.push(items[Math.floor(i * step)] as T);
  return out;
}

/** The `limit` pairs with scores closest to the threshold (ties: lower ids first). */
export function pickBorderline<P extends { a: number; b: number; score: number }>(pairs: readonly P[], threshold: number, limit: number): P[] {
  return [...pairs]
    .sort((x, y) => Math.abs(x.score - threshold) - Math.abs(y.score - threshold) || x.a - y.a || x.b - y.b)
    .slice(0, limit)
    .sort((x, y) => y.score - x.score || x.a - y.a);
}

/**
 * Per-row best scores in 1-bit bins: Matched and Possible rows counted exactly; rows with
 * no candidate above the review threshold estimated from a sample (each sampled row counts
 * `sampleEvery` rows).
 */
export function buildHistogram(
  scores: readonly number[],
  kinds: readonly ('matched' | 'possible')[],
  lowScores: readonly number[],
  sampleEvery: number,
  thresholds: Thresholds,
): ScoreHistogram {
  let min = Math.min(thresholds.match, thresholds.possible);
  let max = Math.max(thresholds.match, thresholds.possible);
  for (const list of [scores, lowScores]) {
    for (const s of list) {
      if (s < min) min = s;
      if (s > max) max = s;
    }
  }
  let lo = Math.floor(min);
  let hi = Math.ceil(max) + 1;
  lo = Math.max(HISTOGRAM_RANGE.min, Math.min(lo, Math.floor(thresholds.possible) - 2));
  hi = Math.min(HISTOGRAM_RANGE.max, Math.max(hi, Math.ceil(thresholds.match) + 2));
  const bins = Math.max(1, hi - lo);
  const matched = new Array<number>(bins).fill(0);
  const possible = new Array<number>(bins).fill(0);
  const below = new Array<number>(bins).fill(0);
  const bin = (s: number): number => Math.min(bins - 1, Math.max(0, Math.floor(s - lo)));
  scores.forEach((s, i) => {
    const target = kinds[i] === 'matched' ? matched : possible;
    target[bin(s)] = (target[bin(s)] ?? 0) + 1;
  });
  const weight = Math.max(1, sampleEvery);
  for (const s of lowScores) below[bin(s)] = (below[bin(s)] ?? 0) + weight;
  const belowNote =
    lowScores.length === 0
      ? 'rows with no candidate above the review threshold are not shown'
      : weight === 1
        ? `rows below the review threshold: all ${lowScores.length.toLocaleString('en-US')} that had a candidate at all`
        : `rows below the review threshold estimated from ${lowScores.length.toLocaleString('en-US')} sampled rows (1 in ${weight})`;
  return { start: lo, width: 1, matched, possible, below, belowNote };
}

/** Mean weight per field over the sampled Matched and Possible pairs, largest first. */
export function buildFieldContributions(matched: readonly FieldOutcome[][], possible: readonly FieldOutcome[][]): FieldContribution[] {
  const sum = (list: readonly FieldOutcome[][]): Map<string, number> => {
    const totals = new Map<string, number>();
    for (const outcomes of list) for (const o of outcomes) totals.set(o.field, (totals.get(o.field) ?? 0) + o.weight);
    return totals;
  };
  const m = sum(matched);
  const p = sum(possible);
  const fields = new Set([...m.keys(), ...p.keys()]);
  const out: FieldContribution[] = [];
  for (const field of fields) {
    const mean = (totals: Map<string, number>, n: number): number => (n === 0 ? 0 : (totals.get(field) ?? 0) / n);
    const c = { field, matched: mean(m, matched.length), possible: mean(p, possible.length) };
    if (c.matched !== 0 || c.possible !== 0) out.push(c);
  }
  return out.sort((a, b) => Math.abs(b.matched) - Math.abs(a.matched) || a.field.localeCompare(b.field));
}

/** Headers of the columns used for matching (shown for each row in the report). */
export function shownColumns(plan: HeaderPlan): string[] {
  return plan.headers.filter((_, i) => plan.columns[i] !== null);
}

/** A row's values in those columns. */
export function shownValues(plan: HeaderPlan, cells: readonly string[]): string[] {
  const out: string[] = [];
  plan.columns.forEach((field, i) => {
    if (field !== null) out.push((cells[i] ?? '').trim());
  });
  return out;
}

/** Fields either plan maps, in the usual field order (for showing rows of two files alike). */
export function sharedFields(a: HeaderPlan, b: HeaderPlan): ContactField[] {
  const used = new Set([...a.columns, ...b.columns].filter((f): f is ContactField => f !== null));
  return CONTACT_FIELDS.filter((f) => used.has(f));
}

/** A row's values by field (several columns of one field joined with "; "). */
export function valuesByField(plan: HeaderPlan, cells: readonly string[], fields: readonly ContactField[]): string[] {
  return fields.map((field) =>
    plan.columns
      .flatMap((f, i) => (f === field ? [(cells[i] ?? '').trim()] : []))
      .filter((v) => v.length > 0)
      .join('; '),
  );
}

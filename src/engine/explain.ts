/**
 * Explaining: each field's level, label and weight for a pair, so that every decision can
 * say why; and the forms reports show (one line of text; a waterfall of cumulative weight).
 */
import { scorePair, type FieldOutcome, type ScoreContext } from './score.js';
import type { NormalizedContact } from './types.js';

/** Each field's outcome for candidate `q` against record `r` (the prior first, when the model has one). */
export function explainPair(q: NormalizedContact, r: NormalizedContact, ctx: ScoreContext): FieldOutcome[] {
  const out: FieldOutcome[] = [];
  scorePair(q, r, ctx, out);
  return out;
}

/** The total weight of an explanation, bits. */
export function explanationTotal(outcomes: readonly FieldOutcome[]): number {
  let sum = 0;
  for (const o of outcomes) sum += o.weight;
  return sum;
}

/** "firstName +7.5 (first names equal); dateOfBirth -8.0 (dates of birth differ)": fields that spoke. */
export function formatExplanation(outcomes: readonly FieldOutcome[]): string {
  return outcomes
    .filter((o) => o.level !== 'missing' && o.weight !== 0)
    .map((o) => `${o.field} ${o.weight >= 0 ? '+' : ''}${o.weight.toFixed(1)} (${o.label})`)
    .join('; ');
}

/** One step of a waterfall: a field's weight and the running total after it. */
export interface WaterfallStep {
  readonly field: string;
  readonly label: string;
  readonly weight: number;
  readonly before: number;
  readonly after: number;
}

/**
 * The explanation as a waterfall (Splink's chart): the prior first, then every field that
 * spoke, each step starting where the previous ended; the last `after` is the score.
 */
export function waterfall(outcomes: readonly FieldOutcome[]): WaterfallStep[] {
  const steps: WaterfallStep[] = [];
  let total = 0;
  for (const o of outcomes) {
    if (o.level === 'missing' || o.weight === 0) continue;
    steps.push({ field: o.field, label: o.label, weight: o.weight, before: total, after: total + o.weight });
    total += o.weight;
  }
  return steps;
}

/** The report's view of a model: every comparison's levels with m, u and weight, in table order. */
import { ATTRIBUTE_LEVELS, COMPARISON_FIELDS, COMPARISONS, levelWeight, type FieldModel, type MatchModel } from '../../engine/index.js';
import type { Learned } from '../../linkage/index.js';
import { describeModel } from '../matching/summary.js';
import type { ModelView } from './data.js';

function levelsOf(levels: FieldModel, defs: readonly { level: string; label: string }[], prefix = ''): ModelView['comparisons'][number]['levels'] {
  const out: { level: string; label: string; m: number; u: number; weight: number }[] = [];
  for (const def of defs) {
    const spec = levels[def.level as keyof FieldModel];
    if (spec === undefined) continue;
    out.push({ level: def.level, label: spec.label ?? `${prefix}${def.label}`, m: spec.m, u: spec.u, weight: levelWeight(spec) });
  }
  return out;
}

/** The view of the model a run learned, or null when it used fixed rules. */
export function modelView(learned: Learned | null): ModelView | null {
  if (learned === null) return null;
  const model: MatchModel = learned.model;
  const sources = model.sources ?? {};
  const comparisons: ModelView['comparisons'][number][] = [];
  for (const field of COMPARISON_FIELDS) {
    const levels = model.fields[field];
    if (levels !== undefined) comparisons.push({ field, source: sources[field] ?? '', levels: levelsOf(levels, COMPARISONS[field].levels) });
  }
  for (const a of model.attributes ?? [])
    comparisons.push({ field: a.name, source: sources[a.name] ?? '', levels: levelsOf(a.levels, ATTRIBUTE_LEVELS, `${a.name}: `) });
  return { description: describeModel(learned).map((l) => l.trim()), comparisons };
}

/**
 * The most a pair's score can still gain from the fields not yet compared: when the part
 * already summed plus that bound is below what the caller needs (the review threshold, for a
 * lookup that keeps only matches and possible matches), the pair is out whatever the other
 * fields say, and scoring stops there (score.ts `floor`). Most candidates of a file share a
 * surname and a town with the record, and differ on the first name or the date of birth: they
 * are settled before their emails, phones and addresses are read.
 *
 * The bound is exact, never an estimate: each remaining field adds at most its best level's
 * weight (a level term frequencies adjust at most log2(TF_MAX_BOOST) more, or
 * its floor), nothing when every level weighs less than zero; within an evidence group only
 * the largest positive member counts, so the group adds at most how much its best remaining
 * member exceeds the best one already summed (score.ts countGroupsOnce), plus the levels that
 * are no member of it.
 */
import { COMPARISON_FIELDS, LEVEL_CODE, levelBit, type ComparisonField, type LevelName } from './comparisons.js';

/** A compiled field's levels (score.ts CompiledField), as the bound reads them. */
interface FieldLevels {
  readonly levels: Readonly<Partial<Record<LevelName, { readonly weight: number }>>>;
  readonly exactFloor: number;
  /** Levels term frequencies adjust (comparisons.ts levelBit). */
  readonly tfMask: number;
}

/** What the bound reads of a compiled model (score.ts CompiledModel). */
export interface BoundModel {
  readonly fields: Readonly<Record<ComparisonField, FieldLevels>>;
  readonly attributes: readonly FieldLevels[];
  /** Evidence groups as slots, with the level codes of each slot that belong. */
  readonly groups: readonly { readonly slots: readonly number[]; readonly levels: readonly (ReadonlySet<number> | null)[] }[];
}

/** One checkpoint of scoring: every field before `slot` is summed, none from it on. */
export interface Checkpoint {
  /** Best total of the remaining fields that are in no group, bits (>= 0). */
  readonly rest: number;
  /** Per evidence group: its slots already summed, and the remaining members' best and the non-member levels' sum. */
  readonly groups: readonly {
    readonly summed: readonly number[];
    /** Level codes of each summed slot that are members (null: every positive level). */
    readonly summedLevels: readonly (ReadonlySet<number> | null)[];
    readonly memberBest: number;
    readonly others: number;
  }[];
}

/** Fields whose exact agreement term frequencies can raise (score.ts tfWeight, sharedValueWeight, cityTfWeight, attributeTfWeight). */
const FREQUENCY_ADJUSTED: ReadonlySet<ComparisonField> = new Set(['firstName', 'lastName', 'email', 'phone', 'city']);

/**
 * Fields whose weight score.ts records for the evidence groups (the only ones
 * countGroupsOnce can take back; any other field in a group counts in full).
 */
export const GROUP_RECORDED: ReadonlySet<ComparisonField> = new Set(['lastName', 'email', 'phone', 'address']);

/** The most a level can weigh (a level term frequencies adjust: up to `boost` bits more, and at least the floor). */
function levelMax(field: FieldLevels, level: LevelName, adjusted: boolean, boost: number): number {
  const spec = field.levels[level];
  if (spec === undefined) return 0;
  if (adjusted && (levelBit(level) & field.tfMask) !== 0) return Math.max(field.exactFloor, spec.weight + boost);
  return spec.weight;
}

/** The most any level of a field can weigh, or 0 when none weighs more (`only`: just these level codes). */
function fieldMax(field: FieldLevels, adjusted: boolean, boost: number, only: ((level: LevelName) => boolean) | null = null): number {
  let best = 0;
  for (const level of Object.keys(field.levels) as LevelName[]) {
    if (only !== null && !only(level)) continue;
    best = Math.max(best, levelMax(field, level, adjusted, boost));
  }
  return best;
}

/**
 * The checkpoint at `slot` (a slot of COMPARISON_FIELDS; the attributes come after them all).
 * `boost`: log2 of the term-frequency boost limit (score.ts TF_MAX_BOOST).
 */
export function checkpointAt(model: BoundModel, slot: number, boost: number): Checkpoint {
  const groupOf = new Map<number, number>();
  model.groups.forEach((g, gi) => {
    for (const s of g.slots) if (GROUP_RECORDED.has(COMPARISON_FIELDS[s] as ComparisonField)) groupOf.set(s, gi);
  });
  let rest = 0;
  const groups = model.groups.map(() => ({ summed: [] as number[], summedLevels: [] as (ReadonlySet<number> | null)[], memberBest: 0, others: 0 }));
  for (let s = 0; s < COMPARISON_FIELDS.length; s++) {
    const field = COMPARISON_FIELDS[s] as ComparisonField;
    const gi = groupOf.get(s);
    if (s < slot) {
      const group = gi === undefined ? undefined : model.groups[gi];
      if (gi !== undefined && group !== undefined) {
        groups[gi]?.summed.push(s);
        groups[gi]?.summedLevels.push(group.levels[group.slots.indexOf(s)] ?? null);
      }
      continue;
    }
    const levels = model.fields[field];
    const adjusted = FREQUENCY_ADJUSTED.has(field);
    if (gi === undefined) {
      rest += fieldMax(levels, adjusted, boost);
      continue;
    }
    const group = model.groups[gi];
    const g = groups[gi];
    if (group === undefined || g === undefined) continue;
    const only = group.levels[group.slots.indexOf(s)] ?? null;
    const isMember = (level: LevelName): boolean => only === null || only.has(LEVEL_CODE[level]);
    g.memberBest = Math.max(g.memberBest, fieldMax(levels, adjusted, boost, isMember));
    g.others += fieldMax(levels, adjusted, boost, (level) => !isMember(level));
  }
  // Attributes are scored last, in no group, their exact agreement adjusted by frequency.
  for (const a of model.attributes) rest += fieldMax(a, true, boost);
  return { rest, groups };
}

/**
 * The most a pair's final score can be, given `summed` (its score so far: the prior and every
 * field before the checkpoint) and `weights` and `levels` (score.ts scratch: each recorded
 * group field's weight and level code in this pair).
 */
export function scoreCeiling(cp: Checkpoint, summed: number, weights: Float64Array, levels: Uint8Array): number {
  let ceiling = summed + cp.rest;
  for (const g of cp.groups) {
    // Of the positive members summed, only the largest can stay (a larger remaining member
    // would replace it); a summed level that is no member keeps at most its weight.
    let top = 0;
    let members = 0;
    for (let k = 0; k < g.summed.length; k++) {
      const s = g.summed[k] as number;
      const w = weights[s] as number;
      if (w <= 0) continue;
      const only = g.summedLevels[k] ?? null;
      if (only !== null && !only.has(levels[s] as number)) continue;
      members += w;
      if (w > top) top = w;
    }
    ceiling += g.others - (members - top) + Math.max(0, g.memberBest - top);
  }
  return ceiling;
}

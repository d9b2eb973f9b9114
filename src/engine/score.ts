/**
 * Scoring: the sum of Fellegi-Sunter match weights over fields, with term-frequency
 * adjustment of exact name agreement, vetoes ("every supplied criterion must agree") and
 * the gate fields the pair agrees on.
 */
import {
  compareAddress,
  compareDate,
  compareEmails,
  compareFirstName,
  compareLastName,
  compareMiddleName,
  comparePhones,
  compareSuffix,
  type AddressLevels,
  type NameCompareOptions,
} from './compare.js';
import { GATE_FIELD_BITS } from './gates.js';
import { levelWeight, type ComparisonField, type LevelName, type MatchModel } from './model.js';
import { compactName } from './name.js';
import type { NicknameTable } from './nicknames.js';
import type { NormalizedContact } from './types.js';

/** A level with its weight precomputed. */
export interface CompiledLevel {
  readonly label: string;
  readonly m: number;
  readonly u: number;
  readonly weight: number;
  readonly agrees: boolean;
  readonly veto: boolean;
}

/** A model ready for scoring: weights computed once. */
export interface CompiledModel {
  readonly model: MatchModel;
  readonly levels: Readonly<Record<ComparisonField, Readonly<Partial<Record<LevelName, CompiledLevel>>>>>;
}

const MISSING: CompiledLevel = Object.freeze({
  label: 'not on both records',
  m: 1,
  u: 1,
  weight: 0,
  agrees: false,
  veto: false,
});

/** Precomputes the weights of a model. */
export function compileModel(model: MatchModel): CompiledModel {
  const levels = {} as Record<ComparisonField, Partial<Record<LevelName, CompiledLevel>>>;
  for (const [field, spec] of Object.entries(model.fields) as [ComparisonField, MatchModel['fields'][ComparisonField]][]) {
    const out: Partial<Record<LevelName, CompiledLevel>> = { missing: MISSING };
    for (const [level, ls] of Object.entries(spec) as [LevelName, NonNullable<(typeof spec)[LevelName]>][]) {
      out[level] = { label: ls.label, m: ls.m, u: ls.u, weight: levelWeight(ls), agrees: ls.agrees, veto: ls.veto === true };
    }
    levels[field] = out;
  }
  return { model, levels };
}

/**
 * Counts of name values in the indexed population, for term-frequency adjustment: agreeing
 * on "smith" is weaker evidence than agreeing on "zbyszewski".
 */
export interface TermFrequencies {
  /** Number of records counted. */
  readonly total: number;
  /** Records whose compact first name is `name`. */
  firstNameCount(name: string): number;
  /** Records whose compact last name is `name`. */
  lastNameCount(name: string): number;
}

/**
 * Pseudo-count of the prior in the term-frequency estimate: with fewer records than this the
 * model's u dominates; with many more, the observed frequency does. Range: > 0.
 */
export const TF_PRIOR_RECORDS = 2000;
/** A rare name can raise the weight by at most log2 of this factor (3 bits). Range: >= 1. */
export const TF_MAX_BOOST = 8;

/** u probability of agreeing on a value seen `count` times among `total` records, shrunk to the prior. */
export function termFrequencyU(count: number, total: number, priorU: number): number {
  const u = (count + TF_PRIOR_RECORDS * priorU) / (total + TF_PRIOR_RECORDS);
  return Math.max(u, priorU / TF_MAX_BOOST);
}

/** One field's part of a score, for explanations. */
export interface FieldOutcome {
  readonly field: ComparisonField;
  readonly level: LevelName;
  readonly label: string;
  /** Bits this field added (negative when it spoke against the match). */
  readonly weight: number;
}

/** The comparison of a candidate with one record. */
export interface PairScore {
  /** Total match weight in bits. */
  score: number;
  /** The first field whose level rules the match out, or null. */
  vetoedBy: ComparisonField | null;
  /** Gate fields (GATE_FIELD_BITS) on which the pair agrees. */
  agreeMask: number;
}

/** Everything scoring needs besides the pair. */
export interface ScoreContext {
  readonly compiled: CompiledModel;
  readonly nicknames: NicknameTable;
  readonly strict: boolean;
  readonly tf: TermFrequencies | null;
  /**
   * Stop at the first veto (the candidate is out whatever else agrees): `score` is then only
   * the part summed so far. Default false.
   */
  readonly stopAtVeto?: boolean;
  /** Name comparison options derived from the above; built once by {@link makeScoreContext}. */
  readonly names?: NameCompareOptions;
}

/** A score context with its derived name options built once (scorePair runs per candidate). */
export function makeScoreContext(ctx: Omit<ScoreContext, 'names'>): ScoreContext {
  return { ...ctx, names: { nicknames: ctx.nicknames, strict: ctx.strict, fuzzyHigh: ctx.compiled.model.fuzzyHigh, fuzzyLow: ctx.compiled.model.fuzzyLow } };
}

const ADDRESS_FIELDS = ['zip5', 'streetNumber', 'streetName', 'building', 'unit', 'city', 'state'] as const;
const ADDRESS_GATE_BITS: Readonly<Record<(typeof ADDRESS_FIELDS)[number], number>> = {
  zip5: GATE_FIELD_BITS.zip5,
  streetNumber: GATE_FIELD_BITS.streetNumber,
  streetName: GATE_FIELD_BITS.streetName,
  building: 0,
  unit: 0,
  city: GATE_FIELD_BITS.city,
  state: GATE_FIELD_BITS.state,
};

function nameOptions(ctx: ScoreContext): NameCompareOptions {
  return ctx.names ?? { nicknames: ctx.nicknames, strict: ctx.strict, fuzzyHigh: ctx.compiled.model.fuzzyHigh, fuzzyLow: ctx.compiled.model.fuzzyLow };
}

/** Adds one field's level to the running score. */
function addLevel(
  result: PairScore,
  levels: CompiledModel['levels'],
  field: ComparisonField,
  level: LevelName,
  gateBit: number,
  explain: FieldOutcome[] | undefined,
  weightOverride?: number,
): void {
  const spec = levels[field][level] ?? MISSING;
  const weight = weightOverride ?? spec.weight;
  result.score += weight;
  if (spec.veto && result.vetoedBy === null) result.vetoedBy = field;
  if (spec.agrees) result.agreeMask |= gateBit;
  if (explain) explain.push({ field, level, label: spec.label, weight });
}

/**
 * Scores candidate `q` against record `r`. When `explain` is given, each field's outcome is
 * pushed onto it. Symmetric in `q` and `r` when term frequencies are off. Fields that can
 * veto come first, so that with `stopAtVeto` a household member costs one comparison.
 */
export function scorePair(q: NormalizedContact, r: NormalizedContact, ctx: ScoreContext, explain?: FieldOutcome[]): PairScore {
  const levels = ctx.compiled.levels;
  const opts = nameOptions(ctx);
  const stop = ctx.stopAtVeto === true && explain === undefined;
  const result: PairScore = { score: 0, vetoedBy: null, agreeMask: 0 };

  addLevel(result, levels, 'suffix', compareSuffix(q.suffix, r.suffix), 0, explain);
  if (stop && result.vetoedBy !== null) return result;
  // Names, with first and last swapped as an alternative reading.
  let first = compareFirstName(q.first, r.first, opts);
  const swappable = canSwap(q, r, ctx);
  if (stop && !swappable && levels.firstName[first]?.veto === true) {
    addLevel(result, levels, 'firstName', first, GATE_FIELD_BITS.firstName, explain);
    return result;
  }
  let last = compareLastName(q.last, r.last, opts);
  if ((first === 'disagree' || last === 'disagree') && swappable && isSwapped(q, r)) {
    first = 'swapped';
    last = 'swapped';
  }
  addLevel(result, levels, 'firstName', first, GATE_FIELD_BITS.firstName, explain, first === 'exact' ? tfWeight(ctx, 'firstName', r.first) : undefined);
  if (stop && result.vetoedBy !== null) return result;
  addLevel(result, levels, 'lastName', last, GATE_FIELD_BITS.lastName, explain, last === 'exact' ? tfWeight(ctx, 'lastName', r.last) : undefined);
  if (stop && result.vetoedBy !== null) return result;
  addLevel(result, levels, 'dateOfBirth', compareDate(q.dob, r.dob), GATE_FIELD_BITS.dateOfBirth, explain);
  if (stop && result.vetoedBy !== null) return result;
  addLevel(result, levels, 'middleName', compareMiddleName(q.middle, r.middle), GATE_FIELD_BITS.middleName, explain);
  addLevel(result, levels, 'email', compareEmails(q.emails, r.emails), GATE_FIELD_BITS.email, explain);
  addLevel(result, levels, 'phone', comparePhones(q.phones, r.phones), GATE_FIELD_BITS.phone, explain);
  scoreAddresses(q, r, ctx, result, explain);
  return result;
}

function canSwap(q: NormalizedContact, r: NormalizedContact, ctx: ScoreContext): boolean {
  return !ctx.strict && q.first !== null && q.last !== null && r.first !== null && r.last !== null;
}

function isSwapped(q: NormalizedContact, r: NormalizedContact): boolean {
  return compactName(q.first as string) === compactName(r.last as string) && compactName(q.last as string) === compactName(r.first as string);
}

function tfWeight(ctx: ScoreContext, field: 'firstName' | 'lastName', value: string | null): number | undefined {
  const spec = ctx.compiled.levels[field].exact;
  if (!ctx.tf || value === null || !spec) return undefined;
  const name = compactName(value);
  const count = field === 'firstName' ? ctx.tf.firstNameCount(name) : ctx.tf.lastNameCount(name);
  return Math.log2(spec.m / termFrequencyU(count, ctx.tf.total, spec.u));
}

function addressWeight(ctx: ScoreContext, lv: AddressLevels): number {
  const levels = ctx.compiled.levels;
  return (
    (levels.zip5[lv.zip5] ?? MISSING).weight +
    (levels.streetNumber[lv.streetNumber] ?? MISSING).weight +
    (levels.streetName[lv.streetName] ?? MISSING).weight +
    (levels.building[lv.building] ?? MISSING).weight +
    (levels.unit[lv.unit] ?? MISSING).weight +
    (levels.city[lv.city] ?? MISSING).weight +
    (levels.state[lv.state] ?? MISSING).weight
  );
}

function scoreAddresses(q: NormalizedContact, r: NormalizedContact, ctx: ScoreContext, result: PairScore, explain?: FieldOutcome[]): void {
  if (q.addresses.length === 0 || r.addresses.length === 0) {
    if (explain) for (const field of ADDRESS_FIELDS) explain.push({ field, level: 'missing', label: MISSING.label, weight: 0 });
    return;
  }
  let best: AddressLevels | null = null;
  let bestWeight = -Infinity;
  for (const a of q.addresses) {
    for (const b of r.addresses) {
      const lv = compareAddress(a, b);
      const w = addressWeight(ctx, lv);
      if (w > bestWeight) {
        bestWeight = w;
        best = lv;
      }
    }
  }
  if (best === null) return;
  const floor = ctx.compiled.model.addressFloor;
  // Scale every part down together when the floor applies, so the explanation still sums up.
  const scale = bestWeight < floor ? floor / bestWeight : 1;
  for (const field of ADDRESS_FIELDS) {
    const spec = ctx.compiled.levels[field][best[field]] ?? MISSING;
    const weight = spec.weight * scale;
    result.score += weight;
    if (spec.agrees) result.agreeMask |= ADDRESS_GATE_BITS[field];
    if (explain) explain.push({ field, level: best[field], label: spec.label, weight });
  }
}

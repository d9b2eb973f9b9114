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
import { GATE_FIELD_BITS, type GateField } from './gates.js';
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
}

const ADDRESS_FIELDS = ['zip5', 'streetNumber', 'streetName', 'building', 'unit', 'city', 'state'] as const;
const ADDRESS_GATE_BITS: Partial<Record<ComparisonField, number>> = {
  zip5: GATE_FIELD_BITS.zip5,
  streetNumber: GATE_FIELD_BITS.streetNumber,
  streetName: GATE_FIELD_BITS.streetName,
  city: GATE_FIELD_BITS.city,
  state: GATE_FIELD_BITS.state,
};

/**
 * Scores candidate `q` against record `r`. When `explain` is given, each field's outcome is
 * pushed onto it. Symmetric in `q` and `r` when term frequencies are off.
 */
export function scorePair(q: NormalizedContact, r: NormalizedContact, ctx: ScoreContext, explain?: FieldOutcome[]): PairScore {
  const levels = ctx.compiled.levels;
  const model = ctx.compiled.model;
  const opts: NameCompareOptions = {
    nicknames: ctx.nicknames,
    strict: ctx.strict,
    fuzzyHigh: model.fuzzyHigh,
    fuzzyLow: model.fuzzyLow,
  };
  const result: PairScore = { score: 0, vetoedBy: null, agreeMask: 0 };
  const add = (field: ComparisonField, level: LevelName, gate: GateField | null, weightOverride?: number): void => {
    const spec = levels[field][level] ?? MISSING;
    const weight = weightOverride ?? spec.weight;
    result.score += weight;
    if (spec.veto && result.vetoedBy === null) result.vetoedBy = field;
    if (spec.agrees && gate !== null) result.agreeMask |= GATE_FIELD_BITS[gate];
    explain?.push({ field, level, label: spec.label, weight });
  };

  // Names, with first and last swapped as an alternative reading.
  let first = compareFirstName(q.first, r.first, opts);
  let last = compareLastName(q.last, r.last, opts);
  if (
    !ctx.strict &&
    (first === 'disagree' || last === 'disagree') &&
    q.first !== null && q.last !== null && r.first !== null && r.last !== null &&
    compactName(q.first) === compactName(r.last) && compactName(q.last) === compactName(r.first)
  ) {
    first = 'swapped';
    last = 'swapped';
  }
  add('firstName', first, 'firstName', first === 'exact' ? tfWeight(ctx, 'firstName', r.first) : undefined);
  add('lastName', last, 'lastName', last === 'exact' ? tfWeight(ctx, 'lastName', r.last) : undefined);
  add('middleName', compareMiddleName(q.middle, r.middle), 'middleName');
  add('suffix', compareSuffix(q.suffix, r.suffix), null);
  add('dateOfBirth', compareDate(q.dob, r.dob), 'dateOfBirth');
  add('email', compareEmails(q.emails, r.emails), 'email');
  add('phone', comparePhones(q.phones, r.phones), 'phone');
  scoreAddresses(q, r, ctx, result, explain);
  return result;
}

function tfWeight(ctx: ScoreContext, field: 'firstName' | 'lastName', value: string | null): number | undefined {
  const spec = ctx.compiled.levels[field].exact;
  if (!ctx.tf || value === null || !spec) return undefined;
  const name = compactName(value);
  const count = field === 'firstName' ? ctx.tf.firstNameCount(name) : ctx.tf.lastNameCount(name);
  return Math.log2(spec.m / termFrequencyU(count, ctx.tf.total, spec.u));
}

function addressWeight(ctx: ScoreContext, lv: AddressLevels): number {
  let sum = 0;
  for (const field of ADDRESS_FIELDS) sum += (ctx.compiled.levels[field][lv[field]] ?? MISSING).weight;
  return sum;
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
    const bit = ADDRESS_GATE_BITS[field];
    if (spec.agrees && bit !== undefined) result.agreeMask |= bit;
    explain?.push({ field, level: best[field], label: spec.label, weight });
  }
}

/**
 * Scoring: the prior's weight plus the Fellegi-Sunter match weights of each field's level,
 * with term-frequency adjustment of exact agreement on names, cities and attributes, the
 * vetoes and caps of the model, and the gate fields the pair agrees on. The same pass can
 * record each field's level code (for estimation, estimate.ts).
 *
 * Past 400 lines because the compiled model (compileModel) is laid out for scorePair, which
 * indexes it field by field on the hot path of every lookup, and the weighting helpers below
 * (term frequencies, addresses, groups counted once) are the steps of scorePair. Comparing
 * lives apart (compare.ts, name-compare.ts, stored-values.ts), and so does the bound that stops
 * early (score-bound.ts).
 */
import { writtenCrossedDiffer, writtenLevel } from './written-names.js';
import {
  ALL_LEVELS,
  compareAddress,
  compareDate,
  compareEmails,
  compareIdentifiers,
  comparePhones,
  compareSex,
  compareSuffix,
  compareAttribute,
  type AddressLevelMasks,
  type AddressLevels,
  type NameCompareOptions,
} from './compare.js';
import {
  compareFirstNameForms,
  namesOfOppositeSexes,
  compareLastNameForms,
  compareMiddleNameForms,
  formsOf,
  nameCrossed,
  neighboursSwapped,
  type ContactNames,
  type NameForms,
  type NameLevelMemos,
  type WithNameForms,
} from './name-compare.js';
import {
  ADDRESS_FIELDS,
  ATTRIBUTE_LEVELS,
  COMPARISON_FIELDS,
  COMPARISONS,
  LEVEL_CODE,
  LEVEL_NAMES,
  levelBit,
  levelMask,
  MISSING_LABEL,
  type AddressField,
  type ComparisonField,
  type LevelName,
} from './comparisons.js';
import { GATE_FIELD_BITS, type GateField } from './gates.js';
import { levelWeight, priorWeight, type FieldModel, type LevelSpec, type MatchModel } from './model.js';
import { compactName } from './name.js';
import type { NicknameTable } from './nicknames.js';
import { checkpointAt, scoreCeiling, type Checkpoint } from './score-bound.js';
import type { StoredLists } from './stored-values.js';
import type { NormalizedContact } from './types.js';
import { compareAddressLists } from './whole-address.js';

/** A level with its weight precomputed. */
export interface CompiledLevel {
  readonly label: string;
  readonly m: number;
  readonly u: number;
  readonly weight: number;
  readonly agrees: boolean;
  readonly veto: boolean;
  /** Gate bits of LevelSpec.vetoUnless (all, any); both 0: the veto is unconditional. */
  readonly vetoUnlessAll: number;
  readonly vetoUnlessAny: number;
  readonly capPossible: boolean;
  /** Gate bits of LevelSpec.needsSupport; 0: needs none. */
  readonly supportMask: number;
  /** Gate bits of LevelSpec.supportAll; 0: none. */
  readonly supportAllMask: number;
  /** LevelSpec.notByHouseholdPhone. */
  readonly notByHouseholdPhone: boolean;
  /** Gate bits the pair must also agree on for this level to count as agreement (LevelSpec.agreesWith); 0: none. */
  readonly agreesWithMask: number;
}

/** One field (or attribute) of a compiled model. */
export interface CompiledField {
  /** Levels by name (absent: the model does not have it). */
  readonly levels: Readonly<Partial<Record<LevelName, CompiledLevel>>>;
  /** Mask of the enabled levels (comparisons.ts levelBit). */
  readonly mask: number;
  /**
   * Least weight exact agreement may have after term-frequency adjustment: the largest weight
   * of the field's other levels, and 0 (agreeing on a common value is still no worse than a
   * typo, or than nothing).
   */
  readonly exactFloor: number;
  /**
   * Mask of the levels term frequencies adjust when the counts allow it (TermFrequencies
   * .nameVariants): exact agreement, and for names the levels that agree on the value itself
   * up to a typo, a part or a swap of columns ({@link NAME_TF_LEVELS}).
   */
  readonly tfMask: number;
  /**
   * Least weight exact agreement may have where the levels of {@link tfMask} are adjusted too:
   * {@link exactFloor} for a field whose only adjusted level is exact agreement; 0 for a name,
   * whose other levels are capped instead (nameTfWeight): no weaker agreement outweighs exact
   * agreement on the commoner of the two names.
   */
  readonly tfFloor: number;
  /** Levels capped at exact agreement's weight after term frequencies instead of flooring it (EMAIL_CAPPED_MASK). */
  readonly cappedMask: number;
}

/**
 * Levels of a name comparison whose weight follows the name's frequency: the same name up to
 * a typo or an OCR error, one part of the other, or in the other column. Agreeing on "smitn"
 * with "smith" is as common among different people as agreeing on "smith": leaving these
 * levels at their average weight made them the floor of exact agreement, and estimated models
 * (where a typo weighs as much as exact agreement in files with many typos) then gave a common
 * name the weight of a rare one.
 */
export const NAME_TF_LEVELS: readonly LevelName[] = ['exact', 'typo', 'fuzzy-high', 'part', 'swapped'];
const NAME_TF_MASK = levelMask(NAME_TF_LEVELS);
const EXACT_TF_MASK = levelBit('exact');
const B_PARTIAL = levelBit('partial');
/**
 * The email levels of the same mailbox name at another domain and of an address a few
 * characters apart ('typo', files): capped at what exact agreement on the lookup's address
 * weighs after term frequencies (a family's mailbox held by five records weighs as much at
 * gmail as at yahoo), and so no floor of exact agreement, which a shared mailbox could
 * otherwise never weigh below (a rare level's weight, 8-11 bits, would floor an office's info@).
 */
const EMAIL_CAPPED_MASK = levelBit('fuzzy-low') | levelBit('typo');

/** A model ready for scoring: weights computed once. */
export interface CompiledModel {
  readonly model: MatchModel;
  readonly fields: Readonly<Record<ComparisonField, CompiledField>>;
  readonly attributes: readonly CompiledField[];
  /** Weight of the prior, bits (0 without one). */
  readonly priorBits: number;
  /** The address parts' level masks, for the address comparator. */
  readonly addressMasks: AddressLevelMasks;
  /** True when any address part is compared (the CRM's models; file models compare the whole address). */
  readonly addressParts: boolean;
  /** Evidence groups as slots, with the level codes of each slot that belong (see MatchModel.groups). */
  readonly groups: readonly { readonly name: string; readonly slots: readonly number[]; readonly levels: readonly (ReadonlySet<number> | null)[] }[];
  /** Each field's level code in the pair being scored (groups read it). Scratch. */
  readonly scratchLevels: Uint8Array;
  /** Each field's weight in the pair being scored (groups read it). Scratch: scoring is synchronous. */
  readonly scratch: Float64Array;
  /**
   * Where scoring with a floor (ScoreContext.floor) checks whether the pair can still reach it
   * (score-bound.ts): before the emails, and before the addresses.
   */
  readonly checkpoints: { readonly contacts: Checkpoint; readonly addresses: Checkpoint };
}

const MISSING: CompiledLevel = Object.freeze({
  label: MISSING_LABEL,
  m: 1,
  u: 1,
  weight: 0,
  agrees: false,
  veto: false,
  vetoUnlessAll: 0,
  vetoUnlessAny: 0,
  capPossible: false,
  supportMask: 0,
  supportAllMask: 0,
  notByHouseholdPhone: false,
  agreesWithMask: 0,
});
const NO_FIELD: CompiledField = Object.freeze({
  levels: Object.freeze({ missing: MISSING }),
  mask: 0,
  exactFloor: 0,
  tfMask: EXACT_TF_MASK,
  tfFloor: 0,
  cappedMask: 0,
});

function maskOf(fields: readonly GateField[] | undefined): number {
  let mask = 0;
  for (const f of fields ?? []) mask |= GATE_FIELD_BITS[f];
  return mask;
}

function compileField(
  spec: FieldModel | undefined,
  labelOf: (level: LevelName) => { label: string; agrees: boolean },
  tfMask: number = EXACT_TF_MASK,
  cappedMask = 0,
): CompiledField {
  if (spec === undefined) return NO_FIELD;
  const levels: Partial<Record<LevelName, CompiledLevel>> = { missing: MISSING };
  let mask = 0;
  for (const [level, ls] of Object.entries(spec) as [LevelName, LevelSpec][]) {
    const def = labelOf(level);
    levels[level] = {
      label: ls.label ?? def.label,
      m: ls.m,
      u: ls.u,
      weight: levelWeight(ls),
      agrees: ls.agrees ?? def.agrees,
      veto: ls.veto === true,
      vetoUnlessAll: maskOf(ls.vetoUnless?.all),
      vetoUnlessAny: maskOf(ls.vetoUnless?.any),
      capPossible: ls.capPossible === true,
      supportMask: maskOf(ls.needsSupport),
      supportAllMask: maskOf(ls.supportAll),
      notByHouseholdPhone: ls.notByHouseholdPhone === true,
      agreesWithMask: maskOf(ls.agreesWith),
    };
    mask |= levelBit(level);
  }
  let exactFloor = 0;
  for (const [level, l] of Object.entries(levels) as [LevelName, CompiledLevel][]) {
    if (level !== 'exact' && (levelBit(level) & cappedMask) === 0) exactFloor = Math.max(exactFloor, l.weight);
  }
  return { levels, mask, exactFloor, tfMask, tfFloor: tfMask === EXACT_TF_MASK ? exactFloor : 0, cappedMask };
}

/** Precomputes the weights of a model. */
export function compileModel(model: MatchModel): CompiledModel {
  const fields = {} as Record<ComparisonField, CompiledField>;
  for (const field of COMPARISON_FIELDS) {
    const defs = COMPARISONS[field].levels;
    fields[field] = compileField(
      model.fields[field],
      (level) => defs.find((d) => d.level === level) ?? { label: level, agrees: false },
      field === 'firstName' || field === 'lastName' ? NAME_TF_MASK : EXACT_TF_MASK,
      field === 'email' ? EMAIL_CAPPED_MASK : 0,
    );
  }
  const attributes = (model.attributes ?? []).map((a) =>
    compileField(a.levels, (level) => {
      const def = ATTRIBUTE_LEVELS.find((d) => d.level === level);
      return { label: `${a.name}: ${def?.label ?? level}`, agrees: def?.agrees ?? false };
    }),
  );
  const addressParts = ADDRESS_FIELDS.some((f) => fields[f].mask !== 0);
  const groups = (model.groups ?? []).map((g) => ({
    name: g.name,
    slots: g.fields.map((f) => FIELD_SLOT[f]),
    levels: g.fields.map((f) => {
      const only = g.levels?.[f];
      return only === undefined ? null : new Set(only.map((l) => LEVEL_CODE[l]));
    }),
  }));
  const boost = Math.log2(TF_MAX_BOOST);
  const bounded = { fields, attributes, groups };
  return {
    model,
    fields,
    attributes,
    priorBits: priorWeight(model.prior),
    addressMasks: { zip5: fields.zip5.mask, streetNumber: fields.streetNumber.mask, streetName: fields.streetName.mask, city: fields.city.mask },
    addressParts,
    groups,
    scratch: new Float64Array(COMPARISON_FIELDS.length),
    scratchLevels: new Uint8Array(COMPARISON_FIELDS.length),
    checkpoints: { contacts: checkpointAt(bounded, FIELD_SLOT.email, boost), addresses: checkpointAt(bounded, FIELD_SLOT.zip5, boost) },
  };
}

/**
 * Counts of values in the indexed population, for term-frequency adjustment: agreeing on
 * "smith" is weaker evidence than agreeing on "zbyszewski".
 */
export interface TermFrequencies {
  /** Number of records counted. */
  readonly total: number;
  /** Records whose compact first name is `name`. */
  firstNameCount(name: string): number;
  /** Records whose compact last name is `name`. */
  lastNameCount(name: string): number;
  /**
   * A number that changes whenever a name's count may have (an index's writes): a stored name's
   * forms keep their counts while it stays the same (NameForms.count). Absent: counts are read
   * every time.
   */
  readonly version?: number;
  /** Records in the city `city` (folded); absent: cities are not adjusted. */
  cityCount?(city: string): number;
  /** Records whose attribute `index` is `value`; absent: attributes are not adjusted. */
  attributeCount?(index: number, value: string): number;
  /** Records holding the email (mailbox form); absent: emails are not adjusted. */
  emailCount?(email: string): number;
  /** Records holding the phone; absent: phones are not adjusted. */
  phoneCount?(phone: string): number;
  /**
   * Records whose first name and surname (as normalized) are those of `first` and `last`
   * together; absent: agreeing names weigh as the sum of the two names' weights (see
   * {@link fullNameCap}).
   */
  fullNameCount?(first: NameForms, last: NameForms): number;
  /**
   * True when the counts answer for every name (an index counting all its records): then the
   * typo, part and swapped levels of names weigh by the more frequent of the two names, as
   * exact agreement does (score.ts NAME_TF_LEVELS). Absent: only exact agreement is adjusted
   * (database retrieval knows the counts of the lookup's own names only).
   */
  readonly nameVariants?: boolean;
  /**
   * How many of the records holding a value both records of a pair hold are that pair's
   * person's own: at least the pair (2) where every record compared is counted (a file
   * deduplicated against itself; once the duplicate rate is learned, the rows a person has on
   * average, 1 + prior * (n - 1), as many as 3.2 in a mixed file), 1 where only the candidate
   * is (another file's rows looked up in the index). Exact agreement on an email or a phone
   * weighs by the other holders: one held by a person's own rows of a 3,000-row file and by no
   * one else is that person's, not "as common as 2 in 3,000" (which weighed it below the
   * average phone, u 0.00055 against 0.00049, and left a row with only that phone under the
   * threshold). Names and attributes keep their counts: relatives share a rare surname or a
   * birth place (bench/README, tenth session). Absent or 0: the counts as they are.
   */
  readonly pairHolders?: number;
}

/** Records holding a value both records of a pair hold, besides the pair's own (TermFrequencies.pairHolders). */
function othersHolding(tf: TermFrequencies, count: number): number {
  const own = tf.pairHolders;
  return own === undefined ? count : Math.max(0, count - own);
}

/**
 * Pseudo-count of the prior in the term-frequency estimate: with fewer records than this the
 * model's u dominates; with many more, the observed frequency does. Range: > 0.
 */
export const TF_PRIOR_RECORDS = 2000;
/** A rare value can raise the weight by at most log2 of this factor (3 bits). Range: >= 1. */
export const TF_MAX_BOOST = 8;

/** u probability of agreeing on a value seen `count` times among `total` records, shrunk to the prior. */
export function termFrequencyU(count: number, total: number, priorU: number): number {
  const u = (count + TF_PRIOR_RECORDS * priorU) / (total + TF_PRIOR_RECORDS);
  return Math.max(u, priorU / TF_MAX_BOOST);
}

/** One field's part of a score, for explanations. */
export interface FieldOutcome {
  /** A comparison field, an attribute column's name, or "prior". */
  readonly field: string;
  readonly level: LevelName;
  readonly label: string;
  /** Bits this field added (negative when it spoke against the match). */
  readonly weight: number;
}

/** The comparison of a candidate with one record. */
export interface PairScore {
  /** Total match weight in bits (the prior's included). */
  score: number;
  /** The first field whose level rules the match out, or null. */
  vetoedBy: string | null;
  /** The label of the first level that caps the decision at Possible, or null. */
  cappedBy: string | null;
  /** Gate fields (GATE_FIELD_BITS) on which the pair agrees. */
  agreeMask: number;
  /**
   * The label of the first level that needs support (LevelSpec.needsSupport), or null; the pair
   * must then agree on one of `supportMask`'s gate fields (the fields every such level accepts).
   */
  supportedBy: string | null;
  supportMask: number;
  /**
   * The fields that also support the pair when it agrees on all of them (LevelSpec.supportAll of
   * every level that needs support, together); 0 while no level needs support, -1 when one of
   * them has no such alternative.
   */
  supportAllMask: number;
  /** A level that needs support is LevelSpec.notByHouseholdPhone: a household's phone does not support the pair. */
  notByHouseholdPhone: boolean;
  /** A gate bit that agrees only if the pair also agrees on `pendingWith` (LevelSpec.agreesWith); 0: none. */
  pendingAgree: number;
  pendingWith: number;
  /**
   * A veto that holds unless the pair agrees on `pendingVetoAll` and one of `pendingVetoAny`
   * (LevelSpec.vetoUnless): the field, settled into `vetoedBy` once every field is scored; null: none.
   */
  pendingVeto: string | null;
  pendingVetoAll: number;
  pendingVetoAny: number;
  /**
   * Scoring stopped because the pair cannot reach ScoreContext.floor whatever its remaining
   * fields say: `score` is only the part summed so far, and the pair is below the floor.
   */
  belowFloor: boolean;
}

/** A fresh pair score starting at `score` bits. */
export function emptyPairScore(score: number): PairScore {
  return {
    score,
    vetoedBy: null,
    cappedBy: null,
    agreeMask: 0,
    supportedBy: null,
    supportMask: -1,
    supportAllMask: 0,
    notByHouseholdPhone: false,
    pendingAgree: 0,
    pendingWith: 0,
    pendingVeto: null,
    pendingVetoAll: 0,
    pendingVetoAny: 0,
    belowFloor: false,
  };
}

/**
 * Settles what depended on other fields, once every field is scored: agreements
 * (LevelSpec.agreesWith), then vetoes with an exception (LevelSpec.vetoUnless).
 */
function settleAgreement(result: PairScore): void {
  if (result.pendingAgree !== 0 && (result.agreeMask & result.pendingWith) === result.pendingWith) result.agreeMask |= result.pendingAgree;
  if (result.pendingVeto !== null && result.vetoedBy === null) {
    const mask = result.agreeMask;
    const excepted = (mask & result.pendingVetoAll) === result.pendingVetoAll && (result.pendingVetoAny === 0 || (mask & result.pendingVetoAny) !== 0);
    if (!excepted) result.vetoedBy = result.pendingVeto;
  }
}

/** The level rules the match out whatever else the pair agrees on. */
function vetoesAlone(spec: CompiledLevel | undefined): boolean {
  return spec !== undefined && spec.veto && spec.vetoUnlessAll === 0 && spec.vetoUnlessAny === 0;
}

/** Applies a level's veto: at once, or, with an exception (LevelSpec.vetoUnless), once every field is scored. */
function noteVeto(result: PairScore, spec: CompiledLevel, field: string): void {
  if (result.vetoedBy !== null) return;
  if (spec.vetoUnlessAll === 0 && spec.vetoUnlessAny === 0) result.vetoedBy = field;
  else if (result.pendingVeto === null) {
    result.pendingVeto = field;
    result.pendingVetoAll = spec.vetoUnlessAll;
    result.pendingVetoAny = spec.vetoUnlessAny;
  }
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
  /**
   * A score the caller needs the pair to reach (the review threshold, for a lookup that keeps
   * only matches and possible matches): scoring stops, with PairScore.belowFloor, once the
   * fields left cannot bring the pair up to it (score-bound.ts). Absent: every pair is scored
   * in full. Ignored when explaining or recording levels.
   */
  readonly floor?: number;
  /** Phonetic code of a compact name, for the 'phonetic' level (see NameCompareOptions). */
  readonly soundOf?: ((name: string) => string) | undefined;
  /** OCR fold of a compact name, memoized (see NameCompareOptions). */
  readonly ocrOf?: ((name: string) => string) | undefined;
  /**
   * Remembers the levels of pairs of stored names (name-compare.ts NameLevelMemos): an index's
   * own, made with its contexts for its model (another model's levels need other memos).
   */
  readonly nameMemo?: NameLevelMemos | undefined;
  /** Name comparison options derived from the above; built once by {@link makeScoreContext}. */
  readonly names?: NameCompareOptions;
  /**
   * True for a shared mailbox (placeholders.ts, isSharedEmail): an email agreement on nothing
   * but such addresses is the 'partial' level, where the model has one. Absent: none is.
   */
  readonly sharedEmail?: ((email: string) => boolean) | undefined;
  /** Nearly equal first names of opposite sexes are another given name (NameCompareOptions.sexedNames). Default false. */
  readonly sexedNames?: boolean;
  /** One name written another way is nearly equal (NameCompareOptions.nameVariants). Default false. */
  readonly nameVariants?: boolean;
}

/** A score context with its derived name options built once (scorePair runs per candidate). */
export function makeScoreContext(ctx: Omit<ScoreContext, 'names'>): ScoreContext {
  return { ...ctx, names: nameOptions(ctx) };
}

function nameOptions(ctx: ScoreContext): NameCompareOptions {
  return (
    ctx.names ?? {
      nicknames: ctx.nicknames,
      strict: ctx.strict,
      fuzzyHigh: ctx.compiled.model.fuzzyHigh,
      fuzzyLow: ctx.compiled.model.fuzzyLow,
      soundOf: ctx.soundOf,
      ocrOf: ctx.ocrOf,
      memo: ctx.nameMemo,
      sexedNames: ctx.sexedNames === true,
      nameVariants: ctx.nameVariants === true,
    }
  );
}

const ADDRESS_GATE_BITS: Readonly<Record<AddressField, number>> = {
  zip5: GATE_FIELD_BITS.zip5,
  streetNumber: GATE_FIELD_BITS.streetNumber,
  streetName: GATE_FIELD_BITS.streetName,
  building: 0,
  unit: 0,
  city: GATE_FIELD_BITS.city,
  state: GATE_FIELD_BITS.state,
};

/** Slot of each comparison field in a level vector (see {@link scorePair}'s `levelsOut`). */
export const FIELD_SLOT: Readonly<Record<ComparisonField, number>> = Object.fromEntries(COMPARISON_FIELDS.map((f, i) => [f, i])) as Record<
  ComparisonField,
  number
>;

/** Length of a level vector for a model with `attributes` attribute columns. */
export function levelVectorLength(attributes: number): number {
  return COMPARISON_FIELDS.length + attributes;
}

const MISSING_CODE = LEVEL_CODE.missing;

/** Adds one field's level to the running score (and its weight and level to the model's scratch, when given). */
function addLevel(
  result: PairScore,
  compiled: CompiledField,
  field: string,
  level: LevelName,
  gateBit: number,
  explain: FieldOutcome[] | undefined,
  weightOverride?: number,
  scratch?: CompiledModel,
): void {
  const spec = compiled.levels[level] ?? MISSING;
  const weight = weightOverride ?? spec.weight;
  if (scratch !== undefined) {
    const slot = FIELD_SLOT[field as ComparisonField];
    scratch.scratch[slot] = weight;
    scratch.scratchLevels[slot] = LEVEL_CODE[level];
  }
  result.score += weight;
  if (spec.veto) noteVeto(result, spec, field);
  if (spec.capPossible && result.cappedBy === null) result.cappedBy = spec.label;
  if (spec.supportMask !== 0) {
    result.supportedBy ??= spec.label;
    result.supportMask &= spec.supportMask;
    result.supportAllMask = spec.supportAllMask === 0 || result.supportAllMask === -1 ? -1 : result.supportAllMask | spec.supportAllMask;
    if (spec.notByHouseholdPhone) result.notByHouseholdPhone = true;
  }
  if (spec.agrees) {
    if (spec.agreesWithMask === 0) result.agreeMask |= gateBit;
    else {
      result.pendingAgree |= gateBit;
      result.pendingWith |= spec.agreesWithMask;
    }
  }
  if (explain) explain.push({ field, level, label: spec.label, weight });
}

/**
 * Scores candidate `q` against record `r`. When `explain` is given, each field's outcome is
 * pushed onto it (the prior first, when the model has one). When `levelsOut` is given (a
 * vector of {@link levelVectorLength} codes), each field's level code is written to its
 * slot ({@link FIELD_SLOT}, then the attributes) and scoring never stops early. Symmetric in
 * `q` and `r` when term frequencies are off. Fields that can veto come first, so that with
 * `stopAtVeto` a household member costs one comparison.
 */
export function scorePair(q: NormalizedContact, r: NormalizedContact, ctx: ScoreContext, explain?: FieldOutcome[], levelsOut?: Uint8Array): PairScore {
  const compiled = ctx.compiled;
  const f = compiled.fields;
  const opts = nameOptions(ctx);
  const stop = ctx.stopAtVeto === true && explain === undefined && levelsOut === undefined;
  const floor = explain === undefined && levelsOut === undefined ? ctx.floor : undefined;
  const result = emptyPairScore(compiled.priorBits);
  if (explain && compiled.model.prior !== undefined) {
    explain.push({
      field: 'prior',
      level: 'exact',
      label: `prior: 1 in ${formatOdds(compiled.model.prior)} pairs of records are the same person`,
      weight: compiled.priorBits,
    });
  }
  const record =
    levelsOut === undefined
      ? undefined
      : (slot: number, level: LevelName): void => {
          levelsOut[slot] = LEVEL_CODE[level];
        };
  const w = compiled.groups.length > 0 ? compiled : undefined;
  if (w !== undefined) w.scratch.fill(0);

  const suffix = f.suffix.mask === 0 ? 'missing' : compareSuffix(q.suffix, r.suffix, f.suffix.mask);
  addLevel(result, f.suffix, 'suffix', suffix, 0, explain);
  record?.(FIELD_SLOT.suffix, suffix);
  if (stop && result.vetoedBy !== null) return result;
  // Names, with first and last swapped as an alternative reading.
  const qn = namesOf(q);
  const rn = namesOf(r);
  let first = f.firstName.mask === 0 ? 'missing' : compareFirstNameForms(qn.first, rn.first, opts, f.firstName.mask, qn.middle, rn.middle);
  // Names of opposite sexes are another given name, unless both records give one sex: then
  // one name was misread ("Cari" for Carl, both male) and the spelling decides.
  if (
    first === 'fuzzy-low' &&
    opts.sexedNames === true &&
    q.sex !== null &&
    q.sex === r.sex &&
    namesOfOppositeSexes(qn.first as NameForms, rn.first as NameForms, opts.nicknames)
  ) {
    first = compareFirstNameForms(qn.first, rn.first, { ...opts, sexedNames: false, memo: undefined }, f.firstName.mask, qn.middle, rn.middle);
  }
  // Written in other Chinese characters or kana (王伟 / 王薇: both "wei"): names that sound alike.
  const qWritten = q.written;
  const rWritten = r.written;
  const written = qWritten != null && rWritten != null && qWritten !== rWritten;
  const firstRead = first;
  if (written) first = writtenLevel(first, qWritten, rWritten, 0, f.firstName.mask, opts.strict);
  const firstByWriting = first !== firstRead;
  const swappable = (f.firstName.mask & SWAPPED_BIT) !== 0 && canSwap(q, r, ctx);
  if (stop && !swappable && vetoesAlone(f.firstName.levels[first])) {
    addLevel(result, f.firstName, 'firstName', first, GATE_FIELD_BITS.firstName, explain);
    return result;
  }
  let last = f.lastName.mask === 0 ? 'missing' : compareLastNameForms(qn.last, rn.last, opts, f.lastName.mask);
  const lastRead = last;
  if (written) last = writtenLevel(last, qWritten, rWritten, 1, f.lastName.mask, opts.strict);
  const lastByWriting = last !== lastRead;
  // Names crossed between the columns but written with other characters are no swap (王伟 / 王 薇).
  if (swappable && first !== 'exact' && last !== 'exact' && !writtenCrossedDiffer(qWritten, rWritten)) {
    // The looser crossing (one name as written, the other garbled or cut short) only where a swap needs no support (files).
    const loose = f.firstName.levels.swapped?.supportMask === 0 && f.lastName.levels.swapped?.supportMask === 0;
    const crossed = nameCrossed(qn, rn, opts.ocrOf, loose);
    if (crossed === 'both') {
      first = 'swapped';
      last = 'swapped';
    } else if (crossed === 'first' && (first === 'disagree' || first === 'partial')) first = 'swapped';
    else if (crossed === 'last' && (last === 'disagree' || last === 'partial')) last = 'swapped';
  }
  const firstWeight = nameTfWeight(ctx, f.firstName, 'first', first, qn.first, rn.first);
  addLevel(result, f.firstName, 'firstName', first, GATE_FIELD_BITS.firstName, explain, firstWeight);
  if (firstByWriting && explain) amendLabel(explain, WRITTEN_APART);
  // Two neighbouring letters swapped (Micheal/Michael) is a slip, not another member of the
  // household: the household's phone supports it (only first-name levels set the flag).
  if (first === 'typo' && result.notByHouseholdPhone && qn.first !== null && rn.first !== null && neighboursSwapped(qn.first, rn.first))
    result.notByHouseholdPhone = false;
  record?.(FIELD_SLOT.firstName, first);
  if (stop && result.vetoedBy !== null) return result;
  let lastWeight = nameTfWeight(ctx, f.lastName, 'last', last, qn.last, rn.last);
  let capped = false;
  if (ctx.tf?.fullNameCount !== undefined && qn.first !== null && qn.last !== null && rn.first !== null && rn.last !== null) {
    const wf = firstWeight ?? (f.firstName.levels[first] ?? MISSING).weight;
    const wl = lastWeight ?? (f.lastName.levels[last] ?? MISSING).weight;
    // With either name at no evidence or against it, the sum is under the cap's floor (the
    // stronger name alone): no counts read.
    if (wf > 0 && wl > 0) {
      const cap = fullNameCap(ctx, f, qn, rn);
      if (wf + wl > cap) {
        lastWeight = Math.max(cap, wf, wl) - wf;
        capped = true;
      }
    }
  }
  addLevel(result, f.lastName, 'lastName', last, GATE_FIELD_BITS.lastName, explain, lastWeight, w);
  if (lastByWriting && explain) amendLabel(explain, WRITTEN_APART);
  if (capped && explain) amendLabel(explain, "with the first name, at most what this full name's frequency allows");
  record?.(FIELD_SLOT.lastName, last);
  if (stop && result.vetoedBy !== null) return result;
  const dob = f.dateOfBirth.mask === 0 ? 'missing' : compareDate(q.dob, r.dob, f.dateOfBirth.mask);
  addLevel(result, f.dateOfBirth, 'dateOfBirth', dob, GATE_FIELD_BITS.dateOfBirth, explain);
  record?.(FIELD_SLOT.dateOfBirth, dob);
  if (stop && result.vetoedBy !== null) return result;
  if (f.sex.mask !== 0) {
    const sex = compareSex(q.sex, r.sex);
    addLevel(result, f.sex, 'sex', sex, 0, explain);
    record?.(FIELD_SLOT.sex, sex);
    if (stop && result.vetoedBy !== null) return result;
  } else record?.(FIELD_SLOT.sex, 'missing');
  // A stored record's lists are compared where they are kept (stored-values.ts), never decoded.
  const stored = storedListsOf(r);
  if (f.identifier.mask !== 0) {
    // A lookup without identifiers (most) is 'missing' whatever the record holds: its list is not read.
    const id =
      q.identifiers.length === 0
        ? 'missing'
        : stored !== null
          ? stored.identifierLevel(q.identifiers, f.identifier.mask)
          : compareIdentifiers(q.identifiers, r.identifiers, f.identifier.mask);
    addLevel(result, f.identifier, 'identifier', id, GATE_FIELD_BITS.identifier, explain);
    record?.(FIELD_SLOT.identifier, id);
    if (stop && result.vetoedBy !== null) return result;
  } else record?.(FIELD_SLOT.identifier, 'missing');
  const middle = f.middleName.mask === 0 ? 'missing' : compareMiddleNameForms(qn.middle, rn.middle, f.middleName.mask, opts);
  addLevel(result, f.middleName, 'middleName', middle, GATE_FIELD_BITS.middleName, explain);
  record?.(FIELD_SLOT.middleName, middle);
  if (floor !== undefined && below(compiled, compiled.checkpoints.contacts, result, floor)) return result;
  const tf = ctx.tf;
  let email =
    f.email.mask === 0
      ? 'missing'
      : stored !== null
        ? stored.emailLevel(q.emails, f.email.mask, ctx.sharedEmail)
        : compareEmails(q.emails, r.emails, f.email.mask, ctx.sharedEmail);
  let emailShared: number | undefined;
  if (email === 'exact') {
    // Made only here: most pairs share no email, and a closure per pair is a find's cost.
    const holdsEmail = stored !== null ? (v: string) => stored.holdsEmail(v) : (v: string) => r.emails.includes(v);
    if (ctx.sharedEmail !== undefined && (f.email.mask & B_PARTIAL) !== 0 && onlySharedAgree(q.emails, holdsEmail, ctx.sharedEmail)) email = 'partial';
    else emailShared = sharedValueWeight(ctx, f.email, q.emails, holdsEmail, tf?.emailCount?.bind(tf));
  } else if (email === 'fuzzy-low' || email === 'typo') emailShared = mailboxWeight(ctx, f.email, email, q.emails);
  addLevel(result, f.email, 'email', email, GATE_FIELD_BITS.email, explain, emailShared, w);
  record?.(FIELD_SLOT.email, email);
  const phone = f.phone.mask === 0 ? 'missing' : stored !== null ? stored.phoneLevel(q.phones, f.phone.mask) : comparePhones(q.phones, r.phones, f.phone.mask);
  const phoneShared =
    phone === 'exact'
      ? sharedValueWeight(ctx, f.phone, q.phones, stored !== null ? (v) => stored.holdsPhone(v) : (v) => r.phones.includes(v), tf?.phoneCount?.bind(tf))
      : undefined;
  addLevel(result, f.phone, 'phone', phone, GATE_FIELD_BITS.phone, explain, phoneShared, w);
  record?.(FIELD_SLOT.phone, phone);
  if (floor !== undefined && below(compiled, compiled.checkpoints.addresses, result, floor)) return result;
  if (compiled.addressParts) scoreAddresses(q, r, ctx, result, explain, levelsOut);
  else if (levelsOut !== undefined) for (const field of ADDRESS_FIELDS) levelsOut[FIELD_SLOT[field]] = MISSING_CODE;
  if (f.address.mask !== 0) {
    const address = compareAddressLists(q.addresses, r.addresses, f.address.mask);
    const townTf = address === 'partial' ? townPartialWeight(ctx, f.address, q, r) : undefined;
    addLevel(result, f.address, 'address', address, address === 'exact' ? ADDRESS_AGREE_BITS : 0, explain, townTf, w);
    record?.(FIELD_SLOT.address, address);
  } else record?.(FIELD_SLOT.address, 'missing');
  const attributes = compiled.attributes;
  for (let i = 0; i < attributes.length; i++) {
    const a = attributes[i] as CompiledField;
    const name = compiled.model.attributes?.[i]?.name ?? `attribute ${i}`;
    const qa = q.attributes[i] ?? null;
    const ra = r.attributes[i] ?? null;
    const level = compareAttribute(qa, ra, compiled.model.fuzzyHigh, a.mask);
    addLevel(result, a, name, level, 0, explain, level === 'exact' ? attributeTfWeight(ctx, a, i, ra) : undefined);
    if (levelsOut !== undefined) levelsOut[COMPARISON_FIELDS.length + i] = LEVEL_CODE[level];
  }
  if (w !== undefined) countGroupsOnce(compiled, compiled.scratch, result, explain, ctx.tf?.nameVariants === true);
  settleAgreement(result);
  return result;
}

/**
 * True (and the score marked belowFloor) when the pair cannot reach `floor` whatever the
 * fields from the checkpoint on say. The ceiling is taken a hair higher than computed, so that
 * summing in another order can never make a pair at the floor look below it.
 */
function below(compiled: CompiledModel, cp: Checkpoint, result: PairScore, floor: number): boolean {
  if (scoreCeiling(cp, result.score, compiled.scratch, compiled.scratchLevels) + CEILING_MARGIN >= floor) return false;
  result.belowFloor = true;
  return true;
}

/** Bits added to a score ceiling against rounding (weights are sums of a few dozen terms). */
const CEILING_MARGIN = 1e-6;

/** Gate bits a whole-address agreement stands for. */
const ADDRESS_AGREE_BITS = GATE_FIELD_BITS.zip5 | GATE_FIELD_BITS.streetNumber | GATE_FIELD_BITS.streetName | GATE_FIELD_BITS.city;

/**
 * Applies the model's evidence groups: of a group's positive weights only the largest
 * counts; the others are taken back out of the score (and shown at 0 in the explanation).
 */
function countGroupsOnce(compiled: CompiledModel, weights: Float64Array, result: PairScore, explain: FieldOutcome[] | undefined, variants = false): void {
  const levels = compiled.scratchLevels;
  for (const group of compiled.groups) {
    // (No closures per group and pair: this runs for every pair scored.)
    const slots = group.slots;
    let best = -1;
    for (let k = 0; k < slots.length; k++) {
      if (groupMember(group, k, weights, levels) && (best === -1 || (weights[slots[k] as number] as number) > (weights[slots[best] as number] as number)))
        best = k;
    }
    const top = best === -1 ? 0 : (weights[slots[best] as number] as number);
    for (let k = 0; k < slots.length; k++) {
      if (k === best || !((weights[slots[k] as number] as number) > 0)) continue;
      const slot = slots[k] as number;
      const weight = weights[slot] as number;
      const field = COMPARISON_FIELDS[slot] as ComparisonField;
      // A member's other agreements are taken out. A weaker agreement of a member field that
      // is another fact (the same town, not the same address) keeps its weight, but never
      // more than the field's full agreement adds over the group's at the least (its weight
      // after term frequencies is at least exactFloor, or tfFloor with name variants): then moving to full agreement never
      // lowers the score.
      // A capped level (the same mailbox at another domain) weighs at most its exact agreement
      // already: its own weight is that floor here.
      const f = compiled.fields[field];
      const capped = ((1 << (levels[slot] as number)) & f.cappedMask) !== 0;
      const floor = Math.max(variants ? f.tfFloor : f.exactFloor, capped ? weight : 0);
      const kept = groupMember(group, k, weights, levels) ? 0 : Math.min(weight, Math.max(0, floor - top));
      if (kept === weight) continue;
      result.score -= weight - kept;
      if (explain !== undefined) {
        const at = explain.findIndex((o) => o.field === field);
        const o = explain[at];
        if (o !== undefined) explain[at] = { ...o, weight: kept, label: `${o.label} (counted once with the ${group.name}'s other agreements)` };
      }
    }
  }
}

/** True when a group's `k`-th field weighs more than 0 at one of the group's levels for it (any level, where it names none). */
function groupMember(group: CompiledModel['groups'][number], k: number, weights: Float64Array, levels: Uint8Array): boolean {
  const slot = group.slots[k] as number;
  if (!((weights[slot] as number) > 0)) return false;
  const only = group.levels[k];
  return only === null || only === undefined || only.has(levels[slot] as number);
}

const SWAPPED_BIT = levelBit('swapped');

/** The record's emails and phones where they are stored (a record view of the index), or null. */
function storedListsOf(r: NormalizedContact): StoredLists | null {
  const lists = r as NormalizedContact & Partial<StoredLists>;
  return lists.emailLevel !== undefined ? (lists as NormalizedContact & StoredLists) : null;
}

/** The forms of a contact's names: those it carries (name-compare.ts WithNameForms), else built now. */
function namesOf(c: NormalizedContact): ContactNames {
  return (c as WithNameForms).nameForms ?? { first: formsOf(c.first), middle: formsOf(c.middle), last: formsOf(c.last) };
}

/**
 * The contact with its names' forms, built once: score it against many records and each pair
 * reads them (a record view of the index carries its own already). `forms`: these (the index's
 * own forms of a stored record's names), not new ones.
 */
export function withNameForms(c: NormalizedContact, forms?: ContactNames): NormalizedContact {
  if (forms === undefined && (c as WithNameForms).nameForms !== undefined) return c;
  const prepared: NormalizedContact & WithNameForms = {
    first: c.first,
    middle: c.middle,
    last: c.last,
    suffix: c.suffix,
    dob: c.dob,
    emails: c.emails,
    phones: c.phones,
    addresses: c.addresses,
    identifiers: c.identifiers,
    sex: c.sex,
    attributes: c.attributes,
    written: c.written ?? null,
    nameForms: forms ?? { first: formsOf(c.first), middle: formsOf(c.middle), last: formsOf(c.last) },
  };
  return prepared;
}

/** What an explanation adds to a name read alike but written with other characters (written-names.ts). */
const WRITTEN_APART = 'read alike, but written with other characters';

/** Adds `note` in brackets to the label of the last field explained. */
function amendLabel(explain: FieldOutcome[], note: string): void {
  const said = explain[explain.length - 1] as FieldOutcome;
  explain[explain.length - 1] = { ...said, label: `${said.label} (${note})` };
}

function formatOdds(prior: number): string {
  const n = 1 / prior;
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1);
}

function canSwap(q: NormalizedContact, r: NormalizedContact, ctx: ScoreContext): boolean {
  if (ctx.strict) return false;
  // Four names, or three: a record with one name may hold it in the other column.
  const missing = (q.first === null ? 1 : 0) + (q.last === null ? 1 : 0) + (r.first === null ? 1 : 0) + (r.last === null ? 1 : 0);
  return missing <= 1;
}

/**
 * A name level's weight after term frequencies (undefined: its plain weight). Exact agreement
 * weighs by the record's name's frequency; the other levels of {@link NAME_TF_LEVELS} move by
 * as much as exact agreement on the more frequent of the two names would move from its
 * average weight (a typo of "smith" is as common as "smith"; of two swapped names, each
 * column's more frequent value is the name in its own column), and never below the floor
 * (or their own weight, when that is lower). With name variants (a file's counts of every
 * name) the other positive levels (nickname, initial, sound...) weigh at most what exact
 * agreement on the more frequent name does ("J" against "John" no more than "John" against
 * "John"), and exact agreement has no floor above 0: an estimate that put a level the file
 * barely shows at 7 bits (initials in an OCR'd voter list: m 0.00096 over u 0.0000074) no
 * longer holds every common first name at 7 bits. Either way a level never outweighs exact
 * agreement on either name, and adding agreement never lowers a score.
 */
function nameTfWeight(
  ctx: ScoreContext,
  field: CompiledField,
  which: 'first' | 'last',
  level: LevelName,
  q: NameForms | null,
  r: NameForms | null,
): number | undefined {
  const exact = field.levels.exact;
  const tf = ctx.tf;
  if (tf === null || r === null || exact === undefined) return undefined;
  const variants = tf.nameVariants === true;
  if (level === 'exact') return frequencyWeight(variants ? field.tfFloor : field.exactFloor, exact, r.count(tf, which), tf.total);
  const spec = field.levels[level];
  if (!variants || spec === undefined || q === null) return undefined;
  const moves = (levelBit(level) & field.tfMask) !== 0;
  // Disagreement and the other levels that weigh nothing or less are never capped: no counts read.
  if (!moves && spec.weight <= 0) return undefined;
  const commoner = Math.max(q.count(tf, which), r.count(tf, which));
  // A hair below exact agreement, so that where the two meet (a model whose nickname level
  // weighs as much as exact agreement) "Robert" against "Robert" still ranks above "Bob".
  if (!moves) return Math.min(spec.weight, frequencyWeight(field.tfFloor, exact, commoner, tf.total) - BELOW_EXACT);
  const shift = Math.log2(exact.u / termFrequencyU(commoner, tf.total, exact.u));
  return Math.max(Math.min(spec.weight, field.tfFloor), spec.weight + shift);
}

/**
 * The most that the first name and the surname weigh together, from how often the file holds
 * the full name (the commoner of the two records' own): names are not independent of each
 * other (first names and surnames of one language or community go together: 7 Svetlana
 * Popovas where the two names' frequencies predict 0.2), and the sum of their weights, each
 * adjusted by its own frequency, took a shared common full name and nothing else for one
 * person. A full name is counted once per record, and a person's own records hold it too:
 * twice the rows a person is expected to have (the mean, 1 + prior x (records - 1), is exceeded
 * by many people; with the mean alone the 5,000-row generated sets lost .008 of pairwise F1) are
 * taken off its count before it counts as shared by other people. Infinite (no cap) without a
 * model's exact agreement on both names or a prior. Two names weigh min(sum, max(cap, either
 * one)): never less than the stronger name alone, and never lower for more agreement.
 */
function fullNameCap(ctx: ScoreContext, f: Readonly<Record<ComparisonField, CompiledField>>, q: ContactNames, r: ContactNames): number {
  const tf = ctx.tf as TermFrequencies;
  const first = f.firstName.levels.exact;
  const last = f.lastName.levels.exact;
  const prior = ctx.compiled.model.prior;
  if (first === undefined || last === undefined || prior === undefined || tf.fullNameCount === undefined) return Infinity;
  const count = Math.max(tf.fullNameCount(q.first as NameForms, q.last as NameForms), tf.fullNameCount(r.first as NameForms, r.last as NameForms));
  const others = Math.max(0, count - OWN_ROWS_ALLOWANCE * (1 + prior * (tf.total - 1)));
  return Math.log2((first.m * last.m) / termFrequencyU(others, tf.total, first.u * last.u));
}

/** Multiple of a person's expected rows a full name's count may hold before other people count ({@link fullNameCap}). */
const OWN_ROWS_ALLOWANCE = 2;

/** Bits by which a capped name level stays under exact agreement (nameTfWeight). */
const BELOW_EXACT = 1e-6;

/** The weight of exact agreement on a value seen `count` times in `total` records, at least `floor` (CompiledField.exactFloor). */
function frequencyWeight(floor: number, spec: CompiledLevel, count: number, total: number): number {
  return Math.max(floor, Math.log2(spec.m / termFrequencyU(count, total, spec.u)));
}

function attributeTfWeight(ctx: ScoreContext, field: CompiledField, index: number, value: string | null): number | undefined {
  const spec = field.levels.exact;
  if (!ctx.tf?.attributeCount || value === null || !spec) return undefined;
  return frequencyWeight(field.exactFloor, spec, ctx.tf.attributeCount(index, value), ctx.tf.total);
}

/**
 * Exact agreement on an email or phone, weighed by how many records hold the shared value
 * (the least held one when several are shared): an office's info@ address or a shelter's
 * phone, shared by many people, cannot link records on its own.
 */
function sharedValueWeight(
  ctx: ScoreContext,
  field: CompiledField,
  a: readonly string[],
  holds: (value: string) => boolean,
  count: ((value: string) => number) | undefined,
): number | undefined {
  const spec = field.levels.exact;
  if (count === undefined || !spec || ctx.tf === null) return undefined;
  let least = Infinity;
  for (const x of a) if (holds(x)) least = Math.min(least, count(x));
  return least === Infinity ? undefined : frequencyWeight(field.exactFloor, spec, othersHolding(ctx.tf, least), ctx.tf.total);
}

/**
 * The weight of the same mailbox name at another domain, or of an address a few characters
 * apart (`level`): its level's, at most what exact agreement on the most held of the lookup's
 * addresses weighs (EMAIL_CAPPED_MASK), so that agreeing on the address itself never lowers the score.
 */
function mailboxWeight(ctx: ScoreContext, field: CompiledField, level: 'fuzzy-low' | 'typo', emails: readonly string[]): number | undefined {
  const spec = field.levels[level];
  const exact = field.levels.exact;
  const tf = ctx.tf;
  if (spec === undefined || exact === undefined || tf === null || tf.emailCount === undefined || spec.weight <= 0) return undefined;
  let most = 0;
  for (const e of emails) most = Math.max(most, tf.emailCount(e));
  return Math.min(spec.weight, frequencyWeight(field.exactFloor, exact, most, tf.total));
}

/** True when every address of `a` the other record holds is a shared mailbox. */
function onlySharedAgree(a: readonly string[], holds: (value: string) => boolean, shared: (email: string) => boolean): boolean {
  for (const x of a) if (holds(x) && !shared(x)) return false;
  return true;
}

function addressWeight(compiled: CompiledModel, lv: AddressLevels): number {
  const f = compiled.fields;
  return (
    (f.zip5.levels[lv.zip5] ?? MISSING).weight +
    (f.streetNumber.levels[lv.streetNumber] ?? MISSING).weight +
    (f.streetName.levels[lv.streetName] ?? MISSING).weight +
    (f.building.levels[lv.building] ?? MISSING).weight +
    (f.unit.levels[lv.unit] ?? MISSING).weight +
    (f.city.levels[lv.city] ?? MISSING).weight +
    (f.state.levels[lv.state] ?? MISSING).weight
  );
}

function scoreAddresses(
  q: NormalizedContact,
  r: NormalizedContact,
  ctx: ScoreContext,
  result: PairScore,
  explain?: FieldOutcome[],
  levelsOut?: Uint8Array,
): void {
  const compiled = ctx.compiled;
  if (q.addresses.length === 0 || r.addresses.length === 0) {
    if (explain) for (const field of ADDRESS_FIELDS) explain.push({ field, level: 'missing', label: MISSING_LABEL, weight: 0 });
    if (levelsOut !== undefined) for (const field of ADDRESS_FIELDS) levelsOut[FIELD_SLOT[field]] = MISSING_CODE;
    return;
  }
  let best: AddressLevels | null = null;
  let bestWeight = -Infinity;
  for (const a of q.addresses) {
    for (const b of r.addresses) {
      const lv = compareAddress(a, b, compiled.addressMasks);
      const w = addressWeight(compiled, lv);
      if (w > bestWeight) {
        bestWeight = w;
        best = lv;
      }
    }
  }
  if (best === null) return;
  const floor = compiled.model.addressFloor;
  // Scale every part down together when the floor applies, so the explanation still sums up.
  const scale = bestWeight < floor ? floor / bestWeight : 1;
  const f = compiled.fields;
  // Field by field in ADDRESS_FIELDS' order (the score sums in it), without a loop's keyed reads.
  addAddressPart(result, f.zip5, 'zip5', best.zip5, scale, undefined, explain, levelsOut);
  addAddressPart(result, f.streetNumber, 'streetNumber', best.streetNumber, scale, undefined, explain, levelsOut);
  addAddressPart(result, f.streetName, 'streetName', best.streetName, scale, undefined, explain, levelsOut);
  addAddressPart(result, f.building, 'building', best.building, scale, undefined, explain, levelsOut);
  addAddressPart(result, f.unit, 'unit', best.unit, scale, undefined, explain, levelsOut);
  const cityTf = best.city === 'exact' && ctx.tf?.cityCount !== undefined;
  const citySpec = cityTf ? (f.city.levels[f.city.mask === 0 ? 'missing' : best.city] ?? MISSING) : undefined;
  const cityWeight = citySpec !== undefined && citySpec.weight > 0 ? cityTfWeight(ctx, citySpec, q, r) : undefined;
  addAddressPart(result, f.city, 'city', best.city, scale, cityWeight, explain, levelsOut);
  addAddressPart(result, f.state, 'state', best.state, scale, undefined, explain, levelsOut);
  if (placeAgrees(best, compiled)) result.agreeMask |= GATE_FIELD_BITS.zip5;
}

/** One address part's level of the best pair of addresses, weighed (`tfWeight`: the city's after term frequencies). */
function addAddressPart(
  result: PairScore,
  f: CompiledField,
  field: AddressField,
  best: LevelName,
  scale: number,
  tfWeight: number | undefined,
  explain: FieldOutcome[] | undefined,
  levelsOut: Uint8Array | undefined,
): void {
  const level = f.mask === 0 ? 'missing' : best;
  const spec = f.levels[level] ?? MISSING;
  const weight = tfWeight ?? spec.weight * scale;
  result.score += weight;
  if (spec.veto) noteVeto(result, spec, field);
  if (spec.capPossible && result.cappedBy === null) result.cappedBy = spec.label;
  if (spec.agrees) result.agreeMask |= ADDRESS_GATE_BITS[field];
  if (explain) explain.push({ field, level, label: spec.label, weight });
  if (levelsOut !== undefined) levelsOut[FIELD_SLOT[field]] = LEVEL_CODE[level];
}

/**
 * True when the postal code counts as agreeing for the minimum combinations (gates.ts)
 * although the codes differ or one record has none: the street number, the street name and
 * the city agree, so the place is the same and the code was mistyped or left out ("11 Copland
 * Drive, Birmingham Gardens" at 4365 and at 4350). The weights are not changed: the
 * different codes still count against the pair.
 */
function placeAgrees(best: AddressLevels, compiled: CompiledModel): boolean {
  const f = compiled.fields;
  return (
    best.zip5 !== 'exact' &&
    f.streetNumber.levels[best.streetNumber]?.agrees === true &&
    f.streetName.levels[best.streetName]?.agrees === true &&
    f.city.levels[best.city]?.agrees === true
  );
}

function cityTfWeight(ctx: ScoreContext, spec: CompiledLevel, q: NormalizedContact, r: NormalizedContact): number | undefined {
  // The city both records agree on (the first that does).
  for (const a of q.addresses) {
    if (a.city === null) continue;
    for (const b of r.addresses) {
      if (b.city !== null && compactName(a.city) === compactName(b.city)) {
        const count = ctx.tf?.cityCount?.(compactName(b.city)) ?? 0;
        return Math.log2(spec.m / termFrequencyU(count, ctx.tf?.total ?? 0, spec.u));
      }
    }
  }
  return undefined;
}

/**
 * The weight of the whole-address 'partial' level when it holds because the two records name
 * one town but different postal codes, by how many records are in that town: two people in
 * New York with different ZIP codes share little, and in a voter file a common name in a big
 * city otherwise matched on the city's average weight (OCR medium: 110 of 272 false pairs).
 * Only lowered, never raised above the level's weight (the score bounds of score-bound.ts
 * read the level's weight) nor below disagreement's; absent: the level's own.
 */
function townPartialWeight(ctx: ScoreContext, field: CompiledField, q: NormalizedContact, r: NormalizedContact): number | undefined {
  const spec = field.levels.partial;
  if (spec === undefined) return undefined;
  // 'partial' with one town on both sides holds only where both postal codes are known and differ.
  const weight = cityTfWeight(ctx, spec, q, r);
  if (weight === undefined) return undefined;
  // Agreeing on the town never weighs less than disagreeing (adding agreement never lowers a score).
  return Math.max(Math.min(spec.weight, weight), field.levels.disagree?.weight ?? weight);
}

/** The level name of a level code. */
export function levelOfCode(code: number): LevelName {
  return LEVEL_NAMES[code] ?? 'missing';
}

/** Every field's levels of a compiled model (for reports and estimation). */
export function compiledFieldOf(compiled: CompiledModel, slot: number): CompiledField {
  return slot < COMPARISON_FIELDS.length
    ? compiled.fields[COMPARISON_FIELDS[slot] as ComparisonField]
    : (compiled.attributes[slot - COMPARISON_FIELDS.length] ?? NO_FIELD);
}

export { ALL_LEVELS };

/**
 * The score a level vector (see {@link scorePair}'s `levelsOut`) gives under a compiled model:
 * the prior, each slot's level weight, the evidence groups applied; no term frequencies. For
 * re-scoring pairs already compared under another model's weights (estimation).
 */
export function scoreLevels(compiled: CompiledModel, levels: Uint8Array): number {
  const weights = compiled.scratch;
  const codes = compiled.scratchLevels;
  weights.fill(0);
  let score = compiled.priorBits;
  for (let slot = 0; slot < levels.length; slot++) {
    const level = LEVEL_NAMES[levels[slot] as number] as LevelName;
    const weight = (compiledFieldOf(compiled, slot).levels[level] ?? MISSING).weight;
    score += weight;
    if (slot < weights.length) {
      weights[slot] = weight;
      codes[slot] = levels[slot] as number;
    }
  }
  if (compiled.groups.length === 0) return score;
  const result = emptyPairScore(score);
  countGroupsOnce(compiled, weights, result, undefined);
  return result.score;
}

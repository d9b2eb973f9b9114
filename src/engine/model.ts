/**
 * The Fellegi-Sunter match model: for each compared field, which of its comparison levels
 * (comparisons.ts) exist, each with its m probability (how often a true match shows this
 * level) and u probability (how often two different people do). A level's match weight is
 * log2(m/u) in bits; a pair's score is the prior's weight plus the sum over fields
 * (Fellegi & Sunter 1969; the vocabulary follows Splink).
 *
 * A model is plain data (JSON-serializable: model-json.ts reads and writes it), passed to
 * the engine as an argument. Two ship: {@link DEFAULT_MODEL}, the CRM's (priors from
 * record-linkage practice on US contact lists, with the contract's vetoes), and
 * {@link FILE_MODEL}, the priors of file linkage that estimation (estimate.ts) starts from
 * and falls back to.
 */
import { COMPARISONS, type ComparisonField, type LevelName } from './comparisons.js';
import type { EvidenceGroup, FieldModel, LevelSpec, MatchModel, Thresholds } from './model-types.js';

export type { ComparisonField, LevelName } from './comparisons.js';
export type { AttributeModel, EvidenceGroup, FieldModel, LevelSpec, MatchModel, ParameterSource, Thresholds } from './model-types.js';

/**
 * The household group of file models: a surname, an address (the same one, not merely the
 * same town), a phone and an email are shared within a household, so they agree together.
 */
export const HOUSEHOLD_GROUP: EvidenceGroup = {
  name: 'household',
  fields: ['lastName', 'address', 'phone', 'email'],
  levels: { address: ['exact', 'typo', 'part'], phone: ['exact'], email: ['exact'] },
};

const L = (m: number, u: number, extra: Partial<Omit<LevelSpec, 'm' | 'u'>> = {}): LevelSpec => ({ m, u, ...extra });
const VETO = { veto: true };
const CAP = { capPossible: true };
const SUPPORT: Pick<LevelSpec, 'needsSupport'> = { needsSupport: ['email', 'phone', 'identifier'] };
/** What supports first and last names swapped: a personal contact, or the date of birth and the whole street address. */
const SWAP_SUPPORT: Pick<LevelSpec, 'needsSupport' | 'supportAll'> = { ...SUPPORT, supportAll: ['dateOfBirth', 'streetNumber', 'streetName', 'zip5'] };
/** What supports a first name that agrees only approximately: see LevelSpec.needsSupport. */
const PERSONAL: Pick<LevelSpec, 'needsSupport'> = { needsSupport: ['dateOfBirth', 'email', 'phone', 'identifier'] };

/** Default (CRM) model. Probabilities in (0,1]; see the file comment for their origin. */
export const DEFAULT_MODEL: MatchModel = {
  fuzzyHigh: 0.92,
  fuzzyLow: 0.85,
  addressFloor: -6,
  fields: {
    firstName: {
      exact: L(0.88, 0.005),
      nickname: L(0.03, 0.0008, { ...PERSONAL, notByHouseholdPhone: true }),
      // One edit (a keyboard slip, an OCR confusion): "Damiel", "Am6". A different name one
      // edit apart (Mark/Mary) is told apart by sex or date of birth, which cap or veto; at a
      // household's address its landline is no support for this level, fuzzy-high or part
      // (Joan and Jean, Mary Ann and Mary: see notByHouseholdPhone).
      typo: L(0.03, 0.0006, { ...PERSONAL, notByHouseholdPhone: true }),
      swapped: L(0.01, 0.00002, SWAP_SUPPORT),
      'fuzzy-high': L(0.04, 0.0015, { ...PERSONAL, notByHouseholdPhone: true }),
      part: L(0.01, 0.0005, { ...PERSONAL, notByHouseholdPhone: true }),
      // One record's first name is the other's middle name: someone who goes by it, or first and
      // middle swapped on a form, but also twins whose names mirror each other. To review, never merged.
      cross: L(0.01, 0.0005, CAP),
      initial: L(0.01, 0.0007, { agrees: true, agreesWith: ['dateOfBirth', 'zip5', 'streetNumber', 'streetName'] }),
      // Two edits apart: another name more often than a double typo (Mary Ann / Marian).
      'fuzzy-low': L(0.01, 0.004, CAP),
      disagree: L(0.01, 0.98, VETO),
    },
    middleName: {
      exact: L(0.7, 0.02),
      initial: L(0.25, 0.06),
      'fuzzy-high': L(0.02, 0.005),
      // A middle name that differs but is no given name: misread ("Matthew" / "Matfhcw"), or another one.
      'fuzzy-low': L(0.02, 0.1),
      // Two different given names as middle names (or initials): a father and his son who
      // dropped the suffix, at one address with one landline (Robert James / Robert Michael
      // Kline). Review, never merge.
      disagree: L(0.01, 0.8, CAP),
    },
    lastName: {
      exact: L(0.88, 0.001),
      typo: L(0.04, 0.0003),
      swapped: L(0.01, 0.00002, SWAP_SUPPORT),
      'fuzzy-high': L(0.06, 0.0008),
      part: L(0.015, 0.0004),
      'fuzzy-low': L(0.015, 0.004),
      // Another surname: another person (a household shares its email and phone), unless the
      // first name, the date of birth and a personal email or phone agree: a changed name.
      disagree: L(0.02, 0.99, { ...VETO, vetoUnless: { all: ['firstName', 'dateOfBirth'], any: ['email', 'phone'] } }),
    },
    suffix: {
      exact: L(0.95, 0.3),
      // Jr on one record and none on the other: the same person who dropped it, or a father
      // and his son at one address. Only what is the person's own tells them apart.
      partial: L(0.1, 0.1, { needsSupport: ['dateOfBirth', 'identifier'] }),
      disagree: L(0.01, 0.5, VETO),
    },
    dateOfBirth: {
      exact: L(0.9, 0.0001),
      transposed: L(0.01, 0.00005),
      // One digit apart: a typo, or a sibling born a year or a month apart. Review, never merge.
      typo: L(0.06, 0.003, CAP),
      disagree: L(0.03, 0.9968, VETO),
    },
    // Sex rarely changes in a record and is rarely mistyped; when it differs, a person reviews.
    sex: {
      exact: L(0.97, 0.5),
      disagree: L(0.02, 0.5, CAP),
    },
    // An equal identifier decides alone, before scoring; a different one of the same type is
    // another person or a re-registration: review, never merge.
    identifier: {
      exact: L(0.95, 0.000001),
      disagree: L(0.05, 0.95, CAP),
    },
    email: {
      exact: L(0.9, 0.000001),
      'fuzzy-high': L(0.03, 0.0005),
      // The same info@ or family mailbox: the people of an office, a shelter or a household
      // give it. Weak, and alone it meets no minimum combination (placeholders.ts, isSharedEmail);
      // beside the same first name and date of birth it is the person's (a household's members
      // share the mailbox, not a first name and a birthday), so it counts for firstName+lastName+email.
      partial: L(0.02, 0.002, { agrees: true, agreesWith: ['firstName', 'dateOfBirth'] }),
      disagree: L(0.07, 0.9995),
    },
    phone: {
      exact: L(0.85, 0.00002),
      disagree: L(0.15, 0.99998),
    },
    zip5: {
      exact: L(0.88, 0.005),
      typo: L(0.05, 0.02),
      disagree: L(0.07, 0.975),
    },
    streetNumber: {
      exact: L(0.88, 0.02),
      typo: L(0.04, 0.03),
      disagree: L(0.08, 0.95),
    },
    streetName: {
      exact: L(0.85, 0.005),
      'fuzzy-high': L(0.08, 0.002),
      'fuzzy-low': L(0.02, 0.01),
      disagree: L(0.05, 0.983),
    },
    building: {
      exact: L(0.8, 0.002),
      'fuzzy-high': L(0.1, 0.002),
      disagree: L(0.1, 0.996),
    },
    // Another flat of the same building: namesakes of a large building as often as a move
    // within it (John Smith of Apt 4 and of Apt 12). Review, never merge.
    unit: {
      exact: L(0.85, 0.05),
      // Two characters swapped (2005 / 2050): a slip, not capped.
      typo: L(0.03, 0.01),
      disagree: L(0.12, 0.94, CAP),
    },
    city: {
      exact: L(0.88, 0.05),
      'fuzzy-high': L(0.06, 0.01),
      disagree: L(0.06, 0.94),
    },
    state: {
      exact: L(0.94, 0.2),
      disagree: L(0.06, 0.8),
    },
  },
};

/**
 * Priors of file linkage: every level comparisons.ts defines; one veto, Jr against Sr (a
 * file's errors replace and corrupt values, so a different name or date only weighs against
 * a match, and clustering keeps conflicting records apart; a generational suffix is not
 * mistyped into its opposite); the household group (HOUSEHOLD_GROUP).
 * Estimation starts from these m probabilities and falls back to them for a field whose
 * estimate is degenerate; the u probabilities are always measured on the file.
 */
export const FILE_MODEL: MatchModel = {
  fuzzyHigh: 0.92,
  fuzzyLow: 0.88,
  addressFloor: -8,
  groups: [HOUSEHOLD_GROUP],
  fields: {
    firstName: {
      exact: L(0.8, 0.01),
      nickname: L(0.03, 0.001),
      typo: L(0.05, 0.001),
      'fuzzy-high': L(0.02, 0.002),
      part: L(0.01, 0.0005),
      cross: L(0.01, 0.001),
      initial: L(0.02, 0.003),
      'fuzzy-low': L(0.01, 0.005),
      phonetic: L(0.01, 0.005),
      swapped: L(0.01, 0.00002),
      // Far apart but alike (Jaro-Winkler 0.65 or more: several misread letters, David/Daniel).
      partial: L(0.02, 0.12),
      disagree: L(0.01, 0.85),
    },
    middleName: { exact: L(0.6, 0.03), initial: L(0.3, 0.08), 'fuzzy-high': L(0.03, 0.005), disagree: L(0.07, 0.88) },
    lastName: {
      exact: L(0.82, 0.002),
      typo: L(0.06, 0.0005),
      'fuzzy-high': L(0.03, 0.001),
      part: L(0.01, 0.0003),
      'fuzzy-low': L(0.01, 0.004),
      phonetic: L(0.01, 0.003),
      swapped: L(0.01, 0.00002),
      partial: L(0.03, 0.1),
      disagree: L(0.02, 0.89),
    },
    // Jr on one record only: the same person who dropped it, or a father and his namesake son
    // at one address; weighed (the date of birth and the rest decide), not missing.
    suffix: { exact: L(0.95, 0.3), partial: L(0.05, 0.1), disagree: L(0.005, 0.5, VETO) },
    dateOfBirth: {
      exact: L(0.8, 0.0002),
      transposed: L(0.02, 0.00005),
      typo: L(0.08, 0.003),
      year: L(0.04, 0.015),
      // Two digits apart anywhere: a date garbled twice, as OCR or a typist does (fake_1000: 10.6%
      // of true pairs with two dates, 1.0% of random pairs; it held them at 'fuzzy-low' or 'disagree').
      'fuzzy-high': L(0.03, 0.005),
      partial: L(0.01, 0.01),
      'fuzzy-low': L(0.02, 0.1),
      disagree: L(0.02, 0.875),
    },
    sex: { exact: L(0.97, 0.5), disagree: L(0.03, 0.5) },
    // The same mailbox name at another domain: a mistyped domain, one name at two providers.
    // A few characters apart (compare.ts nearEmailEdits): the mailbox name and the domain garbled at once.
    email: {
      exact: L(0.85, 0.00001),
      'fuzzy-high': L(0.05, 0.0005),
      'fuzzy-low': L(0.02, 0.00005),
      typo: L(0.02, 0.00005),
      disagree: L(0.06, 0.9994),
    },
    phone: { exact: L(0.8, 0.00005), partial: L(0.05, 0.0005), disagree: L(0.15, 0.9995) },
    identifier: { exact: L(0.85, 0.000001), typo: L(0.08, 0.00005), disagree: L(0.07, 0.99995) },
    address: {
      exact: L(0.7, 0.0005),
      typo: L(0.06, 0.0002),
      part: L(0.04, 0.002),
      prefix: L(0.08, 0.01),
      'fuzzy-high': L(0.01, 0.001),
      partial: L(0.02, 0.02),
      disagree: L(0.09, 0.97),
    },
  },
};

/** Prior levels of an attribute column: agreement a few times likelier for the same person. */
export const ATTRIBUTE_PRIOR: FieldModel = { exact: L(0.6, 0.1), 'fuzzy-high': L(0.1, 0.02), part: L(0.1, 0.04), disagree: L(0.2, 0.84) };

/**
 * The model without vetoes: pure Fellegi-Sunter, where a disagreeing first name or date of
 * birth only lowers the score. For linking files whose errors replace whole values (the
 * FEBRL generator does), not for a CRM: there a different first name at the same address
 * with the same birthday is a twin.
 */
export function withoutVetoes(model: MatchModel): MatchModel {
  const fields: Partial<Record<ComparisonField, FieldModel>> = {};
  for (const [field, levels] of Object.entries(model.fields) as [ComparisonField, FieldModel][]) {
    const out: Partial<Record<LevelName, LevelSpec>> = {};
    for (const [level, spec] of Object.entries(levels) as [LevelName, LevelSpec][]) {
      const { veto: _veto, vetoUnless: _unless, capPossible: _cap, needsSupport: _support, supportAll: _all, notByHouseholdPhone: _household, ...rest } = spec;
      out[level] = rest;
    }
    fields[field] = out;
  }
  return { ...model, fields };
}

/** Match weight of a level in bits: log2(m/u). */
export function levelWeight(spec: Pick<LevelSpec, 'm' | 'u'>): number {
  return Math.log2(spec.m / spec.u);
}

/** Weight in bits of a prior probability: log2(p / (1 - p)); 0 when absent. */
export function priorWeight(prior: number | undefined): number {
  return prior === undefined ? 0 : Math.log2(prior / (1 - prior));
}

/** Bits of total weight at which the posterior probability of a match is `p` (0 < p < 1). */
export function bitsOfProbability(p: number): number {
  return Math.log2(p / (1 - p));
}

/** Posterior probability of a match at `bits` of total weight. */
export function probabilityOfBits(bits: number): number {
  return 1 / (1 + 2 ** -bits);
}

/** The label of a level of a field in a model (its override, else comparisons.ts's). */
export function levelLabel(field: ComparisonField, level: LevelName, spec?: LevelSpec): string {
  return spec?.label ?? COMPARISONS[field].levels.find((l) => l.level === level)?.label ?? level;
}

/**
 * Default thresholds of the CRM model. 18 bits is a likelihood ratio of about 260,000:1 in
 * favour of the same person: an exact phone alone (about 15.4 bits) is not enough without a
 * name that agrees; a full name with an exact date of birth and postal code is far above it.
 * An exact email (about 19.8 bits) clears it alone, since the contract makes email alone a
 * minimum.
 */
export const DEFAULT_THRESHOLDS: Thresholds = { match: 18, possible: 10 };

/**
 * The model with every field's weights in agreement order where estimation left them out of
 * it: no level weighs more than exact agreement, none less than disagreement, exact agreement
 * at least 0 bits and disagreement at most 0 (by moving u). Then adding agreement to a pair
 * never lowers its score.
 */
export function withMonotoneWeights(model: MatchModel): MatchModel {
  const fix = (levels: FieldModel): FieldModel => {
    const out: Partial<Record<LevelName, LevelSpec>> = { ...levels };
    // A weight w is set by moving u to m / 2^w, or, where that u would pass 1, m down to 2^w.
    const withWeight = (spec: LevelSpec, w: number): LevelSpec => {
      const u = spec.m / 2 ** w;
      return u <= 1 ? { ...spec, u } : { ...spec, u: 1, m: 2 ** w };
    };
    const exact = out.exact;
    if (exact !== undefined && exact.u > exact.m) out.exact = { ...exact, u: exact.m };
    if (out.exact !== undefined) poolAboveExact(out, withWeight);
    const disagree = out.disagree;
    if (disagree !== undefined) {
      let bottom = 0;
      for (const [level, spec] of Object.entries(out) as [LevelName, LevelSpec][]) if (level !== 'disagree') bottom = Math.min(bottom, levelWeight(spec));
      if (levelWeight(disagree) > bottom) out.disagree = withWeight(disagree, bottom);
    }
    return out;
  };
  const fields: Partial<Record<ComparisonField, FieldModel>> = {};
  for (const [field, levels] of Object.entries(model.fields) as [ComparisonField, FieldModel][]) fields[field] = fix(levels);
  return { ...model, fields, attributes: (model.attributes ?? []).map((a) => ({ name: a.name, levels: fix(a.levels) })) };
}

/**
 * Levels that outweigh exact agreement pooled with it: the pooled levels all take log2 of
 * their summed m over their summed u (the maximum-likelihood weights under "no level above
 * exact"), the level with most matches weighing most. Capping them at exact agreement's own
 * weight instead let a level few matches reach set the weight of one most matches reach: a
 * file of postcodes and no streets, whose whole addresses almost never agree (m 0.0012),
 * learned 8.5 bits for them, and the same postcode (m 0.91, 14 bits alone) was cut to 8.5.
 */
function poolAboveExact(out: Partial<Record<LevelName, LevelSpec>>, withWeight: (spec: LevelSpec, w: number) => LevelSpec): void {
  const exact = out.exact as LevelSpec;
  const pooled: LevelName[] = ['exact'];
  let m = exact.m;
  let u = exact.u;
  for (;;) {
    let next: LevelName | null = null;
    let nextWeight = Math.log2(m / u);
    for (const [level, spec] of Object.entries(out) as [LevelName, LevelSpec][]) {
      if (level === 'disagree' || pooled.includes(level)) continue;
      const lw = levelWeight(spec);
      if (lw > nextWeight) {
        next = level;
        nextWeight = lw;
      }
    }
    if (next === null) break;
    const spec = out[next] as LevelSpec;
    m += spec.m;
    u += spec.u;
    pooled.push(next);
  }
  if (pooled.length === 1) return;
  const w = Math.log2(m / u);
  for (const level of pooled) out[level] = withWeight(out[level] as LevelSpec, w);
}

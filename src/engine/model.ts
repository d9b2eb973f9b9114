/**
 * The Fellegi-Sunter match model: for each compared field, its comparison levels, each with
 * a human label, its m probability (how often a true match shows this level) and its u
 * probability (how often two different people do). A level's match weight is log2(m/u) in
 * bits; a candidate's score is the sum over fields (Fellegi & Sunter 1969; the vocabulary
 * follows Splink).
 *
 * The defaults are priors from record-linkage practice on person data (US contact lists and
 * the FEBRL generator's error model), checked on labelled data by `npm run eval`. Exact
 * first and last names are further adjusted by term frequency (see score.ts).
 */

/** Fields the scorer compares. Address parts are compared on the best-agreeing address pair. */
export type ComparisonField =
  | 'firstName'
  | 'middleName'
  | 'lastName'
  | 'suffix'
  | 'dateOfBirth'
  | 'email'
  | 'phone'
  | 'zip5'
  | 'streetNumber'
  | 'streetName'
  | 'building'
  | 'unit'
  | 'city'
  | 'state';

/** Comparison levels, from strongest agreement to disagreement. */
export type LevelName =
  | 'exact'
  | 'nickname'
  | 'swapped'
  | 'initial'
  | 'part'
  | 'transposed'
  | 'fuzzy-high'
  | 'fuzzy-low'
  | 'disagree'
  | 'missing';

/** One level of one field's comparison. */
export interface LevelSpec {
  readonly label: string;
  /** P(level | same person), 0-1. */
  readonly m: number;
  /** P(level | different people), 0-1. */
  readonly u: number;
  /** Counts as agreement for the gates ("every supplied criterion must agree"). */
  readonly agrees: boolean;
  /** This level alone rules the match out (a different first name, a different date of birth). */
  readonly veto?: boolean;
}

/** Levels of one field; a level absent here is never produced for the field. */
export type FieldModel = Readonly<Partial<Record<LevelName, LevelSpec>>>;

/** A complete model: levels per field, and the floor of the address group's total weight. */
export interface MatchModel {
  readonly fields: Readonly<Record<ComparisonField, FieldModel>>;
  /**
   * Lowest total weight the address parts together can give: people move, and a moved
   * person's new address disagrees on every part at once. Bits, <= 0.
   */
  readonly addressFloor: number;
  /** Jaro-Winkler similarity at or above which names are "fuzzy-high" (0-1). */
  readonly fuzzyHigh: number;
  /** Jaro-Winkler similarity at or above which names are "fuzzy-low" (0-1, <= fuzzyHigh). */
  readonly fuzzyLow: number;
}

const L = (label: string, m: number, u: number, agrees: boolean, veto = false): LevelSpec =>
  veto ? { label, m, u, agrees, veto } : { label, m, u, agrees };

/** Default model. Probabilities in [0,1]; see the file comment for their origin. */
export const DEFAULT_MODEL: MatchModel = {
  fuzzyHigh: 0.92,
  fuzzyLow: 0.85,
  addressFloor: -6,
  fields: {
    firstName: {
      exact: L('first names equal', 0.88, 0.005, true),
      nickname: L('first names are nickname variants', 0.03, 0.0008, true),
      swapped: L('first and last names swapped', 0.01, 0.00002, true),
      'fuzzy-high': L('first names nearly equal (typo)', 0.04, 0.0015, true),
      part: L('one first name is part of the other', 0.01, 0.0005, true),
      initial: L('first initial agrees', 0.01, 0.0007, false),
      'fuzzy-low': L('first names similar', 0.01, 0.004, false),
      disagree: L('first names differ', 0.01, 0.98, false, true),
    },
    middleName: {
      exact: L('middle names equal', 0.7, 0.02, true),
      initial: L('middle initial agrees', 0.25, 0.06, true),
      'fuzzy-high': L('middle names nearly equal', 0.02, 0.005, true),
      disagree: L('middle names differ', 0.03, 0.9, false),
    },
    lastName: {
      exact: L('last names equal', 0.88, 0.001, true),
      swapped: L('first and last names swapped', 0.01, 0.00002, true),
      'fuzzy-high': L('last names nearly equal (typo)', 0.06, 0.0008, true),
      part: L('one part of a compound surname agrees', 0.015, 0.0004, true),
      'fuzzy-low': L('last names similar', 0.015, 0.004, false),
      disagree: L('last names differ', 0.02, 0.99, false, true),
    },
    suffix: {
      exact: L('generational suffixes equal', 0.95, 0.3, true),
      disagree: L('generational suffixes differ (Jr/Sr are different people)', 0.01, 0.5, false, true),
    },
    dateOfBirth: {
      exact: L('dates of birth equal', 0.9, 0.0001, true),
      transposed: L('day and month swapped', 0.01, 0.00005, true),
      'fuzzy-high': L('dates of birth one digit apart (typo)', 0.06, 0.003, true),
      disagree: L('dates of birth differ', 0.03, 0.9968, false, true),
    },
    email: {
      exact: L('an email address agrees', 0.9, 0.000001, true),
      'fuzzy-high': L('email addresses nearly equal', 0.03, 0.0005, false),
      disagree: L('email addresses differ', 0.07, 0.9995, false),
    },
    phone: {
      exact: L('a phone number agrees', 0.85, 0.00002, true),
      disagree: L('phone numbers differ', 0.15, 0.99998, false),
    },
    zip5: {
      exact: L('postal codes equal', 0.88, 0.005, true),
      'fuzzy-high': L('postal codes one character apart', 0.05, 0.02, true),
      disagree: L('postal codes differ', 0.07, 0.975, false),
    },
    streetNumber: {
      exact: L('street numbers equal', 0.88, 0.02, true),
      'fuzzy-high': L('street numbers one digit apart', 0.04, 0.03, false),
      disagree: L('street numbers differ', 0.08, 0.95, false),
    },
    streetName: {
      exact: L('street names equal', 0.85, 0.005, true),
      'fuzzy-high': L('street names nearly equal', 0.08, 0.002, true),
      'fuzzy-low': L('street names similar', 0.02, 0.01, false),
      disagree: L('street names differ', 0.05, 0.983, false),
    },
    building: {
      exact: L('building or locality names equal', 0.8, 0.002, true),
      'fuzzy-high': L('building or locality names nearly equal', 0.1, 0.002, true),
      disagree: L('building or locality names differ', 0.1, 0.996, false),
    },
    unit: {
      exact: L('units equal', 0.85, 0.05, true),
      disagree: L('units differ', 0.15, 0.95, false),
    },
    city: {
      exact: L('cities equal', 0.88, 0.05, true),
      'fuzzy-high': L('cities nearly equal', 0.06, 0.01, true),
      disagree: L('cities differ', 0.06, 0.94, false),
    },
    state: {
      exact: L('states equal', 0.94, 0.2, true),
      disagree: L('states differ', 0.06, 0.8, false),
    },
  },
};

/**
 * The model without vetoes: pure Fellegi-Sunter, where a disagreeing first name or date of
 * birth only lowers the score. For linking files whose errors replace whole values (the
 * FEBRL generator does), not for a CRM: there a different first name at the same address
 * with the same birthday is a twin.
 */
export function withoutVetoes(model: MatchModel): MatchModel {
  const fields = {} as Record<ComparisonField, FieldModel>;
  for (const [field, levels] of Object.entries(model.fields) as [ComparisonField, FieldModel][]) {
    const out: Partial<Record<LevelName, LevelSpec>> = {};
    for (const [level, spec] of Object.entries(levels) as [LevelName, LevelSpec][]) {
      out[level] = { label: spec.label, m: spec.m, u: spec.u, agrees: spec.agrees };
    }
    fields[field] = out;
  }
  return { ...model, fields };
}

/** Match weight of a level in bits: log2(m/u). */
export function levelWeight(spec: LevelSpec): number {
  return Math.log2(spec.m / spec.u);
}

/**
 * Decision thresholds in bits of total match weight. A score at or above `match` is a match;
 * at or above `possible` it is reported as a possible match (for review) but not merged.
 * Ranges: any real; `possible` <= `match`.
 */
export interface Thresholds {
  readonly match: number;
  readonly possible: number;
}

/**
 * Default thresholds. 18 bits is a likelihood ratio of about 260,000:1 in favour of the same
 * person: an exact phone alone (about 15.4 bits) is not enough without a name that agrees; a
 * full name with an exact date of birth and postal code is far above it. An exact email
 * (about 19.8 bits) clears it alone, since the contract makes email alone a minimum.
 */
export const DEFAULT_THRESHOLDS: Thresholds = { match: 18, possible: 10 };

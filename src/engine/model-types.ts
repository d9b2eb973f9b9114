/**
 * The types of a match model (model.ts has the shipped ones): the levels of each field with
 * their m and u probabilities and rules (veto, cap, support), the attribute columns, the
 * evidence groups counted once, and the model as a whole. Plain data, JSON-serializable
 * (model-json.ts).
 */
import type { ComparisonField, LevelName } from './comparisons.js';
import type { GateField } from './gates.js';

/** One level of one field in a model. */
export interface LevelSpec {
  /** P(level | same person), in (0, 1]. */
  readonly m: number;
  /** P(level | different people), in (0, 1]. */
  readonly u: number;
  /** Overrides the level's label from comparisons.ts. */
  readonly label?: string;
  /** Overrides whether the level counts as agreement for the minimum combinations. */
  readonly agrees?: boolean;
  /** This level alone rules the match out (a different first name, a different date of birth). */
  readonly veto?: boolean;
  /**
   * With `veto`: the level rules the match out unless the pair agrees on every field of `all`
   * and on at least one of `any` (none given: no such field needed). A different surname beside
   * the same first name, date of birth and personal email or phone is a changed name (marriage,
   * divorce), not another person; beside anything less it is another member of the household.
   */
  readonly vetoUnless?: { readonly all: readonly GateField[]; readonly any: readonly GateField[] };
  /** A pair at this level is at most a possible match, never matched automatically. */
  readonly capPossible?: boolean;
  /**
   * A pair at this level is at most a possible match unless it also agrees on one of these
   * fields. First and last names swapped: a data-entry slip beside the person's own email or
   * phone, someone else when only a date and a zip agree. A first name that agrees only
   * approximately (a typo, a nickname): a household shares its address, and brothers may be
   * Austin and Justin, so the date of birth or a personal contact must agree too.
   */
  readonly needsSupport?: readonly GateField[];
  /**
   * With `needsSupport`: the pair is also supported when it agrees on every one of these
   * fields. First and last names swapped beside the same date of birth and the same street
   * address (number, street and postal code): a form filled in family name first, not another
   * person (a date and a postal code alone are not enough).
   */
  readonly supportAll?: readonly GateField[];
  /**
   * With `needsSupport`: the phone does not support the level where the pair also shares a
   * household's surname and street address (number, street and postal code): beside them a
   * phone is the household's landline, which says "same household", not "same person". A
   * nickname variant is then another given name of the family as often as one person's two
   * forms (Lisa and Elizabeth, mother and daughter; eval:api merged such pairs on seeds 1 and
   * 2), and a first name one edit apart another member's (Joan and Jean, Thomas and Tomás:
   * eval:api seeds 7 and 15), or holding it as a part (Mary Ann and Mary: seed 50), as often
   * as a slip: the date of birth, an email or an identifier must agree instead. Two
   * neighbouring letters swapped (Micheal/Michael) stays a slip, which the phone supports
   * (score.ts).
   */
  readonly notByHouseholdPhone?: boolean;
  /**
   * The level counts as agreement for the minimum combinations only when the pair also
   * agrees on all of these fields (an initial or a cut first name agrees with the full name
   * only beside the date of birth and the address).
   */
  readonly agreesWith?: readonly GateField[];
}

/** Levels of one field; a level absent here is never produced for the field. */
export type FieldModel = Readonly<Partial<Record<LevelName, LevelSpec>>>;

/** A free-text column of a file compared as it is (occupation, birth place). */
export interface AttributeModel {
  /** The column's name in the file. */
  readonly name: string;
  readonly levels: FieldModel;
}

/** A group of fields counted once (see MatchModel.groups). */
export interface EvidenceGroup {
  readonly name: string;
  readonly fields: readonly ComparisonField[];
  /** Levels of a field that belong to the group (default: every level with a positive weight). */
  readonly levels?: Readonly<Partial<Record<ComparisonField, readonly LevelName[]>>>;
}

/**
 * How a field's m probabilities were obtained (reports and `--save-model` show it): shipped
 * ('prior'), estimated from the file, the prior for a degenerate estimate ('fallback'), or a
 * name's error levels taken from the other name's estimate ('borrowed', estimate.ts).
 */
export type ParameterSource = 'prior' | 'estimated' | 'fallback' | 'borrowed';

/** A complete model. */
export interface MatchModel {
  /** Levels per field; a field absent here is not compared. */
  readonly fields: Readonly<Partial<Record<ComparisonField, FieldModel>>>;
  /** Attribute columns compared as text, in the order of NormalizedContact.attributes. */
  readonly attributes?: readonly AttributeModel[];
  /**
   * Probability that two records drawn at random are the same person, in (0, 1). Its weight,
   * log2(prior / (1 - prior)), starts every score. Absent: 0 bits (the thresholds then hold
   * the prior, as the CRM's do).
   */
  readonly prior?: number;
  /**
   * Lowest total weight the address parts together can give: people move, and a moved
   * person's new address disagrees on every part at once. Bits, <= 0.
   */
  readonly addressFloor: number;
  /** Jaro-Winkler similarity at or above which names are "fuzzy-high" (0-1). */
  readonly fuzzyHigh: number;
  /** Jaro-Winkler similarity at or above which names are "fuzzy-low" (0-1, <= fuzzyHigh). */
  readonly fuzzyLow: number;
  /** Decision thresholds of this model, in bits of total weight; absent: the caller's. */
  readonly thresholds?: Thresholds;
  /**
   * Groups of fields whose agreements are one fact, not several: of a group's positive
   * weights only the largest counts (disagreements all count). A household shares its
   * surname, address, landline and family email; counted separately, those agreements
   * outweigh the names and dates that tell its members apart.
   */
  readonly groups?: readonly EvidenceGroup[];
  /** Where each field's m probabilities came from, by field or attribute name. */
  readonly sources?: Readonly<Record<string, ParameterSource>>;
  /** What estimation noticed (degenerate solutions, fallbacks), for reports. */
  readonly notes?: readonly string[];
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

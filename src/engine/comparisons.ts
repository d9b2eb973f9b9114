/**
 * Comparisons: for each compared field, its ordered list of levels (strongest agreement
 * first), each with the label explanations show and whether it counts as agreement for the
 * minimum combinations. A model (model.ts) gives each level its m and u probabilities and
 * chooses which levels exist; the comparators (compare.ts) return the first level, in this
 * order, that the model has and the pair reaches. Vocabulary after Splink: a comparison is
 * an ordered list of labelled levels.
 */

/** Comparison levels. A field uses a subset, in the order of {@link LEVEL_NAMES}. */
export type LevelName =
  | 'exact'
  | 'nickname'
  | 'typo'
  | 'fuzzy-high'
  | 'part'
  | 'cross'
  | 'initial'
  | 'fuzzy-low'
  | 'phonetic'
  | 'swapped'
  | 'transposed'
  | 'year'
  | 'prefix'
  | 'partial'
  | 'disagree'
  | 'missing';

/** Every level, in the order comparators test them; a level's code is its position. */
export const LEVEL_NAMES: readonly LevelName[] = [
  'exact',
  'nickname',
  'typo',
  'fuzzy-high',
  'part',
  'cross',
  'initial',
  'fuzzy-low',
  'phonetic',
  'swapped',
  'transposed',
  'year',
  'prefix',
  'partial',
  'disagree',
  'missing',
];

/** Code of each level (its index in {@link LEVEL_NAMES}). */
export const LEVEL_CODE: Readonly<Record<LevelName, number>> = Object.fromEntries(LEVEL_NAMES.map((n, i) => [n, i])) as Record<LevelName, number>;

/** Fields the scorer compares. Address parts are compared on the best-agreeing address pair. */
export type ComparisonField =
  | 'firstName'
  | 'middleName'
  | 'lastName'
  | 'suffix'
  | 'dateOfBirth'
  | 'sex'
  | 'email'
  | 'phone'
  | 'identifier'
  | 'zip5'
  | 'streetNumber'
  | 'streetName'
  | 'building'
  | 'unit'
  | 'city'
  | 'state'
  | 'address';

/** Every comparison field, in scoring order (fields that can rule a match out first). */
export const COMPARISON_FIELDS: readonly ComparisonField[] = [
  'suffix',
  'firstName',
  'lastName',
  'dateOfBirth',
  'sex',
  'identifier',
  'middleName',
  'email',
  'phone',
  'zip5',
  'streetNumber',
  'streetName',
  'building',
  'unit',
  'city',
  'state',
  'address',
];

/** The address parts, compared together on the best-agreeing pair of addresses. */
export const ADDRESS_FIELDS = ['zip5', 'streetNumber', 'streetName', 'building', 'unit', 'city', 'state'] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];

/** One level of a comparison: its label and whether it counts as agreement. */
export interface LevelDefinition {
  readonly level: LevelName;
  readonly label: string;
  /** Counts as agreement for the minimum combinations ("every supplied criterion must agree"). */
  readonly agrees: boolean;
}

/** A comparison: what it compares and its levels, strongest first ('missing' is implied). */
export interface ComparisonDefinition {
  readonly title: string;
  readonly levels: readonly LevelDefinition[];
}

const L = (level: LevelName, label: string, agrees: boolean): LevelDefinition => ({ level, label, agrees });

/** Levels of a free-text attribute column of a file (occupation, birth place...). */
export const ATTRIBUTE_LEVELS: readonly LevelDefinition[] = [
  L('exact', 'equal', true),
  L('fuzzy-high', 'nearly equal', true),
  L('part', 'share a word ("Leeds, Yorks" / "Leeds", "farm labourer" / "labourer")', false),
  L('disagree', 'differ', false),
];

/** The comparisons and their levels. Every level a comparator can return is listed here. */
export const COMPARISONS: Readonly<Record<ComparisonField, ComparisonDefinition>> = {
  firstName: {
    title: 'first name',
    levels: [
      L('exact', 'first names equal', true),
      L('nickname', 'first names are nickname variants', true),
      L('typo', 'first names one edit apart (typo or OCR error)', true),
      L('fuzzy-high', 'first names nearly equal', true),
      L('part', 'one first name is part of the other', true),
      L('cross', "a first name is the other's middle name", false),
      L('initial', 'a first name is an initial or short prefix of the other', false),
      L('fuzzy-low', 'first names similar (or two typos apart)', false),
      L('phonetic', 'first names sound alike', false),
      L('swapped', 'first and last names swapped', true),
      L('partial', 'first names far apart but alike (several misread letters, or related names)', false),
      L('disagree', 'first names differ', false),
    ],
  },
  middleName: {
    title: 'middle name',
    levels: [
      L('exact', 'middle names equal', true),
      L('initial', 'middle initial agrees', true),
      L('fuzzy-high', 'middle names nearly equal', true),
      L('fuzzy-low', 'middle names differ (one is no given name: perhaps misread)', false),
      L('disagree', 'middle names differ', false),
    ],
  },
  lastName: {
    title: 'last name',
    levels: [
      L('exact', 'last names equal', true),
      L('typo', 'last names one edit apart (typo or OCR error)', true),
      L('fuzzy-high', 'last names nearly equal', true),
      L('part', 'one part of a compound surname agrees', true),
      L('fuzzy-low', 'last names similar (or two typos apart)', false),
      L('phonetic', 'last names sound alike', false),
      L('swapped', 'first and last names swapped', true),
      L('partial', 'last names far apart but alike (several misread letters)', false),
      L('disagree', 'last names differ', false),
    ],
  },
  suffix: {
    title: 'generational suffix',
    levels: [
      L('exact', 'generational suffixes equal', true),
      L('partial', 'a generational suffix on one record only', false),
      L('disagree', 'generational suffixes differ (Jr/Sr are different people)', false),
    ],
  },
  dateOfBirth: {
    title: 'date of birth',
    levels: [
      L('exact', 'dates of birth equal', true),
      L('transposed', 'day and month swapped', true),
      L('typo', 'dates of birth one digit apart (typo)', true),
      L('year', 'same year of birth (or a year apart, same day), day or month differ or unknown', false),
      L('fuzzy-high', 'dates of birth two digits apart (files)', false),
      L('partial', 'a year of birth alone, one year off the other (a year worked out from an age)', false),
      L('fuzzy-low', 'dates of birth differ by less than five years', false),
      L('disagree', 'dates of birth five or more years apart', false),
    ],
  },
  sex: {
    title: 'sex',
    levels: [L('exact', 'sexes equal', true), L('disagree', 'sexes differ', false)],
  },
  email: {
    title: 'email',
    levels: [
      L('exact', 'an email address agrees', true),
      L('fuzzy-high', 'email addresses nearly equal', false),
      L('fuzzy-low', 'the same mailbox name at another domain', false),
      L('typo', 'email addresses a few characters apart (at most one in five)', false),
      L('partial', "only a shared mailbox agrees (info@, office@, a family's address): not the person's own", false),
      L('disagree', 'email addresses differ', false),
    ],
  },
  phone: {
    title: 'phone',
    levels: [
      L('exact', 'a phone number agrees', true),
      L('partial', 'a local number agrees with the last seven digits of the other', false),
      L('disagree', 'phone numbers differ', false),
    ],
  },
  identifier: {
    title: 'identifier',
    levels: [
      L('exact', 'an identifier of the same type agrees', true),
      L('typo', 'identifiers of the same type one character apart', false),
      L('disagree', 'identifiers of the same type differ', false),
    ],
  },
  zip5: {
    title: 'postal code',
    levels: [
      L('exact', 'postal codes equal', true),
      L('typo', 'postal codes one character apart', true),
      L('prefix', 'postal codes share their first three characters', false),
      L('disagree', 'postal codes differ', false),
    ],
  },
  streetNumber: {
    title: 'street number',
    levels: [L('exact', 'street numbers equal', true), L('typo', 'street numbers one digit apart', false), L('disagree', 'street numbers differ', false)],
  },
  streetName: {
    title: 'street name',
    levels: [
      L('exact', 'street names equal', true),
      L('fuzzy-high', 'street names nearly equal', true),
      L('fuzzy-low', 'street names similar', false),
      L('disagree', 'street names differ', false),
    ],
  },
  building: {
    title: 'building or locality',
    levels: [
      L('exact', 'building or locality names equal', true),
      L('fuzzy-high', 'building or locality names nearly equal', true),
      L('disagree', 'building or locality names differ', false),
    ],
  },
  unit: {
    title: 'unit',
    levels: [L('exact', 'units equal', true), L('typo', 'units two characters swapped', true), L('disagree', 'units differ', false)],
  },
  city: {
    title: 'city',
    levels: [L('exact', 'cities equal', true), L('fuzzy-high', 'cities nearly equal', true), L('disagree', 'cities differ', false)],
  },
  state: {
    title: 'state',
    levels: [L('exact', 'states equal', true), L('disagree', 'states differ', false)],
  },
  address: {
    title: 'address (as a whole)',
    levels: [
      L('exact', 'the same address (street number, street, unit, postal code or city)', true),
      L('typo', 'the same address but for one character of the number or postal code', true),
      L('part', 'the same street in the same place, another number or unit', false),
      L('prefix', 'the same postal code or city, another street', false),
      L('fuzzy-high', 'the same postal code but for one character, no street or city to confirm it', false),
      L('partial', 'nearby: postal codes share their first three characters, or cities nearly equal', false),
      L('disagree', 'addresses differ', false),
    ],
  },
};

/** The label 'missing' levels show. */
export const MISSING_LABEL = 'not on both records';

/** The definition of a level of a field, or undefined when the field has no such level. */
export function levelDefinition(field: ComparisonField, level: LevelName): LevelDefinition | undefined {
  return COMPARISONS[field].levels.find((l) => l.level === level);
}

/** Bit of a level in a mask of enabled levels. */
export function levelBit(level: LevelName): number {
  return 1 << LEVEL_CODE[level];
}

/** Mask of the levels in a list. */
export function levelMask(levels: Iterable<LevelName>): number {
  let mask = 0;
  for (const l of levels) mask |= levelBit(l);
  return mask;
}

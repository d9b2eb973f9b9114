/**
 * Conflicts between rows that clustering must keep apart: two rows whose first names,
 * surnames, dates of birth or identifiers clearly differ are different people, however they
 * came to be linked through a third (a twin through a shared email, a father through a
 * son's record without a date of birth). Clearly: a typo, a nickname, an initial, a
 * transposed day and month, a one-digit slip or a swap of first and last names is no
 * conflict.
 */
import {
  ALL_LEVELS,
  compactName,
  compareDate,
  compareFirstName,
  compareLastName,
  compareIdentifiers,
  DEFAULT_NICKNAMES,
  LEVEL_CODE,
  namesSwapped,
  nicknameGroupsOf,
  phoneticKey,
  type MatchModel,
  type NameCompareOptions,
} from '../engine/index.js';

/** What clustering reads of some rows (parallel arrays; identifiers joined by U+0001). */
export interface RowSignatures {
  readonly rows: number[];
  readonly first: (string | null)[];
  /** How many rows of the file have each row's first name. */
  readonly firstCount: number[];
  readonly middle: (string | null)[];
  readonly last: (string | null)[];
  readonly dob: (string | null)[];
  readonly identifiers: (string | null)[];
  readonly suffix: (string | null)[];
  readonly sex: (string | null)[];
}

/** One row's signature. */
export interface Signature {
  readonly first: string | null;
  /** How many rows of the file have this first name (absent: not known, the name counts as attested). */
  readonly firstCount?: number;
  readonly middle: string | null;
  readonly last: string | null;
  readonly dob: string | null;
  readonly identifiers: readonly string[];
  readonly suffix: string | null;
  readonly sex: string | null;
}

/** The identifiers of a row without any (one shared, read-only list). */
const NO_IDENTIFIERS: readonly string[] = Object.freeze([]);

/** Signatures by row, from runs of rows' signatures (each worker reads a run). */
export function signatureMap(runs: readonly RowSignatures[]): Map<number, Signature> {
  const out = new Map<number, Signature>();
  for (const s of runs) {
    for (let i = 0; i < s.rows.length; i++) {
      const ids = s.identifiers[i] ?? null;
      out.set(s.rows[i] as number, {
        first: s.first[i] ?? null,
        firstCount: s.firstCount[i] ?? 0,
        middle: s.middle[i] ?? null,
        last: s.last[i] ?? null,
        dob: s.dob[i] ?? null,
        identifiers: ids === null ? NO_IDENTIFIERS : ids.split('\u0001'),
        suffix: s.suffix[i] ?? null,
        sex: s.sex[i] ?? null,
      });
    }
  }
  return out;
}

/** Names compared leniently: only names that share nothing (no nickname, typo, initial, sound or 70% similarity) differ. */
const NAMES: NameCompareOptions = { nicknames: DEFAULT_NICKNAMES, strict: false, fuzzyHigh: 0.92, fuzzyLow: 0.7, soundOf: phoneticKey };

/**
 * The levels NAMES compares on: all but names only alike (the file models' 'partial':
 * "David"/"Daniel"), which are two names here.
 */
const NAME_LEVELS = ALL_LEVELS & ~(1 << LEVEL_CODE.partial);
/** Date levels that clear a conflict: not the files' 'fuzzy-high' (two digits apart, any years). */
const DOB_CONFLICT_LEVELS = ALL_LEVELS & ~(1 << LEVEL_CODE['fuzzy-high']);

/** Years between two dates of birth from which they are two people's, not one person's with an error. */
export const CONFLICTING_BIRTH_YEARS = 5;
/** Years between two dates of birth whose years differ only in the decade's digit, mistyped: no conflict. */
const DECADE_SLIP = 10;

/** True when a row has a first name or a surname. */
export function isNamed(s: Signature): boolean {
  return s.first !== null || s.last !== null;
}

/**
 * Which kinds of conflict clustering enforces. Identifiers are enforced only where the model
 * learned that the same person seldom shows two different ones (their disagreement weighs
 * {@link CONFLICT_BITS} or less): in a file whose errors replace whole identifiers (FEBRL's
 * generator does), a differing identifier is an error as often as another person. Dates years
 * apart, sexes, first names and Jr/Sr always are: turning the date and sex conflicts off by
 * the same rule cost 8 points of clustered F1 on the generated historical sets, whose dates
 * are often approximate but seldom years apart for one person.
 */
export interface ConflictKinds {
  readonly dateOfBirth: boolean;
  readonly identifier: boolean;
  readonly sex: boolean;
}

/** Every kind enforced (no model to say otherwise). */
export const ALL_CONFLICTS: ConflictKinds = { dateOfBirth: true, identifier: true, sex: true };

/** Weight of disagreement (bits) at or below which a field's differences are conflicts: a likelihood ratio of 1 in 64. */
export const CONFLICT_BITS = -6;

/** The conflicts a model supports (see {@link ConflictKinds}). */
export function conflictKindsOf(model: MatchModel | null): ConflictKinds {
  const d = model?.fields.identifier?.disagree;
  return { ...ALL_CONFLICTS, identifier: d === undefined || Math.log2(d.m / d.u) <= CONFLICT_BITS };
}

/**
 * Why two rows cannot be the same person, or null when nothing says so: dates of birth
 * {@link CONFLICTING_BIRTH_YEARS} or more years apart (not a typo, a transposition, a swapped
 * day and month), identifiers of one type that differ by more than a character, Jr against
 * Sr, male against female, or first names that share nothing. A surname may change (marriage)
 * and is no conflict.
 */
export function conflictOf(a: Signature, b: Signature, kinds: ConflictKinds = ALL_CONFLICTS): string | null {
  if (kinds.dateOfBirth && a.dob !== null && b.dob !== null && compareDate(a.dob, b.dob, DOB_CONFLICT_LEVELS) === 'disagree') {
    const years = Math.abs(Number(a.dob.slice(0, 4)) - Number(b.dob.slice(0, 4)));
    // Ten years exactly between two full dates is the decade's digit mistyped in one of them
    // (1974 / 1984), not another generation; years alone hold too little to tell.
    const slip = years === DECADE_SLIP && a.dob.length === 10 && b.dob.length === 10;
    if (years >= CONFLICTING_BIRTH_YEARS && !slip) return 'dates of birth years apart';
  }
  if (kinds.identifier && compareIdentifiers(a.identifiers, b.identifiers) === 'disagree') return 'identifiers differ';
  if (a.suffix !== null && b.suffix !== null && a.suffix !== b.suffix) return 'generational suffixes differ';
  if (kinds.sex && a.sex !== null && b.sex !== null && a.sex !== b.sex) return 'sexes differ';
  if (namesCrossed(a, b)) return null;
  if (attested(a) && attested(b) && compareFirstName(a.first, b.first, NAMES, NAME_LEVELS, a.middle, b.middle) === 'disagree') return FIRST_NAMES_DIFFER;
  return null;
}

/** The reason {@link conflictOf} gives for first names that share nothing. */
export const FIRST_NAMES_DIFFER = 'first names differ';

/** First-name levels that read as one given name: not an initial, nor a merely similar name. */
const ONE_NAME: ReadonlySet<string> = new Set(['exact', 'nickname', 'typo', 'fuzzy-high', 'part', 'cross']);

/**
 * True when two rows' first names are one given name (equal, a nickname, a typo, the other's
 * middle name) or the rows' names are swapped. Clustering lets a pair so named join two
 * clusters whose other rows' first names differ ({@link FIRST_NAMES_DIFFER}): one person's
 * records give different names (a middle name, a title, another first name in some of them),
 * and the pair being joined says these are that person's. Two members of a household are
 * joined by a pair with their two names, which this never is.
 */
export function firstNamesAlike(a: Signature, b: Signature): boolean {
  if (a.first === null || b.first === null) return false;
  return namesCrossed(a, b) || ONE_NAME.has(compareFirstName(a.first, b.first, NAMES, undefined, a.middle, b.middle));
}

/**
 * True when a row's first name is a name, not a misreading: a given name the nickname table
 * knows, or one that more than one row of the file has. A corrupted name ("Maresob", "Dehisc":
 * OCR, transcription) is nearly always the file's only one, and shares nothing with the same
 * person's name in another row, so it would refuse that person's rows as two people; two
 * members of a household have real names ("Mary", "John").
 */
function attested(s: Signature): boolean {
  if (s.first === null || s.firstCount === undefined || s.firstCount >= 2) return true;
  return nicknameGroupsOf(DEFAULT_NICKNAMES, compactName(s.first)).length > 0;
}

/** True when two names are alike by the lenient surname comparison (typos, OCR, two slips, sound). */
function alike(x: string | null, y: string | null): boolean {
  return x !== null && y !== null && compareLastName(x, y, NAMES, NAME_LEVELS) !== 'disagree';
}

/**
 * True when the two rows' names read as one person's with first and last name swapped: both
 * crossed, as written or alike ("Isla Hall" / "Hall Isla", "Halenl0n Ingrid" / "Ingrtd
 * H0lenton"), or, when a row has one name only, that name alike the other row's name in the
 * other column ("Barker Matilda" / "Matilda" with no surname: the columns were swapped in one
 * of them). Such rows' first names differing is no conflict.
 */
export function namesCrossed(a: Signature, b: Signature): boolean {
  if (a.first !== null && a.last !== null && b.first !== null && b.last !== null) {
    return namesSwapped(a.first, a.last, b.first, b.last) || (alike(a.first, b.last) && alike(a.last, b.first));
  }
  return (a.last === null && alike(a.first, b.last)) || (b.last === null && alike(b.first, a.last));
}

/** True when two rows' surnames share nothing (not alike by the lenient comparison) and the rows' names are not swapped. */
export function surnamesDiffer(a: Signature, b: Signature): boolean {
  return a.last !== null && b.last !== null && !alike(a.last, b.last) && !namesCrossed(a, b);
}

/**
 * The whole-address comparison of files (an address compared as one value, not part by part),
 * apart from compare.ts's part comparators: it reads the street's and the city's nearness only
 * where they can change its level. Most pairs a file compares are strangers in different
 * postal codes, whose level no street name can change; Jaro-Winkler of two streets was the
 * costliest step of scoring such a pair (FEBRL4: a third of compactJaroWinklerFrom's time in
 * the link's profile was streets and cities no level read).
 */
import { levelBit, type LevelName } from './comparisons.js';
import { ALL_LEVELS, compareCode, compareUnit } from './compare.js';
import { compactJaroWinklerFrom, equalWithoutSpaces } from './similarity.js';
import { directionalMoved, directionalsDiffer, numbersDiffer } from './street-forms.js';
import type { NormalizedAddress } from './types.js';

/** Codes compared for equality or one character apart only (no 'prefix' level). */
const B_TYPO_ONLY = levelBit('exact') | levelBit('typo') | levelBit('disagree');
const B_FUZZY_HIGH = levelBit('fuzzy-high');

/** Jaro-Winkler (of the compact forms) from which two streets or two cities are nearly equal ('fuzzy-high'). */
const NEAR = 0.92;

/** How a street or a city of the two addresses compares: missing on either side, equal, nearly equal, different, or not read yet (equal ruled out). */
const MISSING = 0;
const EQUAL = 1;
const NEARLY = 2;
const DIFFERENT = 3;
const UNREAD = 4;

/** Rank of each whole-address level, best first (for choosing the best pair of addresses). */
const ADDRESS_RANK: Readonly<Partial<Record<LevelName, number>>> = {
  exact: 7,
  typo: 6,
  part: 5,
  prefix: 4,
  'fuzzy-high': 3,
  partial: 2,
  disagree: 1,
  missing: 0,
};

/** {@link MISSING} or {@link EQUAL} (compact forms equal), else {@link UNREAD}: what comparing two texts tells without Jaro-Winkler. */
function textAtSight(a: string | null, b: string | null): number {
  if (a === null || b === null) return MISSING;
  return a === b || equalWithoutSpaces(a, b) ? EQUAL : UNREAD;
}

/** {@link NEARLY} or {@link DIFFERENT} for two texts not equal: compare.ts compareText's 'fuzzy-high' at 0.92, or not. */
function nearness(a: string | null, b: string | null): number {
  return compactJaroWinklerFrom(a as string, b as string, NEAR) >= NEAR ? NEARLY : DIFFERENT;
}

/**
 * {@link nearness} of two streets not equal; {@link DIFFERENT} where their numbers or their
 * directionals differ ({@link numbersDiffer}, street-forms.ts); {@link NEARLY} for a
 * directional written before the street in one and after it in the other ("n main st" /
 * "main st n", as a directional dropped is).
 */
function streetNearness(a: string | null, b: string | null): number {
  if (numbersDiffer(a as string, b as string) || directionalsDiffer(a as string, b as string)) return DIFFERENT;
  return directionalMoved(a as string, b as string) ? NEARLY : nearness(a, b);
}

/**
 * Compares two addresses as one value: the same address (number, street, unit and, where
 * both have them, postal code or city); one character off in the number or postal code; the
 * same street in the same place; the same place only; a nearby place; or different. Missing
 * when the two share no comparable part. Files use this one comparison instead of the parts
 * (their agreements are one fact, not several: counted separately, a household's shared
 * address outweighs every name). Two streets are the same street when equal or nearly so,
 * but not with other numbers ("County Road 5", "County Road 7").
 *
 * Only the parts the levels read (not the building or state), each compared once; the city's
 * and the street's Jaro-Winkler only when the level differs between their being nearly equal
 * and not (the level is {@link levelOf}'s either way).
 */
export function compareWholeAddress(a: NormalizedAddress, b: NormalizedAddress): LevelName {
  const zip = compareCode(a.zip, b.zip);
  const number = compareCode(a.number, b.number, B_TYPO_ONLY);
  const unitOk = compareUnit(a.unit, b.unit) !== 'disagree';
  let street = textAtSight(a.street, b.street);
  let city = textAtSight(a.city, b.city);
  if (city === UNREAD) {
    const matters =
      street === UNREAD
        ? levelOf(zip, number, NEARLY, unitOk, NEARLY) !== levelOf(zip, number, NEARLY, unitOk, DIFFERENT) ||
          levelOf(zip, number, DIFFERENT, unitOk, NEARLY) !== levelOf(zip, number, DIFFERENT, unitOk, DIFFERENT)
        : levelOf(zip, number, street, unitOk, NEARLY) !== levelOf(zip, number, street, unitOk, DIFFERENT);
    // Either reading gives the same level whatever the street: the city is taken as different.
    city = matters ? nearness(a.city, b.city) : DIFFERENT;
  }
  if (street === UNREAD)
    street = levelOf(zip, number, NEARLY, unitOk, city) !== levelOf(zip, number, DIFFERENT, unitOk, city) ? streetNearness(a.street, b.street) : DIFFERENT;
  return levelOf(zip, number, street, unitOk, city);
}

/** The whole-address level from its parts' levels (`street`, `city`: {@link MISSING}, {@link EQUAL}, {@link NEARLY} or {@link DIFFERENT}). */
function levelOf(zip: LevelName, number: LevelName, street: number, unitOk: boolean, city: number): LevelName {
  const streetAgrees = street === EQUAL || street === NEARLY;
  const hasStreet = street !== MISSING && number !== 'missing';
  const zipKnown = zip !== 'missing';
  const cityKnown = city !== MISSING;
  const localityExact = zip === 'exact' || (!zipKnown && city === EQUAL) || (zip === 'typo' && city === EQUAL);
  const localityNear = zip === 'typo' || zip === 'prefix' || city === NEARLY || (zipKnown && zip !== 'exact' && city === EQUAL);
  const localityOk = localityExact || (!zipKnown && !cityKnown);
  if (hasStreet && number === 'exact' && streetAgrees && localityOk && unitOk) return 'exact';
  if (hasStreet && streetAgrees && unitOk && ((number === 'exact' && localityNear) || (number === 'typo' && localityOk))) return 'typo';
  if (streetAgrees && localityOk && (zipKnown || cityKnown)) return 'part';
  if (localityExact) return 'prefix';
  // The postal code one character off, no street or city to confirm it: the same place
  // misread (OCR, a keyed digit) more often than a neighbouring one.
  if (zip === 'typo') return 'fuzzy-high';
  if (localityNear) return 'partial';
  if (!zipKnown && !cityKnown && street === MISSING) return 'missing';
  return 'disagree';
}

/**
 * The best whole-address level over every pair of the two lists' addresses; 'partial' for
 * 'fuzzy-high' (a postal code one character off) where `levels` lacks it (a model saved before
 * it was a level).
 */
export function compareAddressLists(a: readonly NormalizedAddress[], b: readonly NormalizedAddress[], levels = ALL_LEVELS): LevelName {
  const best = bestAddressLevel(a, b);
  return best === 'fuzzy-high' && (levels & B_FUZZY_HIGH) === 0 ? 'partial' : best;
}

function bestAddressLevel(a: readonly NormalizedAddress[], b: readonly NormalizedAddress[]): LevelName {
  if (a.length === 0 || b.length === 0) return 'missing';
  let best: LevelName = 'missing';
  for (const x of a) {
    for (const y of b) {
      const level = compareWholeAddress(x, y);
      if ((ADDRESS_RANK[level] ?? 0) > (ADDRESS_RANK[best] ?? 0)) best = level;
      if (best === 'exact') return best;
    }
  }
  return best;
}

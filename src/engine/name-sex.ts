/**
 * The sex a given name is given to, where US birth records show it almost only for girls or
 * almost only for boys (data/names/ssa-given-names.csv through src/engine/generated/name-sex.ts).
 * Two nearly equal first names of opposite sexes ("Antonio" / "Antonia", "Francis" /
 * "Frances", "Alexander" / "Alexandra", "Louis" / "Louise") are a brother and a sister, or a
 * couple, not one name mistyped: name-compare.ts reads them as another given name.
 */
import { FEMALE_NAMES, MALE_NAMES } from './generated/name-sex.js';

/** A name's sex: female or male; null when unknown (not in the lists, or given to both). */
export type NameSex = 'F' | 'M' | null;

let table: Map<string, 'F' | 'M'> | null = null;

function sexTable(): Map<string, 'F' | 'M'> {
  if (table !== null) return table;
  const t = new Map<string, 'F' | 'M'>();
  for (const name of FEMALE_NAMES.split(' ')) t.set(name, 'F');
  for (const name of MALE_NAMES.split(' ')) t.set(name, 'M');
  table = t;
  return t;
}

/** The sex of a compact (folded, letters only) given name. */
export function sexOfName(compact: string): NameSex {
  return sexTable().get(compact) ?? null;
}

/**
 * True when two given names are of opposite sexes and neither is a short form of the other
 * by truncation ("Sam" of "Samantha",
 * "Max" of "Maxine", "Alex" of "Alexandra": a woman may go by a name given mostly to boys). A feminine ending on the whole name ("Louis" /
 * "Louise", "Paul" / "Paula") is two names.
 */
export function oppositeSexNames(a: string, b: string, sexA: NameSex, sexB: NameSex): boolean {
  if (sexA === null || sexB === null || sexA === sexB) return false;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return !(long.length >= short.length + 2 && long.startsWith(short));
}

/**
 * True when `long` is `short` with an "a" added, the way most European languages make a
 * woman's name of a man's (Evgeniy / Evgeniya, Aleksandr / Aleksandra, Vladislav /
 * Vladislava, Jan / Jana): the shape only; name-compare.ts decides, with the lists and the
 * nickname tables, whether the two are such a pair or a woman's name cut short (Kayl / Kayla).
 * Not for a short name ending in a vowel (Eli / Elia, Ann / Anna).
 */
export function feminineInA(short: string, long: string): boolean {
  if (short.length < 3 || !long.endsWith('a')) return false;
  if (/[^aeiouy]$/.test(short)) return long === `${short}a`;
  // Evgeniy / Evgeniya, and Евгений / Евгения as they fold (evgenii / evgeniya).
  if (short.length < 5 || !/[iy]$/.test(short)) return false;
  return long === `${short}a` || long === `${short.slice(0, -1)}ya`;
}

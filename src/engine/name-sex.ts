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
 * by truncation ("Sam" of "Samantha", "Max" of "Maxine", "Alex" of "Alexandra": a woman may
 * go by a name given mostly to boys). A feminine ending on the whole name ("Louis" /
 * "Louise", "Paul" / "Paula") is two names.
 */
export function oppositeSexNames(a: string, b: string, sexA: NameSex, sexB: NameSex): boolean {
  if (sexA === null || sexB === null || sexA === sexB) return false;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return !(long.length >= short.length + 2 && long.startsWith(short));
}

/**
 * A person's sex as files and requests write it: the contract's one-letter codes (M, F) in
 * any case, and the words forms and files use ("male", "Female", "man", "woman"). Anything
 * else (U, X, "unknown", "other") is no value: it can neither agree nor disagree.
 */
import { foldText } from './fold.js';
import type { Sex } from './types.js';

/** Spellings of each sex, folded. */
export const SEX_SPELLINGS: Readonly<Record<string, Sex>> = {
  m: 'm',
  male: 'm',
  man: 'm',
  boy: 'm',
  masculine: 'm',
  masc: 'm',
  hombre: 'm',
  masculino: 'm',
  f: 'f',
  female: 'f',
  woman: 'f',
  girl: 'f',
  feminine: 'f',
  fem: 'f',
  w: 'f',
  mujer: 'f',
  femenino: 'f',
};

/** "m", "f", or null for anything else. Total. */
export function normalizeSex(text: string | null | undefined): Sex | null {
  if (typeof text !== 'string' || text.length === 0 || text.length > 20) return null;
  return SEX_SPELLINGS[foldText(text)] ?? null;
}

/** Titles that say a sex, folded. */
const TITLE_SEXES: Readonly<Record<string, Sex>> = { mr: 'm', mister: 'm', mrs: 'f', ms: 'f', miss: 'f' };

/**
 * The sex a title says ("Mr" / "Mrs", "Ms", "Miss"), or null ("Dr", "Rev", none). Spouses of
 * one unisex name (Pat, Chris, Jordan) share a landline, an email and an address; their
 * titles tell them apart. (A CRM's title field; files leave it out: their messy first names
 * carry titles that do not say the person's sex often enough.)
 */
export function sexOfTitle(title: string | null | undefined): Sex | null {
  if (typeof title !== 'string' || title.length === 0 || title.length > 20) return null;
  return TITLE_SEXES[foldText(title)] ?? null;
}

/** The first word of a first name when it is a title that says a sex ("Mrs. Pat" -> "Mrs"), else null. */
export function sexedTitleOf(firstName: string | null | undefined): string | null {
  if (typeof firstName !== 'string' || firstName.length > 100) return null;
  const word = /^\s*([a-z]+)\.?\s+\S/i.exec(firstName);
  return word !== null && TITLE_SEXES[(word[1] as string).toLowerCase()] !== undefined ? (word[1] as string) : null;
}

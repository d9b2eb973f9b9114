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

/**
 * The name an email address spells, for a record that gives no name of its own: web sign-ups
 * and newsletter lists often hold only "ali.nasser1800353@gmail.com" or
 * "christopherburinley121699@gmail.com", while another source of the same person holds "Ali
 * Nasser" or "Christopher Burinley" and no email. Read from the local part:
 * - separated words ("ali.nasser", "mary_ann_smith"): the first is the first name, the last the
 *   surname, each of letters only (digits dropped), two letters or more each;
 * - one run of letters ("christopherburinley"): split after the longest known given name it
 *   begins with (the nickname tables' names, three letters or more), when that leaves a
 *   surname of three letters or more; else no name (the run may be a nickname, a word, an
 *   initial and a surname).
 * Shared and placeholder mailboxes (info@, smithfamily@, none@none.com) spell no one's name.
 * Pure; null when the address spells no name.
 */
import { nicknameGroupsOf, type NicknameTable } from './nicknames.js';
import { isPlaceholderEmail, isSharedEmail, type PlaceholderTable } from './placeholders.js';

/** A name read from an email's local part. */
export interface EmailName {
  readonly firstName: string;
  readonly lastName: string;
}

/** Generations written after a surname in a local part. */
const GENERATIONS: ReadonlySet<string> = new Set(['jr', 'sr', 'ii', 'iii', 'iv']);

/** Shortest given name and surname read from a run of letters with no separator. */
const MIN_PART = 3;
/** Letters of a run split at a given name: longer runs are rarely a first name and a surname alone. */
const MAX_RUN = 30;

/**
 * The name `email` (normalized: lower case, one "@") spells, or null. `nicknames`: the names
 * that may begin a run of letters; `placeholders`: the mailboxes that name no one.
 */
export function nameFromEmail(email: string, nicknames: NicknameTable, placeholders: PlaceholderTable): EmailName | null {
  const at = email.lastIndexOf('@');
  if (at <= 0 || isPlaceholderEmail(placeholders, email) || isSharedEmail(placeholders, email)) return null;
  const local = email.slice(0, at).toLowerCase();
  // The words of the local part, letters only ("ali.nasser1800353" -> ali, nasser).
  const words = local
    .split(/[._\-+]+/)
    .map((w) => w.replace(/[^a-z]+/g, ''))
    .filter((w) => w.length > 0);
  // "john.smith.jr": the generation is no surname.
  while (words.length > 2 && GENERATIONS.has(words[words.length - 1] as string)) words.pop();
  if (words.length >= 2) {
    const first = words[0] as string;
    const last = words[words.length - 1] as string;
    // An initial ("l.webb") names too little to tell a person, and read wrong ("l webb" for a
    // row of Webb Logan, names swapped) it would part rows the email alone joins.
    return first.length >= 2 && last.length >= 2 && last !== first ? { firstName: first, lastName: last } : null;
  }
  const run = words[0];
  if (run === undefined || run.length < 2 * MIN_PART || run.length > MAX_RUN) return null;
  // The longest given name the run begins with; a rest too short for a surname makes the
  // split a guess ("isabelleh": not "isabel leh"), so no name.
  for (let cut = run.length; cut >= MIN_PART; cut--) {
    const first = run.slice(0, cut);
    if (nicknameGroupsOf(nicknames, first).length === 0) continue;
    return run.length - cut >= MIN_PART ? { firstName: first, lastName: run.slice(cut) } : null;
  }
  return null;
}

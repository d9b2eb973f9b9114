/**
 * Person-name normalization: folding, punctuation, particles, compound surnames, and
 * generational suffixes kept apart (Jr and Sr are different people).
 */
import { foldLatin, foldText } from './fold.js';
import type { NameSuffix, NormalizedName } from './types.js';

/** Generational suffix spellings -> canonical suffix. Professional ones (MD, PhD) are not here. */
export const GENERATIONAL_SUFFIXES: ReadonlyMap<string, NameSuffix> = new Map<string, NameSuffix>([
  ['jr', 'jr'],
  ['junior', 'jr'],
  ['jnr', 'jr'],
  ['sr', 'sr'],
  ['senior', 'sr'],
  ['snr', 'sr'],
  ['ii', 'ii'],
  ['2nd', 'ii'],
  ['2', 'ii'],
  ['iii', 'iii'],
  ['3rd', 'iii'],
  ['3', 'iii'],
  ['iv', 'iv'],
  ['4th', 'iv'],
  ['4', 'iv'],
  ['v', 'v'],
  ['5th', 'v'],
]);

/** Professional and academic suffixes dropped from names ("Jane Doe MD"). */
export const PROFESSIONAL_SUFFIXES: ReadonlySet<string> = new Set(['md', 'phd', 'dds', 'dmd', 'esq', 'cpa', 'rn', 'jd', 'dvm', 'do', 'mba', 'ret']);

/** Honorifics dropped when they lead a name field ("Dr. Robert"). */
export const HONORIFICS: ReadonlySet<string> = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'dr',
  'prof',
  'rev',
  'hon',
  'sir',
  'dame',
  'fr',
  'sen',
  'rep',
  'lord',
  'lady',
  'capt',
  'captain',
  'col',
  'colonel',
  'lt',
  'sgt',
  'rabbi',
  'imam',
  'pastor',
  'mister',
  'madam',
  'madame',
  'mme',
  'mlle',
  'herr',
  'frau',
  'senor',
  'senora',
  'sra',
  'srta',
  'monsieur',
  'reverend',
  'revd',
  'missus',
  'mistress',
  'maj',
  'doctor',
  'professor',
  'master',
]);

/**
 * Titles that, standing alone in the first-name field, are no first name ("Sir" Walter
 * Raleigh filed as first name "Sir"): read as missing. Historical and clerical records do
 * this often. Titles that are also common given names (Earl, Prince, King, Don) are not here.
 */
export const TITLES: ReadonlySet<string> = new Set([
  ...HONORIFICS,
  'father',
  'sister',
  'brother',
  'mother',
  'general',
  'gen',
  'major',
  'admiral',
  'adm',
  'commander',
  'cmdr',
  'corporal',
  'cpl',
  'private',
  'pvt',
  'sergeant',
  'lieutenant',
  'bishop',
  'archbishop',
  'cardinal',
  'duke',
  'duchess',
  'countess',
  'baron',
  'baroness',
  'viscount',
  'viscountess',
  'marquess',
  'marquis',
  'marchioness',
  'senator',
  'governor',
  'gov',
  'judge',
  'justice',
  'president',
  'pres',
  'saint',
  'widow',
]);

/**
 * Title abbreviations that, alone in the first-name field, are more likely a first name a
 * form cut to two letters ("Fr" for Frances, Frank, Fred) than a title with no name.
 */
const NAME_PREFIX_TITLES: ReadonlySet<string> = new Set(['fr']);

/**
 * Surname particles: not a surname on their own ("de la Cruz" vs "Cruz" share "cruz").
 * Sources: common Romance, Germanic and Dutch particles.
 */
export const SURNAME_PARTICLES: ReadonlySet<string> = new Set([
  'de',
  'del',
  'della',
  'der',
  'den',
  'di',
  'da',
  'das',
  'dos',
  'du',
  'la',
  'le',
  'lo',
  'van',
  'von',
  'ter',
  'ten',
  'y',
  'e',
  'st',
  'saint',
  'al',
  'el',
  'bin',
  'ibn',
  'ben',
  'mac',
]);

/**
 * Abbreviations of given names as clerks wrote them in registers, censuses and parish books
 * (folded, without the dot) -> the name: "Wm." is William, "Thos" Thomas, "Xpher"
 * Christopher. Only contractions that stand for one name (not "Fras", Francis or Frances,
 * nor "Sam" or "Fred", which are nicknames the nickname table already joins). Expanded in
 * the first-name field, so that comparisons, blocking keys and clustering read the name.
 */
export const GIVEN_NAME_ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['wm', 'william'],
  ['willm', 'william'],
  ['wilm', 'william'],
  ['thos', 'thomas'],
  ['tho', 'thomas'],
  ['jno', 'john'],
  ['jn', 'john'],
  ['jas', 'james'],
  ['geo', 'george'],
  ['chas', 'charles'],
  ['jos', 'joseph'],
  ['richd', 'richard'],
  ['robt', 'robert'],
  ['saml', 'samuel'],
  ['edwd', 'edward'],
  ['edw', 'edward'],
  ['benj', 'benjamin'],
  ['benjn', 'benjamin'],
  ['danl', 'daniel'],
  ['fredk', 'frederick'],
  ['fredc', 'frederick'],
  ['henr', 'henry'],
  ['alexr', 'alexander'],
  ['nathl', 'nathaniel'],
  ['jonth', 'jonathan'],
  ['xpher', 'christopher'],
  ['xtopher', 'christopher'],
  ['eliz', 'elizabeth'],
  ['elizth', 'elizabeth'],
  ['margt', 'margaret'],
  ['mgt', 'margaret'],
  ['cath', 'catherine'],
  ['hanh', 'hannah'],
  ['susna', 'susannah'],
  ['isc', 'isaac'],
  ['jacb', 'jacob'],
  ['isab', 'isabella'],
  ['mattw', 'matthew'],
  ['abm', 'abraham'],
  ['abrm', 'abraham'],
  ['anty', 'anthony'],
  ['archd', 'archibald'],
  ['gilbt', 'gilbert'],
  ['patk', 'patrick'],
]);

/** A first name whose first word is a register abbreviation, with that word expanded ("wm henry" -> "william henry"). */
function expandAbbreviation(first: string): string {
  const space = first.indexOf(' ');
  const word = space === -1 ? first : first.slice(0, space);
  const full = GIVEN_NAME_ABBREVIATIONS.get(word);
  return full === undefined ? first : space === -1 ? full : `${full}${first.slice(space)}`;
}

/** Raw name parts as supplied. */
export interface NameInput {
  readonly firstName?: string | null | undefined;
  readonly middleName?: string | null | undefined;
  readonly lastName?: string | null | undefined;
  readonly suffix?: string | null | undefined;
}

function nonEmpty(text: string): string | null {
  return text.length > 0 ? text : null;
}

/** Canonical generational suffix of a folded token, or null. */
export function parseSuffix(text: string | null | undefined): NameSuffix | null {
  if (!text) return null;
  const folded = foldText(text).replace(/ /g, '');
  return GENERATIONAL_SUFFIXES.get(folded) ?? null;
}

/**
 * Normalizes name parts. Every part is folded (lower case, no accents, other scripts
 * transliterated to Latin) with punctuation
 * turned into single spaces ("O'Brien" -> "o brien", "García-López" -> "garcia lopez");
 * comparators read the compact form too, so "O'Brien" = "OBrien". A generational suffix
 * found at the end of the last name ("Smith Jr.") moves to `suffix`; a first name that is
 * only a title ("Sir", "Lady") is missing, and a clerk's abbreviation of a given name is
 * expanded ("Wm." -> "william"). Total and idempotent on its own output.
 */
export function normalizeName(input: NameInput): NormalizedName {
  let suffix = parseSuffix(input.suffix);
  let first = stripHonorifics(foldLatin(input.firstName ?? ''));
  if (TITLES.has(first) && !NAME_PREFIX_TITLES.has(first)) first = '';
  first = expandAbbreviation(first);
  const middle = foldLatin(input.middleName ?? '');
  const lastText = foldLatin(input.lastName ?? '');
  // One word (most surnames): no split, no suffix to take off.
  if (lastText.indexOf(' ') === -1) return { first: nonEmpty(first), middle: nonEmpty(middle), last: nonEmpty(lastText), suffix };
  let lastTokens = lastText.split(' ').filter((t) => t.length > 0);
  // Trailing suffixes in the surname field: "smith jr", "doe md". Keep at least one token.
  while (lastTokens.length > 1) {
    const tail = lastTokens[lastTokens.length - 1] ?? '';
    const generational = GENERATIONAL_SUFFIXES.get(tail);
    // A lone "v"/"ii" after a real surname is a suffix; digits alone too.
    if (generational !== undefined) {
      suffix ??= generational;
      lastTokens = lastTokens.slice(0, -1);
    } else if (PROFESSIONAL_SUFFIXES.has(tail)) {
      lastTokens = lastTokens.slice(0, -1);
    } else break;
  }
  return {
    first: nonEmpty(first),
    middle: nonEmpty(middle),
    last: nonEmpty(lastTokens.join(' ')),
    suffix,
  };
}

/**
 * Strips the honorifics a first name begins with, also a couple's ("Mr. & Mrs. John": "mr mrs
 * john", "Mr. and Mrs. John", "Dr. and Mrs. John" -> "john", the name a joint record is filed
 * under), keeping at least one word.
 */
function stripHonorifics(text: string): string {
  let rest = stripLeading(text, HONORIFICS);
  if (rest === text) return text;
  for (;;) {
    const after = rest.startsWith('and ') ? rest.slice(4) : rest;
    // "Mr. and Mrs." alone: the last honorific stays, a title with no name (read as missing).
    if (after !== rest && HONORIFICS.has(after)) return after;
    const next = stripLeading(after, HONORIFICS);
    if (next === after) return rest;
    rest = next;
  }
}

function stripLeading(text: string, words: ReadonlySet<string>): string {
  const space = text.indexOf(' ');
  if (space > 0 && words.has(text.slice(0, space))) return text.slice(space + 1);
  return text;
}

/** Removes spaces: the form names are compared in ("de la cruz" -> "delacruz"). */
export function compactName(name: string): string {
  return name.indexOf(' ') === -1 ? name : name.replace(/ /g, '');
}

/**
 * The surname's significant parts: tokens that are not particles ("garcia lopez" ->
 * ["garcia", "lopez"]; "de la cruz" -> ["cruz"]). Used for the "one part of a compound
 * surname agrees" level.
 */
export function surnameParts(last: string): readonly string[] {
  if (last.indexOf(' ') === -1) return [last];
  const parts = last.split(' ').filter((t) => t.length > 1 && !SURNAME_PARTICLES.has(t));
  return parts.length > 0 ? parts : [compactName(last)];
}

/** True when a name field holds only a title ("Sir", "Mrs.", "Dr"): no name at all. */
export function isTitle(text: string): boolean {
  return TITLES.has(foldText(text));
}

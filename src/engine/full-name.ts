/**
 * Splits a single full-name field ("Smith, Robert J.", "Dr. Robert J Smith Jr") into first,
 * middle and last names and a generational suffix, for files that hold a person's name in
 * one column.
 *
 * Two written orders are recognised:
 * - "Last, Given Names[, Suffix...]": a comma followed by something that is not only
 *   suffixes ("Smith, Robert J., Jr.", "de la Cruz, Maria").
 * - "[Honorific] Given Names Last [Suffix...]": everything else ("Dr. Robert J Smith Jr",
 *   "Robert Smith, Jr., M.D.", "Ludwig van Beethoven").
 *
 * Honorifics (Dr, Mrs...) and professional suffixes (MD, PhD...) are dropped; a generational
 * suffix (Jr, Sr, II...) is kept apart because Jr and Sr are different people. Nicknames in
 * parentheses or double quotes ("Robert (Bob) Smith") are dropped. The last name takes the
 * surname particles written before it ("van", "de la"; lower-case-only particles such as
 * "y" or "bin" count only when written in lower case). A lone name is a first name, unless
 * an honorific or a suffix came with it ("Dr. Smith", "Smith Jr"): then it is a surname. A
 * lone honorific ("Dr.") is no name at all.
 *
 * Parts keep the spelling of the input (the engine folds them later), except a suffix, which
 * loses its trailing periods ("Jr." -> "Jr"). Total: any string in, parts out; never throws.
 * Linear in the input's length (no backtracking regex).
 */
import { foldCompact } from './fold.js';
import { GENERATIONAL_SUFFIXES, HONORIFICS, PROFESSIONAL_SUFFIXES, SURNAME_PARTICLES } from './name.js';

/** The parts of a full name; null when absent. Assignable to the engine's NameInput. */
export interface FullNameParts {
  readonly firstName: string | null;
  readonly middleName: string | null;
  readonly lastName: string | null;
  readonly suffix: string | null;
}

/**
 * Surname particles that mark the start of a surname even when capitalised ("Juan De La
 * Cruz"). The other SURNAME_PARTICLES ("y", "e", "al", "el", "ben", "bin", "mac"...) are also
 * given names or initials, so they count only when written in lower case ("Ana y Lopez").
 */
export const CAPITALISED_PARTICLES: ReadonlySet<string> = new Set([
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
  'van',
  'von',
  'ter',
  'ten',
  'st',
  'saint',
]);

/** Generational suffixes that are read as such only after two name words ("John Smith V"). */
const WEAK_SUFFIXES: ReadonlySet<string> = new Set(['v', '2', '3', '4']);

const EMPTY: FullNameParts = { firstName: null, middleName: null, lastName: null, suffix: null };

/** A word of the name as written, with its folded key ("Jr." -> "jr", "Ph.D." -> "phd"). */
interface Token {
  readonly text: string;
  readonly key: string;
}

const PLAIN_WORD = /^[A-Z]+$/i;

function keyOf(text: string): string {
  return PLAIN_WORD.test(text) ? text.toLowerCase() : foldCompact(text);
}

function isHonorific(token: Token): boolean {
  return HONORIFICS.has(token.key);
}

function isGenerational(token: Token, weakAllowed: boolean): boolean {
  if (!GENERATIONAL_SUFFIXES.has(token.key)) return false;
  return weakAllowed || !WEAK_SUFFIXES.has(token.key);
}

function isProfessional(token: Token): boolean {
  return PROFESSIONAL_SUFFIXES.has(token.key);
}

function isParticle(token: Token): boolean {
  if (!SURNAME_PARTICLES.has(token.key)) return false;
  return CAPITALISED_PARTICLES.has(token.key) || token.text === token.text.toLowerCase();
}

/** A suffix as output: the token without its trailing periods ("Jr." -> "Jr"). */
function suffixText(token: Token): string {
  const text = token.text;
  let end = text.length;
  while (end > 0 && text[end - 1] === '.') end--;
  return text.slice(0, end);
}

/** Words of a segment; tokens without a letter or digit ("&", "-") are dropped. */
function words(segment: string): Token[] {
  const out: Token[] = [];
  for (const text of segment.split(/\s+/)) {
    if (text.length === 0) continue;
    const key = keyOf(text);
    if (key.length > 0) out.push({ text, key });
  }
  return out;
}

/** Removes "(Bob)" and "\"Bob\"" nicknames, then any stray bracket or quote. */
function dropNicknames(text: string): string {
  if (!/[()"“”]/.test(text)) return text;
  return text
    .replace(/\([^()]*\)/g, ' ')
    .replace(/"[^"]*"/g, ' ')
    .replace(/[“”][^“”]*[“”]/g, ' ')
    .replace(/[()"“”]/g, ' ');
}

/** True when every word of a segment is a suffix (generational or professional). */
function onlySuffixes(segment: readonly Token[]): boolean {
  return segment.every((t) => isGenerational(t, true) || isProfessional(t));
}

interface Stripped {
  readonly tokens: Token[];
  readonly suffix: string | null;
  readonly stripped: boolean;
}

/**
 * Removes trailing suffixes, keeping at least `keep` tokens; a weak suffix ("V", "2") only
 * when at least two name words stand before it and `weak` allows it.
 */
function stripTrailingSuffixes(tokens: readonly Token[], keep: number, weak: boolean): Stripped {
  const out = [...tokens];
  let suffix: string | null = null;
  let stripped = false;
  while (out.length > keep) {
    const tail = out[out.length - 1] as Token;
    if (isGenerational(tail, weak && out.length >= 3)) {
      suffix = suffixText(tail);
    } else if (!isProfessional(tail)) break;
    out.pop();
    stripped = true;
  }
  return { tokens: out, suffix, stripped };
}

/** Removes leading honorifics, keeping at least `keep` tokens. */
function stripLeadingHonorifics(tokens: readonly Token[], keep: number): { tokens: Token[]; stripped: boolean } {
  let start = 0;
  while (tokens.length - start > keep && isHonorific(tokens[start] as Token)) start++;
  return { tokens: tokens.slice(start), stripped: start > 0 };
}

/** The first generational suffix among a list of tokens, as output text. */
function firstGenerational(tokens: readonly Token[]): string | null {
  const found = tokens.find((t) => isGenerational(t, true));
  return found === undefined ? null : suffixText(found);
}

function joinOrNull(tokens: readonly Token[]): string | null {
  return tokens.length > 0 ? tokens.map((t) => t.text).join(' ') : null;
}

/** Parses "Last, Given Names" with the segments after the comma. */
function parseLastFirst(segments: readonly Token[][]): FullNameParts {
  const lastWords = stripLeadingHonorifics(segments[0] ?? [], 1).tokens;
  const last = stripTrailingSuffixes(lastWords, 1, false);
  // The segment after the first comma holds the given names; later segments are suffixes
  // ("Smith, Robert, Jr.") or more given names.
  let given: Token[] = [...(segments[1] ?? [])];
  const trailing: Token[] = [];
  for (const segment of segments.slice(2)) {
    if (onlySuffixes(segment)) trailing.push(...segment);
    else given.push(...segment);
  }
  given = stripLeadingHonorifics(given, 0).tokens;
  // Suffixes written after the given names: "Smith, Robert Jr." ("V" stays a middle initial).
  const tail = stripTrailingSuffixes(given, 0, false);
  given = tail.tokens;
  const suffix = last.suffix ?? tail.suffix ?? firstGenerational(trailing);
  return {
    firstName: given[0]?.text ?? null,
    middleName: joinOrNull(given.slice(1)),
    lastName: joinOrNull(last.tokens),
    suffix,
  };
}

/** Parses "[Honorific] Given Names Last [Suffix]" plus suffix segments after commas. */
function parseNatural(tokens: readonly Token[], trailing: readonly Token[]): FullNameParts {
  const honorifics = stripLeadingHonorifics(tokens, 0);
  const suffixes = stripTrailingSuffixes(honorifics.tokens, 1, true);
  const rest = suffixes.tokens;
  const suffix = suffixes.suffix ?? firstGenerational(trailing);
  if (rest.length === 0) return { ...EMPTY, suffix };
  if (rest.length === 1) {
    const lone = (rest[0] as Token).text;
    const surname = honorifics.stripped || suffixes.stripped || suffix !== null;
    return surname ? { firstName: null, middleName: null, lastName: lone, suffix } : { firstName: lone, middleName: null, lastName: null, suffix };
  }
  // The surname is the last word plus the particles before it; one word stays the first name.
  let lastStart = rest.length - 1;
  while (lastStart > 1 && isParticle(rest[lastStart - 1] as Token)) lastStart--;
  return {
    firstName: (rest[0] as Token).text,
    middleName: joinOrNull(rest.slice(1, lastStart)),
    lastName: joinOrNull(rest.slice(lastStart)),
    suffix,
  };
}

/** Splits a full name into its parts (see the file comment). Total. */
export function parseFullName(text: string | null | undefined): FullNameParts {
  if (typeof text !== 'string' || text.length === 0) return EMPTY;
  const segments = dropNicknames(text).split(',').map(words);
  const first = segments[0] ?? [];
  const later = segments.slice(1).filter((s) => s.length > 0);
  // "Smith, Robert", and "Smith," / "Smith, , Jr" (a surname whose given names are missing).
  const lastFirst = later.some((s) => !onlySuffixes(s)) || (first.length > 0 && segments[1]?.length === 0);
  if (lastFirst) return parseLastFirst([first, ...segments.slice(1)]);
  return parseNatural(first, later.flat());
}

/**
 * Writes parts back as "Last, First Middle, Suffix" ("Smith, , Jr" without given names),
 * the form {@link parseFullName} reads back to the same parts; "" when every part is null.
 * Not invertible when the given names end in a suffix word ("Smith, Jr" reads as a suffix).
 */
export function formatFullName(parts: FullNameParts): string {
  const given = [parts.firstName, parts.middleName].filter((p): p is string => p !== null && p.length > 0).join(' ');
  const last = parts.lastName ?? '';
  const suffix = parts.suffix === null ? '' : `, ${parts.suffix}`;
  if (last.length === 0 && given.length === 0) return suffix;
  return `${last}, ${given}${suffix}`;
}

/**
 * Case and accent folding (interface.md 1.4: matching ignores case and accents).
 *
 * NFKD decomposes accented letters and ligatures ("é" -> "e" + U+0301, "ﬁ" -> "fi"), then
 * combining marks are dropped. Letters that have no decomposition (ß, æ, ø, ł, đ, ı, þ...)
 * are mapped by LETTER_FOLDS. Built-in `String.prototype.normalize` replaces `unorm`: same
 * output, 4-7x faster (bench/deps.bench.ts).
 */
import anyAscii from 'any-ascii';

/** Letters that NFKD leaves alone, folded to their conventional Latin transliteration. */
export const LETTER_FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  Æ: 'ae',
  ø: 'o',
  Ø: 'o',
  ł: 'l',
  Ł: 'l',
  đ: 'd',
  Đ: 'd',
  ð: 'd',
  Ð: 'd',
  þ: 'th',
  Þ: 'th',
  ı: 'i',
  œ: 'oe',
  Œ: 'oe',
  ŋ: 'n',
  Ŋ: 'n',
  ħ: 'h',
  Ħ: 'h',
  ŧ: 't',
  Ŧ: 't',
  ĸ: 'k',
  ſ: 's',
  ƒ: 'f',
  ɐ: 'a',
};

const COMBINING_MARKS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
const UNFOLDED_LETTERS = /[ßẞæÆøØłŁđĐðÐþÞıœŒŋŊħĦŧŦĸſƒɐ]/g;
// Only ASCII needs no work; a quick test lets the common case skip normalize().
const NON_ASCII = /[\u0080-\uffff]/;
/** Lone surrogates make `normalize` keep garbage; replace them so folding stays total. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Lower-cases and removes accents: "Pérez" -> "perez", "Straße" -> "strasse",
 * "Łukasz" -> "lukasz". Total: any string in, a string out. Idempotent.
 */
export function foldCase(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  // Lower case of the upper case: letters with several lower forms (Greek final sigma, the
  // Cyrillic "rounded ve" U+1C80) fold to one. Lower-casing can itself produce decomposable
  // letters (e.g. "İ" -> "i̇"), so the result is stripped again when it is not ASCII.
  const lower = stripMarks(text.replace(LONE_SURROGATE, '')).toUpperCase().toLowerCase();
  return NON_ASCII.test(lower) ? stripMarks(lower) : lower;
}

function stripMarks(text: string): string {
  return text
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .replace(UNFOLDED_LETTERS, (ch) => LETTER_FOLDS[ch] ?? ch);
}

/**
 * Folds case and accents, turns every run of characters that is not a letter or digit into
 * one space, and trims. "O'Brien-Smith, Jr." -> "o brien smith jr". Idempotent.
 */
export function foldText(text: string): string {
  const folded = foldCase(text);
  if (isPlainWords(folded)) return folded;
  return folded.replace(NOT_LETTER_OR_DIGIT, ' ').trim();
}

const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;

/**
 * True when `text` is ASCII letters and digits with single spaces between them (most folded
 * names and address parts): {@link foldText}'s replacement and trim would leave it as it is,
 * and a scan is cheaper than the Unicode regular expression.
 */
function isPlainWords(text: string): boolean {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) continue;
    if (c === 32 && i > 0 && i < n - 1 && text.charCodeAt(i - 1) !== 32) continue;
    return false;
  }
  return true;
}

/**
 * {@link foldText}, then any letters of other scripts transliterated to Latin by any-ascii
 * (a maintained table of Unicode to ASCII: "Александр" -> "aleksandr", "Αλέξανδρος" ->
 * "alexandros", "محمد" -> "mhmd"), so that a name written in Cyrillic, Greek or Arabic
 * compares with its romanization. Text that folds to ASCII is returned as foldText gives it.
 * Idempotent.
 */
export function foldLatin(text: string): string {
  const folded = foldText(text);
  return NON_ASCII.test(folded) ? foldText(anyAscii(folded)) : folded;
}

/** Folds and removes every non letter or digit: "O'Brien" -> "obrien". Idempotent. */
export function foldCompact(text: string): string {
  const folded = foldCase(text);
  if (isPlainWords(folded) && folded.indexOf(' ') === -1) return folded;
  return folded.replace(NOT_LETTER_OR_DIGIT, '');
}

/**
 * Character-level corruption of one value, as the error processes of real files make it:
 * OCR confusions of scanned print, handwriting confusions of transcribed registers, keyboard
 * slips of re-keying (the digit row included: "david" -> "dav9d"), phonetic spelling variants
 * of names, and one-digit typos in numbers.
 *
 * Every function returns a string different from its input, or null when the process cannot
 * apply to this value (no confusable character, no digit...). Each changes one spot, so the
 * length moves by at most 1 (a two-character confusion such as rn/m).
 */
import type { Rng } from '../prng.js';

/** Pairs confused by OCR of printed text, both ways (lower case and digits). */
export const OCR_PAIRS_LOWER: readonly (readonly [string, string])[] = [
  ['o', '0'],
  ['l', '1'],
  ['i', '1'],
  ['l', 'i'],
  ['s', '5'],
  ['b', '8'],
  ['rn', 'm'],
  ['vv', 'w'],
  ['cl', 'd'],
  ['e', 'c'],
  ['u', 'v'],
  ['n', 'h'],
  ['g', '9'],
  ['z', '2'],
  ['y', 'v'],
  ['a', 'o'],
  ['f', 't'],
  ['ri', 'n'],
  ['li', 'h'],
  ['q', 'g'],
  ['c', 'o'],
  ['t', 'l'],
];

/** The same for upper-case print. */
export const OCR_PAIRS_UPPER: readonly (readonly [string, string])[] = [
  ['O', '0'],
  ['D', '0'],
  ['Q', 'O'],
  ['I', '1'],
  ['I', 'l'],
  ['S', '5'],
  ['B', '8'],
  ['Z', '2'],
  ['G', '6'],
  ['G', 'C'],
  ['E', 'F'],
  ['U', 'V'],
  ['RN', 'M'],
  ['VV', 'W'],
  ['CL', 'D'],
  ['P', 'R'],
  ['H', 'N'],
  ['T', 'I'],
  ['Y', 'V'],
  ['A', '4'],
];

/** Digit confusions of OCR (zip codes, house numbers), to digits and to letters. */
export const OCR_PAIRS_DIGITS: readonly (readonly [string, string])[] = [
  ['1', '7'],
  ['3', '8'],
  ['6', '5'],
  ['0', '8'],
  ['5', '6'],
  ['8', '9'],
  ['4', '9'],
  ['2', '7'],
];
const OCR_DIGIT_TO_LETTER: readonly (readonly [string, string])[] = [
  ['0', 'o'],
  ['1', 'l'],
  ['5', 's'],
  ['8', 'b'],
  ['2', 'z'],
  ['9', 'g'],
  ['6', 'b'],
];

/** Letters misread in old handwriting (transcriptions of registers and censuses). */
export const HANDWRITING_PAIRS: readonly (readonly [string, string])[] = [
  ['u', 'n'],
  ['a', 'o'],
  ['e', 'i'],
  ['m', 'n'],
  ['m', 'rn'],
  ['n', 'ri'],
  ['t', 'l'],
  ['h', 'k'],
  ['c', 'e'],
  ['ii', 'u'],
  ['a', 'u'],
  ['r', 'v'],
  ['I', 'J'],
  ['T', 'F'],
  ['S', 'L'],
  ['M', 'W'],
  ['U', 'V'],
  ['H', 'K'],
  ['ss', 'fs'],
];

interface Spot {
  readonly at: number;
  readonly from: string;
  readonly to: string;
}

/** All places in `text` where one of the pairs applies (either direction). */
function spots(text: string, pairs: readonly (readonly [string, string])[]): Spot[] {
  const out: Spot[] = [];
  for (const [a, b] of pairs) {
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      for (let at = text.indexOf(from); at >= 0; at = text.indexOf(from, at + 1)) out.push({ at, from, to });
    }
  }
  return out;
}

function replaceSpot(text: string, spot: Spot): string {
  return text.slice(0, spot.at) + spot.to + text.slice(spot.at + spot.from.length);
}

/** One confusion from `pairs` at a random applicable spot, or null. */
export function confuse(text: string, pairs: readonly (readonly [string, string])[], rng: Rng): string | null {
  const found = spots(text, pairs);
  if (found.length === 0) return null;
  return replaceSpot(text, rng.pick(found));
}

/** One OCR confusion in a name (upper- or lower-case print, chosen by the text). */
export function ocrName(text: string, rng: Rng): string | null {
  const upper = text === text.toUpperCase() && text !== text.toLowerCase();
  return confuse(text, upper ? OCR_PAIRS_UPPER : OCR_PAIRS_LOWER, rng);
}

/** One OCR confusion in a number: another digit, or (with `letters`) a look-alike letter. */
export function ocrDigits(text: string, rng: Rng, letters: boolean, upper = false): string | null {
  const pairs = letters ? [...OCR_PAIRS_DIGITS, ...OCR_DIGIT_TO_LETTER.map(([d, l]) => [d, upper ? l.toUpperCase() : l] as const)] : OCR_PAIRS_DIGITS;
  // Only digit -> something: a letter already in a zip is not turned back.
  const found = spots(text, pairs).filter((s) => /^\d$/.test(s.from));
  if (found.length === 0) return null;
  return replaceSpot(text, rng.pick(found));
}

const KEY_ROWS = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** Keys around each key of a QWERTY keyboard (digit row included). */
export const KEY_NEIGHBOURS: Readonly<Record<string, string>> = (() => {
  const out: Record<string, string> = {};
  KEY_ROWS.forEach((row, r) => {
    for (let i = 0; i < row.length; i++) {
      const near = [row[i - 1], row[i + 1], KEY_ROWS[r - 1]?.[i], KEY_ROWS[r - 1]?.[i + 1], KEY_ROWS[r + 1]?.[i - 1], KEY_ROWS[r + 1]?.[i]];
      out[row.charAt(i)] = near.filter((c): c is string => c !== undefined).join('');
    }
  });
  return out;
})();

function matchCase(rep: string, like: string): string {
  return like !== like.toLowerCase() ? rep.toUpperCase() : rep;
}

/**
 * One keyboard slip on a letter or digit: a neighbouring key instead (45%), the key
 * dropped (20%), a neighbour struck as well (15%), or two keys swapped (20%). Letters may
 * turn into digits of the row above (digits stay digits when `digitsOnly`).
 */
export function keyboardTypo(text: string, rng: Rng, digitsOnly = false): string | null {
  const positions: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    if (digitsOnly ? /\d/.test(ch) : /[a-z0-9]/i.test(ch)) positions.push(i);
  }
  if (positions.length === 0) return null;
  const at = rng.pick(positions);
  const ch = text.charAt(at);
  let near = KEY_NEIGHBOURS[ch.toLowerCase()] ?? '';
  if (digitsOnly) near = near.replace(/\D/g, '') || '0123456789'.replace(ch, '');
  const rep = matchCase(near.charAt(rng.int(near.length)), ch);
  const roll = rng.float();
  if (roll < 0.2 && text.length > 2) return text.slice(0, at) + text.slice(at + 1);
  if (roll < 0.35) return text.slice(0, at + 1) + rep + text.slice(at + 1);
  if (roll < 0.55) {
    const j = positions.includes(at + 1) ? at + 1 : positions.includes(at - 1) ? at - 1 : -1;
    const lo = Math.min(at, j);
    if (j >= 0 && text.charAt(lo) !== text.charAt(lo + 1)) {
      return text.slice(0, lo) + text.charAt(lo + 1) + text.charAt(lo) + text.slice(lo + 2);
    }
  }
  return text.slice(0, at) + rep + text.slice(at + 1);
}

/** Spelling rules that sound the same (lower-case patterns; case of the first letter kept). */
const PHONETIC_RULES: readonly (readonly [RegExp, string])[] = [
  [/son$/, 'sen'],
  [/sen$/, 'son'],
  [/ph/, 'f'],
  [/^f/, 'ph'],
  [/ll/, 'l'],
  [/tt/, 't'],
  [/nn/, 'n'],
  [/ss/, 's'],
  [/rr/, 'r'],
  [/pp/, 'p'],
  [/([aeiou])l([aeiouy])/, '$1ll$2'],
  [/([aeiou])t([aeiouy])/, '$1tt$2'],
  [/([aeiou])n([aeiouy])/, '$1nn$2'],
  [/ey$/, 'y'],
  [/ey$/, 'ie'],
  [/y$/, 'ey'],
  [/ie$/, 'y'],
  [/([^aeiou])e$/, '$1'],
  [/([kdnrw])$/, '$1e'],
  [/i/, 'y'],
  [/y(?=[^aeiou])/, 'i'],
  [/^c/, 'k'],
  [/^k/, 'c'],
  [/ck/, 'k'],
  [/^mc/, 'mac'],
  [/^mac/, 'mc'],
  [/ou/, 'ow'],
  [/ow/, 'ou'],
  [/^th/, 't'],
  [/ea/, 'ee'],
  [/ee/, 'ea'],
  [/ei/, 'ie'],
  [/ie(?!$)/, 'ei'],
  [/z/, 's'],
  [/ai/, 'ay'],
  [/ay/, 'ai'],
  [/ks/, 'x'],
  [/x/, 'ks'],
];

/**
 * A phonetic spelling variant of a name: -son/-sen, ph/f, double/single letters, y/i/ie,
 * a final e added or dropped, c/k, Mc/Mac, ou/ow... ("Thompson" -> "Thomson", "Philips" ->
 * "Phillips", "Clark" -> "Clarke", "Smith" -> "Smyth"). Null when no rule applies.
 */
export function phoneticVariant(name: string, rng: Rng): string | null {
  const low = name.toLowerCase();
  const options: string[] = [];
  for (const [re, to] of PHONETIC_RULES) {
    const changed = low.replace(re, to);
    if (changed !== low && changed.length >= 2) options.push(changed);
  }
  if (options.length === 0) return null;
  const pick = rng.pick(options);
  // Keep the text's case: all caps, or capitalised words.
  if (name === name.toUpperCase()) return pick.toUpperCase();
  return pick.replace(/(^|[\s'-])(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
}

/** One digit of a number struck as another (any other digit; the format is kept). */
export function digitTypo(text: string, rng: Rng): string | null {
  const positions: number[] = [];
  for (let i = 0; i < text.length; i++) if (/\d/.test(text.charAt(i))) positions.push(i);
  if (positions.length === 0) return null;
  const at = rng.pick(positions);
  const old = Number(text.charAt(at));
  const digit = (old + 1 + rng.int(9)) % 10;
  return text.slice(0, at) + String(digit) + text.slice(at + 1);
}

/** Two neighbouring, different digits swapped ("1234" -> "1324"); null if there are none. */
export function digitSwap(text: string, rng: Rng): string | null {
  const positions: number[] = [];
  for (let i = 0; i + 1 < text.length; i++) {
    const a = text.charAt(i);
    const b = text.charAt(i + 1);
    if (/\d/.test(a) && /\d/.test(b) && a !== b) positions.push(i);
  }
  if (positions.length === 0) return null;
  const at = rng.pick(positions);
  return text.slice(0, at) + text.charAt(at + 1) + text.charAt(at) + text.slice(at + 2);
}

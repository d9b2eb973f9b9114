/**
 * Names as written in scripts whose romanization merges different names. Names are compared
 * in Latin letters (fold.ts: any-ascii transliterates other scripts), which keeps a name
 * written in Cyrillic equal to its romanization. Chinese characters and Japanese kana lose
 * too much on the way: 王伟 and 王薇 (a man's name and a woman's) both read "wang wei", and
 * hundreds of characters read "wei". So a contact keeps its first and last names as written
 * when they hold such characters ({@link writtenNames}), and two records that both do and
 * write a name with other characters have names that sound alike, not equal ones
 * ({@link writtenLevel}): never a typo or a nickname, and under Disable Partial Matching
 * (interface.md 1.5) not equal at all. A name written in characters on one record and in
 * Latin letters on the other compares by its reading, as before.
 */
import { levelBit, type LevelName } from './comparisons.js';
import { TRADITIONAL_SIMPLIFIED } from './generated/han-variants.js';

/** Chinese characters (Han) and Japanese kana: scripts whose readings collide. */
const LOSSY_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const NOT_LETTER = /[^\p{L}\p{M}]+/gu;

/** Name inputs a written form is taken from. */
export interface WrittenNameInput {
  readonly firstName?: string | null | undefined;
  readonly lastName?: string | null | undefined;
}

/** Katakana letters ァ..ヶ, each 0x60 above its hiragana. */
const KATAKANA = /[\u30a1-\u30f6]/gu;
const toHiragana = (k: string): string => String.fromCharCode(k.charCodeAt(0) - 0x60);

/** Traditional Chinese character -> its simplified form (OpenCC's table), built at first use: most contacts never need it. */
let simplified: Map<string, string> | null = null;

function simplifiedOf(c: string): string {
  if (simplified === null) {
    simplified = new Map();
    // By code point: some characters of the table lie outside the BMP (two UTF-16 units each).
    const points = Array.from(TRADITIONAL_SIMPLIFIED);
    for (let i = 0; i + 1 < points.length; i += 2) simplified.set(points[i] as string, points[i + 1] as string);
  }
  return simplified.get(c) ?? c;
}

const HAN = /\p{Script=Han}/gu;

/**
 * A name part as written: letters only, NFKC (half-width kana made full-width), katakana as
 * hiragana, traditional Chinese characters in their simplified forms. さくら and サクラ are
 * one name spelt in two kana, 王偉 and 王伟 one name in traditional and simplified characters
 * (as a name in capitals and in lower case is one), not two names that read alike.
 */
function writtenPartOf(text: string | null | undefined): string {
  if (typeof text !== 'string' || !LOSSY_SCRIPT.test(text)) return '';
  return text.normalize('NFKC').replace(NOT_LETTER, '').replace(KATAKANA, toHiragana).replace(HAN, simplifiedOf);
}

/**
 * The first and last name as written ("伟|王": letters only, NFKC) when either holds Chinese
 * characters or kana; null otherwise (most contacts). A part in Latin letters is empty.
 */
export function writtenNames(input: WrittenNameInput): string | null {
  const first = writtenPartOf(input.firstName);
  const last = writtenPartOf(input.lastName);
  return first === '' && last === '' ? null : `${first}|${last}`;
}

/** Part `k` (0 first name, 1 last name) of a {@link writtenNames} value. */
function part(written: string, k: 0 | 1): string {
  const bar = written.indexOf('|');
  return k === 0 ? written.slice(0, bar) : written.slice(bar + 1);
}

/** Levels that read two names as one: a name written with other characters is none of them. */
const ONE_NAME: ReadonlySet<LevelName> = new Set<LevelName>(['exact', 'nickname', 'typo', 'fuzzy-high', 'part']);
const B_PHONETIC = levelBit('phonetic');
const B_FUZZY_LOW = levelBit('fuzzy-low');

/**
 * The level of name `k` (0 first, 1 last) of two records, given the level their romanized
 * names compare at: when both records write that name in characters and the characters differ,
 * a level that reads one name becomes 'phonetic' (the names sound alike), or the nearest
 * lower level the comparison has (`mask`: its levels' bits), and 'disagree' when `strict`.
 * Any other case: `level` unchanged.
 */
export function writtenLevel(
  level: LevelName,
  qWritten: string | null | undefined,
  rWritten: string | null | undefined,
  k: 0 | 1,
  mask: number,
  strict: boolean,
): LevelName {
  if (qWritten == null || rWritten == null || qWritten === rWritten || !ONE_NAME.has(level)) return level;
  const a = part(qWritten, k);
  const b = part(rWritten, k);
  if (a === '' || b === '' || a === b) return level;
  if (strict) return 'disagree';
  if ((mask & B_PHONETIC) !== 0) return 'phonetic';
  return (mask & B_FUZZY_LOW) !== 0 ? 'fuzzy-low' : 'disagree';
}

/**
 * True when two records' names read as swapped between the columns (one record's first name
 * the other's last) but a crossed pair is written with other characters on both: 王伟 against
 * first name 王 and last name 薇 is a sister's name in the wrong columns, not the same name.
 */
export function writtenCrossedDiffer(qWritten: string | null | undefined, rWritten: string | null | undefined): boolean {
  if (qWritten == null || rWritten == null) return false;
  const differ = (a: string, b: string): boolean => a !== '' && b !== '' && a !== b;
  return differ(part(qWritten, 0), part(rWritten, 1)) || differ(part(qWritten, 1), part(rWritten, 0));
}

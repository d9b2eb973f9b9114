/**
 * Street-line parsing for address normalization (USPS Publication 28 conventions): tokens,
 * house numbers, secondary units (Pub 28 213, Appendix C2), street words with directionals
 * (233) and suffix (234, Appendix C1) standardized. Internal to address.ts.
 *
 * Design rule: what these functions write (a street, a unit, a building line) reads back the
 * same way, so normalization is idempotent. Hence tokens are split on inner punctuation up
 * front (except number forms such as "12-14" and "1/2"), and a street is re-scanned for units
 * after a later unit is cut off.
 *
 * Past 400 lines because it is one grammar of a street line: the tokenizer, house numbers,
 * units and street words call one another (a street is re-scanned for units), and the rule
 * above holds only when they are read together. The USPS tables are address-tables.ts.
 */
import { pushStreetWord, type AddressTables, type UnitDesignator } from './address-tables.js';
import { standardRoad } from './street-forms.js';
import { sexOfName } from './name-sex.js';
import { withinOneEdit } from './similarity.js';

// Token characters: letters, digits, and "#", "-", "/". Everything else separates tokens.
const TOKEN_SEPARATORS = /[^\p{L}\p{N}#/-]+/u;
const INNER_PUNCTUATION = /[#/-]/;
const INNER_PUNCTUATION_RUNS = /[#/-]+/g;
const SPLIT_PUNCTUATION = /[/-]+/;
// Number forms whose punctuation carries meaning: "12-14", "12-b", "12b", "1/2".
const NUMBER_FORM = /^(?:\d+(?:-\d+)?[a-z]?|\d+-[a-z]|\d\/\d{1,2})$/;
const HOUSE_NUMBER = /^\d+[a-z]?$/;
const HOUSE_NUMBER_LETTER = /^(\d+)-([a-z])$/;
const HOUSE_NUMBER_RANGE = /^\d+-\d+[a-z]?$/;
const DIGITS = /^\d+$/;
// A letter of a house number written apart ("12 A"): not a directional (n, s, e, w) nor what
// an apostrophe leaves of a name's prefix ("12 O'Farrell St", D'Angelo, L'Enfant).
const NUMBER_LETTER = /^[abcf-kmpqrtuvx-z]$/;
const FRACTION = /^\d\/\d{1,2}$/;
const LEADING_ZEROS = /^0+(?=\d)/;
const HAS_DIGIT = /\d/;
const HAS_LETTER = /\p{L}/u;
const TWO_LETTERS = /\p{L}\p{L}/u;
const ENDS_WITH_DIGIT = /\d$/;
const SINGLE_LETTER = /^[a-z]$/;
const ONE_LETTER = /^\p{L}$/u;
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;
// A unit "#" and its number alone ("# 12"), which after "PO Box" is the box's number.
const BOX_NUMBER_UNIT = /^# [\da-z-]+$/;
// A rural or highway contract route's box without its number ("rr 2 box", street-forms.ts).
const ROUTE_BOX = /^(?:rr|hc) \d+[a-z]? box$/;
const GLUED_UNIT = /^([a-z]+)(\d[a-z0-9]*)$/;
const ORDINAL_NUMBER = /^(\d+)(?:st|nd|rd|th)?$/;
const ATTENTION = /^(?:c o|care of|attn|attention)(?: |$)/;
/** "P.O. Box 5", "PO Box 5", "Post Office Box 5", "POB 5", "Box 5" (Pub 28 283). */
export const PO_BOX = /^(?:p ?o ?b(?:ox)?|post office box|box(?= ?\d))(?= |\d|$) ?(.*)$/;

/**
 * Tokens of a case-folded line. "#", "-", "/" split words ("wilkes-barre", "apt-4", "#4" ->
 * "#", "4") except inside number forms ("12-14", "12-b", "1/2"). Ordinal words become
 * numbers ("first" -> "1st": "First Floor" is a floor, "First Ave" is "1st ave"). A "#"
 * that starts no unit is dropped.
 */
export function tokenizeLine(folded: string, tables: AddressTables): string[] {
  const out: string[] = [];
  let hashes = false;
  for (const raw of splitTokens(folded)) {
    if (raw.length === 0) continue;
    if (!INNER_PUNCTUATION.test(raw) || NUMBER_FORM.test(raw)) {
      pushStreetWord(out, tables.ordinals.get(raw) ?? raw);
      continue;
    }
    hashes ||= raw.includes('#');
    for (const piece of raw.replace(/#+/g, ' # ').split(' ')) {
      for (const word of piece.split(SPLIT_PUNCTUATION)) {
        if (word.length > 0) pushStreetWord(out, tables.ordinals.get(word) ?? word);
      }
    }
  }
  if (!hashes) return out;
  const kept: string[] = [];
  for (let i = 0; i < out.length; i++) if (out[i] !== '#' || unitSpan(out, i, tables) > 0) kept.push(out[i] as string);
  return kept;
}

/**
 * The pieces of `folded.split(TOKEN_SEPARATORS)` that are not empty (and maybe some empty
 * ones, which the caller skips). An ASCII line (nearly every one) is cut at its runs of
 * characters other than letters, digits, "#", "-" and "/" by a scan: in ASCII those are the
 * separators the Unicode expression matches, and the split was a tenth of normalizing an address.
 */
export function splitTokens(folded: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i < folded.length; i++) {
    const c = folded.charCodeAt(i);
    if (c >= 128) return folded.split(TOKEN_SEPARATORS);
    const tokenChar = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 35 || c === 45 || c === 47;
    if (tokenChar) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push(folded.slice(start, i));
      start = -1;
    }
  }
  if (start >= 0) out.push(folded.slice(start));
  return out;
}

/** The plain text of tokens: "#" dropped, joined by spaces. Re-tokenizes to the same words. */
export function lineText(tokens: readonly string[]): string {
  let text = '';
  for (const t of tokens) {
    if (t === '#') continue;
    text = text.length > 0 ? `${text} ${t}` : t;
  }
  return text;
}

/** Whether a token at or after tokens[from] has a letter (a street word). */
function lettersFollow(tokens: readonly string[], from: number): boolean {
  for (let i = from; i < tokens.length; i++) if (HAS_LETTER.test(tokens[i] as string)) return true;
  return false;
}

/**
 * Tokens taken by a unit written before the house number ("Apt 4, 123 Main St"), or 0: a
 * designator that needs a number (or "#") with its number, then a house number and a street
 * word (two letters or more, not a designator).
 */
function leadingUnitSpan(tokens: readonly string[], tables: AddressTables): number {
  const first = tokens[0];
  if (first === undefined || (first !== '#' && designatorOf(first, tables)?.needsNumber !== true)) return 0;
  const span = unitSpan(tokens, 0, tables);
  if (span === 0 || readHouseNumber(tokens, span)[0] === null) return 0;
  for (let i = span + 1; i < tokens.length; i++) {
    const t = tokens[i] as string;
    if (TWO_LETTERS.test(t) && designatorOf(t, tables) === undefined) return span;
  }
  return 0;
}

/**
 * Reads a house number at tokens[from]: "12", "12b", "12-b" and "12 b elm st" -> "12b", "12-14",
 * and a following fraction ("12 1/2"; with `wordsFollow`, only when more tokens follow). Leading
 * zeros are dropped. `tables`: a letter before a street suffix stays the street's. Returns [number, tokens used].
 */
export function readHouseNumber(tokens: readonly string[], from: number, wordsFollow = true, tables?: AddressTables): [string | null, number] {
  const first = tokens[from];
  if (first === undefined) return [null, 0];
  let number: string | null = null;
  if (HOUSE_NUMBER.test(first)) number = first.replace(LEADING_ZEROS, '');
  else if (HOUSE_NUMBER_RANGE.test(first)) number = first;
  else {
    const m = HOUSE_NUMBER_LETTER.exec(first);
    if (m !== null) number = `${(m[1] as string).replace(LEADING_ZEROS, '')}${m[2] as string}`;
  }
  if (number === null) return [null, 0];
  const next = tokens[from + 1];
  if (next !== undefined && FRACTION.test(next) && (!wordsFollow || tokens.length > from + 2)) {
    return [`${number} ${next}`, 2];
  }
  // "12 A Elm St" is 12A (as "12A" and "12-A"): a letter that is no directional, before a street
  // name and its type ("12 A St" is A Street, "12 J F Kennedy Blvd" a name of initials).
  const after = tokens[from + 2];
  const street = after === undefined ? !wordsFollow : TWO_LETTERS.test(after) && tokens.length > from + 3 && tables?.suffixes.has(after) !== true;
  if (next !== undefined && NUMBER_LETTER.test(next) && DIGITS.test(number) && street) return [`${number}${next}`, 2];
  return [number, 1];
}

/**
 * Whether tokens[j] can be a unit number: it has a digit ("4", "4b", "b4"), or it is one
 * letter (or a directional written as one: "west" is "w") that ends the line or comes before
 * a number or another unit ("Apt B", "Apt B, 123 Main St", "Apt B Rear"; not "Key West Rd").
 */
function isUnitId(tokens: readonly string[], j: number, tables: AddressTables): boolean {
  const t = tokens[j];
  if (t === undefined) return false;
  if (HAS_DIGIT.test(t)) return true;
  if (!ONE_LETTER.test(t) && tables.directionals.get(t)?.length !== 1) return false;
  const after = tokens[j + 1];
  return after === undefined || HAS_DIGIT.test(after) || unitSpan(tokens, j + 1, tables) > 0;
}

/**
 * The unit designator a token names: itself, or through its street-suffix standard form
 * ("trlrs" is the suffix "trlr", which is also the designator TRLR), or undefined.
 */
function designatorOf(t: string, tables: AddressTables): UnitDesignator | undefined {
  const direct = tables.unitDesignators.get(t);
  if (direct !== undefined) return direct;
  const suffix = tables.suffixes.get(t);
  return suffix === undefined || suffix === t ? undefined : tables.unitDesignators.get(suffix);
}

/**
 * Tokens taken by a secondary unit starting at tokens[i], or 0 if none starts there:
 * "apt4" -> 1; "#" or a designator that needs a number, followed by one -> 2 ("# 4", "apt
 * 4b", "apt # 4" -> 3); a designator that needs none ("rear", "upper") -> 1, but only last,
 * before a number, or before another unit; a number then a floor or level designator as the
 * last two tokens ("3rd Floor") -> 2.
 */
export function unitSpan(tokens: readonly string[], i: number, tables: AddressTables): number {
  const t = tokens[i];
  if (t === undefined) return 0;
  const next = tokens[i + 1];
  if (t === '#') {
    if (next === undefined) return 0;
    if (isUnitId(tokens, i + 1, tables)) return 2;
    // "# Unit 4": a "#" before a designator is noise.
    const after = next !== '#' && designatorOf(next, tables) !== undefined ? unitSpan(tokens, i + 1, tables) : 0;
    return after > 0 ? after + 1 : 0;
  }
  const designator = designatorOf(t, tables);
  if (designator === undefined) {
    if (next !== undefined && i + 2 === tokens.length && ORDINAL_NUMBER.test(t)) {
      return designatorOf(next, tables)?.numberFirst === true ? 2 : 0;
    }
    const glued = GLUED_UNIT.exec(t);
    return glued !== null && tables.unitDesignators.get(glued[1] as string)?.needsNumber === true ? 1 : 0;
  }
  if (designator.needsNumber) {
    if (next === '#') return isUnitId(tokens, i + 2, tables) ? 3 : 0;
    return isUnitId(tokens, i + 1, tables) ? 2 : 0;
  }
  if (next === undefined || HAS_DIGIT.test(next)) return 1;
  return designatorOf(next, tables) !== undefined && unitSpan(tokens, i + 1, tables) > 0 ? 1 : 0;
}

/** Index of the first unit in tokens[from..], or -1. */
export function findUnit(tokens: readonly string[], from: number, tables: AddressTables): number {
  for (let i = from; i < tokens.length; i++) if (unitSpan(tokens, i, tables) > 0) return i;
  return -1;
}

/**
 * Writes tokens[from..to) of a unit: designators standardized ("suite" -> "ste"), "#" after a
 * designator or before one dropped ("Apt #4" = "Apt 4"), a letter joined to the number
 * before it ("4 B" -> "4b"), punctuation dropped from identifiers; "3rd Floor" -> "fl 3".
 */
export function formatUnit(tokens: readonly string[], from: number, to: number, tables: AddressTables): string | null {
  // "3rd Floor" at the end -> "fl 3".
  let end = to;
  let reversedFloor: string | null = null;
  if (to - from >= 2) {
    const reversed = ORDINAL_NUMBER.exec(tokens[to - 2] as string);
    const designator = designatorOf(tokens[to - 1] as string, tables);
    if (reversed !== null && designator?.numberFirst === true) {
      reversedFloor = `${designator.abbreviation} ${reversed[1] as string}`;
      end = to - 2;
    }
  }
  const parts: string[] = [];
  let wantsNumber = false;
  let lastIsNumber = false;
  for (let i = from; i < end; i++) {
    let t = tokens[i] as string;
    if (t === '#') {
      const next = tokens[i + 1];
      if (wantsNumber || (i + 1 < end && next !== undefined && next !== '#' && designatorOf(next, tables) !== undefined)) continue;
      parts.push('#');
      wantsNumber = true;
      lastIsNumber = false;
      continue;
    }
    if (!wantsNumber) {
      const designator = designatorOf(t, tables);
      if (designator !== undefined) {
        parts.push(designator.abbreviation);
        wantsNumber = designator.needsNumber;
        lastIsNumber = false;
        continue;
      }
      const glued = GLUED_UNIT.exec(t);
      const gluedDesignator = glued === null ? undefined : tables.unitDesignators.get(glued[1] as string);
      if (glued !== null && gluedDesignator !== undefined) {
        parts.push(gluedDesignator.abbreviation);
        t = glued[2] as string;
      }
    }
    const id = t.replace(INNER_PUNCTUATION_RUNS, '');
    if (id.length === 0) continue;
    if (lastIsNumber && SINGLE_LETTER.test(id)) {
      parts[parts.length - 1] = (parts[parts.length - 1] as string) + id; // the number just pushed
      lastIsNumber = false;
    } else {
      parts.push(id);
      lastIsNumber = ENDS_WITH_DIGIT.test(id);
    }
    wantsNumber = false;
  }
  if (reversedFloor !== null) parts.push(reversedFloor);
  return parts.length > 0 ? parts.join(' ') : null;
}

/**
 * Splits a unit line into the unit and what follows it: "Flr 5 John Flynn Medical Centre" ->
 * unit "fl 5", rest "john flynn medical centre" (a building). The unit runs over consecutive
 * units and the numbers and single letters after them.
 */
export function splitUnitLine(tokens: readonly string[], tables: AddressTables): { unit: string | null; rest: string | null } {
  let i = 0;
  while (i < tokens.length) {
    const span = unitSpan(tokens, i, tables);
    if (span > 0) i += span;
    else if (HAS_DIGIT.test(tokens[i] as string) || ONE_LETTER.test(tokens[i] as string)) i += 1;
    else break;
  }
  const rest = i < tokens.length ? lineText(tokens.slice(i)) : '';
  return { unit: formatUnit(tokens, 0, i, tables), rest: rest.length > 0 ? rest : null };
}

function joinDirectional(a: string | undefined, b: string | undefined, tables: AddressTables): string | null {
  if (a === undefined || b === undefined) return null;
  const first = tables.directionals.get(a);
  const second = tables.directionals.get(b);
  if ((first === 'n' || first === 's') && (second === 'e' || second === 'w')) return first + second;
  return null;
}

/**
 * Standardizes street words: a leading and a trailing directional (Pub 28 233; a split
 * compound "north east" is joined when words remain), the suffix (Pub 28 234.2: the last
 * suffix word is the suffix; also before a final number or letter, "Highway 101", "Avenue
 * B"), and name words elsewhere ("Saint" -> "st"). Mutates `words`.
 */
function standardizeStreet(words: string[], tables: AddressTables): string | null {
  let start = 0;
  let end = words.length;
  if (end === 0) return null;
  for (let i = 0; i < end; i++) {
    const standard = tables.nameWords.get(words[i] as string);
    if (standard !== undefined) words[i] = standard;
  }
  let pre: string | null = null;
  let post: string | null = null;
  if (end > 1) {
    const pair = end > 3 ? joinDirectional(words[0], words[1], tables) : null;
    if (pair !== null) {
      pre = pair;
      start = 2;
    } else {
      pre = tables.directionals.get(words[0] as string) ?? null;
      if (pre !== null) start = 1;
    }
  }
  if (end - start > 1) {
    const pair = end - start > 2 ? joinDirectional(words[end - 2], words[end - 1], tables) : null;
    if (pair !== null) {
      post = pair;
      end -= 2;
    } else {
      post = tables.directionals.get(words[end - 1] as string) ?? null;
      if (post !== null) end -= 1;
    }
  }
  let suffixAt = -1;
  let last = words[end - 1] as string;
  // A long suffix word mistyped ("Streeet", "Avenu", "Boulevrd") after the street's name.
  const mistyped = end - start >= 2 && !tables.suffixes.has(last) ? mistypedSuffix(last) : null;
  if (mistyped !== null) words[end - 1] = last = mistyped;
  if (tables.suffixes.has(last)) suffixAt = end - 1;
  else if (end - start >= 2 && (last.length === 1 || HAS_DIGIT.test(last)) && tables.suffixes.has(words[end - 2] as string)) {
    suffixAt = end - 2;
  }
  let core = '';
  for (let i = start; i < end; i++) {
    const w = words[i] as string;
    const standard = i === suffixAt ? (tables.suffixes.get(w) as string) : w;
    core = core.length > 0 ? `${core} ${standard}` : standard;
  }
  // "CR 12" / "County Road 12", "RFD 2" / "Rural Route 2": one designation (street-forms.ts).
  if (HAS_DIGIT.test(core)) core = standardRoad(core);
  let out = pre === null ? core : core.length > 0 ? `${pre} ${core}` : pre;
  if (post !== null) out = `${out} ${post}`;
  return out;
}

/** Suffix words of six letters or more, which a one-letter slip leaves recognizable (no other street word is one edit from them). */
const LONG_SUFFIXES: readonly string[] = ['street', 'avenue', 'boulevard', 'terrace', 'parkway', 'highway', 'circle', 'crescent'];

/**
 * The long suffix word a word of five letters or more is one slip from ("streeet", "stret",
 * "avneue" -> street, avenue), or null; never a given name ("Terrance", one letter from
 * "terrace", names streets).
 */
function mistypedSuffix(word: string): string | null {
  if (word.length < 5 || HAS_DIGIT.test(word) || sexOfName(word) !== null) return null;
  for (const suffix of LONG_SUFFIXES) if (Math.abs(suffix.length - word.length) <= 1 && withinOneEdit(word, suffix)) return suffix;
  return null;
}

/** What a street line holds. */
export interface StreetParts {
  readonly number: string | null;
  readonly street: string | null;
  readonly unit: string | null;
  /** Words after a unit that are not part of it ("Apt 4 Sunset Towers" -> "sunset towers"). */
  readonly rest: string | null;
}

function joinRest(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return `${a} ${b}`;
}

/** Two units written as one ("apt 4" + "bldg 2" -> "apt 4 bldg 2"), re-read as a unit would be. */
export function joinUnits(a: string | null, b: string | null, tables: AddressTables): string | null {
  if (a === null) return b;
  if (b === null) return a;
  const tokens = tokenizeLine(`${a} ${b}`, tables);
  return formatUnit(tokens, 0, tokens.length, tables);
}

/**
 * Parses a street line: [unit] [house number] street words [unit...]. A house number needs a
 * street word after it ("12 14" is not number 12 on street "14"); a unit needs a street word
 * before it ("123 Suite Rd" is a street). A PO box is written "po box 123" (Pub 28 283).
 * `withNumber` false: every token is a street word (the number came in its own field).
 */
export function parseStreetLine(tokens: readonly string[], tables: AddressTables, withNumber = true): StreetParts {
  let from = 0;
  let leadingUnit: string | null = null;
  // "Apt 4, 123 Main St": a unit before the house number.
  const lead = withNumber ? leadingUnitSpan(tokens, tables) : 0;
  if (lead > 0) {
    leadingUnit = formatUnit(tokens, 0, lead, tables);
    from = lead;
  }
  // A "#" that starts nothing here ("# 12 Main St") is noise before the number.
  if (from === 0 && tokens[0] === '#') from = 1;
  let number: string | null = null;
  let used = 0;
  if (withNumber && lettersFollow(tokens, from + 1)) [number, used] = readHouseNumber(tokens, from, true, tables);
  const wordsFrom = from + used;
  const unitAt = findUnit(tokens, wordsFrom + 1, tables);
  const wordsTo = unitAt === -1 ? tokens.length : unitAt;
  let trailingUnit: string | null = null;
  let rest: string | null = null;
  if (unitAt !== -1) ({ unit: trailingUnit, rest } = splitUnitLine(tokens.slice(unitAt), tables));
  let words: string[] = [];
  for (let i = wordsFrom; i < wordsTo; i++) if (tokens[i] !== '#') words.push(tokens[i] as string);
  // Once a unit is cut off (or a stray "#" dropped), the street's end may read as a unit
  // ("Main Rear, Front"): cut as re-reading the street would.
  if (unitAt !== -1 || words.length !== wordsTo - wordsFrom) {
    for (let at = findUnit(words, 1, tables); at !== -1; at = findUnit(words, 1, tables)) {
      const inner = splitUnitLine(words.slice(at), tables);
      trailingUnit = joinUnits(inner.unit, trailingUnit, tables);
      rest = joinRest(inner.rest, rest);
      words = words.slice(0, at);
    }
  }
  const text = lineText(words);
  let street = PO_BOX.test(text) ? poBox(text) : standardizeStreet(words, tables);
  // "PO Box #12", "Box #12", "RR 2 Box #5": the box's number, not a unit (read as a unit, no
  // box had a number, and every box of a postal code, or of a route, was one address).
  if (street !== null && leadingUnit === null && trailingUnit !== null && BOX_NUMBER_UNIT.test(trailingUnit)) {
    if (street === 'po box' || street === 'box') {
      street = poBox(`po box ${trailingUnit.slice(2)}`);
      trailingUnit = null;
    } else if (ROUTE_BOX.test(street)) {
      street = `${street} ${trailingUnit.slice(2)}`;
      trailingUnit = null;
    }
  }
  return { number, street, unit: joinUnits(leadingUnit, trailingUnit, tables), rest };
}

/** What an address line holds. */
export type LineKind = 'empty' | 'attention' | 'po-box' | 'unit' | 'street' | 'other';

/** Classifies a line from its tokens and plain text (see lineText). */
export function classifyLine(tokens: readonly string[], text: string, tables: AddressTables): LineKind {
  if (text.length === 0) return 'empty';
  if (ATTENTION.test(text)) return 'attention';
  if (PO_BOX.test(text)) return 'po-box';
  if (unitSpan(tokens, 0, tables) > 0) {
    // A unit line, unless a house number and a street word follow ("Apt 4 123 Main St").
    return leadingUnitSpan(tokens, tables) > 0 ? 'street' : 'unit';
  }
  return readHouseNumber(tokens, 0)[0] !== null && lettersFollow(tokens, 1) ? 'street' : 'other';
}

/** Standard form of a PO box line (Pub 28 283): "P.O. Box 123", "POB 123" -> "po box 123". */
export function poBox(text: string): string {
  const rest = (PO_BOX.exec(text)?.[1] ?? '').replace(NOT_LETTER_OR_DIGIT, '');
  return rest.length > 0 ? `po box ${rest}` : 'po box';
}

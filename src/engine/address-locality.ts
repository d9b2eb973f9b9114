/**
 * The locality a one-line address carries at its end: "12 Main St, Springfield, MA 01101",
 * "10 High Street, Leeds LS1 4AB", "12 Main St Springfield MA 01101". Files of some sources
 * write the whole address in one cell, others in columns; read as a street, such a cell's
 * town and postal code would compare with nothing. Split off here: the postal code (US ZIP,
 * British or Canadian postcode), a state before it (a code written in capitals, or a name),
 * the city before that, and a country after it.
 *
 * Only a line that ends with a postal code, or with a known state after a comma, is split;
 * anything else is left whole (null), as before.
 */
import type { AddressTables } from './address-tables.js';
import { classifyLine, lineText, tokenizeLine, type LineKind } from './address-street.js';
import { foldCase, foldCompact } from './fold.js';

/** What a one-line address holds once its locality is split off. */
export interface LocalityTail {
  /** The street and unit, as written (commas kept). */
  readonly line: string;
  readonly city: string | null;
  readonly state: string | null;
  readonly zip: string | null;
  readonly country: string | null;
}

const SPACES = /\s+/;

/** A postal code at the end of a text: US ZIP or ZIP+4, British postcode, Canadian postal code. */
const POSTAL_CODE_AT_END = /(?:^|[\s,])(\d{5}(?:[\s-]?\d{4})?|[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}|[A-Z]\d[A-Z]\s?\d[A-Z]\d)$/i;
/** A state code as addresses write it: two or three capitals ("MA", "NSW"; "ma" or "Me" are too often words). */
const STATE_CODE = /^[A-Z]{2,3}$/;
/** An Australian postcode: four digits after a state's or territory's code ("Sydney NSW 2000"); four digits alone are no postal code here. */
const AU_POSTCODE_AT_END = /(?<=(?:^|[\s,])(?:NSW|VIC|QLD|WA|SA|TAS|ACT|NT)\s{1,3})(\d{4})$/i;

/**
 * The state a text names: a code in capitals (in any case with `anyCase`), or (`names`) a
 * state's name ("Massachusetts"), else null.
 */
function stateOf(text: string, tables: AddressTables, codes: ReadonlySet<string>, names: boolean, anyCase = false): string | null {
  const key = foldCompact(text);
  if (key.length === 0) return null;
  if (anyCase ? key.length <= 3 : STATE_CODE.test(text.trim())) return codes.has(key) ? key : null;
  return names && key.length > 3 ? (tables.states.get(key) ?? null) : null;
}

const codeSets = new WeakMap<AddressTables, ReadonlySet<string>>();

function stateCodes(tables: AddressTables): ReadonlySet<string> {
  let codes = codeSets.get(tables);
  if (codes === undefined) codeSets.set(tables, (codes = new Set(tables.states.values())));
  return codes;
}

/**
 * Splits a state code off the end of `text` ("Springfield MA"), or takes the whole text for a
 * state's name (`names`: "Massachusetts", a segment of its own): [rest, state, the words
 * taken] or null. A name is no state otherwise: "New York 10001" names the city. `anyCase`:
 * a code in any case ("Vic", before an Australian postcode that only follows a state's code).
 */
function trailingState(text: string, tables: AddressTables, codes: ReadonlySet<string>, names: boolean, anyCase = false): [string, string, string] | null {
  const named = stateOf(text, tables, codes, names, anyCase);
  if (named !== null) return ['', named, text.trim()];
  const words = text.trim().split(SPACES);
  const word = words[words.length - 1] ?? '';
  const code = stateOf(word, tables, codes, false, anyCase);
  return code === null ? null : [words.slice(0, -1).join(' '), code, word];
}

/** Suffixes (standard abbreviations) that end most streets; others ("Fort", "Lake", "Park") also begin town names. */
const COMMON_SUFFIXES: ReadonlySet<string> = new Set(['st', 'ave', 'rd', 'dr', 'blvd', 'ln', 'ct', 'way', 'pl', 'ter', 'cir', 'hwy', 'pkwy', 'sq', 'trl']);

/** A road's number or letter: "9", "9W", "101", "B" ("Route 9", "Avenue B"). */
const ROAD_NUMBER = /^(?:\d+[a-z]?|[a-z])$/i;

/** Suffixes of roads known by a number, whatever words come before ("Old Route 9", "Pacific Coast Hwy 1"). */
const ROUTE_SUFFIXES: ReadonlySet<string> = new Set(['rte', 'hwy', 'fwy', 'expy', 'tpke', 'byp']);

/**
 * Words that begin a numbered road's name ("County Road 5", "State Route 17", "US Hwy 1"),
 * some of them a road's type of their own ("FM 1960": Farm to Market; "CR", "SR": county and
 * state road).
 */
const ROUTE_WORDS: ReadonlySet<string> = new Set(['county', 'co', 'state', 'us', 'interstate', 'farm', 'ranch', 'fm', 'rm', 'cr', 'sr']);

/**
 * Whether the word after `words[at]` names the road rather than begins the town: the suffix
 * is a numbered road's ("Route 9", "Hwy 101"), or the street's name is the suffix alone or
 * after route words and a directional ("Avenue B", "County Road 5", "N Road 12").
 */
function namesRoad(words: readonly string[], at: number, tables: AddressTables): boolean {
  if (ROUTE_SUFFIXES.has(tables.suffixes.get(plain(words[at])) ?? '')) return true;
  for (let i = 1; i < at; i++) {
    const word = plain(words[i]);
    if (!ROUTE_WORDS.has(word) && !(i === 1 && tables.directionals.has(word))) return false;
  }
  return true;
}

/**
 * Index of the word a numbered road's number follows, the road first in the street ("12
 * Route 9 Fort Worth", "12 County Road 5 St Paul", "12 FM 1960 Houston": a suffix, or a
 * route word for want of one, then its number), or -1.
 */
function numberedRoadAt(words: readonly string[], tables: AddressTables): number {
  for (let i = 1; i < words.length - 1; i++) {
    if (!ROAD_NUMBER.test(words[i + 1] as string)) continue;
    const word = plain(words[i]);
    if ((tables.suffixes.has(word) || ROUTE_WORDS.has(word)) && namesRoad(words, i, tables)) return i;
  }
  return -1;
}

/** The number of a grid street ("W 100 S"). */
const GRID_NUMBER = /^\d+$/;

/** A PO box and its number before a town, with no comma between them. */
const PO_BOX_THEN_TOWN = /^((?:p\.?\s?o\.?\s?)?box\s?#?\s?[\da-z-]+)\s+([a-z].*)$/i;

/** A word as the tables read it: folded, without the dots and commas around it. */
function plain(word: string | undefined): string {
  return foldCase(word ?? '').replace(/[.,]/g, '');
}

const HAS_DIGIT_OR_HASH = /[\d#]/;

/** A number first, then a floor's or level's designator ("2nd Floor", "3rd Fl"). */
const ORDINAL = /^\d+(?:st|nd|rd|th)$/i;

/** A unit's number written without its designator: "4", "4B", "B4", "B". */
const BARE_UNIT = /^(?:\d+[a-z]?|[a-z]\d*)$/i;

/** Words of a unit at `words[i]` ("Apt 4", "#4", "# 4", "Ste 5", "Rear", "2nd Floor"), 0 if none. */
function unitWords(words: readonly string[], i: number, tables: AddressTables): number {
  const word = words[i];
  if (word === undefined) return 0;
  if (word.startsWith('#')) return word.length > 1 ? 1 : Math.min(2, words.length - i);
  const designator = tables.unitDesignators.get(plain(word));
  if (designator === undefined) return ORDINAL.test(word) && tables.unitDesignators.get(plain(words[i + 1]))?.numberFirst === true ? 2 : 0;
  return designator.needsNumber && i + 1 < words.length ? 2 : 1;
}

/** Whether a unit begins at `words[i]`, with its designator or without ("Apt 4", "#4", "4B", "2nd Floor"). */
function isUnitAt(words: readonly string[], i: number, tables: AddressTables): boolean {
  return unitWords(words, i, tables) > 0 || BARE_UNIT.test(words[i] ?? '');
}

/**
 * The street part and the city of a line with no commas ("12 Main St Springfield"): the city
 * is what follows the street's suffix, a directional after it ("12 Main St NW Springfield")
 * and a unit ("12 Main St Apt 4 Springfield", "12 Main St 4B Springfield": "#4B"). The
 * suffix is that of a numbered road first in the street, with its number ("Route 9", "County
 * Road 5", "FM 1960" with a route word for suffix), else the first common one after the
 * street's first word ("Ave" of "12 Oak Ave St Paul", "St" of "12 Main St Fort Worth": "St"
 * and "Fort" begin towns too), else the last of any kind. A grid street ("100 W 100 S") ends
 * at its second directional. Null city when no suffix is found or nothing follows it.
 */
function splitStreetAndCity(text: string, tables: AddressTables): [string, string | null] {
  // "PO Box 123 Springfield": the box and its number, then the town.
  const box = PO_BOX_THEN_TOWN.exec(text.trim());
  if (box !== null) return [box[1] as string, box[2] as string];
  const words = text.trim().split(SPACES);
  const suffixAt = (i: number): string | undefined => tables.suffixes.get(plain(words[i]));
  // "100 W 100 S Salt Lake City": a grid street (Utah, Idaho) is a directional, a number and
  // a directional; the suffix search would stop at "Lake".
  const grid = words.length > 4 && GRID_NUMBER.test(words[2] as string) && tables.directionals.has(plain(words[1])) && tables.directionals.has(plain(words[3]));
  let at = grid ? 3 : numberedRoadAt(words, tables);
  for (let i = 2; i <= words.length - 2 && at === -1; i++) if (COMMON_SUFFIXES.has(suffixAt(i) ?? '')) at = i;
  for (let i = words.length - 2; i >= 1 && at === -1; i--) if (suffixAt(i) !== undefined) at = i;
  if (at === -1) return [text.trim(), null];
  let end = at + 1;
  // "12 Route 9 Springfield": the number is the road's, not the town's.
  if (end < words.length && ROAD_NUMBER.test(words[end] as string) && namesRoad(words, at, tables)) end++;
  // A post-directional: abbreviated ("12 Main St NW Springfield"), last, or before a unit.
  // One spelled out before further words begins the town ("20 Oak St West Hartford", "East
  // Orange", "North Las Vegas"): towns are named so far more often than streets are written so.
  const directional = plain(words[end]);
  if (tables.directionals.has(directional) && (directional.length <= 3 || end === words.length - 1 || isUnitAt(words, end + 1, tables))) end++;
  const unit = unitWords(words, end, tables);
  let street: string[];
  if (unit === 0 && end < words.length && BARE_UNIT.test(words[end] as string) && !tables.directionals.has(plain(words[end]))) {
    // "12 Main St 4B Springfield": a unit's number with no designator, written with the "#"
    // Pub 28 213 gives an unknown designator so that the street line reads it as the unit
    // (read as the town's, or as the street's, two flats of a building were one address).
    street = words.slice(0, end);
    street.push(`#${words[end] as string}`);
    end++;
  } else {
    end += unit;
    street = words.slice(0, end);
  }
  return [street.join(' '), end < words.length ? words.slice(end).join(' ') : null];
}

/** What a comma-separated segment holds, as address lines are classified: a street, a unit... */
function segmentKind(segment: string, tables: AddressTables): LineKind {
  const tokens = tokenizeLine(foldCase(segment), tables);
  return classifyLine(tokens, lineText(tokens), tables);
}

/**
 * Whether `town`, the words before a state's code in the last of `segments` ("12 Main St,
 * Springfield MA"), read as a town: no street, unit or PO box, and a street or PO box in a
 * segment before it.
 */
function isTownAfterStreet(town: string, segments: readonly string[], tables: AddressTables): boolean {
  if (segmentKind(town, tables) !== 'other') return false;
  for (let i = 0; i < segments.length - 1; i++) {
    const kind = segmentKind(segments[i] as string, tables);
    if (kind === 'street' || kind === 'po-box') return true;
  }
  return false;
}

/**
 * The locality at the end of a one-line address, split from its street (see the module's
 * comment), or null when the line ends with none. `alone`: the line follows the street's
 * ("12 Main St" / "Springfield, MA 01101"), so what precedes the state is all town.
 */
export function splitLocality(line: string, tables: AddressTables, alone = false): LocalityTail | null {
  const segments = line
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (segments.length === 0) return null;
  let country: string | null = null;
  const codes = stateCodes(tables);
  if (segments.length >= 2) {
    const lastSegment = segments[segments.length - 1] as string;
    // A country after a comma, but not a state's code that is also a country's ("IL", "CA", "IN").
    const known = STATE_CODE.test(lastSegment) && codes.has(foldCompact(lastSegment)) ? undefined : tables.countries.get(foldCompact(lastSegment));
    if (known !== undefined) {
      country = known;
      segments.pop();
    }
  }
  let last = segments[segments.length - 1] as string;
  let zip: string | null = null;
  const usPostal = POSTAL_CODE_AT_END.exec(last);
  const auPostal = usPostal === null ? AU_POSTCODE_AT_END.exec(last) : null;
  const postal = usPostal ?? auPostal;
  if (postal !== null) {
    zip = postal[1] as string;
    last = last.slice(0, last.length - zip.length).trim();
    // "PO Box 12345", "Suite 20000", "Apt #10001": the box's or the unit's number, not a postal code.
    const word = last.split(SPACES).pop() ?? '';
    const before = plain(word);
    const stateCode = auPostal !== null || (STATE_CODE.test(word) && codes.has(before));
    if (before === 'box' || before === '#' || (!stateCode && tables.unitDesignators.has(before))) return null;
  }
  let state: string | null = null;
  let stateWord = '';
  // A state's name only as a segment of its own after the town's ("..., Springfield,
  // Massachusetts 01101"); a state code after a postal code or a comma, or after a town that
  // follows the street's comma ("12 Main St, Springfield MA"); before an Australian postcode,
  // its state's code in any case ("Melbourne Vic 3000").
  const split = last.length > 0 ? trailingState(last, tables, codes, segments.length >= 3, auPostal !== null) : null;
  if (split !== null && (zip !== null || (segments.length >= 2 && (split[0].length === 0 || isTownAfterStreet(split[0], segments, tables))))) {
    [last, state, stateWord] = split;
  }
  if (zip === null && state === null) return null;
  segments[segments.length - 1] = last;
  if (last.length === 0) segments.pop();
  // A postal code alone is no one-line address (a number in the street's column, perhaps).
  if (segments.length === 0) return null;
  let city: string | null = null;
  let street: string[];
  if (alone) {
    city = segments.join(', ');
    street = [];
  } else if (segments.length === 1) {
    // No commas before the locality: the city follows the street's suffix.
    const [streetText, cityText] = splitStreetAndCity(segments[0] as string, tables);
    street = [streetText];
    city = cityText;
    // No town before a "state" that is the street's suffix or directional ("12 Oak Ct 06101",
    // "123 Oak St NE 20002"): it is the street's; not after a directional or a unit, which
    // end a street ("20 Oak St West CT 06107", "12 Main St #4 CT 06101").
    const word = plain(stateWord);
    const streetEnd = plain(streetText.slice(streetText.lastIndexOf(' ') + 1));
    const ended = tables.directionals.has(streetEnd) || HAS_DIGIT_OR_HASH.test(streetEnd);
    if (city === null && state !== null && !ended && (tables.suffixes.has(word) || tables.directionals.has(word))) {
      street = [`${streetText} ${stateWord}`];
      state = null;
      if (zip === null) return null;
    }
  } else {
    // "12 Main St, Springfield, MA 01101"; "10 High Street, Leeds LS1 4AB"; "Flat 3, 5 Park Rd,
    // Bromley, Kent BR1 1AA": the segment after the street's is the town (a county may follow it).
    // Units after the street ("5 Elm St, Apt 4, Springfield") are the street's.
    const at = segments.findIndex((segment) => ['street', 'po-box'].includes(segmentKind(segment, tables)));
    // "12 Main St 4B, Springfield": the unit's number read as in a line without commas.
    const streetSegment = at === -1 ? '' : (segments[at] as string);
    const lastWord = streetSegment.slice(streetSegment.lastIndexOf(' ') + 1);
    const streetSplit = BARE_UNIT.test(lastWord) ? splitStreetAndCity(streetSegment, tables) : null;
    if (streetSplit !== null && streetSplit[1] === null) segments[at] = streetSplit[0];
    let cityAt = at === -1 ? segments.length - 1 : at + 1;
    while (cityAt < segments.length && segmentKind(segments[cityAt] as string, tables) === 'unit') cityAt++;
    if (cityAt < segments.length && cityAt > 0) {
      city = segments[cityAt] as string;
      street = segments.slice(0, cityAt);
    } else street = segments;
    // "Springfield MA" in one segment before the postal code's.
    const cityState = city !== null && state === null ? trailingState(city, tables, codes, false) : null;
    if (cityState !== null && cityState[0].length > 0) [city, state] = cityState;
  }
  return { line: street.join(', '), city: city !== null && city.length > 0 ? city : null, state, zip, country };
}

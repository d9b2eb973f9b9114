/**
 * Postal address normalization (interface.md 2.4; USPS Publication 28 conventions): street
 * number, street name with suffix and directionals standardized, secondary unit, building
 * line, city, state code, ZIP5 or folded postal code, ISO country. Every part is folded
 * (fold.ts: no case, no accents) or null when absent.
 *
 * Lines are split into tokens once; each token is looked up in the tables
 * ({@link DEFAULT_ADDRESS_TABLES}), so the cost is a few Map lookups per word. Input fields
 * longer than MAX_ADDRESS_FIELD_LENGTH are cut there before any work.
 */
import { splitLocality } from './address-locality.js';
import { DEFAULT_ADDRESS_TABLES, type AddressTables } from './address-tables.js';
import { classifyLine, joinUnits, lineText, parseStreetLine, readHouseNumber, splitUnitLine, tokenizeLine, unitSpan, type LineKind } from './address-street.js';
import { foldCase, foldCompact, foldText } from './fold.js';
import type { AddressInput, NormalizedAddress } from './types.js';

export {
  COUNTRY_NAMES,
  DEFAULT_ADDRESS_TABLES,
  DIRECTIONALS,
  EXTRA_STREET_SUFFIXES,
  NAME_WORDS,
  ORDINAL_WORDS,
  STATE_NAMES,
  UNIT_DESIGNATORS,
  USPS_STREET_SUFFIXES,
  type AddressTables,
  type UnitDesignator,
} from './address-tables.js';

/** Options of {@link normalizeAddress}. */
export interface AddressOptions {
  /** ISO alpha-2 country of addresses that name none (case-insensitive). Default: none (null). */
  readonly defaultCountry?: string | undefined;
  /** Standardization tables. Default {@link DEFAULT_ADDRESS_TABLES}. */
  readonly tables?: AddressTables | undefined;
  /**
   * Read a city, state and postal code off the end of the last address line where the
   * address has none of those fields (address-locality.ts: files that write a whole address
   * in one cell). Default false (the API's lines are read as written).
   */
  readonly oneLine?: boolean | undefined;
}

/** Characters of one input field looked at; the rest is ignored (1,000: no real address line is longer). */
export const MAX_ADDRESS_FIELD_LENGTH = 1000;

const HAS_DIGIT = /\d/;
const SINGLE_LETTER = /^[a-z]$/;
const HOUSE_NUMBER = /^\d+[a-z]?$/;
const LEADING_ZEROS = /^0+(?=\d)/;
const ZIP_SEPARATORS = /[\s-]+/g;
const FIVE_OR_NINE_DIGITS = /^(?:\d{5}|\d{9})$/;
const ALPHA2 = /^[a-z]{2}$/;

function clip(value: unknown): string {
  if (typeof value !== 'string') return typeof value === 'number' ? String(value) : '';
  return value.length > MAX_ADDRESS_FIELD_LENGTH ? value.slice(0, MAX_ADDRESS_FIELD_LENGTH) : value;
}

/** ISO alpha-2 country of a written country ("USA", "United Kingdom", "ca"), or null. */
function resolveCountry(value: string, tables: AddressTables): string | null {
  const key = foldCompact(value);
  if (key.length === 0) return null;
  const known = tables.countries.get(key);
  if (known !== undefined) return known;
  return ALPHA2.test(key) ? key.toUpperCase() : null;
}

/** State code: a known name -> its code; a code (up to 3 letters) folded; else the folded text. */
function resolveState(value: string, tables: AddressTables): string | null {
  const key = foldCompact(value);
  if (key.length === 0) return null;
  const code = tables.states.get(key);
  if (code !== undefined) return code;
  return key.length <= 3 ? key : foldText(value);
}

/**
 * ZIP5 for US addresses: the first five digits of a ZIP or ZIP+4 ("20009-1234" -> "20009").
 * Elsewhere, and for anything else, the folded postal code without spaces ("SW1A 1AA" ->
 * "sw1a1aa", "4011" stays "4011"). `country` null means unknown: 5 or 9 digits are read as a
 * ZIP; in the US, so is a ZIP with a digit misread by OCR as a letter (ocrZip: not where the
 * country is unknown, since "L-1234" of Luxembourg or "B1636" of Argentina read so). A ZIP that lost
 * its leading zero in a spreadsheet ("2134") is left as written.
 */
function normalizeZip(value: string, country: string | null): string | null {
  const compact = foldCompact(value);
  if (compact.length === 0) return null;
  if (country === 'US' || country === null) {
    const digits = value.trim().replace(ZIP_SEPARATORS, '');
    if (FIVE_OR_NINE_DIGITS.test(digits)) return digits.slice(0, 5);
    const read = country === 'US' ? ocrZip(compact) : null;
    if (read !== null) return read.slice(0, 5);
  }
  return compact;
}

/** Letters OCR reads for the digits of a ZIP: o for 0, l or i for 1, s for 5, b for 8, z for 2, g for 9. */
const OCR_ZIP_DIGITS: Readonly<Record<string, string>> = { o: '0', l: '1', i: '1', s: '5', b: '8', z: '2', g: '9' };

/**
 * A ZIP that OCR misread a digit of as a letter ("l7298", "6o614"): 5 or 9 characters
 * (compact, lower case), one of them such a letter, the rest digits; null for anything else.
 * No postal code of another country reads so (a British one of five characters has three
 * letters), nor does a British one with a mistyped character such as "46 4LL" (two letters).
 */
function ocrZip(compact: string): string | null {
  if (compact.length !== 5 && compact.length !== 9) return null;
  let out = '';
  let letters = 0;
  for (const ch of compact) {
    if (ch >= '0' && ch <= '9') out += ch;
    else {
      const digit = OCR_ZIP_DIGITS[ch];
      if (digit === undefined || ++letters > 1) return null;
      out += digit;
    }
  }
  return letters > 0 ? out : null;
}

/** A city: folded, name words standardized ("Saint Louis", "St. Louis" -> "st louis"). */
function normalizeCity(value: string, tables: AddressTables): string | null {
  const text = foldText(value);
  if (text.length === 0) return null;
  if (!text.includes(' ')) return tables.nameWords.get(text) ?? text;
  return text
    .split(' ')
    .map((w) => tables.nameWords.get(w) ?? w)
    .join(' ');
}

/**
 * Adds a building line: the first one is kept; a further one joins it only if together they
 * still read as a building line (not a unit or a street), so that the result reads back the same.
 */
function addBuilding(building: string | null, text: string, tables: AddressTables): string | null {
  if (text.length === 0) return building;
  if (building === null) return classifyLine(tokenizeLine(text, tables), text, tables) === 'other' ? text : null;
  const joined = `${building} ${text}`;
  return classifyLine(tokenizeLine(joined, tables), joined, tables) === 'other' ? joined : building;
}

/**
 * Normalizes an address into comparable parts (see NormalizedAddress): house number ("12b",
 * "12-14", "12 1/2"), street with USPS Pub 28 suffix and directionals standardized
 * ("n main st"), secondary unit ("apt 4b"), a non-unit second line as `building`, city,
 * state code ("California" -> "ca"), ZIP5 or folded postal code, ISO country ("USA" ->
 * "US", else `options.defaultCountry`, else null). Separate `streetNumber`/`streetName`
 * fields (CSV files) take precedence over what line 1 says. Total: any input, a result with
 * nulls for absent parts. Idempotent on its own output written back as fields.
 */
/**
 * A line that starts with a firm or a care-of name before the street ("Acme Store, 12 Main
 * St", "c/o Ann Lee, 9 Elm Rd"; Pub 28 recommends such names on a line of their own) as
 * two lines, the name first; any other line as itself. Only a line that does not read as a
 * street is split, at the first comma after which a street follows.
 */
function splitFirmLine(line: string, tables: AddressTables): string[] {
  const comma = line.indexOf(',');
  if (comma === -1) return [line];
  const whole = tokenizeLine(foldCase(line), tables);
  const kind = classifyLine(whole, lineText(whole), tables);
  if (kind !== 'other' && kind !== 'attention') return [line];
  for (let at = comma; at !== -1; at = line.indexOf(',', at + 1)) {
    const rest = line.slice(at + 1).trim();
    const tokens = tokenizeLine(foldCase(rest), tables);
    const restKind = classifyLine(tokens, lineText(tokens), tables);
    if (restKind === 'street' || restKind === 'po-box') return [line.slice(0, at).trim(), rest];
  }
  return [line];
}

export function normalizeAddress(input: AddressInput | null | undefined, options?: AddressOptions): NormalizedAddress {
  const tables = options?.tables ?? DEFAULT_ADDRESS_TABLES;
  const a: AddressInput = typeof input === 'object' && input !== null ? input : {};

  // Country first: the ZIP rule depends on it.
  const countryText = clip(a.countryCode);
  let country = countryText.length > 0 ? resolveCountry(countryText, tables) : null;
  if (country === null && typeof options?.defaultCountry === 'string') {
    country = resolveCountry(options.defaultCountry, tables);
  }

  let number: string | null = null;
  let street: string | null = null;
  let unit: string | null = null;
  let building: string | null = null;

  // Separate street fields (CSV files) take precedence over line 1.
  const numberText = clip(a.streetNumber);
  const numberTokens = numberText.length > 0 ? tokenizeLine(foldCase(numberText), tables) : [];
  if (numberTokens.length > 0) {
    const [n, used] = readHouseNumber(numberTokens, 0, false);
    if (n !== null) {
      number = n;
      // What follows the number: a unit ("12 Apt 4"), a letter ("12 B" -> "12b"), else noise.
      const rest = numberTokens[used];
      if (rest !== undefined && unitSpan(numberTokens, used, tables) > 0) {
        const parts = splitUnitLine(numberTokens.slice(used), tables);
        unit = parts.unit;
        if (parts.rest !== null) building = addBuilding(building, parts.rest, tables);
      } else if (rest !== undefined && used + 1 === numberTokens.length && SINGLE_LETTER.test(rest) && HOUSE_NUMBER.test(n + rest)) {
        number = n + rest;
      }
    } else if (numberTokens.some((t) => HAS_DIGIT.test(t))) {
      number = lineText(numberTokens)
        .replace(/[\s/-]+/g, '')
        .replace(LEADING_ZEROS, '');
    }
  }
  let separateStreet = false;
  const streetNameText = clip(a.streetName);
  if (streetNameText.length > 0) {
    const tokens = tokenizeLine(foldCase(streetNameText), tables);
    if (tokens.length > 0) {
      // With a street number field, the street name field is all street words ("17 Mile Dr").
      const parts = parseStreetLine(tokens, tables, number === null);
      separateStreet = parts.street !== null || parts.number !== null;
      if (number === null) number = parts.number;
      street = parts.street;
      unit = joinUnits(unit, parts.unit, tables);
      if (parts.rest !== null) building = addBuilding(building, parts.rest, tables);
    }
  }

  let cityText = clip(a.city);
  let stateText = clip(a.stateOrProvince);
  let zipText = clip(a.zipOrPostalCode);
  const written = [clip(a.addressLine1), clip(a.addressLine2), clip(a.addressLine3)];
  if (options?.oneLine === true && cityText.length === 0 && stateText.length === 0 && zipText.length === 0) {
    const last = written.findLastIndex((line) => line.length > 0);
    const tail = last === -1 ? null : splitLocality(written[last] as string, tables, last > 0);
    if (tail !== null) {
      written[last] = tail.line;
      cityText = tail.city ?? '';
      stateText = tail.state ?? '';
      zipText = tail.zip ?? '';
      if (countryText.length === 0 && tail.country !== null) country = tail.country;
    }
  }
  // A loop, not flatMap: flatMap and its closure were a tenth of normalizing a lookup's address.
  const lines: string[] = [];
  for (const line of written) {
    if (line.indexOf(',') === -1) lines.push(line);
    else for (const part of splitFirmLine(line, tables)) lines.push(part);
  }
  if (lines.some((line) => line.length > 0)) {
    const tokenLists = lines.map((line) => (line.length > 0 ? tokenizeLine(foldCase(line), tables) : []));
    const texts = tokenLists.map(lineText);
    const kinds = tokenLists.map((tokens, i) => classifyLine(tokens, texts[i] as string, tables));
    // The street line: none when the street came in its own field; only line 1 when the
    // number did; else the first line that looks like one ("Sunset Towers" / "77 Ocean Dr"),
    // else line 1 if it is plain words ("Main Street"). A later line without a number is a
    // building, never a street: a missing street stays missing rather than disagreeing.
    const plainFirst = kinds[0] === 'street' || kinds[0] === 'po-box' || kinds[0] === 'other';
    let streetLine: number;
    if (separateStreet) streetLine = -1;
    else if (number !== null) streetLine = plainFirst ? 0 : -1;
    else {
      streetLine = kinds.findIndex((k) => k === 'street' || k === 'po-box');
      if (streetLine === -1 && plainFirst) streetLine = 0;
    }
    for (let i = 0; i < lines.length; i++) {
      const kind = kinds[i] as LineKind;
      if (kind === 'empty' || kind === 'attention') continue;
      const tokens = tokenLists[i] as string[];
      if (i === streetLine) {
        const parts = parseStreetLine(tokens, tables);
        if (number === null) number = parts.number;
        street = parts.street;
        unit = joinUnits(unit, parts.unit, tables);
        if (parts.rest !== null) building = addBuilding(building, parts.rest, tables);
      } else if (kind === 'unit' || (kind === 'street' && unitSpan(tokens, 0, tables) > 0)) {
        const parts = splitUnitLine(tokens, tables);
        unit = joinUnits(unit, parts.unit, tables);
        if (parts.rest !== null) building = addBuilding(building, parts.rest, tables);
      } else if (!(separateStreet && i === 0)) {
        const text = texts[i] as string;
        // A plain line with no "#" reads back as itself: no need to classify it again.
        building = building === null && kind === 'other' && !tokens.includes('#') ? text : addBuilding(building, text, tables);
      }
    }
  }

  return {
    number,
    street,
    unit,
    building,
    city: cityText.length > 0 ? normalizeCity(cityText, tables) : null,
    state: stateText.length > 0 ? resolveState(stateText, tables) : null,
    zip: zipText.length > 0 ? normalizeZip(zipText, country) : null,
    country,
  };
}

/**
 * Phone normalization (interface.md 2.3, 8): E.164 with the number's ISO country, the
 * extension kept apart, validity by country-specific rules defaulting to the context's
 * country.
 *
 * Parsing and validation are libphonenumber-js with its `max` metadata. The default `min`
 * metadata only checks lengths: on 20,000 random digit strings per country it called valid
 * 60 US, 4,122 DE, 5,373 IE and 2,992 NZ numbers that the `max` number-range patterns
 * reject (and never the reverse), so `max` is required for the contract's "validated with
 * country-specific rules".
 *
 * A libphonenumber parse costs 6-10 µs, mostly in `new RegExp` calls it makes on every
 * match. Two measures, each tested to give libphonenumber's exact answers on random input:
 * - a North American fast path (phone-nanp.ts): a 10-digit number (or "1"/"+1" and 10
 *   digits), alone or followed by an extension ("x12", "ext. 12"), for a US or CA region is
 *   checked against the same `max` metadata patterns, compiled once (NANP_FAST_PATH);
 * - a bounded memo keyed on a canonical form of every other number ({@link PhoneMemo}, owned
 *   by the caller: a ContactIndex keeps one).
 * The fast path, the memo and the libphonenumber parse must give the same answers for the
 * same text; tests compare them on random input.
 */
import { getCountries, getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from 'libphonenumber-js/max';
import { parseNanpText } from './phone-nanp.js';
import type { NormalizeFailure, Normalized, NormalizedPhone, PhoneInput } from './types.js';

export { NANP_FAST_PATH, validateNanp } from './phone-nanp.js';

/** Country of phones that bring neither a country code nor a dialing prefix: "US". */
export const DEFAULT_PHONE_COUNTRY = 'US';

/** Most digits an extension may have (interface.md 2.3 and 8: "at most six numeric characters"). */
export const MAX_EXT_DIGITS = 6;

/**
 * Longest phone input looked at (characters, after trimming): 250, libphonenumber's own
 * limit (its MAX_INPUT_STRING_LENGTH). Longer input is 'too-long'.
 */
export const MAX_PHONE_INPUT_LENGTH = 250;

/**
 * Entries per generation of the parse memo (two generations are kept, so at most twice
 * this many). 16,384 entries hold the shared office and household numbers of a large
 * file; a miss costs two Map lookups (~0.1 µs) against a 6-10 µs parse.
 */
export const PHONE_MEMO_SIZE = 16_384;

/** ISO alpha-2 countries libphonenumber knows, by international dialing prefix ("44" -> GB, GG, IM, JE). */
const COUNTRIES_BY_CALLING_CODE: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const country of getCountries()) {
    const code = getCountryCallingCode(country);
    const list = map.get(code);
    if (list === undefined) map.set(code, [country]);
    else list.push(country);
  }
  for (const list of map.values()) Object.freeze(list);
  return map;
})();

// Format, control, unassigned, private-use and surrogate code points: removed before parsing
// ("non-numeric characters are removed"); a NUL between digits must not break a number.
const INVISIBLE = /\p{C}+/gu;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// A number written only with digits and common separators: parsed from its digits alone.
const PLAIN_NUMBER = /^\+?[0-9 ().\-/]+$/;
const NON_DIGITS = /\D/g;
const DIALING_PREFIX = /^\d{1,3}$/;
const EXT_VALUE = /^\d{1,6}$/;
// "00" at the start of a number with no "+": the ITU-T E.164 recommended international
// prefix, used outside North America ("0044 20 7946 0958" typed by a UK resident).
const DOUBLE_ZERO_START = /^[^0-9+]*00/;

/** Upper-cased ISO alpha-2 code if libphonenumber supports it, else null. */
function supportedCountry(code: unknown): CountryCode | null {
  if (typeof code !== 'string' || code.length !== 2) return null;
  const upper = code.toUpperCase();
  return isSupportedCountry(upper) ? upper : null;
}

function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return '';
}

/** Whether `ext` is a valid extension: 1 to 6 ASCII digits (interface.md 2.3, 8). */
export function isValidExt(ext: string | number | null | undefined): boolean {
  const text = toText(ext);
  return EXT_VALUE.test(text);
}

/** Whether `prefix` has the form of a dialing prefix: 1 to 3 ASCII digits (interface.md 8). */
export function isDialingPrefixFormat(prefix: string | null | undefined): boolean {
  return typeof prefix === 'string' && DIALING_PREFIX.test(prefix);
}

/** Whether `prefix` is the international dialing prefix of at least one country ("44" yes, "999" no). */
export function isKnownDialingPrefix(prefix: string | null | undefined): boolean {
  return isDialingPrefixFormat(prefix) && COUNTRIES_BY_CALLING_CODE.has(prefix as string);
}

/** Whether `countryCode` is an ISO alpha-2 country with a numbering plan (case-insensitive). */
export function isPhoneCountry(countryCode: string | null | undefined): boolean {
  return supportedCountry(countryCode) !== null;
}

/** The international dialing prefix of a country: "CA" -> "1", "GB" -> "44"; null if unknown. */
export function dialingPrefixOf(countryCode: string | null | undefined): string | null {
  const country = supportedCountry(countryCode);
  return country === null ? null : getCountryCallingCode(country);
}

/** Countries sharing a dialing prefix, alphabetical: "1" -> ["AG", ..., "CA", ..., "US", ...]; [] if none. */
export function countriesForDialingPrefix(prefix: string | null | undefined): readonly string[] {
  if (!isDialingPrefixFormat(prefix)) return [];
  return COUNTRIES_BY_CALLING_CODE.get(prefix as string) ?? [];
}

/**
 * Whether a dialing prefix and a country code denote the same country (interface.md 2.3:
 * "when countryCode is also given, both must denote the same country"):
 * `dialingPrefixMatchesCountry("1", "CA") === true`, `("44", "US") === false`.
 * False when either is malformed or unknown.
 */
export function dialingPrefixMatchesCountry(prefix: string | null | undefined, countryCode: string | null | undefined): boolean {
  if (!isDialingPrefixFormat(prefix)) return false;
  const expected = dialingPrefixOf(countryCode);
  return expected !== null && expected === prefix;
}

/** The parse of one canonical number, extension included, or why it failed (a memo entry). */
export type PhoneParse = { readonly e164: string; readonly country: string | null; readonly ext: string | null } | NormalizeFailure;

/**
 * A bounded memo of libphonenumber parses, owned by its caller (an index keeps one, so the
 * engine holds no module-level state): pass it to {@link normalizePhone}. Two generations:
 * lookups hit the young one, then the old; when the young one holds `generationSize`
 * entries it becomes the old one. A pure cache: the answer for a number never depends on
 * what was asked before, and is the same without the memo.
 */
export class PhoneMemo {
  private young = new Map<string, PhoneParse>();
  private old = new Map<string, PhoneParse>();

  /** `generationSize`: entries per generation, so at most twice this many are kept. */
  constructor(private readonly generationSize: number = PHONE_MEMO_SIZE) {}

  /** Entries held (at most twice the generation size). */
  get size(): number {
    return this.young.size + this.old.size;
  }

  /** The remembered parse under `key`, else `parse()`'s answer, remembered. */
  remember(key: string, parse: () => PhoneParse): PhoneParse {
    const recent = this.young.get(key);
    if (recent !== undefined) return recent;
    const value = this.old.get(key) ?? parse();
    if (this.young.size >= this.generationSize) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
    return value;
  }
}

function parseWith(text: string, country: CountryCode | null, callingCode: string | null): PhoneNumber | undefined {
  try {
    if (country !== null) return parsePhoneNumberFromString(text, { defaultCountry: country });
    if (callingCode !== null) return parsePhoneNumberFromString(text, { defaultCallingCode: callingCode });
    return parsePhoneNumberFromString(text);
  } catch {
    return undefined;
  }
}

/**
 * Parses `text` (already canonical) for a region and validates it with libphonenumber.
 * A number starting "00" with no "+" that is not valid as dialled is retried as "+...".
 */
function parseCanonical(text: string, country: CountryCode | null, callingCode: string | null): PhoneParse {
  let parsed = parseWith(text, country, callingCode);
  let valid = parsed !== undefined && parsed.isValid();
  if (!valid && !text.includes('+') && DOUBLE_ZERO_START.test(text)) {
    const retry = parseWith(`+${text.replace(DOUBLE_ZERO_START, '')}`, null, null);
    if (retry !== undefined && retry.isValid()) {
      parsed = retry;
      valid = true;
    }
  }
  if (parsed === undefined || !valid) return 'invalid';
  return { e164: parsed.number, country: parsed.country ?? null, ext: parsed.ext ?? null };
}

/**
 * The text libphonenumber is given: invisible characters removed, and a number written only
 * with digits and separators reduced to its digits (with a leading "+" if it had one), so
 * that "(202) 429-1000" and "202.429.1000" share one memo entry. Tests check on random
 * inputs that this reduction never changes libphonenumber's answer.
 */
export function canonicalPhoneText(text: string): string {
  const visible = PRINTABLE_ASCII.test(text) ? text : text.replace(INVISIBLE, '');
  if (!PLAIN_NUMBER.test(visible)) return visible;
  const digits = visible.replace(NON_DIGITS, '');
  return visible.charCodeAt(0) === 43 /* + */ ? `+${digits}` : digits;
}

function fail(reason: NormalizeFailure, input: string): Normalized<NormalizedPhone> {
  return { ok: false, reason, input };
}

/**
 * Normalizes a phone to E.164 with its ISO country and extension.
 *
 * Region of a number written without "+": the input's `countryCode` if libphonenumber knows
 * it, else its `dialingPrefix` (1-3 digits: "44"), else `defaultCountry` (default
 * {@link DEFAULT_PHONE_COUNTRY}; an unknown default leaves only "+" numbers parseable).
 * If `countryCode` and `dialingPrefix` disagree, the number is tried with each in turn.
 * International forms: "+44 20 7946 0958", "011 44 20 7946 0958" from the US, "0044 ...".
 * The extension is the input's `ext` field if it has digits, else one written in the number
 * ("x123", "ext. 12", ";ext=9", "#123"); it is kept even beyond six digits (see isValidExt).
 * Invalid by the country's rules -> `{ok:false, reason:'invalid'}`. `memo`, when given,
 * remembers libphonenumber's parses (the answers are the same without it).
 * Total: any string or object in, a result out. Idempotent on `e164` (with `ext` re-supplied).
 */
export function normalizePhone(
  input: PhoneInput | string | null | undefined,
  defaultCountry: string = DEFAULT_PHONE_COUNTRY,
  memo?: PhoneMemo,
): Normalized<NormalizedPhone> {
  let raw: string;
  let inputCountry: CountryCode | null = null;
  let inputPrefix: string | null = null;
  let extField: string | null = null;
  if (typeof input === 'object' && input !== null) {
    raw = toText(input.phoneNumber);
    inputCountry = supportedCountry(input.countryCode);
    const prefix = typeof input.dialingPrefix === 'string' ? input.dialingPrefix.trim() : toText(input.dialingPrefix);
    inputPrefix = isKnownDialingPrefix(prefix) ? prefix : null;
    const extDigits = toText(input.ext).replace(NON_DIGITS, '');
    extField = extDigits.length > 0 ? extDigits : null;
  } else {
    raw = toText(input);
  }
  const trimmed = raw.trim();
  if (trimmed.length === 0) return fail('empty', raw);
  if (trimmed.length > MAX_PHONE_INPUT_LENGTH) return fail('too-long', raw);

  let country: CountryCode | null = inputCountry;
  let callingCode: string | null = null;
  let fallbackCallingCode: string | null = null;
  if (country === null) {
    if (inputPrefix !== null) callingCode = inputPrefix;
    else country = supportedCountry(defaultCountry);
  } else if (inputPrefix !== null && getCountryCallingCode(country) !== inputPrefix) {
    fallbackCallingCode = inputPrefix;
  }

  const text = canonicalPhoneText(trimmed);
  if (text.length === 0) return fail('invalid', raw);
  const northAmerican = country === 'US' || country === 'CA' || (country === null && callingCode === '1');
  const parsed =
    (fallbackCallingCode === null ? parseNanpText(text, northAmerican) : undefined) ??
    libphonenumberParse(text, country, callingCode, fallbackCallingCode, memo);
  if (typeof parsed === 'string') return fail(parsed, raw);
  return {
    ok: true,
    value: { e164: parsed.e164, country: parsed.country, ext: extField ?? parsed.ext },
  };
}

/** libphonenumber's parse of a canonical text, through the memo when there is one. */
function libphonenumberParse(
  text: string,
  country: CountryCode | null,
  callingCode: string | null,
  fallbackCallingCode: string | null,
  memo: PhoneMemo | undefined,
): PhoneParse {
  const parse = (): PhoneParse => {
    const parsed = parseCanonical(text, country, callingCode);
    return typeof parsed === 'string' && fallbackCallingCode !== null ? parseCanonical(text, null, fallbackCallingCode) : parsed;
  };
  if (memo === undefined) return parse();
  return memo.remember(`${country ?? ''}|${callingCode ?? ''}|${fallbackCallingCode ?? ''}|${text}`, parse);
}

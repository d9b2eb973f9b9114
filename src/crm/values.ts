/**
 * Validation of single values the contract describes by reference to outside rules: phone
 * numbers (country-specific rules of libphonenumber's full metadata), email addresses
 * (validator's `isEmail`), ISO 8601 dates in 1900..2100. Total functions: never throw.
 */
import {
  getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString, type CountryCode,
} from 'libphonenumber-js/max';
import validator from 'validator';
import { isCommonEmail, validateNanp } from '../engine/index.js';

/** A phone number accepted by {@link checkPhone}. */
export interface CheckedPhone {
  /** E.164, e.g. "+14142020792". */
  readonly e164: string;
  /** National significant number, digits only. */
  readonly national: string;
  /** ISO alpha-2 of the number, null for non-geographic numbers. */
  readonly country: string | null;
  /** Country calling code, e.g. "1". */
  readonly dialingPrefix: string;
}

export type PhoneCheck =
  | { readonly ok: true; readonly value: CheckedPhone }
  | { readonly ok: false; readonly problem: 'empty' | 'invalid' };

/** The calling code of an ISO alpha-2 country, or null when unknown. */
export function callingCodeOf(country: string): string | null {
  const cc = country.toUpperCase();
  return isSupportedCountry(cc) ? getCountryCallingCode(cc as CountryCode) : null;
}

/** True when a 1-3 digit dialing prefix is the calling code of the country (interface.md 2.3). */
export function prefixMatchesCountry(prefix: string, country: string): boolean {
  return callingCodeOf(country) === prefix;
}

/**
 * Validates a phone number (interface.md 2.3): non-digits are removed (a leading "+" marks an
 * international number), then the number is checked with the rules of `countryCode`, else of
 * the country of `dialingPrefix`, else of `defaultCountry`.
 */
export function checkPhone(raw: string, options: { countryCode?: string; dialingPrefix?: string; defaultCountry: string }): PhoneCheck {
  if (raw.length > 100) return { ok: false, problem: 'invalid' };
  const international = /^\s*\+/.test(raw);
  const digits = raw.replace(/\D+/g, '');
  if (digits.length === 0) return { ok: false, problem: 'empty' };
  const attempts: { text: string; country?: CountryCode }[] = [];
  if (international) attempts.push({ text: `+${digits}` });
  else if (options.countryCode !== undefined && isSupportedCountry(options.countryCode)) {
    attempts.push({ text: digits, country: options.countryCode as CountryCode });
  } else if (options.dialingPrefix !== undefined) {
    attempts.push({ text: `+${options.dialingPrefix}${digits}` });
    if (digits.startsWith(options.dialingPrefix)) attempts.push({ text: `+${digits}` });
  } else if (isSupportedCountry(options.defaultCountry)) {
    attempts.push({ text: digits, country: options.defaultCountry as CountryCode });
  }
  for (const attempt of attempts) {
    // North American numbers: the engine's compiled patterns give libphonenumber's answer 15-20x faster.
    const fast = validateNanp(attempt.text, attempt.country ?? null);
    if (fast === 'invalid') continue;
    if (fast !== undefined) {
      return { ok: true, value: { e164: fast.e164, national: fast.e164.slice(2), country: fast.country, dialingPrefix: '1' } };
    }
    const parsed = parsePhoneNumberFromString(attempt.text, attempt.country);
    if (parsed?.isValid()) {
      return {
        ok: true,
        value: {
          e164: parsed.number,
          national: parsed.nationalNumber,
          country: parsed.country ?? null,
          dialingPrefix: parsed.countryCallingCode,
        },
      };
    }
  }
  return { ok: false, problem: 'invalid' };
}

/** The common address shape, recognised without validator (src/engine/email.ts). */
export { COMMON_EMAIL } from '../engine/index.js';

/**
 * True for a deliverable-looking email address (validator's isEmail, RFC 5321 lengths). The
 * common shape is recognised without validator (a test checks it implies validator's yes).
 */
export function isValidEmail(text: string): boolean {
  if (isCommonEmail(text)) return true;
  return text.length <= 320 && validator.isEmail(text);
}

/** First and last year accepted in dates (interface.md 2.1: the 20th or 21st century). */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2100;

// Bounded, unambiguous pattern: no nested quantifiers, so no catastrophic backtracking.
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

export type DateCheck =
  | { readonly ok: true; readonly iso: string; readonly year: number }
  | { readonly ok: false; readonly problem: 'format' | 'invalid' | 'out-of-range' };

/**
 * Checks an ISO 8601 date or date-time ("1975-09-18", "1975-09-18T00:00:00Z",
 * "2000-01-01T10:00:00-05:00") and returns its calendar date as written ("YYYY-MM-DD").
 */
export function checkIsoDate(text: string): DateCheck {
  const m = ISO_DATE.exec(text.trim());
  if (m === null) return { ok: false, problem: 'format' };
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) {
    return { ok: false, problem: 'invalid' };
  }
  const date = new Date(Date.UTC(year, month - 1, day));
  if (month < 1 || month > 12 || date.getUTCDate() !== day || date.getUTCMonth() !== month - 1) {
    return { ok: false, problem: 'invalid' };
  }
  if (year < MIN_YEAR || year > MAX_YEAR) return { ok: false, problem: 'out-of-range' };
  return { ok: true, iso: `${m[1]}-${m[2]}-${m[3]}`, year };
}

/** "1975-09-18" -> "1975-09-18T00:00:00Z", the form clients parse (compatibility.md). */
export function toDateTime(isoDate: string): string {
  return `${isoDate}T00:00:00Z`;
}

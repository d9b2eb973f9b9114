/**
 * Validation of a phone number as a request supplies it (interface.md 2.3), for the CRM's
 * input checks: the number's digits with the rules of its country, answering its E.164 form,
 * national number, country and dialing prefix. Matching normalizes phones with
 * {@link normalizePhone} (phone.ts), which is more lenient (extensions written in the number,
 * "00" international prefixes); both use libphonenumber-js's `max` metadata and the North
 * American fast path of phone.ts.
 */
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { validateNanp } from './phone-nanp.js';

/** Longest phone input validated (characters); longer input is invalid. */
export const MAX_CHECKED_PHONE_LENGTH = 100;

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

/** The answer of {@link checkPhone}. */
export type PhoneCheck = { readonly ok: true; readonly value: CheckedPhone } | { readonly ok: false; readonly problem: 'empty' | 'invalid' };

/**
 * Validates a phone number (interface.md 2.3): non-digits are removed (a leading "+" marks an
 * international number), then the number is checked with the rules of `countryCode`, else of
 * the country of `dialingPrefix`, else of `defaultCountry`. Total: never throws.
 */
export function checkPhone(raw: string, options: { countryCode?: string; dialingPrefix?: string; defaultCountry: string }): PhoneCheck {
  if (raw.length > MAX_CHECKED_PHONE_LENGTH) return { ok: false, problem: 'invalid' };
  const international = /^\s*\+/.test(raw);
  const digits = raw.replace(/\D+/g, '');
  if (digits.length === 0) return { ok: false, problem: 'empty' };
  const attempts: { text: string; country?: CountryCode }[] = [];
  if (international) attempts.push({ text: `+${digits}` });
  else if (options.countryCode !== undefined && isSupportedCountry(options.countryCode)) {
    attempts.push({ text: digits, country: options.countryCode });
  } else if (options.dialingPrefix !== undefined) {
    attempts.push({ text: `+${options.dialingPrefix}${digits}` });
    if (digits.startsWith(options.dialingPrefix)) attempts.push({ text: `+${digits}` });
  } else if (isSupportedCountry(options.defaultCountry)) {
    attempts.push({ text: digits, country: options.defaultCountry });
  }
  for (const attempt of attempts) {
    // North American numbers: the compiled patterns give libphonenumber's answer 15-20x faster.
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

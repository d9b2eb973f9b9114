/**
 * The North American fast path of phone normalization (phone.ts): a NANP number is validated
 * against libphonenumber-js's `max` metadata patterns, compiled once, instead of by a full
 * libphonenumber parse (6-10 µs). Tests (test/engine/phone.test.ts, phone-nanp.test.ts) check on random input
 * that it gives exactly libphonenumber's answers, for every form it takes.
 */
import { Metadata } from 'libphonenumber-js/max';
import type { PhoneParse } from './phone.js';

/** The parts of libphonenumber's Metadata class the fast path reads (runtime API, untyped in its .d.ts). */
interface NumberingPlanView {
  leadingDigits(): string | 0 | undefined;
  nationalNumberPattern(): string;
  nationalPrefixForParsing(): string | 0 | undefined;
  nationalPrefixTransformRule(): string | 0 | undefined;
  hasTypes(): boolean;
  type(name: string): { pattern(): string; possibleLengths(): readonly number[] | undefined } | undefined;
}
interface MetadataView {
  getCountryCodesForCallingCode(callingCode: string): readonly string[] | undefined;
  selectNumberingPlan(country: string): unknown;
  numberingPlan: NumberingPlanView;
}

/** One NANP country's validity check, compiled from the `max` metadata. */
interface NanpPlan {
  readonly country: string;
  /** The country's leading-digits pattern, anchored at the start, or null. */
  readonly leadingDigits: RegExp | null;
  readonly nationalNumber: RegExp;
  readonly types: readonly { readonly lengths: readonly number[] | undefined; readonly pattern: RegExp }[];
}

// The number types libphonenumber's getNumberType tries (FIXED_LINE first); a number is valid
// when its national number pattern and at least one type pattern (with its lengths) match.
const NUMBER_TYPES = ['FIXED_LINE', 'MOBILE', 'PREMIUM_RATE', 'TOLL_FREE', 'SHARED_COST', 'VOIP', 'PERSONAL_NUMBER', 'PAGER', 'UAN', 'VOICEMAIL'];

/**
 * The NANP (+1) countries in libphonenumber's order, with their patterns compiled once; null
 * (fast path off) if the metadata does not have the shape the fast path relies on: US and CA
 * parse national prefix "1" with no transform rule, and every +1 country has number types.
 */
const NANP_PLANS: readonly NanpPlan[] | null = (() => {
  try {
    const metadata = new Metadata() as unknown as MetadataView;
    const countries = metadata.getCountryCodesForCallingCode('1');
    if (countries === undefined || countries[0] !== 'US') return null;
    const plans: NanpPlan[] = [];
    for (const country of countries) {
      metadata.selectNumberingPlan(country);
      const plan = metadata.numberingPlan;
      if (!plan.hasTypes()) return null;
      if ((country === 'US' || country === 'CA') && (plan.nationalPrefixForParsing() !== '1' || plan.nationalPrefixTransformRule())) {
        return null;
      }
      const leading = plan.leadingDigits();
      const types: { lengths: readonly number[] | undefined; pattern: RegExp }[] = [];
      for (const name of NUMBER_TYPES) {
        const type = plan.type(name);
        if (type !== undefined && type.pattern()) {
          types.push({ lengths: type.possibleLengths(), pattern: new RegExp(`^(?:${type.pattern()})$`) });
        }
      }
      plans.push(
        Object.freeze({
          country,
          leadingDigits: leading ? new RegExp(`^(?:${leading})`) : null,
          nationalNumber: new RegExp(`^(?:${plan.nationalNumberPattern()})$`),
          types: Object.freeze(types),
        }),
      );
    }
    return Object.freeze(plans);
  } catch {
    return null;
  }
})();

/** Whether the North American fast path is on (the metadata has the shape it relies on). */
export const NANP_FAST_PATH = NANP_PLANS !== null;

// "2024291000", "12024291000", "+12024291000": a NANP national number is the last ten.
const NANP_DIGITS = /^(?:\+?1)?[2-9]\d{9}$/;

function hasNumberType(plan: NanpPlan, national: string): boolean {
  if (!plan.nationalNumber.test(national)) return false;
  for (const type of plan.types) {
    if (type.lengths !== undefined && !type.lengths.includes(national.length)) continue;
    if (type.pattern.test(national)) return true;
  }
  return false;
}

/**
 * libphonenumber's answer for a 10-digit NANP national number: the first +1 country whose
 * leading digits match, or (for one without leading digits) whose number types match; the
 * number is valid if that country's types match it.
 */
function parseNanp(plans: readonly NanpPlan[], national: string): PhoneParse {
  for (const plan of plans) {
    if (plan.leadingDigits !== null ? plan.leadingDigits.test(national) : hasNumberType(plan, national)) {
      return plan.leadingDigits === null || hasNumberType(plan, national) ? { e164: `+1${national}`, country: plan.country, ext: null } : 'invalid';
    }
  }
  return 'invalid';
}

/**
 * libphonenumber's validation (`parsePhoneNumberFromString(text, country)?.isValid()`) of a
 * North American number through the fast path: `text` is digits ("2024291000" or
 * "12024291000") with `country` US or CA, or "+12024291000". Answers the E.164 and ISO
 * country, 'invalid', or undefined when the fast path does not apply (ask libphonenumber).
 */
export function validateNanp(text: string, country: string | null): { readonly e164: string; readonly country: string | null } | 'invalid' | undefined {
  if (NANP_PLANS === null || !NANP_DIGITS.test(text)) return undefined;
  if (text.charCodeAt(0) !== 43 /* + */ && country !== 'US' && country !== 'CA') return undefined;
  const parsed = parseNanp(NANP_PLANS, text.slice(text.length - 10));
  return typeof parsed === 'string' ? 'invalid' : { e164: parsed.e164, country: parsed.country };
}
// A NANP number followed by an extension, in the forms libphonenumber-js reads the same way
// (its createExtensionPattern, checked against its answers in test/engine/phone-nanp.test.ts):
// the number in digits and the separators canonicalPhoneText drops ("+" only first), ending
// in a digit; spaces; a label, "ext", "extn" or "extension" (up to 20 digits follow) or "x"
// or "#" (up to 9); an optional "." or ":"; spaces; the extension's digits, to the end.
// Case-insensitive like libphonenumber's pattern, and for ASCII letters only (no `u` flag).
// "(312) 939-5063 x4354", "9049174167 ext. 905", "+1 504 688 8586 X1249", "202.429.1000#12".
const NANP_WITH_EXT = /^(\+?[0-9 ().\-/]*\d) *(?:(ext(?:n|ension)?)|[#x])[.:]? *(\d{1,20})$/i;
// Most extension digits libphonenumber takes after "x" or "#"; with more it finds no extension.
const MAX_EXT_AFTER_X = 9;
const NON_DIGITS = /\D/g;

/**
 * libphonenumber's parse of a phone text (canonicalPhoneText's) through the fast path, or
 * undefined when the fast path does not take it (ask libphonenumber). `text` is
 * "+12024291000", or "2024291000" / "12024291000" when `northAmerican` (the region is US,
 * CA or calling code 1); or such a number written with separators and followed by an
 * extension (NANP_WITH_EXT): "+1 (202) 429-1000 ext. 12" answers the extension "12".
 */
export function parseNanpText(text: string, northAmerican: boolean): PhoneParse | undefined {
  if (NANP_PLANS === null) return undefined;
  let digits = text;
  let ext: string | null = null;
  if (!NANP_DIGITS.test(text)) {
    const match = NANP_WITH_EXT.exec(text);
    if (match === null) return undefined;
    const [, number = '', explicitLabel, extDigits = ''] = match;
    if (explicitLabel === undefined && extDigits.length > MAX_EXT_AFTER_X) return undefined;
    digits = number.charCodeAt(0) === 43 /* + */ ? `+${number.replace(NON_DIGITS, '')}` : number.replace(NON_DIGITS, '');
    if (!NANP_DIGITS.test(digits)) return undefined;
    ext = extDigits;
  }
  if (digits.charCodeAt(0) !== 43 /* + */ && !northAmerican) return undefined;
  const parsed = parseNanp(NANP_PLANS, digits.slice(digits.length - 10));
  return ext === null || typeof parsed === 'string' ? parsed : { e164: parsed.e164, country: parsed.country, ext };
}

/**
 * Validation of single values the contract describes by reference to outside rules: email
 * addresses (validator's `isEmail`), ISO 8601 dates in the contract's years. Phone numbers are
 * the engine's (`checkPhone`, src/engine/phone-check.ts). Total functions: never throw.
 */
import isEmailModule from 'validator/lib/isEmail.js';
import { MAX_YEAR, MIN_YEAR, isCommonEmail } from '../engine/index.js';

/** validator's isEmail alone: the whole package (every validator) adds ~50-250 ms to each start. */
const isEmail = isEmailModule.default;

/** The common address shape, recognised without validator (src/engine/email.ts). */
export { COMMON_EMAIL } from '../engine/index.js';

/**
 * True for a deliverable-looking email address (validator's isEmail, RFC 5321 lengths). The
 * common shape is recognised without validator (a test checks it implies validator's yes).
 */
export function isValidEmail(text: string): boolean {
  if (isCommonEmail(text)) return true;
  return text.length <= 320 && isEmail(text);
}

/** First and last year accepted in dates (interface.md 2.1: the 20th or 21st century): the engine's. */
export { MAX_YEAR, MIN_YEAR };

// Bounded, unambiguous pattern: no nested quantifiers, so no catastrophic backtracking.
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

export type DateCheck =
  { readonly ok: true; readonly iso: string; readonly year: number } | { readonly ok: false; readonly problem: 'format' | 'invalid' | 'out-of-range' };

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

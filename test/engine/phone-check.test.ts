/**
 * checkPhone (src/engine/phone-check.ts) answers North American numbers through the engine's compiled
 * patterns (validateNanp); this checks it gives exactly libphonenumber's answer, on random and
 * edge-case numbers in every form that takes the fast path.
 */
import fc from 'fast-check';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { checkPhone } from '../../src/engine/index.js';

/** The answer of the libphonenumber-only implementation checkPhone had before the fast path. */
function reference(raw: string, options: { countryCode?: string; dialingPrefix?: string; defaultCountry: string }) {
  const international = /^\s*\+/.test(raw);
  const digits = raw.replace(/\D+/g, '');
  const attempts: { text: string; country?: CountryCode }[] = [];
  if (international) attempts.push({ text: `+${digits}` });
  else if (options.countryCode !== undefined) attempts.push({ text: digits, country: options.countryCode as CountryCode });
  else if (options.dialingPrefix !== undefined) {
    attempts.push({ text: `+${options.dialingPrefix}${digits}` });
    if (digits.startsWith(options.dialingPrefix)) attempts.push({ text: `+${digits}` });
  } else attempts.push({ text: digits, country: options.defaultCountry as CountryCode });
  for (const a of attempts) {
    const p = parsePhoneNumberFromString(a.text, a.country);
    if (p?.isValid())
      return { ok: true, value: { e164: p.number, national: p.nationalNumber, country: p.country ?? null, dialingPrefix: p.countryCallingCode } };
  }
  return { ok: false, problem: 'invalid' };
}

const OPTIONS = [
  { defaultCountry: 'US' },
  { defaultCountry: 'CA' },
  { defaultCountry: 'GB' },
  { countryCode: 'US', defaultCountry: 'GB' },
  { countryCode: 'CA', defaultCountry: 'US' },
  { countryCode: 'PR', defaultCountry: 'US' },
  { dialingPrefix: '1', defaultCountry: 'GB' },
];

describe('checkPhone fast path for North American numbers', () => {
  it('equals libphonenumber on random 10/11-digit numbers in every written form', () => {
    const national = fc
      .tuple(fc.integer({ min: 2, max: 9 }), fc.integer({ min: 0, max: 999_999_999 }))
      .map(([a, rest]) => `${a}${String(rest).padStart(9, '0')}`);
    const written = fc
      .tuple(national, fc.constantFrom('', '1', '+1', '+1 ', '1-', '+'), fc.boolean())
      .map(([n, prefix, dashed]) => prefix + (dashed ? `(${n.slice(0, 3)}) ${n.slice(3, 6)}-${n.slice(6)}` : n));
    fc.assert(
      fc.property(written, fc.constantFrom(...OPTIONS), (raw, options) => {
        expect(checkPhone(raw, options)).toEqual(reference(raw, options));
      }),
      { numRuns: 20_000 },
    );
  });

  it('equals libphonenumber for every area code', () => {
    for (let area = 200; area <= 999; area++) {
      for (const raw of [`${area}4291000`, `1${area}5550123`, `+1${area}2345678`]) {
        for (const options of OPTIONS) expect(checkPhone(raw, options), `${raw} ${JSON.stringify(options)}`).toEqual(reference(raw, options));
      }
    }
  });
});

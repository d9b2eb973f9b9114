import fc from 'fast-check';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import {
  canonicalPhoneText,
  countriesForDialingPrefix,
  dialingPrefixMatchesCountry,
  dialingPrefixOf,
  isDialingPrefixFormat,
  isKnownDialingPrefix,
  isPhoneCountry,
  isValidExt,
  NANP_FAST_PATH,
  normalizePhone,
  PhoneMemo,
} from '../../src/engine/phone.js';
import type { PhoneInput } from '../../src/engine/types.js';

type Row = [input: PhoneInput | string, country: string | undefined, e164: string | null, iso: string | null, ext: string | null];

const PAIRS: Row[] = [
  ['202-429-1000', undefined, '+12024291000', 'US', null],
  ['(202) 429-1000', 'US', '+12024291000', 'US', null],
  ['202.429.1000', 'US', '+12024291000', 'US', null],
  ['2024291000', 'US', '+12024291000', 'US', null],
  ['1-202-429-1000', 'US', '+12024291000', 'US', null],
  ['+1 (202) 429-1000', 'GB', '+12024291000', 'US', null],
  ['202-429-1000 x123', 'US', '+12024291000', 'US', '123'],
  ['202-429-1000 ext. 12', 'US', '+12024291000', 'US', '12'],
  ['+1 202 429 1000;ext=9', 'US', '+12024291000', 'US', '9'],
  ['202-429-1000 extension 55', 'US', '+12024291000', 'US', '55'],
  ['202.429.1000#123', 'US', '+12024291000', 'US', '123'],
  ['tel:+1-202-429-1000;ext=9', 'US', '+12024291000', 'US', '9'],
  ['+44 20 7946 0958', 'US', '+442079460958', 'GB', null],
  ['+44 (0)20 7946 0958', 'US', '+442079460958', 'GB', null],
  ['0044 20 7946 0958', 'US', '+442079460958', 'GB', null],
  ['011 44 20 7946 0958', 'US', '+442079460958', 'GB', null],
  ['020 7946 0958', 'GB', '+442079460958', 'GB', null],
  ['416-555-1234', 'US', '+14165551234', 'CA', null],
  ['+1 787 555 1234', 'US', '+17875551234', 'PR', null],
  ['(02) 9999 9999', 'AU', '+61299999999', 'AU', null],
  ['0412 345 678', 'AU', '+61412345678', 'AU', null],
  ['２０２４２９１０００', 'US', '+12024291000', 'US', null],
  ['202\u0000429\u00001000', 'US', '+12024291000', 'US', null],
  ['202\u200b-429-1000', 'US', '+12024291000', 'US', null],
  ['phone: 202-429-1000 (home)', 'US', '+12024291000', 'US', null],
  // PhoneInput objects: countryCode, dialingPrefix and ext honoured.
  [{ phoneNumber: '020 7946 0958', countryCode: 'GB' }, 'US', '+442079460958', 'GB', null],
  [{ phoneNumber: '020 7946 0958', countryCode: 'gb' }, 'US', '+442079460958', 'GB', null],
  [{ phoneNumber: '020 7946 0958', dialingPrefix: '44' }, 'US', '+442079460958', 'GB', null],
  [{ phoneNumber: '20 7946 0958', dialingPrefix: '44' }, 'US', '+442079460958', 'GB', null],
  [{ phoneNumber: '4165551234', dialingPrefix: '1', countryCode: 'CA' }, 'US', '+14165551234', 'CA', null],
  [{ phoneNumber: '020 7946 0958', dialingPrefix: '44', countryCode: 'US' }, 'US', '+442079460958', 'GB', null],
  [{ phoneNumber: '202-429-1000', ext: '999' }, 'US', '+12024291000', 'US', '999'],
  [{ phoneNumber: '202-429-1000 x1', ext: '999' }, 'US', '+12024291000', 'US', '999'],
  [{ phoneNumber: '202-429-1000', ext: 999 as unknown as string }, 'US', '+12024291000', 'US', '999'],
  [{ phoneNumber: '202-429-1000', ext: '' }, 'US', '+12024291000', 'US', null],
  [{ phoneNumber: '202-429-1000', countryCode: 'ZZ' }, 'US', '+12024291000', 'US', null],
  [{ phoneNumber: '2024291000', dialingPrefix: 1 as unknown as string }, 'GB', '+12024291000', 'US', null],
  // Invalid by the country's rules.
  ['555-1234', 'US', null, null, null],
  ['1-555-888-9999', 'US', null, null, null],
  ['999-999-9999', 'US', null, null, null],
  ['1-800-FLOWERS', 'US', null, null, null],
  ['020 7946 0958', 'US', null, null, null],
  ['202 429 1000', 'XX', null, null, null],
  ['hello', 'US', null, null, null],
];

describe('normalizePhone pairs', () => {
  for (const [input, country, e164, iso, ext] of PAIRS) {
    it(`${JSON.stringify(input)} (${country ?? 'default'}) -> ${e164 ?? 'invalid'}`, () => {
      const result = country === undefined ? normalizePhone(input) : normalizePhone(input, country);
      if (e164 === null) {
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.reason).toBe('invalid');
      } else {
        expect(result).toEqual({ ok: true, value: { e164, country: iso, ext } });
      }
    });
  }

  it('says why a phone has no value', () => {
    expect(normalizePhone('')).toEqual({ ok: false, reason: 'empty', input: '' });
    expect(normalizePhone('   ')).toMatchObject({ ok: false, reason: 'empty' });
    expect(normalizePhone({ phoneNumber: '' })).toMatchObject({ ok: false, reason: 'empty' });
    expect(normalizePhone('2'.repeat(251))).toMatchObject({ ok: false, reason: 'too-long' });
    expect(normalizePhone('\u0000\u0001')).toMatchObject({ ok: false, reason: 'invalid' });
    expect(normalizePhone(null)).toMatchObject({ ok: false, reason: 'empty' });
    expect(normalizePhone({ phoneNumber: null } as unknown as PhoneInput)).toMatchObject({ ok: false, reason: 'empty' });
  });

  it('keeps a long extension apart (the validator rejects it, matching ignores it)', () => {
    expect(normalizePhone('2024291000 x1234567')).toMatchObject({ ok: true, value: { ext: '1234567' } });
  });
});

describe('dialing prefix and country helpers', () => {
  it('matches prefixes to countries', () => {
    expect(dialingPrefixMatchesCountry('1', 'CA')).toBe(true);
    expect(dialingPrefixMatchesCountry('1', 'US')).toBe(true);
    expect(dialingPrefixMatchesCountry('1', 'us')).toBe(true);
    expect(dialingPrefixMatchesCountry('44', 'GB')).toBe(true);
    expect(dialingPrefixMatchesCountry('44', 'JE')).toBe(true);
    expect(dialingPrefixMatchesCountry('44', 'US')).toBe(false);
    expect(dialingPrefixMatchesCountry('+44', 'GB')).toBe(false);
    expect(dialingPrefixMatchesCountry('1', 'ZZ')).toBe(false);
    expect(dialingPrefixMatchesCountry('', 'US')).toBe(false);
    expect(dialingPrefixMatchesCountry(null, 'US')).toBe(false);
    expect(dialingPrefixMatchesCountry('1', null)).toBe(false);
  });

  it('knows prefixes and countries', () => {
    expect(dialingPrefixOf('CA')).toBe('1');
    expect(dialingPrefixOf('gb')).toBe('44');
    expect(dialingPrefixOf('XX')).toBeNull();
    expect(countriesForDialingPrefix('44')).toEqual(['GB', 'GG', 'IM', 'JE']);
    expect(countriesForDialingPrefix('1')).toContain('CA');
    expect(countriesForDialingPrefix('999')).toEqual([]);
    expect(countriesForDialingPrefix('1234')).toEqual([]);
    expect(isDialingPrefixFormat('1')).toBe(true);
    expect(isDialingPrefixFormat('123')).toBe(true);
    expect(isDialingPrefixFormat('1234')).toBe(false);
    expect(isDialingPrefixFormat('1a')).toBe(false);
    expect(isDialingPrefixFormat('')).toBe(false);
    expect(isKnownDialingPrefix('44')).toBe(true);
    expect(isKnownDialingPrefix('999')).toBe(false);
    expect(isPhoneCountry('US')).toBe(true);
    expect(isPhoneCountry('uk')).toBe(false);
  });

  it('validates extensions: at most six digits', () => {
    for (const ok of ['1', '123456', 999]) expect(isValidExt(ok)).toBe(true);
    for (const bad of ['', '1234567', '12a', ' 12', '１２', null, undefined, -1, 1.5]) {
      expect(isValidExt(bad as string)).toBe(false);
    }
  });
});

/** libphonenumber alone, on the input with invisible characters removed: the oracle. */
function oracle(text: string, country: CountryCode): string | null {
  const visible = text.trim().replace(/\p{C}+/gu, '');
  const first = parsePhoneNumberFromString(visible, { defaultCountry: country });
  if (first?.isValid()) return `${first.number}|${first.country ?? ''}|${first.ext ?? ''}`;
  // Our one addition to libphonenumber: a number starting "00" (read on its canonical form,
  // so "0 0 44..." counts) is retried as "+...".
  const canonical = canonicalPhoneText(visible);
  if (!canonical.includes('+') && /^[^0-9+]*00/.test(canonical)) {
    const retry = parsePhoneNumberFromString(`+${canonical.replace(/^[^0-9+]*00/, '')}`);
    if (retry?.isValid()) return `${retry.number}|${retry.country ?? ''}|${retry.ext ?? ''}`;
  }
  return null;
}

function ours(text: string, country: CountryCode, memo?: PhoneMemo): string | null {
  const r = normalizePhone(text, country, memo);
  return r.ok ? `${r.value.e164}|${r.value.country ?? ''}|${r.value.ext ?? ''}` : null;
}

const SEPARATORS = [' ', '-', '.', '(', ')', '/', '', '', '', ''];
/** A number as people type it: a digit string with separators sprinkled in, maybe "+" or "00". */
const typedNumber = fc
  .tuple(
    fc.constantFrom('', '', '+', '+1', '1', '00', '011', '+44', '0', '+61'),
    fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 3, maxLength: 13 }),
    fc.array(fc.constantFrom(...SEPARATORS), { minLength: 13, maxLength: 13 }),
  )
  .map(([lead, digits, seps]) => lead + digits.map((d, i) => `${d}${seps[i] ?? ''}`).join(''));
/** Plausible US numbers: valid area codes and exchanges, so many parse as valid. */
const usNumber = fc
  .tuple(fc.integer({ min: 200, max: 999 }), fc.integer({ min: 200, max: 999 }), fc.integer({ min: 0, max: 9999 }))
  .map(([a, b, c]) => `(${a}) ${b}-${String(c).padStart(4, '0')}`);
const COUNTRIES: CountryCode[] = ['US', 'CA', 'GB', 'AU', 'DE', 'FR', 'IE', 'NZ', 'MX', 'IN'];

describe('the canonical form and the memo never change libphonenumber answers', { timeout: 60_000 }, () => {
  it('agrees with libphonenumber on typed numbers, cold and memoized', () => {
    fc.assert(
      fc.property(fc.oneof(typedNumber, usNumber), fc.constantFrom(...COUNTRIES), (text, country) => {
        const memo = new PhoneMemo();
        const cold = ours(text, country, memo);
        expect(cold).toBe(oracle(text, country));
        expect(ours(text, country, memo)).toBe(cold);
        expect(ours(text, country)).toBe(cold);
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with libphonenumber on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.constantFrom(...COUNTRIES), (text, country) => {
        expect(ours(text, country)).toBe(oracle(text, country));
      }),
      { numRuns: 2000 },
    );
  });

  it('takes the North American fast path with exactly libphonenumber answers', () => {
    expect(NANP_FAST_PATH).toBe(true);
    // Every area code, a few random exchanges and lines each, in the forms the fast path takes.
    fc.assert(
      fc.property(
        fc.integer({ min: 200, max: 999 }),
        fc.integer({ min: 0, max: 9_999_999 }),
        fc.constantFrom('', '1', '+1', '1 ', '+1 ('),
        fc.constantFrom<CountryCode>('US', 'CA', 'GB', 'PR'),
        (area, rest, lead, country) => {
          const text = `${lead}${area}${String(rest).padStart(7, '0')}`;
          expect(ours(text, country)).toBe(oracle(text, country));
        },
      ),
      { numRuns: 20_000 },
    );
    for (let area = 200; area <= 999; area++) {
      const text = `${area}5550123`;
      expect(ours(text, 'US')).toBe(oracle(text, 'US'));
      expect(ours(text, 'CA')).toBe(oracle(text, 'CA'));
    }
  });

  it('agrees with libphonenumber when the region is a dialing prefix', () => {
    fc.assert(
      fc.property(fc.oneof(typedNumber, usNumber), fc.constantFrom('1', '44', '61'), (text, prefix) => {
        const r = normalizePhone({ phoneNumber: text, dialingPrefix: prefix });
        const visible = text.trim();
        const p = parsePhoneNumberFromString(visible, { defaultCallingCode: prefix });
        let expected = p?.isValid() ? `${p.number}|${p.country ?? ''}` : null;
        const canonical = canonicalPhoneText(visible);
        if (expected === null && !canonical.includes('+') && /^[^0-9+]*00/.test(canonical)) {
          const retry = parsePhoneNumberFromString(`+${canonical.replace(/^[^0-9+]*00/, '')}`);
          if (retry?.isValid()) expected = `${retry.number}|${retry.country ?? ''}`;
        }
        expect(r.ok ? `${r.value.e164}|${r.value.country ?? ''}` : null).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('reduces plain numbers to digits only', () => {
    expect(canonicalPhoneText('(202) 429-1000')).toBe('2024291000');
    expect(canonicalPhoneText('+44 (0)20 7946 0958')).toBe('+4402079460958');
    expect(canonicalPhoneText('202-429-1000 x12')).toBe('202-429-1000 x12');
    expect(canonicalPhoneText('202\u0000429')).toBe('202429');
  });

  it('stays bounded and correct past the memo size', () => {
    const memo = new PhoneMemo(8);
    const london = (i: number): string => `020 7946 ${String(i).padStart(4, '0')}`;
    for (let i = 0; i < 40; i++) {
      expect(ours(london(i), 'GB', memo)).toBe(`+44207946${String(i).padStart(4, '0')}|GB|`);
      expect(memo.size).toBeLessThanOrEqual(16);
    }
    expect(memo.size).toBeGreaterThan(8);
    expect(ours(london(0), 'GB', memo)).toBe('+442079460000|GB|');
  });
});

describe('normalizePhone properties', { timeout: 60_000 }, () => {
  it('is total on any string and country', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ maxLength: 3 }), (text, country) => {
        const r = normalizePhone(text, country);
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(typeof normalizePhone(text).ok).toBe('boolean');
        expect(typeof normalizePhone({ phoneNumber: text, dialingPrefix: text, countryCode: text, ext: text }).ok).toBe('boolean');
      }),
      { numRuns: 1000 },
    );
    expect(normalizePhone('2'.repeat(100_000)).ok).toBe(false);
    expect(normalizePhone(`${' '.repeat(100_000)}202-429-1000`).ok).toBe(true);
    expect(normalizePhone('\ud800202-429-1000\udfff').ok).toBe(true);
  });

  it('is idempotent: the E.164 form normalizes to itself, whatever the default country', () => {
    fc.assert(
      fc.property(fc.oneof(typedNumber, usNumber), fc.constantFrom(...COUNTRIES), fc.constantFrom(...COUNTRIES), (text, country, other) => {
        const first = normalizePhone(text, country);
        if (!first.ok) return;
        const again = normalizePhone({ phoneNumber: first.value.e164, ext: first.value.ext }, other);
        expect(again).toEqual(first);
      }),
      { numRuns: 3000 },
    );
  });
});

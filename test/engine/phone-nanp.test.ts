/**
 * The North American fast path for a number followed by an extension (parseNanpText in
 * src/engine/phone-nanp.ts) gives exactly libphonenumber's answer: e164, country, extension,
 * and 'invalid' where libphonenumber finds no valid number. Random numbers in every
 * separator style, label, case and extension length, for NANP and other regions; the forms
 * the fast path must take are checked to be taken, the others to fall through to
 * libphonenumber.
 */
import fc from 'fast-check';
import { getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { canonicalPhoneText, NANP_FAST_PATH, normalizePhone, PhoneMemo, type PhoneParse } from '../../src/engine/phone.js';
import { parseNanpText } from '../../src/engine/phone-nanp.js';
import type { PhoneInput } from '../../src/engine/types.js';

type Region = { defaultCountry: CountryCode } | { defaultCallingCode: string };

/** libphonenumber's answer for `text` in a region (or none): "e164|country|ext", or null when not valid. */
function lib(text: string, region?: Region): string | null {
  const p = parsePhoneNumberFromString(text, region);
  return p?.isValid() ? `${p.number}|${p.country ?? ''}|${p.ext ?? ''}` : null;
}

function key(parse: PhoneParse): string | null {
  return typeof parse === 'string' ? null : `${parse.e164}|${parse.country ?? ''}|${parse.ext ?? ''}`;
}

// Each part of a generated number with whether the fast path takes it ("x" and "#" take up
// to 9 extension digits, the explicit labels 20; 0: not taken whatever the length).
const LEADS: readonly (readonly [lead: string, takes: boolean])[] = [
  ['', true],
  ['1', true],
  ['+1', true],
  ['1 ', true],
  ['+1 ', true],
  ['1-', true],
  ['+1-', true],
  ['1.', true],
  ['+1 (', true],
  ['1(', true],
  ['(', true],
  ['+ 1 ', true],
  ['+', false], // "+2024291000": not a +1 number
  ['11', false],
  ['0', false],
];
const STYLES = ['(a) e-l', 'a-e-l', 'a.e.l', 'ael', 'a e l', 'a/e/l', '(a)e-l', 'a-e.l', 'a  e  l', 'a) e l', '(a) (e) l', 'a--e--l'];
const BEFORE: readonly (readonly [before: string, takes: boolean])[] = [
  ['', true],
  [' ', true],
  [' ', true],
  ['  ', true],
  ['\t', true], // removed with the other control characters (canonicalPhoneText)
  [', ', false],
  ['-', false],
  ['.', false],
];
const LABELS: readonly (readonly [label: string, maxDigits: number])[] = [
  ['x', 9],
  ['X', 9],
  ['x.', 9],
  ['x:', 9],
  ['#', 9],
  ['ext', 20],
  ['EXT', 20],
  ['Ext', 20],
  ['ext.', 20],
  ['Ext.', 20],
  ['EXT.', 20],
  ['ext:', 20],
  ['extn', 20],
  ['Extn.', 20],
  ['extension', 20],
  ['Extension', 20],
  ['EXTENSION', 20],
  ['xt', 0],
  ['ex', 0],
  ['e', 0],
  ['ext#', 0],
  [';ext=', 0],
  [',,', 0],
  ['~', 0],
  ['int', 0],
  ['x.:', 0],
  ['extensión', 0],
  ['ｘ', 0],
];
const AFTER: readonly (readonly [after: string, takes: boolean])[] = [
  ['', true],
  ['', true],
  [' ', true],
  ['  ', true],
  ['-', false],
  [', ', false],
  ['\t', true],
];
const TRAILERS: readonly (readonly [trailer: string, takes: boolean])[] = [
  ['', true],
  ['', true],
  ['', true],
  [' ', true], // trimmed
  ['#', false],
  [' x', false],
  ['a', false],
];
const REGIONS: readonly (readonly [region: Region, northAmerican: boolean])[] = [
  [{ defaultCountry: 'US' }, true],
  [{ defaultCountry: 'CA' }, true],
  [{ defaultCallingCode: '1' }, true],
  [{ defaultCountry: 'GB' }, false],
  [{ defaultCountry: 'PR' }, false],
  [{ defaultCountry: 'AU' }, false],
  [{ defaultCallingCode: '44' }, false],
];

/** One of `parts`, mostly one the fast path takes, so that most numbers are taken whole. */
function part<T extends readonly [string, boolean | number]>(parts: readonly T[]): fc.Arbitrary<T> {
  const taken = parts.filter(([, takes]) => takes !== false && takes !== 0);
  return fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...taken) }, { weight: 1, arbitrary: fc.constantFrom(...parts) });
}

/** A North American number (any area code and exchange, valid or not) with an extension, as people type it. */
const numberWithExt = fc
  .record({
    lead: part(LEADS),
    area: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 200, max: 999 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 199 }) }),
    exchange: fc.integer({ min: 0, max: 999 }),
    line: fc.integer({ min: 0, max: 9999 }),
    style: fc.constantFrom(...STYLES),
    before: part(BEFORE),
    label: part(LABELS),
    after: part(AFTER),
    ext: fc.oneof(
      { weight: 3, arbitrary: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 6 }) },
      { weight: 1, arbitrary: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 25, size: 'max' }) },
    ),
    trailer: part(TRAILERS),
  })
  .map((p) => {
    const number = p.style
      .replace('a', String(p.area).padStart(3, '0'))
      .replace('e', String(p.exchange).padStart(3, '0'))
      .replace('l', String(p.line).padStart(4, '0'));
    const ext = p.ext.join('');
    const text = `${p.lead[0]}${number}${p.before[0]}${p.label[0]}${p.after[0]}${ext}${p.trailer[0]}`;
    const written = p.area >= 200 && p.lead[1] && p.before[1] && ext.length <= p.label[1] && p.after[1] && p.trailer[1];
    return { text, written, international: p.lead[0].startsWith('+') };
  });

describe('the North American fast path for a number with an extension', { timeout: 120_000 }, () => {
  it('takes exactly its forms, with libphonenumber answers', () => {
    expect(NANP_FAST_PATH).toBe(true);
    let taken = 0;
    fc.assert(
      fc.property(numberWithExt, fc.constantFrom(...REGIONS), ({ text, written, international }, [region, northAmerican]) => {
        const canonical = canonicalPhoneText(text.trim());
        const fast = parseNanpText(canonical, northAmerican);
        expect(fast !== undefined).toBe(written && (international || northAmerican));
        if (fast === undefined) return;
        taken++;
        expect(key(fast)).toBe(lib(canonical, region));
      }),
      { numRuns: 20_000 },
    );
    expect(taken).toBeGreaterThan(5_000);
  });

  it('agrees with libphonenumber for every area code, US and CA', () => {
    for (let area = 100; area <= 999; area++) {
      for (const text of [`${area}5550123 x12`, `1 (${area}) 222-0123 ext. 1234567`, `+1 ${area} 911 0123 #9`]) {
        for (const [region, northAmerican] of REGIONS.slice(0, 2)) {
          const fast = parseNanpText(text, northAmerican);
          if (area >= 200) expect(fast).toBeDefined();
          if (fast !== undefined) expect(key(fast)).toBe(lib(text, region));
        }
      }
    }
  });

  it('leaves normalizePhone answering as libphonenumber does, cold and memoized, with or without an ext field', () => {
    const countryCodes = [undefined, 'US', 'CA', 'GB', 'PR', 'ZZ'] as const;
    const prefixes = [undefined, '1', '44'] as const;
    const extFields = [undefined, '', '905', ' 12 '] as const;
    fc.assert(
      fc.property(
        numberWithExt,
        fc.constantFrom<CountryCode>('US', 'CA', 'GB', 'PR', 'AU'),
        fc.constantFrom(...countryCodes),
        fc.constantFrom(...prefixes),
        fc.constantFrom(...extFields),
        fc.boolean(),
        ({ text }, defaultCountry, countryCode, dialingPrefix, ext, asObject) => {
          const input: PhoneInput | string = asObject ? { phoneNumber: text, countryCode, dialingPrefix, ext } : text;
          const expected = asObject ? expectedFor(text, defaultCountry, countryCode, dialingPrefix, ext) : expectedFor(text, defaultCountry);
          const memo = new PhoneMemo();
          for (const answer of [
            normalizePhone(input, defaultCountry, memo),
            normalizePhone(input, defaultCountry, memo),
            normalizePhone(input, defaultCountry),
          ]) {
            expect(answer.ok ? `${answer.value.e164}|${answer.value.country ?? ''}|${answer.value.ext ?? ''}` : null).toBe(expected);
          }
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('answers fixed examples', () => {
    const cases: [input: PhoneInput | string, country: string, expected: string | null][] = [
      ['(312) 939-5063 x4354', 'US', '+13129395063|US|4354'],
      ['9049174167 ext. 905', 'US', '+19049174167|US|905'],
      ['+1 504 688 8586 x1249', 'US', '+15046888586|US|1249'],
      ['+1 504 688 8586 x1249', 'GB', '+15046888586|US|1249'],
      ['206-410-5562 ext. 8644', 'US', '+12064105562|US|8644'],
      ['206-410-5562 ext. 8644', 'GB', null],
      ['416-555-1234 EXTENSION 007', 'CA', '+14165551234|CA|007'],
      ['416-555-1234 #12', 'US', '+14165551234|CA|12'],
      ['1 (787) 555-1234 Ext.3', 'US', '+17875551234|PR|3'],
      ['202 429 1000 x123456789', 'US', '+12024291000|US|123456789'],
      ['202 429 1000 x1234567890', 'US', null], // libphonenumber: no extension, no number
      ['202 429 1000 ext 12345678901234567890', 'US', '+12024291000|US|12345678901234567890'],
      ['1 555 888 9999 x1', 'US', null],
      ['(123) 456-7890 x1', 'US', null],
      [{ phoneNumber: '202-429-1000 x12', ext: '77' }, 'US', '+12024291000|US|77'],
      [{ phoneNumber: '202-429-1000 x12', dialingPrefix: '1' }, 'GB', '+12024291000|US|12'],
    ];
    for (const [input, country, expected] of cases) {
      const answer = normalizePhone(input, country);
      expect(answer.ok ? `${answer.value.e164}|${answer.value.country ?? ''}|${answer.value.ext ?? ''}` : null, JSON.stringify(input)).toBe(expected);
    }
  });
});

/**
 * What normalizePhone answers by libphonenumber alone: the region as normalizePhone resolves
 * it (countryCode, else dialingPrefix, else the default; a disagreeing dialingPrefix tried
 * second), invisible characters removed, its "00" retry, and the ext field's digits before the written extension.
 */
function expectedFor(text: string, defaultCountry: CountryCode, countryCode?: string, dialingPrefix?: string, ext?: string): string | null {
  const visible = text.trim().replace(/\p{C}+/gu, '');
  const country = countryCode !== undefined && countryCode !== 'ZZ' ? (countryCode as CountryCode) : undefined;
  const regions: Region[] = [];
  if (country !== undefined) {
    regions.push({ defaultCountry: country });
    if (dialingPrefix !== undefined && dialingPrefix !== getCountryCallingCode(country)) regions.push({ defaultCallingCode: dialingPrefix });
  } else if (dialingPrefix !== undefined) regions.push({ defaultCallingCode: dialingPrefix });
  else regions.push({ defaultCountry });
  const extField = (ext ?? '').replace(/\D/g, '');
  for (const region of regions) {
    let answer = lib(visible, region);
    if (answer === null && !visible.includes('+') && /^[^0-9+]*00/.test(visible)) {
      answer = lib(`+${visible.replace(/^[^0-9+]*00/, '')}`);
    }
    if (answer !== null) {
      const [e164, iso, written] = answer.split('|');
      return `${e164}|${iso}|${extField.length > 0 ? extField : written}`;
    }
  }
  return null;
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { daysInMonth, isoDateTime, normalizeDate, type DateOptions } from '../../src/engine/date.js';

type Row = [raw: string, iso: string | null, options?: DateOptions];

const PAIRS: Row[] = [
  // ISO 8601 dates and datetimes: the calendar date as written, offsets never applied.
  ['1975-09-18', '1975-09-18'],
  ['1975-9-8', '1975-09-08'],
  ['1975-09-18T00:00:00Z', '1975-09-18'],
  ['1975-09-18T00:00:00-05:00', '1975-09-18'],
  ['1975-09-18T23:59:59+14:00', '1975-09-18'],
  ['1975-09-18T00:00:00.000Z', '1975-09-18'],
  ['1975-09-18 12:30', '1975-09-18'],
  ['1975-09-18t00:00:00z', '1975-09-18'],
  ['  1975-09-18  ', '1975-09-18'],
  ['19750918', '1975-09-18'],
  ['19081209', '1908-12-09'],
  ['1975/09/18', '1975-09-18'],
  ['1975.09.18', '1975-09-18'],
  // Numeric with the year last: the order option, unless a part > 12 settles it.
  ['9/18/1975', '1975-09-18'],
  ['09/18/1975', '1975-09-18'],
  ['18/9/1975', '1975-09-18'],
  ['18/9/1975', '1975-09-18', { order: 'mdy' }],
  ['9/18/1975', '1975-09-18', { order: 'dmy' }],
  ['03/04/1975', '1975-03-04'],
  ['03/04/1975', '1975-04-03', { order: 'dmy' }],
  ['03-04-1975', '1975-04-03', { order: 'dmy' }],
  ['03.04.1975', '1975-04-03', { order: 'dmy' }],
  ['9/18/1975 12:00:00 AM', '1975-09-18'],
  // Two-digit years: pivot 2029 by default.
  ['9/18/75', '1975-09-18'],
  ['1/2/29', '2029-01-02'],
  ['1/2/30', '1930-01-02'],
  ['1/2/00', '2000-01-02'],
  ['1/2/30', '2030-01-02', { pivotYear: 2050 }],
  ['1/2/99', '1999-01-02', { pivotYear: 2050 }],
  ['75/09/18', '1975-09-18', { order: 'ymd' }],
  // Month names.
  ['18-Sep-75', '1975-09-18'],
  ['18-SEP-1975', '1975-09-18'],
  ['18 Sep 1975', '1975-09-18'],
  ['18 September 1975', '1975-09-18'],
  ['18th September, 1975', '1975-09-18'],
  ['Sep 18, 1975', '1975-09-18'],
  ['Sept. 18, 1975', '1975-09-18'],
  ['September 18 1975', '1975-09-18'],
  ['september 18th, 1975', '1975-09-18'],
  ['Thursday, September 18, 1975', '1975-09-18'],
  ['Thu Sep 18 1975 00:00:00 GMT-0500 (Central Daylight Time)', '1975-09-18'],
  ['1975-Sep-18', '1975-09-18'],
  ['1 May 2000', '2000-05-01'],
  // Calendar validity.
  ['2000-02-29', '2000-02-29'],
  ['1996-02-29', '1996-02-29'],
  ['1999-02-29', null],
  ['1900-02-29', null],
  ['2100-02-29', null],
  ['1975-02-30', null],
  ['1975-04-31', null],
  ['1975-13-01', null],
  ['1975-00-10', null],
  ['1975-01-00', null],
  ['13/13/1975', null],
  ['31-Foo-1975', null],
  ['1975-09-18T25:00:00Z', null],
  ['1975-09', null],
  ['1975', null],
  // A month and a year is no calendar date (not 18 March '75), unless year-only dates are asked for.
  ['Mar 1975', null],
  ['March 1975', null],
  ['Mar 18 75', '1975-03-18'],
  ['September 18th1975', '1975-09-18'],
  ['Sep 5th1975', '1975-09-05'],
  // Year-only dates (files of historical records): what gives no day is read as its year.
  ['1843', '1843', { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['abt 1843', '1843', { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['1843 (est)', '1843', { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['Mar 1843', '1843', { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['March, 1843', '1843', { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['1843 Mar', '1843', { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['1843-03', '1843', { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['3/1843', '1843', { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['1843-03-00', '1843', { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['00/03/1843', '1843', { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['Q1 1843', '1843', { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['Mar Qtr 1843', '1843', { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['chr 12 Mar 1843', '1843', { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['bapt. 1843', '1843', { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['born 12 Mar 1843', '1843-03-12', { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['b. 1843', '1843', { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['Foo 1843', null, { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['13/1843', null, { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['1843-13-00', null, { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['1843/44', null, { yearOnly: true, years: { min: 1500, max: 2100 } }],
  ['yesterday', null],
  ['9/18/975', null],
];

describe('normalizeDate pairs', () => {
  for (const [raw, iso, options] of PAIRS) {
    it(`${JSON.stringify(raw)} ${options ? JSON.stringify(options) : ''} -> ${iso ?? 'invalid'}`, () => {
      const r = normalizeDate(raw, options);
      if (iso === null) {
        expect(r).toEqual({ ok: false, reason: 'invalid', input: raw });
      } else {
        expect(r.ok).toBe(true);
        if (r.ok) {
          expect(r.value.iso).toBe(iso);
          const [year, month = 0, day = 0] = iso.split('-').map(Number);
          expect([r.value.year, r.value.month, r.value.day]).toEqual([year, month, day]);
        }
      }
    });
  }

  it('accepts the 20th and 21st centuries only (1900 counted in the 20th)', () => {
    expect(normalizeDate('1900-01-01')).toMatchObject({ ok: true, value: { iso: '1900-01-01' } });
    expect(normalizeDate('2100-12-31')).toMatchObject({ ok: true, value: { iso: '2100-12-31' } });
    expect(normalizeDate('1899-12-31')).toMatchObject({ ok: false, reason: 'out-of-range' });
    expect(normalizeDate('2101-01-01')).toMatchObject({ ok: false, reason: 'out-of-range' });
    expect(normalizeDate('0001-01-01')).toMatchObject({ ok: false, reason: 'out-of-range' });
    expect(normalizeDate('1/2/05', { pivotYear: 1850 })).toMatchObject({ ok: false, reason: 'out-of-range' });
  });

  it('says why a date has no value', () => {
    expect(normalizeDate('')).toEqual({ ok: false, reason: 'empty', input: '' });
    expect(normalizeDate(' \t ')).toMatchObject({ ok: false, reason: 'empty' });
    expect(normalizeDate('1'.repeat(65))).toMatchObject({ ok: false, reason: 'too-long' });
    expect(normalizeDate(null)).toMatchObject({ ok: false, reason: 'empty' });
  });

  it('writes dates the way the API does', () => {
    const r = normalizeDate('9/18/1975');
    expect(r.ok && isoDateTime(r.value)).toBe('1975-09-18T00:00:00Z');
  });

  it('knows month lengths', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => daysInMonth(2001, m))).toEqual([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
    expect(daysInMonth(2000, 2)).toBe(29);
    expect(daysInMonth(2000, 13)).toBe(0);
  });
});

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** Any real date in range, as year, month, day. */
const calendarDate = fc
  .date({ min: new Date(Date.UTC(1900, 0, 1)), max: new Date(Date.UTC(2100, 11, 31)), noInvalidDate: true })
  .map((d) => ({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }));
const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

describe('normalizeDate properties', { timeout: 60_000 }, () => {
  it('round-trips every real date through each written form and through iso', () => {
    fc.assert(
      fc.property(calendarDate, ({ year, month, day }) => {
        const iso = `${year}-${pad(month)}-${pad(day)}`;
        const forms = [
          iso,
          `${iso}T00:00:00Z`,
          `${iso}T23:00:00-11:00`,
          `${year}${pad(month)}${pad(day)}`,
          `${year}/${month}/${day}`,
          `${month}/${day}/${year}`,
          `${day} ${MONTHS[month - 1]} ${year}`,
          `${MONTHS[month - 1]} ${day}, ${year}`,
        ];
        for (const form of forms) {
          const r = normalizeDate(form);
          expect(r).toEqual({ ok: true, value: { iso, year, month, day } });
        }
        expect(normalizeDate(`${day}/${month}/${year}`, { order: 'dmy' })).toMatchObject({ value: { iso } });
        const r = normalizeDate(iso);
        if (r.ok) expect(normalizeDate(r.value.iso)).toEqual(r);
      }),
      { numRuns: 2000 },
    );
  });

  it('places two-digit years in the century window ending at the pivot', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1999, max: 2099 }), (yy, pivot) => {
        const r = normalizeDate(`1/1/${pad(yy)}`, { pivotYear: pivot });
        if (!r.ok) return;
        expect(r.value.year % 100).toBe(yy);
        expect(r.value.year).toBeLessThanOrEqual(pivot);
        expect(r.value.year).toBeGreaterThan(pivot - 100);
      }),
    );
  });

  it('is total and idempotent on any string', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom(...'0123456789/-. :TZjanSepmay,'.split('')) })),
        (text) => {
          const r = normalizeDate(text);
          if (r.ok) {
            expect(r.value.iso).toMatch(/^\d{4}-\d{2}-\d{2}$/);
            expect(normalizeDate(r.value.iso)).toEqual(r);
          } else {
            expect(r.input).toBe(text);
          }
        },
      ),
      { numRuns: 3000 },
    );
    expect(normalizeDate('9'.repeat(100_000)).ok).toBe(false);
    expect(normalizeDate(`${' '.repeat(100_000)}1975-09-18`).ok).toBe(true);
    expect(normalizeDate('1975-09-18\ud800').ok).toBe(false);
  });

  it('ignores case', () => {
    fc.assert(
      fc.property(calendarDate, fc.boolean(), ({ year, month, day }, upper) => {
        const text = `${day} ${MONTHS[month - 1]} ${year}`;
        expect(normalizeDate(upper ? text.toUpperCase() : text.toLowerCase())).toEqual(normalizeDate(text));
      }),
    );
  });
});

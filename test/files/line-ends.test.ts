/**
 * What exports write before their header and how they end their lines (line-ends.ts), as
 * every reader of a file reads it: CsvFile, the dedupe output's second read and the date
 * sample. Excel's "sep=" first line names the delimiter and is not the header; a file whose
 * first lines end in a bare CR and then switch to LF or CRLF is read row by row.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openCsv } from '../../src/files/csv-reader.js';
import { openCsvRowTexts } from '../../src/files/csv-row-text.js';
import { sampleColumn } from '../../src/files/date-order.js';
import { bareCrToLf, preambleRows, readSepLine } from '../../src/files/line-ends.js';
import { readAllRows, tempCsvFiles } from './csv-files.js';

const { file } = tempCsvFiles('matchbook-line-ends-');
const readAll = readAllRows;

/** The rows the dedupe output's second read gives, in any chunking. */
async function secondRead(path: string, chunkBytes: number): Promise<string[][]> {
  const csv = await openCsv(path);
  const layout = csv.layout;
  await csv.close();
  const reader = await openCsvRowTexts(layout, 2, chunkBytes);
  const cells: string[][] = [];
  for await (const batch of reader.batches()) for (let i = 0; i < batch.texts.length; i++) cells.push(batch.cells(i));
  return cells;
}

describe('readSepLine', () => {
  it.each([
    ['sep=;\r\na;b', ';', 7],
    ['sep=,\na,b', ',', 6],
    ['sep=\t\na\tb', '\t', 6],
    ['sep=\\t\na\tb', '\t', 7],
    ['sep=|\ra|b', '|', 6],
    ['"sep=;"\na;b', ';', 8],
    ['SEP=;;;;\na;b', ';', 9],
    ['"sep=;";;;\r\na;b', ';', 12],
    ['\uFEFFsep=;\na;b', ';', 7],
  ])('%j names %j, %d characters', (text, delimiter, length) => expect(readSepLine(text)).toEqual({ delimiter, length }));

  it.each([['separator,name\n'], ['sep=;x\n'], ['name,sep=;\n'], ['sep=\n'], [' sep=;\n']])('%j is no sep line', (text) =>
    expect(readSepLine(text)).toBeNull(),
  );
});

describe('openCsv: Excel sep= line', () => {
  it.each([
    ['sep=;\r\nFirst Name;Last Name;City\r\nAnn;Lee;Paris, FR\r\n', ';'],
    ['\uFEFFsep=,\nFirst Name,Last Name,City\nAnn,Lee,"Paris, FR"\n', ','],
    ['sep=\t\nFirst Name\tLast Name\tCity\nAnn\tLee\tParis, FR\n', '\t'],
    ['"sep=|"\r\nFirst Name|Last Name|City\r\nAnn|Lee|Paris, FR\r\n', '|'],
  ])("%j: the delimiter is the sep line's, the header the next line", async (text, delimiter) => {
    const path = file(text);
    const r = await readAll(path);
    expect(r.layout.delimiter).toBe(delimiter);
    expect(r.layout.sepLine).toBe(true);
    expect(r.layout.header).toEqual(['First Name', 'Last Name', 'City']);
    expect(r.layout.headerLine).toBe(2);
    expect(r.rows).toEqual([['Ann', 'Lee', 'Paris, FR']]);
    expect(r.lines).toEqual([3]);
    for (const chunk of [16, 1024]) expect(await secondRead(path, chunk)).toEqual(r.rows);
  });

  it('a sep line names the delimiter even where another one is more frequent; --delimiter still wins', async () => {
    const path = file('sep=;\nName;Notes\nAnn Lee;a, b, c, d\n');
    expect((await readAll(path)).rows).toEqual([['Ann Lee', 'a, b, c, d']]);
    const given = await readAll(path, { delimiter: ',' });
    expect(given.layout.header).toEqual(['Name;Notes']);
    expect(given.layout.sepLine).toBe(true);
  });

  it('the date sample reads the rows below the header, not the header', async () => {
    const path = file('sep=;\nname;dob\nAnn;31/12/1990\nBob;01/02/1980\n');
    const { layout } = await readAll(path);
    expect(await sampleColumn(layout, 1)).toEqual(['31/12/1990', '01/02/1980']);
  });
});

describe('openCsv: bare CR line ends', () => {
  const people = [
    ['John', 'Smith', '1970-01-02'],
    ['Mary', 'Jones', '1980-01-02'],
    ['Peter', 'Brown', '1990-01-02'],
    ['Ann', 'Lee', '1991-01-01'],
  ];
  it.each([
    ['CR then LF', ['\r', '\r', '\n', '\n', '\n']],
    ['CR then CRLF', ['\r', '\r', '\r\n', '\r\n', '\r\n']],
    ['CR, LF and CRLF mixed', ['\r', '\n', '\r', '\r\n', '\r']],
    ['LF then CR', ['\n', '\n', '\r', '\r', '\r']],
  ])('%s: every row is read, on its own line number, in the first and second reads', async (_, breaks) => {
    const text = ['first_name,last_name,dob', ...people.map((p) => p.join(','))].map((line, i) => line + (breaks[i] ?? '\n')).join('');
    const path = file(text);
    for (const chunkBytes of [16, 1 << 20]) {
      const r = await readAll(path, { chunkBytes });
      expect(r.layout.header).toEqual(['first_name', 'last_name', 'dob']);
      expect(r.rows).toEqual(people);
      expect(r.lines).toEqual([2, 3, 4, 5]);
      expect(await secondRead(path, chunkBytes)).toEqual(people);
    }
  });

  it("a quoted cell's own CR stays; a quote never closed in a file of CR lines counts the lines it swallows", async () => {
    const r = await readAll(file('a,b\r"x\ry",1\r2,3\n4,5\r\n'));
    expect(r.rows).toEqual([
      ['x\ry', '1'],
      ['2', '3'],
      ['4', '5'],
    ]);
    expect(r.lines).toEqual([2, 4, 5]);
    const open = await readAll(file('a,b\r1,"open\r3,4\r5,6\r'));
    expect(open.rows.length).toBe(1);
    expect(open.issues.swallowedLines.count).toBe(2);
  });

  it('the second read gives the rows CsvFile reads when LF, CRLF and CR line ends mix, in any chunking (property)', async () => {
    const piece = fc.constantFrom('a', 'b', ' ', '"', '""', ',', '\n', '\r', '\r\n', '"a\rb"', '=', 'é');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.string({ unit: piece, maxLength: 5 }), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.constantFrom('\n', '\r\n', '\r'), { minLength: 7, maxLength: 7 }),
        fc.constantFrom(16, 23, 1024),
        async (lines, breaks, chunkBytes) => {
          const text = ['name,city,zip', ...lines.map((cells) => cells.join(','))].map((line, i) => line + (breaks[i] ?? '\n')).join('');
          const path = file(text);
          const first = await readAll(path, { chunkBytes, delimiter: ',' });
          expect(await secondRead(path, chunkBytes)).toEqual(first.rows);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('bareCrToLf turns only the bare CRs outside quotes into LF, whatever the text (property)', () => {
    const piece = fc.constantFrom('a', ',', '"', '""', '\r', '\n', '\r\n', '"x\ry"', ' ');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        const out = bareCrToLf(text, ',', true);
        // Same length (one character for one), the same quotes, and CRLF pairs untouched.
        expect(out.length).toBe(text.length);
        expect(out.replace(/[\r\n]/g, '')).toBe(text.replace(/[\r\n]/g, ''));
        expect(out.split('\r\n').length).toBe(text.split('\r\n').length);
        if (!text.includes('"')) expect(out).toBe(text.replace(/\r(?!\n)/g, '\n'));
      }),
    );
  });
});

describe('openCsv: notes before the header', () => {
  const LINKEDIN_NOTES =
    'Notes:\r\n"When exporting your connection data, you may notice that some of the email addresses are missing. You will only see email addresses for connections who have allowed their connections to see or download their email address using this setting https://www.linkedin.com/psettings/privacy/email. You can learn more here https://www.linkedin.com/help/linkedin/answer/261"\r\n\r\n';
  const TABLE =
    'First Name,Last Name,URL,Email Address,Company,Position,Connected On\r\nAnn,Lee,https://www.linkedin.com/in/annlee,,"Acme, Inc",CEO,01 Sep 2024\r\nBo,Ek,,bo@example.com,Beta,CTO,02 Sep 2024\r\n';

  it("LinkedIn's Connections.csv: the notes are skipped, the header is the table's first row, in both reads and any chunking", async () => {
    const path = file(LINKEDIN_NOTES + TABLE);
    for (const chunkBytes of [16, 1 << 20]) {
      const r = await readAll(path, { chunkBytes });
      expect(r.layout.header).toEqual(['First Name', 'Last Name', 'URL', 'Email Address', 'Company', 'Position', 'Connected On']);
      expect(r.layout.headerLine).toBe(4);
      expect(r.layout.preambleRows).toBe(2);
      expect(r.issues.preamble).toEqual({ count: 2, lines: [1, 2] });
      expect(r.issues.longRows.count).toBe(0);
      expect(r.rows.map((row) => row[0])).toEqual(['Ann', 'Bo']);
      expect(r.lines).toEqual([5, 6]);
      expect((await secondRead(path, chunkBytes)).map((row) => row[4])).toEqual(['Acme, Inc', 'Beta']);
    }
    const sep = await readAll(file(LINKEDIN_NOTES.replace(/\r\n\r\n$/, '\r\n') + TABLE.replace(/,/g, ';')));
    expect(sep.layout.delimiter).toBe(';');
  });

  it('a file of one column is not taken for notes, even with a comma in a few of its rows', async () => {
    const r = await readAll(file('Name\nAnn Lee\nLee, Ann\nBo Ek\nCy Ro\nDi Fo\nEd Gu\n'));
    expect(r.layout.header).toEqual(['Name']);
    expect(r.layout.preambleRows).toBe(0);
    expect(r.rows.length).toBe(6);
    // A one-column header that names a field stays the header, even over rows that all hold a comma.
    expect((await readAll(file('Name\nSmith, John\nDoe, Jane\nLee, Ann\n'))).layout.header).toEqual(['Name']);
    expect(preambleRows(['Name'], [['Ann'], ['Lee', ' Ann'], ['Bo']])).toBe(0);
    expect(
      preambleRows(
        ['Notes:'],
        [
          ['a', 'b'],
          ['1', '2'],
          ['3', '4'],
        ],
      ),
    ).toBe(1);
    expect(preambleRows(['a', 'b'], [['1', '2']])).toBe(0);
    expect(
      preambleRows(
        ['Notes:'],
        [
          ['a', 'b'],
          ['1', '2'],
        ],
      ),
    ).toBe(1);
    expect(preambleRows(['Notes:'], [['a', 'b']])).toBe(0);
  });

  it('a file of one column keeps the comma: a value with a stray ";" or "|" is no header of a table', async () => {
    const emails = await readAll(file('Email\na@x.com\nb@y.com\nc@z.com; d@z.com\ne@x.com\nf@x.com\n'));
    expect(emails.layout.delimiter).toBe(',');
    expect(emails.rows).toEqual([['a@x.com'], ['b@y.com'], ['c@z.com; d@z.com'], ['e@x.com'], ['f@x.com']]);
    expect(emails.issues.longRows.count).toBe(0);
    // "b|c@y.com" was split into "b" and the email c@y.com.
    expect((await readAll(file('email\na@x.com\nb|c@y.com\nd@z.com\n'))).rows).toEqual([['a@x.com'], ['b|c@y.com'], ['d@z.com']]);
  });
});

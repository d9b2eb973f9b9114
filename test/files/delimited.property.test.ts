/**
 * The bulk import's delimited parser: rows written with RFC 4180 quoting read back equal in
 * every dialect (comma, tab, pipe; any line end), however the text is cut into chunks; without
 * quotes a quote is an ordinary character; malformed rows are reported, never dropped.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DelimitedError, DelimitedParser, parseDelimited } from '../../src/files/delimited.js';
import { formatCsvRow, neutralizeFormula } from '../../src/files/csv-writer.js';

const delimiter = fc.constantFrom(',', '\t', '|');
const newline = fc.constantFrom('\n', '\r\n', '\r');
const cell = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '"', ',', '\t', '|', '\n', '\r', 'é', '1'), maxLength: 8 });

function chunked(text: string, cuts: number[], dialect: { delimiter: string; quotes: boolean }): string[][] {
  const parser = new DelimitedParser(dialect);
  const out: string[][] = [];
  let at = 0;
  for (const c of [...cuts.map((x) => x % (text.length + 1))].sort((a, b) => a - b)) {
    out.push(...parser.push(text.slice(at, c)).map((r) => r.cells));
    at = c;
  }
  out.push(...parser.push(text.slice(at)).map((r) => r.cells), ...parser.end().map((r) => r.cells));
  return out;
}

describe('DelimitedParser', () => {
  it('reads back what formatCsvRow wrote, in any dialect and any chunking', () => {
    fc.assert(
      fc.property(
        delimiter,
        newline,
        fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (d, nl, rows, cuts) => {
          // A row of one empty cell is a blank line unless quoted; formatCsvRow quotes it. A cell
          // starting with TAB or CR comes back with the `'` that neutralizes it as a formula.
          const text = rows.map((r) => formatCsvRow(r, d)).join(nl) + nl;
          const parsed = chunked(text, cuts, { delimiter: d, quotes: true });
          expect(parsed).toEqual(rows.map((r) => r.map(neutralizeFormula)));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('without quotes, a quote is text and each line is a row', () => {
    fc.assert(
      fc.property(
        delimiter,
        fc.array(fc.array(fc.string({ unit: fc.constantFrom('a', '"', ' ', 'x'), minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }), {
          minLength: 1,
          maxLength: 5,
        }),
        (d, rows) => {
          const text = rows.map((r) => r.join(d)).join('\n');
          expect(parseDelimited(text, { delimiter: d, quotes: false }).map((r) => r.cells)).toEqual(rows);
        },
      ),
    );
  });

  it('reports malformed quoting per row with its line, and keeps the following rows', () => {
    const rows = parseDelimited('a,b\n"x"y,2\n"ok","multi\nline"\nlast,"open', { delimiter: ',', quotes: true });
    expect(rows.map((r) => [r.line, r.error === null])).toEqual([
      [1, true],
      [2, false],
      [3, true],
      [5, false],
    ]);
    expect(rows[1]?.error).toMatch(/after a closing quote/);
    expect(rows[3]?.error).toMatch(/not closed/);
  });

  it('a row longer than the limit is a DelimitedError (the file cannot be read)', () => {
    const parser = new DelimitedParser({ delimiter: ',', quotes: true, maxRowChars: 100 });
    expect(() => parser.push(`"${'x'.repeat(200)}`)).toThrow(DelimitedError);
  });

  it('skips blank lines, counting them in line numbers', () => {
    expect(parseDelimited('\n\na\n\nb', { delimiter: ',', quotes: true }).map((r) => [r.line, r.cells[0]])).toEqual([
      [3, 'a'],
      [5, 'b'],
    ]);
  });
});

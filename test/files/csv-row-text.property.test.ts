/**
 * The dedupe output's second read (csv-row-text.ts) gives every data row's cells formatted as
 * the CSV writer formats them, the rows CsvFile reads, whatever the text: quotes well or badly
 * placed, line breaks in and out of quotes, blank lines, ragged rows, formula-like cells, any
 * line end and delimiter (LF and CRLF mixed in one file), any chunking of the file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { openCsv } from '../../src/files/csv-reader.js';
import { openCsvRowTexts } from '../../src/files/csv-row-text.js';
import { formatCsvCell } from '../../src/files/csv-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'csv-row-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What CsvFile reads, each row's cells formatted and joined (the writer's way). */
async function expected(path: string, options: { delimiter?: string; encoding?: 'utf8' | 'latin1' | 'utf16le' }, chunkBytes: number) {
  const csv = await openCsv(path, { ...options, chunkBytes, batchRows: 3 });
  const rows: string[][] = [];
  for await (const batch of csv.batches()) rows.push(...batch.rows);
  return { layout: csv.layout, rows, texts: rows.map((r) => r.map((c) => formatCsvCell(c, csv.layout.delimiter)).join(csv.layout.delimiter)) };
}

async function actual(layout: Parameters<typeof openCsvRowTexts>[0], chunkBytes: number) {
  const reader = await openCsvRowTexts(layout, 2, chunkBytes);
  const texts: string[] = [];
  const cells: string[][] = [];
  for await (const batch of reader.batches()) {
    texts.push(...batch.texts);
    for (let i = 0; i < batch.texts.length; i++) cells.push(batch.cells(i));
  }
  await reader.close();
  return { texts, cells };
}

let file = 0;
async function check(
  text: string | Buffer,
  options: { delimiter?: string; encoding?: 'utf8' | 'latin1' | 'utf16le' },
  chunks: readonly number[],
): Promise<void> {
  const path = join(dir, `f${file++}.csv`);
  writeFileSync(path, text);
  const want = await expected(path, options, chunks[0] ?? 1024);
  for (const chunk of chunks) {
    const got = await actual(want.layout, chunk);
    expect(got.texts).toEqual(want.texts);
    expect(got.cells).toEqual(want.rows);
  }
}

const piece = fc.constantFrom('a', 'b', ' ', '"', '""', ',', ';', '\t', '\n', '\r', '\r\n', '=', '+', '-', '@', '1', 'é', '\uFFFD', '"a"', ',"', '",');

describe('openCsvRowTexts', () => {
  it('reads the rows CsvFile reads, formatted as the writer formats them, in any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.constantFrom(',', ';', '\t'),
        fc.array(fc.array(fc.string({ unit: piece, maxLength: 6 }), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.constantFrom(16, 17, 23, 64),
        async (nl, d, lines, endsWithBreak, chunk) => {
          // The header line first (plain names, so that the delimiter and line end are detected as chosen).
          const text = `name${d}city${d}zip${nl}${lines.map((cells) => cells.join(d)).join(nl)}${endsWithBreak ? nl : ''}`;
          await check(text, { delimiter: d }, [chunk, 1024]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads the rows CsvFile reads when LF and CRLF line ends mix, whichever comes first', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.string({ unit: piece, maxLength: 6 }), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.constantFrom('\n', '\r\n'), { minLength: 9, maxLength: 9 }),
        fc.constantFrom(16, 23, 1024),
        async (lines, breaks, chunk) => {
          const text = ['name,city,zip', ...lines.map((cells) => cells.join(','))].map((line, i) => line + (breaks[i] ?? '\n')).join('');
          await check(text, { delimiter: ',' }, [chunk, 1024]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads well-formed files whose quoted cells hold delimiters and line breaks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('\n', '\r\n'),
        fc.array(fc.array(fc.string({ unit: piece, maxLength: 5 }), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom(16, 31, 1024),
        async (nl, rows, chunk) => {
          const quote = (c: string): string => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);
          const text = `a,b,c${nl}${rows.map((r) => r.map(quote).join(',')).join(nl)}${nl}`;
          await check(text, { delimiter: ',' }, [chunk]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads Latin-1 and UTF-16 files, and skips leading blank lines and a byte-order mark', async () => {
    await check(Buffer.from('\n\nn\u00e4me,city\nJos\u00e9,"Z\u00fcrich, CH"\n=cmd,+1 2\n', 'latin1'), { encoding: 'latin1' }, [16, 1024]);
    await check(Buffer.from('\uFEFFname,city\r\nAnn,"a\r\nb"\r\n\r\nBo,-3\r\n', 'utf16le'), { encoding: 'utf16le' }, [16, 1024]);
    await check('\uFEFFname,city\nAnn,Paris', {}, [16, 1024]);
  });

  it('answers an unopenable path as CsvFile does', async () => {
    const { layout } = await expected(join(dir, 'f0.csv'), {}, 1024);
    await expect(openCsvRowTexts({ ...layout, path: join(dir, 'missing.csv') }, 2)).rejects.toThrow(/no such file/);
  });
});

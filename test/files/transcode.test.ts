/**
 * toUtf8, the bulk import's transcoder: UTF-8 passes through (without its byte-order mark),
 * however it is cut into chunks; Latin-1 (Windows-1252) and UTF-16 with a byte-order mark are
 * re-encoded; a Latin-1 byte after the detection sample switches the rest of the stream.
 */
import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SAMPLE_BYTES, incompleteTail, toUtf8 } from '../../src/files/transcode.js';

async function* chunksOf(parts: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield p;
}

/** Cuts `bytes` at the given offsets (any order, repeats and out-of-range values allowed). */
function cut(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const c of at) {
    parts.push(bytes.subarray(from, c));
    from = c;
  }
  parts.push(bytes.subarray(from));
  return parts;
}

async function transcode(parts: readonly Uint8Array[]): Promise<Buffer> {
  const out: Uint8Array[] = [];
  for await (const chunk of toUtf8(chunksOf(parts))) out.push(chunk);
  return Buffer.concat(out);
}

async function text(parts: readonly Uint8Array[]): Promise<string> {
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(await transcode(parts));
}

const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

describe('toUtf8', () => {
  it('passes UTF-8 through as the same bytes', async () => {
    const bytes = utf8('FirstName,LastName\nJosé,Müller\nZoë,日本 😀\n');
    expect((await transcode([bytes])).equals(bytes)).toBe(true);
  });

  it('drops a UTF-8 byte-order mark', async () => {
    expect(await text([Buffer.concat([BOM, utf8('FirstName,Email\nJosé,j@example.org\n')])])).toBe('FirstName,Email\nJosé,j@example.org\n');
    expect(await text([BOM.subarray(0, 1), BOM.subarray(1), utf8('a')])).toBe('a');
    expect(await text([BOM])).toBe('');
  });

  it('keeps a multi-byte character cut at any chunk boundary', async () => {
    const bytes = utf8('é€😀a\u0800ÿ');
    for (let i = 0; i <= bytes.length; i++) {
      for (let j = i; j <= bytes.length; j++) {
        const out = await transcode([bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)]);
        expect(out.equals(bytes), `cut at ${i}, ${j}`).toBe(true);
      }
    }
    // one byte at a time
    expect((await transcode([...bytes].map((b) => Uint8Array.of(b)))).equals(bytes)).toBe(true);
  });

  it('reads a Latin-1 file as Windows-1252', async () => {
    const bytes = Buffer.from('José,Müller,Zoë', 'latin1');
    expect(await text([bytes])).toBe('José,Müller,Zoë');
    expect(await text(cut(bytes, [1, 3, 4, 5, 9]))).toBe('José,Müller,Zoë');
    // Windows-1252 in 0x80-0x9F: the euro sign, curly quotes
    expect(await text([Uint8Array.of(0x80, 0x20, 0x93, 0x41, 0x94)])).toBe('€ “A”');
  });

  it('switches to Windows-1252 when a Latin-1 byte comes after the sample', async () => {
    const ascii = 'a,b\n'.repeat(SAMPLE_BYTES / 4 + 100);
    const bytes = Buffer.concat([utf8(ascii), Buffer.from('José,Müller\n', 'latin1')]);
    const parts = cut(
      bytes,
      Array.from({ length: 40 }, (_, i) => i * 4096 + 7),
    );
    expect(await text(parts)).toBe(`${ascii}José,Müller\n`);
  });

  it('switches on a Latin-1 byte exactly at a chunk boundary', async () => {
    const ascii = 'x'.repeat(SAMPLE_BYTES);
    const latin = Buffer.from('éa', 'latin1');
    // 0xE9 last byte of a chunk (held back as a possible UTF-8 lead), then a byte that does not continue it
    expect(await text([utf8(ascii), utf8('b'), latin.subarray(0, 1), latin.subarray(1)])).toBe(`${ascii}béa`);
    // 0xE9 first byte of a chunk
    expect(await text([utf8(ascii), latin, utf8('z')])).toBe(`${ascii}éaz`);
    // 0xE9 the very last byte of the file
    expect(await text([utf8(ascii), latin.subarray(0, 1)])).toBe(`${ascii}é`);
  });

  it('reads UTF-16LE and UTF-16BE with a byte-order mark', async () => {
    const s = 'FirstName,LastName\r\nJosé,Müller 😀\r\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
    const be = Buffer.from(le);
    be.swap16();
    expect(await text([le])).toBe(s);
    expect(await text(cut(le, [1, 3, 5, 8]))).toBe(s);
    expect(await text([be])).toBe(s);
    expect(await text(cut(be, [1, 2, 7]))).toBe(s);
  });

  it('gives nothing for an empty stream', async () => {
    expect((await transcode([])).length).toBe(0);
    expect((await transcode([new Uint8Array(0), new Uint8Array(0)])).length).toBe(0);
  });

  it('closes the source when the reader stops early', async () => {
    let closed = false;
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        for (;;) yield utf8('a'.repeat(SAMPLE_BYTES));
      } finally {
        closed = true;
      }
    }
    for await (const chunk of toUtf8(source())) {
      expect(chunk.length).toBeGreaterThan(0);
      break;
    }
    expect(closed).toBe(true);
  });
});

describe('incompleteTail', () => {
  it('holds back only a sequence that the next bytes may complete', () => {
    expect(incompleteTail(utf8('ab'))).toBe(0);
    expect(incompleteTail(utf8('é'))).toBe(0);
    expect(incompleteTail(utf8('aé').subarray(0, 2))).toBe(1);
    expect(incompleteTail(utf8('😀').subarray(0, 3))).toBe(3);
    expect(incompleteTail(utf8('€').subarray(0, 2))).toBe(2);
    expect(incompleteTail(Uint8Array.of(0x80, 0x80, 0x80))).toBe(0);
    expect(incompleteTail(Uint8Array.of(0xff))).toBe(0);
  });
});

describe('toUtf8 properties', () => {
  // Without NUL: text with NUL in every other byte is taken for UTF-16 without a BOM (sniff.ts), by design.
  const noNul = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0'));

  it('any string in UTF-8, cut anywhere, comes out as the same bytes (less a leading BOM)', async () => {
    await fc.assert(
      fc.asyncProperty(noNul, fc.boolean(), fc.array(fc.nat(), { maxLength: 8 }), async (s, bom, cuts) => {
        const bytes = utf8(bom ? `\uFEFF${s}` : s);
        const expected = utf8(s.startsWith('\uFEFF') && !bom ? s.slice(1) : s);
        expect((await transcode(cut(bytes, cuts))).equals(expected)).toBe(true);
      }),
    );
  });

  it('any Latin-1 text with a byte from 0xA0 up reads back the same (unless its bytes are also valid UTF-8)', async () => {
    const latin = fc
      .integer({ min: 1, max: 0xff })
      .filter((c) => c < 0x80 || c >= 0xa0)
      .map((c) => String.fromCharCode(c));
    const high = fc.integer({ min: 0xa0, max: 0xff }).map((c) => String.fromCharCode(c));
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: latin, maxLength: 30 }),
        high,
        fc.string({ unit: latin, maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (before, h, after, cuts) => {
          const s = `${before}${h}${after}`;
          const bytes = Buffer.from(s, 'latin1');
          // "Ã©" in Latin-1 is "é" in UTF-8: such bytes are read as UTF-8, rightly.
          fc.pre(!isUtf8(bytes));
          expect(await text(cut(bytes, cuts))).toBe(s);
        },
      ),
    );
  });
});

/**
 * unzipIfZip: a zip holding one delimited file reads as that file, and an incomplete or
 * damaged archive is refused (issue 15: a zip missing its end record, or cut after its first
 * file, read as whole), checked against the central directory and the CRC-32.
 */
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { SourceError, unzipIfZip } from '../../src/files/import-source.js';

const LIMITS = { maxBytes: 10 * 1024 * 1024, maxZipRatio: 100 };
const CSV = 'FirstName,LastName\n' + Array.from({ length: 200 }, (_, i) => `F${i},L${i}`).join('\n') + '\n';

/** The archive's bytes in chunks of `size` (the reader must not depend on where chunks end). */
async function* chunks(bytes: Uint8Array, size = 997): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function read(bytes: Uint8Array, size?: number): Promise<string> {
  const out: Uint8Array[] = [];
  for await (const c of unzipIfZip(chunks(bytes, size), LIMITS)) out.push(c);
  return Buffer.concat(out).toString('utf8');
}

async function refusal(bytes: Uint8Array): Promise<string> {
  const error = await read(bytes).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SourceError);
  return (error as Error).message;
}

/** Where the signature `sig` (little-endian) starts, from `from`. */
function find(bytes: Uint8Array, sig: number, from = 0): number {
  for (let i = from; i + 4 <= bytes.length; i++) {
    if ((bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)) >>> 0 === sig) return i;
  }
  return -1;
}

describe('unzipIfZip', () => {
  it('reads the one file of a whole zip, stored or deflated, with folder and metadata entries, in any chunking', async () => {
    for (const level of [0, 6] as const) {
      const zip = zipSync({
        'data/': [new Uint8Array(0), {}],
        'data/people.csv': [strToU8(CSV), { level }],
        '__MACOSX/._people.csv': [strToU8('meta'), { level }],
      });
      for (const size of [1, 64, 997, 1 << 20]) expect(await read(zip, size)).toBe(CSV);
    }
    expect(await read(zipSync({ 'empty.csv': new Uint8Array(0) }))).toBe('');
    expect(await read(strToU8(CSV))).toBe(CSV); // not a zip: as it is
  });

  it('refuses a zip missing its end record', async () => {
    const zip = zipSync({ 'a.csv': strToU8(CSV) });
    expect(await refusal(zip.subarray(0, zip.length - 22))).toMatch(/no end of central directory record/);
    expect(await refusal(zip.subarray(0, find(zip, 0x02014b50)))).toMatch(/no end of central directory record/);
  });

  it('refuses a zip cut after its first file', async () => {
    const zip = zipSync({ 'a.csv': strToU8(CSV), '__MACOSX/._a.csv': strToU8('x'.repeat(300)) });
    const second = find(zip, 0x04034b50, 4);
    expect(second).toBeGreaterThan(0);
    expect(await refusal(zip.subarray(0, second))).toMatch(/incomplete or damaged/);
  });

  it('refuses a central directory that disagrees with the archive: entry count, CRC-32, size, position', async () => {
    const zip = zipSync({ 'a.csv': [strToU8(CSV), { level: 0 }] });
    const dir = find(zip, 0x02014b50);
    const end = find(zip, 0x06054b50);
    const patched = (at: number, value: number, bytes = 4): Uint8Array => {
      const copy = Uint8Array.from(zip);
      for (let i = 0; i < bytes; i++) copy[at + i] = (value >>> (8 * i)) & 0xff;
      return copy;
    };
    expect(await refusal(patched(end + 8, 2, 2))).toMatch(/incomplete or damaged/); // entries on this disk
    const twoEntries = patched(end + 8, 2, 2);
    twoEntries.set([2, 0], end + 10);
    expect(await refusal(twoEntries)).toMatch(/lists 2 entries, the archive holds 1/);
    expect(await refusal(patched(dir + 16, 0x12345678))).toMatch(/CRC-32 of a.csv does not match/);
    expect(await refusal(patched(dir + 24, 5))).toMatch(/should inflate to 5 bytes/);
    expect(await refusal(patched(end + 16, 0))).toMatch(/does not end where the end record is/);
    // A byte of the stored content changed: the CRC-32 tells.
    const flipped = Uint8Array.from(zip);
    const at = find(zip, 0x04034b50) + 30 + 'a.csv'.length + 5;
    flipped[at] = (flipped[at] ?? 0) ^ 1;
    expect(await refusal(flipped)).toMatch(/CRC-32/);
  });
});

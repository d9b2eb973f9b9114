/**
 * Checking that a zip is whole (issue 15): a streaming unzip reads local file headers as they
 * come, so a zip missing its end record, or cut after its first file, would read as complete.
 * After the last byte, the end of central directory record (and its Zip64 form) must be the
 * archive's last bytes, the central directory must end where it starts, list as many entries
 * as were read, and its one data file must have the CRC-32 and size of what was inflated.
 * Structure: PKWARE APPNOTE.TXT 6.3.10, sections 4.3.12 (central directory header), 4.3.14-16
 * (Zip64 end record and locator, end of central directory record).
 */
import { SourceError } from './source-error.js';

/** End record (22 bytes) plus the longest comment: how much of the archive's end is kept. */
const MAX_END = 22 + 0xffff;
/** Central directory bytes kept besides (a zip of one file and a few folder entries needs well under 1 KiB). */
const MAX_DIRECTORY = 1024 * 1024;
/** Bytes of the archive's end {@link ZipTail} keeps. */
export const ZIP_TAIL_BYTES = MAX_END + MAX_DIRECTORY + 76;

const SIG_END = 0x06054b50;
const SIG_END64 = 0x06064b50;
const SIG_LOCATOR64 = 0x07064b50;
const SIG_CENTRAL = 0x02014b50;

/** What was read from the archive's local entries. */
export interface ZipRead {
  /** Local entries seen, folders and metadata included. */
  readonly entries: number;
  /** The CRC-32 and size of the one data file, as inflated. */
  readonly crc: number;
  readonly size: number;
  /** Tells a data file from a folder or metadata entry (same rule as the reader). */
  readonly isData: (name: string) => boolean;
}

/** Keeps the last {@link ZIP_TAIL_BYTES} of a stream. */
export class ZipTail {
  private chunks: Uint8Array[] = [];
  private kept = 0;
  /** Bytes seen in all. */
  total = 0;

  push(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.total += bytes.length;
    this.chunks.push(bytes);
    this.kept += bytes.length;
    while (this.chunks.length > 1 && this.kept - (this.chunks[0] as Uint8Array).length >= ZIP_TAIL_BYTES) {
      this.kept -= (this.chunks.shift() as Uint8Array).length;
    }
  }

  /** The kept bytes, and the archive offset of the first. */
  bytes(): { tail: Uint8Array; start: number } {
    const all = Buffer.concat(this.chunks, this.kept);
    const tail = all.length > ZIP_TAIL_BYTES ? all.subarray(all.length - ZIP_TAIL_BYTES) : all;
    return { tail, start: this.total - tail.length };
  }
}

const u16 = (b: Uint8Array, at: number): number => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u32 = (b: Uint8Array, at: number): number => (u16(b, at) | (u16(b, at + 2) << 16)) >>> 0;
const u64 = (b: Uint8Array, at: number): number => u32(b, at) + u32(b, at + 4) * 2 ** 32;

const damaged = (why: string): SourceError => new SourceError(`The zip is incomplete or damaged (${why}); send the whole archive again.`);

/** Throws a SourceError unless the archive ending in `tail` is whole and agrees with `read`. */
export function checkZipEnd(tailBytes: ZipTail, read: ZipRead): void {
  const { tail, start } = tailBytes.bytes();
  let end = -1;
  for (let i = tail.length - 22; i >= Math.max(0, tail.length - MAX_END); i--) {
    if (u32(tail, i) === SIG_END && i + 22 + u16(tail, i + 20) === tail.length) {
      end = i;
      break;
    }
  }
  if (end === -1) throw damaged('it has no end of central directory record: it was cut short');
  if (u16(tail, end + 4) !== 0 || u16(tail, end + 6) !== 0 || u16(tail, end + 8) !== u16(tail, end + 10)) {
    throw damaged('it is one part of a split archive, or its end record is broken');
  }
  let entries = u16(tail, end + 10);
  let dirSize = u32(tail, end + 12);
  let dirOffset = u32(tail, end + 16);
  let dirEnd = start + end;
  if (entries === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff) {
    const locator = end - 20;
    if (locator < 0 || u32(tail, locator) !== SIG_LOCATOR64) throw damaged('its Zip64 end locator is missing');
    const record = u64(tail, locator + 8) - start;
    if (record < 0 || record + 56 > locator || u32(tail, record) !== SIG_END64) throw damaged('its Zip64 end record is missing');
    entries = u64(tail, record + 32);
    dirSize = u64(tail, record + 40);
    dirOffset = u64(tail, record + 48);
    dirEnd = start + record;
  }
  if (dirOffset + dirSize !== dirEnd) throw damaged('its central directory does not end where the end record is');
  if (entries !== read.entries) throw damaged(`its central directory lists ${entries} entries, the archive holds ${read.entries}`);
  let at = dirOffset - start;
  if (at < 0) throw damaged('its central directory is too large');
  let data = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > dirEnd - start || u32(tail, at) !== SIG_CENTRAL) throw damaged('its central directory is broken');
    const nameLength = u16(tail, at + 28);
    const name = Buffer.from(tail.subarray(at + 46, at + 46 + nameLength)).toString((u16(tail, at + 8) & 0x800) !== 0 ? 'utf8' : 'latin1');
    if (read.isData(name)) {
      data++;
      const size = u32(tail, at + 24);
      if (u32(tail, at + 16) !== read.crc) throw damaged(`the CRC-32 of ${name} does not match its content`);
      if (size !== 0xffffffff && size !== read.size % 2 ** 32) throw damaged(`${name} should inflate to ${size} bytes, not ${read.size}`);
    }
    at += 46 + nameLength + u16(tail, at + 30) + u16(tail, at + 32);
  }
  if (at !== dirEnd - start) throw damaged('its central directory is broken');
  if (data !== 1) throw damaged(`its central directory lists ${data} data files`);
}

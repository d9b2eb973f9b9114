/**
 * Streaming transcoding of a text file to UTF-8, for bulk imports (whose staged copy is always
 * UTF-8, so a job that resumes from it reads it the same way).
 *
 * The encoding is detected from the start of the stream (at most {@link SAMPLE_BYTES}, or the
 * whole stream when shorter) with the CLI's {@link detectEncoding}: a byte-order mark decides,
 * else NUL in every other byte means UTF-16, else valid UTF-8 is UTF-8 and anything else is
 * Latin-1, read as Windows-1252 (its WHATWG superset). A leading byte-order mark is dropped,
 * as the UTF-8 TextDecoder that parses the staged copy would drop it anyway.
 *
 * UTF-8 passes through as the same bytes, only validated. A multi-byte sequence cut at the
 * end of a chunk (at most 3 bytes) is held back until the next chunk completes it. When a
 * later chunk is not valid UTF-8 (the sample was ASCII or UTF-8, then a Latin-1 byte
 * appears), the rest of the stream, from that chunk (and any bytes held back) on, is read as
 * Windows-1252. Limit: chunks already handed out stay as they were; they were valid UTF-8,
 * so this only misreads a Latin-1 file whose earlier bytes happen to form valid UTF-8
 * sequences (rare: it needs a lead byte 0xC2-0xF4 followed by the right continuation bytes).
 *
 * Memory is bounded by the sample plus one chunk.
 */
import { isUtf8 } from 'node:buffer';
import { DECODER_LABELS, detectEncoding } from './sniff.js';

/** How much of the start of a stream detection looks at. */
export const SAMPLE_BYTES = 64 * 1024;

const EMPTY = new Uint8Array(0);

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Length of the UTF-8 sequence a lead byte starts; 0 for a byte that cannot lead one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/**
 * How many bytes at the end of `bytes` start a UTF-8 sequence that the next chunk may
 * complete (0-3). Invalid bytes are not held: validation of the chunk then fails.
 */
export function incompleteTail(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let back = 1; back <= Math.min(3, end); back++) {
    const b = bytes[end - back] as number;
    if (b >= 0x80 && b <= 0xbf) continue; // continuation byte: look further back
    const n = sequenceLength(b);
    return n > back ? back : 0;
  }
  return 0;
}

/** The start of a stream (at least `size` bytes unless the stream is shorter) and whether that is all of it. */
async function readHead(it: AsyncIterator<Uint8Array>, size: number): Promise<{ head: Uint8Array; done: boolean }> {
  const parts: Uint8Array[] = [];
  let length = 0;
  while (length < size) {
    const next = await it.next();
    if (next.done === true) return { head: joinAll(parts, length), done: true };
    if (next.value.length === 0) continue;
    parts.push(next.value);
    length += next.value.length;
  }
  return { head: joinAll(parts, length), done: false };
}

function joinAll(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** `first`, then the rest of `it`. */
async function* chain(first: Uint8Array, it: AsyncIterator<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (first.length > 0) yield first;
  if (it === null) return;
  for (let next = await it.next(); next.done !== true; next = await it.next()) {
    if (next.value.length > 0) yield next.value;
  }
}

/** Decodes chunks with a WHATWG decoder and re-encodes the text as UTF-8. */
async function* reencode(chunks: AsyncIterable<Uint8Array>, label: string): AsyncGenerator<Uint8Array> {
  const decoder = new TextDecoder(label);
  const encoder = new TextEncoder();
  for await (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    if (text.length > 0) yield encoder.encode(text);
  }
  const rest = decoder.decode();
  if (rest.length > 0) yield encoder.encode(rest);
}

/**
 * Hands out UTF-8 chunks as they are, validated, holding back a sequence cut at a chunk's
 * end; from the first chunk that is not valid UTF-8 on, reads the rest as Windows-1252.
 */
async function* passUtf8(chunks: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  let held = EMPTY;
  for (let next = await chunks.next(); next.done !== true; next = await chunks.next()) {
    const bytes = concat(held, next.value);
    const keep = incompleteTail(bytes);
    const whole = bytes.subarray(0, bytes.length - keep);
    if (!isUtf8(whole)) {
      yield* reencode(chain(bytes, chunks), DECODER_LABELS.latin1);
      return;
    }
    held = bytes.slice(bytes.length - keep);
    if (whole.length > 0) yield whole;
  }
  // A sequence cut by the end of the file is not UTF-8.
  if (held.length > 0) yield* reencode(chain(held, null), DECODER_LABELS.latin1);
}

function startsWithBom(bytes: Uint8Array): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/** The same text as `chunks`, in whatever encoding they are written (detected), as UTF-8 bytes without a byte-order mark. */
export async function* toUtf8(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const it = chunks[Symbol.asyncIterator]();
  try {
    const { head, done } = await readHead(it, SAMPLE_BYTES);
    if (head.length === 0) return;
    const sample = head.subarray(0, SAMPLE_BYTES);
    const { encoding } = detectEncoding(sample, done && head.length <= SAMPLE_BYTES);
    const rest = done ? null : it;
    if (encoding === 'utf8') {
      yield* passUtf8(chain(startsWithBom(head) ? head.subarray(3) : head, rest));
    } else {
      // The UTF-16 decoders drop their byte-order mark themselves.
      yield* reencode(chain(head, rest), DECODER_LABELS[encoding]);
    }
  } finally {
    await it.return?.();
  }
}

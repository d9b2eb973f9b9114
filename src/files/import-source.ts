/**
 * Reading a bulk import's source safely, as a stream of bytes: fetching an http(s) URL only
 * from allow-listed hosts with a size and a time limit, and unzipping a zip that holds one
 * delimited file with limits on the uncompressed size and the compression ratio (a zip bomb
 * is stopped after at most one small input slice of output past the limit).
 */
import { crc32 } from 'node:zlib';
import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';
import { SourceError } from './source-error.js';
import { ZipTail, checkZipEnd } from './zip-end.js';

export { SourceError } from './source-error.js';

/** Limits on reading a source. */
export interface SourceLimits {
  /** Largest file in bytes, compressed or not. */
  readonly maxBytes: number;
  /** Largest uncompressed/compressed ratio of a zip before it is refused as a bomb. */
  readonly maxZipRatio: number;
  /** Whole fetch (connect, headers and body), in ms. */
  readonly timeoutMs: number;
}

/** Defaults: 100 MiB, ratio 100, 60 s. */
export const DEFAULT_SOURCE_LIMITS: SourceLimits = { maxBytes: 100 * 1024 * 1024, maxZipRatio: 100, timeoutMs: 60_000 };

/**
 * The allow-list check of MATCHBOOK_IMPORT_ALLOWED_HOSTS: entries `host` (any port) or
 * `host:port`, compared without case. An empty list allows nothing.
 */
export function hostAllowed(url: URL, allowed: readonly string[]): boolean {
  const host = url.hostname.toLowerCase();
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
  return allowed.some((entry) => {
    const e = entry.trim().toLowerCase();
    if (e === '') return false;
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(e);
    if (m === null) return false;
    const h = (m[1] ?? '').replace(/^\[|\]$/g, '');
    return h === host.replace(/^\[|\]$/g, '') && (m[2] === undefined || m[2] === port);
  });
}

/** Parses the comma list of MATCHBOOK_IMPORT_ALLOWED_HOSTS. */
export function parseAllowedHosts(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

const MAX_REDIRECTS = 3;

/**
 * GETs an allow-listed URL and streams its body, refusing more than `maxBytes` (by
 * Content-Length when sent, else while reading) and anything slower than `timeoutMs`.
 * Redirects are followed only to allow-listed hosts.
 */
export async function* fetchSource(url: string, allowed: readonly string[], limits: SourceLimits): AsyncGenerator<Uint8Array> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let target = new URL(url);
  let response: Response | null = null;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new SourceError(`${target.href}: only http and https URLs are fetched.`);
    if (!hostAllowed(target, allowed)) throw new SourceError(`The host ${target.host} is not on this server's import allow-list.`);
    try {
      response = await fetch(target, { redirect: 'manual', signal });
    } catch (err) {
      throw new SourceError(describeFetchError(target, err, limits));
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel().catch(() => undefined);
      target = new URL(location, target);
      response = null;
      continue;
    }
    break;
  }
  if (response === null) throw new SourceError(`${url}: more than ${MAX_REDIRECTS} redirects.`);
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new SourceError(`${target.href}: the file server answered ${response.status} ${response.statusText}.`.replace(' .', '.'));
  }
  const length = Number(response.headers.get('content-length') ?? 'NaN');
  if (Number.isFinite(length) && length > limits.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new SourceError(`The file is ${length} bytes, over this server's limit of ${limits.maxBytes} bytes.`);
  }
  if (response.body === null) return;
  try {
    yield* limitBytes(response.body, limits.maxBytes);
  } catch (err) {
    if (err instanceof SourceError) throw err;
    throw new SourceError(describeFetchError(target, err, limits));
  }
}

function describeFetchError(url: URL, err: unknown, limits: SourceLimits): string {
  const e = err as { name?: string; cause?: { code?: string; message?: string }; message?: string };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `${url.href}: not read within ${limits.timeoutMs} ms.`;
  const cause = e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
  return `${url.href}: cannot be fetched (${cause}).`;
}

/** Passes chunks through, failing once more than `max` bytes went by. */
export async function* limitBytes(chunks: AsyncIterable<Uint8Array>, max: number): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.byteLength;
    if (total > max) throw new SourceError(`The file is over this server's limit of ${max} bytes.`);
    yield chunk;
  }
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
/** Input bytes handed to the inflater at once: bounds the output of one step. */
const ZIP_SLICE = 4096;

function isDataEntry(name: string): boolean {
  return !name.endsWith('/') && !name.startsWith('__MACOSX/') && !/(?:^|\/)\.DS_Store$/.test(name);
}

/**
 * The bytes of a delimited file: `chunks` as they are, or, when they are a zip, the content
 * of the one file it holds. Refuses a zip holding no file or several, one that inflates past
 * `maxBytes` or past `maxZipRatio` times its compressed size (a zip bomb), a damaged one, and
 * an incomplete one (no end record, cut after a file, a CRC that does not match: zip-end.ts).
 * The content is yielded as it inflates; the refusal of an incomplete archive comes after its
 * last chunk, so a caller must treat the whole as failed (the import's staging does).
 */
export async function* unzipIfZip(chunks: AsyncIterable<Uint8Array>, limits: Pick<SourceLimits, 'maxBytes' | 'maxZipRatio'>): AsyncGenerator<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  let head: Uint8Array = new Uint8Array(0);
  let done = false;
  while (head.length < 4 && !done) {
    const next = await iterator.next();
    if (next.done === true) done = true;
    else head = concat(head, next.value);
  }
  const zip = head.length >= 4 && ZIP_MAGIC.every((b, i) => head[i] === b);
  if (!zip) {
    if (head.length > 0) yield head;
    while (!done) {
      const next = await iterator.next();
      if (next.done === true) break;
      yield next.value;
    }
    return;
  }
  const out: Uint8Array[] = [];
  const tail = new ZipTail();
  let localEntries = 0;
  let crc = 0;
  let entries = 0;
  let inflated = 0;
  let consumed = 0;
  let failure: Error | null = null;
  // Set by the inflater's callback (a property, so the end check below reads what it set).
  const entry = { complete: false };
  const unzip = new Unzip((file: UnzipFile) => {
    localEntries++;
    if (!isDataEntry(file.name)) return;
    entries++;
    if (entries > 1) {
      failure ??= new SourceError(`The zip holds more than one file (${file.name} after the first); put one delimited file in it.`);
      return;
    }
    file.ondata = (err, data, final) => {
      if (final) entry.complete = true;
      if (err !== null) {
        failure ??= new SourceError(`The zip is damaged (${err.message}).`);
        return;
      }
      inflated += data.length;
      if (inflated > limits.maxBytes) failure ??= new SourceError(`The zipped file inflates past this server's limit of ${limits.maxBytes} bytes.`);
      else if (inflated > 1024 * 1024 && inflated > limits.maxZipRatio * Math.max(1, consumed)) {
        failure ??= new SourceError(`The zip inflates more than ${limits.maxZipRatio} times its size: refused as a zip bomb.`);
      }
      if (failure === null) {
        crc = crc32(data, crc);
        out.push(data);
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  const feed = (bytes: Uint8Array, final: boolean): void => {
    tail.push(bytes);
    for (let at = 0; at < bytes.length || (final && at === 0); at += ZIP_SLICE) {
      const slice = bytes.subarray(at, Math.min(bytes.length, at + ZIP_SLICE));
      consumed += slice.length;
      const last = final && at + ZIP_SLICE >= bytes.length;
      try {
        unzip.push(slice, last);
      } catch (err) {
        failure ??= err instanceof SourceError ? err : new SourceError(`The zip is damaged (${err instanceof Error ? err.message : String(err)}).`);
      }
      if (failure !== null) throw failure;
      if (bytes.length === 0) break;
    }
  };
  feed(head, done);
  while (out.length > 0) yield out.shift() as Uint8Array;
  while (!done) {
    const next = await iterator.next();
    if (next.done === true) {
      done = true;
      feed(new Uint8Array(0), true);
    } else feed(next.value, false);
    while (out.length > 0) yield out.shift() as Uint8Array;
  }
  if (entries === 0) throw new SourceError('The zip holds no file (or is damaged); put one delimited file in it.');
  if (!entry.complete) throw new SourceError('The zip is damaged or cut short: its file does not end.');
  checkZipEnd(tail, { entries: localEntries, crc, size: inflated, isData: isDataEntry });
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

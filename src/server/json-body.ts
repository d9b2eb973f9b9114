/**
 * The JSON body parser: strict UTF-8, bounded nesting, prototype-poisoning keys removed.
 * Every failure is a client error that the error handler renders as a 4xx envelope.
 *
 * A `__proto__` key, or a `constructor` key holding a `prototype`, is valid JSON: it is
 * removed while parsing (secure-json-parse's "remove", through fastify), so such a body is
 * answered as one with any other unknown key, never as invalid JSON, and no object of ours
 * ever gets a replaced prototype (issue 15).
 *
 * Every string of a body is checked for control characters and bidirectional overrides
 * (src/crm/unsafe-text.ts): one refused is a 400 `INVALID_PARAMETER` naming each property,
 * here and not in the validators, so that it holds for every endpoint whatever they become.
 */
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { CrmError, findUnsafeText } from './crm-port.js';
import { httpError } from './http-error.js';

/** Largest accepted body, in bytes. A Match Candidate is well under 10 KB; 1 MiB leaves room. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Deepest accepted nesting of arrays and objects. A Match Candidate needs 4. */
export const MAX_JSON_DEPTH = 32;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Deepest nesting of `{`/`[` outside strings, stopping early once `limit` is passed.
 * One linear pass over the bytes; meant for bodies already capped by the body limit.
 */
export function jsonDepthExceeds(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

const CHARSET_RE = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/**
 * Replace fastify's JSON parser with one that rejects invalid UTF-8 and deep nesting.
 * Accepts `application/json` and `application/*+json`, with no charset or a UTF-8 one.
 */
export function installJsonParser(app: FastifyInstance, bodyLimit: number): void {
  const parseJson = app.getDefaultJsonParser('remove', 'remove');
  // Only JSON is accepted: text/plain and anything else become 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^application\/([a-z0-9.+-]+\+)?json(\s*;.*)?$/i, { parseAs: 'buffer', bodyLimit }, (request, body, done) => {
    const buffer = body as Buffer;
    const charset = CHARSET_RE.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(httpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'The request body must be UTF-8 encoded JSON.'), undefined);
      return;
    }
    if (!isUtf8(buffer)) {
      done(httpError(400, 'BAD_REQUEST', 'The request body is not valid UTF-8.'), undefined);
      return;
    }
    if (jsonDepthExceeds(buffer, MAX_JSON_DEPTH)) {
      done(httpError(400, 'BAD_REQUEST', `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`), undefined);
      return;
    }
    // A UTF-8 byte order mark is legal but not JSON.
    const start = buffer.length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
    const parsed = (error: Error | null, value?: unknown): void => {
      if (error !== null) {
        done(error, undefined);
        return;
      }
      const unsafe = findUnsafeText(value);
      if (unsafe.length > 0) done(new CrmError('INVALID_PARAMETER', unsafe), undefined);
      else done(null, value);
    };
    // fastify types its default parser as either form (callback or promise); today's is the
    // callback one, but a promise form must answer the request too, never reject unhandled.
    const pending = parseJson(request, buffer.toString('utf8', start), parsed);
    if (pending instanceof Promise) {
      pending.then(
        (value: unknown) => parsed(null, value),
        (error: unknown) => parsed(error instanceof Error ? error : httpError(400, 'BAD_REQUEST', 'Invalid JSON.')),
      );
    }
  });
}

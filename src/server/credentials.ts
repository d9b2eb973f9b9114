/**
 * Reading the API key from a request, as real clients send it (compatibility.md
 * "Authentication"): HTTP Basic with any username and the key as password, or an `apiKey`
 * header; either way the key may carry a database-mode suffix `|0` (voter file) or `|1`
 * (campaign). Pure: no I/O, so every form is unit-tested.
 */
import type { ContextName } from './crm-port.js';

/** Which context a `|0` / `|1` suffix selects. */
export const MODE_CONTEXTS: Readonly<Record<string, ContextName>> = { '0': 'voterfile', '1': 'campaign' };

/** What a request says about its key. */
export type Credentials =
  /** A well-formed key; `context` is null when no suffix was given (use the key's default). */
  | { readonly kind: 'key'; readonly guid: string; readonly context: ContextName | null }
  /** No Basic credentials and no apiKey header. */
  | { readonly kind: 'missing' }
  /** A key with a suffix other than |0 or |1. */
  | { readonly kind: 'bad-mode' }
  /** Something was sent, but it is not a GUID. */
  | { readonly kind: 'malformed' };

/** 8-4-4-4-12 hex, case-insensitive. Anchored, no nested quantifiers: linear time. */
const GUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Longest secret worth looking at: a GUID (36) plus a suffix, with room for whitespace. */
const MAX_SECRET_LENGTH = 128;

/** Parse `GUID`, `GUID|0` or `GUID|1` (surrounding whitespace ignored). */
export function parseSecret(secret: string): Credentials {
  if (secret.length > MAX_SECRET_LENGTH) return { kind: 'malformed' };
  const trimmed = secret.trim();
  const bar = trimmed.indexOf('|');
  const guid = (bar === -1 ? trimmed : trimmed.slice(0, bar)).trim();
  if (!GUID_RE.test(guid)) return { kind: 'malformed' };
  if (bar === -1) return { kind: 'key', guid: guid.toLowerCase(), context: null };
  const context = MODE_CONTEXTS[trimmed.slice(bar + 1).trim()];
  if (context === undefined) return { kind: 'bad-mode' };
  return { kind: 'key', guid: guid.toLowerCase(), context };
}

const BASIC_SCHEME = /^basic\s/i;
const BASE64_TOKEN = /^[\w+/=-]*$/;

/** The password of an `Authorization: Basic ...` value, or null if it is not Basic. */
export function basicPassword(authorization: string): string | null {
  // "Basic", whitespace, then the token alone once trimmed. Not one pattern: `\s+` and `\s*`
  // around an optional token backtrack quadratically on "Basic" and a header's worth of
  // spaces (2.4 s for 16 KB, the header size limit).
  const value = authorization.trimStart();
  if (!BASIC_SCHEME.test(value)) return null;
  const token = value.slice('basic '.length).trim();
  if (!BASE64_TOKEN.test(token)) return null;
  const decoded = Buffer.from(token, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  // RFC 7617: the user-id cannot contain a colon, the password can.
  return colon === -1 ? decoded : decoded.slice(colon + 1);
}

/** Headers as Node gives them (lower-case names). */
export type HeaderBag = Readonly<Record<string, string | string[] | undefined>>;

function firstHeader(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Read the credentials of a request. Basic auth wins when present; otherwise the `apiKey`
 * header (any case, as header names are).
 */
export function readCredentials(headers: HeaderBag): Credentials {
  const authorization = firstHeader(headers, 'authorization');
  if (authorization !== undefined) {
    const password = basicPassword(authorization);
    if (password !== null) return parseSecret(password);
  }
  const apiKey = firstHeader(headers, 'apikey');
  if (apiKey !== undefined) return parseSecret(apiKey);
  return authorization === undefined ? { kind: 'missing' } : { kind: 'malformed' };
}

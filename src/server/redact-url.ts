/**
 * Credentials out of logged URLs (issue 15). Keys travel in headers, but a client can paste
 * one into the URL (`?apiKey=KEY`, `/v4/people/KEY`), and some URLs carry secrets by design
 * (a result file's token, an upload's token). Every URL the server logs goes through
 * {@link redactUrl} first. Pure, linear time (no backtracking regexes).
 */

/** What replaces a secret. */
export const REDACTED = '[REDACTED]';

/** A GUID (an API key), dashes literal or percent-encoded, with an optional `|0`/`|1` suffix. */
const GUID = /[0-9a-f]{8}(?:-|%2d)[0-9a-f]{4}(?:-|%2d)[0-9a-f]{4}(?:-|%2d)[0-9a-f]{4}(?:-|%2d)[0-9a-f]{12}(?:(?:\||%7c)[0-9a-z]?)?/gi;

/** Query parameter names whose values are secrets (matched in lower case, anywhere in the name). */
const SECRET_PARAM = /key|token|secret|pass|auth|sig|credential|session|bearer/;

/** `/bulkImportResultFiles/{tenant}-{job}-{part}-{token}.csv` and `/bulkImportFiles/{token}`: their token is a credential. */
const RESULT_FILE = /(\/bulkImportResultFiles\/\d+-\d+-\d+-)[^/?#]+/gi;
const UPLOAD_FILE = /(\/bulkImportFiles\/)[^/?#]+/gi;

/** `scheme://user:password@` of an absolute-form request target. */
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i;

function decodeLoose(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function redactPath(path: string): string {
  return path.replace(USERINFO, `$1${REDACTED}@`).replace(RESULT_FILE, `$1${REDACTED}`).replace(UPLOAD_FILE, `$1${REDACTED}`).replace(GUID, REDACTED);
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair.replace(GUID, REDACTED);
      const name = pair.slice(0, eq);
      if (SECRET_PARAM.test(decodeLoose(name).toLowerCase())) return `${name}=${REDACTED}`;
      return `${name}=${pair.slice(eq + 1).replace(GUID, REDACTED)}`;
    })
    .join('&');
}

/** The URL with every credential in it replaced by {@link REDACTED}; everything else kept. */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const target = hash === -1 ? url : url.slice(0, hash);
  const q = target.indexOf('?');
  if (q === -1) return redactPath(target);
  return `${redactPath(target.slice(0, q))}?${redactQuery(target.slice(q + 1))}`;
}

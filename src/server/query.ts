/**
 * Parsing the parts of a URL the people routes read: `$expand` and the person reference
 * `{crmId}` or `{personIdType}:{personId}`. Pure functions.
 */
import { httpError, type HttpError } from './http-error.js';

/** Result of parsing `$expand`: the canonical names, or the 400 to answer. */
export type ExpandResult = { readonly ok: true; readonly expand: ReadonlySet<string> } | { readonly ok: false; readonly error: HttpError };

/**
 * Parse `$expand`, a comma list (the key may be repeated), against the valid values.
 * Names match case-insensitively and are returned in their canonical spelling; blanks are
 * skipped. Any unknown name: 400 INVALID_PARAMETER on `$expand` with a hint listing the
 * valid values (compatibility.md).
 */
export function parseExpand(raw: unknown, valid: readonly string[]): ExpandResult {
  const values: string[] = [];
  if (typeof raw === 'string') values.push(raw);
  else if (Array.isArray(raw)) for (const v of raw) if (typeof v === 'string') values.push(v);
  const byLower = new Map(valid.map((name) => [name.toLowerCase(), name]));
  const expand = new Set<string>();
  const unknown: string[] = [];
  for (const value of values) {
    for (const part of value.split(',')) {
      const name = part.trim();
      if (name === '') continue;
      const canonical = byLower.get(name.toLowerCase());
      if (canonical === undefined) unknown.push(name);
      else expand.add(canonical);
    }
  }
  if (unknown.length > 0) {
    const shown = unknown.slice(0, 5).map((n) => (n.length > 40 ? `${n.slice(0, 40)}...` : n));
    return {
      ok: false,
      error: httpError(400, 'INVALID_PARAMETER', `Unknown $expand value: ${shown.join(', ')}.`, {
        properties: ['$expand'],
        hint: `Valid values: ${valid.join(', ')}.`,
      }),
    };
  }
  return { ok: true, expand };
}

/** A person named in a path: by record id, or by external identifier. */
export type PersonRef = { readonly kind: 'crmId'; readonly crmId: number } | { readonly kind: 'external'; readonly type: string; readonly id: string };

/**
 * Parse the `{crmId}` or `{personIdType}:{personId}` path segment (already URL-decoded by
 * the router). Returns null for anything that names no person (the route answers 404).
 */
export function parsePersonRef(segment: string): PersonRef | null {
  if (/^\d{1,15}$/.test(segment)) {
    const crmId = Number(segment);
    return crmId > 0 ? { kind: 'crmId', crmId } : null;
  }
  const colon = segment.indexOf(':');
  if (colon <= 0) return null;
  const type = segment.slice(0, colon).trim();
  const id = segment.slice(colon + 1).trim();
  if (type === '' || id === '') return null;
  return { kind: 'external', type, id };
}

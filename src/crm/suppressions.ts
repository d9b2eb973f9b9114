/**
 * Suppressions (interface.md 2.9): codes that keep a person from a channel. The codes are
 * this server's seeded list (the contract names the shape, not the codes); a person holds
 * each code at most once. Applied by the bulk import mapping type Suppressions and shown by
 * GET /people/{id}?$expand=suppressions.
 */
import type { PersonRecord, StoredSuppression } from '../store/index.js';

/** The known suppressions, code -> name. */
export const SUPPRESSIONS: readonly { readonly suppressionCode: string; readonly suppressionName: string }[] = [
  { suppressionCode: 'NC', suppressionName: 'Do Not Call' },
  { suppressionCode: 'NE', suppressionName: 'Do Not Email' },
  { suppressionCode: 'NM', suppressionName: 'Do Not Mail' },
  { suppressionCode: 'NT', suppressionName: 'Do Not Text' },
  { suppressionCode: 'NW', suppressionName: 'Do Not Walk' },
  { suppressionCode: 'NX', suppressionName: 'Do Not Contact' },
];

/** The suppression of a code (any case, or its name), or undefined. */
export function findSuppression(code: string): (typeof SUPPRESSIONS)[number] | undefined {
  const key = code.trim().toLowerCase();
  return SUPPRESSIONS.find((s) => s.suppressionCode.toLowerCase() === key || s.suppressionName.toLowerCase() === key);
}

/** Applies (or removes) a suppression; `changed` false when the person already was so. */
export function applySuppression(p: PersonRecord, code: string, remove: boolean, now: string): { person: PersonRecord; changed: boolean } {
  const known = findSuppression(code);
  if (known === undefined) return { person: p, changed: false };
  const has = p.suppressions.some((s) => s.suppressionCode === known.suppressionCode);
  if (has !== remove) return { person: p, changed: false };
  const suppressions: StoredSuppression[] = remove
    ? p.suppressions.filter((s) => s.suppressionCode !== known.suppressionCode)
    : [...p.suppressions, { ...known, dateApplied: now }];
  return { person: { ...p, suppressions, updatedAt: now }, changed: true };
}

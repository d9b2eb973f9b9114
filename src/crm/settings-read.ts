/**
 * Small total readers for the tenant settings file (settings.ts, canvass-lists.ts), which is
 * an operator's file, not a request body (request bodies are declared once as schemas,
 * src/crm/schemas). Each reader returns `undefined` for absent values (missing or explicit
 * null) and records an issue for wrong ones; none throws.
 */
import type { ValidationIssue } from './errors.js';
import { MAX_ISSUES, isLongerThan } from './schemas/check.js';
import { hasLoneSurrogate, isObject } from './schemas/reader.js';

export { isObject, own, pathOf, type JsonObject } from './schemas/reader.js';

/** Collects issues, never more than {@link MAX_ISSUES}, so a huge bad file stays a small answer. */
export class Issues {
  readonly list: ValidationIssue[] = [];

  add(property: string, text: string, hint?: string): void {
    if (this.list.length >= MAX_ISSUES) return;
    this.list.push(hint === undefined ? { property, text } : { property, text, hint });
  }

  get empty(): boolean {
    return this.list.length === 0;
  }
}

/**
 * A string property: trimmed; empty or whitespace-only counts as absent; a finite JSON number
 * is accepted and written in decimal. Booleans, objects and arrays are issues.
 */
export function readString(issues: Issues, value: unknown, path: string, maxLength: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  let text: string;
  if (typeof value === 'string') text = value.trim();
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else {
    issues.add(path, `${path} must be a string.`);
    return undefined;
  }
  if (text === '') return undefined;
  if (isLongerThan(text, maxLength)) {
    issues.add(path, `${path} is longer than ${maxLength} characters.`, `Shorten it to at most ${maxLength} characters.`);
    return undefined;
  }
  if (hasLoneSurrogate(text)) {
    issues.add(path, `${path} contains an unpaired UTF-16 surrogate, which is not a character.`);
    return undefined;
  }
  return text;
}

/** An integer, or a string of digits (optionally signed). */
export function readInteger(issues: Issues, value: unknown, path: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined || value === null) return undefined;
  let n: number | undefined;
  if (typeof value === 'number') n = Number.isSafeInteger(value) ? value : undefined;
  else if (typeof value === 'string' && /^\s*-?\d{1,16}\s*$/.test(value)) {
    n = Number(value);
    if (!Number.isSafeInteger(n)) n = undefined;
  }
  if (n === undefined) {
    issues.add(path, `${path} must be an integer.`);
    return undefined;
  }
  if (n < min || n > max) {
    issues.add(path, `${path} must be between ${min} and ${max}.`);
    return undefined;
  }
  return n;
}

/** A boolean; the strings "true"/"false" in any case are accepted too. */
export function readBoolean(issues: Issues, value: unknown, path: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const t = value.trim().toLowerCase();
    if (t === 'true') return true;
    if (t === 'false') return false;
  }
  issues.add(path, `${path} must be true or false.`);
  return undefined;
}

/** An array property. A single object where an array is expected is ignored; other non-arrays are issues. */
export function readArray(issues: Issues, value: unknown, path: string): readonly unknown[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value as readonly unknown[];
  if (isObject(value)) return undefined;
  issues.add(path, `${path} must be an array.`);
  return undefined;
}

/**
 * Small total readers for untrusted JSON, shared by the Match Candidate and settings
 * validators. Each reader returns `undefined` for absent values (missing or explicit null,
 * compatibility.md: "explicit null = absent") and records an issue for wrong ones; none throws.
 */
import type { ValidationIssue } from './errors.js';

/** Collects issues, never more than {@link MAX_ISSUES}, so a huge bad body stays a small answer. */
export class Issues {
  static readonly MAX_ISSUES = 100;
  readonly list: ValidationIssue[] = [];

  add(property: string, text: string, hint?: string): void {
    if (this.list.length >= Issues.MAX_ISSUES) return;
    this.list.push(hint === undefined ? { property, text } : { property, text, hint });
  }

  get empty(): boolean {
    return this.list.length === 0;
  }
}

/** `a.b`, `a[0]`, or `b` at the root. */
export function pathOf(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

export type JsonObject = { readonly [key: string]: unknown };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own property, without walking the prototype ("__proto__", "constructor" are plain keys). */
export function own(obj: JsonObject, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** True when `text` has more than `limit` Unicode code points (the contract's "characters"). */
export function isLongerThan(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  if (text.length > 2 * limit) return true;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    if (++n > limit) return true;
  }
  return false;
}

/** Longest text accepted where the contract states no maximum (our defensive bound). */
export const UNSPECIFIED_MAX_LENGTH = 1000;

/**
 * A string property: trimmed; empty or whitespace-only counts as absent; a finite JSON number
 * is accepted and written in decimal (clients send `phoneNumber`, `ext`, `zipOrPostalCode`
 * as numbers). Booleans, objects and arrays are issues.
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
  if (LONE_SURROGATE.test(text)) {
    issues.add(path, `${path} contains an unpaired UTF-16 surrogate, which is not a character.`);
    return undefined;
  }
  return text;
}

/**
 * A property the contract types as string: like {@link readString}, but only a JSON string is
 * accepted; a number, boolean, object or array is an issue naming the property.
 */
export function readText(issues: Issues, value: unknown, path: string, maxLength: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    issues.add(path, `${path} must be a string.`);
    return undefined;
  }
  return readString(issues, value, path, maxLength);
}

/** Absent for a required property: missing, explicit null, or a string of only whitespace. */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * A code from a fixed list, accepted in any case (compatibility.md); returns the canonical
 * spelling. Only a JSON string can be a code.
 */
export function readCode<T extends string>(
  issues: Issues, value: unknown, path: string, allowed: Readonly<Record<string, T>>, described: string,
): T | undefined {
  const text = readText(issues, value, path, 50);
  if (text === undefined) return undefined;
  const code = allowed[text.toUpperCase()];
  if (code === undefined) {
    issues.add(path, `${path} "${clip(text)}" is not one of the allowed values.`, `Use one of: ${described}.`);
  }
  return code;
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

/**
 * An array property. A single object where an array is expected is ignored, as the contract
 * says (interface.md 2.1 rule); other non-arrays are issues.
 */
export function readArray(issues: Issues, value: unknown, path: string): readonly unknown[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value;
  if (isObject(value)) return undefined;
  issues.add(path, `${path} must be an array.`);
  return undefined;
}

/** An object property; anything else is an issue. */
export function readObject(issues: Issues, value: unknown, path: string): JsonObject | undefined {
  if (value === undefined || value === null) return undefined;
  if (isObject(value)) return value;
  issues.add(path, `${path} must be an object.`);
  return undefined;
}

/** Cuts a value for quoting in a message. */
export function clip(text: string, max = 40): string {
  const head = Array.from(text.slice(0, 2 * max + 2).replace(LONE_SURROGATES, '\ufffd'));
  return head.length <= max && text.length <= 2 * max + 2 ? head.join('') : `${head.slice(0, max).join('')}...`;
}

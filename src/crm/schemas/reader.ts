/**
 * Reading a body that its schema already checked (schemas/check.ts): the values come out
 * trimmed, with explicit null and blank strings as absent, and the code on top adds only what a
 * schema cannot say (settings, outside rules, cross-field rules). A value the schema refused
 * reads as absent here, so that each property is reported once.
 */
import type { ValidationIssue } from '../errors.js';
import { MAX_ISSUES } from './check.js';

export type JsonObject = { readonly [key: string]: unknown };

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `text` holds a UTF-16 surrogate without its pair (not a character). */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** `a.b`, `a[0]`, or `b` at the root. */
export function pathOf(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own property, without walking the prototype ("__proto__", "constructor" are plain keys). */
export function own(obj: JsonObject, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

/** Absent for a required property: missing, explicit null, or a string of only whitespace. */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Reads the values of one checked body and collects the issues of the code on top. */
export class Reader {
  readonly issues: ValidationIssue[] = [];

  private readonly refused: ReadonlySet<string> | null;

  /** `refused`: the paths the schema already reported (their values read as absent). */
  constructor(refused: readonly string[]) {
    this.refused = refused.length === 0 ? null : new Set(refused);
  }

  add(property: string, text: string, hint?: string): void {
    if (this.issues.length >= MAX_ISSUES || !this.ok(property) || this.issues.some((i) => i.property === property)) return;
    this.issues.push(hint === undefined ? { property, text } : { property, text, hint });
  }

  /** False for a path the schema refused. */
  ok(path: string): boolean {
    return this.refused === null || !this.refused.has(path);
  }

  /** A string (a JSON number too where the schema allows it), trimmed; blank is absent. */
  text(value: unknown, path: string): string | undefined {
    if (!this.ok(path)) return undefined;
    let text: string;
    if (typeof value === 'string') text = value.trim();
    else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
    else return undefined;
    if (text === '') return undefined;
    if (hasLoneSurrogate(text)) {
      this.add(path, `${path} contains an unpaired UTF-16 surrogate, which is not a character.`);
      return undefined;
    }
    return text;
  }

  /** A code in its canonical spelling (the schema accepted only codes, in any case). */
  code<T extends string>(value: unknown, path: string, codes: Readonly<Record<string, T>>): T | undefined {
    const text = this.text(value, path);
    return text === undefined ? undefined : codes[text.toUpperCase()];
  }

  /** A whole number (or its digits) in `min..max`; out of range is an issue. */
  int(value: unknown, path: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
    if (!this.ok(path)) return undefined;
    const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
    if (!Number.isSafeInteger(n)) return undefined;
    if (n < min || n > max) {
      this.add(path, `${path} must be between ${min} and ${max}.`);
      return undefined;
    }
    return n;
  }

  bool(value: unknown, path: string): boolean | undefined {
    if (!this.ok(path)) return undefined;
    if (typeof value === 'boolean') return value;
    if (typeof value !== 'string') return undefined;
    const t = value.trim().toLowerCase();
    return t === 'true' ? true : t === 'false' ? false : undefined;
  }

  obj(value: unknown, path: string): JsonObject | undefined {
    return this.ok(path) && isObject(value) ? value : undefined;
  }

  /** The objects of a list with their paths (null items and a single object sent for the list are skipped). */
  each(value: unknown, path: string): { item: JsonObject; path: string }[] {
    if (!this.ok(path) || !Array.isArray(value)) return [];
    const out: { item: JsonObject; path: string }[] = [];
    value.forEach((item, i) => {
      const p = pathOf(path, i);
      if (isObject(item) && this.ok(p)) out.push({ item, path: p });
    });
    return out;
  }
}

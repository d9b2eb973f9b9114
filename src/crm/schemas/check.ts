/**
 * Checks a request body against its schema, once, and says what is wrong in the error
 * envelope's terms: one issue per property path (`phones[1].ext`), worded by the schema's
 * blocks (kit.ts), in the schema's property order.
 *
 * Two compilers of the same schema (measured, bench/README.md "Body validation"): TypeBox's
 * compiler answers the common case, a valid body, in 0.3-0.8 µs (Ajv with every error: 4-6 µs);
 * when it says no, Ajv (the JSON Schema validator fastify ships) gives the verdict and the list
 * of every error. Ajv counts `maxLength` in characters (code points) as JSON Schema says, where
 * TypeBox counts UTF-16 units, so a TypeBox yes is always an Ajv yes, and a TypeBox no is
 * settled by Ajv.
 */
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { TSchema } from '@sinclair/typebox';
import { Ajv, type ErrorObject } from 'ajv';
import type { ValidationIssue } from '../errors.js';
import { branchesOf, issueTextOf } from './kit.js';

// `unicode: false`: maxLength is compared in UTF-16 units here (O(1), where counting code points
// walks the string: seconds for a few huge strings), then settled in code points below.
const ajv = new Ajv({ allErrors: true, verbose: true, strict: false, unicodeRegExp: true, unicode: false, logger: false });

/** Most issues reported for one body, so a huge bad body stays a small answer. */
export const MAX_ISSUES = 100;

/** A compiled request schema. */
export interface CompiledSchema {
  /** Every issue of a body against the schema, one per path, in property order; empty when it has the schema's shape. */
  validate(value: unknown): ValidationIssue[];
  /** Issues (of the schema and of code on top) in the schema's property order, at most {@link MAX_ISSUES}. */
  ordered(issues: readonly ValidationIssue[]): ValidationIssue[];
}

/** Compiles a request schema (once, at module load). */
export function compileSchema(schema: TSchema): CompiledSchema {
  const fast = TypeCompiler.Compile(schema);
  const full = ajv.compile(schema);
  return {
    validate: (value) => (fast.Check(value) || full(value) ? [] : issuesOf(withinLimits(full.errors ?? []), schema)),
    ordered: (issues) => orderIssues(issues, schema),
  };
}

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

/**
 * Drops the errors of a string that Ajv found too long in UTF-16 units but is within its limit
 * in code points (with the union errors that only followed from it).
 */
function withinLimits(errors: readonly ErrorObject[]): ErrorObject[] {
  const fine = new Set<string>();
  for (const e of errors) {
    if (e.keyword === 'maxLength' && typeof e.data === 'string' && !isLongerThan(e.data, (e.params as { limit: number }).limit)) fine.add(e.instancePath);
  }
  if (fine.size === 0) return [...errors];
  for (const e of errors) if (fine.has(e.instancePath) && !['maxLength', 'type', 'anyOf'].includes(e.keyword)) fine.delete(e.instancePath);
  return errors.filter((e) => !fine.has(e.instancePath));
}

/** `/phones/1/ext` -> `phones[1].ext`. */
export function dotPath(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else out += out === '' ? seg : `.${seg}`;
  }
  return out;
}

/** The node of `schema` a JSON pointer leads to (through unions, objects and arrays), or undefined. */
function nodeAt(schema: TSchema, pointer: string): TSchema | undefined {
  let node: TSchema | undefined = schema;
  for (const raw of pointer.split('/').slice(1)) {
    if (node === undefined) return undefined;
    const index = /^\d+$/.test(raw);
    let next: TSchema | undefined;
    for (const b of branchesOf(node)) {
      const items = (b as { items?: TSchema }).items;
      const props = (b as { properties?: Record<string, TSchema> }).properties;
      if (index && items !== undefined) next = items;
      else if (!index && props !== undefined && Object.prototype.hasOwnProperty.call(props, raw)) next = props[raw];
      if (next !== undefined) break;
    }
    node = next;
  }
  return node;
}

/** Sort key of a path: each segment's position in its object's property order, or its index. */
function orderOf(schema: TSchema, pointer: string): number[] {
  const key: number[] = [];
  let node: TSchema | undefined = schema;
  for (const raw of pointer.split('/').slice(1)) {
    if (/^\d+$/.test(raw)) {
      key.push(Number(raw));
      node = node === undefined ? undefined : nodeAt(node, `/${raw}`);
      continue;
    }
    let at = -1;
    for (const b of node === undefined ? [] : branchesOf(node)) {
      const props = (b as { properties?: Record<string, TSchema> }).properties;
      if (props !== undefined) at = Object.keys(props).indexOf(raw);
      if (at !== -1) break;
    }
    key.push(at === -1 ? Number.MAX_SAFE_INTEGER : at);
    node = node === undefined ? undefined : nodeAt(node, `/${raw.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  }
  return key;
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return a.length - b.length;
}

/** `phones[1].ext` -> `/phones/1/ext`. */
function pointerOf(path: string): string {
  if (path === '') return '';
  return `/${path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1'))
    .join('/')}`;
}

/** Sort keys of paths per schema (paths repeat from body to body; bounded). */
const ORDER_KEYS = new WeakMap<TSchema, Map<string, number[]>>();

function orderKey(schema: TSchema, property: string): number[] {
  let keys = ORDER_KEYS.get(schema);
  if (keys === undefined) ORDER_KEYS.set(schema, (keys = new Map<string, number[]>()));
  let key = keys.get(property);
  if (key === undefined) {
    key = orderOf(schema, pointerOf(property));
    if (keys.size >= 10_000) keys.clear();
    keys.set(property, key);
  }
  return key;
}

/** Issues sorted by the schema's property order (stable), at most {@link MAX_ISSUES}. */
export function orderIssues(issues: readonly ValidationIssue[], schema: TSchema): ValidationIssue[] {
  if (issues.length <= 1) return [...issues];
  return issues
    .map((issue, i) => ({ issue, i, key: orderKey(schema, issue.property) }))
    .sort((a, b) => compareKeys(a.key, b.key) || a.i - b.i)
    .slice(0, MAX_ISSUES)
    .map((o) => o.issue);
}

/** Priority of an error keyword when several concern one path: the most specific wins. */
const PRIORITY: Readonly<Record<string, number>> = { required: 0, maxLength: 1, maxItems: 1, pattern: 2, minimum: 3, maximum: 3, type: 9, anyOf: 9 };

/** One issue per path, worded by the failing node, ordered as the schema declares properties. */
export function issuesOf(errors: readonly ErrorObject[], schema: TSchema): ValidationIssue[] {
  const byPath = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    const pointer = e.keyword === 'required' ? `${e.instancePath}/${(e.params as { missingProperty: string }).missingProperty}` : e.instancePath;
    const list = byPath.get(pointer);
    if (list === undefined) byPath.set(pointer, [e]);
    else list.push(e);
  }
  const pointers = [...byPath.keys()];
  const out: { pointer: string; issue: ValidationIssue }[] = [];
  for (const [pointer, list] of byPath) {
    // A value that is the right kind but has a bad part: its parts say what is wrong.
    const onlyShape = list.every((e) => e.keyword === 'type' || e.keyword === 'anyOf');
    if (onlyShape && pointers.some((p) => p.startsWith(`${pointer}/`))) continue;
    const e = [...list].sort((a, b) => (PRIORITY[a.keyword] ?? 5) - (PRIORITY[b.keyword] ?? 5))[0] as ErrorObject;
    out.push({ pointer, issue: wordIssue(e, pointer, schema) });
  }
  out.sort((a, b) => compareKeys(orderOf(schema, a.pointer), orderOf(schema, b.pointer)));
  return out.slice(0, MAX_ISSUES).map((o) => o.issue);
}

function wordIssue(e: ErrorObject, pointer: string, schema: TSchema): ValidationIssue {
  const path = dotPath(pointer);
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': {
      const hint = issueTextOf(nodeAt(schema, pointer))?.required;
      return hint === undefined ? { property: path, text: `${path} is required.` } : { property: path, text: `${path} is required.`, hint };
    }
    case 'maxLength': {
      const max = Number(params['limit']);
      return { property: path, text: `${path} is longer than ${max} characters.`, hint: `Shorten it to at most ${max} characters.` };
    }
    case 'maxItems':
      return {
        property: path,
        text: `${path} has ${Array.isArray(e.data) ? e.data.length : 'too many'} items; at most ${String(params['limit'])} are accepted.`,
      };
    case 'minimum':
    case 'maximum': {
      const s = e.parentSchema as { minimum?: number; maximum?: number };
      return { property: path, text: `${path} must be between ${s.minimum ?? 0} and ${s.maximum ?? Number.MAX_SAFE_INTEGER}.` };
    }
    case 'pattern': {
      const word = issueTextOf(e.parentSchema)?.pattern;
      if (word !== undefined && typeof e.data === 'string') return { property: path, ...word(path, e.data) };
      return { property: path, text: `${path} is not in the expected form.` };
    }
    default: {
      const text = issueTextOf(nodeAt(schema, pointer))?.type ?? issueTextOf(e.parentSchema)?.type ?? 'has the wrong type';
      return { property: path, text: `${path} ${text}.` };
    }
  }
}

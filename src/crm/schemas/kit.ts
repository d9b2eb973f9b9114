/**
 * Building blocks of the request schemas (TypeBox, so the JSON Schema and its TypeScript type
 * come from one declaration). Each block states what real clients may send (compatibility.md):
 * explicit `null` is accepted everywhere and means absent, codes are accepted in any case, a
 * few numbers are accepted where the contract says string. Unknown keys are allowed (ignored).
 *
 * Every block also registers how to say what is wrong with a value in words a person can act
 * on ({@link issueTextOf}), so that a schema failure becomes the error envelope's `text`.
 */
import { Type, type TSchema } from '@sinclair/typebox';

/** How a node of a schema explains a failure of its own value, given the value's dot path. */
export interface IssueText {
  /** The value has the wrong JSON type: "must be a string". */
  readonly type: string;
  /** The value does not match the node's pattern (codes, digits, dates). */
  readonly pattern?: (path: string, value: string) => { readonly text: string; readonly hint?: string };
  /** What to send, when a required property is missing ("x is required."). */
  readonly required?: string;
}

const TEXTS = new WeakMap<object, IssueText>();

function described<T extends TSchema>(schema: T, text: IssueText): T {
  TEXTS.set(schema, text);
  return schema;
}

/**
 * The schema with a hint for when it is missing from an object that requires it. The code on
 * top says the same for an explicit null or a blank value (null is absent), with the same hint.
 */
export function withRequiredHint<T extends TSchema>(schema: T, hint: string): T {
  const text = TEXTS.get(schema);
  TEXTS.set(schema, { type: text?.type ?? 'has the wrong type', ...text, required: hint });
  return schema;
}

/** The words of a node, if it registered any. */
export function issueTextOf(schema: unknown): IssueText | undefined {
  return typeof schema === 'object' && schema !== null ? TEXTS.get(schema) : undefined;
}

/** Cuts a value for quoting in a message (at most `max` code points). */
export function clip(text: string, max = 40): string {
  const head = Array.from(text.slice(0, 2 * max + 2)).map((c) => (c.length === 1 && c >= '\ud800' && c <= '\udfff' ? '\ufffd' : c));
  return head.length <= max && text.length <= 2 * max + 2 ? head.join('') : `${head.slice(0, max).join('')}...`;
}

/** `^\s*(?:[Pp]|[Ww])\s*$`: the codes in any case, surrounding blanks allowed (they are trimmed). */
function anyCasePattern(codes: readonly string[]): string {
  const letters = (code: string): string =>
    Array.from(code)
      .map((c) => (c.toLowerCase() === c.toUpperCase() ? c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : `[${c.toUpperCase()}${c.toLowerCase()}]`))
      .join('');
  return `^\\s*(?:${codes.map(letters).join('|')})\\s*$`;
}

/** A string of at most `max` characters (code points), or null. */
export function Text(max: number, description: string): TSchema {
  return described(Type.Union([Type.String({ maxLength: max }), Type.Null()], { description }), { type: 'must be a string' });
}

/** A string matching `pattern` (trimmed first), or null; `problem` words a mismatch. */
export function Patterned(
  max: number,
  pattern: string,
  description: string,
  problem: (path: string, value: string) => { text: string; hint?: string },
): TSchema {
  const branch = described(Type.String({ maxLength: max, pattern }), { type: 'must be a string', pattern: problem });
  return described(Type.Union([branch, Type.Null()], { description }), { type: 'must be a string' });
}

/** A string or a JSON number (clients send phone numbers and extensions as numbers), or null. */
export function TextOrNumber(
  max: number,
  description: string,
  pattern?: { readonly pattern: string; readonly problem: (path: string, value: string) => { text: string; hint?: string } },
): TSchema {
  const string =
    pattern === undefined
      ? Type.String({ maxLength: max })
      : described(Type.String({ maxLength: max, pattern: pattern.pattern }), { type: 'must be a string', pattern: pattern.problem });
  return described(Type.Union([string, Type.Number(), Type.Null()], { description }), { type: 'must be a string' });
}

/**
 * One of `codes` in any case (the canonical spellings first in the description), or null. A
 * name is not a code: "Male" for sex is refused.
 */
export function Code(codes: readonly string[], meaning: string): TSchema {
  const problem = (path: string, value: string) => ({
    text: `${path} "${clip(value.trim())}" is not one of the allowed values.`,
    hint: `Use one of: ${meaning}.`,
  });
  const branch = described(Type.String({ maxLength: 50, pattern: anyCasePattern(codes) }), { type: 'must be a string', pattern: problem });
  return described(Type.Union([branch, Type.Null()], { description: `One of ${meaning}; any case.` }), { type: 'must be a string' });
}

/** A string, a JSON number or a boolean (written as text), or null: a value a client may send in any of these types. */
export function Scalar(max: number, description: string): TSchema {
  return described(Type.Union([Type.String({ maxLength: max }), Type.Number(), Type.Boolean(), Type.Null()], { description }), {
    type: 'must be a string, a number or true/false',
  });
}

/** A record id as a string or a JSON number, or null (an id that cannot exist is ignored). */
export function IdLike(description: string): TSchema {
  return described(Type.Union([Type.String(), Type.Number(), Type.Null()], { description }), { type: 'must be a string or a number' });
}

const DIGITS = '^\\s*-?\\d{1,16}\\s*$';

/** A whole number in `min..max`, or a string of its digits, or null. */
export function Int(min: number, max: number, description: string): TSchema {
  const digits = described(Type.String({ pattern: DIGITS }), { type: 'must be an integer', pattern: (path) => ({ text: `${path} must be an integer.` }) });
  return described(Type.Union([Type.Integer({ minimum: min, maximum: max }), digits, Type.Null()], { description }), { type: 'must be an integer' });
}

/** true or false, or the strings "true"/"false" in any case, or null. */
export function Bool(description: string): TSchema {
  const words = described(Type.String({ pattern: anyCasePattern(['true', 'false']) }), {
    type: 'must be true or false',
    pattern: (path) => ({ text: `${path} must be true or false.` }),
  });
  return described(Type.Union([Type.Boolean(), words, Type.Null()], { description }), { type: 'must be true or false' });
}

/** The properties as a TypeBox object: those not in `required` optional, unknown keys allowed (ignored). */
export function objectOf(properties: Record<string, TSchema>, required: readonly string[] = [], options: { description?: string } = {}): TSchema {
  const props: Record<string, TSchema> = {};
  for (const [name, schema] of Object.entries(properties)) {
    if (required.includes(name)) {
      props[name] = schema;
      continue;
    }
    // Type.Optional makes a copy: the copy keeps the node's words.
    const optional = Type.Optional(schema);
    const text = TEXTS.get(schema);
    if (text !== undefined) TEXTS.set(optional, text);
    props[name] = optional;
  }
  return Type.Object(props, { additionalProperties: true, ...options });
}

/** An object of these properties, or null. */
export function Obj(properties: Record<string, TSchema>, required: readonly string[], description: string, what = 'an object'): TSchema {
  return described(Type.Union([objectOf(properties, required), Type.Null()], { description }), { type: `must be ${what}` });
}

/** Most items accepted in one collection of a body (the contract shows no limit; ours). */
export const MAX_ITEMS = 100;

/**
 * A list of `item` objects (null items skipped), at most {@link MAX_ITEMS}; or null. A single
 * object sent where a list is expected is ignored, as the contract says (interface.md 2.1).
 */
export function List(properties: Record<string, TSchema>, required: readonly string[], description: string, what: string): TSchema {
  const item = described(Type.Union([objectOf(properties, required), Type.Null()]), { type: `must be ${what}` });
  const list = Type.Array(item, { maxItems: MAX_ITEMS });
  const ignored = Type.Object({}, { additionalProperties: true, description: 'A single object where a list is expected: ignored (interface.md 2.1).' });
  return described(Type.Union([list, ignored, Type.Null()], { description }), { type: 'must be an array' });
}

/**
 * A list of `item` objects, or null; unlike {@link List}, every item must be an object (no
 * null items) and a single object is not taken for the list.
 */
export function Objects(properties: Record<string, TSchema>, required: readonly string[], description: string, what: string): TSchema {
  const item = described(objectOf(properties, required), { type: `must be ${what}` });
  return described(Type.Union([Type.Array(item, { maxItems: MAX_ITEMS }), Type.Null()], { description }), { type: 'must be an array' });
}

/** The pattern's node of a union-of-branches schema, or the schema itself (for lookups by path). */
export function branchesOf(schema: TSchema): readonly TSchema[] {
  const anyOf = (schema as { anyOf?: readonly TSchema[] }).anyOf;
  return anyOf ?? [schema];
}

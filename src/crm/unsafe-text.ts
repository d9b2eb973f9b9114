/**
 * Characters no text field may hold (issue 15): C0 controls (U+0000-U+001F: NUL, ESC of
 * terminal escape sequences, TAB, CR, LF), DEL (U+007F), C1 controls (U+0080-U+009F), and the
 * bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069, the
 * "Trojan Source" characters that make a name display as something else). Stored, they would
 * come back in every answer, log line and result file. The left-to-right and right-to-left
 * marks (U+200E, U+200F) are kept: names in Hebrew or Arabic use them.
 *
 * One rule for every way text comes in, outside the validators so that it holds whatever they
 * become: the server's JSON body parser checks every string of a body (src/server/json-body.ts,
 * a 400 naming each property) and the bulk import checks every mapped cell of a row
 * (src/crm/import/row-steps.ts, the row's outcome names the field).
 */
import type { ValidationIssue } from './errors.js';

/** One character that is refused (see the module comment). */
// eslint-disable-next-line no-control-regex -- finding control characters is what this regex is for
const UNSAFE_CHAR = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const NAMES: Readonly<Record<number, string>> = {
  0x00: 'NUL',
  0x09: 'TAB',
  0x0a: 'line feed',
  0x0d: 'carriage return',
  0x1b: 'ESC',
  0x7f: 'DEL',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
};

/** The first refused character of `text` as `U+202E (right-to-left override)`, or null when there is none. */
export function findUnsafeCharacter(text: string): string | null {
  const m = UNSAFE_CHAR.exec(text);
  if (m === null) return null;
  const code = m[0].charCodeAt(0);
  const name = NAMES[code] ?? (code < 0x80 ? 'control character' : code <= 0x9f ? 'C1 control character' : 'bidirectional control');
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')} (${name})`;
}

/** The issue of a text property holding a refused character, or null. */
export function unsafeTextIssue(text: string, property: string): ValidationIssue | null {
  const found = findUnsafeCharacter(text);
  if (found === null) return null;
  return {
    property,
    text: `${property} contains ${found}: control characters and bidirectional overrides are not accepted in text.`,
    hint: 'Remove control characters (NUL, ESC, TAB, line breaks) and bidirectional override characters from the value.',
  };
}

/** Most issues reported for one body (as the validators' own limit). */
const MAX_ISSUES = 100;

/**
 * Every string in a parsed JSON value that holds a refused character, as issues named by
 * their paths (`firstName`, `emails[0].email`). Object keys are not checked (unknown keys
 * are ignored anyway). Iterative: any depth.
 */
export function findUnsafeText(value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0 && issues.length < MAX_ISSUES) {
    const [v, path] = stack.pop() as [unknown, string];
    if (typeof v === 'string') {
      const issue = unsafeTextIssue(v, path === '' ? 'body' : path);
      if (issue !== null) issues.push(issue);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}[${i}]`]);
    } else if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i] as [string, unknown];
        stack.push([child, path === '' ? k : `${path}.${k}`]);
      }
    }
  }
  return issues;
}

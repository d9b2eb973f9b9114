/**
 * The request schemas say what is wrong in words a person can act on (src/crm/schemas): every
 * property of every request schema, sent with a value of the wrong JSON type, is one issue at
 * its own path worded by its own node ("must be a string", "must be an integer"...), never the
 * generic fallback; a required property that is missing says what to send when its schema
 * carries a hint.
 */
import type { TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../../src/crm/schemas/check.js';
import { branchesOf } from '../../../src/crm/schemas/kit.js';
import { BulkImportJobRequest, CanvassResponse, MatchCandidate } from '../../../src/crm/index.js';

const SCHEMAS: Readonly<Record<string, TSchema>> = { MatchCandidate, CanvassResponse, BulkImportJobRequest };

/** Every property path of a schema (`a.b[0].c`), through unions, objects and the items of arrays. */
function pathsOf(schema: TSchema, prefix = ''): string[] {
  const out: string[] = [];
  for (const branch of branchesOf(schema)) {
    const props = (branch as { properties?: Record<string, TSchema> }).properties;
    const items = (branch as { items?: TSchema }).items;
    if (props !== undefined) {
      for (const [name, child] of Object.entries(props)) {
        const path = prefix === '' ? name : `${prefix}.${name}`;
        out.push(path, ...pathsOf(child, path));
      }
    } else if (items !== undefined) out.push(...pathsOf(items, `${prefix}[0]`));
  }
  return [...new Set(out)];
}

/** A body holding `value` at `path` (objects and one-item arrays on the way). */
function bodyWith(path: string, value: unknown): Record<string, unknown> {
  const steps = path.replace(/\[0\]/g, '.[0]').split('.');
  const build = (i: number): unknown => {
    if (i === steps.length) return value;
    return steps[i] === '[0]' ? [build(i + 1)] : { [steps[i] as string]: build(i + 1) };
  };
  return build(0) as Record<string, unknown>;
}

describe.each(Object.entries(SCHEMAS))('%s', (_name, schema) => {
  const compiled = compileSchema(schema);
  const paths = pathsOf(schema);

  it('has properties to check', () => {
    expect(paths.length).toBeGreaterThan(5);
  });

  it('words the wrong JSON type of every property at its own path', () => {
    // No property of a request accepts an array of arrays: a list says so of its first item.
    for (const path of paths) {
      const issues = compiled.validate(bodyWith(path, [[1]]));
      const mine = issues.filter((i) => i.property === path || i.property === `${path}[0]`);
      expect(mine, `${path}: ${JSON.stringify(issues)}`).toHaveLength(1);
      expect(mine[0]?.text, path).toMatch(/ must be /);
      expect(mine[0]?.text, path).not.toContain('wrong type');
    }
  });
});

describe('required properties', () => {
  it('say what to send when the schema has a hint', () => {
    const canvass = compileSchema(CanvassResponse).validate({ resultCodeId: 18 });
    expect(canvass).toEqual([{ property: 'canvassContext', text: 'canvassContext is required.', hint: expect.stringContaining('"canvassContext"') }]);
    const job = compileSchema(BulkImportJobRequest).validate({});
    expect(job.map((i) => i.property)).toEqual(['file', 'actions']);
    expect(job.every((i) => i.hint !== undefined)).toBe(true);
    const nested = compileSchema(CanvassResponse).validate({ canvassContext: {}, responses: [{ activistCodeId: 1 }] });
    expect(nested).toEqual([
      { property: 'responses[0].type', text: 'responses[0].type is required.', hint: 'Use ActivistCode, SurveyResponse or VolunteerActivity.' },
    ]);
  });

  it('say only that they are required when the schema has none', () => {
    expect(compileSchema(MatchCandidate).validate({ emails: [{ type: 'P' }] })).toEqual([
      { property: 'emails[0].email', text: 'emails[0].email is required.' },
    ]);
  });
});

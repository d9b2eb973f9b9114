/**
 * Reading a bulk import job request (src/crm/import/job-request.ts), one read on top of its
 * schema: the recorded parsons requests are read as sent, values come out trimmed, every
 * problem is named once in the schema's order (the first action's too when more were sent),
 * and a name that is a property of every JavaScript object is not taken for a delimiter.
 */
import { describe, expect, it } from 'vitest';
import { parseJobRequest } from '../../src/crm/import/job-request.js';
import { CrmError } from '../../src/crm/index.js';
import { vanBody, vanFiles } from './fixtures.js';

const ORIGIN = 'http://127.0.0.1:1';
const parse = (body: unknown) => parseJobRequest(body, ORIGIN, () => true);
function issues(body: unknown): { property: string; text: string; hint?: string }[] {
  try {
    parse(body);
  } catch (err) {
    expect(err).toBeInstanceOf(CrmError);
    return [...(err as CrmError).issues];
  }
  return [];
}
const base = (file: Record<string, unknown> = {}, action: Record<string, unknown> = {}) => ({
  file: { sourceUrl: 'https://files.example.org/a.csv', columns: [{ name: 'Vanid' }], ...file },
  actions: [{ actionType: 'loadMappedFile', resourceType: 'Contacts', mappingTypes: [{ name: 'CreateOrUpdateContact' }], ...action }],
});

describe('parseJobRequest', () => {
  it('reads every recorded parsons request as sent', () => {
    const files = vanFiles('parsons-sent-bulk-import-job-request');
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) {
      const spec = parse(vanBody(file));
      expect(spec.hasHeader, file).toBe(true);
      expect(spec.delimiter, file).toBe(',');
      expect(spec.mappingTypes.length, file).toBeGreaterThan(0);
    }
    const custom = parse(vanBody('parsons-sent-bulk-import-job-request-contact-custom-fields.json'));
    expect(custom.mappingTypes[0]?.fieldValueMappings[0]).toMatchObject({ fieldName: 'CustomFieldGroupID', staticValue: expect.stringMatching(/^\d+$/) });
  });

  it('trims what it reads; a static value may be a number or a boolean; the tab character is a delimiter', () => {
    const spec = parse(
      base(
        { columnDelimiter: '\t', fileName: ' a.csv ', columns: [{ name: ' Vanid ' }] },
        {
          resourceType: ' Contacts ',
          mappingTypes: [
            {
              name: ' phones ',
              fieldValueMappings: [
                { fieldName: ' Phone ', columnName: ' Vanid ' },
                { fieldName: 'PhoneOptInStatus', staticValue: true, values: [{ sourceValue: ' true ', targetValue: ' I ' }] },
                { fieldName: 'Ext', staticValue: 12 },
              ],
            },
          ],
        },
      ),
    );
    expect(spec).toMatchObject({ delimiter: '\t', fileName: 'a.csv', columns: ['Vanid'], resourceType: 'Contacts' });
    expect(spec.mappingTypes[0]).toEqual({
      name: 'Phones',
      index: 0,
      fieldValueMappings: [
        { fieldName: 'Phone', columnName: 'Vanid', staticValue: null, values: [] },
        { fieldName: 'PhoneOptInStatus', columnName: null, staticValue: 'true', values: [{ sourceValue: 'true', targetValue: 'I' }] },
        { fieldName: 'Ext', columnName: null, staticValue: '12', values: [] },
      ],
    });
  });

  it("names each problem once, in the order of the schema, the first action's too when two were sent", () => {
    const body = base({ columnDelimiter: 'constructor', hasHeader: 'maybe' }, { actionType: 'load', mappingTypes: [{ name: 'Nope' }] });
    body.actions.push({} as never);
    expect(issues(body).map((i) => i.property)).toEqual([
      'file.hasHeader',
      'file.columnDelimiter',
      'actions',
      'actions[0].actionType',
      'actions[0].mappingTypes[0].name',
    ]);
  });

  it('file and actions: missing or null is required, with what to send', () => {
    for (const body of [{}, { file: null, actions: null }]) {
      const found = issues(body);
      expect(found.map((i) => [i.property, i.text])).toEqual([
        ['file', 'file is required.'],
        ['actions', 'actions is required.'],
      ]);
      expect(found.every((i) => i.hint !== undefined)).toBe(true);
    }
  });

  it('lists: no null items, no single object for a list, at least one column and one mapping type', () => {
    expect(issues(base({ columns: [null] })).map((i) => i.property)).toEqual(['file.columns[0]']);
    expect(issues(base({ columns: { name: 'Vanid' } })).map((i) => i.property)).toEqual(['file.columns']);
    expect(issues(base({ columns: [] })).map((i) => i.text)).toEqual(['file.columns must name at least one column.']);
    expect(issues(base({}, { mappingTypes: [] })).map((i) => i.property)).toEqual(['actions[0].mappingTypes']);
    expect(issues(base({}, { mappingTypes: [{ name: 'Email' }, { name: 'email' }] })).map((i) => i.text)).toEqual(['Mapping type Email is given twice.']);
  });
});

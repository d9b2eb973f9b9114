/**
 * fieldValueMappings work as their names say (pure functions of src/crm/import): a
 * staticValue is the value on every row; a columnName reads that column; `values` translate
 * source values (trimmed, any case) and pass others through; unmapped fields are found by
 * name or alias. And the job request parser accepts what clients send.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileMapping, fieldValue, nameKey, readFields } from '../../src/crm/import/field-mapping.js';
import { parseJobRequest } from '../../src/crm/import/job-request.js';
import { findMappingType } from '../../src/crm/import/mapping-types.js';
import { CrmError } from '../../src/crm/index.js';

const phones = findMappingType('Phones')!;
const text = fc.string({ minLength: 1, maxLength: 8 }).filter((s) => s.trim() !== '');

describe('field mapping', () => {
  it('staticValue wins over the row', () => {
    fc.assert(
      fc.property(text, fc.array(fc.string(), { minLength: 2, maxLength: 2 }), (value, cells) => {
        const m = compileMapping(phones, [{ fieldName: 'Phone', columnName: null, staticValue: value, values: [] }], ['VanID', 'x'], 'p');
        expect(m.ok).toBe(true);
        if (m.ok) expect(readFields(m.value, cells).get('Phone')).toBe(value.trim());
      }),
    );
  });

  it('columnName reads the column, and values translate exactly the listed source values', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(text, text), { selector: ([s]) => s.trim().toLowerCase(), maxLength: 5 }), text, (pairs, cellValue) => {
        const values = pairs.map(([sourceValue, targetValue]) => ({ sourceValue, targetValue }));
        const m = compileMapping(
          phones,
          [
            { fieldName: 'Phone', columnName: 'Tel', staticValue: null, values: [] },
            { fieldName: 'PhoneTypeID', columnName: 'Kind', staticValue: null, values },
          ],
          ['VanID', 'Tel', 'Kind'],
          'p',
        );
        expect(m.ok).toBe(true);
        if (!m.ok) return;
        const kind = m.value.fields.find((f) => f.name === 'PhoneTypeID')!;
        const hit = pairs.find(([s]) => s.trim().toLowerCase() === cellValue.trim().toLowerCase());
        const expected = hit !== undefined ? hit[1] : cellValue.trim();
        expect(fieldValue(kind, ['1', '555', `  ${cellValue.toUpperCase() === cellValue ? cellValue : cellValue}  `])).toBe(expected === '' ? null : expected);
      }),
    );
  });

  it('finds unmapped fields by name or alias, ignoring case, spaces, _ and -', () => {
    fc.assert(
      fc.property(fc.constantFrom('VanID', 'vanid', 'VAN_ID', 'van id', 'crmId', 'CRM-ID'), (header) => {
        const m = compileMapping(phones, [], [header, 'phone number'], 'p');
        expect(m.ok).toBe(true);
        if (m.ok)
          expect(readFields(m.value, ['12', '2025550143'])).toEqual(
            new Map([
              ['VanID', '12'],
              ['Phone', '2025550143'],
            ]),
          );
      }),
    );
    expect(nameKey(' Phone_Number ')).toBe('phonenumber');
  });

  it('names the property of an unknown field or column', () => {
    const m = compileMapping(
      phones,
      [
        { fieldName: 'Shoe', columnName: 'x', staticValue: null, values: [] },
        { fieldName: 'Phone', columnName: 'nope', staticValue: null, values: [] },
      ],
      ['a'],
      'actions[0].mappingTypes[0]',
    );
    expect(m.ok).toBe(false);
    if (!m.ok)
      expect(m.issues.map((i) => i.property)).toEqual([
        'actions[0].mappingTypes[0].fieldValueMappings[0].fieldName',
        'actions[0].mappingTypes[0].fieldValueMappings[1].columnName',
        'actions[0].mappingTypes[0]',
      ]);
  });
});

describe('parseJobRequest', () => {
  const base = (file: Record<string, unknown>) => ({
    file: { sourceUrl: 'https://files.example.org/a.csv', columns: [{ name: 'Vanid' }], ...file },
    actions: [{ actionType: 'loadMappedFile', resourceType: 'Contacts', mappingTypes: [{ name: 'CreateOrUpdateContact' }] }],
  });
  const allow = () => true;

  it('accepts the delimiters and booleans clients send, in any case', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(['csv', ','], ['Csv', ','], ['TAB', '\t'], ['tab', '\t'], ['Pipe', '|'], ['pipe', '|']),
        fc.constantFrom(true, false, 'True', 'false', 'TRUE'),
        ([name, d], hasHeader) => {
          const spec = parseJobRequest(base({ columnDelimiter: name, hasHeader, hasQuotes: 'True' }), 'http://127.0.0.1:1', allow);
          expect(spec.delimiter).toBe(d);
          expect(spec.hasHeader).toBe(String(hasHeader).toLowerCase() === 'true');
        },
      ),
    );
  });

  it("recognizes this server's upload URLs and refuses hosts off the allow-list", () => {
    const up = parseJobRequest(base({ sourceUrl: 'http://127.0.0.1:1/v4/bulkImportFiles/abcdefghijklmnopqrstuvwx' }), 'http://127.0.0.1:1', () => false);
    expect(up.source).toEqual({ kind: 'upload', token: 'abcdefghijklmnopqrstuvwx' });
    try {
      parseJobRequest(base({}), 'http://127.0.0.1:1', () => false);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(CrmError);
      expect((err as CrmError).issues.map((i) => i.property)).toEqual(['file.sourceUrl']);
    }
  });

  it('never throws anything but CrmError on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        try {
          parseJobRequest(body, 'http://127.0.0.1:1', allow);
        } catch (err) {
          expect(err).toBeInstanceOf(CrmError);
        }
      }),
    );
  });
});

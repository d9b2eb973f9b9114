/**
 * Reading a canvass response body (src/crm/canvass.ts), one read on top of its schema: what the
 * recorded clients send is accepted as they send it, every issue is named once in the schema's
 * property order, and the tolerances the schema states (nulls, any case, ids as digit strings)
 * hold. The server tests (test/server/canvass.test.ts) cover the same through HTTP.
 */
import { describe, expect, it } from 'vitest';
import { canvassListsOf, EMPTY_CANVASS_SETTINGS } from '../../src/crm/canvass-lists.js';
import { parseCanvassResponse } from '../../src/crm/canvass.js';
import type { PersonRecord, StoredPhone } from '../../src/store/index.js';
import { vanBody, vanFiles } from './fixtures.js';

const lists = canvassListsOf(EMPTY_CANVASS_SETTINGS);
const NOW = '2024-05-01T12:00:00Z';

function phone(phoneId: number, national: string): StoredPhone {
  return {
    phoneId,
    phoneNumber: national,
    e164: `+1${national}`,
    countryCode: 'US',
    dialingPrefix: '1',
    ext: null,
    phoneType: null,
    deviceType: null,
    isPreferred: false,
    phoneOptInStatus: 'U',
    isCellStatusId: null,
  } as StoredPhone;
}

const person = {
  crmId: 1,
  createdAt: NOW,
  updatedAt: NOW,
  scalars: {},
  selfReported: {},
  emails: [],
  addresses: [],
  identifiers: [],
  customFieldValues: [],
  suppressions: [],
  phones: [phone(7, '4145550100'), phone(9, '5555550990')],
} as unknown as PersonRecord;

const parse = (body: unknown) => parseCanvassResponse(body, lists, person, NOW);
const properties = (body: unknown): string[] => {
  const r = parse(body);
  return r.ok ? [] : r.issues.map((i) => i.property);
};

describe('parseCanvassResponse', () => {
  it('accepts every recorded client request as sent', () => {
    const files = vanFiles('').filter((f) => f.includes('sent') && f.includes('canvass'));
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      const body = vanBody(file) as { canvassContext?: { phoneId?: unknown }; responses?: { [k: string]: unknown }[] };
      // The recorded ids are the clients' own: point them at this context's lists and person.
      if (body.canvassContext?.phoneId != null) body.canvassContext.phoneId = 9;
      const r = parse(body);
      if (!r.ok) {
        const unknownIds = r.issues.every((i) => /must be a valid|is not a phone/.test(i.text));
        expect(unknownIds, `${file}: ${JSON.stringify(r.issues)}`).toBe(true);
      }
    }
  });

  it('reads ids as digit strings, codes and types in any case, nulls as absent', () => {
    const q = lists.surveyQuestions[0]!;
    const r = parse({
      canvassContext: {
        contactTypeId: ' 2 ',
        inputTypeId: null,
        dateCanvassed: '2012-04-09T00:00:00-04:00',
        phone: { phoneNumber: 5555550990, dialingPrefix: '+1', smsOptInStatus: 'o' },
      },
      resultCodeId: null,
      responses: [null, { type: 'survey_response', surveyQuestionId: String(q.surveyQuestionId), surveyResponseId: q.responses[0]!.surveyResponseId }],
    });
    expect(r).toEqual({
      ok: true,
      value: {
        contactTypeId: 2,
        inputTypeId: 11,
        dateCanvassed: '2012-04-09T04:00:00Z',
        resultCodeId: 14,
        responses: [{ type: 'SurveyResponse', surveyQuestionId: q.surveyQuestionId, surveyResponseId: q.responses[0]!.surveyResponseId }],
        phoneId: 9,
        phoneNumber: '5555550990',
        smsOptInStatus: 'O',
        campaignId: null,
        contactHistory: true,
      },
    });
  });

  it('names each problem once, in the order of the schema', () => {
    const r = parse({
      responses: [{ type: 'ActivistCode', activistCodeId: 'x' }, { type: 3 }, { type: 'Donation' }, { type: 'VolunteerActivity' }],
      resultCodeId: true,
      canvassContext: { phone: { dialingPrefix: 'abc', smsOptInStatus: 'maybe' }, dateCanvassed: 'yesterday', phoneId: 0 },
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => [i.property, i.text])).toEqual([
      ['canvassContext.dateCanvassed', 'canvassContext.dateCanvassed "yesterday" is not a date.'],
      ['canvassContext.phoneId', 'canvassContext.phoneId must be between 1 and 9007199254740991.'],
      ['canvassContext.phone.dialingPrefix', 'canvassContext.phone.dialingPrefix must be 1 to 3 digits, such as "1" or "44".'],
      ['canvassContext.phone.smsOptInStatus', 'canvassContext.phone.smsOptInStatus "maybe" is not one of the allowed values.'],
      ['resultCodeId', 'resultCodeId must be an integer.'],
      ['responses[0].activistCodeId', 'responses[0].activistCodeId must be an integer.'],
      ['responses[1].type', 'responses[1].type must be a string.'],
      ['responses[2].type', 'responses[2].type "Donation" is not a response type.'],
      ['responses[3].volunteerActivityId', 'responses[3].volunteerActivityId is required.'],
    ]);
  });

  it('canvassContext: missing or null is required, with what to send', () => {
    for (const body of [{ resultCodeId: 18 }, { canvassContext: null, resultCodeId: 18 }]) {
      const r = parse(body);
      expect(r).toEqual({
        ok: false,
        issues: [{ property: 'canvassContext', text: 'canvassContext is required.', hint: expect.stringContaining('"resultCodeId":N') }],
      });
    }
  });

  it('resultCodeId with responses, a response of another question, a phone of someone else', () => {
    const q = lists.surveyQuestions[0]!;
    expect(
      properties({ canvassContext: {}, resultCodeId: 18, responses: [{ type: 'ActivistCode', activistCodeId: lists.activistCodes[0]!.activistCodeId }] }),
    ).toEqual(['resultCodeId']);
    expect(
      properties({
        canvassContext: {},
        responses: [
          { type: 'SurveyResponse', surveyQuestionId: q.surveyQuestionId, surveyResponseId: Math.max(...q.responses.map((x) => x.surveyResponseId)) + 1 },
        ],
      }),
    ).toEqual(['responses[0].surveyResponseId']);
    expect(properties({ canvassContext: { phoneId: 8 }, resultCodeId: 18 })).toEqual(['canvassContext.phoneId']);
  });

  it('a body that is not an object', () => {
    for (const body of [null, [], 'x', 3]) expect(properties(body)).toEqual(['']);
  });
});

/**
 * Canvass responses against the real Crm: every captured client body answers 204, each
 * error answers the 400 naming its property, dispositions show on GET person, history is
 * listed, and no generated body gives a 500.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantWithKey, envelopeOf, openTestServer, vanClientBody, vanClientFiles, type TestServer } from './helpers.js';

const CANVASS_FILES = [...vanClientFiles('spoke-sent-canvass'), ...vanClientFiles('parsons-sent-canvass'), 'ngp_van-ruby-canvass_response.json'];

type Items = { items: Record<string, unknown>[] };
/** The tenant's canvass lists, taken from the captured list pages plus the ids the captured requests use. */
function canvassSettings(): Record<string, unknown> {
  const spokeSurvey = vanClientBody('spoke-survey-questions-page.json') as Items;
  const parsonsSurvey = vanClientBody('parsons-survey-questions-page.json') as Items;
  const spokeCodes = vanClientBody('spoke-activist-codes-page.json') as Items;
  return {
    inputTypes: [{ inputTypeId: 5, name: 'Back End' }],
    resultCodes: [{ resultCodeId: 205, name: 'Opted Out', mediumName: 'OptO', shortName: 'OO' }],
    surveyQuestions: [
      ...spokeSurvey.items,
      ...parsonsSurvey.items,
      { surveyQuestionId: 109149, name: 'Support', responses: [{ surveyResponseId: 465468, name: 'Strong' }] },
      { surveyQuestionId: 351006, name: 'Vote plan', responses: [{ surveyResponseId: 1443891, name: 'Early' }] },
    ],
    activistCodes: [...spokeCodes.items, { activistCodeId: 18917, name: 'Volunteer' }],
    volunteerActivities: [{ volunteerActivityId: 3425, name: 'Phone bank' }],
  };
}

let t: TestServer;
let headers: Record<string, string>;
let crmId: number;
let otherCrmId: number;
let phoneIds: number[];
let otherPhoneId: number;

async function post(path: string, body: unknown) {
  return t.app.inject({ method: 'POST', url: path, headers, payload: JSON.stringify(body) });
}

async function phonesOf(id: number): Promise<Record<string, unknown>[]> {
  const res = await t.app.inject({ method: 'GET', url: `/v4/people/${id}?$expand=phones`, headers });
  return res.json<{ phones: Record<string, unknown>[] }>().phones;
}

beforeAll(async () => {
  t = await openTestServer();
  const key = await createTenantWithKey(t.crm, 'canvass-co', { contexts: ['voterfile', 'campaign'], defaultContext: 'campaign' });
  const canvass = canvassSettings();
  await t.crm.configureTenant('canvass-co', { campaign: { canvass }, voterfile: { canvass } });
  headers = { apiKey: key, 'content-type': 'application/json' };
  const created = await post('/v4/people/findOrCreate', {
    firstName: 'Grace',
    lastName: 'Hopper',
    emails: [{ email: 'grace@example.org' }],
    phones: [{ phoneNumber: '4145550990' }, { phoneNumber: '(516)-555-2342' }, { phoneNumber: '4145550100' }],
    identifiers: [{ type: 'dwid', externalId: 'DW-77' }],
  });
  crmId = created.json<{ crmId: number }>().crmId;
  phoneIds = (await phonesOf(crmId)).map((p) => p['phoneId'] as number);
  const other = await post('/v4/people/findOrCreate', {
    firstName: 'Alan',
    lastName: 'Turing',
    emails: [{ email: 'alan@example.org' }],
    phones: [{ phoneNumber: '4145550199' }],
  });
  otherCrmId = other.json<{ crmId: number }>().crmId;
  otherPhoneId = (await phonesOf(otherCrmId))[0]?.['phoneId'] as number;
});
afterAll(async () => {
  await t.close();
});

describe('captured client bodies', () => {
  it('are there', () => {
    expect(CANVASS_FILES.length).toBeGreaterThanOrEqual(10);
  });

  it.each(CANVASS_FILES)('%s answers 204 on both path forms and both prefixes', async (file) => {
    const body = vanClientBody(file) as { canvassContext?: { phoneId?: unknown } };
    // The captured phoneId names a phone of the client's person; use one of ours, in the same JSON type.
    const ctx = body.canvassContext;
    if (ctx !== undefined && ctx.phoneId != null) ctx.phoneId = typeof ctx.phoneId === 'string' ? String(phoneIds[2]) : phoneIds[2];
    for (const path of [`/v4/people/${crmId}/canvassResponses`, '/v2/people/DWID:dw-77/canvassResponses']) {
      const res = await post(path, body);
      expect(res.statusCode, `${file} ${path}: ${res.body}`).toBe(204);
      expect(res.body).toBe('');
    }
  });
});

describe('errors', () => {
  const url = () => `/v4/people/${crmId}/canvassResponses`;
  const expect400 = async (body: unknown, property: string, text?: string) => {
    const res = await post(url(), body);
    expect(res.statusCode, res.body).toBe(400);
    const env = envelopeOf(res);
    expect(env, res.body).not.toBeNull();
    expect(env?.errors.map((e) => e.properties?.[0])).toContain(property);
    if (text !== undefined) expect(env?.errors.map((e) => e.text)).toContain(text);
  };
  const fixtureText = (file: string) => (vanClientBody(file) as { errors: { text: string }[] }).errors[0]?.text;

  it('unknown result code', async () => {
    await expect400({ canvassContext: {}, resultCodeId: 99999 }, 'resultCodeId', fixtureText('parsons-canvass-response-error-invalid-result-code.json'));
  });
  it('unknown survey question', async () => {
    await expect400(
      { canvassContext: {}, responses: [{ type: 'SurveyResponse', surveyQuestionId: 1, surveyResponseId: 2 }] },
      'responses[0].surveyQuestionId',
      fixtureText('parsons-canvass-response-error-invalid-survey-question.json'),
    );
  });
  it('survey response not of that question', async () => {
    await expect400(
      { canvassContext: {}, responses: [{ type: 'surveyResponse', surveyQuestionId: 378552, surveyResponseId: 465468 }] },
      'responses[0].surveyResponseId',
      fixtureText('parsons-canvass-response-error-invalid-survey-response.json'),
    );
  });
  it('both resultCodeId and responses', async () => {
    await expect400({ canvassContext: {}, resultCodeId: 18, responses: [{ type: 'ActivistCode', activistCodeId: 18917 }] }, 'resultCodeId');
  });
  it('unknown activist code, volunteer activity, response type and action', async () => {
    await expect400({ canvassContext: {}, responses: [{ type: 'ActivistCode', activistCodeId: 5 }] }, 'responses[0].activistCodeId');
    await expect400({ canvassContext: {}, responses: [{ type: 'VolunteerActivity', volunteerActivityId: 5 }] }, 'responses[0].volunteerActivityId');
    await expect400({ canvassContext: {}, responses: [{ type: 'Donation' }] }, 'responses[0].type');
    await expect400({ canvassContext: {}, responses: [{ type: 'ActivistCode', action: 'Toggle', activistCodeId: 18917 }] }, 'responses[0].action');
  });
  it('unknown contact type and input type, bad date', async () => {
    await expect400({ canvassContext: { contactTypeId: 3 } }, 'canvassContext.contactTypeId');
    await expect400({ canvassContext: { inputTypeId: 99 } }, 'canvassContext.inputTypeId');
    await expect400({ canvassContext: { dateCanvassed: 'yesterday' } }, 'canvassContext.dateCanvassed');
  });
  it('phoneId not of this person', async () => {
    await expect400({ canvassContext: { phoneId: otherPhoneId }, resultCodeId: 20 }, 'canvassContext.phoneId');
    await expect400({ canvassContext: { phoneId: 'abc' }, resultCodeId: 20 }, 'canvassContext.phoneId');
  });
  it('missing canvassContext, body not an object, no body', async () => {
    await expect400({ resultCodeId: 18 }, 'canvassContext');
    const arr = await post(url(), [1, 2]);
    expect(arr.statusCode).toBe(400);
    const none = await t.app.inject({ method: 'POST', url: url(), headers: { apiKey: headers['apiKey'] as string } });
    expect(none.statusCode).toBe(400);
    expect(envelopeOf(none)).not.toBeNull();
  });
  it('unknown person: 404 envelope', async () => {
    for (const path of ['/v4/people/999999/canvassResponses', '/v4/people/dwid:nobody/canvassResponses', '/v4/people/nosuchtype:1/canvassResponses']) {
      const res = await post(path, { canvassContext: {}, resultCodeId: 18 });
      expect(res.statusCode, path).toBe(404);
      expect(envelopeOf(res)?.errors[0]?.code).toBe('NOT_FOUND');
    }
  });
});

describe('dispositions and history', () => {
  it('phone dispositions update that phone and show on GET person', async () => {
    const [a, b] = phoneIds as [number, number];
    expect((await post(`/v4/people/${crmId}/canvassResponses`, { canvassContext: { phoneId: String(a) }, resultCodeId: 20 })).statusCode).toBe(204);
    expect((await post(`/v4/people/${crmId}/canvassResponses`, { canvassContext: { phoneId: a }, resultCodeId: 22 })).statusCode).toBe(204);
    expect((await post(`/v4/people/${crmId}/canvassResponses`, { canvassContext: { phoneId: b }, resultCodeId: 25 })).statusCode).toBe(204);
    const phones = await phonesOf(crmId);
    expect(phones.find((p) => p['phoneId'] === a)).toMatchObject({ isWrongNumber: true, doNotCall: true });
    expect(phones.find((p) => p['phoneId'] === b)).toMatchObject({ isDisconnected: true });
    // SMS opt-out by number (the spoke body with a number of this person).
    const optOut = vanClientBody('spoke-sent-canvass-request-sms-optout.json') as { canvassContext: { phone: { phoneNumber: string } } };
    optOut.canvassContext.phone.phoneNumber = '414-555-0100';
    expect((await post(`/v4/people/${crmId}/canvassResponses`, optOut)).statusCode).toBe(204);
    const after = await phonesOf(crmId);
    expect(after.find((p) => p['phoneNumber'] === '4145550100')).toMatchObject({ smsOptInStatus: 'O', doNotText: true, phoneOptInStatus: 'O' });
    // Do Not Text by id.
    expect((await post(`/v4/people/${crmId}/canvassResponses`, { canvassContext: { phoneId: b, contactTypeId: 37 }, resultCodeId: 130 })).statusCode).toBe(204);
    expect((await phonesOf(crmId)).find((p) => p['phoneId'] === b)).toMatchObject({ doNotText: true, phoneOptInStatus: 'O' });
    // A later findOrCreate with the same phone keeps the dispositions.
    await post('/v4/people/findOrCreate', {
      firstName: 'Grace',
      lastName: 'Hopper',
      emails: [{ email: 'grace@example.org' }],
      phones: [{ phoneNumber: '4145550100', phoneType: 'C' }],
    });
    expect((await phonesOf(crmId)).find((p) => p['phoneNumber'] === '4145550100')).toMatchObject({ doNotText: true, phoneType: 'C' });
  });

  it('history is listed newest first, paged, with omitActivistCodeContactHistory honoured', async () => {
    const fresh = await post('/v4/people/findOrCreate', { firstName: 'Ada', lastName: 'Byron', emails: [{ email: 'ada.b@example.org' }] });
    const id = fresh.json<{ crmId: number }>().crmId;
    await post(`/v4/people/${id}/canvassResponses`, { canvassContext: { contactTypeId: 2, dateCanvassed: '2012-04-09T00:00:00-04:00' }, resultCodeId: 18 });
    await post(`/v4/people/${id}/canvassResponses`, vanClientBody('parsons-sent-canvass-request-apply_activist_code.json'));
    await post(`/v4/people/${id}/canvassResponses`, {
      canvassContext: { dateCanvassed: '2024-10-01' },
      responses: [{ type: 'SURVEYRESPONSE', surveyQuestionId: '109149', surveyResponseId: '465468' }],
    });
    const res = await t.app.inject({ method: 'GET', url: `/v4/people/${id}/canvassResponses?$top=2`, headers });
    expect(res.statusCode).toBe(200);
    const page = res.json<{ items: Record<string, unknown>[]; count: number; nextPageLink: string | null }>();
    expect(page.count).toBe(3);
    expect(page.items).toHaveLength(2);
    expect(page.items[0]).toMatchObject({ dateCanvassed: '2024-10-01T00:00:00Z', resultCodeId: 14, inputTypeId: 11, contactHistory: true });
    expect(page.items[1]).toMatchObject({
      resultCodeId: null,
      contactHistory: false,
      responses: [{ type: 'ActivistCode', action: 'Apply', activistCodeId: 18917 }],
    });
    expect(page.nextPageLink).toBe(`http://localhost:80/v4/people/${id}/canvassResponses?$top=2&$skip=2`);
    const last = await t.app.inject({
      method: 'GET',
      url: new URL(page.nextPageLink as string).pathname + new URL(page.nextPageLink as string).search,
      headers,
    });
    expect(last.json()).toMatchObject({ count: 3, nextPageLink: null, items: [{ contactTypeId: 2, dateCanvassed: '2012-04-09T04:00:00Z', resultCodeId: 18 }] });
  });

  it('the canvass endpoints are in the High rate category', async () => {
    const { key } = await t.crm.createKey({ tenant: 'canvass-co', tier: 'Startup', contexts: ['campaign'] });
    const res = await t.app.inject({
      method: 'POST',
      url: `/v2/people/${crmId}/canvassResponses`,
      headers: { apiKey: key, 'content-type': 'application/json' },
      payload: '{"canvassContext":{},"resultCodeId":19}',
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['ratelimit-limit']).toBe('10');
  });
});

describe('generated input', () => {
  const idArb = fc.oneof(fc.integer({ min: -5, max: 2_000_000 }), fc.constantFrom('18', '20', ' 22 ', 'x', ''), fc.constant(null));
  const responseArb = fc.record(
    {
      type: fc.constantFrom('ActivistCode', 'activistcode', 'SurveyResponse', 'VolunteerActivity', 'Other', null, 3),
      action: fc.constantFrom('Apply', 'remove', 'X', null),
      activistCodeId: idArb,
      surveyQuestionId: idArb,
      surveyResponseId: idArb,
      volunteerActivityId: idArb,
    },
    { requiredKeys: [] },
  );
  const bodyArb = fc.oneof(
    fc.record(
      {
        canvassContext: fc.oneof(
          fc.record(
            {
              contactTypeId: idArb,
              inputTypeId: idArb,
              phoneId: idArb,
              dateCanvassed: fc.oneof(fc.constantFrom('2024-01-02', '2012-04-09T00:00:00-04:00', 'nope', null), fc.string({ maxLength: 30 })),
              omitActivistCodeContactHistory: fc.constantFrom(true, false, 'true', null, 1),
              phone: fc.oneof(
                fc.constant(null),
                fc.record(
                  { phoneNumber: fc.oneof(fc.string({ maxLength: 20 }), fc.constant('5555550990')), smsOptInStatus: fc.constantFrom('O', 'i', 'x', null) },
                  { requiredKeys: [] },
                ),
              ),
            },
            { requiredKeys: [] },
          ),
          fc.anything(),
        ),
        resultCodeId: idArb,
        responses: fc.oneof(fc.array(responseArb, { maxLength: 3 }), fc.anything()),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    ),
    fc.anything(),
  );

  it('any body answers 204 or a 400 envelope, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(bodyArb, async (body) => {
        const res = await post(`/v4/people/${otherCrmId}/canvassResponses`, body);
        if (res.statusCode === 204) return;
        expect(res.statusCode, `${JSON.stringify(body)} -> ${res.body}`).toBe(400);
        expect(envelopeOf(res), res.body).not.toBeNull();
      }),
      { numRuns: 150 },
    );
  });
});

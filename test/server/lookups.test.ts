/**
 * Lookup lists (compatibility.md): the canvass lists as bare arrays with the seeded ids,
 * tenant additions, and the paged lists with $top/$skip, absolute nextPageLink, repeated keys.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantWithKey, envelopeOf, openTestServer, vanClientBody, type TestServer } from './helpers.js';

let t: TestServer;
let headers: Record<string, string>;
let plainHeaders: Record<string, string>;

const get = (url: string, h: Record<string, string> = headers) => t.app.inject({ method: 'GET', url, headers: h });

beforeAll(async () => {
  t = await openTestServer();
  const key = await createTenantWithKey(t.crm, 'lists-co', { contexts: ['campaign'], defaultContext: 'campaign' });
  const plain = await createTenantWithKey(t.crm, 'plain-co');
  const activist = vanClientBody('spoke-activist-codes-page.json') as { items: unknown[] };
  const survey = vanClientBody('spoke-survey-questions-page.json') as { items: unknown[] };
  await t.crm.configureTenant('lists-co', {
    campaign: {
      canvass: {
        activistCodes: [...activist.items, { activistCodeId: 3, name: 'Third' }],
        surveyQuestions: survey.items,
        resultCodes: [
          { resultCodeId: 205, name: 'Opted Out' },
          { resultCodeId: 18, name: 'Busy (renamed)', shortName: 'BZ' },
        ],
        contactTypes: [{ contactTypeId: 79, name: 'Social Media', channelTypeName: 'Online' }],
      },
    },
  });
  headers = { apiKey: key };
  plainHeaders = { apiKey: plain };
});
afterAll(async () => {
  await t.close();
});

describe('GET /phones/isCellStatuses', () => {
  const expected = {
    items: [
      { statusId: 1, statusName: 'Verified Cell' },
      { statusId: 2, statusName: 'Likely Cell' },
      { statusId: 3, statusName: 'Likely Not a Cell' },
      { statusId: 4, statusName: 'Not a Cell' },
    ],
    nextPageLink: null,
    count: 4,
  };

  it('answers exactly the compatibility list on both prefixes', async () => {
    for (const prefix of ['/v2', '/v4']) {
      const res = await get(`${prefix}/phones/isCellStatuses`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(expected);
    }
    expect((vanClientBody('ngp_van-ruby-phones-isCellStatuses.json') as { items: unknown[] }).items).toEqual(expected.items);
  });

  it('pages with $top/$skip and an absolute nextPageLink on the request origin', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v4/phones/isCellStatuses?$top=3', headers: { ...headers, host: 'api.example.org:8443' } });
    expect(res.json()).toEqual({
      items: expected.items.slice(0, 3),
      count: 4,
      nextPageLink: 'http://api.example.org:8443/v4/phones/isCellStatuses?$top=3&$skip=3',
    });
    // A client re-sending its own query after the link's: the link's values win.
    const next = await get('/v4/phones/isCellStatuses?$top=3&$skip=3&$top=3&$skip=0');
    expect(next.json()).toEqual({ items: expected.items.slice(3), count: 4, nextPageLink: null });
    expect((await get('/v4/phones/isCellStatuses?$skip=10')).json()).toEqual({ items: [], count: 4, nextPageLink: null });
  });

  it('$top over 200 or not a number: 400 naming it, with a hint', async () => {
    for (const q of ['$top=201', '$top=0', '$top=abc', '$top=-1', '$skip=x']) {
      const res = await get(`/v4/phones/isCellStatuses?${q}`);
      expect(res.statusCode, q).toBe(400);
      const env = envelopeOf(res);
      expect(env?.errors[0]?.code).toBe('INVALID_PARAMETER');
      expect(env?.errors[0]?.properties).toEqual([q.split('=')[0]]);
      expect(env?.errors[0]?.hint).toBeTruthy();
    }
    expect((await get('/v4/phones/isCellStatuses?$top=200')).statusCode).toBe(200);
  });

  it('any query string answers 200 or a 400 envelope', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom('$top', '$skip', 'x'), fc.string({ maxLength: 12 })), { maxLength: 4 }), async (pairs) => {
        const qs = new URLSearchParams(pairs).toString();
        const res = await get(`/v4/phones/isCellStatuses?${qs}`);
        if (res.statusCode === 200) return;
        expect(res.statusCode, qs).toBe(400);
        expect(envelopeOf(res)).not.toBeNull();
      }),
      { numRuns: 100 },
    );
  });
});

describe('canvass lists', () => {
  it('a tenant without settings sees the seeded ids as bare arrays', async () => {
    const contact = (await get('/v2/canvassResponses/contactTypes', plainHeaders)).json<{ contactTypeId: number; name: string; channelTypeName: string }[]>();
    expect(contact.map((c) => c.contactTypeId)).toEqual([1, 2, 4, 15, 19, 37]);
    expect(contact.find((c) => c.contactTypeId === 37)).toEqual({ contactTypeId: 37, name: 'SMS Text', channelTypeName: 'Text' });
    const input = (await get('/v2/canvassResponses/inputTypes', plainHeaders)).json<{ inputTypeId: number; name: string }[]>();
    expect(input).toEqual([
      { inputTypeId: 2, name: 'Manual' },
      { inputTypeId: 4, name: 'Bulk' },
      { inputTypeId: 10, name: 'VPB' },
      { inputTypeId: 11, name: 'API' },
      { inputTypeId: 14, name: 'Mobile' },
    ]);
    const codes = (await get('/v2/canvassResponses/resultCodes', plainHeaders)).json<
      { resultCodeId: number; name: string; mediumName: string; shortName: string }[]
    >();
    expect(codes.map((c) => `${c.resultCodeId} ${c.name}`)).toEqual([
      '1 Not Home',
      '2 Refused',
      '3 Inaccessible',
      '4 Deceased',
      '5 Moved',
      '6 Hostile',
      '7 Language Barrier',
      '8 Not Interested',
      '10 Vacant',
      '13 Come Back',
      '14 Canvassed',
      '17 Call Back',
      '18 Busy',
      '19 Left Message',
      '20 Wrong Number',
      '21 Lit Drop',
      '22 Do Not Call',
      '23 Do Not Walk',
      '25 Disconnected',
      '130 Do Not Text',
      '131 Do Not Email',
    ]);
    expect(codes.find((c) => c.resultCodeId === 18)).toEqual({ resultCodeId: 18, name: 'Busy', mediumName: 'Busy', shortName: 'BZ' });
    // A context that configures none gets default survey questions, activist codes and volunteer activities.
    const questions = (await get('/v2/surveyQuestions', plainHeaders)).json<{
      items: { surveyQuestionId: number; name: string; responses: { surveyResponseId: number }[] }[];
      count: number;
    }>();
    expect(questions.items.map((q) => `${q.surveyQuestionId} ${q.name}`)).toEqual(['1 Support', '2 Vote Plan', '3 Volunteer Ask']);
    expect(questions.items[0]?.responses.map((r) => r.surveyResponseId)).toEqual([1, 2, 3, 4, 5]);
    const codesPage = (await get('/v2/activistCodes', plainHeaders)).json<{
      items: { activistCodeId: number; name: string; status: string }[];
      count: number;
      nextPageLink: null;
    }>();
    expect(codesPage.items.map((a) => `${a.activistCodeId} ${a.name}`)).toEqual([
      '1 Volunteer',
      '2 Supporter',
      '3 Donor',
      '4 Yard Sign',
      '5 Opt-In: Cell Phone',
    ]);
    expect(codesPage).toMatchObject({ count: 5, nextPageLink: null });
  });

  it('settings add to and rename seeded entries', async () => {
    const codes = (await get('/v4/canvassResponses/resultCodes')).json<{ resultCodeId: number; name: string }[]>();
    expect(codes.find((c) => c.resultCodeId === 205)?.name).toBe('Opted Out');
    expect(codes.find((c) => c.resultCodeId === 18)?.name).toBe('Busy (renamed)');
    const contact = (await get('/v4/canvassResponses/contactTypes')).json<{ contactTypeId: number }[]>();
    expect(contact.map((c) => c.contactTypeId)).toContain(79);
  });

  it('activistCodes and surveyQuestions page with $top/$skip', async () => {
    const first = (await get('/v4/activistCodes?$top=2')).json<{ items: { activistCodeId: number }[]; count: number; nextPageLink: string }>();
    expect(first.count).toBe(3);
    expect(first.items.map((a) => a.activistCodeId)).toEqual([3, 4153148]);
    expect(first.nextPageLink).toBe('http://localhost:80/v4/activistCodes?$top=2&$skip=2');
    const second = (await get('/v4/activistCodes?$top=2&$skip=2')).json<{
      items: { activistCodeId: number; name: string; type: string; status: string }[];
      nextPageLink: null;
    }>();
    expect(second.items[0]).toMatchObject({ activistCodeId: 4482459, name: 'EdayIssue-PollWorker', type: 'Constituency/Issue', status: 'Active' });
    expect(second.nextPageLink).toBeNull();
    const questions = (await get('/v4/surveyQuestions')).json<{
      items: { surveyQuestionId: number; responses: { surveyResponseId: number }[] }[];
      count: number;
    }>();
    expect(questions.count).toBe(2);
    expect(questions.items[0]?.responses.map((r) => r.surveyResponseId)).toContain(1555791);
    expect((await get('/v4/surveyQuestions?$top=500')).statusCode).toBe(400);
  });

  it('bad canvass settings are refused naming the path', async () => {
    await expect(t.crm.configureTenant('lists-co', { campaign: { canvass: { resultCodes: [{ name: 'x' }], colours: [] } } })).rejects.toMatchObject({
      issues: expect.arrayContaining([
        expect.objectContaining({ property: 'campaign.canvass.resultCodes[0].resultCodeId' }),
        expect.objectContaining({ property: 'campaign.canvass.colours' }),
      ]),
    });
  });
});

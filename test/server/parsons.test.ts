/**
 * The parsons VAN connector end to end (compatibility.md, "The parsons VAN connector"): each
 * call it makes, replayed as the recorded request it sends (data/van-clients/parsons-sent-*.json,
 * or the body its code builds, written out below) against a real listening server, through a
 * client that behaves as parsons and Python requests do (parsons-client.ts), checking status,
 * headers and the fields parsons reads. The server is fresh: a tenant with a key of the demo
 * key's tier and no settings, as a newcomer has after `npm start`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TIER } from '../../src/cli/serve.js';
import { clientBody, openImportServer, parseResultCsv, waitForJob, zipOf, type ImportServer } from './import-helpers.js';
import { HttpErrorLike, ParsonsLikeClient, type Exchange } from './parsons-client.js';

let s: ImportServer;
let key: string;
/** `VAN(db='EveryAction')`: database mode 1, the campaign context. */
let van: ParsonsLikeClient;
/** `VAN(db='MyVoters')`: database mode 0, the voter file. */
let myVoters: ParsonsLikeClient;

beforeAll(async () => {
  s = await openImportServer();
  await s.crm.createTenant('newcomer');
  key = (await s.crm.createKey({ tenant: 'newcomer', tier: DEMO_TIER })).key;
  van = new ParsonsLikeClient(s.url, key, 1);
  myVoters = new ParsonsLikeClient(s.url, key, 0);
});
afterAll(async () => {
  await s.close();
});

const JSON_TYPE = 'application/json; charset=utf-8';

/** The hops of the last call: the request, and the GET requests made after a 302. */
function hops(client: ParsonsLikeClient): Exchange[] {
  return client.lastCall();
}

/** A 302 to the person, followed with a GET that answered the Person. */
function expectMatchedThenPerson(client: ParsonsLikeClient, crmId: number): void {
  const [post, get] = hops(client);
  expect(post?.status, post?.text).toBe(302);
  expect(post?.headers.get('location')).toBe(`${s.url}/v4/people/${crmId}`);
  expect(JSON.parse(post?.text ?? '')).toMatchObject({ crmId, vanId: crmId, status: 'Matched' });
  expect(get).toMatchObject({ method: 'GET', url: `${s.url}/v4/people/${crmId}`, status: 200 });
  expect(get?.headers.get('content-type')).toBe(JSON_TYPE);
}

describe('people', () => {
  let bob: number;

  it('upsert_person(first_name, last_name, email, phone, dob, zip, street): findOrCreate 201, r["vanId"]', async () => {
    const body = clientBody('parsons-sent-findOrCreate-request-upsert_person-full.json');
    const r = (await van.postRequest('people/findOrCreate', body)) as Record<string, unknown>;
    const [post] = hops(van);
    expect(post?.status).toBe(201);
    expect(post?.headers.get('content-type')).toBe(JSON_TYPE);
    expect(r['vanId']).toEqual(expect.any(Number));
    expect(r['vanId']).toBe(r['crmId']);
    expect(post?.headers.get('location')).toBe(`${s.url}/v4/people/${r['vanId'] as number}`);
  });

  it('upsert_person again: 302, followed to GET /people/{vanId}, r["vanId"] from the Person', async () => {
    const body = clientBody('parsons-sent-findOrCreate-request-upsert_person-full.json');
    const r = (await van.postRequest('people/findOrCreate', body)) as Record<string, unknown>;
    const id = r['vanId'] as number;
    expectMatchedThenPerson(van, id);
    expect(r).toMatchObject({ vanId: id, crmId: id, firstName: 'Barack', lastName: 'Obama', dateOfBirth: '2000-01-01T00:00:00Z' });
  });

  it('upsert_person(email=[{email, isSubscribed}]): the email list form', async () => {
    const r = (await van.postRequest('people/findOrCreate', clientBody('parsons-sent-findOrCreate-request-upsert_person-email-list.json'))) as Record<
      string,
      unknown
    >;
    expect(hops(van)[0]?.status).toBe(201);
    expect(r['vanId']).toEqual(expect.any(Number));
  });

  it('find_person / find_person_json with the phone as a JSON number: 302 and the Person', async () => {
    const created = (await van.postRequest('people/findOrCreate', {
      firstName: 'Bob',
      lastName: 'Smith',
      phones: [{ phoneNumber: '4142020792', phoneType: 'H' }],
      emails: [{ email: 'bob.smith@example.org' }],
    })) as Record<string, unknown>;
    bob = created['vanId'] as number;
    for (const file of ['parsons-sent-find-request-find_person-phone.json', 'parsons-sent-find-request-find_person_json.json']) {
      const r = (await van.postRequest('people/find', clientBody(file))) as Record<string, unknown>;
      expectMatchedThenPerson(van, bob);
      expect(r).toMatchObject({ vanId: bob, firstName: 'Bob', lastName: 'Smith' });
    }
  });

  it('find_person with no match: 404 {"vanId":null}, which parsons raises as an HTTPError', async () => {
    const body = { ...clientBody('parsons-sent-find-request-email-only.json'), emails: [{ email: 'nobody@example.org' }] };
    const error = await van.postRequest('people/find', body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpErrorLike);
    const e = (error as HttpErrorLike).exchange;
    expect(e.status).toBe(404);
    expect(JSON.parse(e.text)).toMatchObject({ crmId: null, vanId: null, status: 'Unmatched' });
  });

  it('update_person(id, first_name=..., email=..., phone=...): POST /people/{vanId}, 302 and the updated Person', async () => {
    // _people_search builds {"firstName","lastName"} (None -> null) and adds what is given.
    const body = { firstName: 'Robert', lastName: null, emails: [{ email: 'robert@example.org' }], phones: [{ phoneNumber: '4145550123', phoneType: null }] };
    const r = (await van.postRequest(`people/${bob}`, body)) as Record<string, unknown>;
    expectMatchedThenPerson(van, bob);
    expect(r).toMatchObject({ vanId: bob, firstName: 'Robert', lastName: 'Smith' });
    const person = (await van.getRequest(`people/${bob}`, { $expand: 'emails,phones' })) as { emails: { email: string }[]; phones: { phoneNumber: string }[] };
    expect(person.emails.map((e) => e.email)).toEqual(['bob.smith@example.org', 'robert@example.org']);
    expect(person.phones.map((p) => p.phoneNumber)).toEqual(['4142020792', '4145550123']);
    // Sending the same again changes nothing (appending an identical email or phone is a no-op).
    await van.postRequest(`people/${bob}`, body);
    const again = (await van.getRequest(`people/${bob}`, { $expand: 'emails,phones' })) as typeof person;
    expect(again.emails).toHaveLength(2);
    expect(again.phones).toHaveLength(2);
  });

  it('update_person_json(id, id_type="dwid", match_json): POST /people/dwid:{id}', async () => {
    await van.postRequest(`people/${bob}`, { identifiers: [{ type: 'dwid', externalId: 'DW-1001' }] });
    const r = (await van.postRequest('people/dwid:DW-1001', { nickname: 'Bobby' })) as Record<string, unknown>;
    expectMatchedThenPerson(van, bob);
    expect(r['nickname']).toBe('Bobby');
  });

  it('upsert_person_json with a vanId posts to /people/{vanId}: updated, no match attempted', async () => {
    // Different names: a find would not match, but the path names the person.
    const r = (await van.postRequest(`people/${bob}`, {
      vanId: bob,
      firstName: 'Roberta',
      lastName: 'Smythe',
      emails: [{ email: 'roberta@example.org' }],
    })) as Record<string, unknown>;
    expectMatchedThenPerson(van, bob);
    expect(r).toMatchObject({ vanId: bob, firstName: 'Roberta', lastName: 'Smythe' });
  });

  it('update_person of an unknown vanId: 404 envelope', async () => {
    const error = await van.postRequest('people/987654', { firstName: 'Nobody' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpErrorLike);
    const e = (error as HttpErrorLike).exchange;
    expect(e.status).toBe(404);
    expect(e.headers.get('content-type')).toBe(JSON_TYPE);
    expect(JSON.parse(e.text)).toEqual({ errors: [{ code: 'NOT_FOUND', text: 'The specified resource cannot be found.' }] });
  });

  it('update_person with a bad value: 400 naming the property, as findOrCreate', async () => {
    const error = await van.postRequest(`people/${bob}`, { emails: [{ email: 'not-an-email' }] }).catch((e: unknown) => e);
    const e = (error as HttpErrorLike).exchange;
    expect(e.status).toBe(400);
    expect(JSON.parse(e.text)).toMatchObject({ errors: [{ code: 'INVALID_PARAMETER', properties: ['emails[0].email'] }] });
  });

  it('get_person(id) with every expand_fields value parsons sends: 200, vanId', async () => {
    const expand = [
      'contributionHistory',
      'addresses',
      'phones',
      'emails',
      'codes',
      'customFields',
      'externalIds',
      'preferences',
      'recordedAddresses',
      'reportedDemographics',
      'suppressions',
      'cases',
      'customProperties',
      'districts',
      'electionRecords',
      'membershipStatuses',
      'notes',
      'organizationRoles',
      'disclosureFieldValues',
    ].join(',');
    const r = (await van.getRequest(`people/${bob}`, { $expand: expand })) as Record<string, unknown>;
    expect(hops(van)[0]?.status).toBe(200);
    expect(r).toMatchObject({ vanId: bob, crmId: bob });
    expect(r['identifiers']).toEqual([{ type: 'dwid', externalId: 'DW-1001' }]);
  });

  it('votervanid: accepted for votercrmid in bodies and paths', async () => {
    const voter = (await myVoters.postRequest('people/findOrCreate', {
      firstName: 'Vera',
      lastName: 'Voter',
      emails: [{ email: 'vera@example.org' }],
    })) as Record<string, unknown>;
    const voterId = voter['vanId'] as number;
    const campaign = (await van.postRequest('people/findOrCreate', {
      firstName: 'Vera',
      lastName: 'Voter',
      emails: [{ email: 'vera.c@example.org' }],
      identifiers: [{ type: 'votervanid', externalId: String(voterId) }],
    })) as Record<string, unknown>;
    const r = (await van.getRequest(`people/votervanid:${voterId}`, { $expand: 'externalIds' })) as Record<string, unknown>;
    expect(r['vanId']).toBe(campaign['vanId']);
    expect(r['identifiers']).toEqual([{ type: 'votercrmid', externalId: String(voterId) }]);
    const updated = (await van.postRequest(`people/VoterVanID:${voterId}`, { nickname: 'V' })) as Record<string, unknown>;
    expect(updated).toMatchObject({ vanId: campaign['vanId'], nickname: 'V' });
  });

  it('the demo tier lets a script that never retries a 429 run its calls back to back', async () => {
    const body = clientBody('parsons-sent-findOrCreate-request-upsert_person-full.json');
    for (let i = 0; i < 12; i++) await van.postRequest('people/findOrCreate', body);
    expect(van.log.filter((e) => e.status === 429)).toEqual([]);
  });

  describe('canvass responses', () => {
    it('get_canvass_responses_result_codes / contact_types / input_types: bare arrays with the seeded ids', async () => {
      const codes = (await van.getRequest('canvassResponses/resultCodes')) as { resultCodeId: number; name: string }[];
      expect(codes.find((c) => c.resultCodeId === 1)?.name).toBe('Not Home');
      for (const name of ['Refused', 'Moved', 'Inaccessible', 'Hostile', 'Language Barrier', 'Not Interested']) {
        expect(codes.map((c) => c.name)).toContain(name);
      }
      expect(((await van.getRequest('canvassResponses/contactTypes')) as { contactTypeId: number }[]).map((c) => c.contactTypeId)).toContain(37);
      expect(((await van.getRequest('canvassResponses/inputTypes')) as { inputTypeId: number }[]).map((c) => c.inputTypeId)).toContain(11);
    });

    it('apply_canvass_result(id, 1) on a fresh tenant: 204, then the history has it', async () => {
      // As parsons' apply_response builds it today: skipMatching too (an unknown key, ignored).
      const body: Record<string, any> = { ...clientBody('parsons-sent-canvass-request-apply_canvass_result.json'), resultCodeId: 1 };
      body['canvassContext'] = { ...body['canvassContext'], skipMatching: false };
      const r = await van.postRequest(`people/${bob}/canvassResponses`, body);
      expect(r).toBe(204);
      expect(hops(van)[0]?.text).toBe('');
      const history = (await van.getRequest(`people/${bob}/canvassResponses`)) as { resultCodeId: number }[];
      expect(history[0]?.resultCodeId).toBe(1);
    });

    it('apply_canvass_result with a phone, by dwid', async () => {
      const body = clientBody('parsons-sent-canvass-request-apply_canvass_result-sms-with-phone.json');
      expect(await van.postRequest('people/dwid:DW-1001/canvassResponses', body)).toBe(204);
    });

    it('get_activist_codes / get_survey_questions, then apply_activist_code and apply_survey_response with their ids', async () => {
      const codes = (await van.getRequest('activistCodes')) as { activistCodeId: number; name: string }[];
      expect(codes.length).toBeGreaterThan(0);
      const questions = (await van.getRequest('surveyQuestions')) as { surveyQuestionId: number; responses: { surveyResponseId: number }[] }[];
      expect(questions.length).toBeGreaterThan(0);
      const ac = clientBody('parsons-sent-canvass-request-apply_activist_code.json');
      ac['responses'][0].activistCodeId = codes[0]?.activistCodeId;
      expect(await van.postRequest(`people/${bob}/canvassResponses`, ac)).toBe(204);
      const sq = clientBody('parsons-sent-canvass-request-apply_survey_response.json');
      sq['responses'][0].surveyQuestionId = questions[0]?.surveyQuestionId;
      sq['responses'][0].surveyResponseId = questions[0]?.responses[0]?.surveyResponseId;
      expect(await van.postRequest(`people/${bob}/canvassResponses`, sq)).toBe(204);
    });

    it('an unknown result code: 400 naming resultCodeId', async () => {
      const error = await van
        .postRequest(`people/${bob}/canvassResponses`, { ...clientBody('parsons-sent-canvass-request-apply_canvass_result.json'), resultCodeId: 999 })
        .catch((e: unknown) => e);
      const e = (error as HttpErrorLike).exchange;
      expect(e.status).toBe(400);
      expect(JSON.parse(e.text)).toMatchObject({ errors: [{ code: 'INVALID_PARAMETER', properties: ['resultCodeId'] }] });
    });
  });
});

describe('bulk import', () => {
  let uploads = 0;
  /**
   * post_bulk_import: the file goes to storage (here: the allow-listed file server), the job
   * names its URL and the table's columns.
   */
  async function postBulkImport(file: string, csv: string): Promise<number> {
    const body = clientBody(file);
    body['file'].sourceUrl = s.files.put(`/${file}-${++uploads}.zip`, zipOf({ 'upload.csv': csv }));
    body['file'].columns = csv
      .split('\n')[0]!
      .split(',')
      .map((name) => ({ name }));
    const r = (await van.postRequest('bulkImportJobs', body)) as Record<string, unknown>;
    expect(hops(van)[0]?.status).toBe(201);
    return r['jobId'] as number;
  }

  /** get_bulk_import_job, then get_bulk_import_job_results: the first result file, only when the status is exactly Completed. */
  async function jobResults(jobId: number): Promise<{ job: Record<string, unknown>; rows: Record<string, string>[] | null }> {
    await waitForJob(s, `${key}|1`, jobId); // the job is the campaign context's (van: mode 1): another context's is a 404
    const job = (await van.getRequest(`bulkImportJobs/${jobId}`)) as { status: string; resultFiles: { url: string }[] };
    if (job.status !== 'Completed') return { job, rows: null };
    return { job, rows: parseResultCsv(await van.fetchText(job.resultFiles[0]!.url)) };
  }

  it('get_bulk_import_resources and mapping types', async () => {
    expect(await van.getRequest('bulkImportJobs/resources')).toEqual(expect.arrayContaining(['Contacts', 'ContactsActivistCodes']));
    const types = (await van.getRequest('bulkImportMappingTypes')) as { name: string }[];
    expect(types.map((t) => t.name)).toEqual(expect.arrayContaining(['CreateOrUpdateContact', 'ActivistCode']));
    expect(await van.getRequest('bulkImportMappingTypes/ActivistCode')).toMatchObject({ name: 'ActivistCode', allowMultipleMode: 'Multiple' });
  });

  it('bulk_upsert_contacts with one bad row: Completed, the bad row says why in the result file', async () => {
    const csv = 'Vanid,email\n,bulk1@example.org\n,not-an-email\n,bulk2@example.org\n';
    const { job, rows } = await jobResults(await postBulkImport('parsons-sent-bulk-import-job-request-upsert-contacts.json', csv));
    expect(job).toMatchObject({ status: 'Completed', resourceType: 'Contacts', errors: [], rowsFailed: 1, resultFileSizeLimitKb: 5000 });
    expect(rows).not.toBeNull();
    expect(rows!.map((r) => r['CreateOrUpdateContact'])).toEqual(['Processed', expect.stringMatching(/not a valid email/), 'Processed']);
    expect(rows![0]?.['PrimaryKey']).toMatch(/^\d+$/);
    expect(rows![0]?.['Vanid']).toBe('');
  });

  it('bulk_upsert_contacts with every column name parsons writes (its CONTACTS_COLUMN_MAP): each lands on the contact', async () => {
    const voter = (await myVoters.postRequest('people/findOrCreate', {
      firstName: 'Carmen',
      lastName: 'Diaz',
      emails: [{ email: 'carmen.voter@example.org' }],
    })) as Record<string, unknown>;
    const header =
      'vanid,votervanid,firstname,middlename,lastname,dob,sex,addressline1,addressline2,city,stateorprovince,ziporpostal,countrycode,displayasentered,' +
      'phone,phonecountrycode,cellphone,cellphonecountrycode,email,otheremail';
    const row = `,${voter['vanId'] as number},Carmen,Q,Diaz,1985-07-04,F,12 Elm St,Apt 3,Madison,WI,53703,US,Y,6085550100,1,6085550199,01,carmen@example.org,carmen.d@example.net`;
    const { job, rows } = await jobResults(await postBulkImport('parsons-sent-bulk-import-job-request-upsert-contacts.json', `${header}\n${row}\n`));
    expect(job).toMatchObject({ status: 'Completed', rowsFailed: 0 });
    expect(rows!.map((r) => r['CreateOrUpdateContact'])).toEqual(['Processed']);
    const id = rows![0]!['PrimaryKey'];
    const person = (await van.getRequest(`people/${id}`, { $expand: 'phones,emails,addresses,externalIds' })) as Record<string, any>;
    expect(person).toMatchObject({ vanId: Number(id), firstName: 'Carmen', middleName: 'Q', lastName: 'Diaz', dateOfBirth: '1985-07-04T00:00:00Z', sex: 'F' });
    expect(person['emails'].map((e: { email: string }) => e.email)).toEqual(['carmen@example.org', 'carmen.d@example.net']);
    expect(person['phones']).toMatchObject([
      { phoneNumber: '6085550100', dialingPrefix: '1' },
      { phoneNumber: '6085550199', dialingPrefix: '1', phoneType: 'C' },
    ]);
    // Addresses are standardized (displayasentered is accepted, not honoured): line 2 joins line 1.
    expect(person['addresses'][0]).toMatchObject({
      addressLine1: '12 Elm St Apt 3',
      city: 'Madison',
      stateOrProvince: 'WI',
      zipOrPostalCode: '53703',
      countryCode: 'US',
    });
    expect(person['identifiers']).toEqual([{ type: 'votercrmid', externalId: String(voter['vanId']) }]);
  });

  it('bulk_upsert_contacts: a bad cell phone is named by its column in the result file, and the job stays Completed', async () => {
    const csv = 'vanid,firstname,lastname,email,cellphone,cellphonecountrycode\n,Dana,Ek,dana@example.org,6085550123,abc\n';
    const { job, rows } = await jobResults(await postBulkImport('parsons-sent-bulk-import-job-request-upsert-contacts.json', csv));
    expect(job).toMatchObject({ status: 'Completed', rowsFailed: 1 });
    expect(rows![0]!['CreateOrUpdateContact']).toMatch(/^CellPhoneCountryCode: /);
  });

  it('bulk_apply_activist_codes with one unknown code: Completed with a row outcome', async () => {
    const codes = (await van.getRequest('activistCodes')) as { activistCodeId: number }[];
    const csv = `Vanid,ActivistCodeID\n"1","${codes[0]?.activistCodeId}"\n"1","4242"\n`;
    const { job, rows } = await jobResults(await postBulkImport('parsons-sent-bulk-import-job-request-activist-codes.json', csv));
    expect(job).toMatchObject({ status: 'Completed', resourceType: 'ContactsActivistCodes' });
    expect(rows!.map((r) => r['ActivistCode'])).toEqual(['Processed', expect.stringMatching(/^ActivistCodeID: /)]);
  });
});

/**
 * Bulk import end to end: each captured client body (data/van-clients/parsons-sent-bulk-import-*)
 * posted against files served by a local HTTP server (zipped, as the client sends them),
 * polled to completion; the result file downloaded and each row's outcome and the stored
 * people checked.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BulkImports } from '../../src/crm/index.js';
import { call, clientBody, openImportServer, parseResultCsv, waitForJob, zipOf, type ImportServer } from './import-helpers.js';

// Background jobs, a local file server and (for the zip bomb) heavy compression: slow on a loaded 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

let s: ImportServer;
let key: string;
let other: string;

beforeAll(async () => {
  s = await openImportServer();
  await s.crm.createTenant('acme');
  key = (await s.crm.createKey({ tenant: 'acme', tier: 'Internal', contexts: ['voterfile', 'campaign'], defaultContext: 'campaign' })).key;
  await s.crm.createTenant('other');
  other = (await s.crm.createKey({ tenant: 'other', tier: 'Internal' })).key;
  await s.crm.configureTenant('acme', {
    campaign: {
      customFieldGroups: [
        {
          id: 1234,
          name: 'Volunteer',
          customFields: [
            { id: 123, name: 'Shirt', type: 'choice', values: ['S', 'M', 'L'] },
            { id: 124, name: 'Hours', type: 'number' },
          ],
        },
      ],
      canvass: { activistCodes: [{ activistCodeId: 4482459, name: 'PollWorker', type: 'Constituency/Issue' }] },
    },
  });
}, 30_000);
afterAll(async () => {
  await s.close();
});

async function download(url: string): Promise<Record<string, string>[]> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
  return parseResultCsv(await res.text());
}

async function person(crmId: number): Promise<any> {
  return (await call(s, key, 'GET', `/v4/people/${crmId}?$expand=emails,customFields`)).json;
}

describe('CreateOrUpdateContact (parsons upsert-contacts body)', () => {
  it('creates and updates people exactly as findOrCreate, and reports each row', async () => {
    const ada = await call(s, key, 'POST', '/v4/people/findOrCreate', { firstName: 'Ada', lastName: 'Lovelace', emails: [{ email: 'ada@example.org' }] });
    const adaId = ada.json.crmId as number;
    const csv = [
      'Vanid,email',
      `${adaId},ada.second@example.org`, // existing crmId wins: email appended to Ada
      ',grace@example.org', // email alone: a minimum combination, no match -> created
      ',grace@example.org', // same email again -> matched, not created twice
      ',not-an-email', // invalid -> reported, nothing stored
      '999999,alan@example.org', // unknown crmId ignored, matching on the rest -> created
    ].join('\r\n');
    const body = clientBody('parsons-sent-bulk-import-job-request-upsert-contacts.json');
    body.file.sourceUrl = s.files.put('/upsert.zip', zipOf({ 'contacts.csv': csv }));
    const created = await call(s, key, 'POST', '/v4/bulkImportJobs', body);
    expect(created.status).toBe(201);
    expect(created.json).toEqual({ jobId: expect.any(Number) });
    const job = await waitForJob(s, key, created.json.jobId);
    expect(job).toMatchObject({
      id: created.json.jobId,
      status: 'Completed',
      resourceType: 'Contacts',
      webhookUrl: null,
      resultFileSizeLimitKb: 5000,
      errors: [],
      rowsTotal: 5,
      rowsDone: 5,
      rowsFailed: 1,
    });
    expect(job.resultFiles).toHaveLength(1);
    expect(job.resultFiles[0].url.startsWith(`${s.url}/v4/bulkImportResultFiles/`)).toBe(true);
    expect(Date.parse(job.resultFiles[0].dateExpired) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    const rows = await download(job.resultFiles[0].url);
    expect(Object.keys(rows[0] ?? {})).toEqual(['BulkUploadDataID', 'ULFileID', 'PrimaryKey', 'PrimaryKeyType', 'Vanid', 'CreateOrUpdateContact']);
    expect(rows.map((r) => r['BulkUploadDataID'])).toEqual(['1', '2', '3', '4', '5']);
    expect(rows.map((r) => r['CreateOrUpdateContact']?.startsWith('Processed') ?? false)).toEqual([true, true, true, false, true]);
    expect(rows[3]?.['CreateOrUpdateContact']).toMatch(/^Email: /);
    expect(rows[0]?.['PrimaryKey']).toBe(String(adaId));
    expect(rows[1]?.['PrimaryKey']).toBe(rows[2]?.['PrimaryKey']);
    expect(rows[4]?.['PrimaryKey']).not.toBe('999999');
    expect(rows[0]?.['Vanid']).toBe(String(adaId));
    const adaNow = await person(adaId);
    expect(adaNow.emails.map((e: any) => e.email).sort()).toEqual(['ada.second@example.org', 'ada@example.org']);
    const grace = await person(Number(rows[1]?.['PrimaryKey']));
    expect(grace.emails.map((e: any) => e.email)).toEqual(['grace@example.org']);
    // the same row through findOrCreate matches the imported person (fetch follows the 302 to it)
    const again = await call(s, key, 'POST', '/v4/people/findOrCreate', { emails: [{ email: 'grace@example.org' }] });
    expect(again.json.crmId).toBe(Number(rows[1]?.['PrimaryKey']));
  });
});

describe('ApplyContactCustomFields (parsons contact-custom-fields body)', () => {
  it('applies CF<id> columns with the static group, and names the bad field', async () => {
    const p = await call(s, key, 'POST', '/v4/people/findOrCreate', { firstName: 'Cf', lastName: 'Person', emails: [{ email: 'cf@example.org' }] });
    const id = p.json.crmId as number;
    const body = clientBody('parsons-sent-bulk-import-job-request-contact-custom-fields.json');
    const csv = `vanid,CF123,CF124\n${id},M,12\n${id},XXL,\n424242,S,1\n`;
    body.file.sourceUrl = s.files.put('/cf.zip', zipOf({ 'cf.csv': csv }));
    const created = await call(s, key, 'POST', '/v4/bulkImportJobs', body);
    expect(created.status).toBe(201);
    const job = await waitForJob(s, key, created.json.jobId);
    expect(job.status).toBe('Completed');
    const rows = await download(job.resultFiles[0].url);
    expect(rows.map((r) => r['ApplyContactCustomFields'])).toEqual(['Processed', expect.stringMatching(/^CF123: /), 'VanID: no contact with crmId 424242.']);
    const stored = await person(id);
    expect(stored.customFields).toEqual(
      expect.arrayContaining([
        { customFieldId: 123, customFieldGroupId: 1234, assignedValue: 'M' },
        { customFieldId: 124, customFieldGroupId: 1234, assignedValue: '12' },
      ]),
    );
  });
});

describe('ActivistCode (parsons activist-codes body)', () => {
  it('applies the activist code to each contact as a canvass response', async () => {
    const p = await call(s, key, 'POST', '/v4/people/findOrCreate', { firstName: 'Act', lastName: 'Ivist', emails: [{ email: 'act@example.org' }] });
    const id = p.json.crmId as number;
    const body = clientBody('parsons-sent-bulk-import-job-request-activist-codes.json');
    body.file.sourceUrl = s.files.put('/ac.zip', zipOf({ 'ac.csv': `Vanid,ActivistCodeID\n"${id}","4482459"\n${id},1\n` }));
    const created = await call(s, key, 'POST', '/v4/bulkImportJobs', body);
    expect(created.status).toBe(201);
    const job = await waitForJob(s, key, created.json.jobId);
    expect(job.resourceType).toBe('ContactsActivistCodes');
    const rows = await download(job.resultFiles[0].url);
    expect(rows.map((r) => r['ActivistCode'])).toEqual(['Processed', expect.stringMatching(/^ActivistCodeID: /)]);
    const history = await call(s, key, 'GET', `/v4/people/${id}/canvassResponses`);
    expect(history.json.count).toBe(1);
  });
});

describe('other mapping types, fieldValueMappings and dialects', () => {
  it('Suppressions and CanvassResults on the contact of each row', async () => {
    const p = await call(s, key, 'POST', '/v4/people/findOrCreate', { firstName: 'Sup', lastName: 'Pressed', emails: [{ email: 'sup@example.org' }] });
    const id = p.json.crmId as number;
    const body = {
      file: {
        hasHeader: true,
        columnDelimiter: 'csv',
        sourceUrl: s.files.put('/sup.csv', `VanID,SuppressionCode,ResultID\n${id},NE,19\n${id},nm,18\n${id},ZZ,99\n`),
      },
      actions: [{ resourceType: 'Contacts', actionType: 'loadMappedFile', mappingTypes: [{ name: 'Suppressions' }, { name: 'CanvassResults' }] }],
    };
    const job = await waitForJob(s, key, (await call(s, key, 'POST', '/v4/bulkImportJobs', body)).json.jobId);
    expect(job.status).toBe('Completed');
    const rows = await download(job.resultFiles[0].url);
    expect(rows.map((r) => [r['Suppressions'], r['CanvassResults']])).toEqual([
      ['Processed', 'Processed'],
      ['Processed', 'Processed'],
      [expect.stringMatching(/^SuppressionCode: "ZZ" is not a suppression code/), expect.stringMatching(/^ResultID: /)],
    ]);
    const stored = (await call(s, key, 'GET', `/v4/people/${id}?$expand=suppressions`)).json;
    expect(stored.suppressions).toEqual([
      { suppressionCode: 'NE', suppressionName: 'Do Not Email' },
      { suppressionCode: 'NM', suppressionName: 'Do Not Mail' },
    ]);
    expect((await call(s, key, 'GET', `/v4/people/${id}/canvassResponses`)).json.count).toBe(2);
  });

  it('Email, Phones and MailingAddress with columnName, staticValue and values on a tab file without header', async () => {
    const body = {
      file: {
        fileName: 'x.tsv',
        hasHeader: false,
        hasQuotes: false,
        columnDelimiter: 'Tab',
        sourceUrl: '',
        columns: [{ name: 'First' }, { name: 'Last' }, { name: 'Mail' }, { name: 'Tel' }, { name: 'Kind' }, { name: 'Street' }, { name: 'Zip' }],
      },
      actions: [
        {
          resourceType: 'Contacts',
          actionType: 'loadMappedFile',
          mappingTypes: [
            {
              name: 'CreateOrUpdateContact',
              fieldValueMappings: [
                { fieldName: 'FirstName', columnName: 'First' },
                { fieldName: 'LastName', columnName: 'Last' },
                { fieldName: 'Email', columnName: 'Mail' },
              ],
            },
            {
              name: 'Phones',
              fieldValueMappings: [
                { fieldName: 'Phone', columnName: 'Tel' },
                { fieldName: 'PhoneTypeID', columnName: 'Kind', values: [{ sourceValue: 'mobile', targetValue: 'C' }] },
              ],
            },
            {
              name: 'MailingAddress',
              fieldValueMappings: [
                { fieldName: 'AddressLine1', columnName: 'Street' },
                { fieldName: 'Zip5', columnName: 'Zip' },
                { fieldName: 'CountryCode', staticValue: 'US' },
              ],
            },
            {
              name: 'Email',
              fieldValueMappings: [
                { fieldName: 'Email', staticValue: 'team@example.org' },
                { fieldName: 'EmailSubscriptionStatusId', staticValue: '0' },
              ],
            },
          ],
        },
      ],
    };
    body.file.sourceUrl = s.files.put('/multi.tsv', 'Marie\tCurie\tmarie@example.org\t(202) 555-0143\tMobile\t1 Rue Pierre\t20500\n');
    const created = await call(s, key, 'POST', '/v4/bulkImportJobs', body);
    expect(created.status).toBe(201);
    const job = await waitForJob(s, key, created.json.jobId);
    expect(job.status).toBe('Completed');
    const rows = await download(job.resultFiles[0].url);
    expect(rows[0]).toMatchObject({ CreateOrUpdateContact: 'Processed', Phones: 'Processed', MailingAddress: 'Processed', Email: 'Processed' });
    const p = (await call(s, key, 'GET', `/v4/people/${rows[0]?.['PrimaryKey']}?$expand=emails,phones,addresses`)).json;
    expect(p.phones[0]).toMatchObject({ phoneNumber: '2025550143', phoneType: 'C' });
    expect(p.addresses.some((a: any) => a.type === 'Mailing')).toBe(true);
    expect(p.emails.find((e: any) => e.email === 'team@example.org')).toMatchObject({ subscriptionStatus: 'U' });
  });

  it('a pipe file with quoted fields holding delimiters and line breaks', async () => {
    const body = clientBody('parsons-sent-bulk-import-job-request-upsert-contacts.json');
    body.file.columnDelimiter = 'PIPE';
    body.file.columns = [{ name: 'Vanid' }, { name: 'email' }, { name: 'FirstName' }, { name: 'LastName' }];
    body.file.sourceUrl = s.files.put(
      '/pipe.txt',
      'Vanid|email|FirstName|LastName\n|"pipe@example.org"|"Jo|hn"|"Pi|pe"\n|"multi@example.org"|"Ann"|"Multi\nLine"\n',
    );
    const job = await waitForJob(s, key, (await call(s, key, 'POST', '/v4/bulkImportJobs', body)).json.jobId);
    expect(job).toMatchObject({ status: 'Completed', rowsTotal: 2, rowsFailed: 1 });
    const rows = await download(job.resultFiles[0].url);
    const p = (await call(s, key, 'GET', `/v4/people/${rows[0]?.['PrimaryKey']}`)).json;
    expect(p).toMatchObject({ firstName: 'Jo|hn', lastName: 'Pi|pe' });
    // The quoted line break is read into its cell, and a name with a line break is refused (issue 15).
    expect(rows[1]?.['CreateOrUpdateContact']).toMatch(/^LastName: contains U\+000A \(line feed\)/);
  });

  it('splits the result file by resultFileSizeKbLimit', async () => {
    const body = clientBody('parsons-sent-bulk-import-job-request-upsert-contacts.json');
    body.actions[0].resultFileSizeKbLimit = 1;
    const lines = ['Vanid,email', ...Array.from({ length: 60 }, (_, i) => `,split${i}@example.org`)];
    body.file.sourceUrl = s.files.put('/split.csv', lines.join('\n'));
    const job = await waitForJob(s, key, (await call(s, key, 'POST', '/v4/bulkImportJobs', body)).json.jobId);
    expect(job.resultFiles.length).toBeGreaterThan(1);
    // A client reading resultFiles[0] of a Completed job (parsons) would miss rows: the job says so.
    expect(job.status).toBe('CompletedWithErrors');
    expect(job.errors).toEqual([
      { code: 'RESULT_FILE_SPLIT', text: expect.stringMatching(/larger than resultFileSizeKbLimit \(1 KB\): it is served as \d+ files/) },
    ]);
    let all: Record<string, string>[] = [];
    for (const f of job.resultFiles) {
      const res = await fetch(f.url);
      const text = await res.text();
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1024);
      all = all.concat(parseResultCsv(text));
    }
    expect(all.map((r) => Number(r['BulkUploadDataID']))).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  });
});

describe('uploads, tenants and lists', () => {
  it('POST /bulkImportFiles (raw and multipart) answers a sourceUrl a job can use', async () => {
    const raw = await fetch(`${s.url}/v4/bulkImportFiles`, {
      method: 'POST',
      headers: { apiKey: key, 'content-type': 'text/csv' },
      body: 'Vanid,email\n,upload@example.org\n',
    });
    expect(raw.status).toBe(201);
    const { sourceUrl } = (await raw.json()) as { sourceUrl: string };
    expect(sourceUrl.startsWith(`${s.url}/v4/bulkImportFiles/`)).toBe(true);
    const body = clientBody('parsons-sent-bulk-import-job-request-upsert-contacts.json');
    body.file.sourceUrl = sourceUrl;
    const job = await waitForJob(s, key, (await call(s, key, 'POST', '/v4/bulkImportJobs', body)).json.jobId);
    expect(job.status).toBe('Completed');

    const form = new FormData();
    form.append('file', new Blob([zipOf({ 'a.csv': 'Vanid,email\n,multi@example.org\n' })]), 'a.zip');
    const multi = await fetch(`${s.url}/v2/bulkImportFiles`, { method: 'POST', headers: { apiKey: key }, body: form });
    expect(multi.status).toBe(201);
    body.file.sourceUrl = ((await multi.json()) as { sourceUrl: string }).sourceUrl;
    const job2 = await waitForJob(s, key, (await call(s, key, 'POST', '/v2/bulkImportJobs', body)).json.jobId);
    expect(job2.status).toBe('Completed');

    // another tenant can use neither the upload nor the job
    const stolen = await call(s, other, 'POST', '/v4/bulkImportJobs', body);
    expect(stolen.status).toBe(400);
    expect(stolen.json.errors[0].properties).toEqual(['file.sourceUrl']);
    const peek = await call(s, other, 'GET', `/v4/bulkImportJobs/${job2.id}`);
    expect(peek.status).toBe(404);
    expect(peek.json).toEqual({ errors: [{ code: 'NOT_FOUND', text: 'The specified resource cannot be found.' }] });
  });

  it('an uploaded Latin-1 (Windows-1252) file keeps its accented letters', async () => {
    const latin1 = Buffer.from('FirstName,LastName,Email\r\nJosé,Müller,jose@example.org\r\n', 'latin1');
    const up = await fetch(`${s.url}/v4/bulkImportFiles`, { method: 'POST', headers: { apiKey: key, 'content-type': 'text/csv' }, body: latin1 });
    expect(up.status).toBe(201);
    const body = clientBody('parsons-sent-bulk-import-job-request-upsert-contacts.json');
    body.file.sourceUrl = ((await up.json()) as { sourceUrl: string }).sourceUrl;
    body.file.columns = [{ name: 'FirstName' }, { name: 'LastName' }, { name: 'Email' }];
    body.actions[0].columnsToIncludeInResultsFile = [{ name: 'Email' }];
    const job = await waitForJob(s, key, (await call(s, key, 'POST', '/v4/bulkImportJobs', body)).json.jobId);
    expect(job).toMatchObject({ status: 'Completed', rowsTotal: 1, rowsDone: 1, rowsFailed: 0 });
    const rows = await download(job.resultFiles[0].url);
    expect(rows[0]?.['CreateOrUpdateContact']).toMatch(/^Processed/);
    const stored = await person(Number(rows[0]?.['PrimaryKey']));
    expect(stored).toMatchObject({ firstName: 'José', lastName: 'Müller' });
    expect(stored.emails.map((e: any) => e.email)).toEqual(['jose@example.org']);
  });

  it('result files expire after 24 hours', async () => {
    const body = clientBody('parsons-sent-bulk-import-job-request-upsert-contacts.json');
    body.file.sourceUrl = s.files.put('/exp.csv', 'Vanid,email\n,exp@example.org\n');
    const job = await waitForJob(s, key, (await call(s, key, 'POST', '/v4/bulkImportJobs', body)).json.jobId);
    const name = (job.resultFiles[0].url as string).split('/').pop() as string;
    const ctx = { tenantId: (await s.crm.authenticate(key))!.tenantId, context: 'campaign' as const };
    const later = (hours: number) =>
      new BulkImports(
        s.crm,
        null,
        () => true,
        () => new Date(Date.now() + hours * 3600_000),
      );
    expect(await later(23).resultFile(name)).not.toBeNull();
    expect(await later(25).resultFile(name)).toBeNull();
    expect((await later(25).getJob(ctx, job.id))?.resultFiles).toEqual([]);
  });

  it('a result file URL with a wrong token is a 404', async () => {
    const body = clientBody('parsons-sent-bulk-import-job-request-upsert-contacts.json');
    body.file.sourceUrl = s.files.put('/tok.csv', 'Vanid,email\n,tok@example.org\n');
    const job = await waitForJob(s, key, (await call(s, key, 'POST', '/v4/bulkImportJobs', body)).json.jobId);
    const url = job.resultFiles[0].url as string;
    const forged = url.replace(/-[\w-]+\.csv$/, '-AAAAAAAAAAAAAAAAAAAAAAAA.csv');
    expect((await fetch(forged)).status).toBe(404);
  });

  it('serves the mapping types, their fields and values, and the resources', async () => {
    const list = await call(s, key, 'GET', '/v4/bulkImportMappingTypes');
    expect(list.json.map((t: any) => t.name)).toEqual(
      expect.arrayContaining([
        'CreateOrUpdateContact',
        'Email',
        'Phones',
        'MailingAddress',
        'ApplyContactCustomFields',
        'ActivistCode',
        'CanvassResults',
        'Suppressions',
      ]),
    );
    const ac = await call(s, key, 'GET', '/v4/bulkImportMappingTypes/ActivistCode');
    const fixture = clientBody('parsons-bulk-import-mapping-type-ActivistCode.json');
    expect(Object.keys(ac.json).sort()).toEqual(Object.keys(fixture).sort());
    expect(Object.keys(ac.json.fields[0]).sort()).toEqual(Object.keys(fixture.fields[0]).sort());
    const values = await call(s, key, 'GET', '/v4/bulkImportMappingTypes/Email/EmailSubscriptionStatusId/values');
    expect(values.json).toEqual(clientBody('parsons-bulk-import-mapping-type-field-values-Email-EmailSubscriptionStatusId.json'));
    const codes = await call(s, key, 'GET', '/v4/bulkImportMappingTypes/ActivistCode/ActivistCodeID/values');
    expect(codes.json).toEqual([{ id: '4482459', name: 'PollWorker', parents: null }]);
    expect((await call(s, key, 'GET', '/v4/bulkImportMappingTypes/Nope')).status).toBe(404);
    expect((await call(s, key, 'GET', '/v4/bulkImportMappingTypes/Email/Nope/values')).status).toBe(404);
    const resources = await call(s, key, 'GET', '/v4/bulkImportJobs/resources');
    expect(resources.json).toEqual(expect.arrayContaining(['Contacts', 'ContactsActivistCodes']));
  });
});

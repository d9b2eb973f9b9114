/**
 * Bulk import bad input: each gives a clear error. Request problems are 400 envelopes naming
 * the property; a file that cannot be read ends the job Failed saying why; a bad row is
 * reported in the result file and never fails the job.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, clientBody, openImportServer, parseResultCsv, waitForJob, zipOf, type ImportServer } from './import-helpers.js';

// Background jobs, a local file server and (for the zip bomb) heavy compression: slow on a loaded 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

let s: ImportServer;
let key: string;

beforeAll(async () => {
  s = await openImportServer({ limits: { maxBytes: 256 * 1024, timeoutMs: 1000 } });
  await s.crm.createTenant('acme');
  key = (await s.crm.createKey({ tenant: 'acme', tier: 'Internal' })).key;
}, 30_000);
afterAll(async () => {
  await s.close();
});

function upsert(sourceUrl: string): Record<string, any> {
  const body = clientBody('parsons-sent-bulk-import-job-request-upsert-contacts.json');
  body.file.sourceUrl = sourceUrl;
  return body;
}

async function run(body: unknown): Promise<any> {
  const created = await call(s, key, 'POST', '/v4/bulkImportJobs', body);
  expect(created.status, created.text).toBe(201);
  return waitForJob(s, key, created.json.jobId);
}

describe('refused requests (400, property named)', () => {
  it('a URL outside the allow-list', async () => {
    const r = await call(s, key, 'POST', '/v4/bulkImportJobs', upsert('https://s3.com/my_file.zip'));
    expect(r.status).toBe(400);
    expect(r.json.errors[0]).toMatchObject({ code: 'INVALID_PARAMETER', properties: ['file.sourceUrl'], text: expect.stringContaining('s3.com') });
    expect(r.json.errors[0].hint).toMatch(/bulkImportFiles|MATCHBOOK_IMPORT_ALLOWED_HOSTS/);
  });

  it('an unknown mapping type, an unknown field, a missing column', async () => {
    const body = upsert(s.files.put('/ok.csv', 'Vanid,email\n1,a@example.org\n'));
    body.actions[0].mappingTypes = [{ name: 'Nope' }];
    let r = await call(s, key, 'POST', '/v4/bulkImportJobs', body);
    expect(r.status).toBe(400);
    expect(r.json.errors[0]).toMatchObject({ properties: ['actions[0].mappingTypes[0].name'], text: 'Unknown mapping type "Nope".' });
    body.actions[0].mappingTypes = [{ name: 'CreateOrUpdateContact', fieldValueMappings: [{ fieldName: 'Shoe', columnName: 'email' }] }];
    r = await call(s, key, 'POST', '/v4/bulkImportJobs', body);
    expect(r.status).toBe(201);
    const job = await waitForJob(s, key, r.json.jobId);
    // columns are given in the request, so this is known at once ... or while staging: either way it names the field
    expect(job.status).toBe('Failed');
    expect(job.errors[0].text).toMatch(/fieldValueMappings\[0\]\.fieldName: CreateOrUpdateContact has no field "Shoe"/);
  });

  it('malformed requests: no file, bad delimiter, several actions, bad types', async () => {
    const r = await call(s, key, 'POST', '/v4/bulkImportJobs', {
      file: { sourceUrl: 'ftp://x/y', columnDelimiter: 'semicolon', hasHeader: 'maybe' },
      actions: [{}, {}],
    });
    expect(r.status).toBe(400);
    const props = r.json.errors.flatMap((e: any) => e.properties);
    expect(props).toEqual(expect.arrayContaining(['file.columnDelimiter', 'file.hasHeader', 'file.sourceUrl', 'actions']));
    const empty = await call(s, key, 'POST', '/v4/bulkImportJobs', []);
    expect(empty.status).toBe(400);
  });
});

describe('files that cannot be read: Failed with the reason', () => {
  it('a zip bomb', async () => {
    const bomb = zipOf({ 'bomb.csv': new Uint8Array(20 * 1024 * 1024) }, 9);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const job = await run(upsert(s.files.put('/bomb.zip', bomb)));
    expect(job.status).toBe('Failed');
    expect(job.errors[0].text).toMatch(/zip bomb|inflates past/);
  });

  it('a file over the size limit (download and upload)', async () => {
    const big = `Vanid,email\n${',x@example.org\n'.repeat(30_000)}`;
    const job = await run(upsert(s.files.put('/big.csv', big)));
    expect(job.status).toBe('Failed');
    expect(job.errors[0].text).toMatch(/over this server's limit of 262144 bytes/);
    const up = await fetch(`${s.url}/v4/bulkImportFiles`, { method: 'POST', headers: { apiKey: key, 'content-type': 'text/csv' }, body: big });
    expect(up.status).toBe(413);
    expect(((await up.json()) as any).errors[0]).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('a zip holding two files, a damaged zip, an empty file, a 404, a slow server', async () => {
    const two = await run(upsert(s.files.put('/two.zip', zipOf({ 'a.csv': 'a\n', 'b.csv': 'b\n' }))));
    expect(two.errors[0].text).toMatch(/more than one file/);
    const damaged = zipOf({ 'a.csv': 'Vanid,email\n'.repeat(100) });
    const cut = await run(upsert(s.files.put('/cut.zip', damaged.subarray(0, 40))));
    expect(cut.status).toBe('Failed');
    // Whole local entries but no end record, or a second file cut off: incomplete, not "whole" (issue 15).
    const noEnd = await run(upsert(s.files.put('/noend.zip', damaged.subarray(0, damaged.length - 22))));
    expect(noEnd).toMatchObject({
      status: 'Failed',
      rowsDone: 0,
      errors: [{ text: expect.stringMatching(/incomplete or damaged.*no end of central directory/) }],
    });
    const pair = zipOf({ 'a.csv': 'Vanid,email\n,first@example.org\n', '__MACOSX/._b.csv': 'x'.repeat(500) });
    const firstOnly = await run(upsert(s.files.put('/first.zip', pair.subarray(0, pair.indexOf(0x50, 40)))));
    expect(firstOnly).toMatchObject({ status: 'Failed', rowsDone: 0 });
    const empty = await run(upsert(s.files.put('/empty.csv', '')));
    expect(empty.errors[0].text).toMatch(/empty/);
    const missing = await run(upsert(`${s.files.url}/missing.csv`));
    expect(missing.errors[0].text).toMatch(/answered 404/);
    const slow = await run(upsert(s.files.put('/slow.csv', 'Vanid,email\n', { delayMs: 3000 })));
    expect(slow.errors[0].text).toMatch(/not read within 1000 ms/);
  });

  it('a header line that does not match file.columns', async () => {
    const job = await run(upsert(s.files.put('/hdr.csv', 'Vanid,email,extra\n1,a@example.org,x\n')));
    expect(job.status).toBe('Failed');
    expect(job.errors[0].text).toBe("The file's header line has 3 columns (Vanid, email, extra), but file.columns names 2.");
  });

  it('a header without the columns a mapping needs', async () => {
    const body = upsert(s.files.put('/nocol.csv', 'a,b\n1,2\n'));
    delete body.file.columns;
    body.actions[0].mappingTypes = [{ name: 'Email' }];
    const job = await run(body);
    expect(job.status).toBe('Failed');
    expect(job.errors[0].text).toMatch(/Email field Email is required/);
  });

  it('an unclosed quote at the end is a malformed last row', async () => {
    const job = await run(upsert(s.files.put('/quote.csv', 'Vanid,email\n,ok@example.org\n,"a@example.org\n')));
    expect(job.status).toBe('Completed');
    const rows = parseResultCsv(await (await fetch(job.resultFiles[0].url)).text());
    expect(rows[1]?.['CreateOrUpdateContact']).toMatch(/^Malformed row \(line 3\): a quoted field is not closed/);
  });
});

describe('bad rows never fail the job', () => {
  it('wrong column counts and malformed quotes are reported per row', async () => {
    const csv = 'Vanid,email\n,ok1@example.org\n,too,many\n"1"x,bad@example.org\nonly\n,ok2@example.org\n';
    const job = await run(upsert(s.files.put('/rows.csv', csv)));
    expect(job).toMatchObject({ status: 'Completed', rowsTotal: 5, rowsDone: 5, rowsFailed: 3 });
    const rows = parseResultCsv(await (await fetch(job.resultFiles[0].url)).text());
    expect(rows.map((r) => r['CreateOrUpdateContact'])).toEqual([
      'Processed',
      'The row has 3 fields, the file 2 columns (line 3).',
      expect.stringMatching(/^Malformed row \(line 4\): text after a closing quote/),
      'The row has 1 field, the file 2 columns (line 5).',
      'Processed',
    ]);
  });
});

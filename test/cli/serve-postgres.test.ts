/**
 * Several real `matchbook serve` processes on one PostgreSQL and one Redis (issue 7): exactly
 * one record per person under concurrent findOrCreate spread over the processes,
 * read-your-writes across processes, a late starter catching up, and a Startup key's Low
 * limit held across processes.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pgLib from 'pg';
import { Crm } from '../../src/crm/index.js';
import { HAVE_POSTGRES, HAVE_REDIS, startPostgres, startRedis, type PgServer, type RedisServer } from '../services.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCliProcess, startServe, type ServeProcess } from './spawn.js';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

const json = { 'content-type': 'application/json' };

/** A deterministic PRNG (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Edsger',
  'Barbara',
  'Donald',
  'Frances',
  'John',
  'Katherine',
  'Dennis',
  'Margaret',
  'Ken',
  'Radia',
  'Leslie',
  'Shafi',
  'Tim',
];
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'da', 'fe', 'go', 'hu', 'ja', 'pi', 'qo', 'bre', 'stu', 'wen', 'xor'];

/** Person i of the test: a distinct name and email (people sharing nothing can never match). */
function personBody(i: number): Record<string, unknown> {
  const syl = (n: number): string => SYLLABLES[n % SYLLABLES.length]!;
  const last = `${syl(i)}${syl(Math.floor(i / 20) + 3)}${syl(Math.floor(i / 400) + 7)}${i}`;
  return {
    firstName: FIRST[i % FIRST.length],
    lastName: last.charAt(0).toUpperCase() + last.slice(1),
    emails: [{ email: `person${i}.${last}@example.org` }],
  };
}

describe.skipIf(!HAVE_POSTGRES || !HAVE_REDIS)('several serve processes on PostgreSQL and Redis', () => {
  let pg: PgServer;
  let redis: RedisServer;
  let db: string;
  let internal: string;
  let startup: string;
  let importer: string;
  let scope: { tenantId: number; context: 'voterfile' };
  const procs: ServeProcess[] = [];
  const start = async (extraEnv: Record<string, string> = {}): Promise<ServeProcess> => {
    const p = await startServe(['--db', db], { MATCHBOOK_REDIS: redis.url, MATCHBOOK_IMPORT_LEASE_MS: '1000', ...extraEnv });
    procs.push(p);
    return p;
  };

  beforeAll(async () => {
    // Both started, or whichever did is kept for afterAll to stop: a Redis started beside a
    // PostgreSQL that failed to start outlived the run before.
    const [pgStart, redisStart] = await Promise.allSettled([startPostgres(), startRedis()]);
    if (pgStart.status === 'fulfilled') pg = pgStart.value;
    if (redisStart.status === 'fulfilled') redis = redisStart.value;
    if (pgStart.status === 'rejected') throw pgStart.reason;
    if (redisStart.status === 'rejected') throw redisStart.reason;
    db = await pg.createDatabase();
    const crm = await Crm.open({ db });
    const tenant = await crm.createTenant('scale');
    scope = { tenantId: tenant.id, context: 'voterfile' };
    internal = (await crm.createKey({ tenant: 'scale', tier: 'Internal', contexts: ['voterfile'] })).key;
    startup = (await crm.createKey({ tenant: 'scale', tier: 'Startup', contexts: ['voterfile'] })).key;
    await crm.createTenant('imports');
    importer = (await crm.createKey({ tenant: 'imports', tier: 'Internal', contexts: ['voterfile'] })).key;
    await crm.close();
    await Promise.all([start(), start(), start()]);
  });
  afterAll(() => {
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    // Unset when beforeAll failed first (afterAll still runs).
    (redis as RedisServer | undefined)?.stop();
    (pg as PgServer | undefined)?.stop();
  });

  const post = (p: ServeProcess, path: string, body: unknown, key = internal): Promise<Response> =>
    fetch(`${p.base}/v4${path}`, { method: 'POST', headers: { apiKey: key, ...json }, body: JSON.stringify(body), redirect: 'manual' });

  const countPeople = async (): Promise<number> => {
    const crm = await Crm.open({ db });
    try {
      return (await crm.listTenants()).find((t) => t.name === 'scale')?.people.voterfile ?? -1;
    } finally {
      await crm.close();
    }
  };

  it('3 processes, 50 concurrent clients, 1,000 people each sent 5 times in random order: exactly 1,000 records, every answer 201 or 302', async () => {
    const rand = random(7);
    const queue = Array.from({ length: 5000 }, (_, n) => n % 1000);
    for (let i = queue.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [queue[i], queue[j]] = [queue[j]!, queue[i]!];
    }
    const statuses = new Map<number, number>();
    const crmIds = new Map<number, Set<number>>();
    let next = 0;
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: 50 }, async (_, client) => {
        for (let n = next++; n < queue.length; n = next++) {
          const i = queue[n]!;
          const res = await post(procs[(client + n) % 3]!, '/people/findOrCreate', personBody(i));
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const body = (await res.json()) as { crmId?: number };
          if (typeof body.crmId === 'number') {
            const ids = crmIds.get(i) ?? new Set<number>();
            ids.add(body.crmId);
            crmIds.set(i, ids);
          }
        }
      }),
    );
    const seconds = (Date.now() - t0) / 1000;
    console.log(`5,000 findOrCreate over 3 processes in ${seconds.toFixed(1)} s (${Math.round(5000 / seconds)} req/s)`);
    expect([...statuses.keys()].sort()).toEqual([201, 302]);
    expect(statuses.get(201)).toBe(1000);
    expect(statuses.get(302)).toBe(4000);
    expect([...crmIds.values()].every((ids) => ids.size === 1)).toBe(true);
    expect(new Set([...crmIds.values()].map((ids) => [...ids][0])).size).toBe(1000);
    expect(await countPeople()).toBe(1000);
  });

  it('read-your-writes: a record created through one process is found at once through every other', async () => {
    for (let i = 0; i < 20; i++) {
      const body = personBody(10_000 + i);
      const created = await post(procs[i % 3]!, '/people/findOrCreate', body);
      expect(created.status).toBe(201);
      const { crmId } = (await created.json()) as { crmId: number };
      for (const other of [procs[(i + 1) % 3]!, procs[(i + 2) % 3]!]) {
        const found = await post(other, '/people/find', body);
        expect(found.status).toBe(302);
        expect(((await found.json()) as { crmId: number }).crmId).toBe(crmId);
        expect((await fetch(`${other.base}/v4/people/${crmId}`, { headers: { apiKey: internal } })).status).toBe(200);
      }
    }
  });

  it('a process started later serves what the others wrote, and its writes reach them', async () => {
    const late = await start();
    const before = await post(late, '/people/find', personBody(5));
    expect(before.status).toBe(302);
    const created = await post(late, '/people/findOrCreate', personBody(20_000));
    expect(created.status).toBe(201);
    const { crmId } = (await created.json()) as { crmId: number };
    const found = await post(procs[0]!, '/people/find', personBody(20_000));
    expect(((await found.json()) as { crmId: number }).crmId).toBe(crmId);
    late.child.kill('SIGTERM');
    await late.exited;
    procs.pop();
  });

  it('after PostgreSQL drops every connection, the processes reconnect and catch up on what was written meanwhile', async () => {
    const admin = new pgLib.Client({ connectionString: db });
    await admin.connect();
    try {
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      // A write made directly while the processes are cut off (as another process would).
      const direct = await Crm.open({ db });
      const written = await direct.findOrCreate(scope, personBody(30_000));
      await direct.close();
      expect(written.status).toBe('UnmatchedStored');
      await new Promise((r) => setTimeout(r, 200));
      for (const p of procs) {
        let res = await post(p, '/people/find', personBody(30_000));
        // A request that meets a connection killed under it may fail once; the pool then reconnects.
        if (res.status >= 500) res = await post(p, '/people/find', personBody(30_000));
        expect(res.status).toBe(302);
        expect(((await res.json()) as { crmId: number }).crmId).toBe(written.crmId);
      }
    } finally {
      await admin.end();
    }
  });

  it("a Startup key's Low limit (2 per second) holds across the 3 processes under concurrent bursts", async () => {
    await new Promise((r) => setTimeout(r, 1100));
    const used: number[] = [];
    for (let burst = 0; burst < 3; burst++) {
      const t0 = Date.now();
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => post(procs[i % 3]!, '/people/find', personBody(i), startup)));
      const elapsed = Date.now() - t0;
      const admitted = answers.filter((r) => r.status !== 429);
      const refused = answers.filter((r) => r.status === 429);
      // No assumption on how long a burst takes (the windows run on Redis's clock): it admits at
      // least one window's allowance, and at most that of every window it could have spanned.
      // That the three processes share one window exactly is shown on an injected window
      // (test/server/redis-rate-limit.test.ts); here: all of them admit as one.
      expect(admitted.length).toBeGreaterThanOrEqual(2);
      expect(admitted.length, `burst ${burst} took ${elapsed} ms`).toBeLessThanOrEqual(2 * (Math.ceil(elapsed / 1000) + 1));
      for (const r of admitted) {
        expect(r.headers.get('ratelimit-limit')).toBe('2');
        used.push(Number(r.headers.get('x-quota-used')));
      }
      for (const r of refused) {
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(((await r.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe('429');
      }
      await new Promise((r) => setTimeout(r, 1100));
    }
    // Every admitted request was counted once in the month, whatever process answered it.
    used.sort((x, y) => x - y);
    expect(used).toEqual(Array.from({ length: used.length }, (_, i) => i + 1));
  });

  it('without Redis each process limits alone (as documented): two processes admit twice the allowance', async () => {
    const alone = await Promise.all([start({ MATCHBOOK_REDIS: '' }), start({ MATCHBOOK_REDIS: '' })]);
    try {
      await new Promise((r) => setTimeout(r, 1100));
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(alone[i % 2]!, '/people/find', personBody(i), startup)));
      // Each process admits its own 2, whatever the timing: 4, twice what one shared window allows.
      const admitted = answers.filter((r) => r.status !== 429).length;
      expect(admitted).toBeGreaterThanOrEqual(4);
    } finally {
      for (const p of alone) {
        p.child.kill('SIGTERM');
        await p.exited;
        procs.splice(procs.indexOf(p), 1);
      }
    }
  });

  it('admin commands take a postgres:// --db: db copy moves a SQLite file, tenants list reads it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'matchbook-dbcopy-'));
    try {
      const file = join(dir, 'old.db');
      const lite = await Crm.open({ db: file });
      await lite.createTenant('old-tenant');
      await lite.close();
      const target = await pg.createDatabase();
      const copied = await runCliProcess(['db', 'copy', '--from', file, '--to', target]);
      expect(copied.code, copied.stderr).toBe(0);
      expect(JSON.parse(copied.stdout)).toMatchObject({ tenants: 1 });
      const listed = await runCliProcess(['tenants', 'list', '--db', target]);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain('old-tenant');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('kill -9 of the process running a bulk import: another process takes the job over and finishes it, every row once', async () => {
    const ROWS = 2500;
    const base = procs[0]!.base;
    const csv = ['FirstName,LastName', ...Array.from({ length: ROWS }, (_, i) => `Imp${i},Ort${i}`)].join('\n');
    const up = await fetch(`${base}/v4/bulkImportFiles`, { method: 'POST', headers: { apiKey: importer, 'content-type': 'text/csv' }, body: csv });
    expect(up.status).toBe(201);
    const { sourceUrl } = (await up.json()) as { sourceUrl: string };
    const created = await fetch(`${base}/v4/bulkImportJobs`, {
      method: 'POST',
      headers: { apiKey: importer, ...json },
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
    const job = async (p: ServeProcess): Promise<any> => (await fetch(`${p.base}/v4/bulkImportJobs/${jobId}`, { headers: { apiKey: importer } })).json();

    // Whichever process claimed the job: find it by the lease owner ("<pid>-<random>") and kill it outright.
    const client = new pgLib.Client({ connectionString: db });
    await client.connect();
    let owner: string | null = null;
    try {
      for (const end = Date.now() + 60_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
        const row = (await client.query('SELECT owner, rows_done FROM bulk_import_jobs WHERE id = $1', [jobId])).rows[0] as {
          owner: string | null;
          rows_done: string;
        };
        if (row.owner !== null && Number(row.rows_done) >= 300) {
          owner = row.owner;
          break;
        }
      }
    } finally {
      await client.end();
    }
    expect(owner).not.toBeNull();
    const victim = procs.find((p) => owner!.startsWith(`${p.child.pid}-`));
    expect(victim, `owner ${owner} is one of the serve processes`).toBeDefined();
    victim!.child.kill('SIGKILL');
    await victim!.exited;
    const survivors = procs.filter((p) => p !== victim);
    const before = await job(survivors[0]!);
    expect(before.rowsDone).toBeLessThan(ROWS);

    let done: any;
    for (const end = Date.now() + 150_000; ; await new Promise((r) => setTimeout(r, 300))) {
      done = await job(survivors[1]!);
      if (/Completed|Failed/.test(done.status)) break;
      expect(Date.now()).toBeLessThan(end);
    }
    expect(done).toMatchObject({ status: 'Completed', rowsTotal: ROWS, rowsDone: ROWS, rowsFailed: 0, errors: [] });
    const lines = (await (await fetch(done.resultFiles[0].url)).text()).trim().split('\n').slice(1);
    expect(lines).toHaveLength(ROWS);
    expect(lines.map((l) => Number(l.split(',')[0]))).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
    expect(new Set(lines.map((l) => l.split(',')[2])).size).toBe(ROWS);
    const crm = await Crm.open({ db });
    try {
      expect((await crm.listTenants()).find((t) => t.name === 'imports')?.people.voterfile).toBe(ROWS);
    } finally {
      await crm.close();
    }
  });
});

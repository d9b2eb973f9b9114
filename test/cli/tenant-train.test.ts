/**
 * `matchbook tenants train`, in-process through runCli on the database of a running
 * (in-process) server: the report before anything is saved, `--dry-run` and a missing
 * `--yes` save nothing, `--yes` stores a new version that `tenants list` and `GET
 * /apiKeyProfiles` show and that the server scores with without a restart (its clock moved
 * past the 250 ms freshness window), `--reset` goes back; bad input is one clear error line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/program.js';
import { registerTenants } from '../../src/cli/tenants.js';
import { Crm } from '../../src/crm/index.js';
import { buildApp } from '../../src/server/app.js';
import { MemoryRateLimiter } from '../../src/server/rate-limit.js';
import { campusPeople, nameAtCampus, townPeople } from '../crm/training-people.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let dir: string;
let db: string;
let clock: number;
let crm: Crm;
let app: FastifyInstance;
let campusKey: string;
let townKey: string;
const people = campusPeople(300);
const crafted = nameAtCampus(people[0]!);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'matchbook-train-cli-'));
  db = join(dir, 'train.db');
  clock = Date.UTC(2026, 10, 25, 12);
  crm = await Crm.open({ db, now: () => new Date(clock) });
  // Usage is written only on close: the CLI's connection, in this same thread, could not wait
  // for a write of the server's connection (a busy wait blocks the thread that would commit it).
  const ledger = { addKeyUsage: crm.addKeyUsage.bind(crm), getKeyUsage: crm.getKeyUsage.bind(crm) };
  app = buildApp({ crm, rateLimiter: new MemoryRateLimiter({ ledger, flushIntervalMs: 0 }) });
  await app.ready();
  for (const [name, bodies] of [
    ['campus', people],
    ['town', townPeople(120)],
  ] as const) {
    await crm.createTenant(name);
    const { key } = await crm.createKey({ tenant: name, tier: 'Internal', contexts: ['voterfile', 'campaign'] });
    const who = await crm.authenticate(key);
    for (const body of bodies) await crm.findOrCreate({ tenantId: who!.tenantId, context: 'voterfile' }, body);
    if (name === 'campus') campusKey = key;
    else townKey = key;
  }
  await crm.createTenant('empty');
});
afterAll(async () => {
  await app.close();
  await crm.close();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: { MATCHBOOK_DB: db }, cwd: dir, handleSignals: false };
  const code = await runCli(args, [registerTenants], io);
  return { code, stdout, stderr };
}

const find = async (key: string, body: unknown): Promise<number> =>
  (await app.inject({ method: 'POST', url: '/v4/people/find', headers: { apiKey: key, 'content-type': 'application/json' }, payload: JSON.stringify(body) }))
    .statusCode;

async function profileModel(key: string, suffix = ''): Promise<unknown> {
  const res = await app.inject({ method: 'GET', url: '/v4/apiKeyProfiles', headers: { apiKey: `${key}${suffix}` } });
  expect(res.statusCode, res.body).toBe(200);
  return (JSON.parse(res.body) as { items: { model: unknown }[] }).items[0]?.model;
}

/** Moves the server's clock past the window in which it may serve cached settings and models. */
function pastFreshness(): void {
  clock += 251;
}

const SHIPPED = { source: 'shipped', version: null, since: null };
const ISO_SECOND = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe('tenants train', () => {
  it('--dry-run prints the report and saves nothing', async () => {
    const res = await cli(['tenants', 'train', 'campus', '--dry-run', '--progress', 'none']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^Tenant "campus", voterfile: [\d,]+ people; in force: shipped; planned: a model trained on its people\./);
    expect(res.stdout).toMatch(/m estimated \(EM\) for: .*firstName/);
    expect(res.stdout).toMatch(/Degenerate estimate, shipped m kept for: .*zip5/);
    // Everybody at one ZIP: the same ZIP is no evidence (0.1 bits: pooled with its rarer
    // one-digit-off level, model.ts poolAboveExact).
    expect(res.stdout).toMatch(/zip5\s+exact 7\.5 -> 0\.[0-2]\b/);
    expect(res.stdout).toMatch(/Stored candidate pairs compared: [\d,]+; decided otherwise under the new model: \d+\./);
    expect(res.stderr).toContain('dry run: nothing saved');
    expect(await crm.store.listModelVersions({ tenantId: 1, context: 'voterfile' })).toEqual([]);
  });

  it('without --yes: the report, then one error line, and nothing saved', async () => {
    const res = await cli(['tenants', 'train', 'campus', '--progress', 'none']);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('Stored candidate pairs compared');
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/^matchbook: error: not saved: \d+ stored pair\(s\) would be decided otherwise; run again with --yes/);
    expect(await crm.store.listModelVersions({ tenantId: 1, context: 'voterfile' })).toEqual([]);
  });

  it('--yes stores a version; tenants list and apiKeyProfiles show it; the running server scores with it; --reset goes back', async () => {
    expect(await find(campusKey, crafted)).toBe(302);
    expect(await profileModel(campusKey)).toEqual(SHIPPED);
    const plain = await cli(['tenants', 'train', 'campus', '--yes', '--progress', 'plain']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toMatch(/now scores with the trained version 1 \(\d{4}-[^)]+\) model/);
    pastFreshness();
    // The server picked the model up without a restart: a name at the campus address alone no longer matches.
    expect(await find(campusKey, crafted)).toBe(404);
    const trained = (await profileModel(campusKey)) as { source: string; version: number; since: string };
    expect(trained).toMatchObject({ source: 'trained', version: 1 });
    expect(trained.since).toMatch(ISO_SECOND);
    // The campaign context (suffix |1) and the other tenant keep the shipped model.
    expect(await profileModel(campusKey, '|1')).toEqual(SHIPPED);
    expect(await profileModel(townKey)).toEqual(SHIPPED);
    const list = await cli(['tenants', 'list']);
    expect(list.stdout).toMatch(new RegExp(`campus .*voterfile=trained:v1:${trained.since} campaign=shipped`));
    expect(list.stdout).toMatch(/town .*voterfile=shipped campaign=shipped/);

    // Trained again: a new version; the old one is kept.
    expect((await cli(['tenants', 'train', 'campus', '--context', 'voterfile', '--yes', '--progress', 'none'])).code).toBe(0);
    pastFreshness();
    expect(await profileModel(campusKey)).toMatchObject({ source: 'trained', version: 2 });
    expect((await crm.store.listModelVersions({ tenantId: 1, context: 'voterfile' })).map((v) => v.version)).toEqual([2, 1]);

    // --reset: the report of what going back changes, then the shipped model again (version 3).
    const reset = await cli(['tenants', 'train', 'campus', '--reset', '--yes', '--progress', 'none']);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toContain('planned: back to the shipped model');
    expect(reset.stdout).toMatch(/zip5\s+exact 0\.[0-2] -> 7\.5/);
    pastFreshness();
    expect(await find(campusKey, crafted)).toBe(302);
    expect(await profileModel(campusKey)).toMatchObject({ source: 'shipped', version: 3 });
    const again = await cli(['tenants', 'train', 'campus', '--reset', '--yes']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already scores with the shipped model; nothing to reset');
  });

  it('bad input: one clear error line', async () => {
    const expectError = async (args: string[], pattern: RegExp) => {
      const res = await cli(args);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toMatch(pattern);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stdout).toBe('');
    };
    await expectError(['tenants', 'train', 'nobody', '--dry-run'], /error: .*No tenant named "nobody"/);
    await expectError(['tenants', 'train', 'campus', '--context', 'voters', '--dry-run'], /error: .*"voters" is not a context/);
    await expectError(['tenants', 'train', 'empty', '--dry-run'], /error: .*"empty" has 0 people in voterfile; training needs at least 50/);
    await expectError(['tenants', 'train', 'campus', '--dry-run', '--yes'], /--dry-run and --yes exclude each other/);
    await expectError(['tenants', 'train'], /missing required argument/);
  });
});

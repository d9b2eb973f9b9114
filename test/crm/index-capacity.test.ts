/**
 * The index memory limit (issue 7): past `maxIndexPeople` a process refuses to load a tenant
 * or to create a person with a clear error (CrmError INDEX_FULL, HTTP 507) instead of running
 * out of memory; the default comes from the V8 heap limit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Crm, CrmError, INDEX_BYTES_PER_PERSON, defaultMaxIndexPeople } from '../../src/crm/index.js';
import { buildApp } from '../../src/server/app.js';
import { runCliProcess } from '../cli/spawn.js';

const person = (i: number) => ({ firstName: `Cap${i}`, lastName: `Acity${i}`, emails: [{ email: `cap${i}@example.org` }] });

describe('index capacity', () => {
  let dir: string;
  let db: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'matchbook-cap-'));
    db = join(dir, 'db.sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('the default limit is 70% of the heap limit at 1,000 B per person', () => {
    expect(INDEX_BYTES_PER_PERSON).toBe(1000);
    expect(defaultMaxIndexPeople(4 * 2 ** 30)).toBe(3_006_477);
    expect(defaultMaxIndexPeople()).toBeGreaterThan(100_000);
  });

  it('creating past the limit is refused (507 INDEX_FULL); matching existing people goes on', async () => {
    const crm = await Crm.open({ db, maxIndexPeople: 3 });
    await crm.createTenant('t1');
    const { key } = await crm.createKey({ tenant: 't1', tier: 'Internal' });
    const ctx = { tenantId: (await crm.authenticate(key))!.tenantId, context: 'voterfile' as const };
    for (let i = 0; i < 3; i++) expect((await crm.findOrCreate(ctx, person(i))).status).toBe('UnmatchedStored');
    await expect(crm.findOrCreate(ctx, person(3))).rejects.toMatchObject({ code: 'INDEX_FULL', status: 507 });
    expect((await crm.findOrCreate(ctx, person(1))).status).toBe('Matched');
    const app = buildApp({ crm });
    const res = await app.inject({
      method: 'POST',
      url: '/v4/people/findOrCreate',
      headers: { apiKey: key, 'content-type': 'application/json' },
      payload: person(4),
    });
    expect(res.statusCode).toBe(507);
    const body = res.json<{ errors: { code: string; text: string }[] }>();
    expect(body.errors[0]?.code).toBe('INDEX_FULL');
    expect(body.errors[0]?.text).toMatch(/past its limit of 3 .*MATCHBOOK_MAX_INDEX_PEOPLE/);
    await app.close();
    await crm.close();
  });

  it('opening a database larger than the limit fails with a clear error, not an out-of-memory crash', async () => {
    const crm = await Crm.open({ db });
    await crm.createTenant('big');
    const { key } = await crm.createKey({ tenant: 'big', tier: 'Internal' });
    const ctx = { tenantId: (await crm.authenticate(key))!.tenantId, context: 'voterfile' as const };
    for (let i = 0; i < 5; i++) await crm.findOrCreate(ctx, person(i));
    await crm.close();
    const refused = await Crm.open({ db, maxIndexPeople: 4 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(CrmError);
    expect((refused as CrmError).message).toMatch(/indexing 5 more people .* past its limit of 4/);
    // The server refuses to start, saying why, with exit code 1.
    const serve = await runCliProcess(['serve', '--db', db, '--port', '0'], { MATCHBOOK_MAX_INDEX_PEOPLE: '4' });
    expect(serve.code).toBe(1);
    expect(serve.stderr).toMatch(/past its limit of 4/);
    // Admin commands (src/cli/with-crm.ts) load no index: they work on it all the same.
    const admin = await Crm.open({ db, maxIndexPeople: 4, loadIndexes: false });
    expect((await admin.listTenants())[0]?.people.voterfile).toBe(5);
    // A scope's index loads when first used, with the same limit.
    await expect(admin.find(ctx, person(0))).rejects.toMatchObject({ code: 'INDEX_FULL' });
    await admin.close();
  });
});

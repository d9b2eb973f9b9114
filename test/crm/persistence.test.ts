import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Crm, EXPANDABLE } from '../../src/crm/index.js';

const ALL = new Set(EXPANDABLE);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('persistence', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'matchbook-crm-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('people, keys and settings survive close and open; the index is rebuilt on open', async () => {
    const db = join(dir, 'crm.db');
    let crm = await Crm.open({ db });
    const t = await crm.createTenant('acme');
    await crm.configureTenant('acme', { campaign: { targetedEmail: true, identifierTypes: ['bsdid'] } });
    const { key } = await crm.createKey({ tenant: 'acme', contexts: ['campaign'] });
    const ctx = { tenantId: t.id, context: 'campaign' as const };
    const body = {
      firstName: 'Ada',
      lastName: 'Lovelace',
      emails: [{ email: 'ada@example.org', subscriptionStatus: 'N' }],
      identifiers: [{ type: 'bsdid', externalId: 'B1' }],
    };
    const created = await crm.findOrCreate(ctx, body);
    const before = await crm.getPerson(ctx, created.crmId ?? 0, ALL);
    await crm.close();

    crm = await Crm.open({ db });
    expect(await crm.authenticate(key)).toMatchObject({ tenantId: t.id, contexts: ['campaign'] });
    expect(await crm.getPerson(ctx, created.crmId ?? 0, ALL)).toEqual(before);
    expect(await crm.find(ctx, { emails: [{ email: 'ADA@example.org' }] })).toMatchObject({ status: 'Matched', crmId: created.crmId });
    expect(await crm.findOrCreate(ctx, body)).toMatchObject({ status: 'Matched', crmId: created.crmId });
    expect((await crm.getPersonByExternalId(ctx, 'BSDID', 'b1', ALL))?.crmId).toBe(created.crmId);
    await crm.close();
  });

  it('a findOrCreate that was answered survives kill -9 of the process right after', async () => {
    const db = join(dir, 'crm.db');
    const setup = await Crm.open({ db });
    const t = await setup.createTenant('acme');
    await setup.close();
    const script = join(dir, 'writer.mts');
    writeFileSync(
      script,
      `
      import { Crm } from ${JSON.stringify(join(ROOT, 'src/crm/index.ts'))};
      const crm = await Crm.open({ db: ${JSON.stringify(db)} });
      const ctx = { tenantId: ${t.id}, context: 'voterfile' as const };
      const first = await crm.findOrCreate(ctx, { firstName: 'Ada', lastName: 'Lovelace', emails: [{ email: 'ada@example.org' }] });
      const second = await crm.findOrCreate(ctx, { firstName: 'Ada', lastName: 'Lovelace', emails: [{ email: 'ada@example.org' }], party: 'D' });
      process.stdout.write(JSON.stringify([first.crmId, second.status]) + '\\n');
      setInterval(() => {}, 1000);
    `,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(out.trim());
      });
      child.on('exit', (code) => reject(new Error(`writer exited with ${code}`)));
    });
    const exited = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGKILL');
    await exited;
    child.stdout.destroy();
    const [crmId, status] = JSON.parse(line) as [number, string];
    expect(status).toBe('Matched');
    const crm = await Crm.open({ db });
    expect(await crm.getPerson({ tenantId: t.id, context: 'voterfile' }, crmId, ALL)).toMatchObject({ crmId, firstName: 'Ada', party: 'D' });
    await crm.close();
  }, 60_000);
});

describe('cached match keys', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'matchbook-keys-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const body = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    emails: [{ email: 'ada@example.org' }],
    addresses: [{ addressLine1: '12 Main Street', zipOrPostalCode: '02145' }],
  };
  const sql = (crm: Crm): { prepare(s: string): { run(...a: unknown[]): unknown; all(...a: unknown[]): unknown[] } } =>
    (crm.store as unknown as { db: { prepare(s: string): { run(...a: unknown[]): unknown; all(...a: unknown[]): unknown[] } } }).db;

  it('every write stores the match key; stale or broken keys are rebuilt at load', async () => {
    const db = join(dir, 'crm.db');
    let crm = await Crm.open({ db });
    const t = await crm.createTenant('acme');
    const ctx = { tenantId: t.id, context: 'voterfile' as const };
    const a = await crm.findOrCreate(ctx, body);
    const b = await crm.findOrCreate(ctx, { ...body, firstName: 'Bob', emails: [{ email: 'bob@example.org' }] });
    const rows = sql(crm).prepare('SELECT match_key, match_fp FROM people ORDER BY crm_id').all() as { match_key: string | null; match_fp: number | null }[];
    expect(rows.every((r) => r.match_key !== null && r.match_fp !== null)).toBe(true);
    const fingerprint = rows[0]?.match_fp;
    sql(crm).prepare('UPDATE people SET match_fp = 1 WHERE crm_id = ?').run(a.crmId);
    sql(crm).prepare("UPDATE people SET match_key = '{not json' WHERE crm_id = ?").run(b.crmId);
    await crm.close();

    crm = await Crm.open({ db });
    expect(await crm.find(ctx, body)).toMatchObject({ status: 'Matched', crmId: a.crmId });
    expect(await crm.find(ctx, { ...body, firstName: 'Bob', emails: [{ email: 'bob@example.org' }] })).toMatchObject({ status: 'Matched', crmId: b.crmId });
    expect(sql(crm).prepare('SELECT match_fp FROM people WHERE crm_id = ?').all(a.crmId)).toEqual([{ match_fp: fingerprint }]);
    await crm.close();
  });

  it('a new default country re-normalizes and rewrites the keys', async () => {
    const db = join(dir, 'crm.db');
    let crm = await Crm.open({ db });
    const t = await crm.createTenant('acme');
    const ctx = { tenantId: t.id, context: 'voterfile' as const };
    const a = await crm.findOrCreate(ctx, body);
    const before = sql(crm).prepare('SELECT match_fp FROM people').all();
    await crm.configureTenant('acme', { voterfile: { defaultCountry: 'CA' } });
    await crm.close();
    crm = await Crm.open({ db });
    expect(await crm.find(ctx, { ...body, addresses: [{ addressLine1: '12 Main Street', zipOrPostalCode: '02145', countryCode: 'US' }] })).toMatchObject({
      status: 'Matched',
      crmId: a.crmId,
    });
    expect(sql(crm).prepare('SELECT match_fp FROM people').all()).not.toEqual(before);
    await crm.close();
  });
});

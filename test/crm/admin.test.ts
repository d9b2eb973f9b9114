import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Crm, CrmError } from '../../src/crm/index.js';
import { RICH_SETTINGS_FILE } from './fixtures.js';

describe('Crm admin: tenants, settings, keys', () => {
  let crm: Crm;
  beforeEach(async () => {
    crm = await Crm.open({ db: ':memory:' });
  });
  afterEach(async () => crm.close());

  it('creates tenants with unique, valid names', async () => {
    expect(await crm.hasAnyTenant()).toBe(false);
    expect(await crm.createTenant('Acme Org')).toEqual({ id: 1, name: 'Acme Org' });
    expect(await crm.hasAnyTenant()).toBe(true);
    await expect(crm.createTenant('acme org')).rejects.toMatchObject({ code: 'CONFLICT', status: 409 });
    for (const bad of ['', ' ', '-x', 'a/b', 'x'.repeat(101)]) {
      await expect(crm.createTenant(bad)).rejects.toMatchObject({ code: 'INVALID_PARAMETER', issues: [{ property: 'name' }] });
    }
  });

  it('lists tenants with people counts and configured contexts', async () => {
    const t = await crm.createTenant('a');
    await crm.configureTenant('a', { campaign: {} });
    await crm.findOrCreate({ tenantId: t.id, context: 'campaign' }, { firstName: 'A', lastName: 'B' });
    expect(await crm.listTenants()).toEqual([
      expect.objectContaining({ id: t.id, name: 'a', people: { voterfile: 0, campaign: 1 }, configured: ['campaign'] }),
    ]);
  });

  it('configureTenant validates the file, names bad paths and refuses unknown tenants', async () => {
    await crm.createTenant('a');
    await expect(crm.configureTenant('nobody', {})).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const error = await crm.configureTenant('a', { campaign: { targetedEmail: 'sure' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrmError);
    expect((error as CrmError).issues).toEqual([expect.objectContaining({ property: 'campaign.targetedEmail' })]);
    await crm.configureTenant('a', RICH_SETTINGS_FILE);
    const settings = await crm.getTenantSettings('a');
    expect(settings.campaign.targetedEmail).toBe(true);
    expect(settings.voterfile.professionalFields).toBe(false);
    // A context absent from a later file keeps its settings.
    await crm.configureTenant('a', { voterfile: {} });
    expect((await crm.getTenantSettings('a')).campaign.targetedEmail).toBe(true);
    expect((await crm.getTenantSettings('a')).voterfile.professionalFields).toBe(true);
  });

  it('settings take effect on the next call', async () => {
    const t = await crm.createTenant('a');
    const ctx = { tenantId: t.id, context: 'campaign' as const };
    const body = { firstName: 'A', lastName: 'B', emails: [{ email: 'a@b.co', subscriptionStatus: 'N' }] };
    await expect(crm.find(ctx, body)).rejects.toMatchObject({ issues: [{ property: 'emails[0].subscriptionStatus' }] });
    await crm.configureTenant('a', { campaign: { targetedEmail: true } });
    expect((await crm.find(ctx, body)).status).toBe('Unmatched');
  });

  it('issues keys with defaults, returns the GUID once and authenticates it in any case', async () => {
    await crm.createTenant('a');
    const k = await crm.createKey({ tenant: 'A' });
    expect(k.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(k).toMatchObject({ tier: 'Custom', contexts: ['voterfile', 'campaign'], defaultContext: 'voterfile', prefix: k.key.slice(0, 8) });
    const who = await crm.authenticate(` ${k.key.toUpperCase()} `);
    expect(who).toEqual({ keyId: k.id, tenantId: 1, tenantName: 'a', tier: 'Custom', contexts: ['voterfile', 'campaign'], defaultContext: 'voterfile' });
    const listed = await crm.listKeys();
    expect(JSON.stringify(listed)).not.toContain(k.key);
    expect(JSON.stringify(listed)).not.toContain(k.key.slice(9));
  });

  it('stores only the hash of a key', async () => {
    await crm.createTenant('a');
    const k = await crm.createKey({ tenant: 'a' });
    const db = (crm.store as unknown as { db: { prepare(sql: string): { all(): unknown[] } } }).db;
    const dump = JSON.stringify(db.prepare('SELECT * FROM api_keys').all());
    expect(dump).not.toContain(k.key.slice(9));
  });

  it('authenticate: null for unknown, malformed or revoked keys', async () => {
    await crm.createTenant('a');
    const k = await crm.createKey({ tenant: 'a', tier: 'Startup', contexts: ['campaign'] });
    expect((await crm.authenticate(k.key))?.contexts).toEqual(['campaign']);
    expect(await crm.authenticate('00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(await crm.authenticate('not-a-guid')).toBeNull();
    expect(await crm.authenticate(`${k.key}|1`)).toBeNull();
    expect(await crm.revokeKey(k.prefix)).toBe(true);
    expect(await crm.authenticate(k.key)).toBeNull();
    expect(await crm.revokeKey(k.prefix)).toBe(false);
  });

  it('revokes by id, by full GUID, by unique prefix; an ambiguous prefix is a conflict', async () => {
    await crm.createTenant('a');
    const k1 = await crm.createKey({ tenant: 'a' });
    const k2 = await crm.createKey({ tenant: 'a' });
    expect(await crm.revokeKey(String(k1.id))).toBe(true);
    expect(await crm.revokeKey(k2.key.toUpperCase())).toBe(true);
    expect(await crm.revokeKey('zz')).toBe(false);
    const k3 = await crm.createKey({ tenant: 'a' });
    const k4 = await crm.createKey({ tenant: 'a' });
    let common = 0;
    while (k3.key[common] === k4.key[common]) common++;
    if (common >= 4) await expect(crm.revokeKey(k3.key.slice(0, common))).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await crm.revokeKey(k3.prefix)).toBe(true);
    expect((await crm.listKeys()).map((k) => k.revokedAt !== null)).toEqual([true, true, true, false]);
  });

  it('refuses bad key options', async () => {
    await crm.createTenant('a');
    await expect(crm.createKey({ tenant: 'b' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(crm.createKey({ tenant: 'a', tier: 'Gold' as never })).rejects.toMatchObject({ issues: [{ property: 'tier' }] });
    await expect(crm.createKey({ tenant: 'a', contexts: [] })).rejects.toMatchObject({ issues: [{ property: 'contexts' }] });
    await expect(crm.createKey({ tenant: 'a', contexts: ['sandbox' as never] })).rejects.toMatchObject({ issues: [{ property: 'contexts' }] });
    await expect(crm.createKey({ tenant: 'a', contexts: ['voterfile'], defaultContext: 'campaign' })).rejects.toMatchObject({
      issues: [{ property: 'defaultContext' }],
    });
    expect((await crm.createKey({ tenant: 'a', contexts: ['campaign', 'voterfile'], defaultContext: 'campaign' })).defaultContext).toBe('campaign');
  });
});

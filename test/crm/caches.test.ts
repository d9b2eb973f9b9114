/**
 * The Crm caches API keys and tenant settings (no SQLite read per request), and still sees
 * changes at once when made through itself, and within a second when made by another process
 * (the CLI) on the same database file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Crm, CrmError, type CallContext } from '../../src/crm/index.js';
import { SqliteStore } from '../../src/store/index.js';

let dir: string;
let server: Crm;
let cli: Crm;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'matchbook-caches-'));
  const db = join(dir, 'db.sqlite');
  server = await Crm.open({ db });
  cli = await Crm.open({ db });
});
afterEach(async () => {
  await server.close();
  await cli.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Polls `probe` until it returns true; the elapsed milliseconds, or Infinity after `limitMs`. */
async function within(limitMs: number, probe: () => Promise<boolean>): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await probe()) return performance.now() - start;
    if (performance.now() - start > limitMs) return Infinity;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Counts the store's reads of keys and settings. */
function countReads(crm: Crm): { keys: number; settings: number } {
  const counts = { keys: 0, settings: 0 };
  const store = crm.store as SqliteStore;
  const getKeyByHash = store.getKeyByHash.bind(store);
  const getSettings = store.getSettings.bind(store);
  store.getKeyByHash = async (hash) => {
    counts.keys++;
    return getKeyByHash(hash);
  };
  store.getSettings = async (scope) => {
    counts.settings++;
    return getSettings(scope);
  };
  return counts;
}

describe('key and settings caches', () => {
  it('a warm request reads neither the key nor the settings from SQLite', async () => {
    await server.createTenant('acme');
    const { key } = await server.createKey({ tenant: 'acme' });
    const who = await server.authenticate(key);
    const ctx: CallContext = { tenantId: who!.tenantId, context: 'campaign' };
    await server.find(ctx, { firstName: 'Ada' });
    const counts = countReads(server);
    for (let i = 0; i < 50; i++) {
      expect(await server.authenticate(key.toUpperCase())).toEqual(who);
      await server.find(ctx, { firstName: 'Ada' });
    }
    // At most one re-read per 250 ms window, whatever the request count.
    expect(counts.keys).toBeLessThanOrEqual(2);
    expect(counts.settings).toBeLessThanOrEqual(2);
  });

  it('a key revoked through the same Crm is refused at once; a new key works at once', async () => {
    await server.createTenant('acme');
    const { key, id } = await server.createKey({ tenant: 'acme' });
    expect(await server.authenticate(key)).not.toBeNull();
    expect(await server.revokeKey(String(id))).toBe(true);
    expect(await server.authenticate(key)).toBeNull();
    // An unknown key is cached as unknown, until it is created here.
    const fresh = '0f0e0d0c-0b0a-4908-8706-050403020100';
    expect(await server.authenticate(fresh)).toBeNull();
    const created = await server.createKey({ tenant: 'acme' });
    expect(await server.authenticate(created.key)).not.toBeNull();
  });

  it('a key revoked by another process (a second Crm on the file) is refused within a second', async () => {
    await cli.createTenant('acme');
    const { key, id } = await cli.createKey({ tenant: 'acme' });
    // Created elsewhere: known here within a second.
    expect(await within(1000, async () => (await server.authenticate(key)) !== null)).toBeLessThan(1000);
    for (let i = 0; i < 5; i++) expect(await server.authenticate(key)).not.toBeNull();
    expect(await cli.revokeKey(String(id))).toBe(true);
    const elapsed = await within(1000, async () => (await server.authenticate(key)) === null);
    expect(elapsed).toBeLessThan(1000);
    // And stays refused.
    expect(await server.authenticate(key)).toBeNull();
  });

  it('settings configured by another process take effect within a second', async () => {
    const t = await server.createTenant('acme');
    const ctx: CallContext = { tenantId: t.id, context: 'campaign' };
    const body = { firstName: 'Ada', lastName: 'L', identifiers: [{ type: 'bsdid', externalId: '7' }] };
    const refusal = async (): Promise<boolean> => server.find(ctx, body).then(() => false, (e: unknown) => e instanceof CrmError && e.status === 400);
    expect(await refusal()).toBe(true);
    for (let i = 0; i < 5; i++) expect(await refusal()).toBe(true);
    await cli.configureTenant('acme', { campaign: { identifierTypes: ['bsdid'] } });
    expect(await within(1000, async () => !(await refusal()))).toBeLessThan(1000);
    // And back, likewise.
    await cli.configureTenant('acme', { campaign: { identifierTypes: [] } });
    expect(await within(1000, refusal)).toBeLessThan(1000);
  });

  it('settings configured through the same Crm take effect on the next call', async () => {
    const t = await server.createTenant('acme');
    const ctx: CallContext = { tenantId: t.id, context: 'campaign' };
    const body = { identifiers: [{ type: 'bsdid', externalId: '7' }] };
    await expect(server.find(ctx, body)).rejects.toBeInstanceOf(CrmError);
    await server.configureTenant('acme', { campaign: { identifierTypes: ['bsdid'] } });
    await expect(server.find(ctx, body)).resolves.toMatchObject({ status: 'Unmatched' });
  });
});

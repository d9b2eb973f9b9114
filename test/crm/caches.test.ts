/**
 * The Crm caches API keys and tenant settings (no SQLite read per request), and still sees
 * changes at once when made through itself, and within 250 ms when made by another process
 * (the CLI) on the same database file. The server's clock is injected: the tests move it
 * past the freshness window instead of waiting and timing (issue 15).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Crm, CrmError, type CallContext } from '../../src/crm/index.js';
import { sqliteStoreOf } from './fixtures.js';

let dir: string;
/** The server Crm's clock, ms since the epoch. */
let clock: number;
let server: Crm;
let cli: Crm;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'matchbook-caches-'));
  const db = join(dir, 'db.sqlite');
  clock = Date.UTC(2026, 10, 25, 12);
  server = await Crm.open({ db, now: () => new Date(clock) });
  cli = await Crm.open({ db });
});
afterEach(async () => {
  await server.close();
  await cli.close();
  rmSync(dir, { recursive: true, force: true });
});

/** How long the server may serve a cached key or settings after another process changed them. */
const FRESHNESS_MS = 250;

/** Counts the store's reads of keys and settings. */
function countReads(crm: Crm): { keys: number; settings: number } {
  const counts = { keys: 0, settings: 0 };
  const store = sqliteStoreOf(crm);
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

  it(`a key revoked by another process (a second Crm on the file) is refused once ${FRESHNESS_MS} ms have passed`, async () => {
    await server.createTenant('acme'); // (warms the server: it has read the change counter)
    const { key, id } = await cli.createKey({ tenant: 'acme' });
    // Created elsewhere: known here once the freshness window has passed.
    clock += FRESHNESS_MS;
    expect(await server.authenticate(key)).not.toBeNull();
    for (let i = 0; i < 5; i++) expect(await server.authenticate(key)).not.toBeNull();
    expect(await cli.revokeKey(String(id))).toBe(true);
    // Within the window the cached key may still be served; past it, never.
    clock += FRESHNESS_MS - 1;
    expect(await server.authenticate(key)).not.toBeNull();
    clock += 1;
    expect(await server.authenticate(key)).toBeNull();
    // And stays refused.
    expect(await server.authenticate(key)).toBeNull();
  });

  it(`settings configured by another process take effect once ${FRESHNESS_MS} ms have passed`, async () => {
    const t = await server.createTenant('acme');
    const ctx: CallContext = { tenantId: t.id, context: 'campaign' };
    const body = { firstName: 'Ada', lastName: 'L', identifiers: [{ type: 'bsdid', externalId: '7' }] };
    const refusal = async (): Promise<boolean> =>
      server.find(ctx, body).then(
        () => false,
        (e: unknown) => e instanceof CrmError && e.status === 400,
      );
    expect(await refusal()).toBe(true);
    for (let i = 0; i < 5; i++) expect(await refusal()).toBe(true);
    await cli.configureTenant('acme', { campaign: { identifierTypes: ['bsdid'] } });
    clock += FRESHNESS_MS;
    expect(await refusal()).toBe(false);
    // And back, likewise.
    await cli.configureTenant('acme', { campaign: { identifierTypes: [] } });
    clock += FRESHNESS_MS;
    expect(await refusal()).toBe(true);
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

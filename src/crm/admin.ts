/**
 * Administration of tenants, their settings and their API keys (the `matchbook tenants` and
 * `matchbook keys` commands; the server creates a demo tenant on a first start). Every change
 * invalidates the admin caches (admin-cache.ts), so it takes effect on the next call, in this
 * and, within 250 ms, in other processes.
 */
import { StoreError, type ContextName, type KeyRow, type Store, type Tier } from '../store/index.js';
import type { AdminCache } from './admin-cache.js';
import type { SecondClock } from './clock.js';
import { CONTEXTS, TIERS, type KeySummary, type TenantSummary } from './crm-types.js';
import { CrmError } from './errors.js';
import { hashKey, isGuid, keyPrefix, newKey } from './api-keys.js';
import type { Scopes } from './scopes.js';
import { DEFAULT_CONTEXT_SETTINGS, parseStoredContextSettings, parseTenantSettings, type ContextSettings } from './settings.js';
import { contextModelOf, type ModelInForce } from './tenant-model.js';

const TENANT_NAME = /^[A-Z0-9][\w .-]{0,99}$/i;

function summarizeKey(row: KeyRow): KeySummary {
  return {
    id: row.id,
    prefix: row.prefix,
    tenant: row.tenantName,
    tier: row.tier,
    contexts: row.contexts,
    defaultContext: row.defaultContext,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
  };
}

/** An API key as {@link Admin.createKey} issues it: the GUID is shown this once. */
export interface IssuedKey {
  readonly id: number;
  readonly key: string;
  readonly prefix: string;
  readonly tenant: string;
  readonly tier: Tier;
  readonly contexts: ContextName[];
  readonly defaultContext: ContextName;
}

/** See the module comment. */
export class Admin {
  constructor(
    private readonly store: Store,
    private readonly cache: AdminCache,
    private readonly scopes: Scopes,
    private readonly clock: SecondClock,
  ) {}

  /** Creates a tenant. Names: 1-100 letters, digits, space, "_", ".", "-"; unique ignoring case. */
  async createTenant(name: string): Promise<{ id: number; name: string }> {
    const trimmed = typeof name === 'string' ? name.trim() : '';
    if (!TENANT_NAME.test(trimmed)) {
      throw new CrmError('INVALID_PARAMETER', [
        {
          property: 'name',
          text: `"${trimmed}" is not a valid tenant name.`,
          hint: 'Use 1 to 100 letters, digits, spaces, "_", "." or "-", starting with a letter or digit.',
        },
      ]);
    }
    try {
      const row = await this.store.createTenant(trimmed, this.clock.now());
      this.cache.invalidate();
      return { id: row.id, name: row.name };
    } catch (error) {
      if (error instanceof StoreError && error.code === 'CONFLICT') throw new CrmError('CONFLICT', error.message);
      throw error;
    }
  }

  /** Every tenant with its people counts, configured contexts and the model each context scores with. */
  async listTenants(): Promise<TenantSummary[]> {
    const out: TenantSummary[] = [];
    for (const t of await this.store.listTenants()) {
      const people = { voterfile: 0, campaign: 0 };
      const configured: ContextName[] = [];
      const models = {} as Record<ContextName, ModelInForce>;
      for (const context of CONTEXTS) {
        const scope = { tenantId: t.id, context };
        people[context] = await this.store.countPeople(scope);
        if ((await this.store.getSettings(scope)) !== null) configured.push(context);
        models[context] = contextModelOf(await this.store.getModel(scope)).inForce;
      }
      out.push({ id: t.id, name: t.name, createdAt: t.createdAt, people, configured, models });
    }
    return out;
  }

  /** True once any tenant exists (the server creates a demo tenant on a first start otherwise). */
  async hasAnyTenant(): Promise<boolean> {
    return (await this.store.countTenants()) > 0;
  }

  private async tenantNamed(name: string): Promise<{ id: number; name: string }> {
    const tenant = typeof name === 'string' ? await this.store.getTenantByName(name.trim()) : null;
    if (tenant === null) throw new CrmError('NOT_FOUND', [{ property: 'tenant', text: `No tenant named "${name}".` }]);
    return tenant;
  }

  /**
   * Sets a tenant's settings from a settings file's JSON (shape documented in
   * src/crm/settings.ts and data/examples/tenant-settings.example.json). Contexts present in
   * the file replace that context's settings; others are kept. Throws CrmError
   * INVALID_PARAMETER naming each bad path ("campaign.customFieldGroups[0].id"), NOT_FOUND
   * for an unknown tenant.
   */
  async configureTenant(name: string, settings: unknown): Promise<void> {
    const tenant = await this.tenantNamed(name);
    const parsed = parseTenantSettings(settings);
    for (const context of CONTEXTS) {
      const value = parsed[context];
      if (value !== undefined) await this.store.putSettings({ tenantId: tenant.id, context }, JSON.stringify(value), this.clock.now());
    }
    this.cache.invalidate();
    for (const context of CONTEXTS) {
      const ctx = { tenantId: tenant.id, context };
      if (this.scopes.has(ctx)) await this.scopes.get(ctx);
    }
  }

  /** The effective settings of both contexts of a tenant (defaults where not configured). */
  async getTenantSettings(name: string): Promise<Record<ContextName, ContextSettings>> {
    const tenant = await this.tenantNamed(name);
    const out = {} as Record<ContextName, ContextSettings>;
    for (const context of CONTEXTS) {
      const row = await this.store.getSettings({ tenantId: tenant.id, context });
      out[context] = row === null ? DEFAULT_CONTEXT_SETTINGS : parseStoredContextSettings(context, row.json);
    }
    return out;
  }

  /**
   * Issues an API key for a tenant. Defaults: tier Custom, both contexts, default context the
   * first of `contexts` (voterfile before campaign). The GUID is returned once and stored only
   * hashed.
   */
  async createKey(opts: { tenant: string; tier?: Tier; contexts?: readonly ContextName[]; defaultContext?: ContextName }): Promise<IssuedKey> {
    const tenant = await this.tenantNamed(opts.tenant);
    const tier = opts.tier ?? 'Custom';
    if (!TIERS.includes(tier))
      throw new CrmError('INVALID_PARAMETER', [{ property: 'tier', text: `"${tier}" is not a tier.`, hint: `Use one of: ${TIERS.join(', ')}.` }]);
    const requested = opts.contexts ?? CONTEXTS;
    const bad = requested.filter((c) => !CONTEXTS.includes(c));
    if (bad.length > 0 || requested.length === 0) {
      throw new CrmError('INVALID_PARAMETER', [{ property: 'contexts', text: `Contexts must be a non-empty list of ${CONTEXTS.join(', ')}.` }]);
    }
    const contexts = CONTEXTS.filter((c) => requested.includes(c));
    const defaultContext = opts.defaultContext ?? contexts[0];
    if (defaultContext === undefined || !contexts.includes(defaultContext)) {
      throw new CrmError('INVALID_PARAMETER', [
        { property: 'defaultContext', text: `The default context "${defaultContext ?? ''}" is not one of the key's contexts (${contexts.join(', ')}).` },
      ]);
    }
    const key = newKey();
    const row = await this.store.insertKey({
      tenantId: tenant.id,
      hash: hashKey(key),
      prefix: keyPrefix(key),
      tier,
      contexts,
      defaultContext,
      createdAt: this.clock.now(),
    });
    this.cache.invalidate();
    return { id: row.id, key, prefix: row.prefix, tenant: tenant.name, tier, contexts, defaultContext };
  }

  /** Every key (revoked ones too), without secrets. */
  async listKeys(): Promise<KeySummary[]> {
    return (await this.store.listKeys()).map(summarizeKey);
  }

  /**
   * Revokes a key given its id (digits, shorter than 8), its full GUID, or a prefix of at least
   * 4 characters of its GUID matching one active key. False when nothing was revoked; CrmError
   * CONFLICT when a prefix is ambiguous.
   */
  async revokeKey(idOrPrefix: string): Promise<boolean> {
    const text = idOrPrefix.trim().toLowerCase();
    const rows = await this.store.listKeys();
    let targets: KeyRow[];
    if (/^\d{1,7}$/.test(text)) targets = rows.filter((k) => k.id === Number(text));
    else if (isGuid(text)) targets = rows.filter((k) => k.hash === hashKey(text));
    else if (text.length >= 4) targets = rows.filter((k) => k.revokedAt === null && k.prefix.startsWith(text.slice(0, 8)) && text.length <= 8);
    else targets = [];
    if (targets.length > 1) {
      throw new CrmError('CONFLICT', `The prefix "${text}" matches ${targets.length} active keys; give more characters or the key id.`);
    }
    const revoked = await this.store.revokeKeys(
      targets.map((k) => k.id),
      this.clock.now(),
    );
    this.cache.invalidate();
    return revoked > 0;
  }
}

/**
 * A context's model trained on its own people (src/crm/model-training.ts,
 * tenant-model.ts): estimated from that tenant and context only, stored versioned with the
 * Crm's clock, scoring at once in this process and, within 250 ms, in another one on the same
 * database; a reset goes back to the shipped model. The CLI side is test/cli/tenant-train.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Crm, CrmError, type CallContext } from '../../src/crm/index.js';
import { MIN_TRAINING_PEOPLE } from '../../src/crm/model-training.js';
import { SHIPPED_CRM_MODEL } from '../../src/crm/tenant-model.js';
import { parseModel } from '../../src/engine/index.js';
import type { Scope, Store } from '../../src/store/index.js';
import { campusPeople, nameAtCampus, townPeople } from './training-people.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let dir: string;
let clock: number;
let crm: Crm;
let other: Crm;
let campus: CallContext;
let town: CallContext;
const people = campusPeople(300);
const crafted = nameAtCampus(people[0]!);

async function contextOf(name: string): Promise<CallContext> {
  await crm.createTenant(name);
  const who = await crm.authenticate((await crm.createKey({ tenant: name })).key);
  return { tenantId: who!.tenantId, context: 'voterfile' };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'matchbook-train-'));
  const db = join(dir, 'db.sqlite');
  clock = Date.UTC(2026, 10, 25, 12);
  crm = await Crm.open({ db, now: () => new Date(clock) });
  other = await Crm.open({ db, now: () => new Date(clock) });
  campus = await contextOf('campus');
  town = await contextOf('town');
  for (const body of people) await crm.findOrCreate(campus, body);
  await crm.createTenant('tiny');
});
afterAll(async () => {
  await crm.close();
  await other.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Records which scopes' people a store is asked for. */
function spyScopes(store: Store): { scopes: Set<string>; restore(): void } {
  const scopes = new Set<string>();
  const methods = ['countPeople', 'listNormalizations', 'listPeopleNotNormalizedBy', 'getPerson', 'listPeople', 'lastPeopleChange'] as const;
  const saved: unknown[] = methods.map((m) => store[m].bind(store));
  for (const m of methods) {
    const original = store[m].bind(store) as (scope: Scope, ...rest: never[]) => Promise<unknown>;
    (store as unknown as Record<string, unknown>)[m] = (scope: Scope, ...rest: never[]) => {
      scopes.add(`${scope.tenantId}:${scope.context}`);
      return original(scope, ...rest);
    };
  }
  return {
    scopes,
    restore: () => methods.forEach((m, i) => ((store as unknown as Record<string, unknown>)[m] = saved[i])),
  };
}

describe('training a tenant context model', () => {
  it("estimates from that tenant and context only: another tenant's people neither are read nor change the model", async () => {
    const spy = spyScopes(crm.store);
    const alone = await crm.planTenantModel('campus');
    spy.restore();
    expect([...spy.scopes]).toEqual([`${campus.tenantId}:voterfile`]);
    for (const body of townPeople(200)) await crm.findOrCreate(town, body);
    await crm.findOrCreate({ ...campus, context: 'campaign' }, townPeople(1)[0]);
    const withOthers = await crm.planTenantModel('campus');
    expect(withOthers.document).toBe(alone.document);
    expect(withOthers.changes).toEqual(alone.changes);
  });

  it('plans: m and u on the shipped levels, thresholds and vetoes kept, degenerate comparisons on the shipped m, decision changes counted', async () => {
    const plan = await crm.planTenantModel(' campus ', { context: 'voterfile' });
    expect(plan).toMatchObject({
      tenant: 'campus',
      people: await crm.store.countPeople(campus),
      current: { source: 'shipped', version: null, since: null },
      unchanged: false,
    });
    const model = parseModel(plan.document!);
    if ('error' in model) throw new Error(model.error);
    expect(model.thresholds).toEqual(SHIPPED_CRM_MODEL.thresholds);
    expect(Object.keys(model.fields).sort()).toEqual(Object.keys(SHIPPED_CRM_MODEL.fields).sort());
    for (const [field, levels] of Object.entries(SHIPPED_CRM_MODEL.fields)) {
      expect(Object.keys(model.fields[field as keyof typeof model.fields]!).sort(), field).toEqual(Object.keys(levels).sort());
      for (const [level, spec] of Object.entries(levels))
        expect(model.fields[field as keyof typeof model.fields]![level as 'exact']!.veto, `${field}.${level}`).toBe(spec.veto);
    }
    // Everybody lives at one address: agreeing on it is no evidence here (at most a fraction of
    // a bit: the same ZIP is pooled with its rarer one-digit-off level, model.ts poolAboveExact).
    const weight = (f: 'zip5' | 'streetName', l: 'exact') => plan.weights.find((w) => w.field === f && w.level === l);
    expect(weight('zip5', 'exact')!.after).toBeGreaterThanOrEqual(0);
    expect(weight('zip5', 'exact')!.after).toBeLessThan(0.25);
    expect(weight('streetName', 'exact')!.before).toBeGreaterThan(5);
    // EM learned some comparisons; the ones it could not are said and keep the shipped m.
    const sources = plan.estimation!.sources;
    expect(Object.values(sources)).toContain('estimated');
    const fallback = Object.entries(sources)
      .filter(([, s]) => s === 'fallback')
      .map(([f]) => f);
    expect(fallback.length).toBeGreaterThan(0);
    for (const f of fallback) {
      expect(plan.estimation!.notes.join('\n')).toContain(`${f}: the estimate was degenerate`);
      const shipped = SHIPPED_CRM_MODEL.fields[f as 'zip5']!;
      for (const [level, spec] of Object.entries(model.fields[f as 'zip5']!))
        expect(spec.m, `${f}.${level}`).toBeCloseTo(shipped[level as 'exact']!.m / Object.values(shipped).reduce((s, x) => s + x.m, 0), 4);
    }
    expect(plan.changes.pairs).toBeGreaterThan(0);
    expect(plan.changes.changed).toBe(Object.values(plan.changes.transitions).reduce((a, b) => a + b, 0));
    // Planning stored nothing.
    expect(await crm.store.listModelVersions(campus)).toEqual([]);
  });

  it('a saved model is versioned with the clock, scores at once here and within 250 ms in another process; a reset goes back', async () => {
    expect((await crm.find(campus, crafted)).status).toBe('Matched');
    expect((await other.find(campus, crafted)).status).toBe('Matched');
    const saved = await crm.saveTenantModel(await crm.planTenantModel('campus'));
    expect(saved).toEqual({ source: 'trained', version: 1, since: '2026-11-25T12:00:00Z' });
    // This process: at once. The crafted pair (a name at the campus address) is no match now.
    expect((await crm.find(campus, crafted)).status).toBe('Unmatched');
    expect(await crm.modelInForce(campus)).toEqual(saved);
    // Another process on the same database: after its freshness window, without a restart.
    clock += 251;
    expect((await other.find(campus, crafted)).status).toBe('Unmatched');
    expect(await other.modelInForce(campus)).toEqual(saved);
    // Other tenants and contexts keep the shipped model.
    expect(await other.modelInForce(town)).toEqual({ source: 'shipped', version: null, since: null });
    expect(await other.modelInForce({ ...campus, context: 'campaign' })).toMatchObject({ source: 'shipped' });
    const listed = (await crm.listTenants()).find((t) => t.name === 'campus');
    expect(listed?.models).toEqual({ voterfile: saved, campaign: { source: 'shipped', version: null, since: null } });

    clock += 60_000;
    const again = await crm.planTenantModel('campus');
    expect(again.current).toEqual(saved);
    expect(await crm.saveTenantModel(again)).toMatchObject({ source: 'trained', version: 2, since: '2026-11-25T12:01:00Z' });
    // A plan made before another version was stored is refused.
    await expect(crm.saveTenantModel(again)).rejects.toMatchObject({ code: 'CONFLICT' });

    const reset = await crm.planTenantModel('campus', { reset: true });
    expect(reset.document).toBeNull();
    expect(reset.weights.find((w) => w.field === 'zip5' && w.level === 'exact')!.before).toBeLessThan(0.25);
    const back = await crm.saveTenantModel(reset);
    expect(back).toMatchObject({ source: 'shipped', version: 3 });
    expect((await crm.find(campus, crafted)).status).toBe('Matched');
    clock += 251;
    expect((await other.find(campus, crafted)).status).toBe('Matched');
    expect((await crm.store.listModelVersions(campus)).map((v) => [v.version, v.json === null])).toEqual([
      [3, true],
      [2, false],
      [1, false],
    ]);
    expect((await crm.planTenantModel('campus', { reset: true })).unchanged).toBe(true);
  });

  it('a model survives a restart', async () => {
    await crm.saveTenantModel(await crm.planTenantModel('campus'));
    const reopened = await Crm.open({ db: join(dir, 'db.sqlite') });
    try {
      expect(await reopened.modelInForce(campus)).toMatchObject({ source: 'trained', version: 4 });
      expect((await reopened.find(campus, crafted)).status).toBe('Unmatched');
    } finally {
      await reopened.close();
    }
  });

  it('bad input: an unknown tenant or context, too few people', async () => {
    const error = async (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: unknown) => e,
      );
    const unknown = await error(crm.planTenantModel('nobody'));
    expect(unknown).toBeInstanceOf(CrmError);
    expect(unknown).toMatchObject({ code: 'NOT_FOUND', issues: [{ property: 'tenant' }] });
    expect(await error(crm.planTenantModel('campus', { context: 'voters' }))).toMatchObject({
      code: 'INVALID_PARAMETER',
      issues: [{ property: 'context', text: expect.stringContaining('"voters"') as unknown }],
    });
    expect(await error(crm.planTenantModel('tiny'))).toMatchObject({
      code: 'INVALID_PARAMETER',
      issues: [{ text: expect.stringContaining(`at least ${MIN_TRAINING_PEOPLE}`) as unknown }],
    });
  });
});

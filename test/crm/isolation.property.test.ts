/**
 * Tenant and context isolation as a model-based property: random operations across
 * 2 tenants x 2 contexts, with identical bodies everywhere (so that a leak would match) and
 * crmIds and identifiers of other scopes thrown in, never read or change another scope's data.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Crm, EXPANDABLE, type CallContext } from '../../src/crm/index.js';

const ALL = new Set(EXPANDABLE);
const PEOPLE = [
  { firstName: 'Ada', lastName: 'Lovelace', emails: [{ email: 'ada@example.org' }] },
  { firstName: 'Bob', lastName: 'Smith', phones: [{ phoneNumber: '4142020792' }] },
  { firstName: 'Grace', lastName: 'Hopper', dateOfBirth: '1906-12-09', addresses: [{ zipOrPostalCode: '20009', addressLine1: '1 Main St' }] },
  { emails: [{ email: 'shared@example.org' }] },
];

type Op =
  | { kind: 'findOrCreate' | 'find'; scope: number; person: number; crmIdFrom: number | null; pick: number; dwid: number | null }
  | { kind: 'get'; scope: number; crmIdFrom: number; pick: number }
  | { kind: 'getExt'; scope: number; dwid: number };

const scopeIdx = fc.integer({ min: 0, max: 3 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('findOrCreate' as const, 'find' as const),
    scope: scopeIdx,
    person: fc.integer({ min: 0, max: PEOPLE.length - 1 }),
    crmIdFrom: fc.option(scopeIdx, { nil: null }),
    pick: fc.nat(),
    dwid: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
  }),
  fc.record({ kind: fc.constant('get' as const), scope: scopeIdx, crmIdFrom: scopeIdx, pick: fc.nat() }),
  fc.record({ kind: fc.constant('getExt' as const), scope: scopeIdx, dwid: fc.integer({ min: 0, max: 3 }) }),
);

describe('isolation of tenants and contexts', () => {
  it("no operation reads or changes another tenant's or context's people", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), async (ops) => {
        const crm = await Crm.open({ db: ':memory:' });
        try {
          const t1 = await crm.createTenant('one');
          const t2 = await crm.createTenant('two');
          const scopes: CallContext[] = [
            { tenantId: t1.id, context: 'voterfile' },
            { tenantId: t1.id, context: 'campaign' },
            { tenantId: t2.id, context: 'voterfile' },
            { tenantId: t2.id, context: 'campaign' },
          ];
          const owned: number[][] = [[], [], [], []];
          const ownerOf = (id: number): number => owned.findIndex((ids) => ids.includes(id));
          const pickId = (from: number, pick: number): number => {
            const ids = owned[from] ?? [];
            return ids.length === 0 ? 1 + (pick % 50) : (ids[pick % ids.length] as number);
          };
          for (const o of ops) {
            const ctx = scopes[o.scope] as CallContext;
            if (o.kind === 'find' || o.kind === 'findOrCreate') {
              const body: Record<string, unknown> = { ...PEOPLE[o.person], nickname: `scope-${o.scope}` };
              if (o.crmIdFrom !== null) body['crmId'] = pickId(o.crmIdFrom, o.pick);
              if (o.dwid !== null) body['identifiers'] = [{ type: 'dwid', externalId: `D${o.dwid}` }];
              const r = o.kind === 'find' ? await crm.find(ctx, body) : await crm.findOrCreate(ctx, body);
              if (r.status === 'UnmatchedStored' && r.crmId !== null) {
                expect(ownerOf(r.crmId)).toBe(-1);
                owned[o.scope]?.push(r.crmId);
              } else if (r.status === 'Matched') {
                expect(ownerOf(r.crmId ?? -1)).toBe(o.scope);
              } else expect(r.crmId).toBeNull();
            } else if (o.kind === 'get') {
              const id = pickId(o.crmIdFrom, o.pick);
              const p = await crm.getPerson(ctx, id, ALL);
              expect(p !== null).toBe(ownerOf(id) === o.scope);
              if (p !== null) expect(p['nickname']).toBe(`scope-${o.scope}`);
            } else {
              const p = await crm.getPersonByExternalId(ctx, 'DWID', `d${o.dwid}`, ALL);
              if (p !== null) expect(ownerOf(p.crmId)).toBe(o.scope);
            }
          }
          // Nothing of another scope was written into a record: every person carries its own marker.
          for (let s = 0; s < 4; s++) {
            for (const id of owned[s] ?? []) {
              expect((await crm.getPerson(scopes[s] as CallContext, id, ALL))?.['nickname']).toBe(`scope-${s}`);
            }
          }
          const listed = await crm.listTenants();
          expect(listed.map((t) => [t.people.voterfile, t.people.campaign])).toEqual([
            [owned[0]?.length, owned[1]?.length],
            [owned[2]?.length, owned[3]?.length],
          ]);
        } finally {
          await crm.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});

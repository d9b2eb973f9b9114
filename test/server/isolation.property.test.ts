/**
 * Property: through HTTP, no key ever reads or changes another tenant's data, or data of a
 * context it has no access to. Random sequences of creates, finds, GETs (by id and external
 * id) and crmId-in-body "steal" attempts by several keys are checked against a model of who
 * owns each record.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { basic, envelopeOf, openTestServer, type TestServer } from './helpers.js';

// Spawns processes / runs many requests: slow on a loaded 2-core machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

type ContextName = 'voterfile' | 'campaign';
interface Principal {
  readonly key: string;
  readonly tenant: string;
  readonly contexts: readonly ContextName[];
  readonly defaultContext: ContextName;
}
interface RecordModel {
  readonly crmId: number;
  readonly scope: string;
  readonly person: number;
  /** The voter-file record a campaign record's votercrmid names, or null. */
  readonly voterId: number | null;
  /** A legitimate (same-scope) steal rewrote this record. */
  tainted: boolean;
}

const PEOPLE = [
  { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org' },
  { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.org' },
  { firstName: 'Alan', lastName: 'Turing', email: 'alan@example.org' },
  { firstName: 'Katherine', lastName: 'Johnson', email: 'kj@example.org' },
  { firstName: 'Edsger', lastName: 'Dijkstra', email: 'ewd@example.org' },
  { firstName: 'Barbara', lastName: 'Liskov', email: 'bl@example.org' },
];
/**
 * A person's body; in the campaign context it also carries a votercrmid (campaign-only type)
 * naming `voterId`, a voter-file record of the same tenant (a votercrmid naming none is a 400).
 */
const personBody = (i: number, context: ContextName, voterId: number | null) => {
  const p = PEOPLE[i % PEOPLE.length]!;
  const identifiers = [{ type: 'dwid', externalId: `DW-${i % PEOPLE.length}` }];
  if (context === 'campaign' && voterId !== null) identifiers.push({ type: 'votercrmid', externalId: String(voterId) });
  return { firstName: p.firstName, lastName: p.lastName, emails: [{ email: p.email }], identifiers };
};
const MALLORY = { firstName: 'Mallory', lastName: 'Intruder', emails: [{ email: 'mallory@evil.example' }] };

const SUFFIXES = ['', '|0', '|1'] as const;
const SUFFIX_CONTEXT: Record<string, ContextName | null> = { '': null, '|0': 'voterfile', '|1': 'campaign' };

const opArb = fc.oneof(
  fc.record({
    op: fc.constantFrom('create' as const, 'contacts' as const, 'find' as const),
    who: fc.nat(),
    suffix: fc.constantFrom(...SUFFIXES),
    person: fc.nat(),
  }),
  fc.record({
    op: fc.constantFrom('get' as const, 'getExt' as const, 'getVoter' as const, 'steal' as const),
    who: fc.nat(),
    suffix: fc.constantFrom(...SUFFIXES),
    target: fc.nat(),
  }),
);

let t: TestServer;
let run = 0;
beforeAll(async () => {
  t = await openTestServer();
});
afterAll(async () => {
  await t.close();
});

async function makePrincipals(): Promise<Principal[]> {
  run++;
  const specs: { tenant: string; contexts: ContextName[]; defaultContext: ContextName }[] = [
    { tenant: `a${run}`, contexts: ['voterfile', 'campaign'], defaultContext: 'campaign' },
    { tenant: `a${run}`, contexts: ['voterfile'], defaultContext: 'voterfile' },
    { tenant: `b${run}`, contexts: ['voterfile', 'campaign'], defaultContext: 'voterfile' },
    { tenant: `c${run}`, contexts: ['campaign'], defaultContext: 'campaign' },
  ];
  const principals: Principal[] = [];
  for (const spec of specs) {
    if (!principals.some((p) => p.tenant === spec.tenant)) await t.crm.createTenant(spec.tenant);
    const { key } = await t.crm.createKey({ tenant: spec.tenant, tier: 'Internal', contexts: spec.contexts, defaultContext: spec.defaultContext });
    principals.push({ key, ...spec });
  }
  return principals;
}

it('no key reads or changes data outside its tenant and contexts', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
      const principals = await makePrincipals();
      const records: RecordModel[] = [];
      for (const o of ops) {
        const who = principals[o.who % principals.length]!;
        const wanted = SUFFIX_CONTEXT[o.suffix] ?? who.defaultContext;
        const scope = `${who.tenant}/${wanted}`;
        const headers = o.who % 2 === 0 ? { authorization: basic('apiuser', who.key + o.suffix) } : { apiKey: who.key + o.suffix };
        const target = 'target' in o && records.length > 0 ? records[o.target % records.length]! : null;
        let res;
        let voterId: number | null = null;
        if (o.op === 'get' || o.op === 'getExt' || o.op === 'getVoter') {
          if (target === null) continue;
          const ref = o.op === 'get' ? String(target.crmId) : o.op === 'getExt' ? `DWID:dw-${target.person % PEOPLE.length}` : `VoterCrmId:${target.crmId}`;
          res = await t.app.inject({ method: 'GET', url: `/v4/people/${ref}`, headers });
        } else {
          // The votercrmid of a campaign body: a voter-file record of the caller's tenant, when there is one.
          voterId = records.find((r) => r.scope === `${who.tenant}/voterfile`)?.crmId ?? null;
          const body = 'person' in o ? personBody(o.person, wanted, voterId) : target === null ? null : { crmId: target.crmId, ...MALLORY };
          if (body === null) continue;
          const path = o.op === 'find' ? '/v2/people/find' : o.op === 'contacts' ? '/v4/contacts/findOrCreate' : '/v4/people/findOrCreate';
          res = await t.app.inject({ method: 'POST', url: path, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
        }

        if (!who.contexts.includes(wanted)) {
          expect(res.statusCode, `${o.op} by a key without ${wanted}`).toBe(401);
          expect(envelopeOf(res)?.errors[0]?.text).toBe('Invalid Database Mode');
          continue;
        }
        expect(res.statusCode, `${o.op}: ${res.body}`).toBeLessThan(500);

        if (o.op === 'get') {
          const own = target!.scope === scope;
          expect(res.statusCode, `GET ${target!.crmId} of ${target!.scope} from ${scope}`).toBe(own ? 200 : 404);
          if (!own) expect(envelopeOf(res)?.errors[0]?.code).toBe('NOT_FOUND');
        } else if (o.op === 'getExt' || o.op === 'getVoter') {
          // votercrmid identifiers exist only on campaign records, naming voter-file records.
          const existsHere =
            o.op === 'getExt'
              ? records.some((r) => r.scope === scope && r.person >= 0 && r.person % PEOPLE.length === target!.person % PEOPLE.length && !r.tainted)
              : wanted === 'campaign' && records.some((r) => r.scope === scope && r.voterId === target!.crmId && !r.tainted);
          if (res.statusCode === 200) {
            const crmId = res.json<{ crmId: number }>().crmId;
            expect(records.find((r) => r.crmId === crmId)?.scope, 'external id resolved outside the scope').toBe(scope);
          } else {
            expect(res.statusCode).toBe(404);
            expect(existsHere, 'an own record by external id was not found').toBe(false);
          }
        } else {
          const body = res.json<{ crmId: number | null; status: string }>();
          if (body.status === 'Matched') {
            const owner = records.find((r) => r.crmId === body.crmId);
            expect(owner?.scope, `${o.op} matched crmId ${body.crmId} outside ${scope}`).toBe(scope);
            if (o.op === 'steal' && owner !== undefined) owner.tainted = true;
          } else if (body.status === 'UnmatchedStored') {
            expect(o.op).not.toBe('find');
            expect(
              records.some((r) => r.crmId === body.crmId),
              'a create returned an existing crmId',
            ).toBe(false);
            records.push({
              crmId: body.crmId!,
              scope,
              person: 'person' in o ? o.person : -1,
              voterId: 'person' in o && wanted === 'campaign' ? voterId : null,
              tainted: o.op === 'steal',
            });
          } else {
            expect(body.status).toBe('Unmatched');
          }
          if (o.op === 'steal' && target !== null && target.scope !== scope) {
            expect(body.crmId, 'a crmId in the body reached another scope').not.toBe(target.crmId);
          }
        }
      }
      // No record was changed from outside its scope: untainted records hold no trace of Mallory.
      for (const r of records) {
        if (r.tainted) continue;
        const [tenant, context] = r.scope.split('/') as [string, ContextName];
        const owner = principals.find((p) => p.tenant === tenant && p.contexts.includes(context))!;
        const suffix = context === 'voterfile' ? '|0' : '|1';
        const res = await t.app.inject({
          method: 'GET',
          url: `/v4/people/${r.crmId}?$expand=emails,phones,addresses,externalIds`,
          headers: { apiKey: owner.key + suffix },
        });
        expect(res.statusCode).toBe(200);
        expect(res.body.toLowerCase()).not.toContain('mallory');
      }
    }),
    { numRuns: 40 },
  );
});

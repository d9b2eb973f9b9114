/**
 * Property (issue 14 item 7): a pair decided `different` never matches again, across restarts
 * and processes. For any two people queued as a Possible pair and any request that fits both
 * (before the decision it is Matched to one of them), after `different`: the request is never
 * Matched to either, in the deciding process, in another process on the same PostgreSQL
 * database (its catch-up), and in a process started afterwards (SQLite: the same file opened
 * again); with in-memory indexes and with database retrieval. Each person's own data still
 * finds that person, never the other one, and findOrCreate of the request creates a third
 * person instead of writing onto either.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crm, type CallContext } from '../../src/crm/index.js';
import { HAVE_POSTGRES, startPostgres, type PgServer } from '../services.js';

const WHO = { keyId: 1, tenantName: 'review' };

/** Two people and requests: the older, the newer (same name and address, the other sex, another phone), one fitting both. */
interface Case {
  older: Record<string, unknown>;
  newer: Record<string, unknown>;
  fits: Record<string, unknown>;
}

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    name: fc.constantFrom(
      ['Katherine', 'Johnson'],
      ['Dorothy', 'Vaughan'],
      ['Mary', 'Jackson'],
      ['Grace', 'Hopper'],
      ['Alan', 'Turing'],
      ['Ada', 'Lovelace'],
      ['Chris', 'Lee'],
    ),
    area: fc.constantFrom('202', '414', '516', '312', '617'),
    exchange: fc.integer({ min: 200, max: 999 }),
    line: fc.integer({ min: 1000, max: 9998 }),
    house: fc.integer({ min: 1, max: 9999 }),
    street: fc.constantFrom('Main St', 'Oak Ave', 'Elm Rd', 'Cedar Ln'),
    zip: fc.constantFrom('20001', '53202', '11530', '60601'),
    sexes: fc.constantFrom(['F', 'M'], ['M', 'F']),
    withAddress: fc.boolean(),
  })
  .map((g) => {
    const [firstName, lastName] = g.name as [string, string];
    const address = { addressLine1: `${g.house} ${g.street}`, zipOrPostalCode: g.zip };
    const email = `${firstName}.${lastName}.${g.line}@example.org`.toLowerCase();
    const phoneOfNewer = `${g.area}${g.exchange}${g.line + 1}`;
    return {
      older: { firstName, lastName, sex: g.sexes[0], emails: [{ email }], phones: [{ phoneNumber: `${g.area}${g.exchange}${g.line}` }], addresses: [address] },
      newer: { firstName, lastName, sex: g.sexes[1], phones: [{ phoneNumber: phoneOfNewer }], addresses: [address] },
      fits: { firstName, lastName, emails: [{ email }], phones: [{ phoneNumber: phoneOfNewer }], ...(g.withAddress ? { addresses: [address] } : {}) },
    };
  });

/** Creates both people in `ctx` (the newer queued next to the older); answers the crmIds and the pair. */
async function queuePair(crm: Crm, ctx: CallContext, c: Case): Promise<{ older: number; newer: number; pair: number }> {
  const older = await crm.findOrCreate(ctx, c.older);
  const newer = await crm.findOrCreate(ctx, c.newer);
  expect(newer).toMatchObject({ status: 'UnmatchedStored', explanation: { nearest: { crmId: older.crmId } } });
  const queued = await crm.listPossibleMatches(ctx, 'open', new Set(), 0, 2);
  expect(queued.items.map((p) => [p.crmId, p.candidateCrmId])).toEqual([[newer.crmId, older.crmId]]);
  return { older: older.crmId as number, newer: newer.crmId as number, pair: queued.items[0]!.possibleMatchId };
}

/** What must hold in any process once the pair is decided different. */
async function neverMatched(crm: Crm, ctx: CallContext, c: Case, ids: { older: number; newer: number }, where: string): Promise<void> {
  const found = await crm.find(ctx, c.fits);
  expect(found.status, `${where}: ${JSON.stringify(found)}`).toBe('Unmatched');
  expect([ids.older, ids.newer], where).toContain(found.explanation.nearest?.crmId);
  expect(found.reasonText, where).toContain('not the same person');
  expect(await crm.find(ctx, c.older), where).toMatchObject({ status: 'Matched', crmId: ids.older });
  expect(await crm.find(ctx, c.newer), where).toMatchObject({ status: 'Matched', crmId: ids.newer });
}

/** findOrCreate of the fitting request creates a third person; neither of the two changes. */
async function createsAThird(crm: Crm, ctx: CallContext, c: Case, ids: { older: number; newer: number }): Promise<void> {
  const before = [await crm.store.getPerson(ctx, ids.older), await crm.store.getPerson(ctx, ids.newer)];
  const created = await crm.findOrCreate(ctx, c.fits);
  expect(created.status).toBe('UnmatchedStored');
  expect([ids.older, ids.newer]).not.toContain(created.crmId);
  expect([await crm.store.getPerson(ctx, ids.older), await crm.store.getPerson(ctx, ids.newer)]).toEqual(before);
}

describe('a different pair never matches again, across restarts (SQLite file)', () => {
  it('for any pair and any request fitting both: never Matched to either, before and after the file is opened again', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const dir = mkdtempSync(join(tmpdir(), 'matchbook-different-'));
        const db = join(dir, 'db.sqlite');
        let crm = await Crm.open({ db });
        try {
          const ctx: CallContext = { tenantId: (await crm.createTenant('review')).id, context: 'voterfile' };
          const ids = await queuePair(crm, ctx, c);
          const before = await crm.find(ctx, c.fits);
          expect(before.status, JSON.stringify(before)).toBe('Matched'); // not vacuous: it fits one of them
          await crm.decidePossibleMatch(ctx, WHO, ids.pair, { decision: 'different' });
          await neverMatched(crm, ctx, c, ids, 'deciding process');
          await crm.close();
          crm = await Crm.open({ db });
          await neverMatched(crm, ctx, c, ids, 'after a restart');
          await createsAThird(crm, ctx, c, ids);
        } finally {
          await crm.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 10 },
    );
  });
});

let server: PgServer | null = null;
describe.skipIf(!HAVE_POSTGRES)('a different pair never matches again, across processes (PostgreSQL)', () => {
  // One database per index mode (every process on a database uses the same, README), each
  // with two processes that stay open; a third starts after each decision.
  const modes = {
    memory: { url: '', one: null as Crm | null, two: null as Crm | null },
    database: { url: '', one: null as Crm | null, two: null as Crm | null },
  };
  let tenants = 0;
  beforeAll(async () => {
    server = await startPostgres();
    for (const [mode, m] of Object.entries(modes)) {
      m.url = await server.createDatabase();
      const index = mode === 'database' ? { index: 'database' as const } : {};
      m.one = await Crm.open({ db: m.url, ...index });
      m.two = await Crm.open({ db: m.url, ...index });
    }
  });
  afterAll(async () => {
    for (const m of Object.values(modes)) {
      await m.one?.close();
      await m.two?.close();
    }
    server?.stop();
  });

  it('for any pair, request and index mode: never Matched to either, in the deciding process, another one, and one started after', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, fc.constantFrom<'memory' | 'database'>('memory', 'database'), async (c, mode) => {
        const m = modes[mode];
        const one = m.one as Crm;
        const two = m.two as Crm;
        const ctx: CallContext = { tenantId: (await one.createTenant(`review-${++tenants}`)).id, context: 'campaign' };
        const ids = await queuePair(one, ctx, c);
        const before = await two.find(ctx, c.fits);
        expect(before.status, JSON.stringify(before)).toBe('Matched');
        await one.decidePossibleMatch(ctx, WHO, ids.pair, { decision: 'different' });
        await neverMatched(one, ctx, c, ids, `${mode}: deciding process`);
        await neverMatched(two, ctx, c, ids, `${mode}: another process`);
        const late = await Crm.open({ db: m.url, ...(mode === 'database' ? { index: 'database' as const } : {}) });
        try {
          await neverMatched(late, ctx, c, ids, `${mode}: a process started after`);
          await createsAThird(late, ctx, c, ids);
        } finally {
          await late.close();
        }
      }),
      { numRuns: 8 },
    );
  });
});

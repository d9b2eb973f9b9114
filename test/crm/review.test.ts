/**
 * The review queue of Possible matches in the CRM (src/crm/review.ts): pairs recorded by
 * findOrCreate, merge (`same`) and `different`, the audit log, and a different pair never
 * matching again after a restart (SQLite file) and across processes (PostgreSQL).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Crm, CrmError, EXPANDABLE, copySqliteToPg, type CallContext } from '../../src/crm/index.js';
import { HAVE_POSTGRES, startPostgres, type PgServer } from '../services.js';
import { BOTH, KATHERINE, NEAR, OTHER_SEX, makePair } from './review-fixtures.js';

const ALL = new Set(EXPANDABLE);
const WHO = { keyId: 1, tenantName: 'acme' };

describe('review queue (SQLite)', () => {
  let crm: Crm;
  let vf: CallContext;
  let clock = 0;
  beforeEach(async () => {
    clock = Date.UTC(2024, 0, 1);
    crm = await Crm.open({ db: ':memory:', now: () => new Date((clock += 1000)) });
    const t = await crm.createTenant('acme');
    vf = { tenantId: t.id, context: 'voterfile' };
  });
  afterEach(async () => crm.close());

  it('findOrCreate next to a Possible records the pair with its score and explanation; a match or a stranger records none', async () => {
    const { id, older, newer, outcome } = await makePair(crm, vf);
    const pair = await crm.getPossibleMatch(vf, id, new Set(['phones']));
    expect(pair).toMatchObject({ status: 'open', crmId: newer, candidateCrmId: older, score: outcome.explanation.nearest?.score, decidedAt: null, audit: [] });
    expect(pair?.person).toMatchObject({ crmId: newer, phones: [{ phoneNumber: '2024291001' }] });
    expect(pair?.candidate).toMatchObject({ crmId: older, emails: null });
    expect(pair?.explanation).toMatchObject({ reason: 'below-threshold', gates: expect.any(Array) as unknown[] });
    expect(pair?.explanation.fields.length).toBeGreaterThan(0);
    await crm.findOrCreate(vf, KATHERINE); // matched: nothing to review
    await crm.findOrCreate(vf, { firstName: 'Alan', lastName: 'Turing', emails: [{ email: 'alan@example.org' }] });
    expect((await crm.listPossibleMatches(vf, 'all', new Set(), 0, 10)).count).toBe(1);
    // The other context of the tenant sees nothing.
    expect((await crm.listPossibleMatches({ ...vf, context: 'campaign' }, 'all', new Set(), 0, 10)).count).toBe(0);
    expect(await crm.getPossibleMatch({ ...vf, context: 'campaign' }, id, new Set())).toBeNull();
  });

  it('same: the newer merges into the older (contacts appended once, older scalars kept, identifiers and canvass history moved); the old id answers with the survivor', async () => {
    const { id, older, newer } = await makePair(crm, vf);
    expect(await crm.addCanvassResponse(vf, { kind: 'crmId', crmId: newer }, { canvassContext: { contactTypeId: 1, inputTypeId: 11 }, resultCodeId: 1 })).toBe(
      true,
    );
    const before = crm.indexSizes().find((s) => s.context === 'voterfile')?.people;
    const decided = await crm.decidePossibleMatch(vf, WHO, id, { decision: 'same' });
    expect(decided).toMatchObject({
      status: 'same',
      survivorCrmId: older,
      decidedByKeyId: 1,
      audit: [{ action: 'same', keyId: 1, by: 'key 1 (acme)', detail: { survivorCrmId: older, mergedCrmId: newer } }],
    });
    expect(decided?.audit[0]?.at).toMatch(/^2024-01-01T/);
    expect(await crm.getPerson(vf, newer, ALL)).toBeNull();
    expect(await crm.mergedInto(vf, newer)).toBe(older);
    expect(await crm.mergedInto(vf, older)).toBeNull();
    expect(await crm.mergedInto({ ...vf, context: 'campaign' }, newer)).toBeNull();
    const survivor = await crm.getPerson(vf, older, ALL);
    expect((survivor?.['phones'] as { phoneNumber: string }[]).map((p) => p.phoneNumber)).toEqual(['2024291000', '2024291001']);
    expect((survivor?.['emails'] as { email: string }[]).map((e) => e.email)).toEqual(['kj@example.org']);
    expect((await crm.store.getPerson(vf, older))?.addresses.map((a) => a.addressLine1)).toEqual(['12 Main St', '40 Oak Ave']);
    // The older's address stays the best of its type.
    expect((survivor?.['addresses'] as { addressLine1: string; isBest: boolean }[]).filter((a) => a.isBest).map((a) => a.addressLine1)).toContain('12 Main St');
    expect(survivor?.['sex']).toBe('F'); // the older had none
    expect((await crm.getPersonByExternalId(vf, 'dwid', 'K-2', new Set()))?.['crmId']).toBe(older);
    expect((await crm.listCanvassResponses(vf, { kind: 'crmId', crmId: older }, 0, 10))?.count).toBe(1);
    expect(crm.indexSizes().find((s) => s.context === 'voterfile')?.people).toBe((before ?? 0) - 1);
    // The newer's data now finds the survivor.
    expect(await crm.find(vf, NEAR)).toMatchObject({ status: 'Matched', crmId: older });
    // Deciding it again: the same decision answers unchanged, another one is a conflict naming `decision`.
    expect((await crm.decidePossibleMatch(vf, WHO, id, { decision: 'same' }))?.audit).toHaveLength(1);
    await expect(crm.decidePossibleMatch(vf, WHO, id, { decision: 'different' })).rejects.toMatchObject({
      code: 'CONFLICT',
      issues: [{ property: 'decision' }],
    });
  });

  it('different: a request fitting both people is never matched to either; each one alone still matches', async () => {
    const { id, older, newer } = await makePair(crm, vf);
    const fits = await crm.find(vf, BOTH);
    expect(fits.status).toBe('Matched'); // before the decision it goes to one of them
    const decided = await crm.decidePossibleMatch(vf, WHO, id, { decision: 'different' });
    expect(decided).toMatchObject({ status: 'different', survivorCrmId: null, audit: [{ action: 'different', keyId: 1 }] });
    expect(await crm.find(vf, BOTH)).toMatchObject({ status: 'Unmatched', reason: 'below-threshold', explanation: { nearest: { crmId: fits.crmId } } });
    expect(await crm.find(vf, KATHERINE)).toMatchObject({ status: 'Matched', crmId: older });
    expect(await crm.find(vf, NEAR)).toMatchObject({ status: 'Matched', crmId: newer });
    // findOrCreate creates a third person instead, queued next to the one it was nearest.
    const created = await crm.findOrCreate(vf, BOTH);
    expect(created.status).toBe('UnmatchedStored');
    expect((await crm.listPossibleMatches(vf, 'open', new Set(), 0, 10)).items[0]).toMatchObject({ crmId: created.crmId, candidateCrmId: fits.crmId });
  });

  it('bad input: an unknown decision or status names the field; an unknown id is null', async () => {
    const { id } = await makePair(crm, vf);
    for (const body of [{}, { decision: 'maybe' }, null, [1], { decision: 3 }]) {
      const error = await crm.decidePossibleMatch(vf, WHO, id, body).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CrmError);
      expect(error).toMatchObject({ status: 400, issues: [{ property: 'decision' }] });
    }
    await expect(crm.listPossibleMatches(vf, 'pending', new Set(), 0, 10)).rejects.toMatchObject({ status: 400, issues: [{ property: 'status' }] });
    await expect(crm.listPossibleMatches(vf, 'open', new Set(['nope']), 0, 10)).rejects.toMatchObject({ status: 400, issues: [{ property: '$expand' }] });
    expect(await crm.decidePossibleMatch(vf, WHO, id + 100, { decision: 'same' })).toBeNull();
    expect(await crm.getPossibleMatch(vf, 0, new Set())).toBeNull();
    expect(await crm.getPossibleMatch(vf, id, new Set())).toMatchObject({ status: 'open' });
  });
});

describe('a different pair never matches again across a restart (SQLite file)', () => {
  it('a new Crm on the same file loads the decision', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'matchbook-review-'));
    const db = join(dir, 'db.sqlite');
    try {
      let crm = await Crm.open({ db });
      const vf: CallContext = { tenantId: (await crm.createTenant('acme')).id, context: 'voterfile' };
      const { id } = await makePair(crm, vf);
      expect((await crm.find(vf, BOTH)).status).toBe('Matched');
      await crm.decidePossibleMatch(vf, WHO, id, { decision: 'different' });
      await crm.close();
      crm = await Crm.open({ db });
      expect(await crm.find(vf, BOTH)).toMatchObject({ status: 'Unmatched', reason: 'below-threshold' });
      expect((await crm.getPossibleMatch(vf, id, new Set()))?.audit).toHaveLength(1);
      await crm.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a different decision outlives a merge (SQLite file)', () => {
  it('the person merged into another passes its decisions to the survivor, also after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'matchbook-review-'));
    const db = join(dir, 'db.sqlite');
    try {
      let crm = await Crm.open({ db });
      const vf: CallContext = { tenantId: (await crm.createTenant('acme')).id, context: 'voterfile' };
      const { id: nearPair, older, newer } = await makePair(crm, vf);
      // A third person near the newer one (the other sex: at most Possible), queued next to it.
      const third = await crm.findOrCreate(vf, OTHER_SEX);
      expect(third).toMatchObject({ status: 'UnmatchedStored', explanation: { nearest: { crmId: newer } } });
      const thirdPair = (await crm.listPossibleMatches(vf, 'open', new Set(), 0, 1)).items[0]!;
      expect(thirdPair).toMatchObject({ crmId: third.crmId, candidateCrmId: newer, explanation: { heldBack: 'sexes differ: at most a possible match' } });
      expect(thirdPair.explanation.reasonText).toBe(third.reasonText);
      await crm.decidePossibleMatch(vf, WHO, thirdPair.possibleMatchId, { decision: 'different' });
      // The newer one is the older one: merged, the survivor is not the third person either.
      await crm.decidePossibleMatch(vf, WHO, nearPair, { decision: 'same' });
      for (let restart = 0; restart < 2; restart++) {
        expect(await crm.find(vf, BOTH), `restart ${restart}`).toMatchObject({
          status: 'Unmatched',
          reasonText: expect.stringContaining(`not the same person as crmId`) as string,
        });
        expect(await crm.find(vf, OTHER_SEX)).toMatchObject({ status: 'Matched', crmId: third.crmId });
        expect(await crm.find(vf, KATHERINE)).toMatchObject({ status: 'Matched', crmId: older });
        await crm.close();
        crm = await Crm.open({ db });
      }
      await crm.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

let server: PgServer | null = null;
describe.skipIf(!HAVE_POSTGRES)('review queue across processes (PostgreSQL)', () => {
  afterAll(() => server?.stop());

  it('a different decision and a merge made by one process reach the other process', async () => {
    const url = await (server ??= await startPostgres()).createDatabase();
    const one = await Crm.open({ db: url });
    const vf: CallContext = { tenantId: (await one.createTenant('acme')).id, context: 'voterfile' };
    const two = await Crm.open({ db: url });
    try {
      const { id, older, newer } = await makePair(one, vf);
      expect((await two.find(vf, BOTH)).status).toBe('Matched');
      await one.decidePossibleMatch(vf, WHO, id, { decision: 'different' });
      expect(await two.find(vf, BOTH)).toMatchObject({ status: 'Unmatched', reason: 'below-threshold' });
      // A merge by the second process: the first drops the merged person from its index.
      const THIRD = { firstName: 'Katherine', lastName: 'Johnson', phones: [{ phoneNumber: '2024291002' }] };
      const third = await two.findOrCreate(vf, THIRD);
      expect(third.status).toBe('UnmatchedStored');
      const pairs = await two.listPossibleMatches(vf, 'open', new Set(), 0, 10);
      const next = pairs.items.find((p) => p.crmId === third.crmId);
      if (next === undefined) throw new Error(`no pair for ${third.crmId}: ${JSON.stringify(pairs.items.map((p) => [p.crmId, p.candidateCrmId]))}`);
      expect([older, newer]).toContain(next.candidateCrmId);
      await two.decidePossibleMatch(vf, { keyId: 2, tenantName: 'acme' }, next.possibleMatchId, { decision: 'same' });
      const survivor = Math.min(next.candidateCrmId, third.crmId as number);
      expect(await one.find(vf, THIRD)).toMatchObject({ status: 'Matched', crmId: survivor });
      expect(await one.mergedInto(vf, third.crmId as number)).toBe(survivor);
      expect(one.indexSizes().find((s) => s.context === 'voterfile')?.people).toBe(2);
    } finally {
      await two.close();
      await one.close();
    }
  });

  for (const mode of ['memory', 'database'] as const) {
    it(`${mode} index: a decision outlives a merge in another process too; the merged person's blocking keys and name counts go`, async () => {
      const url = await (server ??= await startPostgres()).createDatabase();
      const options = mode === 'database' ? { db: url, index: 'database' as const } : { db: url };
      const one = await Crm.open(options);
      const vf: CallContext = { tenantId: (await one.createTenant('acme')).id, context: 'voterfile' };
      const two = await Crm.open(options);
      const sql = new pg.Client({ connectionString: url });
      await sql.connect();
      try {
        const { id: nearPair, older, newer } = await makePair(one, vf);
        const third = await one.findOrCreate(vf, OTHER_SEX);
        const thirdPair = (await one.listPossibleMatches(vf, 'open', new Set(), 0, 1)).items[0]!;
        expect(thirdPair).toMatchObject({ crmId: third.crmId, candidateCrmId: newer });
        expect(await two.find(vf, BOTH)).toMatchObject({ status: 'Matched', crmId: older });
        await one.decidePossibleMatch(vf, WHO, thirdPair.possibleMatchId, { decision: 'different' });
        await one.decidePossibleMatch(vf, WHO, nearPair, { decision: 'same' });
        for (const crm of [one, two]) {
          expect(await crm.find(vf, BOTH)).toMatchObject({
            status: 'Unmatched',
            reasonText: expect.stringContaining(`not the same person as crmId ${third.crmId}`) as string,
          });
          expect(await crm.find(vf, NEAR)).toMatchObject({ status: 'Matched', crmId: older });
        }
        const keys = await sql.query(
          'SELECT (SELECT COUNT(*) FROM match_keys WHERE crm_id = $1)::int AS merged, (SELECT COUNT(*) FROM match_key_owners WHERE crm_id = $1)::int AS owners, (SELECT SUM(n) FROM match_name_counts WHERE kind = 0)::int AS people',
          [newer],
        );
        // Database retrieval files keys (the merged person's are gone, 2 people counted); in-memory processes file none.
        expect(keys.rows[0]).toEqual(mode === 'database' ? { merged: 0, owners: 0, people: 2 } : { merged: 0, owners: 0, people: null });
      } finally {
        await sql.end();
        await two.close();
        await one.close();
      }
    });
  }

  it('copySqliteToPg carries the queue: decisions, merges (numbered for the catch-up) and the audit log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'matchbook-review-copy-'));
    try {
      const file = join(dir, 'db.sqlite');
      const lite = await Crm.open({ db: file });
      const vf: CallContext = { tenantId: (await lite.createTenant('acme')).id, context: 'voterfile' };
      const { id } = await makePair(lite, vf);
      await lite.decidePossibleMatch(vf, WHO, id, { decision: 'different' });
      const THIRD = { firstName: 'Katherine', lastName: 'Johnson', phones: [{ phoneNumber: '2024291002' }] };
      const third = await lite.findOrCreate(vf, THIRD);
      const next = (await lite.listPossibleMatches(vf, 'open', new Set(), 0, 1)).items[0]!;
      await lite.decidePossibleMatch(vf, WHO, next.possibleMatchId, { decision: 'same' });
      await lite.close();
      const url = await (server ??= await startPostgres()).createDatabase();
      expect(await copySqliteToPg(file, url)).toMatchObject({ possible_matches: 2, person_merges: 1, review_audit: 2 });
      const pg = await Crm.open({ db: url });
      try {
        expect(await pg.find(vf, BOTH)).toMatchObject({ status: 'Unmatched', reason: 'below-threshold' });
        expect(await pg.mergedInto(vf, third.crmId as number)).toBe(Math.min(next.candidateCrmId, third.crmId as number));
        expect((await pg.getPossibleMatch(vf, id, new Set()))?.audit).toHaveLength(1);
        const more = await pg.findOrCreate(vf, { firstName: 'Katherine', lastName: 'Johnson', phones: [{ phoneNumber: '2024291005' }] });
        expect(more.status).toBe('UnmatchedStored');
        expect((await pg.listPossibleMatches(vf, 'all', new Set(), 0, 1)).items[0]).toMatchObject({ possibleMatchId: 3, crmId: more.crmId });
      } finally {
        await pg.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

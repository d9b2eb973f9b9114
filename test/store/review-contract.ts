/**
 * The review queue part of the Store contract (src/store/review-types.ts), run against every
 * adapter by review-store.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_CURSOR, type Scope, type ScopeWriter, type Store } from '../../src/store/index.js';
import { insert, insertCanvass, person, type StoreFixture } from './store-contract.js';

const AT = '2024-02-01T00:00:00Z';

/** Runs `fn` in a unit of its own, once durable. */
async function unit<T>(store: Store, scope: Scope, fn: (w: ScopeWriter) => Promise<T>): Promise<T> {
  const applied = await store.writeScope(scope, fn);
  await applied.durable;
  return applied.value;
}

const pair = (crmId: number, candidateCrmId: number, score = 12.5) => ({
  crmId,
  candidateCrmId,
  score,
  explanation: JSON.stringify({ reason: 'below-threshold', fields: [] }),
  createdAt: AT,
});

/** See the module comment. */
export function describeReviewContract(name: string, fixture: () => Promise<StoreFixture>): void {
  describe(`${name}: review queue`, () => {
    let fx: StoreFixture;
    let store: Store;
    let a: Scope;
    let b: Scope;
    let aCampaign: Scope;
    beforeEach(async () => {
      fx = await fixture();
      store = await fx.open();
      a = { tenantId: (await store.createTenant('a', 't')).id, context: 'voterfile' };
      b = { tenantId: (await store.createTenant('b', 't')).id, context: 'voterfile' };
      aCampaign = { tenantId: a.tenantId, context: 'campaign' };
    });
    afterEach(async () => {
      await store.close();
      await fx.dispose();
    });

    it('records a pair in the unit that creates the person; lists newest first, paged, by status, in its own scope only', async () => {
      const old = await insert(store, a, person());
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) {
        ids.push(
          await unit(store, a, async (w) => {
            const created = await w.insertPerson(person({ scalars: { ...person().scalars, firstName: `Ada${i}` } }));
            return w.insertPossibleMatch(pair(created.crmId, old.crmId, 10 + i));
          }),
        );
      }
      const listed = await store.listPossibleMatches(a, 'open', 0, 10);
      expect(listed.map((r) => r.id)).toEqual([...ids].reverse());
      expect(listed[0]).toMatchObject({ candidateCrmId: old.crmId, score: 12, status: 'open', decidedAt: null, decidedByKeyId: null, createdAt: AT });
      expect(JSON.parse(listed[0]?.explanation ?? '{}')).toMatchObject({ reason: 'below-threshold' });
      expect((await store.listPossibleMatches(a, null, 1, 1)).map((r) => r.id)).toEqual([ids[1]]);
      expect(await store.countPossibleMatches(a, null)).toBe(3);
      expect(await store.countPossibleMatches(a, 'same')).toBe(0);
      for (const other of [b, aCampaign]) {
        expect(await store.listPossibleMatches(other, null, 0, 10)).toEqual([]);
        expect(await store.countPossibleMatches(other, null)).toBe(0);
        expect(await store.getPossibleMatch(other, ids[0] as number)).toBeNull();
      }
      expect((await store.getPossibleMatch(a, ids[0] as number))?.crmId).toBe(listed[2]?.crmId);
    });

    it('a decision is stored once with its audit entry; different pairs are listed for index loads', async () => {
      const old = await insert(store, a, person());
      const young = await insert(store, a, person());
      const id = await unit(store, a, (w) => w.insertPossibleMatch(pair(young.crmId, old.crmId)));
      await unit(store, a, (w) => w.decidePossibleMatch({ id, status: 'different', decidedAt: AT, keyId: 7, actor: 'key 7 (a)', detail: '{"x":1}' }));
      expect(await store.getPossibleMatch(a, id)).toMatchObject({ status: 'different', decidedAt: AT, decidedByKeyId: 7 });
      await expect(
        unit(store, a, (w) => w.decidePossibleMatch({ id, status: 'same', decidedAt: AT, keyId: 7, actor: 'k', detail: '{}' })),
      ).rejects.toMatchObject({ code: 'CONFLICT' });
      // Another scope cannot decide it.
      await expect(
        unit(store, b, (w) => w.decidePossibleMatch({ id, status: 'same', decidedAt: AT, keyId: 7, actor: 'k', detail: '{}' })),
      ).rejects.toMatchObject({ code: 'CONFLICT' });
      expect(await store.listDifferentPairs(a)).toEqual([[young.crmId, old.crmId]]);
      expect(await store.listDifferentPairs(b)).toEqual([]);
      const audit = await store.listReviewAudit(a, id, 0, 10);
      expect(audit).toEqual([
        { id: expect.any(Number) as number, possibleMatchId: id, action: 'different', keyId: 7, actor: 'key 7 (a)', at: AT, detail: '{"x":1}' },
      ]);
      expect(await store.listReviewAudit(a, null, 0, 10)).toHaveLength(1);
      expect(await store.listReviewAudit(b, null, 0, 10)).toEqual([]);
    });

    it('a merge moves the canvass history, drops the merged identifiers and person, and answers with the survivor, through chains', async () => {
      const older = await insert(store, a, person({ identifiers: [{ type: 'dwid', externalId: 'OLD' }] }));
      const newer = await insert(store, a, person({ identifiers: [{ type: 'dwid', externalId: 'NEW' }] }));
      const third = await insert(store, a, person());
      await insertCanvass(store, a, { crmId: newer.crmId, canvassedAt: AT, createdAt: AT, json: '{"n":1}' });
      await insertCanvass(store, a, { crmId: older.crmId, canvassedAt: AT, createdAt: AT, json: '{"o":1}' });
      // The survivor is updated with the merged data first, in the same unit.
      await unit(store, a, async (w) => {
        await w.updatePerson({ ...older, identifiers: [...older.identifiers, ...newer.identifiers] });
        await w.mergePerson(newer.crmId, older.crmId, AT);
      });
      expect(await store.getPerson(a, newer.crmId)).toBeNull();
      expect(await store.getMerge(a, newer.crmId)).toEqual({ crmId: newer.crmId, survivorCrmId: older.crmId, mergedAt: AT });
      expect(await store.getMerge(b, newer.crmId)).toBeNull();
      expect(await store.getMerge(a, older.crmId)).toBeNull();
      expect(await store.findByIdentifier(a, 'dwid', 'new')).toEqual([older.crmId]);
      expect(await store.countCanvassResponses(a, older.crmId)).toBe(2);
      expect(await store.countCanvassResponses(a, newer.crmId)).toBe(0);
      // The survivor merged on: the first merge answers with the last survivor.
      await unit(store, a, (w) => w.mergePerson(older.crmId, third.crmId, AT));
      expect((await store.getMerge(a, newer.crmId))?.survivorCrmId).toBe(third.crmId);
      expect(await store.countCanvassResponses(a, third.crmId)).toBe(2);
      await expect(unit(store, b, (w) => w.mergePerson(third.crmId, older.crmId, AT))).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(await store.countPeople(a)).toBe(1);
    });

    it('several processes: a merge and a different decision reach the others in the change log, in order', async () => {
      if (!store.sharedByProcesses) {
        expect((await store.peopleChangedSince(a, NO_CURSOR, 10)).changes).toEqual([]);
        return;
      }
      const older = await insert(store, a, person());
      const newer = await insert(store, a, person());
      const start = await store.lastPeopleChange(a);
      const id = await unit(store, a, (w) => w.insertPossibleMatch(pair(newer.crmId, older.crmId)));
      await unit(store, a, (w) => w.decidePossibleMatch({ id, status: 'different', decidedAt: AT, keyId: 1, actor: 'k', detail: '{}' }));
      await unit(store, a, (w) => w.mergePerson(newer.crmId, older.crmId, AT));
      const read = await store.peopleChangedSince(a, start, 10);
      expect(read.changes.map((c) => [c.crmId, c.differentFrom ?? null, c.mergedInto ?? null])).toEqual([
        [newer.crmId, older.crmId, null],
        [newer.crmId, null, older.crmId],
      ]);
      expect(read.changes[0]!.seq).toBeLessThan(read.changes[1]!.seq);
      expect((await store.peopleChangedSince(b, start, 10)).changes).toEqual([]);
      // Read under the locks of a unit, too.
      const under = await store.writeScope(a, async (_w, c) => c, { changesAfter: start, locks: [1] });
      expect(under.value?.changes).toEqual(read.changes);
    });
  });
}

/**
 * The database retrieval part of the Store contract (src/store/match-key-types.ts), for an
 * adapter that has it (`store.matchKeys`): pg-store.test.ts runs it; SQLite has none
 * (sqlite-store.test.ts checks that it says so).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MatchKeyStore, PersonKeys, PersonRecord, Scope, Store } from '../../src/store/index.js';
import { insert, person, scalars, update, type StoreFixture } from './store-contract.js';

const keys = (hashes: number[], first: string | null = 'ada', last: string | null = 'lovelace'): PersonKeys => ({ hashes, first, last });
const norm = (k: PersonKeys, fingerprint = 5) => ({ fingerprint, json: JSON.stringify({ k: k.hashes }), keys: k });

export function describeMatchKeyContract(name: string, fixture: () => Promise<StoreFixture>): void {
  describe(`${name}: Store contract, database retrieval`, () => {
    let fx: StoreFixture;
    let store: Store;
    let mk: MatchKeyStore;
    let a: Scope;
    let b: Scope;
    beforeEach(async () => {
      fx = await fixture();
      store = await fx.open();
      if (store.matchKeys === null) throw new Error(`${name} has no database retrieval`);
      mk = store.matchKeys;
      a = { tenantId: (await store.createTenant('a', 't')).id, context: 'voterfile' };
      b = { tenantId: (await store.createTenant('b', 't')).id, context: 'voterfile' };
    });
    afterEach(async () => {
      await store.close();
      await fx.dispose();
    });

    const lookup = (scope: Scope, hashes: number[], perKey = 10, first: string | null = 'ada', last: string | null = 'lovelace') =>
      mk.lookupKeys(scope, { hashes, perKey, first, last });
    const ids = (entries: readonly { crmId: number }[] | undefined) => (entries ?? []).map((e) => e.crmId).sort((x, y) => x - y);

    it("files a person's keys and name counts with the person, per scope only", async () => {
      const p = await insert(store, a, person(), norm(keys([11, -22, 33])));
      const q = await insert(store, a, person(), norm(keys([11, 44], 'ada', 'byron')));
      await insert(store, b, person(), norm(keys([11])));
      await insert(store, { ...a, context: 'campaign' }, person(), norm(keys([11])));
      const r = await lookup(a, [11, -22, 99, 44]);
      expect(r.entries.map(ids)).toEqual([[p.crmId, q.crmId], [p.crmId], [], [q.crmId]]);
      expect(r).toMatchObject({ total: 2, firstCount: 2, lastCount: 1 });
      expect(await lookup(a, [11], 10, null, 'byron')).toMatchObject({ total: 2, firstCount: 0, lastCount: 1 });
      expect((await lookup(b, [11, -22])).entries.map((e) => e.length)).toEqual([1, 0]);
      // A person written without keys (an in-memory deployment) files none.
      await insert(store, a, person(), { fingerprint: 5, json: '{}' });
      expect((await lookup(a, [11])).total).toBe(2);
    });

    it('an update refiles: keys it lost are gone, kept and new ones most recent, name counts moved', async () => {
      const p = await insert(store, a, person(), norm(keys([1, 2, 3])));
      const q = await insert(store, a, person(), norm(keys([2, 3], 'ada', 'byron')));
      const before = await lookup(a, [2]);
      const seqOf = (r: typeof before, crmId: number, key = 0) => r.entries[key]?.find((e) => e.crmId === crmId)?.seq ?? -1;
      expect(seqOf(before, q.crmId)).toBeGreaterThan(seqOf(before, p.crmId));
      await update(store, a, p, norm(keys([2, 3, 4], 'augusta', 'lovelace')));
      const after = await lookup(a, [1, 2, 3, 4], 10, 'ada', 'lovelace');
      expect(after.entries.map(ids)).toEqual([[], [p.crmId, q.crmId], [p.crmId, q.crmId], [p.crmId]]);
      expect(seqOf(after, p.crmId, 1)).toBeGreaterThan(seqOf(after, q.crmId, 1));
      expect(after).toMatchObject({ total: 2, firstCount: 1, lastCount: 1 });
      expect(await mk.readKey(a, 2, 10)).toEqual([p.crmId, q.crmId]);
      // Unchanged names and keys: counts stay.
      await update(store, a, p, norm(keys([2, 3, 4], 'augusta', 'lovelace')));
      expect(await lookup(a, [4], 10, 'augusta', 'lovelace')).toMatchObject({ total: 2, firstCount: 1, lastCount: 1 });
    });

    it('reads at most perKey entries of a key; counts it exactly; reads it most recently filed first', async () => {
      const people: PersonRecord[] = [];
      for (let i = 0; i < 5; i++) people.push(await insert(store, a, person(), norm(keys([7, 100 + i]))));
      expect((await lookup(a, [7, 101], 3)).entries.map((e) => e.length)).toEqual([3, 1]);
      expect(await mk.countKeys(a, [7, 101, 999])).toEqual([5, 1, 0]);
      expect(await mk.countKeys(b, [7])).toEqual([0]);
      const newest = people.map((p) => p.crmId).reverse();
      expect(await mk.readKey(a, 7, 3)).toEqual(newest.slice(0, 3));
      // Updating the oldest files it again: it is read first now.
      await update(store, a, people[0] as PersonRecord, norm(keys([7, 100])));
      expect(await mk.readKey(a, 7, 2)).toEqual([people[0]?.crmId, people[4]?.crmId]);
    });

    it('loads candidates by crmId and by identifier (folded), with the normalization only when made by the fingerprint asked', async () => {
      const p = await insert(store, a, person({ identifiers: [{ type: 'DWID', externalId: 'AbC' }] }), norm(keys([1])));
      const org = await insert(store, a, person({ scalars: scalars({ contactMode: 'Organization' }) }), norm(keys([1]), 4));
      const other = await insert(store, b, person({ identifiers: [{ type: 'dwid', externalId: 'abc' }] }), norm(keys([1])));
      const rows = await mk.loadCandidates(a, [org.crmId, other.crmId], [{ type: ' dwid', value: 'ABC ' }], 5);
      expect(rows).toEqual([
        { crmId: p.crmId, json: JSON.stringify({ k: [1] }), organization: false },
        { crmId: org.crmId, json: null, organization: true },
      ]);
      expect(await mk.loadCandidates(a, [], [], 5)).toEqual([]);
    });

    it('a unit reads its own filing through writer.keys; a rolled-back unit files nothing', async () => {
      const seen = await store.writeScope(a, async (writer) => {
        await writer.insertPerson(person(), norm(keys([8])));
        return (await writer.keys?.lookupKeys(a, { hashes: [8], perKey: 5, first: 'ada', last: null }))?.total;
      });
      expect(seen.value).toBe(1);
      await seen.durable;
      await expect(
        store.writeScope(a, async (writer) => {
          await writer.insertPerson(person(), norm(keys([8, 9])));
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect((await lookup(a, [8, 9])).entries.map((e) => e.length)).toEqual([1, 0]);
      expect((await lookup(a, [8])).total).toBe(1);
    });

    it('a build files only people not filed yet; the scope records the fingerprint it was filed by; clearing forgets', async () => {
      const p = await insert(store, a, person(), { fingerprint: 5, json: '{}' });
      const q = await insert(store, a, person(), norm(keys([3, 4])));
      expect(await mk.keysFiledBy(a)).toBeNull();
      await mk.withBuildLock(a, async () => {
        await mk.fileMissing(a, [
          { crmId: p.crmId, keys: keys([3]) },
          { crmId: q.crmId, keys: keys([5]) },
        ]);
        await mk.keysComplete(a, 5);
      });
      expect((await lookup(a, [3, 4, 5])).entries.map(ids)).toEqual([[p.crmId, q.crmId], [q.crmId], []]);
      expect((await lookup(a, [3])).total).toBe(2);
      expect(await mk.keysFiledBy(a)).toBe(5);
      expect(await mk.keysFiledBy(b)).toBeNull();
      await mk.clearKeys(a);
      expect(await mk.keysFiledBy(a)).toBeNull();
      expect(await lookup(a, [3, 4])).toMatchObject({ total: 0, entries: [[], []] });
    });
  });
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertApplied, updateApplied } from './store-contract.js';
import { Crm } from '../../src/crm/index.js';
import { PERSON_SCALARS, SqliteStore, type ImportRowMark, type PersonRecord, type PersonScalars, type Scope } from '../../src/store/index.js';
import { sqliteStoreOf } from '../crm/fixtures.js';

function person(first: string): PersonRecord {
  return {
    crmId: 0,
    createdAt: 't',
    updatedAt: 't',
    scalars: { ...Object.fromEntries(PERSON_SCALARS.map((f) => [f, null])), firstName: first } as PersonScalars,
    selfReported: { races: [], ethnicities: [], genders: [], sexualOrientations: [], languagePreference: null },
    emails: [],
    phones: [],
    addresses: [],
    identifiers: [],
    customFieldValues: [],
    suppressions: [],
  };
}

/** Makes the next COMMIT of a store fail, as a full disk would. */
function failNextCommit(store: SqliteStore): void {
  const exec = store.db.exec.bind(store.db);
  let armed = true;
  store.db.exec = (sql: string) => {
    if (armed && sql === 'COMMIT') {
      armed = false;
      throw new Error('disk I/O error (injected)');
    }
    return exec(sql);
  };
}

/** Records, for each COMMIT, whether an fsync makes it durable (2, as SQLite's FULL) or not (1, as NORMAL). */
function recordCommitSync(store: SqliteStore): number[] {
  const seen: number[] = [];
  store.observeCommits((synced) => seen.push(synced ? 2 : 1));
  return seen;
}

describe('group commit', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'matchbook-gc-'));
    path = join(dir, 'db.sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const countOnDisk = (): number => {
    const other = new Database(path, { readonly: true });
    const n = Number(other.prepare('SELECT COUNT(*) FROM people').pluck().get());
    other.close();
    return n;
  };

  it('writes of one event-loop turn share one commit; durable means visible to another connection', async () => {
    const store = await SqliteStore.open({ path });
    const scope: Scope = { tenantId: (await store.createTenant('t', 'x')).id, context: 'voterfile' };
    const commitsBefore = store.stats.commits;
    const applied = await Promise.all(Array.from({ length: 10 }, (_, i) => insertApplied(store, scope, person(`p${i}`))));
    expect(new Set(applied.map((a) => a.value.crmId)).size).toBe(10);
    expect(countOnDisk()).toBe(0);
    await Promise.all(applied.map((a) => a.durable));
    expect(store.stats.commits - commitsBefore).toBe(1);
    expect(countOnDisk()).toBe(10);
    await store.close();
  });

  it('a write that fails inside a batch undoes only itself', async () => {
    const store = await SqliteStore.open({ path });
    const scope: Scope = { tenantId: (await store.createTenant('t', 'x')).id, context: 'voterfile' };
    const ok = await insertApplied(store, scope, person('a'));
    await expect(updateApplied(store, scope, { ...person('b'), crmId: 999 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await ok.durable;
    expect(countOnDisk()).toBe(1);
    await store.close();
  });

  it('a failed commit rejects durable and leaves the database as before', async () => {
    const store = await SqliteStore.open({ path });
    const scope: Scope = { tenantId: (await store.createTenant('t', 'x')).id, context: 'voterfile' };
    failNextCommit(store);
    const a = await insertApplied(store, scope, person('a'));
    await expect(a.durable).rejects.toThrow('injected');
    await expect(store.flush()).resolves.toBeUndefined();
    expect(await store.getPerson(scope, a.value.crmId)).toBeNull();
    const b = await insertApplied(store, scope, person('b'));
    await b.durable;
    expect(countOnDisk()).toBe(1);
    await store.close();
  });

  it('close commits what is pending', async () => {
    const store = await SqliteStore.open({ path });
    const scope: Scope = { tenantId: (await store.createTenant('t', 'x')).id, context: 'voterfile' };
    const applied = await insertApplied(store, scope, person('a'));
    await store.close();
    await applied.durable;
    expect(countOnDisk()).toBe(1);
  });

  it('joins a transaction its caller holds (bulk loading)', async () => {
    const store = await SqliteStore.open({ path });
    const scope: Scope = { tenantId: (await store.createTenant('t', 'x')).id, context: 'voterfile' };
    store.db.exec('BEGIN');
    for (let i = 0; i < 5; i++) await (await insertApplied(store, scope, person(`p${i}`))).durable;
    expect(countOnDisk()).toBe(0);
    store.db.exec('COMMIT');
    expect(countOnDisk()).toBe(5);
    await store.close();
  });

  it('a scope whose index load fails is loaded again on the next call', async () => {
    const crm = await Crm.open({ db: path });
    // Another process (the CLI) adds a tenant and a person without a match key.
    const other = await SqliteStore.open({ path });
    const t = await other.createTenant('t', 'x');
    const ctx = { tenantId: t.id, context: 'voterfile' as const };
    const stored = await insertApplied(other, ctx, {
      ...person('Ada'),
      scalars: { ...person('Ada').scalars, lastName: 'Lovelace' },
      emails: [{ email: 'ada@example.org', key: 'ada@example.org', type: 'P', isPreferred: false, subscriptionStatus: 'S', optedOut: false, dateCreated: 't' }],
    });
    await stored.durable;
    await other.close();
    // The first load re-normalizes that person and stores its key: make that commit fail.
    failNextCommit(sqliteStoreOf(crm));
    const body = { firstName: 'Ada', lastName: 'Lovelace', emails: [{ email: 'ada@example.org' }] };
    await expect(crm.find(ctx, body)).rejects.toThrow('injected');
    expect(await crm.find(ctx, body)).toMatchObject({ status: 'Matched', crmId: stored.value.crmId });
    await crm.close();
  });

  it('concurrent findOrCreate requests are answered after few commits, all durable', async () => {
    const crm = await Crm.open({ db: path });
    const t = await crm.createTenant('t');
    const store = sqliteStoreOf(crm);
    const before = store.stats.commits;
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        crm.findOrCreate({ tenantId: t.id, context: 'voterfile' }, { firstName: `Ada${i}`, lastName: 'Lovelace', emails: [{ email: `ada${i}@example.org` }] }),
      ),
    );
    expect(outcomes.every((o) => o.status === 'UnmatchedStored')).toBe(true);
    expect(store.stats.commits - before).toBeLessThan(10);
    expect(countOnDisk()).toBe(30);
    await crm.close();
  });

  it('findOrCreate whose commit fails is refused, and the index forgets the lost record', async () => {
    const crm = await Crm.open({ db: path });
    const t = await crm.createTenant('t');
    const ctx = { tenantId: t.id, context: 'voterfile' as const };
    const body = { firstName: 'Ada', lastName: 'Lovelace', emails: [{ email: 'ada@example.org' }] };
    expect(await crm.find(ctx, body)).toMatchObject({ status: 'Unmatched' });
    failNextCommit(sqliteStoreOf(crm));
    await expect(crm.findOrCreate(ctx, body)).rejects.toThrow('injected');
    expect(await crm.find(ctx, body)).toMatchObject({ status: 'Unmatched' });
    const again = await crm.findOrCreate(ctx, body);
    expect(again.status).toBe('UnmatchedStored');
    expect(await crm.find(ctx, body)).toMatchObject({ status: 'Matched', crmId: again.crmId });
    await crm.close();
    expect(countOnDisk()).toBe(1);
  });

  it('phone and address ids stay unique across batches, failed writes and commits, and another connection', async () => {
    const withPhones = (first: string, n: number): PersonRecord => ({
      ...person(first),
      phones: Array.from(
        { length: n },
        (_, i) =>
          ({
            phoneId: 0,
            phoneNumber: `202555${1000 + i}`,
            e164: `+1202555${1000 + i}`,
            countryCode: 'US',
            dialingPrefix: '1',
            ext: null,
            phoneType: null,
            deviceType: null,
            isPreferred: false,
            phoneOptInStatus: 'U',
            isCellStatusId: null,
            dateCreated: 't',
          }) as const,
      ),
    });
    const a = await SqliteStore.open({ path });
    const scope: Scope = { tenantId: (await a.createTenant('t', 'x')).id, context: 'voterfile' };
    const ids: number[] = [];
    const keep = (p: PersonRecord): void => {
      for (const ph of p.phones) ids.push(ph.phoneId);
    };
    // One batch: two writes, and one that fails after taking ids (rolled back to its savepoint).
    const one = await Promise.all([insertApplied(a, scope, withPhones('a', 2)), insertApplied(a, scope, withPhones('b', 1))]);
    await expect(updateApplied(a, scope, { ...withPhones('x', 3), crmId: 999 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await Promise.all(one.map((r) => r.durable));
    one.forEach((r) => keep(r.value));
    // A failed commit: its ids were never stored, and may be handed out again.
    failNextCommit(a);
    const lost = await insertApplied(a, scope, withPhones('c', 2));
    await expect(lost.durable).rejects.toThrow('injected');
    // Another connection writes between this one's transactions.
    const b = await SqliteStore.open({ path });
    const other = await insertApplied(b, scope, withPhones('d', 2));
    await other.durable;
    keep(other.value);
    await b.close();
    const again = await insertApplied(a, scope, withPhones('e', 2));
    await again.durable;
    keep(again.value);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => id > 0)).toBe(true);
    // What is stored agrees, after a reopen too.
    await a.close();
    const c = await SqliteStore.open({ path });
    const stored = (await c.listPeople(scope, 0, 100)).flatMap((p) => p.phones.map((ph) => ph.phoneId));
    expect(stored.sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
    const next = await insertApplied(c, scope, withPhones('f', 1));
    await next.durable;
    expect(next.value.phones[0]?.phoneId).toBeGreaterThan(Math.max(...ids));
    await c.close();
  });

  describe('the fsync of a group commit does not run on the event loop (issue 17)', () => {
    /**
     * Holds each WAL fsync of `store` until the test releases it (then runs the real one), and
     * records the order of COMMITs and syncs.
     */
    const holdSyncs = (store: SqliteStore) => {
      const events: string[] = [];
      const held: (() => void)[] = [];
      const real = store.syncWal.bind(store);
      store.observeCommits(() => events.push('commit'));
      store.syncWal = async (wal: string) => {
        events.push('sync started');
        await new Promise<void>((release) => held.push(release));
        await real(wal);
        events.push('sync done');
      };
      const nextHeld = async (): Promise<() => void> => {
        while (held.length === 0) await new Promise((r) => setTimeout(r, 1));
        return held.shift() as () => void;
      };
      return { events, nextHeld };
    };
    const settledFlag = (p: Promise<unknown>) => {
      const state = { done: false };
      p.then(
        () => (state.done = true),
        () => (state.done = true),
      );
      return state;
    };

    it('a write is durable only after an fsync that started after its COMMIT; meanwhile reads, timers and other commits go on', async () => {
      const store = await SqliteStore.open({ path });
      const scope: Scope = { tenantId: (await store.createTenant('t', 'x')).id, context: 'voterfile' };
      const { events, nextHeld } = holdSyncs(store);
      const first = await insertApplied(store, scope, person('a'));
      const firstDurable = settledFlag(first.durable);
      const releaseFirst = await nextHeld();
      // The COMMIT happened, the fsync is under way (held): the event loop is free.
      expect(events).toEqual(['commit', 'sync started']);
      expect(countOnDisk()).toBe(1); // committed: visible to another connection...
      expect(firstDurable.done).toBe(false); // ...but not durable, so nobody is told yet
      expect((await store.getPerson(scope, first.value.crmId))?.scalars.firstName).toBe('a');
      await new Promise((r) => setTimeout(r, 5)); // timers fire
      // Another write commits while that fsync runs; the running fsync may not cover it: it waits for the next.
      const second = await insertApplied(store, scope, person('b'));
      const secondDurable = settledFlag(second.durable);
      while (countOnDisk() < 2) await new Promise((r) => setImmediate(r));
      expect(events).toEqual(['commit', 'sync started', 'commit']);
      releaseFirst();
      await first.durable;
      expect(secondDurable.done).toBe(false);
      const releaseSecond = await nextHeld();
      expect(events).toEqual(['commit', 'sync started', 'commit', 'sync done', 'sync started']);
      expect(secondDurable.done).toBe(false);
      releaseSecond();
      await second.durable;
      expect(events.at(-1)).toBe('sync done');
      expect(store.stats.syncs).toBeGreaterThanOrEqual(2);
      await store.close();
    });

    it('findOrCreate is answered once its commit is synced, and a find is served while that fsync runs', async () => {
      const crm = await Crm.open({ db: path });
      const t = await crm.createTenant('t');
      const ctx = { tenantId: t.id, context: 'voterfile' as const };
      const ada = { firstName: 'Ada', lastName: 'Lovelace', emails: [{ email: 'ada@example.org' }] };
      const known = await crm.findOrCreate(ctx, { firstName: 'Grace', lastName: 'Hopper', emails: [{ email: 'grace@example.org' }] });
      const { events, nextHeld } = holdSyncs(sqliteStoreOf(crm));
      const answer = crm.findOrCreate(ctx, ada);
      const answered = settledFlag(answer);
      const release = await nextHeld();
      expect(answered.done).toBe(false);
      // Served during the fsync: a find of a durable record, and a find of the record being synced (it waits).
      expect(await crm.find(ctx, { firstName: 'Grace', lastName: 'Hopper', emails: [{ email: 'grace@example.org' }] })).toMatchObject({
        status: 'Matched',
        crmId: known.crmId,
      });
      const findAda = crm.find(ctx, ada);
      const foundAda = settledFlag(findAda);
      await new Promise((r) => setTimeout(r, 5));
      expect(foundAda.done).toBe(false);
      expect(answered.done).toBe(false);
      release();
      expect(await answer).toMatchObject({ status: 'UnmatchedStored' });
      expect(await findAda).toMatchObject({ status: 'Matched', crmId: (await answer).crmId });
      expect(events.slice(0, 3)).toEqual(['commit', 'sync started', 'sync done']);
      await crm.close();
    });

    it('a failed fsync fails the writes that waited for it', async () => {
      const store = await SqliteStore.open({ path });
      const scope: Scope = { tenantId: (await store.createTenant('t', 'x')).id, context: 'voterfile' };
      store.syncWal = async () => {
        throw new Error('EIO (injected)');
      };
      const a = await insertApplied(store, scope, person('a'));
      await expect(a.durable).rejects.toThrow('injected');
      await expect(store.flush()).resolves.toBeUndefined();
      await store.close();
    });

    it('checkpoints run on their own thread once the WAL has grown, never in the COMMIT', async () => {
      const store = await SqliteStore.open({ path });
      const scope: Scope = { tenantId: (await store.createTenant('t', 'x')).id, context: 'voterfile' };
      const big = 'x'.repeat(2000);
      for (let round = 0; round < 4; round++) {
        const rows = await Promise.all(
          Array.from({ length: 800 }, (_, i) =>
            insertApplied(store, scope, { ...person(`p${round}-${i}`), scalars: { ...person('x').scalars, employer: big } }),
          ),
        );
        await Promise.all(rows.map((r) => r.durable));
      }
      // The thread is told after a commit; it checkpoints in the background (polled, no timing assumed).
      let written = 3200;
      const limit = performance.now() + 60_000;
      while (store.checkpoints === 0 && performance.now() < limit) {
        await (
          await insertApplied(store, scope, person('more'))
        ).durable;
        written++;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(store.checkpoints).toBeGreaterThan(0);
      expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      await store.close();
      expect(countOnDisk()).toBe(written);
    });
  });

  describe('bulk import batches skip the sync for a while after a synced commit', () => {
    const setup = async (lagMs: number, clock?: () => number) => {
      const store = await SqliteStore.open({ path, importSyncLagMs: lagMs, ...(clock === undefined ? {} : { clock }) });
      const scope: Scope = { tenantId: (await store.createTenant('t', 'x')).id, context: 'campaign' };
      const jobId = await store.createImportJob({ tenantId: scope.tenantId, context: 'campaign', request: '{}', resultToken: 'tok', createdAt: 't' });
      await store.claimImportJob('w', 0, 60_000); // a synced commit
      let rowNo = 0;
      const mark = (): ImportRowMark => ({
        jobId,
        owner: 'w',
        rowNo: ++rowNo,
        stepsDone: 1,
        rowDone: true,
        crmId: null,
        outcomes: ['Processed'],
        included: [],
      });
      return { store, scope, mark, commits: recordCommitSync(store) };
    };

    it('a batch of import writes commits unsynced; any other write is synced, also in the same turn', async () => {
      const { store, scope, mark, commits } = await setup(60_000);
      const rows = await Promise.all([
        insertApplied(store, scope, person('a'), undefined, mark()),
        insertApplied(store, scope, person('b'), undefined, mark()),
      ]);
      await Promise.all(rows.map((r) => r.durable));
      await store.markImportRows([mark()]);
      expect(commits).toEqual([1, 1]);
      expect(countOnDisk()).toBe(2); // committed: another connection sees it
      // An API write in the same turn as import writes: the import part commits first, unsynced, the rest synced.
      const imported = await insertApplied(store, scope, person('c'), undefined, mark());
      const api = await insertApplied(store, scope, person('d'));
      await Promise.all([imported.durable, api.durable]);
      expect(commits).toEqual([1, 1, 1, 2]);
      // Back to import writes: unsynced again, and the connection's setting follows.
      await (
        await insertApplied(store, scope, person('e'), undefined, mark())
      ).durable;
      expect(commits).toEqual([1, 1, 1, 2, 1]);
      expect(countOnDisk()).toBe(5);
      expect(store.stats.lazyCommits).toBe(4);
      await store.close();
    });

    const openJob = async (store: SqliteStore) => {
      const scope: Scope = { tenantId: (await store.createTenant('t', 'x')).id, context: 'campaign' };
      const jobId = await store.createImportJob({ tenantId: scope.tenantId, context: 'campaign', request: '{}', resultToken: 'tok', createdAt: 't' });
      await store.claimImportJob('w', 0, 60_000);
      const mark = (rowNo: number): ImportRowMark => ({
        jobId,
        owner: 'w',
        rowNo,
        stepsDone: 1,
        rowDone: true,
        crmId: null,
        outcomes: ['Processed'],
        included: [],
      });
      return { scope, jobId, mark };
    };

    it('an import batch stays open across event-loop turns; any other write commits it at once, then itself', async () => {
      // A batch time of a minute: were anything to wait for it, the test would time out.
      const store = await SqliteStore.open({ path, importSyncLagMs: 60_000, importBatchMs: 60_000 });
      const { scope, jobId, mark } = await openJob(store);
      const commits = recordCommitSync(store);
      const first = await insertApplied(store, scope, person('a'), undefined, mark(1));
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setTimeout(r, 5));
      const second = await insertApplied(store, scope, person('b'), undefined, mark(2)); // later turns, same batch
      expect(second.durable).toBe(first.durable);
      expect(commits).toEqual([]);
      expect(countOnDisk()).toBe(0);
      // Progress as committed only (issue 15): this connection sees the open batch, a kill would not.
      expect(await store.getImportJob(scope, jobId)).toMatchObject({ rowsDone: 0, rowsFailed: 0 });
      // A find that matched a person the batch did not write does not wait for it.
      await store.flush(first.value.crmId + 1000);
      expect(commits).toEqual([]);
      const api = await insertApplied(store, scope, person('c'));
      await Promise.all([first.durable, api.durable]);
      expect(commits).toEqual([1, 2]);
      expect(countOnDisk()).toBe(3);
      expect(await store.getImportJob(scope, jobId)).toMatchObject({ rowsDone: 2 });
      // flush() (a find that matched a person the batch wrote waits for it) commits a held batch at once, too.
      const d = await insertApplied(store, scope, person('d'), undefined, mark(3));
      await store.flush(d.value.crmId);
      expect(commits).toEqual([1, 2, 1]);
      expect(countOnDisk()).toBe(4);
      await insertApplied(store, scope, person('e'), undefined, mark(4));
      await store.flush();
      expect(commits).toEqual([1, 2, 1, 1]);
      await store.close();
    });

    it('an import batch commits on its own once its time is up', async () => {
      const store = await SqliteStore.open({ path, importSyncLagMs: 60_000, importBatchMs: 20 });
      const { scope, mark } = await openJob(store);
      const commits = recordCommitSync(store);
      await (
        await insertApplied(store, scope, person('a'), undefined, mark(1))
      ).durable;
      expect(commits).toEqual([1]);
      expect(countOnDisk()).toBe(1);
      await store.close();
    });

    it('reading a person during an import waits for (and commits) the open import batch only if it wrote that person', async () => {
      const crm = await Crm.open({ db: path });
      const t = await crm.createTenant('t');
      const ctx = { tenantId: t.id, context: 'campaign' as const };
      const store = sqliteStoreOf(crm);
      const jobId = await store.createImportJob({ tenantId: t.id, context: 'campaign', request: '{}', resultToken: 'tok', createdAt: 't' });
      await store.claimImportJob('w', 0, 60_000);
      const ada = await crm.findOrCreate(ctx, { firstName: 'Ada', lastName: 'Lovelace', emails: [{ email: 'ada@example.org' }] });
      const commits = recordCommitSync(store);
      const mark: ImportRowMark = { jobId, owner: 'w', rowNo: 1, stepsDone: 1, rowDone: true, crmId: null, outcomes: ['Processed'], included: [] };
      const bob = await crm.importFindOrCreate(ctx, { firstName: 'Bob', lastName: 'Babbage', emails: [{ email: 'bob@example.org' }] }, mark);
      expect(await crm.getPerson(ctx, ada.crmId!, new Set())).toMatchObject({ firstName: 'Ada' });
      expect(await crm.find(ctx, { firstName: 'Ada', lastName: 'Lovelace', emails: [{ email: 'ada@example.org' }] })).toMatchObject({ crmId: ada.crmId });
      expect(commits).toEqual([]); // Ada was committed before the batch opened: nobody waited for it
      expect(await crm.getPerson(ctx, bob.outcome.crmId!, new Set())).toMatchObject({ firstName: 'Bob' });
      expect(commits.length).toBe(1); // Bob is in it: it committed before the answer
      await crm.close();
    });

    it('past the lag, the next import batch is synced', async () => {
      // The lag's clock moves only here: on the wall clock, a loaded machine could take longer
      // than the lag between the second and the third batch, and sync the third too.
      const clock = { now: 0 };
      const { store, scope, mark, commits } = await setup(30, () => clock.now);
      await (
        await insertApplied(store, scope, person('a'), undefined, mark())
      ).durable;
      clock.now += 60;
      await (
        await insertApplied(store, scope, person('b'), undefined, mark())
      ).durable;
      await (
        await insertApplied(store, scope, person('c'), undefined, mark())
      ).durable;
      expect(commits).toEqual([1, 2, 1]);
      await store.close();
    });

    it('with a lag of 0, or a NORMAL database, nothing changes the setting', async () => {
      for (const [i, options] of [{ importSyncLagMs: 0 }, { synchronous: 'NORMAL' as const }].entries()) {
        const store = await SqliteStore.open({ path: join(dir, `other${i}.db`), ...options });
        const scope: Scope = { tenantId: (await store.createTenant('t', 'x')).id, context: 'campaign' };
        const jobId = await store.createImportJob({ tenantId: scope.tenantId, context: 'campaign', request: '{}', resultToken: 'tok', createdAt: 't' });
        await store.claimImportJob('w', 0, 60_000);
        const commits = recordCommitSync(store);
        await store.markImportRows([{ jobId, owner: 'w', rowNo: 1, stepsDone: 1, rowDone: true, crmId: null, outcomes: ['Processed'], included: [] }]);
        expect(commits).toEqual([options.synchronous === 'NORMAL' ? 1 : 2]);
        await store.close();
      }
    });
  });
});

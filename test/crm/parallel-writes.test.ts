/**
 * PostgreSQL: findOrCreate units lock what two requests for the same person share
 * (src/crm/lock-keys.ts), not the tenant: a request for another person proceeds while one is
 * held open before its commit, in the same process and in another; a request for the same
 * person waits for that commit and then matches what it created.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crm } from '../../src/crm/index.js';
import { PgStore, type PeopleChanges, type Scope, type ScopeWriteOptions, type ScopeWriter, type Store } from '../../src/store/index.js';
import { HAVE_POSTGRES, startPostgres, type PgServer } from '../services.js';

/** The store, with a barrier: the next unit, once its writes are made, waits for `hold` before its commit. */
function withBarrier(store: PgStore): { store: Store; holdNext: (hold: Promise<void>) => Promise<void> } {
  let next: { hold: Promise<void>; entered: () => void } | null = null;
  const writeScope = <T>(scope: Scope, fn: (writer: ScopeWriter, changes: PeopleChanges | null) => Promise<T>, options?: ScopeWriteOptions) => {
    const barrier = next;
    next = null;
    return store.writeScope(
      scope,
      async (writer, changes) => {
        const value = await fn(writer, changes);
        if (barrier !== null) {
          barrier.entered();
          await barrier.hold;
        }
        return value;
      },
      options,
    );
  };
  const proxy = new Proxy(store, {
    get(target, prop) {
      if (prop === 'writeScope') return writeScope;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    store: proxy,
    holdNext: (hold) => new Promise<void>((entered) => (next = { hold, entered })),
  };
}

/** Resolves once a session of the database at `url` waits on a lock (polls pg_stat_activity; 30 s at most). */
async function untilLockWaiter(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let i = 0; i < 600; i++) {
      const r = await client.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
      if (Number(r.rows[0]?.n ?? 0) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('no session came to wait on a lock within 30 s');
  } finally {
    await client.end();
  }
}

const ada = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  dateOfBirth: '1985-12-10',
  emails: [{ email: 'ada@example.org' }],
  phones: [{ phoneNumber: '2024291000' }],
  addresses: [{ addressLine1: '12 Elm St', zipOrPostalCode: '20009', countryCode: 'US' }],
};
const bob = {
  firstName: 'Robert',
  lastName: 'Babbage',
  dateOfBirth: '1971-03-02',
  emails: [{ email: 'rb@example.net' }],
  phones: [{ phoneNumber: '3125550188' }],
  addresses: [{ addressLine1: '900 Lake Shore Dr', zipOrPostalCode: '60611', countryCode: 'US' }],
};
const cyd = { firstName: 'Cydney', lastName: 'Okafor', emails: [{ email: 'cyd@example.com' }] };

describe.skipIf(!HAVE_POSTGRES)('PostgreSQL: parallel findOrCreate', () => {
  let server: PgServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server.stop());

  it('while one findOrCreate is held before its commit, other people are created (this process and another); the same person waits, then matches', async () => {
    const url = await server.createDatabase();
    const pg = await PgStore.open({ url });
    const { store, holdNext } = withBarrier(pg);
    const crm = await Crm.open({ store });
    await crm.createTenant('parallel');
    const { key } = await crm.createKey({ tenant: 'parallel', tier: 'Internal' });
    const ctx = { tenantId: (await crm.authenticate(key))!.tenantId, context: 'voterfile' as const };
    const other = await Crm.open({ db: url });
    try {
      let release!: () => void;
      const held = holdNext(new Promise<void>((r) => (release = r)));
      const first = crm.findOrCreate(ctx, ada);
      await held; // Ada is inserted, her transaction open, her keys locked
      const done: string[] = [];
      first.then(
        () => done.push('ada'),
        () => done.push('ada failed'),
      );
      // Ada again, with a new phone: shares her keys, so it waits for her commit.
      const again = crm.findOrCreate(ctx, { ...ada, phones: [{ phoneNumber: '2024291999' }] });
      again.then(
        () => done.push('ada again'),
        () => done.push('ada again failed'),
      );

      const b = await crm.findOrCreate(ctx, bob);
      const c = await other.findOrCreate(ctx, cyd);
      expect(b.status).toBe('UnmatchedStored');
      expect(c.status).toBe('UnmatchedStored');
      expect(done).toEqual([]); // neither Ada request could finish while her unit is open
      // Release only once Ada again is blocked on her lock in PostgreSQL (not still on its way
      // there: on a loaded machine it may not have sent its unit yet, and would then not wait).
      await untilLockWaiter(url);

      release();
      const a = await first;
      const a2 = await again;
      expect(a.status).toBe('UnmatchedStored');
      expect(a2).toMatchObject({ status: 'Matched', crmId: a.crmId, updated: true });
      expect(await crm.store.countPeople(ctx)).toBe(3);
      // Every process sees every write.
      for (const p of [ada, bob, cyd]) {
        expect((await other.find(ctx, p)).status).toBe('Matched');
        expect((await crm.find(ctx, p)).status).toBe('Matched');
      }
      const waits = pg.lockWaits();
      expect(waits.acquisitions).toBeGreaterThanOrEqual(3);
      expect(waits.waited).toBeGreaterThanOrEqual(1); // Ada again waited for Ada
    } finally {
      await other.close();
      await crm.close();
    }
  });
});

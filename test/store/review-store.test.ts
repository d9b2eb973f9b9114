/** The review queue part of the Store contract (review-contract.ts) against SQLite and PostgreSQL. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { PgStore, SqliteStore } from '../../src/store/index.js';
import { HAVE_POSTGRES, startPostgres, type PgServer } from '../services.js';
import { describeReviewContract } from './review-contract.js';

describeReviewContract('SqliteStore', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'matchbook-review-'));
  return {
    open: () => SqliteStore.open({ path: join(dir, 'db.sqlite') }),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
    concurrentConnections: false,
  };
});

let server: PgServer | null = null;
describe.skipIf(!HAVE_POSTGRES)('PgStore', () => {
  afterAll(() => server?.stop());
  describeReviewContract('PgStore', async () => {
    const url = await (server ??= await startPostgres()).createDatabase();
    return { open: () => PgStore.open({ url }), dispose: async () => undefined };
  });
});

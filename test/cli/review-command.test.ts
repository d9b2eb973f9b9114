/** `matchbook review audit` in-process through runCli, on a database where decisions were made through the Crm. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/program.js';
import { registerReview } from '../../src/cli/review.js';
import { Crm } from '../../src/crm/index.js';
import { makePair } from '../crm/review-fixtures.js';

let dir: string;
let db: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'matchbook-cli-review-'));
  db = join(dir, 'review.db');
  const crm = await Crm.open({ db, now: () => new Date(Date.UTC(2024, 4, 1)) });
  const tenantId = (await crm.createTenant('acme')).id;
  for (const context of ['voterfile', 'campaign'] as const) {
    const { id } = await makePair(crm, { tenantId, context });
    await crm.decidePossibleMatch({ tenantId, context }, { keyId: 9, tenantName: 'acme' }, id, { decision: context === 'voterfile' ? 'same' : 'different' });
  }
  await crm.createTenant('quiet');
  await crm.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: { MATCHBOOK_DB: db }, cwd: dir, handleSignals: false };
  return { code: await runCli(args, [registerReview], io), stdout, stderr };
}

it('lists who decided what and when, newest first, per tenant and context', async () => {
  const all = await cli(['review', 'audit', '--tenant', 'acme']);
  expect(all.code, all.stderr).toBe(0);
  const lines = all.stdout.trim().split('\n');
  expect(lines[0]).toMatch(/^at\s+context\s+possibleMatch\s+action\s+by\s+detail$/);
  expect(lines.slice(1).map((l) => l.split(/\s+/).slice(1, 4))).toEqual([
    ['campaign', '2', 'different'],
    ['voterfile', '1', 'same'],
  ]);
  expect(lines[2]).toMatch(/^2024-05-01T00:00:00Z .*key 9 \(acme\).*"survivorCrmId":1,"mergedCrmId":2/);
  const one = await cli(['review', 'audit', '--tenant', 'ACME', '--context', 'campaign', '--limit', '5']);
  expect(one.stdout.trim().split('\n')).toHaveLength(2);
  expect((await cli(['review', 'audit', '--tenant', 'quiet'])).stdout).toBe('(none)\n');
});

it('refuses an unknown tenant, context or limit with a one-line error', async () => {
  for (const args of [
    ['--tenant', 'nobody'],
    ['--tenant', 'acme', '--context', 'both'],
    ['--tenant', 'acme', '--limit', '0'],
  ]) {
    const res = await cli(['review', 'audit', ...args]);
    expect(res.code).not.toBe(0);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
  }
});

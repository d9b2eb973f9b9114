/**
 * `tenants` and `keys` commands, in-process through runCli with captured output, plus a few
 * runs of the real process (exit codes, stdout holding only the GUID).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { registerKeys } from '../../src/cli/keys.js';
import { runCli } from '../../src/cli/program.js';
import { registerServe } from '../../src/cli/serve.js';
import { registerTenants } from '../../src/cli/tenants.js';
import { runCliProcess } from './spawn.js';

// Spawns processes / runs many requests: slow on a loaded 2-core machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const GUID_LINE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n$/;

let dir: string;
let db: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'matchbook-cli-'));
  db = join(dir, 'admin.db');
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: { MATCHBOOK_DB: db, ...env }, cwd: dir, handleSignals: false };
  const code = await runCli(args, [registerServe, registerTenants, registerKeys], io);
  return { code, stdout, stderr };
}

function expectOneLineError(res: { code: number; stdout: string; stderr: string }, pattern: RegExp) {
  expect(res.code).not.toBe(0);
  expect(res.stderr).toMatch(pattern);
  expect(res.stderr.trim().split('\n').length, res.stderr).toBe(1);
  expect(res.stderr).not.toMatch(/\n\s+at /);
  expect(res.stdout).toBe('');
}

describe('tenants', () => {
  it('create, list', async () => {
    expect((await cli(['tenants', 'create', 'acme'])).code).toBe(0);
    expect((await cli(['tenants', 'create', 'globex', '--db', db])).code).toBe(0);
    const list = await cli(['tenants', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('acme');
    expect(list.stdout).toContain('globex');
  });

  it('create twice: one error line, non-zero', async () => {
    expectOneLineError(await cli(['tenants', 'create', 'acme']), /matchbook: error: .*acme/i);
  });

  it('configure from a settings file; bad files are clear errors', async () => {
    const good = join(dir, 'settings.json');
    writeFileSync(good, JSON.stringify({ campaign: { defaultCountry: 'US', disablePartialMatching: true }, voterfile: { defaultCountry: 'US' } }));
    const ok = await cli(['tenants', 'configure', 'acme', '--file', good]);
    expect(ok.code, ok.stderr).toBe(0);
    const example = fileURLToPath(new URL('../../data/examples/tenant-settings.example.json', import.meta.url));
    const fromExample = await cli(['tenants', 'configure', 'globex', '--file', example]);
    expect(fromExample.code, fromExample.stderr).toBe(0);
    expect((await cli(['tenants', 'list'])).stdout).toMatch(/globex.*campaign/);
    expectOneLineError(await cli(['tenants', 'configure', 'acme', '--file', join(dir, 'missing.json')]), /missing\.json: no such file/);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"campaign": ');
    expectOneLineError(await cli(['tenants', 'configure', 'acme', '--file', broken]), /broken\.json: not valid JSON/);
    const invalid = join(dir, 'invalid.json');
    writeFileSync(invalid, JSON.stringify({ campaign: { defaultCountry: 42 } }));
    expectOneLineError(await cli(['tenants', 'configure', 'acme', '--file', invalid]), /defaultCountry/);
    expectOneLineError(await cli(['tenants', 'configure', 'nobody', '--file', good]), /nobody/);
  });
});

describe('keys', () => {
  it('create prints the GUID alone on stdout, and the GUID is not stored in plain text', async () => {
    const res = await cli(['keys', 'create', '--tenant', 'acme', '--tier', 'Standard', '--contexts', 'voterfile,campaign', '--default-context', 'voterfile']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(GUID_LINE);
    const guid = res.stdout.trim();
    const haystacks = readdirSync(dir)
      .filter((f) => f.startsWith('admin.db'))
      .map((f) => readFileSync(join(dir, f)));
    expect(haystacks.length).toBeGreaterThan(0);
    for (const bytes of haystacks) {
      for (const needle of [guid, guid.toUpperCase(), guid.replace(/-/g, '')]) {
        expect(bytes.includes(Buffer.from(needle)), 'GUID found in the database file').toBe(false);
      }
    }
  });

  it('list shows keys without the secret; revoke revokes', async () => {
    const created = await cli(['keys', 'create', '--tenant', 'globex']);
    const guid = created.stdout.trim();
    const list = await cli(['keys', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('globex');
    expect(list.stdout).not.toContain(guid);
    const header = list.stdout.split('\n')[0] ?? '';
    expect(header).toMatch(/id/i);
    const idColumn = header.split(/\s{2,}/).findIndex((c) => /^id$/i.test(c));
    const rows = list.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(/\s{2,}/));
    const row = rows.find((r) => r.includes('globex'))!;
    const id = row[Math.max(0, idColumn)]!;
    const revoked = await cli(['keys', 'revoke', id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expectOneLineError(await cli(['keys', 'revoke', '987654']), /987654/);
  });

  it('bad options are one clear line and a non-zero exit', async () => {
    expectOneLineError(await cli(['keys', 'create', '--tenant', 'acme', '--tier', 'Gold']), /tier/);
    expectOneLineError(await cli(['keys', 'create', '--tenant', 'acme', '--contexts', 'voterfile,sandbox']), /contexts/);
    expectOneLineError(await cli(['keys', 'create', '--tenant', 'acme', '--default-context', 'x']), /default-context/);
    expectOneLineError(await cli(['keys', 'create']), /--tenant/);
    expectOneLineError(await cli(['keys', 'create', '--tenant', 'no-such-tenant']), /no-such-tenant/);
    expectOneLineError(await cli(['keys', 'create', '--tenant', 'acme', '--contexts', 'campaign', '--default-context', 'voterfile']), /./);
  });
});

describe('the real process', () => {
  it('keys create: exit 0 and only the GUID on stdout; errors: exit 1, one line, no stack', async () => {
    const procDb = join(dir, 'proc.db');
    expect((await runCliProcess(['tenants', 'create', 'acme', '--db', procDb])).code).toBe(0);
    const ok = await runCliProcess(['keys', 'create', '--tenant', 'acme', '--db', procDb]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(GUID_LINE);
    const bad = await runCliProcess(['keys', 'create', '--tenant', 'nope', '--db', procDb]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n').length).toBe(1);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    const unknown = await runCliProcess(['frobnicate']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/unknown command/);
  });
});

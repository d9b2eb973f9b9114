/**
 * The real `matchbook serve` process on a temp database and a free port: first-start demo
 * key and curl hint, durability of answered writes across `kill -9`, clean SIGINT/SIGTERM.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServe, type ServeProcess } from './spawn.js';

// Spawns processes / runs many requests: slow on a loaded 2-core machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let dir: string;
const running: ServeProcess[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'matchbook-serve-'));
});
afterAll(() => {
  for (const p of running) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function start(db: string, env: Record<string, string> = {}, extra: string[] = []): Promise<ServeProcess> {
  const p = await startServe(['--db', db, ...extra], env);
  running.push(p);
  return p;
}

const json = { 'content-type': 'application/json' };

describe('kill -9', () => {
  it.each(['full', 'normal'])('an answered 201, and an answered 302 with an update, survive kill -9 of the server (--sync %s)', async (sync) => {
    const db = join(dir, `kill9-${sync}.db`);
    const first = await start(db, {}, ['--sync', sync]);
    expect(first.demoKey).not.toBeNull();
    const auth = { apiKey: first.demoKey! };

    const created = await fetch(`${first.base}/v4/people/findOrCreate`, {
      method: 'POST',
      headers: { ...auth, ...json },
      body: JSON.stringify({ firstName: 'Durable', lastName: 'Dora', emails: [{ email: 'dora@example.org' }] }),
      redirect: 'manual',
    });
    expect(created.status).toBe(201);
    const { crmId } = (await created.json()) as { crmId: number };
    const updated = await fetch(`${first.base}/v4/people/findOrCreate`, {
      method: 'POST',
      headers: { ...auth, ...json },
      body: JSON.stringify({ firstName: 'Durable', lastName: 'Dora', emails: [{ email: 'dora@example.org' }], phones: [{ phoneNumber: '2024291000' }] }),
      redirect: 'manual',
    });
    expect(updated.status).toBe(302);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = await start(db, {}, ['--sync', sync]);
    expect(second.demoKey, 'a restart must not create another demo tenant').toBeNull();
    const res = await fetch(`${second.base}/v4/people/${crmId}?$expand=emails,phones`, { headers: auth });
    expect(res.status).toBe(200);
    const person = (await res.json()) as { crmId: number; firstName: string; emails: { email: string }[]; phones: { phoneNumber: string }[] };
    expect(person).toMatchObject({ crmId, firstName: 'Durable', lastName: 'Dora' });
    expect(person.emails.map((e) => e.email)).toContain('dora@example.org');
    expect(person.phones.length).toBe(1);
    expect(JSON.stringify(person.phones)).toContain('2024291000');
    // And it is still matched, not created again.
    const again = await fetch(`${second.base}/v2/people/find`, {
      method: 'POST',
      headers: { ...auth, ...json },
      body: JSON.stringify({ emails: [{ email: 'dora@example.org' }] }),
      redirect: 'manual',
    });
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe(`${second.base}/v2/people/${crmId}`);
    second.child.kill('SIGKILL');
  });
});

describe('first start and shutdown', () => {
  it('prints a ready-to-paste curl that works, and stops cleanly on SIGTERM', async () => {
    const db = join(dir, 'first.db');
    const p = await start(db);
    const curl = /curl[\s\S]*?\/v4\/people\/findOrCreate/.exec(p.stderr())?.[0];
    expect(curl).toBeDefined();
    expect(curl).toContain(`apiuser:${p.demoKey}`);
    expect(curl).toContain(`${p.base}/v4/people/findOrCreate`);
    // Do what the curl does, with fetch: Basic auth, JSON body.
    const body = /-d '([^']+)'/.exec(curl!)?.[1];
    const res = await fetch(`${p.base}/v4/people/findOrCreate`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`apiuser:${p.demoKey}`).toString('base64')}`, ...json },
      body: body!,
      redirect: 'manual',
    });
    expect(res.status).toBe(201);
    p.child.kill('SIGTERM');
    const exit = await p.exited;
    expect(exit.code).toBe(0);
    expect(p.stderr()).toContain('stopped');
    expect(p.stderr()).not.toMatch(/\n\s+at /);
  });

  it('stops cleanly on SIGINT; MATCHBOOK_DB is honoured', async () => {
    const db = join(dir, 'env.db');
    const p = await startServe([], { MATCHBOOK_DB: db });
    running.push(p);
    expect(p.stderr()).toContain(db);
    p.child.kill('SIGINT');
    expect((await p.exited).code).toBe(0);
  });

  it('a port already in use is one clear error line and a non-zero exit', async () => {
    const db = join(dir, 'busy.db');
    const p = await start(db);
    const port = new URL(p.base).port;
    const { runCliProcess } = await import('./spawn.js');
    const res = await runCliProcess(['serve', '--db', join(dir, 'busy2.db'), '--port', port], { LOG_LEVEL: 'silent' });
    expect(res.code).not.toBe(0);
    const errorLines = res.stderr.split('\n').filter((l) => l.includes('error'));
    expect(errorLines.length).toBe(1);
    expect(res.stderr).toMatch(/EADDRINUSE|in use/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    p.child.kill('SIGKILL');
  });
});

/**
 * Shared setup of the HTTP tests that run against the REAL Crm facade on a temp SQLite file.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Crm } from '../../src/crm/index.js';
import { buildApp } from '../../src/server/app.js';

/** A Crm and an app on a fresh temp database. */
export interface TestServer {
  readonly crm: Crm;
  readonly app: FastifyInstance;
  readonly dir: string;
  readonly db: string;
  close(): Promise<void>;
}

/** Open the real Crm on a temp db and build the app on it (not listening). */
export async function openTestServer(): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'matchbook-http-'));
  const db = join(dir, 'test.db');
  const crm = await Crm.open({ db });
  const app = buildApp({ crm });
  await app.ready();
  return {
    crm,
    app,
    dir,
    db,
    close: async () => {
      await app.close();
      await crm.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type ContextName = 'voterfile' | 'campaign';

/** Create a tenant and a key on it; answers the key GUID. */
export async function createTenantWithKey(crm: Crm, tenant: string, key: { contexts?: ContextName[]; defaultContext?: ContextName } = {}): Promise<string> {
  await crm.createTenant(tenant);
  return (await crm.createKey({ tenant, tier: 'Internal', ...key })).key;
}

/** `Authorization: Basic` for a username and password. */
export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** An auth style real clients use: how to put `key|suffix` on a request. */
export interface AuthStyle {
  readonly name: string;
  headers(secret: string): Record<string, string>;
}

/** Every way clients authenticate (compatibility.md): Basic with several usernames, apiKey header. */
export const AUTH_STYLES: readonly AuthStyle[] = [
  { name: 'Basic apiuser', headers: (s) => ({ authorization: basic('apiuser', s) }) },
  { name: 'Basic default', headers: (s) => ({ authorization: basic('default', s) }) },
  { name: 'Basic default_user', headers: (s) => ({ authorization: basic('default_user', s) }) },
  { name: 'Basic app name', headers: (s) => ({ authorization: basic('Parsons Sync 2.1', s) }) },
  { name: 'apiKey header', headers: (s) => ({ apiKey: s }) },
  { name: 'apiKey header, upper-case key', headers: (s) => ({ apikey: s.toUpperCase() }) },
];

/** The database-mode suffixes and the context each selects for a key whose default is campaign. */
export const SUFFIXES: readonly { readonly suffix: string; readonly context: ContextName }[] = [
  { suffix: '', context: 'campaign' },
  { suffix: '|0', context: 'voterfile' },
  { suffix: '|1', context: 'campaign' },
];

/** Envelope shape, for assertions. */
export interface EnvelopeBody {
  errors: { code: string; text: string; properties?: string[]; hint?: string; referenceCode?: string }[];
}

/** Assert-free check that a response is an error envelope with the right content type. */
export function envelopeOf(res: LightMyRequestResponse): EnvelopeBody | null {
  if (res.headers['content-type'] !== 'application/json; charset=utf-8') return null;
  try {
    const body = JSON.parse(res.body) as unknown;
    if (typeof body !== 'object' || body === null) return null;
    const errors = (body as { errors?: unknown }).errors;
    if (!Array.isArray(errors) || errors.length === 0) return null;
    for (const e of errors) {
      if (typeof e !== 'object' || e === null) return null;
      const { code, text } = e as { code?: unknown; text?: unknown };
      if (typeof code !== 'string' || !/^[A-Z0-9_]+$/.test(code) || typeof text !== 'string' || text === '') return null;
    }
    return body as EnvelopeBody;
  } catch {
    return null;
  }
}

/** Read a captured client body from data/van-clients. */
export function vanClientBody(file: string): unknown {
  return JSON.parse(readFileSync(new URL(`../../data/van-clients/${file}`, import.meta.url), 'utf8')) as unknown;
}

/** Files of data/van-clients matching a prefix. */
export function vanClientFiles(prefix: string): string[] {
  return readdirSync(new URL('../../data/van-clients/', import.meta.url))
    .filter((f) => f.startsWith(prefix) && f.endsWith('.json'))
    .sort();
}

/** The path part of an absolute Location URL. */
export function pathOf(location: unknown): string {
  if (typeof location !== 'string') throw new Error(`no Location: ${String(location)}`);
  const url = new URL(location);
  return url.pathname + url.search;
}

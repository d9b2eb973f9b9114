/**
 * The OpenAPI document: valid OpenAPI 3.1 (a maintained validator), the same at /openapi.json,
 * /v2/openapi.json and /v4/openapi.json, one path per route the server registered (the test
 * computes both counts) and every documented operation served; request bodies are the schemas
 * the domain validates with. And the /docs page, served without network.
 */
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkImportJobRequest } from '../../src/crm/schemas/bulk-import-job.js';
import { CanvassResponse } from '../../src/crm/schemas/canvass-response.js';
import { MatchCandidate } from '../../src/crm/schemas/match-candidate.js';
import { API_VERSION } from '../../src/server/app.js';
import { openImportServer, type ImportServer } from './import-helpers.js';

type Doc = { openapi: string; info: { version: string }; paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };

let s: ImportServer;
let doc: Doc;
beforeAll(async () => {
  s = await openImportServer();
  doc = (await s.app.inject({ method: 'GET', url: '/openapi.json' })).json<Doc>();
});
afterAll(async () => {
  await s.close();
});

/** `/v4/people/:ref` -> `/people/{ref}`. */
const docPath = (url: string): string => url.replace(/^\/v[24](?=\/)/, '').replace(/:(\w+)/g, '{$1}');

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('the same document under /v2 and /v4, without a key, with the package version', async () => {
    for (const url of ['/v2/openapi.json', '/v4/openapi.json']) {
      const res = await s.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(doc);
    }
    expect(doc.info.version).toBe(API_VERSION);
    expect(API_VERSION).toBe((JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version);
  });

  it('has one path per route the server registered, each method documented, and serves every documented operation', () => {
    const routes = s.app.registeredRoutes.filter((r) => r.method !== 'HEAD');
    const paths = new Set(routes.map((r) => docPath(r.url)));
    expect(Object.keys(doc.paths).length).toBe(paths.size);
    expect(new Set(Object.keys(doc.paths))).toEqual(paths);
    for (const r of routes) expect(doc.paths[docPath(r.url)]?.[r.method.toLowerCase()], `${r.method} ${r.url}`).toBeDefined();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item).filter((k) => k !== 'servers')) {
        expect(
          routes.some((r) => r.method === method.toUpperCase() && docPath(r.url) === path),
          `${method} ${path} is served`,
        ).toBe(true);
      }
    }
    // Today: 6 operator paths and 22 API paths (the review queue's two included).
    expect(paths.size).toBe(28);
  });

  it('request bodies are the schemas the domain validates with', () => {
    const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(x));
    expect(doc.components.schemas['MatchCandidate']).toEqual(plain(MatchCandidate));
    expect(doc.components.schemas['CanvassResponse']).toEqual(plain(CanvassResponse));
    expect(doc.components.schemas['BulkImportJobRequest']).toEqual(plain(BulkImportJobRequest));
    const find = doc.paths['/people/find']?.['post'] as {
      requestBody: { content: Record<string, { schema: unknown }> };
      security: unknown[];
      'x-rate-category': string;
      responses: Record<string, unknown>;
    };
    expect(find.requestBody.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/MatchCandidate' });
    expect(find.security).toEqual([{ basicAuth: [] }, { apiKeyHeader: [] }]);
    expect(find['x-rate-category']).toBe('Low');
    expect(Object.keys(find.responses)).toEqual(expect.arrayContaining(['302', '404', '400', '401', '429', '500']));
    expect(JSON.stringify(find.responses['302'])).toContain('RateLimit-Remaining');
    const health = doc.paths['/health']?.['get'] as { security: unknown[] };
    expect(health.security).toEqual([]);
    expect(doc.paths['/health']?.['servers']).toEqual([{ url: '/' }]);
    expect(doc.paths['/openapi.json']?.['servers']).toEqual([{ url: '/' }, { url: '/v2' }, { url: '/v4' }]);
  });
});

describe('GET /docs', () => {
  it('a page that loads Swagger UI and the document from this server only', async () => {
    const page = await s.app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('/docs/swagger-ui-bundle.js');
    expect(page.body).toContain("url: '/openapi.json'");
    expect(page.body).toContain('validatorUrl: null');
    expect(page.body).not.toMatch(/https?:\/\//);
    const js = await s.app.inject({ method: 'GET', url: '/docs/swagger-ui-bundle.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.body.length).toBeGreaterThan(100_000);
    expect((await s.app.inject({ method: 'GET', url: '/docs/swagger-ui.css' })).statusCode).toBe(200);
    expect((await s.app.inject({ method: 'GET', url: '/docs/..%2Fpackage.json' })).statusCode).toBe(404);
    expect((await s.app.inject({ method: 'GET', url: '/docs/index.html' })).statusCode).toBe(404);
  });
});

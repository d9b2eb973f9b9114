/**
 * The API's description: `GET /openapi.json` (also `/v2/openapi.json` and `/v4/openapi.json`,
 * the same document) and `GET /docs`, a browsable page (Swagger UI from the swagger-ui-dist
 * package, served by this server: no network at run time, no validator badge). No key, no rate
 * limit. The page's files come from the caller (src/cli/docs-assets.ts reads them).
 */
import type { FastifyInstance } from 'fastify';
import { notFound } from '../http-error.js';

/** The files of swagger-ui-dist the page loads. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Matchbook API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null });
</script>
</body>
</html>
`;

/** The page's files by name (`swagger-ui.css`, `swagger-ui-bundle.js`); null when not available. */
export type DocsAssets = (name: string) => Uint8Array | null;

/** Registers `/openapi.json` on `app` (root or a prefix); `document` builds it (cached by the caller). */
export function registerOpenApiRoute(app: FastifyInstance, document: () => Record<string, unknown>): void {
  app.get('/openapi.json', { logLevel: 'warn' }, async (_request, reply) => reply.code(200).header('cache-control', 'no-cache').send(document()));
}

/** Registers `/docs` and its assets on the root instance. */
export function registerDocsRoutes(app: FastifyInstance, assets: DocsAssets): void {
  app.get('/docs', { logLevel: 'warn' }, async (_request, reply) => reply.code(200).type('text/html; charset=utf-8').send(PAGE));
  app.get<{ Params: { file: string } }>('/docs/:file', { logLevel: 'warn' }, async (request, reply) => {
    const type = Object.prototype.hasOwnProperty.call(ASSETS, request.params.file) ? ASSETS[request.params.file] : undefined;
    const body = type === undefined ? null : assets(request.params.file);
    if (type === undefined || body === null) throw notFound();
    return reply.code(200).type(type).header('cache-control', 'public, max-age=3600').send(Buffer.from(body));
  });
}

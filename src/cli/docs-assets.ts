/**
 * The files of the `/docs` page, read from the installed swagger-ui-dist package (once each,
 * then kept): the server serves them itself, so the page needs no network.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { DocsAssets } from '../server/index.js';

const FILES: ReadonlySet<string> = new Set(['swagger-ui.css', 'swagger-ui-bundle.js']);

/** Reads swagger-ui-dist's page files; null for any other name. */
export function swaggerUiAssets(): DocsAssets {
  const cache = new Map<string, Uint8Array>();
  let dir: string | null = null;
  return (name) => {
    if (!FILES.has(name)) return null;
    let body = cache.get(name);
    if (body === undefined) {
      dir ??= dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
      body = readFileSync(join(dir, name));
      cache.set(name, body);
    }
    return body;
  };
}

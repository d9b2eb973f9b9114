// Keeps the layer rules of the architecture honest by scanning import specifiers:
// src/engine is pure (imports nothing of ours outside itself, touches no I/O, clock,
// randomness or environment), and other layers reach the engine only through its index.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}
const imports = (source: string): string[] =>
  [...source.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2] ?? '');

const ENGINE_PACKAGES = new Set(['fastest-levenshtein', 'libphonenumber-js', 'libphonenumber-js/max', 'validator', 'double-metaphone']);

describe('architecture', () => {
  const engine = files(join(ROOT, 'src', 'engine'));

  it('the engine imports only itself and its few libraries', () => {
    for (const file of engine) {
      for (const spec of imports(readFileSync(file, 'utf8'))) {
        if (spec.startsWith('.')) {
          const target = join(file, '..', spec);
          expect(relative(join(ROOT, 'src', 'engine'), target).startsWith('..'), `${relative(ROOT, file)} imports ${spec}`).toBe(false);
        } else {
          expect(ENGINE_PACKAGES.has(spec), `${relative(ROOT, file)} imports ${spec}`).toBe(true);
        }
      }
    }
  });

  it('the engine has no I/O, clock, randomness or environment', () => {
    for (const file of engine) {
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(code, relative(ROOT, file)).not.toMatch(/\bprocess\.|\bDate\.now\(|new Date\(|Math\.random\(|\bconsole\.|from ['"]node:/);
    }
  });

  it('other layers reach the engine only through its public entry', () => {
    for (const layer of ['crm', 'store', 'server', 'cli', 'eval']) {
      let list: string[] = [];
      try { list = files(join(ROOT, 'src', layer)); } catch { continue; }
      for (const file of list) {
        for (const spec of imports(readFileSync(file, 'utf8'))) {
          if (!spec.includes('engine/')) continue;
          expect(spec, `${relative(ROOT, file)} imports ${spec}`).toMatch(/engine\/index\.js$/);
        }
      }
    }
  });
});

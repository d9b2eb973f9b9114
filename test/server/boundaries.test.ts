/**
 * Layer rules of architecture.md for the adapters this suite owns: src/server and src/cli
 * import the domain only through its public entry, and src/server does no I/O of its own
 * (no environment, no files, no ports: the CLI does that).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? tsFiles(full) : name.endsWith('.ts') ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\b[^'"]+?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

describe('adapter boundaries', () => {
  for (const layer of ['server', 'cli']) {
    it(`src/${layer} reaches other layers only through their index`, () => {
      for (const file of tsFiles(join(SRC, layer))) {
        for (const spec of importsOf(file)) {
          const deep = /^(?:\.\.\/)+(crm|store|engine)\/(?!index\.js$)/.exec(spec);
          expect(deep, `${file} imports ${spec}`).toBeNull();
        }
      }
    });
  }

  it('src/server reads no environment and touches no files', () => {
    for (const file of tsFiles(join(SRC, 'server'))) {
      if (file.endsWith('main.ts')) continue;
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      expect(code, file).not.toMatch(/process\.env|from 'node:fs'|from 'fs'|\.listen\(/);
    }
  });
});

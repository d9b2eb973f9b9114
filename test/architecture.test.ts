// Keeps the layer rules of the architecture (architecture.md, README "Design notes") honest by
// scanning import specifiers: which layers each layer may import, which packages, that the
// adapters reach a layer only through its public entry (index.ts), that src/engine is pure,
// and that the CLI loads a command's modules only when that command runs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Static imports and re-exports of a file (`static`), and its dynamic `import('...')`s. */
function importsOf(file: string): { static: string[]; dynamic: string[] } {
  const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
  const statics = [...code.matchAll(/(?:^|;|\n)\s*(?:import|export)(?:\s+type)?[^'"`;]*?from\s+['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)].map(
    (m) => m[1] ?? m[2] ?? '',
  );
  const dynamic = [...code.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? '');
  return { static: statics, dynamic };
}

/** Every import of a file, static and dynamic. */
const allImports = (file: string): string[] => {
  const { static: s, dynamic: d } = importsOf(file);
  return [...s, ...d];
};

/** The layer (first folder under src) of a path. */
const layerOf = (path: string): string => relative(SRC, path).split(/[\\/]/)[0] ?? '';

/** The .ts file a relative specifier names. */
const resolveTs = (from: string, spec: string): string => join(dirname(from), spec).replace(/\.js$/, '.ts');

/**
 * What each layer may import of the others (itself always), from the bottom up; src/linkage
 * holds to its rule whether or not it exists yet. Nothing imports the CLI; only the CLI
 * (`serve`) imports the server.
 */
const LAYERS: Readonly<Record<string, readonly string[]>> = {
  engine: [],
  store: [],
  files: ['engine'],
  linkage: ['engine', 'files'],
  crm: ['engine', 'store', 'files'],
  server: ['crm'],
  cli: ['engine', 'files', 'linkage', 'crm', 'server'],
};

/** Adapters: they reach another layer only through its public entry, `src/<layer>/index.ts`. */
const ADAPTERS = ['server', 'cli'];

/** npm packages each layer may import (node: built-ins aside); one home for each concern. */
const PACKAGES: Readonly<Record<string, readonly string[]>> = {
  engine: ['fastest-levenshtein', 'libphonenumber-js/max', 'validator', 'double-metaphone', 'any-ascii'],
  store: ['better-sqlite3', 'pg'],
  files: ['papaparse', 'fflate'],
  linkage: [],
  crm: ['validator', '@sinclair/typebox', '@sinclair/typebox/compiler', 'ajv'],
  server: ['fastify', 'busboy', 'ioredis', 'prom-client'],
  cli: ['commander'],
};

describe('architecture', () => {
  const layers = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory());

  it('every folder of src is a layer with rules', () => {
    for (const layer of layers) expect(Object.keys(LAYERS), `src/${layer} has no rules in test/architecture.test.ts`).toContain(layer);
  });

  it('each layer imports only the layers it may use: nothing imports the CLI, only the CLI the server', () => {
    for (const layer of layers) {
      const allowed = new Set([layer, ...(LAYERS[layer] ?? [])]);
      for (const file of files(join(SRC, layer))) {
        for (const spec of allImports(file)) {
          if (!spec.startsWith('.')) continue;
          const target = resolveTs(file, spec);
          const to = layerOf(target);
          expect(allowed.has(to), `${relative(ROOT, file)} imports ${spec} (src/${layer} may import ${[...allowed].join(', ')})`).toBe(true);
        }
      }
    }
  });

  it('each layer imports only its own npm packages', () => {
    for (const layer of layers) {
      const allowed = new Set(PACKAGES[layer] ?? []);
      for (const file of files(join(SRC, layer))) {
        for (const spec of allImports(file)) {
          if (spec.startsWith('.') || spec.startsWith('node:')) continue;
          // A module of a package ('validator/lib/isEmail.js') counts as the package.
          const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string);
          expect(allowed.has(spec) || allowed.has(pkg), `${relative(ROOT, file)} imports ${spec}`).toBe(true);
        }
      }
    }
  });

  it('adapters reach another layer only through its public entry', () => {
    for (const layer of ADAPTERS) {
      for (const file of files(join(SRC, layer))) {
        for (const spec of allImports(file)) {
          if (!spec.startsWith('.')) continue;
          const target = resolveTs(file, spec);
          const to = layerOf(target);
          if (to === layer) continue;
          expect(relative(join(SRC, to), target), `${relative(ROOT, file)} imports ${spec}`).toBe('index.ts');
        }
      }
    }
  });

  it('other layers reach the engine only through its public entry', () => {
    for (const layer of layers.filter((l) => l !== 'engine')) {
      for (const file of files(join(SRC, layer))) {
        for (const spec of allImports(file)) {
          if (!spec.includes('engine/')) continue;
          expect(spec, `${relative(ROOT, file)} imports ${spec}`).toMatch(/engine\/index\.js$/);
        }
      }
    }
  });

  it('the engine has no I/O, clock, randomness or environment', () => {
    for (const file of files(join(SRC, 'engine'))) {
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(code, relative(ROOT, file)).not.toMatch(/\bprocess\.|\bDate\.now\(|new Date\(|Math\.random\(|\bconsole\.|from ['"]node:/);
    }
  });

  describe('the CLI loads only what a command needs', () => {
    /** Files and packages a module loads before any of its code runs (static imports, transitively). */
    function staticClosure(entry: string): { files: Set<string>; packages: Set<string> } {
      const seen = new Set<string>();
      const packages = new Set<string>();
      const todo = [entry];
      while (todo.length > 0) {
        const file = todo.pop() as string;
        if (seen.has(file)) continue;
        seen.add(file);
        for (const spec of importsOf(file).static) {
          if (spec.startsWith('.')) todo.push(resolveTs(file, spec));
          else packages.add(spec);
        }
      }
      return { files: seen, packages };
    }
    const layersOf = (closure: { files: Set<string> }): Set<string> => new Set([...closure.files].map(layerOf));

    it('matchbook --help loads the command list and commander only', () => {
      // main.ts imports the command list and the program when it runs a command itself (not the
      // file commands' code-cached script, code-cache.ts).
      const main = join(SRC, 'cli', 'main.ts');
      expect(importsOf(main).dynamic.sort()).toEqual(['./commands.js', './program.js']);
      const closure = { files: new Set<string>(), packages: new Set<string>() };
      for (const entry of [main, ...importsOf(main).dynamic.map((spec) => resolveTs(main, spec))]) {
        const c = staticClosure(entry);
        c.files.forEach((f) => closure.files.add(f));
        c.packages.forEach((p) => closure.packages.add(p));
      }
      expect([...layersOf(closure)]).toEqual(['cli']);
      expect([...closure.packages].filter((p) => !p.startsWith('node:'))).toEqual(['commander']);
    });

    it('dedupe, link and eval (and their code-cached script, file-cli.ts) load neither the server nor the database', () => {
      for (const command of ['dedupe', 'link', 'eval', 'file-cli']) {
        const closure = staticClosure(join(SRC, 'cli', `${command}.ts`));
        for (const layer of ['server', 'crm', 'store']) expect(layersOf(closure).has(layer), `${command} loads src/${layer}`).toBe(false);
        for (const pkg of PACKAGES['server'] ?? []) expect(closure.packages.has(pkg), `${command} loads ${pkg}`).toBe(false);
      }
    });
  });
});

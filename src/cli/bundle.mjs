#!/usr/bin/env node
// The second step of `npm run build` (after `tsc -p src`): bundles the compiled CLI, so that
// `matchbook` starts by reading a few files instead of resolving and reading about 200 ES
// modules one by one (ours and libphonenumber-js's 93). Measured on FEBRL4's `link`: the
// start-up of a two-row link 0.39 s instead of 0.50 s wall, 0.38 s instead of 0.66 s CPU
// (bench/README.md, "CLI start-up"); Node 20 has no compile cache for ES modules, and its
// loader reads, resolves and links each module asynchronously.
//
// What it writes, over tsc's output in dist/:
// - dist/cli/main.js, the `matchbook` bin: it runs the file commands from the code-cached
//   script below, and imports the commands' list and program for the others;
// - dist/cli/chunks/: each command's code (imported when it runs, as before: `serve` loads the
//   server, `dedupe` the engine), shared chunks, and worker.js, the matching worker thread
//   (linkage/worker-pool.ts starts `./worker.js` beside itself, which is in this directory);
// - dist/cli/chunks/files-HASH.cjs: the file commands (dedupe, link, eval) again, as one classic
//   script that main.js compiles with V8's code cache (code-cache.ts; HASH is its content's,
//   which names the cache). Written first: main.js is built with its name.
// Everything else in dist/ stays tsc's: the libraries (`matchbook/engine`, `matchbook/linkage`)
// are imported as modules, and their worker is dist/linkage/worker.js. Running `tsc -p src`
// alone writes dist/cli/main.js back unbundled, which still runs (more slowly) and knows no
// code-cached script; the chunks are then unused.
// Bundled in: our code and the small pure-JavaScript packages the file commands load. Left as
// packages (imported from node_modules at run time): everything else, the server's and the
// databases' (native modules, packages that read their own files).
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = join(ROOT, 'dist');
const CHUNKS = join(DIST, 'cli', 'chunks');

/** Packages bundled in (every other package stays an import). */
const INLINE = new Set(['libphonenumber-js', 'any-ascii', 'validator', 'papaparse', 'fflate', 'double-metaphone', 'fastest-levenshtein', 'commander']);

/** A bare import's package name ("libphonenumber-js/max" -> "libphonenumber-js"). */
function packageOf(path) {
  const parts = path.split('/');
  return path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Leaves the packages outside INLINE as imports. */
const packagesOutsideInline = {
  name: 'packages-outside-inline',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || INLINE.has(packageOf(args.path))) return undefined;
      return { path: args.path, external: true };
    });
  },
};

rmSync(CHUNKS, { recursive: true, force: true });

// The code-cached script (code-cache.ts): commands.ts's other commands are left out (main.js
// never runs them from it: their imports stay, unreached). `import.meta.url` is the script's
// own URL, as the ES modules' in the same directory (the worker pool's `./worker.js`); the
// script runs in strict mode, as ES modules do.
const FILE_COMMANDS_ONLY = /^\.\/(serve|tenants|keys|review|db)\.js$/;
const cached = await build({
  absWorkingDir: ROOT,
  entryPoints: [{ in: 'dist/cli/file-cli.js', out: 'cli/chunks/files' }],
  outdir: DIST,
  entryNames: '[dir]/[name]-[hash]',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  metafile: true,
  logLevel: 'warning',
  define: { 'import.meta.url': '__matchbookImportMetaUrl' },
  banner: { js: '"use strict";\nconst __matchbookImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [
    packagesOutsideInline,
    {
      name: 'file-commands-only',
      setup(b) {
        b.onResolve({ filter: FILE_COMMANDS_ONLY }, (args) =>
          args.importer.endsWith(`${sep}cli${sep}commands.js`) ? { path: args.path, external: true } : undefined,
        );
      },
    },
  ],
});
const cachedFile = Object.keys(cached.metafile.outputs).find((output) => output.endsWith('.cjs'));
if (cachedFile === undefined) throw new Error('bundle: the code-cached script was not written');

const result = await build({
  absWorkingDir: ROOT,
  entryPoints: [
    { in: 'dist/cli/main.js', out: 'cli/main' },
    { in: 'dist/linkage/worker.js', out: 'cli/chunks/worker' },
  ],
  outdir: DIST,
  allowOverwrite: true,
  chunkNames: 'cli/chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  // The CommonJS packages bundled in (commander, papaparse, validator) call require() for Node's
  // own modules, which an ES module has not got.
  banner: { js: "import { createRequire as __matchbookRequire } from 'node:module'; const require = __matchbookRequire(import.meta.url);" },
  define: { __MATCHBOOK_FILE_CLI__: JSON.stringify(basename(cachedFile)) },
  plugins: [packagesOutsideInline],
});

// The worker pool starts `new URL('./worker.js', import.meta.url)`: its code must be in a file
// of dist/cli/chunks, beside the worker.
const pool = join('dist', 'linkage', 'worker-pool.js');
for (const [output, meta] of [...Object.entries(result.metafile.outputs), ...Object.entries(cached.metafile.outputs)]) {
  if (!Object.keys(meta.inputs).some((input) => input.split('/').join(sep) === pool)) continue;
  if (relative(CHUNKS, join(ROOT, output)).startsWith('..')) {
    throw new Error(`bundle: ${pool} landed in ${output}, not beside the worker in dist/cli/chunks`);
  }
}

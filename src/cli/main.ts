#!/usr/bin/env node
/**
 * Entry point of the `matchbook` command (subcommands: commands.ts). The file commands run
 * from the code-cached bundle when the build wrote one (code-cache.ts); every other command,
 * and every command of an unbundled build (`tsc -p src` alone), imports its modules.
 */
import { runCached } from './code-cache.js';

/** The code-cached bundle's file name in dist/cli/chunks/, set by src/cli/bundle.mjs (esbuild `define`); absent unbundled. */
declare const __MATCHBOOK_FILE_CLI__: string | undefined;

const args = process.argv.slice(2);
const bundle = typeof __MATCHBOOK_FILE_CLI__ === 'string' ? new URL(`./chunks/${__MATCHBOOK_FILE_CLI__}`, import.meta.url) : null;
const code = bundle === null ? null : await runCached(bundle, args);
if (code !== null) process.exitCode = code;
else {
  const [{ COMMANDS }, { runCli }] = await Promise.all([import('./commands.js'), import('./program.js')]);
  process.exitCode = await runCli(args, COMMANDS);
}

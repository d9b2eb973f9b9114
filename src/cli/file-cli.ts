/**
 * Entry of the code-cached bundle (src/cli/bundle.mjs writes it as one classic script,
 * dist/cli/chunks/files-HASH.cjs; code-cache.ts runs it): the CLI as main.ts runs it, for the
 * file commands (code-cache.ts CACHED_COMMANDS).
 */
import { COMMANDS } from './commands.js';
import { runCli } from './program.js';

/** Runs the CLI with `args` (without node and script); answers the exit code. */
export function run(args: readonly string[]): Promise<number> {
  return runCli(args, COMMANDS);
}

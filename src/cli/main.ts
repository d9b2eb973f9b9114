#!/usr/bin/env node
/** Entry point of the `matchbook` command (subcommands: commands.ts). */
import { COMMANDS } from './commands.js';
import { runCli } from './program.js';

process.exitCode = await runCli(process.argv.slice(2), COMMANDS);

#!/usr/bin/env node
/**
 * Entry point of the `matchbook` command: the registry of subcommands. To add a subcommand,
 * write `registerX(program, io)` in its own file and list it here.
 */
import { runCli, type CommandRegistrar } from './program.js';
import { registerDb } from './db.js';
import { registerDedupe } from './dedupe.js';
import { registerEval } from './eval.js';
import { registerKeys } from './keys.js';
import { registerLink } from './link.js';
import { registerServe } from './serve.js';
import { registerTenants } from './tenants.js';

/** Every subcommand, in help order. */
const COMMANDS: readonly CommandRegistrar[] = [registerServe, registerTenants, registerKeys, registerDedupe, registerLink, registerEval, registerDb];

process.exitCode = await runCli(process.argv.slice(2), COMMANDS);

/**
 * The command list of `matchbook --help` is written in src/cli/commands.ts so that it loads no
 * command's module; these keep it equal to what each command's registrar defines.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import type { CliIo } from '../../src/cli/io.js';
import { createProgram, defaultTerm, runCli } from '../../src/cli/program.js';

const io = (out: string[] = []): CliIo => ({
  stdout: (t) => void out.push(t),
  stderr: (t) => void out.push(t),
  env: {},
  cwd: process.cwd(),
  handleSignals: false,
});

describe('matchbook subcommands', () => {
  it.each(COMMANDS.map((c) => [c.name, c] as const))("%s: the listed term and description are the registrar's", async (_name, entry) => {
    const program = new Command('matchbook');
    (await entry.load())(program, io());
    const real = program.commands.find((c) => c.name() === entry.name);
    expect(real?.description()).toBe(entry.description);
    expect(real === undefined ? null : defaultTerm(real)).toBe(entry.term);
  });

  it('registers only the command that runs; the others are listed by name', async () => {
    const program = await createProgram(COMMANDS, io(), ['keys', 'list']);
    const keys = program.commands.find((c) => c.name() === 'keys');
    const dedupe = program.commands.find((c) => c.name() === 'dedupe');
    expect(keys?.commands.map((c) => c.name())).toEqual(['create', 'list', 'revoke']);
    expect(dedupe?.options).toEqual([]);
    const out: string[] = [];
    expect(await runCli(['help', 'dedupe'], COMMANDS, io(out))).toBe(0);
    expect(out.join('')).toMatch(/--threshold <bits>/);
  });
});

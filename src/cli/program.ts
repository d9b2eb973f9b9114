/**
 * Builds and runs the `matchbook` command from its subcommands. A subcommand's module is
 * imported only when it runs (or its help is asked for): `matchbook --help` and `dedupe` load
 * neither the server nor the database drivers. Errors end as one line on stderr and a
 * non-zero exit code, never a stack trace.
 */
import { Command, CommanderError, Help } from 'commander';
import { describeError, processIo, type CliIo } from './io.js';

/** Adds one subcommand (or group) to the program. */
export type CommandRegistrar = (program: Command, io: CliIo) => void;

/** A subcommand whose module is imported only when it is the one run. */
export interface LazyCommand {
  readonly name: string;
  /** How the command list of `matchbook --help` shows it ("dedupe [options] <input>"). */
  readonly term: string;
  /** The description its registrar gives it (test/cli/program.test.ts keeps both equal). */
  readonly description: string;
  /** Imports the module and answers its registrar. */
  readonly load: () => Promise<CommandRegistrar>;
}

/** The subcommand `args` run (its help included: `help NAME`, `NAME --help`), or null. */
function invokedName(args: readonly string[]): string | null {
  const first = args[0];
  if (first === undefined || first.startsWith('-')) return null;
  return first === 'help' ? (args[1] ?? null) : first;
}

/**
 * Creates the program with its subcommands; output goes through `io`. A lazy subcommand is
 * registered for real only when `args` run it; the others are listed by name for the help.
 */
export async function createProgram(commands: readonly (CommandRegistrar | LazyCommand)[], io: CliIo, args: readonly string[] = []): Promise<Command> {
  const listed = new Map<Command, string>();
  const program = new Command('matchbook')
    .description('Contact matching engine and multi-tenant CRM matching API')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
    })
    .configureHelp({ subcommandTerm: (cmd) => listed.get(cmd) ?? defaultTerm(cmd) })
    .showSuggestionAfterError(true);
  const invoked = invokedName(args);
  for (const command of commands) {
    if (typeof command === 'function') command(program, io);
    else if (command.name === invoked) (await command.load())(program, io);
    else listed.set(program.command(command.name).description(command.description), command.term);
  }
  return program;
}

/** Commander's own term of a subcommand: its name, "[options]" when it has any, its arguments. */
export function defaultTerm(cmd: Command): string {
  return new Help().subcommandTerm(cmd);
}

/**
 * Run the CLI with `args` (without node and script) and answer the exit code. Commander's
 * own usage errors are already printed by commander; other errors are printed here.
 */
export async function runCli(args: readonly string[], commands: readonly (CommandRegistrar | LazyCommand)[], io: CliIo = processIo()): Promise<number> {
  try {
    const program = await createProgram(commands, io, args);
    await program.parseAsync([...args], { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    io.stderr(`matchbook: error: ${describeError(err)}\n`);
    return 1;
  }
}

/**
 * Builds and runs the `matchbook` command from a list of subcommand registrars. Errors end
 * as one line on stderr and a non-zero exit code, never a stack trace.
 */
import { Command, CommanderError } from 'commander';
import { describeError, processIo, type CliIo } from './io.js';

/** Adds one subcommand (or group) to the program. */
export type CommandRegistrar = (program: Command, io: CliIo) => void;

/** Create the program with its subcommands; output goes through `io`. */
export function createProgram(registrars: readonly CommandRegistrar[], io: CliIo): Command {
  const program = new Command('matchbook')
    .description('Contact matching engine and multi-tenant CRM matching API')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
    })
    .showSuggestionAfterError(true);
  for (const register of registrars) register(program, io);
  return program;
}

/**
 * Run the CLI with `args` (without node and script) and answer the exit code. Commander's
 * own usage errors are already printed by commander; other errors are printed here.
 */
export async function runCli(
  args: readonly string[],
  registrars: readonly CommandRegistrar[],
  io: CliIo = processIo(),
): Promise<number> {
  const program = createProgram(registrars, io);
  try {
    await program.parseAsync([...args], { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    io.stderr(`matchbook: error: ${describeError(err)}\n`);
    return 1;
  }
}

/**
 * What a CLI command may touch of the outside world, passed in so that commands can run
 * in-process in tests: output streams, environment and working directory. Light: every
 * command loads it (the database's path is db-path.ts).
 */

/** Outputs and environment of one CLI run. */
export interface CliIo {
  /** Write to standard output (machine-readable results). */
  readonly stdout: (text: string) => void;
  /** Write to standard error (messages for people). */
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Whether `serve` installs SIGINT/SIGTERM handlers (true for the real process). */
  readonly handleSignals: boolean;
}

/** The real process's io. */
export function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    handleSignals: true,
  };
}

/** One line of text for an error, never a stack trace. */
export function describeError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/\s*\n\s*/g, ' ').trim() || 'unknown error';
}

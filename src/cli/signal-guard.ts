/**
 * How `serve` stops: SIGINT/SIGTERM close the server, then the database; a second signal or a
 * shutdown that takes longer than {@link SHUTDOWN_TIMEOUT_MS} exits at once.
 */
import { describeError, type CliIo } from './io.js';
import type { RunningServer } from './serve.js';

/** Longest a shutdown may take before the process exits anyway, in ms. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * SIGINT/SIGTERM handling, installed BEFORE the server starts (a signal that arrives before a
 * handler exists kills the process outright): close the server, then the database. A signal
 * during startup stops the server as soon as it is up; a second signal or a stuck close exits at once.
 */
export class SignalGuard {
  private server: RunningServer | null = null;
  private stopping = false;
  private readonly onSignal = (signal: NodeJS.Signals): void => {
    if (this.stopping) {
      this.io.stderr(`matchbook: ${signal} again, exiting now\n`);
      process.exit(1);
    }
    this.stopping = true;
    this.io.stderr(`matchbook: ${signal} received, shutting down\n`);
    setTimeout(() => {
      this.io.stderr('matchbook: shutdown timed out\n');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    if (this.server !== null) this.stop(this.server);
  };

  constructor(private readonly io: CliIo) {
    process.on('SIGINT', this.onSignal);
    process.on('SIGTERM', this.onSignal);
  }

  /** The server is up; answers false when a signal already asked to stop (it is being stopped). */
  started(server: RunningServer): boolean {
    this.server = server;
    if (this.stopping) this.stop(server);
    return !this.stopping;
  }

  /** Startup failed: stop listening for signals. */
  dispose(): void {
    process.removeListener('SIGINT', this.onSignal);
    process.removeListener('SIGTERM', this.onSignal);
  }

  private stop(server: RunningServer): void {
    server.close().then(
      () => {
        this.dispose();
        this.io.stderr('matchbook: stopped\n');
      },
      (err: unknown) => {
        this.io.stderr(`matchbook: error during shutdown: ${describeError(err)}\n`);
        process.exit(1);
      },
    );
  }
}

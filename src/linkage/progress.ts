/**
 * How long linkage work reports its progress: phases with a count done of a total (or of an
 * unknown total). The CLI's progress bar implements it; a script can pass {@link SILENT}.
 */

/** Receives the progress of long work. */
export interface ProgressSink {
  /** A phase starts: `total` items (null when unknown), counted in `unit` (default rows). */
  start(phase: string, total: number | null, unit?: string): void;
  /** `done` items so far; `fraction` of the work when the total is unknown (bytes read, say). */
  update(done: number, fraction?: number | null): void;
  /** The phase ends. */
  finish(): void;
}

/** A sink that shows nothing. */
export const SILENT: ProgressSink = { start: () => undefined, update: () => undefined, finish: () => undefined };

/**
 * Start-up waits of the tests: they poll for readiness (a line a child prints, an HTTP
 * endpoint answering 200) instead of sleeping, with a generous limit, and when they give up
 * they say what they waited for and print the child's output, so a failure on a loaded
 * machine can be read (issue 15: "serve did not start" with an empty stderr).
 */

/**
 * How long a start-up may take before a test gives up, ms: generous, as a loaded 2-core
 * machine can take tens of seconds to start a TypeScript child. `MATCHBOOK_TEST_START_MS`
 * overrides. Kept below the suite's hook and test timeouts (test/run-tests.mjs), so the wait
 * reports first.
 */
export const START_LIMIT_MS = Number(process.env['MATCHBOOK_TEST_START_MS'] ?? '') || 100_000;

/** A start-up that did not become ready in time, or whose child ended first. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

/** What a waiting test knows about the child it waits for, to show when it gives up. */
export interface Waited {
  /** e.g. "serve --db x". */
  readonly what: string;
  /** The child's output so far. */
  output(): string;
  /** Set when the child ended: how. */
  ended(): string | null;
}

function failure(w: Waited, why: string): StartupError {
  const out = w.output().trim();
  return new StartupError(`${w.what}: ${why}\n--- its output ---\n${out === '' ? '(nothing)' : out}\n---`);
}

/**
 * Polls `probe` every `everyMs` until it returns a value other than undefined. Gives up (a
 * StartupError with the child's output) when the child ended or after `limitMs`.
 */
export async function pollUntil<T>(
  w: Waited,
  probe: () => Promise<T | undefined> | T | undefined,
  options: { limitMs?: number; everyMs?: number } = {},
): Promise<T> {
  const limitMs = options.limitMs ?? START_LIMIT_MS;
  const everyMs = options.everyMs ?? 50;
  const end = performance.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    const ended = w.ended();
    if (ended !== null) throw failure(w, `ended (${ended}) before it was ready`);
    if (performance.now() > end) throw failure(w, `not ready after ${Math.round(limitMs / 1000)} s`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** True when `url` answers 200 (false on any other status or a connection error). */
export async function answers200(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * Progress of long work, on standard error only (standard output carries data): a bar
 * redrawn in place when stderr is a terminal (rows/s and ETA), plain periodic lines when it
 * is not (logs, CI), nothing when switched off. The clock is injectable for tests.
 */

/** How progress is shown: `tty` a redrawn bar, `plain` periodic lines, `none` nothing. */
export type ProgressMode = 'tty' | 'plain' | 'none';

/** Options of {@link Progress}. */
export interface ProgressOptions {
  readonly mode: ProgressMode;
  readonly write: (text: string) => void;
  /** Milliseconds since some origin. Default performance.now. */
  readonly now?: () => number;
  /** Least time between two plain lines, ms. Default 5000. */
  readonly plainIntervalMs?: number;
  /** Least time between two redraws of the bar, ms. Default 100. */
  readonly ttyIntervalMs?: number;
  /** Width of the bar in characters. Default 24. */
  readonly barWidth?: number;
}

/** The mode for `--progress auto`: a bar on a terminal, lines otherwise. */
export function autoProgressMode(stderrIsTTY: boolean | undefined): ProgressMode {
  return stderrIsTTY === true ? 'tty' : 'plain';
}

/**
 * "1,234,567": `Math.round(n).toLocaleString('en-US')`, with the separators put in by hand for
 * safe integers. The first toLocaleString of a process loads ICU's number formatting (about
 * 40 ms, a tenth of a small `link`'s start-up); anything else (infinities, -0, huge values)
 * still goes to it.
 */
export function formatCount(n: number): string {
  const r = Math.round(n);
  if (!Number.isSafeInteger(r) || Object.is(r, -0)) return r.toLocaleString('en-US');
  const digits = String(Math.abs(r));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return r < 0 ? `-${out}` : out;
}

/** "0:42", "12:05", "1:02:03". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** One phase's state and its rendering. */
export class Progress {
  private phase = '';
  private total: number | null = null;
  private unit = 'rows';
  private started = 0;
  private lastDraw = -Infinity;
  private drawn = false;
  private done = 0;
  private fraction: number | null = null;
  private readonly now: () => number;

  constructor(private readonly options: ProgressOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /** Starts a phase; `total` is the amount of work when known (else progress is by fraction). */
  start(phase: string, total: number | null = null, unit = 'rows'): void {
    this.clear();
    this.phase = phase;
    this.total = total;
    this.unit = unit;
    this.started = this.now();
    this.lastDraw = this.started;
    this.done = 0;
    this.fraction = total === 0 ? 1 : null;
  }

  /**
   * Reports `done` units; `fraction` (0-1) when the share of work done is known otherwise
   * (bytes of a file read). Redraws at most every interval.
   */
  update(done: number, fraction: number | null = null): void {
    this.done = done;
    this.fraction = fraction ?? (this.total !== null && this.total > 0 ? done / this.total : null);
    if (this.options.mode === 'none') return;
    const t = this.now();
    const interval = this.options.mode === 'tty' ? (this.options.ttyIntervalMs ?? 100) : (this.options.plainIntervalMs ?? 5000);
    if (t - this.lastDraw < interval) return;
    this.lastDraw = t;
    this.draw(t);
  }

  /** Ends the phase: clears the bar (the caller prints its own summary). */
  finish(): void {
    this.clear();
    this.phase = '';
  }

  /** Seconds since the phase started. */
  elapsedSeconds(): number {
    return (this.now() - this.started) / 1000;
  }

  /** The line describing the current state (also used for plain mode). */
  describe(t = this.now()): string {
    const elapsed = Math.max(1e-9, (t - this.started) / 1000);
    const rate = this.done / elapsed;
    const f = this.fraction;
    const parts = [this.phase];
    if (f !== null) parts.push(`${Math.floor(Math.min(1, f) * 100)}%`);
    parts.push(this.total !== null ? `${formatCount(this.done)}/${formatCount(this.total)} ${this.unit}` : `${formatCount(this.done)} ${this.unit}`);
    parts.push(`${formatCount(rate)} ${this.unit}/s`);
    if (f !== null && f > 0 && f < 1) parts.push(`ETA ${formatDuration((elapsed * (1 - f)) / f)}`);
    return parts.join('  ');
  }

  private draw(t: number): void {
    if (this.options.mode === 'plain') {
      this.options.write(`matchbook: ${this.describe(t)}\n`);
      return;
    }
    const width = this.options.barWidth ?? 24;
    const f = this.fraction === null ? null : Math.min(1, Math.max(0, this.fraction));
    const bar = f === null ? '' : `[${'#'.repeat(Math.round(f * width)).padEnd(width, '-')}]  `;
    const [phase, ...rest] = this.describe(t).split('  ');
    this.options.write(`\r\x1b[K${phase ?? ''}  ${bar}${rest.join('  ')}`);
    this.drawn = true;
  }

  private clear(): void {
    if (this.drawn && this.options.mode === 'tty') this.options.write('\r\x1b[K');
    this.drawn = false;
  }
}

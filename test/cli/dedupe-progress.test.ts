/** Progress on stderr: a bar on a terminal, plain periodic lines otherwise, nothing when off. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { autoProgressMode, formatCount, formatDuration, Progress, type ProgressMode } from '../../src/cli/progress.js';

function harness(mode: ProgressMode) {
  let now = 0;
  let out = '';
  const progress = new Progress({ mode, write: (t) => (out += t), now: () => now, plainIntervalMs: 5000, ttyIntervalMs: 100 });
  return {
    progress,
    advance: (ms: number) => (now += ms),
    out: () => out,
  };
}

describe('Progress', () => {
  it('plain: one line per interval with rows/s and ETA; nothing before the first interval', () => {
    const h = harness('plain');
    h.progress.start('matching', 1000);
    h.advance(1000);
    h.progress.update(100);
    expect(h.out()).toBe('');
    h.advance(4000);
    h.progress.update(500);
    expect(h.out()).toBe('matchbook: matching  50%  500/1,000 rows  100 rows/s  ETA 0:05\n');
    h.advance(1000);
    h.progress.update(600);
    expect(h.out().split('\n').length).toBe(2);
    h.progress.finish();
    expect(h.out().endsWith('\n')).toBe(true);
  });

  it('tty: redraws one line in place, with a bar, and clears it at the end', () => {
    const h = harness('tty');
    h.progress.start('reading', null);
    h.advance(200);
    h.progress.update(2048, 0.25);
    expect(h.out()).toBe('\r\x1b[Kreading  [######------------------]  25%  2,048 rows  10,240 rows/s  ETA 0:01');
    h.advance(50);
    h.progress.update(4096, 0.5);
    expect(h.out()).not.toContain('4,096');
    h.progress.finish();
    expect(h.out().endsWith('\r\x1b[K')).toBe(true);
    expect(h.out()).not.toContain('\n');
  });

  it('none: writes nothing', () => {
    const h = harness('none');
    h.progress.start('x', 10);
    h.advance(100_000);
    h.progress.update(5);
    h.progress.finish();
    expect(h.out()).toBe('');
  });

  it('auto mode and formats', () => {
    expect(autoProgressMode(true)).toBe('tty');
    expect(autoProgressMode(false)).toBe('plain');
    expect(autoProgressMode(undefined)).toBe('plain');
    expect(formatCount(1234567.4)).toBe('1,234,567');
    expect(formatDuration(5)).toBe('0:05');
    expect(formatDuration(725)).toBe('12:05');
    expect(formatDuration(3723)).toBe('1:02:03');
    expect(formatDuration(Number.NaN)).toBe('--:--');
  });

  it('formatCount writes what toLocaleString("en-US") writes', () => {
    for (const n of [0, 1, 999, 1000, 999_999, 1_000_000, -1, -1000, -0.4, 0.5, -0.5, 2 ** 53, -(2 ** 53), 1e21, Infinity, -Infinity, Number.NaN]) {
      expect(formatCount(n)).toBe(Math.round(n).toLocaleString('en-US'));
    }
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -1e12, max: 1e12 }), fc.double({ noNaN: false })),
        (n) => formatCount(n) === Math.round(n).toLocaleString('en-US'),
      ),
      { seed: 20261126, numRuns: 2000 },
    );
  });
});

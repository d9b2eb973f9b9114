import { describe, expect, it } from 'vitest';
import { parseCpuLine, parseTimeLine } from '../../bench/dedupe.bench.js';

describe('bench:dedupe reads the CLI summary', () => {
  it("reads every phase of the learned rules' time line", () => {
    const text =
      'records 100,000; clusters 82,703\ntime 28.1 s (read and index 7.0 s, estimate 3.4 s, match 15.6 s, cluster 0.4 s, write 1.3 s) on 2 threads; 3,559 rows/s; cpu 49.0 s, peak memory 1.2 GB\n';
    expect(parseTimeLine(text)).toEqual({
      phases: { 'read and index': 7, estimate: 3.4, match: 15.6, cluster: 0.4, write: 1.3 },
      threads: 2,
      cpuSeconds: 49,
      peakRssBytes: 1.2 * 1024 ** 3,
    });
  });

  it('reads a run without estimation (--rules crm) and one thread', () => {
    const parsed = parseTimeLine(
      'time 7.0 s (read and index 2.9 s, match 2.1 s, cluster 0.2 s, write 1.0 s) on 1 thread; 14,301 rows/s; cpu 10.9 s, peak memory 650 MB',
    );
    expect(parsed?.phases).toEqual({ 'read and index': 2.9, match: 2.1, cluster: 0.2, write: 1 });
    expect(parsed?.threads).toBe(1);
    expect(parsed?.peakRssBytes).toBe(650 * 1024 ** 2);
  });

  it('names a phase it does not know instead of dropping it, and answers null without a time line', () => {
    expect(() => parseTimeLine('time 9.0 s (read and index 2.0 s, sorting 1.0 s) on 2 threads; 1 rows/s; cpu 9.0 s, peak memory 1 GB')).toThrow(
      /unknown phase "sorting 1.0 s"/,
    );
    expect(parseTimeLine('wrote 5 rows')).toBeNull();
  });

  it('reads the CPU of each phase, and nothing from a summary without that line', () => {
    const text =
      'time 28.1 s (read and index 7.0 s) on 2 threads; 3,559 rows/s; cpu 49.0 s, peak memory 1.2 GB\ncpu by phase (every thread): read and index 9.1 s, estimate 3.3 s, match 30.2 s, cluster 0.4 s, write 1.2 s\n';
    expect(parseCpuLine(text)).toEqual({ 'read and index': 9.1, estimate: 3.3, match: 30.2, cluster: 0.4, write: 1.2 });
    expect(parseCpuLine('time 1 s')).toEqual({});
    expect(() => parseCpuLine('cpu by phase (every thread): sorting 1.0 s')).toThrow(/unknown phase "sorting 1.0 s"/);
  });
});

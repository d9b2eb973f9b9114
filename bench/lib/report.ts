/** Shared helpers of the benchmarks: the machine they ran on, statistics, table printing. */
import { spawnSync } from 'node:child_process';
import os from 'node:os';

export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly os: string;
  /** ISO date and time of the run (UTC). */
  readonly date: string;
  /** 1-minute load average when the run started: above the core count, numbers are noisy. */
  readonly loadAverage: number;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${os.platform()} ${os.release()} ${os.arch()}`,
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    loadAverage: Math.round((os.loadavg()[0] ?? 0) * 10) / 10,
  };
}

/**
 * The engine revision measured: BENCH_ENGINE_REV if set (e.g. for a `git archive` snapshot),
 * else the last git commit of `dir` touching src/engine, "+dirty" when it has uncommitted changes.
 */
export function engineRevision(dir: string): string {
  const fromEnv = process.env.BENCH_ENGINE_REV;
  if (fromEnv !== undefined && fromEnv.length > 0) return fromEnv;
  // The last commit that touched the engine, not HEAD (which may be a bench or server commit).
  const head = spawnSync('git', ['-C', dir, 'log', '-1', '--format=%h', '--', 'src/engine'], { encoding: 'utf8' });
  if (head.status !== 0) return 'unknown';
  const dirty = spawnSync('git', ['-C', dir, 'status', '--porcelain', '--', 'src/engine'], { encoding: 'utf8' });
  return `${head.stdout.trim()}${dirty.stdout.trim().length > 0 ? '+dirty' : ''}`;
}

export function describeMachine(m: MachineInfo): string {
  return `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.os}; ${m.date}, load average ${m.loadAverage} at start`;
}

/** The q-quantile (0..1) of values, by nearest rank on a sorted copy. */
export function quantile(values: ArrayLike<number>, q: number): number {
  const sorted = Float64Array.from(values).sort();
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/**
 * A cell that reads as a number ("1,234", "~12 ms", "<5%", "2.1 MB", "x1.02 (3)"): comparison
 * and number marks, a digit, then numbers and units. Split at the first digit, so no two
 * quantifiers compete for the same characters.
 */
const NUMERIC_CELL = /^[.,\s%×x<>=~+-]*\d[\d.,\s%µmskKMGB/×x()<>=~+-]*$/;

/** Renders rows as a GitHub-flavoured Markdown table (numbers right-aligned). */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = header.map((_h, i) => rows.length > 0 && rows.every((r) => NUMERIC_CELL.test(r[i] ?? '')));
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (numeric[i] ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** 1234567 -> "1,234,567"; with digits, fixed decimals. */
export function fmt(n: number, digits = 0): string {
  if (!Number.isFinite(n)) return 'n/a';
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Parses "--name value" and "--flag" arguments. */
export function parseArgs(argv: readonly string[]): { get(name: string): string | undefined; has(name: string): boolean } {
  return {
    get(name) {
      const i = argv.indexOf(name);
      const v = i >= 0 ? argv[i + 1] : undefined;
      return v !== undefined && !v.startsWith('--') ? v : undefined;
    },
    has(name) {
      return argv.includes(name);
    },
  };
}

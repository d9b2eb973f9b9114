/**
 * Engine benchmark (`npm run bench`): normalize throughput, index build time, heap bytes per
 * record, find throughput and latency, and find accuracy on the synthetic corpus's truth.
 *
 *   npm run bench                               # 10k, 100k, 1M records, one run each
 *   npm run bench -- --quick                    # 10k only
 *   npm run bench -- --sizes 10000,100000 --runs 3 --queries 20000 --seed 42
 *   npm run bench -- --json                     # machine-readable results on stdout
 *   npm run bench -- --detail                   # recall per noise kind, errors per query kind
 *   npm run bench -- --runs 3 --readme          # also rewrite bench/README.md's engine section
 *   npm run bench -- --from-json out.json --readme   # re-render a saved --json result
 *
 * Each (size, run) is measured in a fresh child process started with --expose-gc, so heap
 * deltas are clean and one size's garbage does not slow the next. With several runs the
 * table shows medians. Targets (issue 2) at 1M records on one core: build <= 30 s,
 * <= 1 KB heap per record, find p99 <= 1 ms and >= 20,000 finds/s.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver } from 'node:perf_hooks';
import { ContactIndex, normalizeContact } from '../src/engine/index.js';
import type { ContactInput, MatchResult } from '../src/engine/index.js';
import { generateCorpus } from './corpus.js';
import type { CorpusQuery } from './corpus.js';
import { updateReadmeSection } from './lib/readme.js';
import { describeMachine, engineRevision, fmt, machineInfo, markdownTable, median, parseArgs, quantile } from './lib/report.js';
import type { MachineInfo } from './lib/report.js';

const DEFAULT_SIZES = [10_000, 100_000, 1_000_000];
const DEFAULT_QUERIES = 20_000;
const DEFAULT_SEED = 42;
/** Records normalized for the throughput figure (independent of corpus size). */
const NORMALIZE_SAMPLE = 100_000;
/**
 * Records generated per batch while building; only upsert time is counted. About the batch
 * size real callers hold (the CLI reads 2,048 rows at a time): a larger batch kept alive
 * during the upserts only made the garbage collector copy the generator's objects.
 */
const BUILD_CHUNK = 2_000;
/**
 * Finds run before the timed ones, on queries of their own (the corpus's next ones: the timed
 * set stays the first `--queries`), so that the timed finds measure the steady state a running
 * server is in. V8 is still compiling the find path long after the first thousand finds (the
 * warm-up until 2026-11-27): at 1M records, passes of 20,000 fresh queries in one process ran
 * at 17-24k/s right after a 1,000-find warm-up, 22-27k/s next and 25-28k/s from the third on
 * (2026-11-27, load about 1). The warm-up's own rate is reported as "first finds/s".
 */
const WARMUP_FINDS = 40_000;
const INDEX_OPTIONS = { defaultCountry: 'US' } as const;

export const TARGETS = {
  buildSeconds: 30,
  heapBytesPerRecord: 1024,
  findP99Micros: 1000,
  findsPerSecond: 20_000,
} as const;

interface Accuracy {
  readonly queries: number;
  readonly existing: number;
  readonly truePositives: number;
  /** Matched to the wrong record, or matched someone new. */
  readonly falsePositives: number;
  /** Possible (review band) on the right record. */
  readonly possibleCorrect: number;
  readonly possibleTotal: number;
  readonly precision: number;
  readonly recall: number;
}

interface Detail {
  /** Recall of existing queries carrying each noise tag: [queries, matched correctly]. */
  readonly recallByNoise: Record<string, [number, number]>;
  /** Per query kind: [queries, matched correctly, matched wrongly, possible]. */
  readonly byKind: Record<string, [number, number, number, number]>;
  /** Reasons of the unmatched existing queries. */
  readonly missReasons: Record<string, number>;
  /** A few wrong matches, for eyeballing. */
  readonly falsePositiveSamples: readonly { query: ContactInput; truth: number | null; got: number | null; kind: string }[];
  /** A few people not in the corpus whom find called Possible, with the fields that scored. */
  readonly possibleNewSamples: readonly { query: ContactInput; got: number | null; score: number; fields: string }[];
}

export interface RunResult {
  readonly size: number;
  readonly seed: number;
  readonly normalize: { readonly records: number; readonly ms: number; readonly cpuMs: number; readonly perSecond: number };
  /** Wall time and process CPU time (user + system, all threads) of the upserts. */
  readonly build: { readonly ms: number; readonly cpuMs: number; readonly perSecond: number; readonly gcMs: number };
  readonly memory: {
    readonly heapUsedDelta: number;
    readonly externalDelta: number;
    /** (heapUsed + external) delta per record. */
    readonly bytesPerRecord: number;
    readonly rssAfter: number;
  };
  readonly find: {
    readonly count: number;
    readonly ms: number;
    readonly perSecond: number;
    /** Finds per second of the warm-up ({@link WARMUP_FINDS} finds right after the build, V8 still compiling). Absent in results saved before 2026-11-27 23:59 UTC. */
    readonly firstPerSecond?: number;
    /** Garbage-collection pauses (main thread) during the timed finds. */
    readonly gcMs: number;
    /** Finds per second of process CPU time: steadier than wall time on a busy machine. */
    readonly perCpuSecond: number;
    readonly perSecondExplained: number;
    readonly p50Micros: number;
    readonly p90Micros: number;
    readonly p99Micros: number;
    readonly maxMicros: number;
    readonly candidatesMean: number;
    readonly candidatesP99: number;
    /**
     * CPU µs per find by phase, each phase timed as its own pass over all queries:
     * normalizing the candidate, collecting candidate ids from the blocking keys, scoring and
     * deciding (findNormalized without explanation, minus candidate collection), and building
     * the explanation.
     */
    readonly phasesCpuMicros: { readonly normalize: number; readonly candidates: number; readonly score: number; readonly explain: number };
  };
  readonly accuracy: Accuracy;
  readonly detail: Detail;
}

/**
 * Records garbage-collection pauses; `pausedMs(windows)` sums those that started inside the
 * given [start, end] windows (performance.now() time), so GCs outside the timed code, whose
 * entries arrive later, are not counted.
 */
function gcMeter(): { pausedMs(windows: readonly (readonly [number, number])[]): Promise<number> } {
  const entries: [number, number][] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) entries.push([e.startTime, e.duration]);
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    async pausedMs(windows) {
      await flushGcEntries();
      let ms = 0;
      for (const [t, d] of entries) if (windows.some(([a, b]) => t >= a && t <= b)) ms += d;
      return ms;
    },
  };
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

function fullGc(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc (the parent process does this for its children)');
  gc();
  gc();
}

function scoreQueries(queries: readonly CorpusQuery[], results: readonly MatchResult[]): { accuracy: Accuracy; detail: Detail } {
  let tp = 0;
  let fp = 0;
  let possibleCorrect = 0;
  let possibleTotal = 0;
  let existing = 0;
  const recallByNoise: Record<string, [number, number]> = {};
  const byKind: Record<string, [number, number, number, number]> = {};
  const missReasons: Record<string, number> = {};
  const falsePositiveSamples: Detail['falsePositiveSamples'][number][] = [];
  const possibleNewSamples: Detail['possibleNewSamples'][number][] = [];
  queries.forEach((q, i) => {
    const r = results[i];
    if (r === undefined) return;
    const kind = (byKind[q.kind] ??= [0, 0, 0, 0]);
    kind[0]++;
    const correct = r.decision === 'Matched' && r.id === q.truth;
    const wrong = r.decision === 'Matched' && r.id !== q.truth;
    if (correct) {
      tp++;
      kind[1]++;
    }
    if (wrong) {
      fp++;
      kind[2]++;
      if (falsePositiveSamples.length < 8) falsePositiveSamples.push({ query: q.candidate, truth: q.truth, got: r.id, kind: q.kind });
    }
    if (r.decision === 'Possible' && q.truth === null && possibleNewSamples.length < 8) {
      const fields = r.explanation
        .filter((f) => f.weight !== 0)
        .map((f) => `${f.field}:${f.label}:${f.weight.toFixed(1)}`)
        .join(' ');
      possibleNewSamples.push({ query: q.candidate, got: r.id, score: r.score, fields });
    }
    if (r.decision === 'Possible') {
      possibleTotal++;
      kind[3]++;
      if (r.id === q.truth) possibleCorrect++;
    }
    if (q.truth === null) return;
    existing++;
    if (!correct)
      missReasons[wrong ? 'matched-wrong-record' : `${r.decision}:${r.reason}`] =
        (missReasons[wrong ? 'matched-wrong-record' : `${r.decision}:${r.reason}`] ?? 0) + 1;
    for (const tag of q.noise.length > 0 ? q.noise : ['(none)']) {
      const cell = (recallByNoise[tag] ??= [0, 0]);
      cell[0]++;
      if (correct) cell[1]++;
    }
  });
  return {
    accuracy: {
      queries: queries.length,
      existing,
      truePositives: tp,
      falsePositives: fp,
      possibleCorrect,
      possibleTotal,
      precision: tp + fp === 0 ? 1 : tp / (tp + fp),
      recall: existing === 0 ? 1 : tp / existing,
    },
    detail: { recallByNoise, byKind, missReasons, falsePositiveSamples, possibleNewSamples },
  };
}

/** GC entries are delivered asynchronously: let them arrive before switching the meter off. */
function flushGcEntries(): Promise<void> {
  // Observers are notified from a timer task: setImmediate is too early, a 0 ms timer is not.
  return new Promise((done) => setTimeout(done, 0)).then(() => new Promise((done) => setTimeout(done, 0)));
}

/** One measurement in this (child) process. */
async function measure(size: number, seed: number, queryCount: number): Promise<RunResult> {
  const log = (msg: string): void => void process.stderr.write(`  [${fmt(size)}] ${msg}\n`);
  const corpus = generateCorpus({ seed, size });
  const generated = corpus.queries({ count: queryCount + WARMUP_FINDS });
  const queries = generated.slice(0, queryCount);
  const warmup = generated.slice(queryCount);

  // Build, counting only upsert time; heap measured around it with full GCs.
  fullGc();
  const before = process.memoryUsage();
  const index = new ContactIndex(INDEX_OPTIONS);
  let buildMs = 0;
  let buildCpuMs = 0;
  const gc = gcMeter();
  const buildWindows: [number, number][] = [];
  for (let start = 0; start < size; start += BUILD_CHUNK) {
    const end = Math.min(size, start + BUILD_CHUNK);
    const chunk: ContactInput[] = [];
    for (let i = start; i < end; i++) chunk.push(corpus.person(i).contact);
    const c = process.cpuUsage();
    const t = performance.now();
    for (let k = 0; k < chunk.length; k++) index.upsert(start + k, chunk[k] as ContactInput);
    const t1 = performance.now();
    buildMs += t1 - t;
    buildCpuMs += cpuMsSince(c);
    buildWindows.push([t, t1]);
  }
  const buildGcMs = await gc.pausedMs(buildWindows);
  fullGc();
  const after = process.memoryUsage();
  const heapUsedDelta = after.heapUsed - before.heapUsed;
  const externalDelta = after.external - before.external;
  log(`built in ${fmt(buildMs / 1000, 2)} s, ${fmt((heapUsedDelta + externalDelta) / size)} B/record`);

  // Normalize throughput on records the engine has not seen (its phone memo is cold for them).
  const sample = generateCorpus({ seed: seed + 1000, size: Math.min(NORMALIZE_SAMPLE, Math.max(size, 10_000)) });
  const records = [...sample.people()].map((p) => p.contact);
  let sink = 0;
  const cn = process.cpuUsage();
  const tn = performance.now();
  for (const r of records) sink += normalizeContact(r, INDEX_OPTIONS).phones.length;
  const normalizeMs = performance.now() - tn;
  const normalizeCpuMs = cpuMsSince(cn);
  if (sink < 0) log('impossible');

  // Find: warm up on queries of its own, then time every call.
  const tw = performance.now();
  for (const q of warmup) index.find(q.candidate);
  const warmupMs = performance.now() - tw;
  const latencies = new Float64Array(queries.length);
  const candidates = new Float64Array(queries.length);
  const cf = process.cpuUsage();
  const tf = performance.now();
  for (let i = 0; i < queries.length; i++) {
    const t = performance.now();
    const r = index.find((queries[i] as CorpusQuery).candidate);
    latencies[i] = performance.now() - t;
    candidates[i] = r.candidates;
  }
  const findMs = performance.now() - tf;
  const findCpuMs = cpuMsSince(cf);
  const findGcMs = await gc.pausedMs([[tf, tf + findMs]]);
  // The same finds with their explanations (asked for: diagnostics, the review queue), which
  // the samples of --detail read.
  const explained: MatchResult[] = [];
  const tq = performance.now();
  for (let i = 0; i < queries.length; i++) explained.push(index.find((queries[i] as CorpusQuery).candidate, { explain: true }));
  const findExplainedMs = performance.now() - tq;
  log(`${fmt(queries.length / (findMs / 1000))} finds/s`);

  // Where a find's time goes: one pass per phase, CPU time.
  const perFind = (c: NodeJS.CpuUsage): number => (cpuMsSince(c) * 1000) / queries.length;
  let c0 = process.cpuUsage();
  const normalized = queries.map((q) => index.normalize(q.candidate));
  const normalizeMicros = perFind(c0);
  c0 = process.cpuUsage();
  let ids = 0;
  for (const q of normalized) ids += index.candidateIds(q).length;
  const candidatesMicros = perFind(c0);
  c0 = process.cpuUsage();
  for (const q of normalized) index.findNormalized(q, { explain: false });
  const scoreMicros = perFind(c0) - candidatesMicros;
  c0 = process.cpuUsage();
  for (const q of normalized) index.findNormalized(q, { explain: true });
  const explainMicros = perFind(c0) - candidatesMicros - scoreMicros;
  if (ids < 0) log('impossible');

  const { accuracy, detail } = scoreQueries(queries, explained);
  return {
    size,
    seed,
    normalize: { records: records.length, ms: normalizeMs, cpuMs: normalizeCpuMs, perSecond: records.length / (normalizeMs / 1000) },
    build: { ms: buildMs, cpuMs: buildCpuMs, perSecond: size / (buildMs / 1000), gcMs: buildGcMs },
    memory: {
      heapUsedDelta,
      externalDelta,
      bytesPerRecord: (heapUsedDelta + externalDelta) / size,
      rssAfter: after.rss,
    },
    find: {
      count: queries.length,
      ms: findMs,
      perSecond: queries.length / (findMs / 1000),
      firstPerSecond: warmup.length / (warmupMs / 1000),
      gcMs: findGcMs,
      perCpuSecond: queries.length / (findCpuMs / 1000),
      perSecondExplained: queries.length / (findExplainedMs / 1000),
      p50Micros: quantile(latencies, 0.5) * 1000,
      p90Micros: quantile(latencies, 0.9) * 1000,
      p99Micros: quantile(latencies, 0.99) * 1000,
      maxMicros: quantile(latencies, 1) * 1000,
      candidatesMean: candidates.reduce((a, b) => a + b, 0) / Math.max(1, candidates.length),
      candidatesP99: quantile(candidates, 0.99),
      phasesCpuMicros: { normalize: normalizeMicros, candidates: candidatesMicros, score: scoreMicros, explain: explainMicros },
    },
    accuracy,
    detail,
  };
}

/**
 * V8 flags of the measuring process: those `npm start` runs the server with (a 64 MB young
 * generation: at 1M records about 10-15% less build CPU than V8's default 16 MB, measured
 * 2026-11-22), plus room for the largest size and `gc()` for the heap readings.
 */
const CHILD_FLAGS = ['--max-semi-space-size=64', '--expose-gc', '--max-old-space-size=12288'];

/** Runs one measurement in a fresh Node process (CHILD_FLAGS). */
function runChild(size: number, seed: number, queries: number): RunResult {
  const script = fileURLToPath(import.meta.url);
  const args = [...process.execArgv, ...CHILD_FLAGS, script, '--child', '--size', String(size), '--seed', String(seed), '--queries', String(queries)];
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 });
  if (child.status !== 0) throw new Error(`benchmark child for ${size} exited with ${child.status ?? child.signal}`);
  const last = child.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as RunResult;
}

export interface SizeSummary {
  readonly size: number;
  readonly runs: readonly RunResult[];
  /** Medians over runs. */
  readonly normalizePerSecond: number;
  readonly buildSeconds: number;
  readonly buildCpuSeconds: number;
  readonly bytesPerRecord: number;
  readonly findsPerSecond: number;
  /** Median of the runs' warm-up rates (NaN for results saved without them). */
  readonly firstFindsPerSecond: number;
  readonly findsPerCpuSecond: number;
  readonly findsPerSecondExplained: number;
  readonly p50Micros: number;
  readonly p99Micros: number;
  readonly candidatesMean: number;
  readonly precision: number;
  readonly recall: number;
}

function summarize(size: number, runs: readonly RunResult[]): SizeSummary {
  const m = (f: (r: RunResult) => number): number => median(runs.map(f));
  return {
    size,
    runs,
    normalizePerSecond: m((r) => r.normalize.perSecond),
    buildSeconds: m((r) => r.build.ms / 1000),
    buildCpuSeconds: m((r) => r.build.cpuMs / 1000),
    bytesPerRecord: m((r) => r.memory.bytesPerRecord),
    findsPerSecond: m((r) => r.find.perSecond),
    firstFindsPerSecond: m((r) => r.find.firstPerSecond ?? NaN),
    findsPerCpuSecond: m((r) => r.find.perCpuSecond),
    findsPerSecondExplained: m((r) => r.find.perSecondExplained),
    p50Micros: m((r) => r.find.p50Micros),
    p99Micros: m((r) => r.find.p99Micros),
    candidatesMean: m((r) => r.find.candidatesMean),
    precision: m((r) => r.accuracy.precision),
    recall: m((r) => r.accuracy.recall),
  };
}

function sizeLabel(n: number): string {
  return n >= 1_000_000 && n % 1_000_000 === 0 ? `${n / 1_000_000}M` : n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n);
}

function spread(runs: readonly RunResult[], f: (r: RunResult) => number, digits = 0): string {
  if (runs.length < 2) return '';
  const xs = runs.map(f);
  return ` (${fmt(Math.min(...xs), digits)}-${fmt(Math.max(...xs), digits)})`;
}

export function resultsTable(summaries: readonly SizeSummary[]): string {
  const header = [
    'records',
    'normalize rec/s',
    'build s',
    'build CPU s',
    'heap B/rec',
    'finds/s',
    'first finds/s',
    'finds/CPU s',
    'p50 µs',
    'p99 µs',
    'scored/find',
    'precision',
    'recall',
  ];
  const rows = summaries.map((s) => [
    sizeLabel(s.size),
    fmt(s.normalizePerSecond),
    fmt(s.buildSeconds, 2) + spread(s.runs, (r) => r.build.ms / 1000, 2),
    fmt(s.buildCpuSeconds, 2),
    fmt(s.bytesPerRecord),
    fmt(s.findsPerSecond) + spread(s.runs, (r) => r.find.perSecond),
    Number.isNaN(s.firstFindsPerSecond) ? '-' : fmt(s.firstFindsPerSecond),
    fmt(s.findsPerCpuSecond),
    fmt(s.p50Micros),
    fmt(s.p99Micros) + spread(s.runs, (r) => r.find.p99Micros),
    fmt(s.candidatesMean, 1),
    fmt(s.precision, 4),
    fmt(s.recall, 4),
  ]);
  return markdownTable(header, rows);
}

/** Per size: build and find CPU time split by phase (medians over runs). */
export function breakdownTable(summaries: readonly SizeSummary[]): string {
  const rows = summaries.map((s) => {
    const m = (f: (r: RunResult) => number): number => median(s.runs.map(f));
    const buildMicros = m((r) => (r.build.cpuMs * 1000) / r.size);
    const normalizeMicros = m((r) => (r.normalize.cpuMs * 1000) / r.normalize.records);
    const findMicros = m((r) => 1e6 / r.find.perCpuSecond);
    return [
      sizeLabel(s.size),
      fmt(buildMicros, 1),
      fmt(normalizeMicros, 1),
      fmt(Math.max(0, buildMicros - normalizeMicros), 1),
      `${fmt(m((r) => (100 * r.build.gcMs) / r.build.ms))}%`,
      fmt(findMicros, 1),
      fmt(
        m((r) => r.find.phasesCpuMicros.normalize),
        1,
      ),
      fmt(
        m((r) => r.find.phasesCpuMicros.candidates),
        1,
      ),
      fmt(
        m((r) => r.find.phasesCpuMicros.score),
        1,
      ),
      fmt(
        m((r) => r.find.phasesCpuMicros.explain),
        1,
      ),
      `${fmt(m((r) => (100 * r.find.gcMs) / r.find.ms))}%`,
    ];
  });
  return markdownTable(
    [
      'records',
      'build CPU µs/rec',
      'of which normalize',
      'of which index',
      'build GC pauses',
      'find CPU µs',
      'normalize',
      'candidate ids',
      'score + decide',
      'explanation',
      'find GC pauses',
    ],
    rows,
  );
}

export function targetsTable(s: SizeSummary): string {
  const check = (ok: boolean): string => (ok ? 'met' : 'MISSED');
  const ratio = (got: number, target: number): string => `${fmt(got / target, 2)}x target`;
  const rows = [
    [
      'build',
      `<= ${TARGETS.buildSeconds} s`,
      `${fmt(s.buildSeconds, 1)} s`,
      ratio(s.buildSeconds, TARGETS.buildSeconds),
      check(s.buildSeconds <= TARGETS.buildSeconds),
    ],
    [
      'heap per record',
      `<= ${TARGETS.heapBytesPerRecord} B`,
      `${fmt(s.bytesPerRecord)} B`,
      ratio(s.bytesPerRecord, TARGETS.heapBytesPerRecord),
      check(s.bytesPerRecord <= TARGETS.heapBytesPerRecord),
    ],
    [
      'find p99',
      `<= ${TARGETS.findP99Micros} µs`,
      `${fmt(s.p99Micros)} µs`,
      ratio(s.p99Micros, TARGETS.findP99Micros),
      check(s.p99Micros <= TARGETS.findP99Micros),
    ],
    [
      'find throughput',
      `>= ${fmt(TARGETS.findsPerSecond)}/s`,
      `${fmt(s.findsPerSecond)}/s`,
      ratio(s.findsPerSecond, TARGETS.findsPerSecond),
      check(s.findsPerSecond >= TARGETS.findsPerSecond),
    ],
    // The same two on CPU time: what a core left to the process would give.
    [
      'build, CPU time',
      `<= ${TARGETS.buildSeconds} s`,
      `${fmt(s.buildCpuSeconds, 1)} s`,
      ratio(s.buildCpuSeconds, TARGETS.buildSeconds),
      check(s.buildCpuSeconds <= TARGETS.buildSeconds),
    ],
    [
      'finds per CPU second',
      `>= ${fmt(TARGETS.findsPerSecond)}/s`,
      `${fmt(s.findsPerCpuSecond)}/s`,
      ratio(s.findsPerCpuSecond, TARGETS.findsPerSecond),
      check(s.findsPerCpuSecond >= TARGETS.findsPerSecond),
    ],
  ];
  return markdownTable([`target at ${sizeLabel(s.size)}`, 'goal', 'measured', 'ratio', 'status'], rows);
}

function detailText(s: SizeSummary): string {
  const run = s.runs[0];
  if (run === undefined) return '';
  const d = run.detail;
  const noise = Object.entries(d.recallByNoise)
    .sort((a, b) => a[1][1] / a[1][0] - b[1][1] / b[1][0])
    .map(([tag, [n, ok]]) => [tag, fmt(n), fmt(ok / n, 3)]);
  const kinds = Object.entries(d.byKind).map(([k, [n, ok, wrong, possible]]) => [k, fmt(n), fmt(ok), fmt(wrong), fmt(possible)]);
  const misses = Object.entries(d.missReasons)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => [k, fmt(n)]);
  return [
    `Recall by noise on existing people (${sizeLabel(s.size)}, run 1):`,
    markdownTable(['noise', 'queries', 'recall'], noise),
    '',
    markdownTable(['query kind', 'queries', 'matched right', 'matched wrong', 'possible'], kinds),
    '',
    markdownTable(['why an existing person was missed', 'queries'], misses),
    '',
    'Wrong matches (sample):',
    ...d.falsePositiveSamples.map((f) => `  ${f.kind} truth=${f.truth} got=${f.got} ${JSON.stringify(f.query)}`),
    '',
    'New people called Possible (sample):',
    ...d.possibleNewSamples.map((f) => `  got=${f.got} score=${f.score.toFixed(1)} [${f.fields}] ${JSON.stringify(f.query)}`),
  ].join('\n');
}

export function readmeSection(machine: MachineInfo, revision: string, summaries: readonly SizeSummary[], runs: number, queries: number, seed: number): string {
  const largest = summaries[summaries.length - 1];
  return [
    '## Engine (bench/engine.bench.ts)',
    '',
    '`npm run bench` (10k, 100k, 1M; `--quick` for 10k, `--sizes`, `--runs`, `--json`, `--detail`,',
    '`--readme` rewrites this section). Corpus: `bench/corpus.ts`, seeded synthetic people',
    '(Zipf names, accents, particles, households sharing address/landline/email, Jr/Sr namesakes,',
    'shared office switchboards, missing fields); queries are 70% noisy re-typings of stored people',
    '(nicknames, typos, accents, case, swapped day/month, moved house, ZIP+4, suffix variants, other',
    'phone formats) and 30% new people (strangers, new household members, namesake juniors).',
    '',
    `Machine: ${describeMachine(machine)}. Engine: ${revision}.`,
    `Seed ${seed}, ${fmt(queries)} queries per size, ${runs === 1 ? 'one run' : `median of ${runs} runs, each in a fresh process (min-max in brackets)`}.`,
    'Build counts `upsert` time only (normalization included, corpus generation excluded); heap is',
    'the `heapUsed + external` delta around the build with `gc()` before each reading; finds are',
    'single-threaded `index.find(candidate)` calls with default options (no explanation, as the API finds), each',
    `timed, after ${fmt(WARMUP_FINDS)} finds of other queries (V8 compiles the find path meanwhile; their rate is`,
    '"first finds/s", what a server does right after it starts); "CPU s" columns use process CPU time (all threads, GC helpers included), steadier than',
    'wall time when other work shares the cores; "scored/find" is the mean number of records scored',
    'per find. Precision and recall count only `Matched` (not `Possible`) against the truth labels.',
    '',
    resultsTable(summaries),
    '',
    'CPU time per record (build) and per find, by phase (normalize measured on 100k unseen records;',
    '"index" is the rest of `upsert`; find phases are separate passes over the same queries; GC',
    'pauses are main-thread garbage-collection time as a share of wall time; "explanation" is the',
    'difference of two passes, so within noise it can come out slightly negative):',
    '',
    breakdownTable(summaries),
    '',
    ...(largest !== undefined ? [targetsTable(largest), ''] : []),
  ].join('\n');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const seed = Number(args.get('--seed') ?? DEFAULT_SEED);
  const queries = Number(args.get('--queries') ?? DEFAULT_QUERIES);
  if (args.has('--child')) {
    const result = await measure(Number(args.get('--size')), seed, queries);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  const fromJson = args.get('--from-json');
  if (fromJson !== undefined) {
    // Re-render tables (and the README section) from a saved --json result, without measuring.
    const saved = JSON.parse(readFileSync(fromJson, 'utf8')) as {
      machine: MachineInfo;
      engine: string;
      seed: number;
      queries: number;
      runs: number;
      sizes: SizeSummary[];
    };
    const sums = saved.sizes.map((x) => summarize(x.size, x.runs));
    console.log(resultsTable(sums));
    console.log(`\n${breakdownTable(sums)}`);
    if (args.has('--readme')) {
      updateReadmeSection('## Engine (bench/engine.bench.ts)', readmeSection(saved.machine, saved.engine, sums, saved.runs, saved.queries, saved.seed));
      process.stderr.write('updated bench/README.md\n');
    }
    return;
  }
  const sizes = args.has('--quick')
    ? [10_000]
    : (args
        .get('--sizes')
        ?.split(',')
        .map((s) => Number(s.trim())) ?? DEFAULT_SIZES);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--sizes takes positive integers, e.g. 10000,100000');
  const runs = Math.max(1, Number(args.get('--runs') ?? 1));
  const machine = machineInfo();
  const revision = engineRevision(fileURLToPath(new URL('..', import.meta.url)));
  process.stderr.write(`engine ${revision} bench on ${describeMachine(machine)}\n`);
  const summaries: SizeSummary[] = [];
  for (const size of sizes) {
    const results: RunResult[] = [];
    for (let r = 0; r < runs; r++) {
      process.stderr.write(`${sizeLabel(size)} records, run ${r + 1}/${runs}\n`);
      results.push(runChild(size, seed, queries));
    }
    summaries.push(summarize(size, results));
  }
  if (args.has('--json')) {
    process.stdout.write(`${JSON.stringify({ machine, engine: revision, seed, queries, runs, targets: TARGETS, sizes: summaries }, null, 2)}\n`);
  } else {
    console.log(`\nMachine: ${describeMachine(machine)}`);
    console.log(`Engine: ${revision}`);
    console.log(`Seed ${seed}, ${fmt(queries)} queries, ${runs === 1 ? '1 run' : `median of ${runs} runs (min-max)`}\n`);
    console.log(resultsTable(summaries));
    console.log(`\n${breakdownTable(summaries)}`);
    const largest = summaries[summaries.length - 1];
    if (largest !== undefined) console.log(`\n${targetsTable(largest)}`);
    if (args.has('--detail')) for (const s of summaries) console.log(`\n${detailText(s)}`);
  }
  if (args.has('--readme')) {
    updateReadmeSection('## Engine (bench/engine.bench.ts)', readmeSection(machine, revision, summaries, runs, queries, seed));
    process.stderr.write('updated bench/README.md\n');
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}

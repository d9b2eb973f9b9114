/**
 * Dependency benchmark (`npm run bench:deps`): the candidate packages we did not take, next
 * to what we use instead, in one run on one machine.
 *
 *   - accent + case folding of 200k names: unorm's NFKD vs built-in String.normalize('NFKD')
 *     (same output? mismatches listed), and the engine's foldCase for reference;
 *   - Jaro-Winkler on 200k name pairs: ours (src/engine/similarity.ts) vs natural's
 *     JaroWinklerDistance (max abs difference, asymmetric cases);
 *   - Levenshtein: fastest-levenshtein vs natural's LevenshteinDistance;
 *   - Double Metaphone: the double-metaphone package vs natural's DoubleMetaphone;
 *   - module load time (fresh processes) and whether loading prints to stdout.
 *
 * natural and unorm are NOT project dependencies: they live in a scratch folder given by
 * DEPBENCH_DIR (default /tmp/depbench/node_modules). Set it up with
 *
 *   mkdir -p /tmp/depbench && cd /tmp/depbench && npm init -y && npm install natural unorm
 *
 * Flags: --pairs N (default 200000), --rounds N (default 25, of 40k-item slices), --json, --readme.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { doubleMetaphone } from 'double-metaphone';
import { distance as fastestLevenshtein } from 'fastest-levenshtein';
import { foldCase, jaroWinkler } from '../src/engine/index.js';
import { generateCorpus } from './corpus.js';
import { typo } from './lib/corpus-render.js';
import { Rng } from './lib/prng.js';
import { updateReadmeSection } from './lib/readme.js';
import { describeMachine, fmt, machineInfo, markdownTable, median, parseArgs } from './lib/report.js';
import type { MachineInfo } from './lib/report.js';

const DEFAULT_DIR = '/tmp/depbench/node_modules';
const SETUP = 'mkdir -p /tmp/depbench && cd /tmp/depbench && npm init -y && npm install natural unorm';
const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Natural {
  JaroWinklerDistance(a: string, b: string): number;
  LevenshteinDistance(a: string, b: string): number;
  DoubleMetaphone: new () => { process(word: string): [string, string] };
}
interface Unorm {
  nfkd(s: string): string;
}

interface Timing {
  readonly operation: string;
  readonly implementation: string;
  readonly nsPerOp: number;
  readonly minNs: number;
  readonly maxNs: number;
  readonly ops: number;
}

interface LoadTiming {
  readonly module: string;
  readonly ms: number;
  readonly stdoutBytes: number;
  readonly stdoutSample: string;
}

interface Agreement {
  readonly comparison: string;
  readonly compared: number;
  readonly differing: number;
  readonly maxAbsDiff: number;
  readonly examples: readonly string[];
}

const MARKS = /[\u0300-\u036f]/g;

/** An implementation under test: processes items [from, to) and returns a checksum. */
type Impl = readonly [name: string, run: (from: number, to: number) => number];

/** Items per timed slice: small enough that a burst of load hits few slices. */
const SLICE = 40_000;

/**
 * Times the implementations of one operation over `items` inputs: one warm-up pass each, then
 * `rounds` rounds, each timing every implementation (in rotated order) on the same slice of
 * SLICE items, so a burst of load on the shared machine hits every implementation alike.
 * ns/op: median, min and max over rounds.
 */
function compare(operation: string, items: number, rounds: number, impls: readonly Impl[]): Timing[] {
  let sink = 0;
  for (const [, run] of impls) sink += run(0, items);
  const per = impls.map((): number[] => []);
  const slices = Math.max(1, Math.ceil(items / SLICE));
  for (let r = 0; r < rounds; r++) {
    const from = (r % slices) * SLICE;
    const to = Math.min(items, from + SLICE);
    for (let k = 0; k < impls.length; k++) {
      const i = (k + r) % impls.length;
      const run = impls[i]?.[1];
      if (run === undefined) continue;
      const t = process.hrtime.bigint();
      sink += run(from, to);
      per[i]?.push(Number(process.hrtime.bigint() - t) / (to - from));
    }
  }
  if (Number.isNaN(sink)) process.stderr.write(' ');
  return impls.map(([implementation], i) => {
    const xs = per[i] ?? [];
    return { operation, implementation, nsPerOp: median(xs), minNs: Math.min(...xs), maxNs: Math.max(...xs), ops: items };
  });
}

/** Loads a module in a fresh process `times` times: median ms of the load itself, and what it printed to stdout. */
function loadTime(label: string, specifier: string, esm: boolean, times: number): LoadTiming {
  const load = esm ? `await import(${JSON.stringify(specifier)})` : `require(${JSON.stringify(specifier)})`;
  const script = `const t=process.hrtime.bigint();${load};process.stderr.write('LOADMS '+Number(process.hrtime.bigint()-t)/1e6+'\\n')`;
  const args = esm ? ['--input-type=module', '-e', script] : ['-e', script];
  const ms: number[] = [];
  let stdout = '';
  for (let i = 0; i < times; i++) {
    const res = spawnSync(process.execPath, args, { cwd: PROJECT_ROOT, encoding: 'utf8' });
    const m = /LOADMS ([\d.]+)/.exec(res.stderr);
    if (res.status !== 0 || m === null) throw new Error(`loading ${label} failed: ${res.stderr}`);
    ms.push(Number(m[1]));
    stdout = res.stdout;
  }
  return {
    module: label,
    ms: median(ms),
    stdoutBytes: Buffer.byteLength(stdout),
    stdoutSample: stdout.trim().split('\n').slice(0, 2).join(' / ').slice(0, 160),
  };
}

function namePairs(count: number, seed: number): { names: string[]; pairs: [string, string][] } {
  const corpus = generateCorpus({ seed, size: Math.ceil(count / 2) });
  const names: string[] = [];
  for (const p of corpus.people()) {
    names.push(p.contact.firstName ?? '', p.contact.lastName ?? '');
  }
  const folded = names.map((n) => foldCase(n));
  const rng = new Rng(seed);
  const pairs: [string, string][] = [];
  for (let i = 0; i < count; i++) {
    const a = folded[i % folded.length] ?? '';
    // Half near-misses (one keyboard typo), a quarter unrelated names, a quarter identical.
    const r = rng.float();
    const b = r < 0.5 ? typo(a, rng) : r < 0.75 ? (folded[rng.int(folded.length)] ?? '') : a;
    pairs.push([a, b]);
  }
  return { names: names.slice(0, count), pairs };
}

const EDGE_STRINGS = [
  'ﬁnley',
  'Ⅻ',
  'ｆｕｌｌ',
  '한국어',
  'Å',
  'ǅ',
  '①',
  'x\u0301',
  'é',
  '😀',
  'ß',
  'ẞ',
  'İstanbul',
  'Straße',
  'Œuvre',
  'Łukasz',
  'Søren',
  'Ñandú',
  'Dvořák',
  'Nguyễn',
  'Ǆemal',
  '㍻',
  'ﾊﾝｶｸ',
  'a\u0308\u0301',
  '\u1e9b\u0323',
];

function folding(names: readonly string[], unorm: Unorm, rounds: number): { timings: Timing[]; agreement: Agreement[] } {
  const builtin = (s: string): string => s.normalize('NFKD').replace(MARKS, '').toLowerCase();
  const viaUnorm = (s: string): string => unorm.nfkd(s).replace(MARKS, '').toLowerCase();
  const run =
    (f: (s: string) => string) =>
    (from: number, to: number): number => {
      let n = 0;
      for (let i = from; i < to; i++) n += f(names[i] ?? '').length;
      return n;
    };
  const timings = compare(`fold ${fmt(names.length)} names (NFKD + strip marks + lower)`, names.length, rounds, [
    ['built-in normalize', run(builtin)],
    ['unorm.nfkd', run(viaUnorm)],
    ['engine foldCase (ASCII fast path, ł/ø/ß map)', run(foldCase)],
  ]);
  const agreement: Agreement[] = [];
  for (const [label, set] of [
    ['names', names],
    ['edge cases', EDGE_STRINGS],
  ] as const) {
    const diffs: string[] = [];
    let differing = 0;
    for (const s of set) {
      const a = s.normalize('NFKD');
      const b = unorm.nfkd(s);
      if (a !== b) {
        differing++;
        if (diffs.length < 5) diffs.push(`${JSON.stringify(s)}: built-in ${JSON.stringify(a)} vs unorm ${JSON.stringify(b)}`);
      }
    }
    agreement.push({ comparison: `NFKD built-in vs unorm, ${label}`, compared: set.length, differing, maxAbsDiff: 0, examples: diffs });
  }
  return { timings, agreement };
}

function similarity(pairs: readonly [string, string][], natural: Natural, rounds: number): { timings: Timing[]; agreement: Agreement[] } {
  const sum =
    (f: (a: string, b: string) => number) =>
    (from: number, to: number): number => {
      let s = 0;
      for (let i = from; i < to; i++) {
        const pair = pairs[i];
        if (pair !== undefined) s += f(pair[0], pair[1]);
      }
      return s;
    };
  const timings = [
    ...compare(`Jaro-Winkler, ${fmt(pairs.length)} name pairs`, pairs.length, rounds, [
      ['ours (src/engine/similarity.ts)', sum(jaroWinkler)],
      ['natural.JaroWinklerDistance', sum((a, b) => natural.JaroWinklerDistance(a, b))],
    ]),
    ...compare(`Levenshtein, ${fmt(pairs.length)} name pairs`, pairs.length, Math.min(rounds, 5), [
      ['fastest-levenshtein', sum(fastestLevenshtein)],
      ['natural.LevenshteinDistance', sum((a, b) => natural.LevenshteinDistance(a, b))],
    ]),
  ];
  const jw: string[] = [];
  let jwDiffering = 0;
  let jwMax = 0;
  let asymmetric = 0;
  const asymExamples: string[] = [];
  let levDiffering = 0;
  const levExamples: string[] = [];
  for (const [a, b] of pairs) {
    const ours = jaroWinkler(a, b);
    const theirs = natural.JaroWinklerDistance(a, b);
    const d = Math.abs(ours - theirs);
    if (d > 1e-12) {
      jwDiffering++;
      if (jw.length < 5) jw.push(`${a}/${b}: ours ${ours.toFixed(4)}, natural ${theirs.toFixed(4)}`);
    }
    jwMax = Math.max(jwMax, d);
    const reverse = natural.JaroWinklerDistance(b, a);
    if (Math.abs(reverse - theirs) > 1e-12) {
      asymmetric++;
      if (asymExamples.length < 3) asymExamples.push(`natural(${a},${b}) ${theirs.toFixed(4)} vs natural(${b},${a}) ${reverse.toFixed(4)}`);
    }
    const l1 = fastestLevenshtein(a, b);
    const l2 = natural.LevenshteinDistance(a, b);
    if (l1 !== l2) {
      levDiffering++;
      if (levExamples.length < 5) levExamples.push(`${a}/${b}: ${l1} vs ${l2}`);
    }
  }
  const edge: [string, string][] = [
    ['ab', 'ba'],
    ['a', 'a'],
    ['', 'abc'],
    ['abc', ''],
    ['martha', 'marhta'],
    ['dixon', 'dicksonx'],
    ['jellyfish', 'smellyfish'],
    ['crate', 'trace'],
  ];
  let edgeDiff = 0;
  const edgeExamples: string[] = [];
  for (const [a, b] of edge) {
    const o = jaroWinkler(a, b);
    const n = natural.JaroWinklerDistance(a, b);
    if (Math.abs(o - n) > 1e-12) {
      edgeDiff++;
      edgeExamples.push(`${JSON.stringify(a)}/${JSON.stringify(b)}: ours ${o.toFixed(4)}, natural ${n.toFixed(4)}`);
    }
  }
  return {
    timings,
    agreement: [
      { comparison: 'Jaro-Winkler ours vs natural, name pairs', compared: pairs.length, differing: jwDiffering, maxAbsDiff: jwMax, examples: jw },
      { comparison: 'Jaro-Winkler natural(a,b) vs natural(b,a)', compared: pairs.length, differing: asymmetric, maxAbsDiff: 0, examples: asymExamples },
      { comparison: 'Jaro-Winkler ours vs natural, edge cases', compared: edge.length, differing: edgeDiff, maxAbsDiff: 0, examples: edgeExamples },
      { comparison: 'Levenshtein fastest-levenshtein vs natural', compared: pairs.length, differing: levDiffering, maxAbsDiff: 0, examples: levExamples },
    ],
  };
}

function phonetics(names: readonly string[], natural: Natural, rounds: number): { timings: Timing[]; agreement: Agreement[] } {
  const words = names.map((n) => foldCase(n).replace(/[^a-z]/g, '')).filter((w) => w.length > 0);
  const dm = new natural.DoubleMetaphone();
  const timings = compare(`Double Metaphone, ${fmt(words.length)} names`, words.length, rounds, [
    [
      'double-metaphone',
      (from, to) => {
        let n = 0;
        for (let i = from; i < to; i++) n += doubleMetaphone(words[i] ?? '')[0].length;
        return n;
      },
    ],
    [
      'natural.DoubleMetaphone',
      (from, to) => {
        let n = 0;
        for (let i = from; i < to; i++) n += dm.process(words[i] ?? '')[0].length;
        return n;
      },
    ],
  ]);
  let differing = 0;
  const examples: string[] = [];
  const seen = new Set<string>();
  for (const w of words) {
    if (seen.has(w)) continue;
    seen.add(w);
    const [a1, a2] = doubleMetaphone(w);
    const [b1, b2] = dm.process(w);
    if (a1 !== b1 || a2 !== b2) {
      differing++;
      if (examples.length < 5) examples.push(`${w}: ${a1}/${a2} vs ${b1}/${b2}`);
    }
  }
  return {
    timings,
    agreement: [{ comparison: 'Double Metaphone package vs natural (distinct names)', compared: seen.size, differing, maxAbsDiff: 0, examples }],
  };
}

function timingTable(timings: readonly Timing[]): string {
  const groups = new Map<string, Timing[]>();
  for (const t of timings) groups.set(t.operation, [...(groups.get(t.operation) ?? []), t]);
  const rows: string[][] = [];
  for (const [op, ts] of groups) {
    const base = ts[0]?.nsPerOp ?? 1;
    for (const t of ts) rows.push([op, t.implementation, fmt(t.nsPerOp), `${fmt(t.minNs)}-${fmt(t.maxNs)}`, `${fmt(t.nsPerOp / base, 2)}x`]);
  }
  return markdownTable(['operation', 'implementation', 'ns/op (median)', 'min-max', 'vs first'], rows);
}

function agreementTable(agreement: readonly Agreement[]): string {
  return markdownTable(
    ['comparison', 'compared', 'differing', 'max abs diff', 'examples'],
    agreement.map((a) => [
      a.comparison,
      fmt(a.compared),
      fmt(a.differing),
      a.maxAbsDiff === 0 ? '0' : a.maxAbsDiff.toExponential(2),
      a.examples.slice(0, 2).join('; ').replace(/\|/g, '\\|') || '-',
    ]),
  );
}

function loadTable(loads: readonly LoadTiming[]): string {
  return markdownTable(
    ['module', 'load ms (median, fresh process)', 'prints to stdout on load'],
    loads.map((l) => [
      l.module,
      fmt(l.ms, 1),
      l.stdoutBytes === 0 ? 'no' : `YES, ${fmt(l.stdoutBytes)} bytes: \`${l.stdoutSample.replace(/`/g, "'").replace(/\|/g, '\\|')}\``,
    ]),
  );
}

function readmeSection(
  machine: MachineInfo,
  timings: readonly Timing[],
  agreement: readonly Agreement[],
  loads: readonly LoadTiming[],
  versions: Record<string, string>,
  rounds: number,
): string {
  return [
    '## Dependencies (bench/deps.bench.ts)',
    '',
    '`npm run bench:deps` measures, in one process, the candidate dependencies we did not take',
    'against what the engine uses instead. natural and unorm are installed outside the project',
    `(\`${SETUP}\`; the bench reads \`DEPBENCH_DIR\`, default \`${DEFAULT_DIR}\`).`,
    '',
    `Machine: ${describeMachine(machine)}.`,
    `Versions: ${Object.entries(versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}. ns/op: median of ${rounds} rounds of 40k items`,
    'after a warm-up pass (Levenshtein: 5 rounds), the implementations of an operation interleaved round by round so',
    'that load from other work hits them alike: read the "vs first" ratios, not the absolute ns, when',
    'the load average is high. Inputs are corpus names folded to lower case; pairs are half one',
    'keyboard typo apart, a quarter unrelated, a quarter identical.',
    '',
    timingTable(timings),
    '',
    agreementTable(agreement),
    '',
    loadTable(loads),
    '',
  ].join('\n');
}

function packageVersion(dir: string, name: string): string {
  try {
    return (JSON.parse(readFileSync(join(dir, name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const dir = resolve(process.env.DEPBENCH_DIR ?? DEFAULT_DIR);
  if (!existsSync(join(dir, 'natural', 'package.json')) || !existsSync(join(dir, 'unorm', 'package.json'))) {
    console.error(
      `natural and unorm not found in ${dir}. They are not project dependencies; set them up with\n\n  ${SETUP}\n\nor point DEPBENCH_DIR at a node_modules folder holding them.`,
    );
    process.exitCode = 2;
    return;
  }
  const pairsCount = Number(args.get('--pairs') ?? 200_000);
  const rounds = Number(args.get('--rounds') ?? 25);
  const machine = machineInfo();
  process.stderr.write(`deps bench on ${describeMachine(machine)}\n`);

  process.stderr.write('load times (fresh processes)...\n');
  const localModules = join(PROJECT_ROOT, 'node_modules');
  const loads = [
    loadTime('natural (CommonJS)', join(dir, 'natural'), false, 3),
    loadTime('unorm (CommonJS)', join(dir, 'unorm'), false, 3),
    loadTime('fastest-levenshtein', pathToFileURL(join(localModules, 'fastest-levenshtein', 'esm', 'mod.js')).href, true, 3),
    loadTime('double-metaphone (ESM)', pathToFileURL(join(localModules, 'double-metaphone', 'index.js')).href, true, 3),
  ];

  // Load natural in-process with stdout intercepted, so its banner cannot corrupt our output.
  const require = createRequire(import.meta.url);
  const originalWrite = process.stdout.write.bind(process.stdout);
  let swallowed = '';
  process.stdout.write = (chunk: string | Uint8Array): boolean => {
    swallowed += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  };
  let natural: Natural;
  let unorm: Unorm;
  try {
    natural = require(join(dir, 'natural')) as Natural;
    unorm = require(join(dir, 'unorm')) as Unorm;
  } finally {
    process.stdout.write = originalWrite;
  }
  if (swallowed.length > 0) process.stderr.write(`(natural printed ${swallowed.length} bytes to stdout on load; swallowed)\n`);

  process.stderr.write('data...\n');
  const { names, pairs } = namePairs(pairsCount, 42);
  process.stderr.write('folding...\n');
  const fold = folding(names, unorm, rounds);
  process.stderr.write('similarity...\n');
  const sim = similarity(pairs, natural, rounds);
  process.stderr.write('phonetics...\n');
  const phon = phonetics(names, natural, rounds);

  const timings = [...fold.timings, ...sim.timings, ...phon.timings];
  const agreement = [...fold.agreement, ...sim.agreement, ...phon.agreement];
  const versions = {
    natural: packageVersion(dir, 'natural'),
    unorm: packageVersion(dir, 'unorm'),
    'fastest-levenshtein': packageVersion(localModules, 'fastest-levenshtein'),
    'double-metaphone': packageVersion(localModules, 'double-metaphone'),
  };
  if (args.has('--json')) {
    console.log(JSON.stringify({ machine, versions, rounds, timings, agreement, loads }, null, 2));
  } else {
    console.log(`\nMachine: ${describeMachine(machine)}`);
    console.log(
      `Versions: ${Object.entries(versions)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}\n`,
    );
    console.log(timingTable(timings));
    console.log(`\n${agreementTable(agreement)}`);
    for (const a of agreement) if (a.examples.length > 0) console.log(`  ${a.comparison}:\n    ${a.examples.join('\n    ')}`);
    console.log(`\n${loadTable(loads)}`);
  }
  if (args.has('--readme')) {
    updateReadmeSection('## Dependencies (bench/deps.bench.ts)', readmeSection(machine, timings, agreement, loads, versions, rounds));
    process.stderr.write('updated bench/README.md\n');
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}

/**
 * The engine of an older commit against this checkout's, in one process: CPU per query to
 * normalize it, and per find. Two engines in one process see the same load from the
 * rest of the machine, slice by slice, so their ratio holds on a busy shared machine where two
 * separate runs differ by 20%. Checked on identical engines: ratios 0.97-1.03 (building the
 * index is not compared: there the engine inserted second in each pair of chunks came out
 * 7-19% slower on identical code; use bench's own runs for build time). (Two whole
 * servers in one process are not comparable this way: the one loaded second ran ~6% slower on
 * identical code, so bench:api's A/B runs them as separate processes.)
 *
 *   npm run bench:engine-ab -- --base 12e0c37 [--size 50000] [--rounds 7] [--queries 20000]
 *
 * The base's src/engine is archived into .scratch/ (ignored by git; the engine imports only
 * its own files and this checkout's node_modules), both engines get the seeded corpus in
 * alternating chunks, then alternating rounds of normalizing, and of finds with and without
 * the explanation; each figure is the median of the rounds, each ratio the median of the
 * per-round ratios. The engines' answers are counted where they differ (a model change makes
 * them differ; a pure speed-up must not).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { ContactInput } from '../src/engine/index.js';
import { generateCorpus } from './corpus.js';
import { commitOf } from './lib/base-build.js';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const CHUNK = 2000;

/** What the bench calls on either engine's ContactIndex (stable across versions). */
interface Index {
  upsert(id: number, c: ContactInput): void;
  normalize(c: ContactInput): unknown;
  find(c: ContactInput, options?: { explain?: boolean }): { decision: string; id: number | null; score: number };
}
type IndexClass = new (options: { defaultCountry: string }) => Index;

/** The base's engine, archived once per commit under .scratch/. */
async function baseEngine(ref: string): Promise<{ commit: string; ContactIndex: IndexClass }> {
  const commit = commitOf(ref);
  const dir = join(REPO, '.scratch', `engine-ab-${commit}`);
  if (!existsSync(join(dir, 'src/engine/index.ts'))) {
    mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git -C '${REPO}' archive '${commit}' src/engine | tar -x -C '${dir}'`], { stdio: 'inherit' });
  }
  const mod = (await import(pathToFileURL(join(dir, 'src/engine/index.ts')).href)) as { ContactIndex: IndexClass };
  return { commit, ContactIndex: mod.ContactIndex };
}

const cpuMicros = (since: NodeJS.CpuUsage): number => {
  const c = process.cpuUsage(since);
  return c.user + c.system;
};
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      base: { type: 'string' },
      size: { type: 'string', default: '50000' },
      rounds: { type: 'string', default: '7' },
      queries: { type: 'string', default: '20000' },
      seed: { type: 'string', default: '42' },
    },
  });
  if (values.base === undefined) throw new Error('--base REF: the commit whose engine to compare with');
  const size = Number(values.size);
  const rounds = Number(values.rounds);
  const count = Number(values.queries);
  const seed = Number(values.seed);
  for (const [name, n] of [
    ['--size', size],
    ['--rounds', rounds],
    ['--queries', count],
  ] as const)
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} needs a positive integer`);
  const base = await baseEngine(values.base);
  const { ContactIndex } = (await import('../src/engine/index.js')) as unknown as { ContactIndex: IndexClass };
  const engines = [
    { name: `base ${base.commit}`, index: new base.ContactIndex({ defaultCountry: 'US' }) },
    { name: 'this checkout', index: new ContactIndex({ defaultCountry: 'US' }) },
  ];
  const load0 = loadavg()[0] ?? 0;
  const corpus = generateCorpus({ seed, size });
  let chunk: { id: number; contact: ContactInput }[] = [];
  let k = 0;
  // Both indexes are built in alternating chunks (their build times are not compared: on
  // identical engines the one inserted second in each chunk pair came out 7-19% slower).
  const flush = (): void => {
    for (const e of k++ % 2 === 0 ? engines : [...engines].reverse()) for (const r of chunk) e.index.upsert(r.id, r.contact);
    chunk = [];
  };
  for (const p of corpus.people()) {
    chunk.push({ id: p.personId, contact: p.contact });
    if (chunk.length === CHUNK) flush();
  }
  if (chunk.length > 0) flush();
  const queries = corpus.queries({ count, seed: seed + 1 }).map((q) => q.candidate);
  let differ = 0;
  for (const q of queries) {
    const [a, b] = engines.map((e) => e.index.find(q, { explain: false }));
    if (a?.decision !== b?.decision || a?.id !== b?.id || Math.abs((a?.score ?? 0) - (b?.score ?? 0)) > 1e-9) differ++;
  }
  const phases: [string, (ix: Index) => void, number][] = [
    ['normalize', (ix) => queries.forEach((q) => ix.normalize(q)), queries.length],
    ['find (no explanation)', (ix) => queries.forEach((q) => ix.find(q, { explain: false })), queries.length],
    ['find (explained)', (ix) => queries.forEach((q) => ix.find(q, { explain: true })), queries.length],
  ];
  const lines = [
    `One process, base ${base.commit} against this checkout: ${size.toLocaleString('en-US')} records, ${count.toLocaleString('en-US')} queries, ${rounds} rounds (load ${load0.toFixed(1)} at start).`,
    `| phase | base µs | this checkout µs | ratio (median per round) |`,
    `|---|---|---|---|`,
  ];
  for (const [name, run, n] of phases) {
    const per: number[][] = [[], []];
    const ratios: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? [0, 1] : [1, 0];
      const took = [0, 0];
      for (const i of order) {
        const c0 = process.cpuUsage();
        run(engines[i]!.index);
        took[i] = cpuMicros(c0) / n;
      }
      per[0]!.push(took[0]!);
      per[1]!.push(took[1]!);
      ratios.push(took[1]! / took[0]!);
    }
    lines.push(
      `| ${name}, per query | ${median(per[0]!).toFixed(1)} | ${median(per[1]!).toFixed(1)} | ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}) |`,
    );
  }
  lines.push('', `Answers that differ (decision, record or score): ${differ} of ${queries.length}. Load ${(loadavg()[0] ?? 0).toFixed(1)} at the end.`, '');
  process.stdout.write(lines.join('\n'));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();

/**
 * Error analysis of one labelled set under the CLI's defaults: why each missed pair was missed
 * (never compared, scored below the threshold, matched but not clustered) and why each false
 * pair was made (matched directly, or joined through a third row), with the comparison levels
 * that weighed on them and sample rows.
 *
 *   tsx bench/diagnose.ts ocr medium          # a generated messy set (seed 1)
 *   tsx bench/diagnose.ts fake_1000           # a public set of data/
 *   tsx bench/diagnose.ts ocr medium --samples 20
 *   tsx bench/diagnose.ts febrl3                # FEBRL 1-4 (truth from rec_id)
 *   tsx bench/diagnose.ts FILE.csv TRUTH        # any labelled CSV (TRUTH: the column of the entity)
 *   tsx bench/diagnose.ts ocr medium --dump F   # also every compared pair and missed true pair, as JSON
 *
 * A tool for finding causes, not a result: the figures that count are `npm run eval`'s.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { IGNORE } from '../src/files/header-map.js';
import { matchDedupe, parseSettings, SILENT, type RunOptions } from '../src/linkage/index.js';
import { labelledSet } from './lib/labelled-set.js';

const args = process.argv.slice(2);
const samplesAt = args.indexOf('--samples');
const SAMPLES = samplesAt >= 0 ? Number(args[samplesAt + 1]) : 8;
const dir = mkdtempSync(join(tmpdir(), 'matchbook-diag-'));
const { path, truthColumn, pattern, tags } = labelledSet(args, dir);
const parsed = Papa.parse<string[]>(readFileSync(path, 'utf8'), { skipEmptyLines: true });
const header = parsed.data[0] as string[];
const rows = parsed.data.slice(1);
const tcol = header.indexOf(truthColumn);
const label = rows.map((r) => {
  const v = (r[tcol] ?? '').trim();
  const m = pattern?.exec(v);
  return m ? (m[1] as string) : v;
});
const settings = parseSettings({});
if ('error' in settings) throw new Error(settings.error);
const run: RunOptions = { settings, overrides: pattern ? [] : [{ header: truthColumn, field: IGNORE }], threads: 1 };
const result = await matchDedupe(path, run, SILENT, { keepEdges: true, sampleLowScores: false, collectCandidates: true });
const { results, learned } = result;
const threshold = result.match;
const key = (a: number, b: number): string => (a < b ? `${a}|${b}` : `${b}|${a}`);

const truth = new Set<string>();
const byLabel = new Map<string, number[]>();
label.forEach((l, i) => {
  const list = byLabel.get(l);
  if (list) list.push(i);
  else byLabel.set(l, [i]);
});
for (const list of byLabel.values())
  for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) truth.add(key(list[i] as number, list[j] as number));
const cand = new Map<string, number>();
results.candidates.from.forEach((a, k) => {
  const kk = key(a, results.candidates.to[k] as number);
  cand.set(kk, Math.max(cand.get(kk) ?? -Infinity, results.candidates.score[k] as number));
});
const edges = new Set<string>();
const edgesList = results.edges ?? { from: [], to: [], score: [] };
edgesList.from.forEach((a, k) => edges.add(key(a, edgesList.to[k] as number)));
const clusterOf = (i: number): number => results.root(i);
const dumpAt = args.indexOf('--dump');
if (dumpAt >= 0) {
  const pairs = [...cand.entries()].map(([k, s]) => [...k.split('|').map(Number), s, truth.has(k) ? 1 : 0, edges.has(k) ? 1 : 0]);
  const missed = [...truth].filter((k) => !cand.has(k)).map((k) => [...k.split('|').map(Number), null, 1, 0]);
  writeFileSync(args[dumpAt + 1] as string, JSON.stringify({ header, rows, label, pairs: [...pairs, ...missed] }));
}

console.log(`${args.join(' ')}: ${rows.length} rows, ${truth.size} true pairs, threshold ${threshold.toFixed(2)} bits`);
if (learned) {
  console.log(`prior ${learned.model.prior}; sources ${JSON.stringify(learned.model.sources)}`);
  for (const n of learned.model.notes ?? []) console.log(`  note: ${n}`);
  for (const [field, levels] of Object.entries(learned.model.fields)) {
    console.log(
      `  ${field}: ${Object.entries(levels)
        .map(([l, s]) => `${l} ${Math.log2(s.m / s.u).toFixed(1)} (m ${s.m.toPrecision(2)} u ${s.u.toPrecision(2)})`)
        .join(', ')}`,
    );
  }
  for (const s of learned.estimation?.sessions ?? [])
    console.log(
      `  session ${s.rule}: ${s.pairs} pairs, share ${s.matchShare.toFixed(3)} iter ${s.iterations} conv ${s.converged} ${JSON.stringify(s.disagreement)} ${s.discarded ?? ''}`,
    );
}

const fnNotCompared: [number, number][] = [];
const fnBelow: [number, number][] = [];
const fnAboveNoEdge: [number, number][] = [];
const fnEdgeNotClustered: [number, number][] = [];
let fnClusteredOnly = 0;
for (const k of truth) {
  const [a, b] = k.split('|').map(Number) as [number, number];
  const inCluster = clusterOf(a) === clusterOf(b);
  if (edges.has(k)) {
    if (!inCluster) fnEdgeNotClustered.push([a, b]);
    continue;
  }
  if (inCluster) fnClusteredOnly++;
  const s = cand.get(k);
  if (s === undefined) fnNotCompared.push([a, b]);
  else if (s < threshold) fnBelow.push([a, b]);
  else fnAboveNoEdge.push([a, b]);
}
const fpEdge: [number, number][] = [];
for (const k of edges) if (!truth.has(k)) fpEdge.push(k.split('|').map(Number) as [number, number]);
let fpCluster = 0;
const byCluster = new Map<number, number[]>();
for (let i = 0; i < rows.length; i++) {
  const r = clusterOf(i);
  const l = byCluster.get(r);
  if (l) l.push(i);
  else byCluster.set(r, [i]);
}
for (const list of byCluster.values())
  for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) if (label[list[i] as number] !== label[list[j] as number]) fpCluster++;

console.log(
  `missed pairwise: not compared ${fnNotCompared.length}, below threshold ${fnBelow.length}, above but not matched ${fnAboveNoEdge.length} (of these, joined by clustering ${fnClusteredOnly})`,
);
console.log(`matched but split by clustering: ${fnEdgeNotClustered.length}; false edges ${fpEdge.length}; false clustered pairs ${fpCluster}`);
console.log(`refused joins: ${results.refused.length}`);
const refusedWhy = new Map<string, number>();
for (const r of results.refused) {
  const w = r.why.replace(/rows \d+ and \d+: /, '');
  refusedWhy.set(w, (refusedWhy.get(w) ?? 0) + 1);
}
console.log(`  ${[...refusedWhy.entries()].map(([w, n]) => `${w} ${n}`).join('; ')}`);
// Conflicts between two rows of the same person: the conflict rule was wrong there.
const wrongConflicts = new Map<string, [number, number][]>();
for (const r of results.refused) {
  const m = /rows (\d+) and (\d+): (.*)/.exec(r.why);
  if (m === null) continue;
  const x = Number(m[1]) - 1;
  const y = Number(m[2]) - 1;
  if (label[x] !== label[y]) continue;
  const list = wrongConflicts.get(m[3] as string) ?? [];
  list.push([x, y]);
  wrongConflicts.set(m[3] as string, list);
}
for (const [why, list] of wrongConflicts) {
  console.log(`  refused on a conflict between two rows of one person: ${why} ${list.length}`);
  for (const [x, y] of list.slice(0, 3)) console.log(`    ${(rows[x] ?? []).join(' | ')}\n    ${(rows[y] ?? []).join(' | ')}`);
}

const show = (i: number): string => `${(rows[i] ?? []).join(' | ')}${tags ? `  [${(tags[i] ?? []).join(',')}]` : ''}`;

async function explainGroup(name: string, pairs: [number, number][]): Promise<void> {
  if (pairs.length === 0) return;
  const outcomes = await result.pool.explain(pairs.map(([a, b]) => ({ query: a, record: b })));
  const blame = new Map<string, { n: number; w: number }>();
  outcomes.forEach((fields) => {
    for (const f of fields) {
      if (f.field === 'prior') continue;
      const k = `${f.field}:${f.level}`;
      const e = blame.get(k) ?? { n: 0, w: 0 };
      e.n++;
      e.w += f.weight;
      blame.set(k, e);
    }
  });
  console.log(`\n== ${name}: ${pairs.length} pairs; levels (count, mean bits)`);
  const list = [...blame.entries()].sort((x, y) => y[1].n - x[1].n);
  console.log(
    list
      .filter(([, e]) => e.n >= pairs.length * 0.03)
      .map(([k, e]) => `${k} ${e.n} (${(e.w / e.n).toFixed(1)})`)
      .join('; '),
  );
  for (let s = 0; s < Math.min(SAMPLES, pairs.length); s++) {
    const idx = Math.floor((s * pairs.length) / Math.min(SAMPLES, pairs.length));
    const [a, b] = pairs[idx] as [number, number];
    const sc = cand.get(key(a, b));
    console.log(`  score ${sc === undefined ? '-' : sc.toFixed(1)}`);
    console.log(`    ${show(a)}\n    ${show(b)}`);
    console.log(
      `    ${(outcomes[idx] ?? [])
        .filter((f) => Math.abs(f.weight) > 0.05)
        .map((f) => `${f.field}:${f.level} ${f.weight.toFixed(1)}`)
        .join(', ')}`,
    );
  }
}

// Tag statistics of never-compared pairs.
if (tags !== null && fnNotCompared.length > 0) {
  const t = new Map<string, number>();
  for (const [a, b] of fnNotCompared) for (const x of new Set([...(tags[a] ?? []), ...(tags[b] ?? [])])) t.set(x, (t.get(x) ?? 0) + 1);
  console.log(
    `\nnot compared, tags: ${[...t.entries()]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 25)
      .map(([k, n]) => `${k} ${n}`)
      .join('; ')}`,
  );
}
if (tags !== null && fnBelow.length > 0) {
  const t = new Map<string, number>();
  for (const [a, b] of fnBelow) for (const x of new Set([...(tags[a] ?? []), ...(tags[b] ?? [])])) t.set(x, (t.get(x) ?? 0) + 1);
  console.log(
    `below threshold, tags: ${[...t.entries()]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 25)
      .map(([k, n]) => `${k} ${n}`)
      .join('; ')}`,
  );
}
console.log('\n== not compared, samples');
for (let s = 0; s < Math.min(SAMPLES, fnNotCompared.length); s++) {
  const [a, b] = fnNotCompared[Math.floor((s * fnNotCompared.length) / Math.min(SAMPLES, fnNotCompared.length))] as [number, number];
  console.log(`    ${show(a)}\n    ${show(b)}\n`);
}
await explainGroup('missed, scored below threshold', fnBelow);
await explainGroup('missed, above threshold but not matched', fnAboveNoEdge);
await explainGroup('false edges', fpEdge);
await explainGroup('matched but split by clustering', fnEdgeNotClustered);
await result.pool.close();
rmSync(dir, { recursive: true, force: true });

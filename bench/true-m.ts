/**
 * The learned model against the truth of a labelled set: every true pair (at most 30,000) and
 * 30,000 random pairs of different people explained under the model the CLI's defaults
 * estimate; per comparison and level, the share among true pairs that have the field on both
 * sides (the true m) beside the model's m, the share among random pairs (the true u) beside
 * its u, and the weights both give. Where the two differ by bits, estimation misreads the
 * file (e.g. a household's members taken for one person inflate m of a different date of
 * birth); a level the truth shows as strong but the model weighs weakly is where recall goes.
 *
 *   tsx bench/true-m.ts historical medium [SEED] [FIELD]   # a generated messy set
 *   tsx bench/true-m.ts fake_1000                          # data/splink/fake_1000.csv
 *   tsx bench/true-m.ts FILE.csv TRUTH                     # any labelled CSV
 *
 * A tool for finding causes, not a result; it reads the truth only to report.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { IGNORE } from '../src/files/header-map.js';
import { explainPairs, matchDedupe, parseSettings, SILENT, type RunOptions } from '../src/linkage/index.js';
import { labelledSet } from './lib/labelled-set.js';

const args = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'truem-'));
const { path, truthColumn } = labelledSet(args, dir, args[0]?.endsWith('.csv') === true ? 1 : Number(args[2] ?? 1));
const parsed = Papa.parse<string[]>(readFileSync(path, 'utf8'), { skipEmptyLines: true });
const header = parsed.data[0] as string[];
const rows = parsed.data.slice(1);
const tcol = header.indexOf(truthColumn);
const label = rows.map((r) => (r[tcol] ?? '').trim());
const settings = parseSettings({});
if ('error' in settings) throw new Error(settings.error);
const run: RunOptions = { settings, overrides: [{ header: truthColumn, field: IGNORE }], threads: 1 };
const result = await matchDedupe(path, run, SILENT, { keepEdges: false, sampleLowScores: false });
const model = result.learned!.model;
const by = new Map<string, number[]>();
label.forEach((l, i) => {
  const a = by.get(l);
  if (a) a.push(i);
  else by.set(l, [i]);
});
const truePairs: { query: number; record: number }[] = [];
for (const list of by.values())
  for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) truePairs.push({ query: list[i]!, record: list[j]! });
let seed = 12345;
const rnd = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
const randomPairs: { query: number; record: number }[] = [];
while (randomPairs.length < 30000) {
  const a = rnd(rows.length),
    b = rnd(rows.length);
  if (a !== b && label[a] !== label[b]) randomPairs.push({ query: a, record: b });
}
const cap = truePairs.slice(0, 30000);
const tOut = await explainPairs(result.pool, cap, SILENT);
const rOut = await explainPairs(result.pool, randomPairs, SILENT);
await result.pool.close();
/** Level counts per field, missing values left out. */
function tab(outs: typeof tOut): Map<string, Map<string, number>> {
  const t = new Map<string, Map<string, number>>();
  for (const o of outs)
    for (const f of o) {
      if (f.field === 'prior' || f.level === 'missing') continue;
      let m = t.get(f.field);
      if (!m) t.set(f.field, (m = new Map()));
      m.set(f.level, (m.get(f.level) ?? 0) + 1);
    }
  return t;
}
const T = tab(tOut);
const R = tab(rOut);
const only = args[3];
for (const [field, levels] of Object.entries(model.fields)) {
  if (only && field !== only) continue;
  const t = T.get(field) ?? new Map<string, number>();
  const r = R.get(field) ?? new Map<string, number>();
  const tn = [...t.values()].reduce((a, b) => a + b, 0);
  const rn = [...r.values()].reduce((a, b) => a + b, 0);
  console.log(`${field}: true pairs with it ${tn}, random ${rn}`);
  for (const [l, s] of Object.entries(levels)) {
    const mt = (t.get(l) ?? 0) / Math.max(1, tn);
    const ut = (r.get(l) ?? 0) / Math.max(1, rn);
    const w = Math.log2(s.m / s.u);
    const wt = Math.log2(Math.max(mt, 1e-6) / Math.max(ut, 1e-6));
    console.log(
      `  ${l.padEnd(11)} model ${w.toFixed(1).padStart(5)} (m ${s.m.toPrecision(2).padStart(8)} u ${s.u.toPrecision(2).padStart(8)})  truth ${wt.toFixed(1).padStart(5)} (m ${mt.toPrecision(2).padStart(8)} [${t.get(l) ?? 0}] u ${ut.toPrecision(2).padStart(8)} [${r.get(l) ?? 0}])`,
    );
  }
}
rmSync(dir, { recursive: true, force: true });

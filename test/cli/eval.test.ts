/**
 * End to end through the CLI on the labelled public data, with no flags (the defaults:
 * learned rules): `eval`, and `dedupe`/`link` outputs scored directly, must reach the
 * accuracy floors of test/eval/accuracy.test.ts.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pairKey, pairMetrics, pairsFromClusters } from '../../src/linkage/metrics.js';
import { REPO } from './spawn.js';
import { isOneLineError, parseCsv, Scratch } from './dedupe-helpers.js';

const s = new Scratch();
afterAll(() => s.remove());

const data = (p: string): string => join(REPO, 'data', p);
const FEBRL = ['--progress', 'none'];
/** The shipped-weights linkage rules with FEBRL's gates (the flags FEBRL needed before models were learned). */
const FEBRL_LINKAGE = ['--id', 'rec_id', '--rules', 'linkage', '--gates', 'address-file', '--country', 'AU', '--progress', 'none'];
const FEBRL_TRUTH = ['--truth', 'rec_id', '--truth-pattern', '^rec-(\\d+)-'];
const entity = (id: string): string => /^rec-(\d+)-/.exec(id)?.[1] ?? id;

interface Figures {
  mode: string;
  records: number;
  pairwise: { precision: number; recall: number; f1: number };
  clustered: { precision: number; recall: number; f1: number } | null;
  exactClusters: number | null;
  pairCompleteness: number;
  comparisons: number;
  oracle: { threshold: number; metrics: { f1: number } } | null;
}

async function evalJson(args: string[]): Promise<Figures> {
  const run = await s.cli(['eval', ...args, '--json']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Figures;
}

describe('eval on FEBRL through the CLI, no flags (floors of test/eval/accuracy.test.ts)', () => {
  it('FEBRL3 deduplication: clustered precision >= 0.999, clustered F1 >= 0.995, pairwise F1 >= 0.99', async () => {
    const f = await evalJson([data('febrl/dataset3.csv'), ...FEBRL, ...FEBRL_TRUTH]);
    expect(f.mode).toBe('dedupe');
    expect(f.records).toBe(5000);
    expect(f.clustered?.precision).toBeGreaterThanOrEqual(0.999);
    expect(f.clustered?.f1).toBeGreaterThanOrEqual(0.995);
    expect(f.pairwise.f1).toBeGreaterThanOrEqual(0.99);
    expect(f.exactClusters).toBeGreaterThan(0.95);
    expect(f.pairCompleteness).toBeGreaterThan(0.99);
    expect(f.comparisons).toBeGreaterThan(5000);
  }, 120_000);

  it('FEBRL with the shipped-weights linkage rules still reaches its floors', async () => {
    const f = await evalJson([data('febrl/dataset4a.csv'), data('febrl/dataset4b.csv'), ...FEBRL_LINKAGE, ...FEBRL_TRUTH]);
    expect(f.pairwise.precision).toBeGreaterThanOrEqual(0.999);
    expect(f.pairwise.f1).toBeGreaterThanOrEqual(0.995);
  }, 120_000);

  it('fake_1000 with the labelled pairs file (linkage rules): precision >= 0.995, clustered F1 >= 0.86', async () => {
    const f = await evalJson([
      data('splink/fake_1000.csv'),
      '--id',
      'unique_id',
      '--pairs',
      data('splink/fake_1000_labels.csv'),
      '--rules',
      'linkage',
      '--gates',
      'city-file',
      '--country',
      'GB',
      '--progress',
      'none',
    ]);
    expect(f.pairwise.precision).toBeGreaterThanOrEqual(0.995);
    expect(f.clustered?.f1).toBeGreaterThanOrEqual(0.86);
    const byColumn = await evalJson([
      data('splink/fake_1000.csv'),
      '--id',
      'unique_id',
      '--truth',
      'cluster',
      '--rules',
      'linkage',
      '--gates',
      'city-file',
      '--country',
      'GB',
      '--progress',
      'none',
    ]);
    expect(byColumn.pairwise).toEqual(f.pairwise);
  }, 120_000);

  it('prints a readable table without --json', async () => {
    const run = await s.cli([
      'eval',
      data('splink/fake_1000.csv'),
      '--truth',
      'cluster',
      '--rules',
      'linkage',
      '--gates',
      'city-file',
      '--country',
      'GB',
      '--progress',
      'none',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^dedupe: 1,000 records; 2,031 true pairs/);
    expect(run.stdout).toMatch(/\npairwise {3}precision 1\.0000 {2}recall 0\.\d{4} {2}F1 0\.\d{4}/);
    expect(run.stdout).toMatch(/\nclustered {2}precision/);
    expect(run.stdout).toMatch(/\npair completeness: 0\.\d{4} of true pairs compared; [\d,]+ comparisons/);
    expect(run.stdout).toMatch(/best threshold, picked against the truth \(an upper bound, not a result\)/);
  }, 120_000);

  it('learned rules on fake_1000: the model, its prior and its sources are reported', async () => {
    const run = await s.cli(['eval', data('splink/fake_1000.csv'), '--truth', 'cluster', '--progress', 'none']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/model: prior [\d.e-]+; .*firstName (estimated|fallback|prior)/);
  }, 120_000);

  it('errors: no truth, both truths, unknown truth column, bad pattern', async () => {
    const file = data('splink/fake_1000.csv');
    expect((await s.cli(['eval', file])).stderr).toMatch(/give the truth with --truth COLUMN or --pairs FILE/);
    expect(isOneLineError(await s.cli(['eval', file, '--truth', 'cluster', '--pairs', 'x.csv']))).toBe(true);
    const col = await s.cli(['eval', file, '--truth', 'family']);
    expect(isOneLineError(col)).toBe(true);
    expect(col.stderr).toMatch(/--truth "family": no such column/);
    const re = await s.cli(['eval', file, '--truth', 'cluster', '--truth-pattern', '(']);
    expect(isOneLineError(re)).toBe(true);
    expect(re.stderr).toMatch(/--truth-pattern "\(": not a regular expression/);
  }, 120_000);
});

describe('dedupe and link outputs on FEBRL, scored directly', () => {
  it('dedupe FEBRL3 on 2 worker threads: cluster_id reaches the clustered floors', async () => {
    const run = await s.cli(['dedupe', data('febrl/dataset3.csv'), '-o', 'f3.csv', '--threads', '2', ...FEBRL]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/on 2 threads/);
    const rows = parseCsv(s.read('f3.csv'));
    expect(rows).toHaveLength(5000);
    const predicted = pairsFromClusters(new Map(rows.map((r) => [r['rec_id'] ?? '', r['cluster_id'] ?? ''])));
    const truth = pairsFromClusters(new Map(rows.map((r) => [r['rec_id'] ?? '', entity(r['rec_id'] ?? '')])));
    const m = pairMetrics(predicted, truth);
    expect(m.precision).toBeGreaterThanOrEqual(0.999);
    expect(m.f1).toBeGreaterThanOrEqual(0.995);
  }, 120_000);

  it('dedupe gives the same file on 1, 2 and 3 threads (3: one builds the index, two normalize for it and then query a copy)', async () => {
    const outputs = [];
    for (const threads of ['1', '2', '3']) {
      const run = await s.cli(['dedupe', data('febrl/dataset1.csv'), '-o', `f1-${threads}.csv`, '--threads', threads, ...FEBRL]);
      expect(run.code, run.stderr).toBe(0);
      outputs.push(s.read(`f1-${threads}.csv`));
    }
    expect(outputs[1]).toBe(outputs[0]);
    expect(outputs[2]).toBe(outputs[0]);
    expect(parseCsv(outputs[0] ?? '').filter((r) => r['cluster_id'] !== r['rec_id']).length).toBeGreaterThan(400);
  }, 120_000);

  it('link FEBRL4: the links file reaches the linkage floors', async () => {
    const run = await s.cli(['link', data('febrl/dataset4a.csv'), data('febrl/dataset4b.csv'), '-o', 'f4.csv', ...FEBRL]);
    expect(run.code, run.stderr).toBe(0);
    const rows = parseCsv(s.read('f4.csv'));
    // Each of the 5,000 right records has exactly one true match among the left records.
    expect(new Set(rows.map((r) => pairKey(`L${r['left_id']}`, `R${r['right_id']}`))).size).toBe(rows.length);
    let tp = 0;
    for (const r of rows) if (entity(r['left_id'] ?? '') === entity(r['right_id'] ?? '')) tp++;
    const precision = tp / rows.length;
    const recall = tp / 5000;
    expect(precision).toBeGreaterThanOrEqual(0.999);
    expect((2 * precision * recall) / (precision + recall)).toBeGreaterThanOrEqual(0.995);
  }, 120_000);
});

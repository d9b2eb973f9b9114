// Accuracy floors on the labelled public data: a little under what `npm run eval` measures
// (README "Measured accuracy"), so that a regression in matching quality fails CI.
import { describe, expect, it } from 'vitest';
import { evalCases } from '../../src/cli/eval-benchmarks.js';

const results = new Map(evalCases().map((c) => [`${c.dataset} [${c.rules}]`, c]));
const run = (key: string) => {
  const c = results.get(key);
  if (!c) throw new Error(`no eval case ${key}`);
  return c.run();
};

describe('accuracy floors', () => {
  it('FEBRL4 linkage beats the reference F1 0.9944 at precision >= 0.999', () => {
    const { metrics } = run('FEBRL4 link [linkage]');
    expect(metrics.precision).toBeGreaterThanOrEqual(0.999);
    expect(metrics.f1).toBeGreaterThanOrEqual(0.995);
  });

  it('FEBRL3 deduplication beats the reference F1 0.9897 after clustering at precision >= 0.999', () => {
    const r = run('FEBRL3 dedupe [linkage]');
    expect(r.clusterMetrics?.precision).toBeGreaterThanOrEqual(0.999);
    expect(r.clusterMetrics?.f1).toBeGreaterThanOrEqual(0.995);
    expect(r.metrics.f1).toBeGreaterThanOrEqual(0.98);
  });

  it('FEBRL2 deduplication', () => {
    const r = run('FEBRL2 dedupe [linkage]');
    expect(r.metrics.precision).toBeGreaterThanOrEqual(0.995);
    expect(r.clusterMetrics?.f1).toBeGreaterThanOrEqual(0.99);
  });

  it('fake_1000 deduplication', () => {
    const r = run('fake_1000 dedupe [linkage]');
    expect(r.metrics.precision).toBeGreaterThanOrEqual(0.995);
    expect(r.clusterMetrics?.f1).toBeGreaterThanOrEqual(0.86);
  });

  it('the CRM rules never merge two different people on FEBRL, and find most', () => {
    for (const [key, recall] of [['FEBRL4 link [crm (contract)]', 0.68], ['FEBRL4 link [crm+file gates]', 0.78], ['FEBRL3 dedupe [crm+file gates]', 0.65]] as const) {
      const { metrics } = run(key);
      expect(metrics.precision, key).toBe(1);
      expect(metrics.recall, key).toBeGreaterThanOrEqual(recall);
    }
  });
});

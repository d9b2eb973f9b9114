/**
 * Runs the engine over labelled data and measures it: linkage (index one file, find each
 * record of the other) and deduplication (index a file, find each record's duplicates).
 */
import { ContactIndex, type IndexOptions, type NormalizedContact } from '../engine/index.js';
import type { LabelledRecord } from './datasets.js';
import { clustersFromPairs, exactClusterRate, pairKey, pairMetrics, pairsFromClusters, type PairMetrics } from './metrics.js';

/** Outcome of one evaluation. */
export interface EvaluationResult {
  readonly metrics: PairMetrics;
  /** Pairwise figures after transitive closure of the predicted pairs (dedupe only). */
  readonly clusterMetrics?: PairMetrics;
  /** Share of true clusters reproduced exactly (dedupe only). */
  readonly exactClusters?: number;
  readonly records: number;
  readonly truePairs: number;
  readonly seconds: number;
  /** A few mistakes, for looking at. */
  readonly falsePositives: readonly string[];
  readonly falseNegatives: readonly string[];
}

function truthPairs(records: readonly LabelledRecord[]): Set<string> {
  return pairsFromClusters(new Map(records.map((r) => [r.id, r.entity])));
}

function buildIndex(records: readonly LabelledRecord[], options: IndexOptions): { index: ContactIndex; normalized: NormalizedContact[] } {
  const index = new ContactIndex(options);
  const normalized = records.map((r) => index.normalize(r.contact));
  normalized.forEach((n, i) => index.upsertNormalized(i, n));
  return { index, normalized };
}

const SAMPLE = 20;

/** Links `right` to `left`: each right record's best Matched left record is a predicted link. */
export function evaluateLinkage(left: readonly LabelledRecord[], right: readonly LabelledRecord[], options: IndexOptions = {}): EvaluationResult {
  const started = performance.now();
  const { index } = buildIndex(left, options);
  const predicted = new Set<string>();
  for (const r of right) {
    const result = index.find(r.contact, { explain: false });
    const l = result.decision === 'Matched' && result.id !== null ? left[result.id] : undefined;
    if (l) predicted.add(pairKey(`L:${l.entity}:${l.id}`, `R:${r.entity}:${r.id}`));
  }
  const seconds = (performance.now() - started) / 1000;
  const truth = new Set<string>();
  const leftByEntity = new Map<string, LabelledRecord[]>();
  for (const l of left) {
    const list = leftByEntity.get(l.entity);
    if (list) list.push(l);
    else leftByEntity.set(l.entity, [l]);
  }
  for (const r of right) for (const l of leftByEntity.get(r.entity) ?? []) truth.add(pairKey(`L:${l.entity}:${l.id}`, `R:${r.entity}:${r.id}`));
  const metrics = pairMetrics(predicted, truth);
  return {
    metrics,
    records: left.length + right.length,
    truePairs: truth.size,
    seconds,
    falsePositives: [...predicted].filter((p) => !truth.has(p)).slice(0, SAMPLE),
    falseNegatives: [...truth].filter((p) => !predicted.has(p)).slice(0, SAMPLE),
  };
}

/** Deduplicates `records`: every Matched pair is a predicted duplicate pair. */
export function evaluateDedupe(records: readonly LabelledRecord[], options: IndexOptions = {}): EvaluationResult {
  const started = performance.now();
  const { index, normalized } = buildIndex(records, options);
  const predicted = new Set<string>();
  const links: [string, string][] = [];
  normalized.forEach((q, i) => {
    for (const c of index.findAll(q, { excludeId: i })) {
      if (c.decision !== 'Matched') continue;
      const a = records[i];
      const b = records[c.id];
      if (!a || !b) continue;
      predicted.add(pairKey(a.id, b.id));
      links.push([a.id, b.id]);
    }
  });
  const seconds = (performance.now() - started) / 1000;
  const truth = truthPairs(records);
  const clusters = clustersFromPairs(records.map((r) => r.id), links);
  return {
    metrics: pairMetrics(predicted, truth),
    clusterMetrics: pairMetrics(pairsFromClusters(clusters), truth),
    exactClusters: exactClusterRate(clusters, new Map(records.map((r) => [r.id, r.entity]))),
    records: records.length,
    truePairs: truth.size,
    seconds,
    falsePositives: [...predicted].filter((p) => !truth.has(p)).slice(0, SAMPLE),
    falseNegatives: [...truth].filter((p) => !predicted.has(p)).slice(0, SAMPLE),
  };
}

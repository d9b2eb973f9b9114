/**
 * Accuracy of record linkage as numbers: pairwise precision, recall and F1, and cluster
 * figures. Pairs are unordered and written "a|b" with a < b (string order).
 */

/** Counts and ratios of predicted pairs against true pairs. */
export interface PairMetrics {
  readonly truePositives: number;
  readonly falsePositives: number;
  readonly falseNegatives: number;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

/** Key of an unordered pair. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

/** Precision, recall and F1 of `predicted` against `truth`. Empty sets give 1 (nothing to get wrong). */
export function pairMetrics(predicted: ReadonlySet<string>, truth: ReadonlySet<string>): PairMetrics {
  let tp = 0;
  for (const p of predicted) if (truth.has(p)) tp++;
  const fp = predicted.size - tp;
  const fn = truth.size - tp;
  const precision = predicted.size === 0 ? 1 : tp / predicted.size;
  const recall = truth.size === 0 ? 1 : tp / truth.size;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { truePositives: tp, falsePositives: fp, falseNegatives: fn, precision, recall, f1 };
}

/** All unordered pairs within each cluster of `clusterOf` (record id -> cluster id). */
export function pairsFromClusters(clusterOf: ReadonlyMap<string, string>): Set<string> {
  const members = new Map<string, string[]>();
  for (const [id, cluster] of clusterOf) {
    const list = members.get(cluster);
    if (list) list.push(id);
    else members.set(cluster, [id]);
  }
  const pairs = new Set<string>();
  for (const list of members.values()) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) pairs.add(pairKey(list[i] as string, list[j] as string));
    }
  }
  return pairs;
}

/** Union-find over string ids: clusters from matched pairs (transitive closure). */
export function clustersFromPairs(ids: Iterable<string>, pairs: Iterable<readonly [string, string]>): Map<string, string> {
  const parent = new Map<string, string>();
  for (const id of ids) parent.set(id, id);
  const findRoot = (x: string): string => {
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root) ?? root;
    let cur = x;
    while (cur !== root) {
      const next = parent.get(cur) ?? root;
      parent.set(cur, root);
      cur = next;
    }
    return root;
  };
  for (const [a, b] of pairs) {
    const ra = findRoot(a);
    const rb = findRoot(b);
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
  const out = new Map<string, string>();
  for (const id of parent.keys()) out.set(id, findRoot(id));
  return out;
}

/** Cluster-level agreement: the share of true clusters reproduced exactly. */
export function exactClusterRate(predicted: ReadonlyMap<string, string>, truth: ReadonlyMap<string, string>): number {
  const group = (m: ReadonlyMap<string, string>): Map<string, string> => {
    const members = new Map<string, string[]>();
    for (const [id, c] of m) {
      const list = members.get(c);
      if (list) list.push(id);
      else members.set(c, [id]);
    }
    const sig = new Map<string, string>();
    for (const [c, list] of members) sig.set(c, list.sort().join(','));
    return sig;
  };
  const predictedSigs = new Set(group(predicted).values());
  const trueSigs = [...group(truth).values()];
  if (trueSigs.length === 0) return 1;
  return trueSigs.filter((s) => predictedSigs.has(s)).length / trueSigs.length;
}

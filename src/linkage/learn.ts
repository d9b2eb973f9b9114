/**
 * A model learned from the file(s) being matched: m and u estimated by the engine
 * (estimate.ts) from the indexed records (and, for a link, the other file's), then the prior
 * that agrees with the candidate pairs' scores, then the thresholds of the settings. With
 * `--model` the given m and u are kept and only the prior is the file's. A file of more than
 * {@link ESTIMATION_RECORDS} records is estimated on a seeded sample of them.
 */
import {
  compileModel,
  estimateParameters,
  estimatePrior,
  levelVectorLength,
  scoreLevels,
  SeededRandom,
  withoutMatchesInU,
  type ContactIndex,
  type EstimationReport,
  type MatchModel,
  type NormalizedContact,
  type RecordSource,
  type SessionMatches,
  type SessionPrior,
} from '../engine/index.js';
import { thresholdsOf, type MatchSettings } from './settings.js';

/** Records whose candidates are scored for the prior, at most. */
export const PRIOR_SAMPLE = 2_000;

/** What learning gave: the model in force and how it was obtained. */
export interface Learned {
  readonly model: MatchModel;
  /** Null when the model was given (`--model`). */
  readonly estimation: EstimationReport | null;
  /** How the prior was set, for the summary. */
  readonly priorSource: 'estimated' | 'duplicate rate';
  /** Candidate pairs scored for the prior. */
  readonly scoredPairs: number;
  /**
   * The estimated share of matches blocking compares (of the training sessions' likely
   * matches, the weighted share the candidate selection finds), by which the prior was
   * divided; null when not estimated (a given model or duplicate rate, too few such pairs).
   */
  readonly blockingRecall: number | null;
  /**
   * The lowest prior a training session on the date of birth, an email, a phone or an
   * identifier implies (SessionPrior: not the names', which take namesakes for people), or null. The candidates'
   * prior reads low where blocking misses matches or their scores are weak, the sessions' high
   * where household members or twins pass for one person: where the session's is the higher,
   * the prior is the two's geometric mean (they meet halfway in bits).
   */
  readonly sessionPrior: number | null;
}

/**
 * Records estimation reads at most from one file: a larger file is estimated on a seeded,
 * uniform sample of this many of its records (the prior still scores the whole file's
 * candidates). Estimation reads each record it is given to count values (estimate-values.ts):
 * at a million records that alone took most of the estimate's time, and 200,000 records give
 * m and u to well within what estimation's own sampling of pairs moves them (a value's share
 * among a uniform sample is an unbiased estimate of its share among all records).
 */
export const ESTIMATION_RECORDS = 200_000;

/** `k` distinct positions of 0..n-1 drawn uniformly with a seeded generator, ascending. */
export function samplePositions(n: number, k: number, seed: number): Int32Array {
  const rng = new SeededRandom(seed);
  const all = new Int32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  for (let i = 0; i < k; i++) {
    const j = i + rng.below(n - i);
    const t = all[i] as number;
    all[i] = all[j] as number;
    all[j] = t;
  }
  return all.slice(0, k).sort();
}

/**
 * Reads records 0..size-1 of an index whose ids are consecutive from 0 (at most
 * {@link ESTIMATION_RECORDS} of them, sampled), building each when asked.
 */
function indexSource(index: ContactIndex, size: number, seed: number): RecordSource {
  const get = (i: number): NormalizedContact => {
    const c = index.get(i);
    if (c === undefined) throw new Error(`record ${i} is not indexed`);
    return c;
  };
  if (size <= ESTIMATION_RECORDS) return { size, get };
  const positions = samplePositions(size, ESTIMATION_RECORDS, seed);
  return { size: positions.length, get: (i) => get(positions[i] as number), idOf: (i) => positions[i] as number };
}

/** At most {@link ESTIMATION_RECORDS} of a file's other rows (a link's right file), sampled likewise. */
function arraySource(rows: readonly NormalizedContact[], seed: number): RecordSource {
  if (rows.length <= ESTIMATION_RECORDS) return { size: rows.length, get: (i) => rows[i] as NormalizedContact };
  const positions = samplePositions(rows.length, ESTIMATION_RECORDS, seed);
  return { size: positions.length, get: (i) => rows[positions[i] as number] as NormalizedContact, idOf: (i) => positions[i] as number };
}

/** m and u: the given model's (`--model`), or estimated from the records (no prior yet). */
export interface Estimated {
  readonly model: MatchModel;
  /** Null when the model was given. */
  readonly estimation: EstimationReport | null;
  /** The training sessions' likely matches (null when the model was given). */
  readonly matches: SessionMatches | null;
  /** The priors the date of birth's, email's, phone's and identifier's sessions imply (empty when the model was given). */
  readonly priors: readonly SessionPrior[];
}

/**
 * The first step of {@link learnModel}: m and u, from the records alone (it reads no keys, so
 * it can run before they are filed: a dedupe's second thread does, worker.ts).
 */
export function estimateModel(index: ContactIndex, size: number, right: readonly NormalizedContact[] | null, settings: MatchSettings): Estimated {
  if (settings.model !== null) return { model: settings.model, estimation: null, matches: null, priors: [] };
  // Pairs scored with the index's forms of the names (ContactIndex.prepare): the same levels, each pair of names compared once.
  const prepare = (c: NormalizedContact): NormalizedContact => index.prepare(c);
  const data =
    right === null
      ? { left: indexSource(index, size, settings.seed), prepare }
      : { left: indexSource(index, size, settings.seed), right: arraySource(right, settings.seed + 1), prepare };
  const estimated = estimateParameters(data, index.scoreContext(), { seed: settings.seed });
  return { model: estimated.model, estimation: estimated.report, matches: estimated.matches, priors: estimated.priors };
}

/**
 * Learns the model for `index` (records 0..size-1) and sets it on the index. `right`: the
 * other file's records for a link (null for a dedupe). `estimated`: {@link estimateModel}'s
 * answer for the same records, when it was computed already.
 */
export function learnModel(
  index: ContactIndex,
  size: number,
  right: readonly NormalizedContact[] | null,
  settings: MatchSettings,
  estimated: Estimated = estimateModel(index, size, right, settings),
): Learned {
  const { model, estimation, matches, priors } = estimated;
  const { prior: _drop, ...withoutPrior } = model;
  let unbiased = withoutPrior as MatchModel;
  const n = size;
  const totalPairs = right === null ? (n * (n - 1)) / 2 : n * right.length;
  let prior: number;
  let scored = 0;
  let priorSource: Learned['priorSource'] = 'estimated';
  let recall: number | null = null;
  let sessionPrior: number | null = null;
  if (settings.duplicateRate !== null) {
    priorSource = 'duplicate rate';
    prior = right === null ? (2 * settings.duplicateRate) / Math.max(1, n - 1) : settings.duplicateRate / Math.max(1, n);
    if (estimation !== null) unbiased = withoutMatchesInU(unbiased, prior);
  } else {
    // The prior from the candidates' scores; then u without the matches the prior says were
    // among its random pairs, and the prior again under the corrected weights (the same
    // candidate pairs re-scored from their level vectors: no second comparison).
    const sample = candidateSample(index, unbiased, right, n);
    // Matches blocking never compares are missing from the candidates' scores: their share,
    // as estimated from the training sessions' matches, scales the count up.
    recall = matches === null ? null : blockingRecall(index, matches, right);
    const share = sample.share * (recall ?? 1);
    prior = priorOf(sample.scores, right, totalPairs, share);
    scored = sample.scores.length;
    if (estimation !== null) {
      const corrected = withoutMatchesInU(unbiased, prior);
      const before = compileModel(unbiased);
      const after = compileModel(corrected);
      const width = sample.width;
      const rescored = sample.scores.map((score, k) => {
        const v = sample.levels.subarray(k * width, (k + 1) * width);
        return score + scoreLevels(after, v) - scoreLevels(before, v);
      });
      unbiased = corrected;
      prior = priorOf(rescored, right, totalPairs, share);
    }
    sessionPrior = priors.length === 0 ? null : Math.min(...priors.map((p) => p.prior));
    if (sessionPrior !== null && sessionPrior > prior) prior = Math.sqrt(prior * sessionPrior);
  }
  const final: MatchModel = { ...unbiased, prior, thresholds: thresholdsOf(settings) };
  index.setModel(final);
  return { model: final, estimation, priorSource, scoredPairs: scored, blockingRecall: recall, sessionPrior };
}

/** Session matches read to estimate blocking's recall, at most (every k-th beyond). */
const RECALL_PAIRS = 1_000;
/** Least summed weight of the session matches read for an estimate of blocking's recall (else none). */
const MIN_RECALL_WEIGHT = 30;
/** Lowest recall the prior is corrected by (a correction of at most 1 / this). */
const MIN_RECALL = 0.25;

/**
 * The share of matches the index's candidate selection finds, estimated on the training
 * sessions' likely matches (each weighted by its posterior): for a dedupe, a pair is found
 * when either record's lookup selects the other; for a link, when the right record's does.
 * The sessions take pairs agreeing exactly on one field, which blocking keys are made of, so
 * this reads high rather than low (the correction errs small). Null with too few matches.
 */
function blockingRecall(index: ContactIndex, matches: SessionMatches, right: readonly NormalizedContact[] | null): number | null {
  const n = matches.weight.length;
  const step = Math.max(1, Math.ceil(n / RECALL_PAIRS));
  const memo = new Map<number, number[]>();
  const candidatesOf = (id: number): number[] => {
    let found = memo.get(id);
    if (found === undefined) {
      found = right === null ? index.indexedCandidateIds(id, false) : index.candidateIds(right[id] as NormalizedContact, undefined, false, false);
      memo.set(id, found);
    }
    return found;
  };
  let total = 0;
  let hit = 0;
  for (let k = 0; k < n; k += step) {
    const a = matches.left[k] as number;
    const b = matches.right[k] as number;
    const w = matches.weight[k] as number;
    total += w;
    const found = right === null ? candidatesOf(a).includes(b) || candidatesOf(b).includes(a) : candidatesOf(b).includes(a);
    if (found) hit += w;
  }
  if (total < MIN_RECALL_WEIGHT) return null;
  return Math.max(MIN_RECALL, hit / total);
}

/** Candidate pairs of a sample of records scored under `model` (without its prior), with their level vectors. */
function candidateSample(
  index: ContactIndex,
  model: MatchModel,
  right: readonly NormalizedContact[] | null,
  n: number,
): { scores: number[]; levels: Uint8Array; width: number; share: number } {
  index.setModel(model);
  const width = levelVectorLength(model.attributes?.length ?? 0);
  const scores: number[] = [];
  let levels = new Uint8Array(width * 1024);
  const vector = new Uint8Array(width);
  const visit = (_: number, score: number, v: Uint8Array | undefined): void => {
    if (levels.length < (scores.length + 1) * width) {
      const grown = new Uint8Array(levels.length * 2);
      grown.set(levels);
      levels = grown;
    }
    if (v !== undefined) levels.set(v, scores.length * width);
    scores.push(score);
  };
  const size = right === null ? n : right.length;
  const step = Math.max(1, Math.ceil(size / PRIOR_SAMPLE));
  let sampled = 0;
  for (let i = 0; i < size; i += step, sampled++) {
    if (right === null) {
      const c = index.get(i);
      if (c !== undefined) index.scoreCandidates(c, visit, { excludeId: i, indexed: true, levels: vector });
    } else index.scoreCandidates(right[i] as NormalizedContact, visit, { levels: vector });
  }
  return { scores, levels, width, share: sampled / Math.max(1, size) };
}

/** The prior that agrees with candidate pairs' scores (without the prior). */
function priorOf(scores: readonly number[], right: readonly NormalizedContact[] | null, totalPairs: number, share: number): number {
  return estimatePrior(scores, { totalPairs, sampledShare: share, countedTwice: right === null });
}

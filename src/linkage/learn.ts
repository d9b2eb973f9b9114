/**
 * A model learned from the file(s) being matched: m and u estimated by the engine
 * (estimate.ts) from the indexed records (and, for a link, the other file's), then the prior
 * that agrees with the candidate pairs' scores, then the thresholds of the settings. With
 * `--model` the given m and u are kept and only the prior is the file's.
 */
import {
  estimateParameters,
  estimatePrior,
  withoutMatchesInU,
  type ContactIndex,
  type EstimationReport,
  type MatchModel,
  type NormalizedContact,
  type RecordSource,
} from '../engine/index.js';
import { thresholdsOf, type MatchSettings } from './settings.js';

/** Records whose candidates are scored for the prior, at most. */
export const PRIOR_SAMPLE = 20_000;

/** What learning gave: the model in force and how it was obtained. */
export interface Learned {
  readonly model: MatchModel;
  /** Null when the model was given (`--model`). */
  readonly estimation: EstimationReport | null;
  /** How the prior was set, for the summary. */
  readonly priorSource: 'estimated' | 'duplicate rate';
  /** Candidate pairs scored for the prior. */
  readonly scoredPairs: number;
}

/** Reads records 0..size-1 of an index whose ids are consecutive from 0. */
function indexSource(index: ContactIndex, size: number): RecordSource {
  return {
    size,
    get: (i) => {
      const c = index.get(i);
      if (c === undefined) throw new Error(`record ${i} is not indexed`);
      return c;
    },
  };
}

/**
 * Learns the model for `index` (records 0..size-1) and sets it on the index. `right`: the
 * other file's records for a link (null for a dedupe).
 */
export function learnModel(index: ContactIndex, size: number, right: readonly NormalizedContact[] | null, settings: MatchSettings): Learned {
  let model: MatchModel;
  let estimation: EstimationReport | null = null;
  if (settings.model !== null) {
    model = settings.model;
  } else {
    const data = right === null
      ? { left: indexSource(index, size) }
      : { left: indexSource(index, size), right: { size: right.length, get: (i: number) => right[i] as NormalizedContact } };
    const estimated = estimateParameters(data, index.scoreContext(), { seed: settings.seed });
    model = estimated.model;
    estimation = estimated.report;
  }
  const { prior: _drop, ...withoutPrior } = model;
  let unbiased = withoutPrior as MatchModel;
  const n = size;
  const totalPairs = right === null ? (n * (n - 1)) / 2 : n * right.length;
  let prior: number;
  let scored = 0;
  let priorSource: Learned['priorSource'] = 'estimated';
  if (settings.duplicateRate !== null) {
    priorSource = 'duplicate rate';
    prior = right === null ? (2 * settings.duplicateRate) / Math.max(1, n - 1) : settings.duplicateRate / Math.max(1, n);
    if (estimation !== null) unbiased = withoutMatchesInU(unbiased, prior);
  } else {
    // The prior from the candidates' scores; then u without the matches the prior says were
    // among its random pairs, and the prior again under the corrected weights.
    const first = priorOf(index, unbiased, right, n, totalPairs);
    prior = first.prior;
    scored = first.scored;
    if (estimation !== null) {
      unbiased = withoutMatchesInU(unbiased, prior);
      prior = priorOf(index, unbiased, right, n, totalPairs).prior;
    }
  }
  const final: MatchModel = { ...unbiased, prior, thresholds: thresholdsOf(settings) };
  index.setModel(final);
  return { model: final, estimation, priorSource, scoredPairs: scored };
}

/** The prior that agrees with `model`'s scores of a sample of the candidate pairs. */
function priorOf(index: ContactIndex, model: MatchModel, right: readonly NormalizedContact[] | null, n: number, totalPairs: number): { prior: number; scored: number } {
  index.setModel(model);
  const scores: number[] = [];
  if (right === null) {
    const step = Math.max(1, Math.ceil(n / PRIOR_SAMPLE));
    let sampled = 0;
    for (let id = 0; id < n; id += step, sampled++) {
      const c = index.get(id);
      if (c !== undefined) index.scoreCandidates(c, (_, score) => scores.push(score), { excludeId: id });
    }
    return { prior: estimatePrior(scores, { totalPairs, sampledShare: sampled / Math.max(1, n), countedTwice: true }), scored: scores.length };
  }
  const step = Math.max(1, Math.ceil(right.length / PRIOR_SAMPLE));
  let sampled = 0;
  for (let i = 0; i < right.length; i += step, sampled++) index.scoreCandidates(right[i] as NormalizedContact, (_, score) => scores.push(score));
  return { prior: estimatePrior(scores, { totalPairs, sampledShare: sampled / Math.max(1, right.length), countedTwice: false }), scored: scores.length };
}

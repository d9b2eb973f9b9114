/**
 * Batch linkage of whole files: deduplicate one file or link two, on one or more threads,
 * with the engine's matching. The CLI's `dedupe`, `link` and `eval` are thin adapters over
 * this layer; scripts import it as `matchbook/linkage`.
 */
export { LinkageInputError } from './errors.js';
export { SILENT, type ProgressSink } from './progress.js';
export { PARALLEL_MIN_BYTES, threadsFor, type RunOptions } from './options.js';
export {
  DEFAULT_SETTINGS,
  describeGates,
  describeSettings,
  GATE_PRESETS,
  gatesOf,
  indexOptionsOf,
  parseDateFormat,
  parseSettings,
  RULES,
  thresholdsOf,
  type GatePreset,
  type MatchSettings,
  type RawMatchOptions,
  type RulesName,
} from './settings.js';
export { idOf, type OpenedInput, type ReadInput } from './input.js';
export {
  describeAboveThreshold,
  formatExplanation,
  formatShortfalls,
  possibleNote,
  type PairRequest,
  type QueryResult,
  type UnreadableValues,
} from './shard.js';
export { DedupeResults, type RowDecision } from './clusters.js';
export { addedColumns, DEDUPE_COLUMNS, explainPairs, EXPLAIN_COLUMN, formatScore, matchDedupe, writeDedupe, type DedupeRun } from './dedupe-run.js';
export { matchLink, type LinkRun } from './link-run.js';
export type { MatchPool } from './pool.js';
export { evaluateFiles, oracleThreshold, readPairs, type EvalFigures, type EvaluateOptions, type OracleThreshold, type TruthSource } from './evaluate.js';
export { clustersFromPairs, exactClusterRate, pairKey, pairMetrics, pairsFromClusters, type PairMetrics } from './metrics.js';
export { baseModelFor, DEFAULT_MATCH_PROBABILITY, DEFAULT_POSSIBLE_PROBABILITY, fileGates } from './settings.js';
export { learnModel, type Learned } from './learn.js';
export { conflictOf, type Signature } from './conflicts.js';
export { ALL_CONFLICTS, CONFLICT_BITS, conflictKindsOf, type ConflictKinds } from './conflicts.js';

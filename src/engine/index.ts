/**
 * Matchbook's matching engine: pure functions and an in-memory index. No I/O, no clock, no
 * randomness, no environment; tables, weights, thresholds and gates travel as arguments
 * with exported DEFAULT_* values.
 *
 * ```ts
 * const index = new ContactIndex({ defaultCountry: 'US' });
 * index.upsert(1, { firstName: 'Robert', lastName: 'Pérez', emails: ['bob@example.com'] });
 * index.find({ firstName: 'Bob', lastName: 'PEREZ', emails: ['Bob@Example.com'] });
 * // -> { decision: 'Matched', id: 1, reason: 'score', gate: 'firstName+lastName+email', ... }
 * ```
 */
export type * from './types.js';
export { foldCase, foldCompact, foldLatin, foldText, LETTER_FOLDS } from './fold.js';
export {
  compactName,
  GENERATIONAL_SUFFIXES,
  HONORIFICS,
  isTitle,
  TITLES,
  normalizeName,
  parseSuffix,
  PROFESSIONAL_SUFFIXES,
  SURNAME_PARTICLES,
  surnameParts,
  type NameInput,
} from './name.js';
export { CAPITALISED_PARTICLES, formatFullName, parseFullName, type FullNameParts } from './full-name.js';
export { nameFromEmail, type EmailName } from './email-name.js';
export { areNicknameVariants, buildNicknameTable, DEFAULT_NICKNAMES, nicknameGroupsOf, type NicknameTable } from './nicknames.js';
export { NICKNAME_GROUPS } from './generated/nicknames.js';
export * from './phone.js';
export * from './phone-check.js';
export * from './email.js';
export * from './address.js';
export * from './date.js';
export {
  ADDRESS_INPUT_FIELDS,
  AddressMemo,
  comparableIdentifier,
  DEFAULT_COUNTRY,
  foldIdentifier,
  normalizeContact,
  placeholdersIn,
  type NormalizeOptions,
} from './contact.js';
export {
  CONTRACT_GATES,
  DEFAULT_GATES,
  defineGate,
  evaluateGates,
  GATE_FIELD_BITS,
  gateShortfalls,
  parseGate,
  suppliedFields,
  type Gate,
  type GateField,
  type GateShortfall,
} from './gates.js';
export {
  ATTRIBUTE_PRIOR,
  bitsOfProbability,
  DEFAULT_MODEL,
  DEFAULT_THRESHOLDS,
  FILE_MODEL,
  levelLabel,
  levelWeight,
  priorWeight,
  probabilityOfBits,
  withMonotoneWeights,
  withoutVetoes,
  HOUSEHOLD_GROUP,
  type AttributeModel,
  type EvidenceGroup,
  type FieldModel,
  type LevelSpec,
  type MatchModel,
  type ParameterSource,
  type Thresholds,
} from './model.js';
export {
  ADDRESS_FIELDS,
  ATTRIBUTE_LEVELS,
  COMPARISON_FIELDS,
  COMPARISONS,
  LEVEL_CODE,
  LEVEL_NAMES,
  levelDefinition,
  MISSING_LABEL,
  type ComparisonDefinition,
  type ComparisonField,
  type LevelDefinition,
  type LevelName,
} from './comparisons.js';
export * from './compare.js';
export {
  compileModel,
  FIELD_SLOT,
  levelVectorLength,
  makeScoreContext,
  scoreLevels,
  scorePair,
  termFrequencyU,
  TF_MAX_BOOST,
  TF_PRIOR_RECORDS,
  type CompiledModel,
  type FieldOutcome,
  type PairScore,
  type ScoreContext,
  type TermFrequencies,
} from './score.js';
export { compareCandidates, decidePair, type DecisionPolicy, type PairDecision } from './decide.js';
export { explainPair, explanationTotal, formatExplanation, waterfall, type WaterfallStep } from './explain.js';
export {
  estimateParameters,
  estimatePrior,
  runEm,
  TRAINING_RULES,
  withoutMatchesInU,
  type EstimateOptions,
  type EstimationReport,
  type PriorOptions,
  type RecordSource,
  type SessionMatches,
  type SessionPrior,
  type SessionReport,
  type TrainingData,
} from './estimate.js';
export {
  buildPlaceholderTable,
  DEFAULT_PLACEHOLDERS,
  isPlaceholderEmail,
  isSharedEmail,
  NO_PLACEHOLDERS,
  placeholderNames,
  type PlaceholderTable,
} from './placeholders.js';
export { normalizeSex, sexedTitleOf, sexOfTitle, SEX_SPELLINGS } from './sex.js';
export { MODEL_FORMAT, MODEL_VERSION, parseModel, serializeModel } from './model-json.js';
export { SeededRandom } from './random.js';
export { blockingHashes, blockingKeys, consonantSkeleton, CRM_KEYS, FILE_KEYS, hashKeyParts, KEY_KINDS, phoneticKey } from './blocking.js';
export { MAX_RECORD_ID, PostingTable } from './posting-table.js';
export { CandidateSelector, type KeyPostings, type SelectionLimits } from './candidate-selection.js';
export { ADDRESS_FILE_GATES, CITY_FILE_GATES, LINKAGE_PROFILE, LINKAGE_THRESHOLDS, type MatchProfile } from './profiles.js';
export { isAdjacentTransposition, jaroWinkler, levenshtein } from './similarity.js';
export {
  ContactIndex,
  DEFAULT_MAX_BLOCK_SIZE,
  DEFAULT_MAX_CANDIDATES,
  DEFAULT_SELECTIVE_BLOCK_SIZE,
  OTHER_LOOKS,
  OWNER_LOOKS,
  type Decision,
  type FindOptions,
  type IndexOptions,
  type IndexKeys,
  type IndexState,
  type MatchReason,
  type MatchResult,
  type ScoredCandidate,
} from './contact-index.js';

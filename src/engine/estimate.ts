/**
 * Estimating a model from the records themselves, as Splink and fastLink do (Fellegi &
 * Sunter 1969; Winkler 1988; Enamorado, Fifield & Imai 2019):
 *
 * - **u** (how often two different people show a level) from random pairs of records, and,
 *   for exact agreement on single values (names, dates, sex, attributes), exactly from the
 *   values' frequencies;
 * - **m** (how often the same person does) by expectation-maximisation over pairs that agree
 *   on a training rule (the same date of birth, the same surname, the same postal code...),
 *   one EM session per rule with u held fixed, each session estimating every comparison but
 *   the ones its rule forces to agree (Splink's method: blocking on a field tells nothing
 *   about that field);
 * - the **prior** (the share of pairs that are the same person) from the scores of the
 *   candidate pairs blocking finds ({@link estimatePrior}).
 *
 * A session can converge to something other than "same person" (a household: learning that
 * an exact first name is no evidence). Each comparison's estimate is checked: its exact
 * agreement must be evidence for a match, its disagreement evidence against, and no weaker
 * level may outweigh its exact one. A comparison that fails falls back to the prior's m and
 * the report says so. Deterministic: sampling uses a seeded generator.
 *
 * Past 400 lines because it is one method, read top to bottom in the order above (u, then the
 * EM sessions, then the checks, then the model), whose steps share the table of level counts
 * and the records' values; the one-pass reading of those values is estimate-values.ts.
 */
import { COMPARISON_FIELDS, LEVEL_CODE, LEVEL_NAMES, type ComparisonField, type LevelName } from './comparisons.js';
import { levelWeight, withMonotoneWeights, type FieldModel, type LevelSpec, type MatchModel, type ParameterSource } from './model.js';
import { blocksOf, holdsValue, readColumns, ValueDictionary, valueCounts, type ValueColumn, type ValuesOf } from './estimate-values.js';
import { compactName } from './name.js';
import { SeededRandom } from './random.js';
import { compiledFieldOf, FIELD_SLOT, levelVectorLength, scorePair, type ScoreContext } from './score.js';
import type { NormalizedContact } from './types.js';

/** Records to estimate from, by position 0..size-1. */
export interface RecordSource {
  readonly size: number;
  get(i: number): NormalizedContact;
  /** The record's id where the caller looks it up again (a sample's position in the file); default: `i`. */
  idOf?(i: number): number;
}

/**
 * The pairs the EM sessions took for one person, each with its posterior under its session's
 * fit (pairs of several sessions: the highest), by record id ({@link RecordSource.idOf}):
 * `left[k]` and `right[k]` (a link's other file; a dedupe's same file). What blocking finds of
 * them is the share of all matches it compares (learn.ts: the prior).
 */
export interface SessionMatches {
  readonly left: Int32Array;
  readonly right: Int32Array;
  readonly weight: Float64Array;
}

/** The records a model is estimated on. */
export interface TrainingData {
  readonly left: RecordSource;
  /** Linkage: the other file's records (pairs are left x right). Absent: deduplication of `left`. */
  readonly right?: RecordSource | undefined;
  /**
   * A record as the pairs are scored: with its names' forms, the index's own
   * (ContactIndex.prepare), so that the context's memo of name levels and the forms' folds and
   * sounds serve every pair a name is in, as in a find. Only the pairs read it, not the pass
   * that counts values. Absent: the record as it is (each pair builds its names' forms).
   */
  readonly prepare?: ((c: NormalizedContact) => NormalizedContact) | undefined;
}

/** Options of {@link estimateParameters}. Every one has a default. */
export interface EstimateOptions {
  /** Seed of the sampling. Default 42. */
  readonly seed?: number;
  /** Random pairs sampled for u. Default {@link DEFAULT_U_PAIRS} (all pairs when fewer). */
  readonly uPairs?: number;
  /** Most pairs one EM session reads. Default {@link DEFAULT_SESSION_PAIRS}. */
  readonly sessionPairs?: number;
  /** Most pairs taken from one block of a training rule. Default 40. */
  readonly pairsPerBlock?: number;
  /** EM iterations at most, per session. Default 40. */
  readonly maxIterations?: number;
}

/** One EM session, for the report. */
export interface SessionReport {
  /** The training rule: the field(s) its pairs agree on. */
  readonly rule: string;
  readonly pairs: number;
  /** Estimated share of the session's pairs that are the same person. */
  readonly matchShare: number;
  readonly iterations: number;
  readonly converged: boolean;
  /** Comparisons this session estimated. */
  readonly estimated: readonly string[];
  /** Estimated P(disagree | match) of the identity comparisons it estimated (first name, date of birth). */
  readonly disagreement: Readonly<Record<string, number>>;
  /** Why the session's estimates were not used, or null. */
  readonly discarded: string | null;
}

/** What estimation did. */
export interface EstimationReport {
  readonly uPairs: number;
  readonly sessions: readonly SessionReport[];
  readonly sources: Readonly<Record<string, ParameterSource>>;
  readonly notes: readonly string[];
}

/** A training rule: the value(s) a record is grouped by, and the comparisons that agree by construction. */
interface TrainingRule {
  readonly name: string;
  readonly excludes: readonly ComparisonField[];
  readonly values: ValuesOf;
  /** Runs only when a comparison it estimates rests on fewer than SHORT_SUPPORT matches, and estimates only those. */
  readonly onlyShort?: boolean;
}

const single = (v: string | null): readonly string[] => (v === null ? [] : [v]);
const parts = (c: NormalizedContact, pick: (a: NormalizedContact['addresses'][number]) => string | null): readonly string[] => {
  const out: string[] = [];
  for (const a of c.addresses) {
    const v = pick(a);
    if (v !== null && !out.includes(v)) out.push(v);
  }
  return out;
};

/**
 * The values estimation reads of a record, by name (each read once per record, whether a
 * value frequency, a training rule or both use it: see estimate-values.ts).
 */
const VALUES = {
  firstName: (c) => single(c.first === null ? null : compactName(c.first)),
  lastName: (c) => single(c.last === null ? null : compactName(c.last)),
  dateOfBirth: (c) => single(c.dob),
  fullDateOfBirth: (c) => single(c.dob !== null && c.dob.length === 10 ? c.dob : null),
  middleName: (c) => single(c.middle === null || c.middle.length < 2 ? null : compactName(c.middle)),
  fullName: (c) => single(c.first === null || c.last === null ? null : `${compactName(c.first)}|${compactName(c.last)}`),
  lastNameBirthYear: (c) => single(c.last === null || c.dob === null ? null : `${compactName(c.last)}|${c.dob.slice(0, 4)}`),
  sex: (c) => single(c.sex),
  email: (c) => c.emails,
  phone: (c) => c.phones,
  identifier: (c) => c.identifiers,
  zip5: (c) => parts(c, (a) => a.zip),
  city: (c) => parts(c, (a) => (a.city === null ? null : compactName(a.city))),
  streetName: (c) => parts(c, (a) => (a.street === null ? null : compactName(a.street))),
  streetNumber: (c) => parts(c, (a) => a.number),
  state: (c) => parts(c, (a) => a.state),
  address: (c) =>
    parts(c, (a) =>
      a.number === null || a.street === null ? null : `${a.number}|${compactName(a.street)}|${a.zip ?? (a.city === null ? '' : compactName(a.city))}`,
    ),
} satisfies Record<string, ValuesOf>;

/** The training rules tried, in order; a rule runs when enough records have its values. */
export const TRAINING_RULES: readonly TrainingRule[] = [
  { name: 'dateOfBirth', excludes: ['dateOfBirth'], values: VALUES.fullDateOfBirth },
  { name: 'lastName', excludes: ['lastName'], values: VALUES.lastName },
  { name: 'firstName', excludes: ['firstName'], values: VALUES.firstName },
  // Middle names and (surname, year of birth) are seldom shared within a household: these
  // sessions estimate first names without household members posing as matches.
  { name: 'middleName', excludes: ['middleName'], values: VALUES.middleName },
  { name: 'lastName+birthYear', excludes: ['lastName', 'dateOfBirth'], values: VALUES.lastNameBirthYear },
  // A record with one postal code on two addresses is in that block once.
  { name: 'zip5', excludes: ['zip5', 'city', 'state', 'address'], values: VALUES.zip5 },
  { name: 'email', excludes: ['email'], values: VALUES.email },
  { name: 'phone', excludes: ['phone'], values: VALUES.phone },
  { name: 'identifier', excludes: ['identifier'], values: VALUES.identifier },
  // Last, and only for what the others left short of SHORT_SUPPORT matches: in a large file a
  // date of birth or a surname is shared by dozens of strangers, and the sessions above find a
  // few matches in the pairs they sample (1,000,000 rows: the date of birth estimated from 11,
  // every other comparison from 208-220); pairs sharing both names are mostly one person at
  // any size. In a small file the sessions above estimate everything from hundreds of matches
  // and this one does not run: blocked on both names it takes a household's namesakes (Jr and
  // Sr at one address) for one person and weakens the address (OCR names+zip cuts -0.01 to
  // -0.02 when it ran on every file).
  { name: 'firstName+lastName', excludes: ['firstName', 'lastName'], values: VALUES.fullName, onlyShort: true },
];

/** Random pairs sampled for u by default. */
export const DEFAULT_U_PAIRS = 20_000;
/** Most pairs one EM session reads, by default. */
export const DEFAULT_SESSION_PAIRS = 8_000;

/** Comparisons whose exact agreement must be strong evidence (>= STRONG_BITS). */
const STRONG_FIELDS: ReadonlySet<string> = new Set(['firstName', 'lastName', 'dateOfBirth', 'email', 'phone', 'identifier']);
/**
 * Comparisons that tell members of a household apart: a session whose "same person" class
 * disagrees on one of them more often than {@link MAX_IDENTITY_DISAGREEMENT} has learned
 * households (people sharing a surname and an address), and its estimates are not used.
 */
const IDENTITY_FIELDS: readonly ComparisonField[] = ['firstName', 'dateOfBirth'];
/** Most P(disagree | match) of an identity comparison before a session counts as degenerate. */
const MAX_IDENTITY_DISAGREEMENT = 0.3;
/**
 * Most P(disagree | match) of the surname before a session counts as degenerate: surnames
 * change (marriage) and are misspelt, but a session whose "same person" class disagrees on
 * the surname more often than not has taken the people who share its key (a first name in a
 * file of names and a birth place: 92% of such pairs read as matches) for one person each,
 * and learned that a different surname is no evidence.
 */
const MAX_SURNAME_DISAGREEMENT = 0.5;
/** P(disagree | match) of an identity comparison up to which a session's estimates count in full; above it, less and less. */
const CLEAN_IDENTITY_DISAGREEMENT = 0.1;
/** Least weight of exact agreement on a strong comparison, bits (a likelihood ratio of 8). */
const STRONG_BITS = 3;
/** Least weight of exact agreement on any other comparison, bits. */
const WEAK_BITS = 0.3;
/** Pseudo-count of the prior in a sampled u, pairs. */
const U_PRIOR_PAIRS = 50;
/** Pseudo-count of the prior in each EM m-step, matches. */
const M_PRIOR_MATCHES = 2;
/**
 * Fewest matches a comparison's estimate rests on: when the sessions that estimated it found
 * fewer (a middle-name session of 17 matches, in a file where the others took households),
 * the prior's m makes up the rest, as that many matches. Without it such a first name learned
 * nickname agreement as no evidence (0.0 bits: none among 17) and disagreement as -8.3 bits.
 */
const M_MIN_SUPPORT = 100;
/**
 * Matches a comparison's estimate should rest on, below which the last training rule (pairs
 * sharing first name and surname) adds its own: 1,000,000 corpus rows pairwise F1 0.9819 ->
 * 0.9875 (precision 0.9863 -> 0.9906, recall 0.9775 -> 0.9845), 100,000 rows 0.9816 -> 0.9832;
 * every `npm run eval` set, subset and link unchanged (none has a comparison so short).
 */
const SHORT_SUPPORT = 300;
/** Smallest probability a level keeps. */
const FLOOR = 1e-7;
/** Fewest pairs a session needs to run. */
const MIN_SESSION_PAIRS = 60;
/** A rule's field must be on at least this share of records (both files) to train on. */
const MIN_RULE_COVERAGE = 0.05;

type Table = Float64Array[];

function newTable(width: number): Table {
  return Array.from({ length: width }, () => new Float64Array(LEVEL_NAMES.length));
}

/** Estimates m and u of `ctx`'s model (its levels and attributes) from the records. */
export function estimateParameters(
  data: TrainingData,
  ctx: ScoreContext,
  options: EstimateOptions = {},
): { model: MatchModel; report: EstimationReport; matches: SessionMatches; priors: readonly SessionPrior[] } {
  const base = ctx.compiled.model;
  const width = levelVectorLength(base.attributes?.length ?? 0);
  const rng = new SeededRandom(options.seed ?? 42);
  const notes: string[] = [];
  const slots = activeSlots(ctx, width);
  const fieldName = (slot: number): string =>
    slot < COMPARISON_FIELDS.length ? (COMPARISON_FIELDS[slot] as string) : (base.attributes?.[slot - COMPARISON_FIELDS.length]?.name ?? `attribute ${slot}`);

  // u from random pairs, exact levels of single values from frequencies.
  const left = data.left;
  const right = data.right ?? null;
  const totalPairs = right === null ? (left.size * (left.size - 1)) / 2 : left.size * right.size;
  const wanted = options.uPairs ?? DEFAULT_U_PAIRS;
  const uPairs = Math.min(wanted, totalPairs);
  const uCounts = newTable(width);
  const vec = new Uint8Array(width);
  const prepare = data.prepare ?? asItIs;
  for (let k = 0; k < uPairs; k++) {
    const [a, b] = randomPair(rng, left, right);
    levels(prepare(a), prepare(b), ctx, vec);
    for (const s of slots) {
      const counts = uCounts[s] as Float64Array;
      const l = vec[s] as number;
      counts[l] = (counts[l] as number) + 1;
    }
  }
  const u = uFromCounts(uCounts, slots, ctx);
  // Every value counted or grouped by below, read in one pass over the records.
  const rules = TRAINING_RULES.filter((rule) => {
    const excluded = new Set(rule.excludes.map((f) => FIELD_SLOT[f]));
    return slots.some((s) => !excluded.has(s));
  });
  const exactU = (slot: number): boolean => ((u[slot] as Float64Array)[LEVEL_CODE.exact] as number) !== 0;
  const values = new RecordValues(data, [
    ...FREQUENCY_FIELDS.filter(([field]) => exactU(FIELD_SLOT[field])).map(([, valueOf]) => valueOf),
    ...attributeValues(base).filter((_, i) => exactU(COMPARISON_FIELDS.length + i)),
    ...rules.map((rule) => rule.values),
  ]);
  exactFromFrequencies(u, values, base);

  // m by EM, one session per training rule.
  const mSum = newTable(width);
  const mWeight = new Float64Array(width);
  const estimatedBy = new Float64Array(width);
  const sessions: SessionReport[] = [];
  // The levels of each pair compared, by pair: a pair two rules share (the same person's
  // surname and first name) is compared once (FEBRL4: 17,273 distinct pairs of 21,117).
  const compared = new Map<number, Uint8Array>();
  const span = right === null ? left.size : right.size;
  // Posterior of each pair a kept session took (by the same key), at least MIN_MATCH_WEIGHT.
  const matchWeight = new Map<number, number>();
  // Per kept session on a PRIOR_FIELDS field: the matches agreeing on it, all blocks over those drawn.
  const matchesAgreeing: { field: PriorField; matches: number }[] = [];
  const initialShares = initialM(ctx, width);
  for (const rule of rules) {
    const excluded = new Set(rule.excludes.map((f) => FIELD_SLOT[f]));
    const estimable = slots.filter((s) => !excluded.has(s));
    const short = rule.onlyShort === true ? estimable.filter((s) => (mWeight[s] as number) < SHORT_SUPPORT) : estimable;
    if (short.length === 0) continue;
    if (coverage(rule, values) < MIN_RULE_COVERAGE) continue;
    // A rule that would only estimate comparisons two sessions already estimated is skipped.
    if (rule.onlyShort !== true && estimable.every((slot) => (estimatedBy[slot] as number) >= 2)) continue;
    const drawn = rulePairs(rule, values, rng, options.sessionPairs ?? DEFAULT_SESSION_PAIRS, options.pairsPerBlock ?? 40);
    const pairs = drawn.pairs;
    if (pairs.length / 2 < MIN_SESSION_PAIRS) continue;
    const patterns = new Map<string, { vector: Uint8Array; count: number }>();
    for (let p = 0; p < pairs.length; p += 2) {
      const a = pairs[p] as number;
      const b = pairs[p + 1] as number;
      let v = compared.get(a * span + b);
      if (v === undefined) {
        levels(prepare(pairAt(a, left, right, 0)), prepare(pairAt(b, left, right, 1)), ctx, vec);
        v = vec.slice();
        compared.set(a * span + b, v);
      }
      let key = '';
      for (const s of estimable) key += String.fromCharCode(65 + (v[s] as number));
      const known = patterns.get(key);
      if (known !== undefined) known.count++;
      else patterns.set(key, { vector: v, count: 1 });
    }
    const result = runEm([...patterns.values()], estimable, initialShares, u, options.maxIterations ?? 40);
    const disagreement: Record<string, number> = {};
    for (const field of IDENTITY_FIELDS) {
      const slot = FIELD_SLOT[field];
      if (estimable.includes(slot)) disagreement[field] = differs(result.m[slot] as Float64Array, slot);
    }
    const household = Object.entries(disagreement).find(([, p]) => p > MAX_IDENTITY_DISAGREEMENT);
    const surnameSlot = FIELD_SLOT.lastName;
    const surnameDisagreement = estimable.includes(surnameSlot) ? differs(result.m[surnameSlot] as Float64Array, surnameSlot) : 0;
    const discarded =
      result.lambda < 1e-4
        ? 'found no matches'
        : household !== undefined
          ? `took pairs whose ${household[0]} differs ${(household[1] * 100).toFixed(0)}% of the time for the same person: households, not people`
          : surnameDisagreement > MAX_SURNAME_DISAGREEMENT
            ? `took pairs whose lastName differs ${(surnameDisagreement * 100).toFixed(0)}% of the time for the same person: namesakes, not people`
            : null;
    sessions.push({
      rule: rule.name,
      pairs: pairs.length / 2,
      matchShare: result.lambda,
      iterations: result.iterations,
      converged: result.converged,
      estimated: short.map(fieldName),
      disagreement,
      discarded,
    });
    if (discarded !== null) {
      notes.push(`training on pairs with the same ${rule.name}: the session ${discarded}; its estimates are not used`);
      continue;
    }
    const field = rule.excludes.length === 1 && rule.onlyShort !== true ? priorField(rule.excludes[0] as ComparisonField) : null;
    let agreeing = 0;
    for (let p = 0; p < pairs.length; p += 2) {
      const a = pairs[p] as number;
      const b = pairs[p + 1] as number;
      const post = posterior(compared.get(a * span + b) as Uint8Array, estimable, result.m, u, result.lambda);
      // A value many records hold (an office's mailbox, a shelter's phone) is no person's: its
      // block's pairs, scaled up, would count its holders as matches.
      if (field !== null && (field === 'dateOfBirth' || (drawn.blockSize[p / 2] as number) <= MAX_PERSONAL_BLOCK))
        agreeing += post * (drawn.scale[p / 2] as number);
      // A dedupe's pair is one pair in either order (a large block's are drawn in any).
      const key = right === null && b < a ? b * span + a : a * span + b;
      if (post >= MIN_MATCH_WEIGHT && post > (matchWeight.get(key) ?? 0)) matchWeight.set(key, post);
    }
    if (field !== null) matchesAgreeing.push({ field, matches: (agreeing * drawn.blocks) / Math.max(1, drawn.covered) });
    const worst = Math.max(0, ...Object.values(disagreement));
    const purity = Math.min(1, (MAX_IDENTITY_DISAGREEMENT - worst) / (MAX_IDENTITY_DISAGREEMENT - CLEAN_IDENTITY_DISAGREEMENT));
    const blocksOnAName = rule.excludes.includes('firstName') || rule.excludes.includes('lastName');
    for (const s of short) {
      estimatedBy[s] = (estimatedBy[s] as number) + purity;
      const w = result.matches * purity;
      const row =
        blocksOnAName && NAME_SLOTS.has(s)
          ? withShareOf(result.m[s] as Float64Array, initialShares[s] as Float64Array, LEVEL_CODE.swapped)
          : (result.m[s] as Float64Array);
      const into = mSum[s] as Float64Array;
      for (let l = 0; l < row.length; l++) into[l] = (into[l] as number) + w * (row[l] as number);
      mWeight[s] = (mWeight[s] as number) + w;
    }
  }

  // Check each comparison; fall back to the prior's m where the estimate is degenerate.
  const prior = initialShares;
  const sources: Record<string, ParameterSource> = {};
  const m = newTable(width);
  for (const s of slots) {
    const name = fieldName(s);
    const weight = mWeight[s] as number;
    if (PRIOR_ONLY.has(name)) {
      m[s] = atFileRates(prior[s] as Float64Array, u[s] as Float64Array, ctx, s);
      sources[name] = 'prior';
      continue;
    }
    if (weight <= 0) {
      const borrowed = borrowNameErrors(name, mSum, mWeight, prior, ctx, u);
      if (borrowed !== null) {
        m[s] = atFileRates(borrowed.m, u[s] as Float64Array, ctx, s);
        sources[name] = 'borrowed';
        notes.push(`${name}: no training session could estimate it; its typo and similarity levels are ${borrowed.from}'s, as estimated`);
        continue;
      }
      m[s] = atFileRates(prior[s] as Float64Array, u[s] as Float64Array, ctx, s);
      sources[name] = 'prior';
      continue;
    }
    const est = supported(mSum[s] as Float64Array, weight, prior[s] as Float64Array);
    const problem = degenerate(name, est, u[s] as Float64Array, ctx, s);
    if (problem === null) {
      m[s] = est;
      sources[name] = 'estimated';
    } else {
      m[s] = atFileRates(prior[s] as Float64Array, u[s] as Float64Array, ctx, s);
      sources[name] = 'fallback';
      notes.push(`${name}: the estimate was degenerate (${problem}); using the shipped prior m for it`);
    }
  }
  // Matches agreeing on a field over the chance that a match does (both records hold it, and
  // agree: the field's m of exact agreement) are all the matches.
  const priors: SessionPrior[] = [];
  for (const { field, matches } of matchesAgreeing) {
    const agree = presence(field, left) * presence(field, right ?? left) * ((m[FIELD_SLOT[field]] as Float64Array)[LEVEL_CODE.exact] as number);
    if (matches >= MIN_PRIOR_MATCHES && agree > 0) priors.push({ field, prior: Math.min(0.5, matches / agree / totalPairs) });
  }
  return {
    priors,
    model: withMonotoneWeights(buildModel(base, ctx, slots, m, u, sources, notes)),
    report: { uPairs, sessions, sources, notes },
    matches: sessionMatches(matchWeight, span, left, right ?? left),
  };
}

/** Share of (up to 2,000 evenly spaced) records holding a value of `field`. */
function presence(field: PriorField, source: RecordSource): number {
  const n = Math.min(source.size, 2000);
  if (n === 0) return 0;
  const step = source.size / n;
  let hit = 0;
  for (let k = 0; k < n; k++) if (VALUES[field](source.get(Math.floor(k * step))).length > 0) hit++;
  return hit / n;
}

/**
 * Fields whose session gives a {@link SessionPrior}. Not the names: a session blocked on a
 * surname or a first name takes namesakes and household members for one person, and implied
 * 1.4-2.5x the true prior on the generated files (the date of birth's: 0.68-1.35x; FEBRL and
 * fake_1000 within 4%). One email, phone or identifier many people may hold (an office's info@,
 * a shelter's phone, a placeholder): a block of more than {@link MAX_PERSONAL_BLOCK} records does
 * not count (fake_1000 without dates, 30% of its emails one office's: the email session read
 * 3.5x the true prior when such a block counted).
 */
const PRIOR_FIELDS = ['dateOfBirth', 'email', 'phone', 'identifier'] as const;
type PriorField = (typeof PRIOR_FIELDS)[number];
/** Most records one person's email, phone or identifier is expected on, in a file. */
const MAX_PERSONAL_BLOCK = 12;

/** `field` when its session gives a prior ({@link PRIOR_FIELDS}), else null. */
function priorField(field: ComparisonField): PriorField | null {
  return (PRIOR_FIELDS as readonly string[]).includes(field) ? (field as PriorField) : null;
}

/** Fewest matches agreeing on a session's field for its {@link SessionPrior}. */
const MIN_PRIOR_MATCHES = 50;

/**
 * The prior a session on one of {@link PRIOR_FIELDS} implies: the matches it estimates among
 * all pairs that agree on its field (its pairs' posteriors, each pair counting for the pairs of
 * its block it stands for, blocks not drawn counted in proportion), over the chance that a
 * match agrees on that field, over all pairs. Household members and twins its fit takes for
 * one person count too: it reads high where they are common.
 */
export interface SessionPrior {
  readonly field: PriorField;
  readonly prior: number;
}

/** Least posterior of a session's pair kept in {@link SessionMatches}. */
const MIN_MATCH_WEIGHT = 0.05;

/** {@link SessionMatches} of the weights by pair key (`a * span + b`, positions in `left` and `right`), in key order. */
function sessionMatches(weights: ReadonlyMap<number, number>, span: number, left: RecordSource, right: RecordSource): SessionMatches {
  const keys = [...weights.keys()].sort((x, y) => x - y);
  const out = { left: new Int32Array(keys.length), right: new Int32Array(keys.length), weight: new Float64Array(keys.length) };
  keys.forEach((key, k) => {
    const a = Math.floor(key / span);
    const b = key - a * span;
    out.left[k] = left.idOf === undefined ? a : left.idOf(a);
    out.right[k] = right.idOf === undefined ? b : right.idOf(b);
    out.weight[k] = weights.get(key) as number;
  });
  return out;
}

/**
 * Levels whose share among a person's own pairs follows how the file writes names (initials
 * only, compound names, names split across columns), as their share among strangers' pairs does.
 */
const WRITING_LEVELS = ['initial', 'part', 'cross'] as const;

/**
 * m of a comparison that no session estimated (the shipped prior's, or the levels a borrowed
 * name keeps), brought to the file's rates: the prior's m of an initial or a compound name is a
 * clean CRM file's, where initials are common; a file that holds none shows a u near zero for
 * them, and the prior's m over that u would weigh "J" against "James" far above the prior's
 * Bayes factor (7 bits against 2.7, then capped at exact agreement, which then keeps common
 * first names from any term-frequency adjustment: exact agreement never weighs below another
 * level). Where the file shows a level less often among strangers than the prior expects, its m
 * is lowered in the same proportion, which keeps the prior's weight; never raised. Renormalized.
 */
function atFileRates(priorM: Float64Array, u: Float64Array, ctx: ScoreContext, slot: number): Float64Array {
  const f = compiledFieldOf(ctx.compiled, slot);
  const out = priorM.slice();
  let changed = false;
  for (const level of WRITING_LEVELS) {
    const spec = f.levels[level];
    const code = LEVEL_CODE[level];
    if (spec === undefined || (f.mask & (1 << code)) === 0 || !(spec.u > 0)) continue;
    const scaled = (u[code] as number) * ((out[code] as number) / spec.u);
    if (scaled < (out[code] as number)) {
      out[code] = Math.max(FLOOR, scaled);
      changed = true;
    }
  }
  if (changed) normalizeOver(out, levelCodes(ctx, slot));
  return out;
}

/** Scales `row` so that its entries at `codes` sum to 1. */
function normalizeOver(row: Float64Array, codes: Iterable<number>): void {
  let sum = 0;
  for (const code of codes) sum += row[code] as number;
  for (const code of codes) row[code] = (row[code] as number) / sum;
}

/**
 * A comparison's m from the sessions' weighted sum of estimates (`sum`, over `matches`), made
 * up to {@link M_MIN_SUPPORT} matches with the prior's m.
 */
function supported(sum: Float64Array, matches: number, prior: Float64Array): Float64Array {
  const topUp = Math.max(0, M_MIN_SUPPORT - matches);
  return sum.map((x, l) => (x + topUp * (prior[l] as number)) / (matches + topUp));
}

/** m of two different values: disagreement, and for names the far-apart-but-alike level ('partial': "David"/"Daniel"). */
function differs(m: Float64Array, slot: number): number {
  return (m[LEVEL_CODE.disagree] as number) + (NAME_SLOTS.has(slot) ? (m[LEVEL_CODE.partial] as number) : 0);
}

/** Slots of the first name and the surname. */
const NAME_SLOTS: ReadonlySet<number> = new Set([FIELD_SLOT.firstName, FIELD_SLOT.lastName]);

/**
 * `m` with level `level` at the prior's share, the others scaled to fill the rest. A session
 * blocked on a surname or a first name never holds a pair whose names are swapped (its pairs
 * agree on the name it blocks on): its EM learns that swapped names never happen to one
 * person (m near 0: -1 to -2 bits where the prior gives +9), and "Melson Dennis" / "Dennis
 * Melson" scored -13 bits. Such a session leaves that level to the prior and the others.
 */
function withShareOf(m: Float64Array, prior: Float64Array, level: number): Float64Array {
  const share = prior[level] as number;
  const was = m[level] as number;
  if (!(share > 0) || was >= 1) return m;
  const out = m.slice();
  const scale = (1 - share) / (1 - was);
  for (let l = 0; l < out.length; l++) out[l] = l === level ? share : (out[l] as number) * scale;
  return out;
}

/** Levels of a name comparison that measure how the file's writing garbles a name (typos, OCR, sound). */
const NAME_ERROR_LEVELS = ['exact', 'typo', 'fuzzy-high', 'fuzzy-low', 'phonetic'] as const;

/**
 * m of a first name or surname that no training session could estimate (every session that
 * compares it was blocked on it, or taken for households: a file of names, a city and a
 * postal code), from the other name's estimate: one file's typist, OCR or transcription
 * garbles both names alike, which the shipped prior (a clean file's) does not know. The
 * levels both have take the other name's estimated shares; the levels only this name has
 * (nickname, initial, the other's middle name...) and disagreement keep the prior's; then
 * renormalized. Null when the other name has no sound estimate either.
 */
function borrowNameErrors(
  name: string,
  mSum: Table,
  mWeight: Float64Array,
  prior: Table,
  ctx: ScoreContext,
  u: Table,
): { m: Float64Array; from: string } | null {
  if (name !== 'firstName' && name !== 'lastName') return null;
  const other = name === 'firstName' ? 'lastName' : 'firstName';
  const slot = FIELD_SLOT[name];
  const o = FIELD_SLOT[other];
  const weight = mWeight[o] as number;
  if (weight <= 0) return null;
  const est = supported(mSum[o] as Float64Array, weight, prior[o] as Float64Array);
  if (degenerate(other, est, u[o] as Float64Array, ctx, o) !== null) return null;
  const own = new Set(levelCodes(ctx, slot));
  const theirs = new Set(levelCodes(ctx, o));
  const out = (prior[slot] as Float64Array).slice();
  for (const level of NAME_ERROR_LEVELS) {
    const code = LEVEL_CODE[level];
    if (!own.has(code) || !theirs.has(code)) continue;
    // A garbling level takes the other name's share where the file garbles more than the
    // prior's clean file, never less: a first name's sound-alike share is small because its
    // nickname and typo levels come first ("Mary" / "Marie"), which says nothing of surnames.
    out[code] = level === 'exact' ? (est[code] as number) : Math.max(est[code] as number, out[code] as number);
  }
  normalizeOver(out, own);
  return { m: out, from: other };
}

/** Slots of comparisons the model has. */
function activeSlots(ctx: ScoreContext, width: number): number[] {
  const out: number[] = [];
  for (let s = 0; s < width; s++) if (compiledFieldOf(ctx.compiled, s).mask !== 0) out.push(s);
  return out;
}

const asItIs = (c: NormalizedContact): NormalizedContact => c;

function levels(a: NormalizedContact, b: NormalizedContact, ctx: ScoreContext, out: Uint8Array): void {
  out.fill(LEVEL_CODE.missing);
  scorePair(a, b, ctx, undefined, out);
}

function randomPair(rng: SeededRandom, left: RecordSource, right: RecordSource | null): [NormalizedContact, NormalizedContact] {
  if (right !== null) return [left.get(rng.below(left.size)), right.get(rng.below(right.size))];
  const i = rng.below(left.size);
  let j = rng.below(left.size - 1);
  if (j >= i) j++;
  return [left.get(i), left.get(j)];
}

function pairAt(i: number, left: RecordSource, right: RecordSource | null, side: 0 | 1): NormalizedContact {
  return side === 1 && right !== null ? right.get(i) : left.get(i);
}

/** The levels a model has for a slot, as codes. */
function levelCodes(ctx: ScoreContext, slot: number): number[] {
  const f = compiledFieldOf(ctx.compiled, slot);
  const out: number[] = [];
  for (let l = 0; l < LEVEL_NAMES.length; l++) if (l !== LEVEL_CODE.missing && (f.mask & (1 << l)) !== 0) out.push(l);
  return out;
}

/** u per level from sampled counts, smoothed towards the prior's u (normalized over present levels). */
function uFromCounts(counts: Table, slots: readonly number[], ctx: ScoreContext): Table {
  const u = newTable(counts.length);
  for (const s of slots) {
    const f = compiledFieldOf(ctx.compiled, s);
    const codes = levelCodes(ctx, s);
    const row = counts[s] as Float64Array;
    let present = 0;
    let priorSum = 0;
    for (const l of codes) {
      present += row[l] as number;
      priorSum += f.levels[LEVEL_NAMES[l] as LevelName]?.u ?? 0;
    }
    const out = u[s] as Float64Array;
    for (const l of codes) {
      const p = (f.levels[LEVEL_NAMES[l] as LevelName]?.u ?? 0) / (priorSum || 1);
      out[l] = Math.max(FLOOR, ((row[l] as number) + U_PRIOR_PAIRS * p) / (present + U_PRIOR_PAIRS));
    }
  }
  return u;
}

/** Comparisons whose exact u comes from value frequencies: each record's values of the field. */
const FREQUENCY_FIELDS: readonly [ComparisonField, ValuesOf][] = [
  ['firstName', VALUES.firstName],
  ['lastName', VALUES.lastName],
  ['dateOfBirth', VALUES.dateOfBirth],
  ['sex', VALUES.sex],
  ['email', VALUES.email],
  ['phone', VALUES.phone],
  ['identifier', VALUES.identifier],
  ['zip5', VALUES.zip5],
  ['city', VALUES.city],
  ['streetName', VALUES.streetName],
  ['streetNumber', VALUES.streetNumber],
  ['state', VALUES.state],
  ['address', VALUES.address],
];

/**
 * Replaces the sampled u of exact agreement by the figure the values' frequencies give: the
 * chance that two records drawn at random share a value, given both hold one (the sum over
 * values of the product of their frequencies; for records with several values, an
 * approximation from above). Rare agreements (an email, an identifier) are seldom or never
 * seen in a random sample; their frequencies are exact. The other levels are rescaled.
 */
function exactFromFrequencies(u: Table, values: RecordValues, base: MatchModel): void {
  const exact = LEVEL_CODE.exact;
  const apply = (slot: number, valueOf: ValuesOf): void => {
    const row = u[slot] as Float64Array;
    if (row[exact] === 0) return;
    const chance = agreementChance(values.column(valueOf));
    if (chance === null) return;
    // Shrunk towards the sampled figure (itself the prior's for small files) by a pseudo-count
    // of pairs: a file of a few rows says little about how often strangers share a name.
    const value = Math.max(FLOOR, (chance.same + U_PRIOR_PAIRS * 20 * (row[exact] as number)) / (chance.pairs + U_PRIOR_PAIRS * 20));
    let rest = 0;
    for (let l = 0; l < row.length; l++) if (l !== exact) rest += row[l] as number;
    const scale = rest > 0 ? (1 - value) / rest : 0;
    for (let l = 0; l < row.length; l++) row[l] = l === exact ? value : Math.max(row[l] === 0 ? 0 : FLOOR, (row[l] as number) * scale);
  };
  for (const [field, valueOf] of FREQUENCY_FIELDS) apply(FIELD_SLOT[field], valueOf);
  attributeValues(base).forEach((valueOf, i) => apply(COMPARISON_FIELDS.length + i, valueOf));
}

/** The values of each attribute column, one function per column (the same one on every call). */
const ATTRIBUTE_VALUES: ValuesOf[] = [];
function attributeValues(base: MatchModel): readonly ValuesOf[] {
  const count = base.attributes?.length ?? 0;
  for (let i = ATTRIBUTE_VALUES.length; i < count; i++) ATTRIBUTE_VALUES.push((c) => single(c.attributes[i] ?? null));
  return ATTRIBUTE_VALUES.slice(0, count);
}

/**
 * The records' values that estimation counts and groups by, read in one pass (estimate-values.ts):
 * one column per distinct extractor, for the left file and (a link) the right.
 */
class RecordValues {
  private readonly at = new Map<ValuesOf, number>();
  private readonly dictionaries: ValueDictionary[];
  private readonly left: ValueColumn[];
  private readonly right: ValueColumn[] | null;

  constructor(data: TrainingData, extractors: readonly ValuesOf[]) {
    const distinct: ValuesOf[] = [];
    for (const e of extractors) {
      if (this.at.has(e)) continue;
      this.at.set(e, distinct.length);
      distinct.push(e);
    }
    this.dictionaries = distinct.map(() => new ValueDictionary());
    this.left = readColumns(data.left, distinct, this.dictionaries);
    this.right = data.right === undefined ? null : readColumns(data.right, distinct, this.dictionaries);
  }

  /** The columns of an extractor given to the constructor. */
  column(valuesOf: ValuesOf): { values: number; dictionary: ValueDictionary; left: ValueColumn; right: ValueColumn | null } {
    const k = this.at.get(valuesOf);
    if (k === undefined) throw new Error('estimation: a column was not read');
    const dictionary = this.dictionaries[k] as ValueDictionary;
    return { values: dictionary.size, dictionary, left: this.left[k] as ValueColumn, right: this.right === null ? null : (this.right[k] as ValueColumn) };
  }
}

function agreementChance(column: ReturnType<RecordValues['column']>): { same: number; pairs: number } | null {
  const l = valueCounts(column.left, column.values);
  if (column.right === null) {
    if (l.present < 2) return null;
    let same = 0;
    for (let v = 0; v < column.values; v++) {
      const c = l.counts[v] as number;
      same += (c * (c - 1)) / 2;
    }
    return { same, pairs: (l.present * (l.present - 1)) / 2 };
  }
  const r = valueCounts(column.right, column.values);
  if (l.present === 0 || r.present === 0) return null;
  let same = 0;
  for (let v = 0; v < column.values; v++) same += (l.counts[v] as number) * (r.counts[v] as number);
  return { same, pairs: l.present * r.present };
}

function coverage(rule: TrainingRule, values: RecordValues): number {
  const share = (column: ValueColumn): number => {
    const size = column.offsets.length - 1;
    const n = Math.min(size, 2000);
    if (n === 0) return 0;
    const step = size / n;
    let hit = 0;
    for (let k = 0; k < n; k++) if (holdsValue(column, Math.floor(k * step))) hit++;
    return hit / n;
  };
  const column = values.column(rule.values);
  return Math.min(share(column.left), column.right === null ? 1 : share(column.right));
}

/**
 * Pairs agreeing on a rule's value, as a flat list of positions (a, b, a, b...): every pair of
 * a small block, `perBlock` random pairs of a large one, at most `limit` pairs in all (blocks
 * taken in a random order: shuffled from the values' sorted order).
 */
function rulePairs(rule: TrainingRule, values: RecordValues, rng: SeededRandom, limit: number, perBlock: number): RulePairs {
  const column = values.column(rule.values);
  const left = blocksOf(column.left, column.values);
  const right = column.right === null ? null : blocksOf(column.right, column.values);
  const sizeOf = (b: { starts: Int32Array }, v: number): number => (b.starts[v + 1] as number) - (b.starts[v] as number);
  const ids: number[] = [];
  for (let v = 0; v < column.values; v++) if (right === null ? sizeOf(left, v) > 1 : sizeOf(left, v) > 0 && sizeOf(right, v) > 0) ids.push(v);
  const names = column.dictionary.values;
  const keys = ids.map((v) => names[v] as string);
  const idOfKey = new Map<string, number>();
  ids.forEach((v, i) => idOfKey.set(keys[i] as string, v));
  keys.sort();
  for (let i = keys.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    [keys[i], keys[j]] = [keys[j] as string, keys[i] as string];
  }
  const blockOf = (b: { starts: Int32Array; records: Int32Array }, v: number): Int32Array => b.records.subarray(b.starts[v], b.starts[v + 1]);
  const out: number[] = [];
  const scale: number[] = [];
  const blockSize: number[] = [];
  let covered = 0;
  for (const key of keys) {
    const v = idOfKey.get(key) as number;
    const a = blockOf(left, v);
    const b = right === null ? a : blockOf(right, v);
    const all = right === null ? (a.length * (a.length - 1)) / 2 : a.length * b.length;
    covered++;
    const before = out.length;
    if (all <= perBlock) {
      if (right === null) for (let i = 0; i < a.length; i++) for (let j = i + 1; j < a.length; j++) out.push(a[i] as number, a[j] as number);
      else for (const x of a) for (const y of b) out.push(x, y);
    } else {
      for (let k = 0; k < perBlock; k++) {
        if (right === null) {
          const i = rng.below(a.length);
          let j = rng.below(a.length - 1);
          if (j >= i) j++;
          out.push(a[i] as number, a[j] as number);
        } else out.push(a[rng.below(a.length)] as number, b[rng.below(b.length)] as number);
      }
    }
    const w = all <= perBlock ? 1 : all / perBlock;
    for (let k = before; k < out.length; k += 2) {
      scale.push(w);
      blockSize.push(right === null ? a.length : a.length + b.length);
    }
    if (out.length / 2 >= limit) break;
  }
  return { pairs: out, scale, blockSize, blocks: keys.length, covered };
}

/**
 * A rule's pairs (positions a, b, a, b...) and how they were drawn: per pair, the pairs its
 * block holds over those taken from it and the block's records (both files'); the blocks there
 * were and how many were taken.
 */
interface RulePairs {
  readonly pairs: number[];
  readonly scale: number[];
  readonly blockSize: number[];
  readonly blocks: number;
  readonly covered: number;
}

/** The prior's m per slot, normalized over the levels the model has. */
function initialM(ctx: ScoreContext, width: number): Table {
  const m = newTable(width);
  for (let s = 0; s < width; s++) {
    const f = compiledFieldOf(ctx.compiled, s);
    const codes = levelCodes(ctx, s);
    let sum = 0;
    for (const l of codes) sum += f.levels[LEVEL_NAMES[l] as LevelName]?.m ?? 0;
    for (const l of codes) (m[s] as Float64Array)[l] = (f.levels[LEVEL_NAMES[l] as LevelName]?.m ?? 0) / (sum || 1);
  }
  return m;
}

/** The chance that a pair of levels `vector` is one person, under m, u and the match share `lambda` (the slots' levels only). */
function posterior(vector: Uint8Array, slots: readonly number[], m: Table, u: Table, lambda: number): number {
  let logRatio = Math.log(lambda / (1 - lambda));
  for (const s of slots) {
    const l = vector[s] as number;
    if (l === LEVEL_CODE.missing) continue;
    logRatio += Math.log(Math.max(FLOOR, (m[s] as Float64Array)[l] as number)) - Math.log(Math.max(FLOOR, (u[s] as Float64Array)[l] as number));
  }
  return logRatio > 40 ? 1 : logRatio < -40 ? 0 : 1 / (1 + Math.exp(-logRatio));
}

/** EM over distinct level patterns with u fixed: m of the estimable slots and the match share. */
export function runEm(
  patterns: readonly { readonly vector: Uint8Array; readonly count: number }[],
  slots: readonly number[],
  initial: Table,
  u: Table,
  maxIterations: number,
): { m: Table; lambda: number; matches: number; iterations: number; converged: boolean } {
  const m = initial.map((row) => row.slice());
  let lambda = 0.05;
  let total = 0;
  for (const p of patterns) total += p.count;
  const missing = LEVEL_CODE.missing;
  let iterations = 0;
  let converged = false;
  let matches = 0;
  while (iterations < maxIterations && !converged) {
    iterations++;
    const acc = m.map((row) => new Float64Array(row.length));
    const present = new Float64Array(m.length);
    matches = 0;
    for (const p of patterns) {
      const w = posterior(p.vector, slots, m, u, lambda) * p.count;
      matches += w;
      for (const s of slots) {
        const l = p.vector[s] as number;
        if (l === missing) continue;
        const into = acc[s] as Float64Array;
        into[l] = (into[l] as number) + w;
        present[s] = (present[s] as number) + w;
      }
    }
    let delta = 0;
    for (const s of slots) {
      const row = m[s] as Float64Array;
      const init = initial[s] as Float64Array;
      for (let l = 0; l < row.length; l++) {
        if (l === missing || ((init[l] as number) === 0 && ((acc[s] as Float64Array)[l] as number) === 0)) continue;
        const next = (((acc[s] as Float64Array)[l] as number) + M_PRIOR_MATCHES * (init[l] as number)) / ((present[s] as number) + M_PRIOR_MATCHES);
        delta = Math.max(delta, Math.abs(next - (row[l] as number)));
        row[l] = next;
      }
    }
    const nextLambda = Math.min(0.999, Math.max(1e-6, matches / Math.max(1, total)));
    delta = Math.max(delta, Math.abs(nextLambda - lambda));
    lambda = nextLambda;
    converged = delta < 1e-4;
  }
  return { m, lambda, matches, iterations, converged };
}

/**
 * Comparisons whose m is never estimated (the prior's, at the file's rates): the generational
 * suffix. A father and his son whose record lacks the "Jr" agree on everything else, so every
 * session's "same person" class takes such pairs in and learns that a suffix on one record
 * only is common among matches (m 0.67-0.74 on the mixed files, against 0.05 in the prior):
 * the fit follows how many such households a file holds, not how its sources write suffixes,
 * and whether it passed the degenerate check flipped with small changes to a file (mixed
 * medium, seeds 2, 4 and 5: pairwise precision 0.94-0.96 with the prior, 0.93-0.94 with
 * the estimate).
 */
const PRIOR_ONLY: ReadonlySet<string> = new Set(['suffix']);

/** Why an estimated m (with its u) is no model of "same person", or null when it is one. */
function degenerate(name: string, m: Float64Array, u: Float64Array, ctx: ScoreContext, slot: number): string | null {
  const codes = levelCodes(ctx, slot);
  const weight = (l: number): number => Math.log2(Math.max(FLOOR, m[l] as number) / Math.max(FLOOR, u[l] as number));
  const exact = LEVEL_CODE.exact;
  if (!codes.includes(exact)) return null;
  const we = weight(exact);
  const least = STRONG_FIELDS.has(name) ? STRONG_BITS : WEAK_BITS;
  if (we < least) return `exact agreement weighs ${we.toFixed(1)} bits, less than ${least}`;
  const disagree = LEVEL_CODE.disagree;
  if (codes.includes(disagree) && weight(disagree) > 0) return `disagreement weighs +${weight(disagree).toFixed(1)} bits`;
  // A weaker level that outweighs exact agreement (a typo rarer among random pairs than a
  // common name) is capped at exact agreement's weight (withMonotoneWeights), not rejected:
  // rejecting it threw away FEBRL3's learned first names and cost 0.2 points of clustered F1.
  return null;
}

function buildModel(
  base: MatchModel,
  ctx: ScoreContext,
  slots: readonly number[],
  m: Table,
  u: Table,
  sources: Record<string, ParameterSource>,
  notes: readonly string[],
): MatchModel {
  const fieldModel = (slot: number): FieldModel => {
    const out: Partial<Record<LevelName, LevelSpec>> = {};
    const f = compiledFieldOf(ctx.compiled, slot);
    for (const l of levelCodes(ctx, slot)) {
      const level = LEVEL_NAMES[l] as LevelName;
      const spec = f.levels[level];
      const mm = Math.max(FLOOR, (m[slot] as Float64Array)[l] as number);
      const uu = Math.max(FLOOR, (u[slot] as Float64Array)[l] as number);
      out[level] = spec?.veto === true ? { m: round(mm), u: round(uu), veto: true } : { m: round(mm), u: round(uu) };
    }
    return out;
  };
  const fields: Partial<Record<ComparisonField, FieldModel>> = {};
  const attributes = (base.attributes ?? []).map((a) => ({ name: a.name, levels: a.levels }));
  for (const s of slots) {
    if (s < COMPARISON_FIELDS.length) fields[COMPARISON_FIELDS[s] as ComparisonField] = fieldModel(s);
    else {
      const i = s - COMPARISON_FIELDS.length;
      const a = attributes[i];
      if (a !== undefined) attributes[i] = { name: a.name, levels: fieldModel(s) };
    }
  }
  return { ...base, fields, attributes, sources, notes };
}

function round(p: number): number {
  return Number(p.toPrecision(6));
}

/** Options of {@link estimatePrior}. */
export interface PriorOptions {
  /** How many pairs the records make (n(n-1)/2 for a dedupe, n * m for a link). */
  readonly totalPairs: number;
  /** Candidate scores were collected for this share of the records (1: all); they are scaled up by its inverse. */
  readonly sampledShare: number;
  /** Each pair was scored from both of its records (deduplication): counted twice. */
  readonly countedTwice: boolean;
}

/**
 * The prior (the chance that two records drawn at random are the same person) that agrees
 * with the model: the expected number of matches among the candidate pairs, given their
 * scores (`scores`: total weight without the prior), over all pairs; solved as a fixed point
 * (a prior gives posteriors, whose sum gives the prior). Nearly every match is a candidate
 * pair when blocking works, so the pairs blocking never compares add nothing. Returns a
 * probability in (0, 1).
 */
export function estimatePrior(scores: ArrayLike<number>, options: PriorOptions): number {
  const scale = 1 / Math.max(1e-9, options.sampledShare) / (options.countedTwice ? 2 : 1);
  const total = Math.max(1, options.totalPairs);
  let prior = 1 / total;
  for (let iteration = 0; iteration < 200; iteration++) {
    const bias = Math.log2(prior / (1 - prior));
    let expected = 0;
    for (let i = 0; i < scores.length; i++) expected += 1 / (1 + 2 ** -((scores[i] as number) + bias));
    const next = Math.min(0.5, Math.max(1 / (total * 100), (expected * scale) / total));
    if (Math.abs(next - prior) <= prior * 1e-6) return next;
    prior = next;
  }
  return prior;
}

/** The weight of a level of an estimated model (for reports). */
export function modelLevelWeight(spec: LevelSpec): number {
  return levelWeight(spec);
}

/** u probabilities shrink at most by this factor when the matches' share is taken out of them. */
const MAX_U_CORRECTION = 256;

/**
 * The model with its u probabilities freed of the matches among the random pairs (and value
 * frequencies) they were measured on: a sampled u is (1 - prior) * u + prior * m, which for
 * rare agreements (a date of birth, an email, an identifier) is mostly matches. With the
 * prior known, u = (observed - prior * m) / (1 - prior), shrinking by at most
 * {@link MAX_U_CORRECTION}. Levels whose m is below their u are left alone.
 */
export function withoutMatchesInU(model: MatchModel, prior: number): MatchModel {
  const correct = (levels: FieldModel): FieldModel => {
    const out: Partial<Record<LevelName, LevelSpec>> = {};
    for (const [level, spec] of Object.entries(levels) as [LevelName, LevelSpec][]) {
      const u = spec.m > spec.u ? Math.max(spec.u / MAX_U_CORRECTION, FLOOR, (spec.u - prior * spec.m) / (1 - prior)) : spec.u;
      out[level] = { ...spec, u: round(u) };
    }
    return out;
  };
  const fields: Partial<Record<ComparisonField, FieldModel>> = {};
  for (const [field, levels] of Object.entries(model.fields) as [ComparisonField, FieldModel][]) fields[field] = correct(levels);
  return withMonotoneWeights({ ...model, fields, attributes: (model.attributes ?? []).map((a) => ({ name: a.name, levels: correct(a.levels) })) });
}

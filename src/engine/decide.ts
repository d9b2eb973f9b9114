/**
 * Deciding: from a scored pair to Matched, Possible or Unmatched. A pair is matched when its
 * score reaches the match threshold, no level of it vetoes or caps the decision, and (in the
 * CRM profile) it agrees on every field of one minimum combination the candidate supplied;
 * it is possible (for review) at or above the review threshold. Among candidates, a match
 * beats a possible, a higher score a lower one, and ties go to the lowest id (the oldest
 * record).
 */
import { GATE_FIELD_BITS, type Gate, type GateField } from './gates.js';
import type { Thresholds } from './model.js';
import type { PairScore } from './score.js';

/** The decision on a candidate. "Possible" is a match for review, never merged automatically. */
export type Decision = 'Matched' | 'Possible' | 'Unmatched';

/** Why the decision was reached. */
export type MatchReason =
  /** A known record id decided. */
  | 'id'
  /** An external identifier decided. */
  | 'identifier'
  /** The match weight reached the threshold and the record agrees on a minimum combination. */
  | 'score'
  /** The candidate does not hold any minimum combination: no match is attempted. */
  | 'below-minimum'
  /** No indexed record shares a blocking key with the candidate. */
  | 'no-candidates'
  /**
   * The best-scoring record differs on a supplied criterion (a first name, a date of birth,
   * Jr/Sr), or scored high but a level of it allows at most a possible match (`heldBack` says which).
   */
  | 'criterion-disagrees'
  /** The best record scored high but agrees on no minimum combination. */
  | 'no-gate-agrees'
  /** No record scored high enough. */
  | 'below-threshold';

/** A scored record. */
export interface ScoredCandidate {
  readonly id: number;
  readonly score: number;
  readonly decision: Decision;
  /** The minimum combination the record agrees on, or null. */
  readonly gate: string | null;
  /** Why a score at or above the match threshold is only Possible (a missing gate, a capped level), or null. */
  readonly heldBack: string | null;
}

/** How pairs are decided. */
export interface DecisionPolicy {
  readonly thresholds: Thresholds;
  /**
   * A match must agree (not only be supplied) on every field of one minimum combination.
   * True for a CRM; false for linking files whose errors replace whole values.
   */
  readonly requireGateAgreement: boolean;
}

/** The decision on one pair. */
export interface PairDecision {
  readonly decision: Decision;
  readonly gate: string | null;
  readonly heldBack: string | null;
}

/** The gate fields of a mask, in words, joined with `conjunction` ("the date of birth, an email or a phone"). */
function fieldsText(mask: number, conjunction: 'or' | 'and'): string {
  const names = (Object.entries(GATE_FIELD_BITS) as [GateField, number][]).filter(([, bit]) => (mask & bit) !== 0).map(([f]) => FIELD_WORDS[f]);
  if (names.length === 0) return 'another field';
  return names.length === 1 ? (names[0] as string) : `${names.slice(0, -1).join(', ')} ${conjunction} ${names[names.length - 1] as string}`;
}

/** A household's signature: the same surname at the same street address (number, street and postal code). */
const HOUSEHOLD_BITS = GATE_FIELD_BITS.lastName | GATE_FIELD_BITS.streetNumber | GATE_FIELD_BITS.streetName | GATE_FIELD_BITS.zip5;

/**
 * The fields that can support the pair's levels (LevelSpec.needsSupport): theirs, less the
 * phone where a level is LevelSpec.notByHouseholdPhone and the pair shares a household's
 * surname and street address.
 */
function householdFree(score: PairScore): number {
  return score.notByHouseholdPhone && (score.agreeMask & HOUSEHOLD_BITS) === HOUSEHOLD_BITS ? score.supportMask & ~GATE_FIELD_BITS.phone : score.supportMask;
}

/** A pair whose levels need support (LevelSpec.needsSupport) has it: one of the fields, or all of the alternative (supportAll). */
function supported(score: PairScore): boolean {
  if ((score.agreeMask & householdFree(score)) !== 0) return true;
  return score.supportAllMask > 0 && (score.agreeMask & score.supportAllMask) === score.supportAllMask;
}

const FIELD_WORDS: Readonly<Record<GateField, string>> = {
  firstName: 'the first name',
  lastName: 'the last name',
  middleName: 'the middle name',
  email: 'an email',
  phone: 'a phone',
  zip5: 'the postal code',
  dateOfBirth: 'the date of birth',
  streetNumber: 'the street number',
  streetName: 'the street name',
  city: 'the city',
  state: 'the state',
  identifier: 'an identifier',
};

/** The first of `met` on whose every field the pair agrees, or null. */
export function agreedGate(score: PairScore, met: readonly Gate[]): Gate | null {
  for (const g of met) if ((score.agreeMask & g.mask) === g.mask) return g;
  return null;
}

/**
 * Decides one scored, unvetoed pair given the minimum combinations the candidate supplies
 * (`met`, never empty). Unmatched below the review threshold.
 */
export function decidePair(score: PairScore, met: readonly Gate[], policy: DecisionPolicy): PairDecision {
  const agreed = agreedGate(score, met);
  const gate = agreed?.name ?? (policy.requireGateAgreement ? null : (met[0]?.name ?? null));
  const t = policy.thresholds;
  if (score.score < t.possible) return { decision: 'Unmatched', gate, heldBack: null };
  if (score.score < t.match) return { decision: 'Possible', gate, heldBack: null };
  if (gate === null) return { decision: 'Possible', gate, heldBack: 'no minimum combination agrees' };
  if (score.cappedBy !== null) return { decision: 'Possible', gate, heldBack: `${score.cappedBy}: at most a possible match` };
  if (score.supportedBy !== null && !supported(score)) {
    const all = score.supportAllMask > 0 ? `, or ${fieldsText(score.supportAllMask, 'and')} all agree` : '';
    return { decision: 'Possible', gate, heldBack: `${score.supportedBy}: matched only when ${fieldsText(householdFree(score), 'or')} agrees too${all}` };
  }
  return { decision: 'Matched', gate, heldBack: null };
}

function rankOf(c: ScoredCandidate): number {
  return c.decision === 'Matched' ? 2 : c.decision === 'Possible' ? 1 : 0;
}

/** Orders candidates best first: Matched before Possible, then by score, then the lowest id. */
export function compareCandidates(a: ScoredCandidate, b: ScoredCandidate): number {
  return rankOf(b) - rankOf(a) || b.score - a.score || a.id - b.id;
}

/** Why the best-scoring, unmatched record was not a match. */
export function unmatchedReason(score: number, gate: string | null, vetoed: boolean, thresholds: Thresholds): MatchReason {
  if (vetoed) return 'criterion-disagrees';
  return gate === null && score >= thresholds.match ? 'no-gate-agrees' : 'below-threshold';
}

/** Why a Possible was not matched: below the match threshold, or held back (a missing gate, a capped or unsupported level). */
export function possibleReason(c: ScoredCandidate, thresholds: Thresholds): MatchReason {
  if (c.score < thresholds.match || c.heldBack === null) return 'below-threshold';
  return c.gate === null ? 'no-gate-agrees' : 'criterion-disagrees';
}

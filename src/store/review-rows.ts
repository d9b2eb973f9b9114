/**
 * How the review queue (review-types.ts) is laid out in rows: the same columns in both
 * adapters (SQLite migration 9, PostgreSQL migration 6), so one mapping serves both.
 */
import type { PersonMerge, PossibleMatchRow, PossibleMatchStatus, ReviewAuditRow } from './review-types.js';
import { textOrNull } from './rows.js';

type Row = Record<string, unknown>;

/** A `possible_matches` row. */
export function toPossibleMatch(r: Row): PossibleMatchRow {
  return {
    id: Number(r['id']),
    crmId: Number(r['crm_id']),
    candidateCrmId: Number(r['candidate_crm_id']),
    score: Number(r['score']),
    explanation: String(r['explanation']),
    createdAt: String(r['created_at']),
    status: String(r['status']) as PossibleMatchStatus,
    decidedAt: textOrNull(r['decided_at']),
    decidedByKeyId: r['decided_by_key_id'] == null ? null : Number(r['decided_by_key_id']),
  };
}

/** A `review_audit` row. */
export function toAudit(r: Row): ReviewAuditRow {
  return {
    id: Number(r['id']),
    possibleMatchId: Number(r['possible_match_id']),
    action: String(r['action']) as ReviewAuditRow['action'],
    keyId: Number(r['key_id']),
    actor: String(r['actor']),
    at: String(r['at']),
    detail: String(r['detail']),
  };
}

/** A `person_merges` row. */
export function toMerge(r: Row): PersonMerge {
  return { crmId: Number(r['crm_id']), survivorCrmId: Number(r['survivor_crm_id']), mergedAt: String(r['merged_at']) };
}

/**
 * The pairs of a scope decided `different` ($1 tenant, $2 context), each crmId merged since as
 * its survivor (a decision outlives a merge: src/crm/different-pairs.ts), as columns a and b.
 */
export const DIFFERENT_SQL = `SELECT COALESCE(m1.survivor_crm_id, p.crm_id) AS a, COALESCE(m2.survivor_crm_id, p.candidate_crm_id) AS b
  FROM possible_matches p
  LEFT JOIN person_merges m1 ON m1.crm_id = p.crm_id AND m1.tenant_id = p.tenant_id AND m1.context = p.context
  LEFT JOIN person_merges m2 ON m2.crm_id = p.candidate_crm_id AND m2.tenant_id = p.tenant_id AND m2.context = p.context
  WHERE p.tenant_id = $1 AND p.context = $2 AND p.status = 'different' ORDER BY p.id`;

/**
 * The review queue part of the SQLite store (review-types.ts): its reads, and the writes a
 * people unit makes (SqliteStore.writeScope hands them to its ScopeWriter), each applied in the
 * open group commit like the unit's people writes.
 */
import type Database from 'better-sqlite3';
import { DIFFERENT_SQL, toAudit, toMerge, toPossibleMatch } from './review-rows.js';
import type { NewPossibleMatch, PersonMerge, PossibleMatchDecision, PossibleMatchRow, PossibleMatchStatus, ReviewAuditRow } from './review-types.js';
import { StoreError, type Applied, type Scope } from './types.js';

type Row = Record<string, unknown>;
type Stmt = (sql: string) => Database.Statement;
/** A write applied in the group commit (SqliteStore's `tx.apply`). */
type Apply = <T>(fn: () => T, importWrite: boolean) => Applied<T>;

/** See the module comment. */
export class SqliteReviewTables {
  constructor(
    private readonly stmt: Stmt,
    private readonly apply: Apply,
  ) {}

  insertPossibleMatch(scope: Scope, row: NewPossibleMatch, importWrite: boolean): Applied<number> {
    return this.apply(
      () =>
        Number(
          this.stmt(
            `INSERT INTO possible_matches
      (tenant_id, context, crm_id, candidate_crm_id, score, explanation, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
          ).run(scope.tenantId, scope.context, row.crmId, row.candidateCrmId, row.score, row.explanation, row.createdAt).lastInsertRowid,
        ),
      importWrite,
    );
  }

  decidePossibleMatch(scope: Scope, d: PossibleMatchDecision): Applied<void> {
    return this.apply(() => {
      const info = this.stmt(
        `UPDATE possible_matches SET status = ?, decided_at = ?, decided_by_key_id = ?
        WHERE id = ? AND tenant_id = ? AND context = ? AND status = 'open'`,
      ).run(d.status, d.decidedAt, d.keyId, d.id, scope.tenantId, scope.context);
      if (info.changes !== 1) throw new StoreError(`Possible match ${d.id} is not open in tenant ${scope.tenantId} ${scope.context}.`, 'CONFLICT');
      this.stmt(
        `INSERT INTO review_audit (tenant_id, context, possible_match_id, action, key_id, actor, at, detail)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(scope.tenantId, scope.context, d.id, d.status, d.keyId, d.actor, d.decidedAt, d.detail);
    }, false);
  }

  mergePerson(scope: Scope, crmId: number, survivorCrmId: number, mergedAt: string): Applied<void> {
    const { tenantId, context } = scope;
    return this.apply(() => {
      this.stmt('UPDATE canvass_responses SET crm_id = ? WHERE tenant_id = ? AND context = ? AND crm_id = ?').run(survivorCrmId, tenantId, context, crmId);
      this.stmt('DELETE FROM person_identifiers WHERE tenant_id = ? AND context = ? AND crm_id = ?').run(tenantId, context, crmId);
      this.stmt('UPDATE person_merges SET survivor_crm_id = ? WHERE tenant_id = ? AND context = ? AND survivor_crm_id = ?').run(
        survivorCrmId,
        tenantId,
        context,
        crmId,
      );
      this.stmt('INSERT INTO person_merges (crm_id, tenant_id, context, survivor_crm_id, merged_at) VALUES (?, ?, ?, ?, ?)').run(
        crmId,
        tenantId,
        context,
        survivorCrmId,
        mergedAt,
      );
      const info = this.stmt('DELETE FROM people WHERE crm_id = ? AND tenant_id = ? AND context = ?').run(crmId, tenantId, context);
      if (info.changes !== 1) throw new StoreError(`No person ${crmId} in tenant ${tenantId} ${context}.`, 'NOT_FOUND');
    }, false);
  }

  getPossibleMatch(scope: Scope, id: number): PossibleMatchRow | null {
    const row = this.stmt('SELECT * FROM possible_matches WHERE id = ? AND tenant_id = ? AND context = ?').get(id, scope.tenantId, scope.context) as
      Row | undefined;
    return row === undefined ? null : toPossibleMatch(row);
  }

  listPossibleMatches(scope: Scope, status: PossibleMatchStatus | null, skip: number, limit: number): PossibleMatchRow[] {
    const rows =
      status === null
        ? this.stmt('SELECT * FROM possible_matches WHERE tenant_id = ? AND context = ? ORDER BY id DESC LIMIT ? OFFSET ?').all(
            scope.tenantId,
            scope.context,
            limit,
            skip,
          )
        : this.stmt('SELECT * FROM possible_matches WHERE tenant_id = ? AND context = ? AND status = ? ORDER BY id DESC LIMIT ? OFFSET ?').all(
            scope.tenantId,
            scope.context,
            status,
            limit,
            skip,
          );
    return (rows as Row[]).map(toPossibleMatch);
  }

  countPossibleMatches(scope: Scope, status: PossibleMatchStatus | null): number {
    return Number(
      status === null
        ? this.stmt('SELECT COUNT(*) FROM possible_matches WHERE tenant_id = ? AND context = ?').pluck().get(scope.tenantId, scope.context)
        : this.stmt('SELECT COUNT(*) FROM possible_matches WHERE tenant_id = ? AND context = ? AND status = ?')
            .pluck()
            .get(scope.tenantId, scope.context, status),
    );
  }

  listDifferentPairs(scope: Scope): [number, number][] {
    return this.stmt(DIFFERENT_SQL.replace('$1', '?').replace('$2', '?')).raw().all(scope.tenantId, scope.context) as [number, number][];
  }

  getMerge(scope: Scope, crmId: number): PersonMerge | null {
    const row = this.stmt('SELECT * FROM person_merges WHERE crm_id = ? AND tenant_id = ? AND context = ?').get(crmId, scope.tenantId, scope.context) as
      Row | undefined;
    return row === undefined ? null : toMerge(row);
  }

  listReviewAudit(scope: Scope, possibleMatchId: number | null, skip: number, limit: number): ReviewAuditRow[] {
    const rows =
      possibleMatchId === null
        ? this.stmt('SELECT * FROM review_audit WHERE tenant_id = ? AND context = ? ORDER BY id DESC LIMIT ? OFFSET ?').all(
            scope.tenantId,
            scope.context,
            limit,
            skip,
          )
        : this.stmt('SELECT * FROM review_audit WHERE tenant_id = ? AND context = ? AND possible_match_id = ? ORDER BY id DESC LIMIT ? OFFSET ?').all(
            scope.tenantId,
            scope.context,
            possibleMatchId,
            limit,
            skip,
          );
    return (rows as Row[]).map(toAudit);
  }
}

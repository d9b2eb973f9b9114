/**
 * The review queue part of the PostgreSQL store (review-types.ts): its reads, and the writes a
 * people unit makes (PgStore.writeScope hands them to its ScopeWriter, in the unit's
 * transaction). A merge and a `different` decision take the next `people_changes` number (a
 * version) and stamp their transaction id, so the other processes' catch-up reads them
 * (pg-unit.ts CHANGES_SQL).
 */
import type pg from 'pg';
import { DIFFERENT_SQL, toAudit, toMerge, toPossibleMatch } from './review-rows.js';
import type { NewPossibleMatch, PersonMerge, PossibleMatchDecision, PossibleMatchRow, PossibleMatchStatus, ReviewAuditRow } from './review-types.js';
import { StoreError, type Scope } from './types.js';

type Row = Record<string, unknown>;
/** A statement on the given client, or on the pool when null (PgStore.q). */
type Query = (sql: string, values?: unknown[], client?: pg.PoolClient | null) => Promise<pg.QueryResult<Row>>;

/** See the module comment. */
export class PgReviewTables {
  constructor(private readonly q: Query) {}

  async insertPossibleMatch(client: pg.PoolClient, scope: Scope, row: NewPossibleMatch): Promise<number> {
    const r = await this.q(
      `INSERT INTO possible_matches (tenant_id, context, crm_id, candidate_crm_id, score, explanation, created_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [scope.tenantId, scope.context, row.crmId, row.candidateCrmId, row.score, row.explanation, row.createdAt],
      client,
    );
    return Number(r.rows[0]?.['id']);
  }

  async getPossibleMatchForUpdate(client: pg.PoolClient, scope: Scope, id: number): Promise<PossibleMatchRow | null> {
    const row = (
      await this.q('SELECT * FROM possible_matches WHERE id = $1 AND tenant_id = $2 AND context = $3 FOR UPDATE', [id, scope.tenantId, scope.context], client)
    ).rows[0];
    return row === undefined ? null : toPossibleMatch(row);
  }

  async decidePossibleMatch(client: pg.PoolClient, scope: Scope, d: PossibleMatchDecision): Promise<void> {
    const r = await this.q(
      `UPDATE possible_matches SET status = $1, decided_at = $2, decided_by_key_id = $3,
        decided_seq = CASE WHEN $1 = 'different' THEN nextval('people_changes') END,
        decided_xid = CASE WHEN $1 = 'different' THEN txid_current() END
      WHERE id = $4 AND tenant_id = $5 AND context = $6 AND status = 'open'`,
      [d.status, d.decidedAt, d.keyId, d.id, scope.tenantId, scope.context],
      client,
    );
    if (r.rowCount !== 1) throw new StoreError(`Possible match ${d.id} is not open in tenant ${scope.tenantId} ${scope.context}.`, 'CONFLICT');
    await this.q(
      `INSERT INTO review_audit (tenant_id, context, possible_match_id, action, key_id, actor, at, detail)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [scope.tenantId, scope.context, d.id, d.status, d.keyId, d.actor, d.decidedAt, d.detail],
      client,
    );
  }

  /** Answers the merge's change number (the merged person's last version). */
  async mergePerson(client: pg.PoolClient, scope: Scope, crmId: number, survivorCrmId: number, mergedAt: string): Promise<number> {
    const { tenantId, context } = scope;
    await this.q(
      'UPDATE canvass_responses SET crm_id = $1 WHERE tenant_id = $2 AND context = $3 AND crm_id = $4',
      [survivorCrmId, tenantId, context, crmId],
      client,
    );
    await this.q('DELETE FROM person_identifiers WHERE tenant_id = $1 AND context = $2 AND crm_id = $3', [tenantId, context, crmId], client);
    await this.q(
      'UPDATE person_merges SET survivor_crm_id = $1 WHERE tenant_id = $2 AND context = $3 AND survivor_crm_id = $4',
      [survivorCrmId, tenantId, context, crmId],
      client,
    );
    const merge = await this.q(
      `INSERT INTO person_merges (crm_id, tenant_id, context, survivor_crm_id, merged_at, change_seq, change_xid)
      VALUES ($1, $2, $3, $4, $5, nextval('people_changes'), txid_current()) RETURNING change_seq`,
      [crmId, tenantId, context, survivorCrmId, mergedAt],
      client,
    );
    const r = await this.q('DELETE FROM people WHERE crm_id = $1 AND tenant_id = $2 AND context = $3', [crmId, tenantId, context], client);
    if (r.rowCount !== 1) throw new StoreError(`No person ${crmId} in tenant ${tenantId} ${context}.`, 'NOT_FOUND');
    return Number(merge.rows[0]?.['change_seq']);
  }

  async getPossibleMatch(scope: Scope, id: number): Promise<PossibleMatchRow | null> {
    const row = (await this.q('SELECT * FROM possible_matches WHERE id = $1 AND tenant_id = $2 AND context = $3', [id, scope.tenantId, scope.context])).rows[0];
    return row === undefined ? null : toPossibleMatch(row);
  }

  async listPossibleMatches(scope: Scope, status: PossibleMatchStatus | null, skip: number, limit: number): Promise<PossibleMatchRow[]> {
    const r =
      status === null
        ? await this.q('SELECT * FROM possible_matches WHERE tenant_id = $1 AND context = $2 ORDER BY id DESC LIMIT $3 OFFSET $4', [
            scope.tenantId,
            scope.context,
            limit,
            skip,
          ])
        : await this.q('SELECT * FROM possible_matches WHERE tenant_id = $1 AND context = $2 AND status = $3 ORDER BY id DESC LIMIT $4 OFFSET $5', [
            scope.tenantId,
            scope.context,
            status,
            limit,
            skip,
          ]);
    return r.rows.map(toPossibleMatch);
  }

  async countPossibleMatches(scope: Scope, status: PossibleMatchStatus | null): Promise<number> {
    const r =
      status === null
        ? await this.q('SELECT COUNT(*) AS n FROM possible_matches WHERE tenant_id = $1 AND context = $2', [scope.tenantId, scope.context])
        : await this.q('SELECT COUNT(*) AS n FROM possible_matches WHERE tenant_id = $1 AND context = $2 AND status = $3', [
            scope.tenantId,
            scope.context,
            status,
          ]);
    return Number(r.rows[0]?.['n'] ?? 0);
  }

  async listDifferentPairs(scope: Scope): Promise<[number, number][]> {
    const r = await this.q(DIFFERENT_SQL, [scope.tenantId, scope.context]);
    return r.rows.map((x) => [Number(x['a']), Number(x['b'])]);
  }

  async getMerge(scope: Scope, crmId: number): Promise<PersonMerge | null> {
    const row = (await this.q('SELECT * FROM person_merges WHERE crm_id = $1 AND tenant_id = $2 AND context = $3', [crmId, scope.tenantId, scope.context]))
      .rows[0];
    return row === undefined ? null : toMerge(row);
  }

  async listReviewAudit(scope: Scope, possibleMatchId: number | null, skip: number, limit: number): Promise<ReviewAuditRow[]> {
    const r =
      possibleMatchId === null
        ? await this.q('SELECT * FROM review_audit WHERE tenant_id = $1 AND context = $2 ORDER BY id DESC LIMIT $3 OFFSET $4', [
            scope.tenantId,
            scope.context,
            limit,
            skip,
          ])
        : await this.q('SELECT * FROM review_audit WHERE tenant_id = $1 AND context = $2 AND possible_match_id = $3 ORDER BY id DESC LIMIT $4 OFFSET $5', [
            scope.tenantId,
            scope.context,
            possibleMatchId,
            limit,
            skip,
          ]);
    return r.rows.map(toAudit);
  }
}

/**
 * Database retrieval on PostgreSQL (match-key-types.ts; tables: pg-migrations.ts version 5):
 * filing a person's keys in its write's transaction, the reads of a lookup, and building the
 * keys of a scope whose people were written before.
 *
 * Filing is one statement: the person's owner row (its hashes and names) is replaced; keys it
 * no longer has are deleted, keys it keeps are re-dated, new ones inserted (so a changed
 * person is "most recently filed" under all its keys, as in the in-memory index), and name
 * counts move by the difference, in a fixed order (no deadlock between two writers).
 */
import type pg from 'pg';
import type { CandidateRow, IdentifierRef, KeyEntry, KeyLookup, KeyLookupResult, MatchKeyReader, MatchKeyStore, PersonKeys } from './match-key-types.js';
import { textOrNull, type Row } from './rows.js';
import type { ContextName, Scope } from './types.js';

/** Runs a statement (prepared) on a transaction's client, or on the pool when null. */
export type PgQuery = (sql: string, values: unknown[], client: pg.PoolClient | null) => Promise<pg.QueryResult<Row>>;

/** Name-count shards: a person's counts go to shard crm_id % NAME_SHARDS. */
const NAME_SHARDS = 16;
const CTX: Readonly<Record<ContextName, number>> = { voterfile: 0, campaign: 1 };
/** Key of the build lock of a scope: this constant and the scope (pg_advisory_lock(int, int)). */
const BUILD_LOCK = 0x6d6b;

/** Name-count deltas of (old names -1, new names +1), summed, non-zero, sorted: $5 first, $6 last. */
const FILE_SQL = `WITH old AS (
    SELECT hashes, first_name, last_name FROM match_key_owners WHERE tenant_id = $1 AND ctx = $2 AND crm_id = $3 FOR UPDATE),
  s AS (SELECT nextval('match_key_filings') AS seq),
  own AS (INSERT INTO match_key_owners (tenant_id, ctx, crm_id, hashes, first_name, last_name, seq)
    SELECT $1, $2, $3, $4::int4[], $5::text, $6::text, s.seq FROM s
    ON CONFLICT (tenant_id, ctx, crm_id) DO UPDATE SET hashes = excluded.hashes, first_name = excluded.first_name,
      last_name = excluded.last_name, seq = excluded.seq),
  gone AS (DELETE FROM match_keys m USING old, unnest(old.hashes) AS h(hash)
    WHERE m.tenant_id = $1 AND m.ctx = $2 AND m.hash = h.hash AND m.crm_id = $3 AND h.hash <> ALL($4::int4[])),
  kept AS (UPDATE match_keys m SET seq = s.seq FROM s, old, unnest(old.hashes) AS h(hash)
    WHERE m.tenant_id = $1 AND m.ctx = $2 AND m.hash = h.hash AND m.crm_id = $3 AND h.hash = ANY($4::int4[])),
  added AS (INSERT INTO match_keys (tenant_id, ctx, hash, crm_id, seq)
    SELECT $1, $2, h.hash, $3, s.seq FROM s, unnest($4::int4[]) AS h(hash)
    WHERE NOT EXISTS (SELECT 1 FROM old WHERE h.hash = ANY(old.hashes))),
  deltas AS (SELECT kind, name, SUM(d) AS d FROM (
      SELECT v.kind, v.name, -1 AS d FROM old, LATERAL (VALUES (0, ''::text), (1, old.first_name), (2, old.last_name)) AS v(kind, name)
      UNION ALL SELECT v.kind, v.name, 1 FROM (VALUES (0, ''::text), (1, $5::text), (2, $6::text)) AS v(kind, name)) x
    WHERE name IS NOT NULL GROUP BY kind, name HAVING SUM(d) <> 0)
  INSERT INTO match_name_counts (tenant_id, ctx, kind, name, shard, n)
  SELECT $1, $2, kind, name, $7, d FROM deltas ORDER BY kind, name
  ON CONFLICT (tenant_id, ctx, kind, name, shard) DO UPDATE SET n = match_name_counts.n + excluded.n`;

/** A person merged into another (review queue): its owner row, keys and name counts go (one statement). */
const UNFILE_SQL = `WITH old AS (
    DELETE FROM match_key_owners WHERE tenant_id = $1 AND ctx = $2 AND crm_id = $3 RETURNING hashes, first_name, last_name),
  gone AS (DELETE FROM match_keys m USING old, unnest(old.hashes) AS h(hash)
    WHERE m.tenant_id = $1 AND m.ctx = $2 AND m.hash = h.hash AND m.crm_id = $3)
  INSERT INTO match_name_counts (tenant_id, ctx, kind, name, shard, n)
  SELECT $1, $2, v.kind, v.name, $4, -1 FROM old, LATERAL (VALUES (0, ''::text), (1, old.first_name), (2, old.last_name)) AS v(kind, name)
  WHERE v.name IS NOT NULL ORDER BY v.kind, v.name
  ON CONFLICT (tenant_id, ctx, kind, name, shard) DO UPDATE SET n = match_name_counts.n + excluded.n`;

const LOOKUP_SQL = `SELECT 0 AS part, h.i AS a, k.crm_id AS b, k.seq AS c
  FROM unnest($3::int4[]) WITH ORDINALITY AS h(hash, i)
  CROSS JOIN LATERAL (SELECT crm_id, seq FROM match_keys m WHERE m.tenant_id = $1 AND m.ctx = $2 AND m.hash = h.hash LIMIT $4) k
  UNION ALL
  SELECT 1, c.kind, SUM(c.n)::bigint, 0 FROM match_name_counts c
  WHERE c.tenant_id = $1 AND c.ctx = $2
    AND ((c.kind = 0 AND c.name = '') OR (c.kind = 1 AND c.name = $5::text) OR (c.kind = 2 AND c.name = $6::text))
  GROUP BY c.kind`;

const COUNT_SQL = `SELECT h.i, (SELECT COUNT(*) FROM match_keys m WHERE m.tenant_id = $1 AND m.ctx = $2 AND m.hash = h.hash) AS n
  FROM unnest($3::int4[]) WITH ORDINALITY AS h(hash, i)`;

const READ_SQL = `SELECT crm_id FROM match_keys WHERE tenant_id = $1 AND ctx = $2 AND hash = $3
  ORDER BY seq DESC, crm_id DESC LIMIT $4`;

/** $2: the people table's `context` (text); $5/$6: identifier types and values (folded). */
const LOAD_SQL = `SELECT p.crm_id, CASE WHEN p.match_fp = $4 THEN p.match_key END AS json, p.contact_mode
  FROM people p WHERE p.tenant_id = $1 AND p.context = $2 AND p.crm_id IN (
    SELECT unnest($3::bigint[])
    UNION SELECT i.crm_id FROM person_identifiers i, unnest($5::text[], $6::text[]) AS u(t, v)
      WHERE i.tenant_id = $1 AND i.context = $2 AND i.type_key = u.t AND i.external_id_key = u.v)
  ORDER BY p.crm_id`;

/** Owners inserted only where none is filed; their keys and counts follow (one statement). */
const FILE_MISSING_SQL = `WITH r AS (
    SELECT * FROM json_to_recordset($3::json) AS r(crm_id bigint, hashes int4[], first_name text, last_name text) ORDER BY crm_id),
  own AS (INSERT INTO match_key_owners (tenant_id, ctx, crm_id, hashes, first_name, last_name, seq)
    SELECT $1, $2, r.crm_id, r.hashes, r.first_name, r.last_name, nextval('match_key_filings') FROM r
    ON CONFLICT (tenant_id, ctx, crm_id) DO NOTHING RETURNING crm_id, hashes, first_name, last_name, seq),
  k AS (INSERT INTO match_keys (tenant_id, ctx, hash, crm_id, seq) SELECT $1, $2, h, own.crm_id, own.seq FROM own, unnest(own.hashes) AS h)
  INSERT INTO match_name_counts (tenant_id, ctx, kind, name, shard, n)
  SELECT $1, $2, v.kind, v.name, (own.crm_id % ${NAME_SHARDS})::smallint AS shard, COUNT(*)
  FROM own, LATERAL (VALUES (0, ''::text), (1, own.first_name), (2, own.last_name)) AS v(kind, name)
  WHERE v.name IS NOT NULL GROUP BY 1, 2, 3, 4, 5 ORDER BY 3, 4, 5
  ON CONFLICT (tenant_id, ctx, kind, name, shard) DO UPDATE SET n = match_name_counts.n + excluded.n`;

/** The store folds identifier types and values this way (identifier-fold.ts). */
type Fold = (text: string) => string;

/** See the module comment. `transaction` runs a function in a transaction of its own. */
export class PgMatchKeys implements MatchKeyStore {
  constructor(
    private readonly q: PgQuery,
    private readonly transaction: <T>(fn: (client: pg.PoolClient) => Promise<T>) => Promise<T>,
    private readonly connect: () => Promise<pg.PoolClient>,
    private readonly fold: Fold,
  ) {}

  /** Files a person's keys in its write's transaction (see the module comment). */
  async file(client: pg.PoolClient, scope: Scope, crmId: number, keys: PersonKeys): Promise<void> {
    await this.q(FILE_SQL, [scope.tenantId, CTX[scope.context], crmId, [...keys.hashes], keys.first, keys.last, crmId % NAME_SHARDS], client);
  }

  /** Unfiles a person merged into another, in the merge's transaction (nothing when none is filed). */
  async unfile(client: pg.PoolClient, scope: Scope, crmId: number): Promise<void> {
    await this.q(UNFILE_SQL, [scope.tenantId, CTX[scope.context], crmId, crmId % NAME_SHARDS], client);
  }

  /** The reads bound to a unit's transaction (ScopeWriter.keys), or to the pool (null). */
  reader(client: pg.PoolClient | null): MatchKeyReader {
    return {
      lookupKeys: (scope, lookup) => this.lookup(scope, lookup, client),
      countKeys: (scope, hashes) => this.count(scope, hashes, client),
      readKey: (scope, hash, limit) => this.read(scope, hash, limit, client),
      loadCandidates: (scope, crmIds, identifiers, fingerprint) => this.load(scope, crmIds, identifiers, fingerprint, client),
    };
  }

  lookupKeys(scope: Scope, lookup: KeyLookup): Promise<KeyLookupResult> {
    return this.lookup(scope, lookup, null);
  }

  countKeys(scope: Scope, hashes: readonly number[]): Promise<number[]> {
    return this.count(scope, hashes, null);
  }

  readKey(scope: Scope, hash: number, limit: number): Promise<number[]> {
    return this.read(scope, hash, limit, null);
  }

  loadCandidates(scope: Scope, crmIds: readonly number[], identifiers: readonly IdentifierRef[], fingerprint: number): Promise<CandidateRow[]> {
    return this.load(scope, crmIds, identifiers, fingerprint, null);
  }

  private async lookup(scope: Scope, lookup: KeyLookup, client: pg.PoolClient | null): Promise<KeyLookupResult> {
    const entries: KeyEntry[][] = lookup.hashes.map(() => []);
    const r = await this.q(LOOKUP_SQL, [scope.tenantId, CTX[scope.context], [...lookup.hashes], lookup.perKey, lookup.first, lookup.last], client);
    const counts = [0, 0, 0];
    for (const row of r.rows) {
      const a = Number(row['a']);
      if (Number(row['part']) === 0) entries[a - 1]?.push({ crmId: Number(row['b']), seq: Number(row['c']) });
      else counts[a] = Number(row['b']);
    }
    return {
      entries,
      total: counts[0] as number,
      firstCount: lookup.first === null ? 0 : (counts[1] as number),
      lastCount: lookup.last === null ? 0 : (counts[2] as number),
    };
  }

  private async count(scope: Scope, hashes: readonly number[], client: pg.PoolClient | null): Promise<number[]> {
    const out = hashes.map(() => 0);
    const r = await this.q(COUNT_SQL, [scope.tenantId, CTX[scope.context], [...hashes]], client);
    for (const row of r.rows) out[Number(row['i']) - 1] = Number(row['n']);
    return out;
  }

  private async read(scope: Scope, hash: number, limit: number, client: pg.PoolClient | null): Promise<number[]> {
    const r = await this.q(READ_SQL, [scope.tenantId, CTX[scope.context], hash, limit], client);
    return r.rows.map((row) => Number(row['crm_id']));
  }

  private async load(
    scope: Scope,
    crmIds: readonly number[],
    identifiers: readonly IdentifierRef[],
    fingerprint: number,
    client: pg.PoolClient | null,
  ): Promise<CandidateRow[]> {
    if (crmIds.length === 0 && identifiers.length === 0) return [];
    const r = await this.q(
      LOAD_SQL,
      [scope.tenantId, scope.context, [...crmIds], fingerprint, identifiers.map((i) => this.fold(i.type)), identifiers.map((i) => this.fold(i.value))],
      client,
    );
    return r.rows.map((row) => ({
      crmId: Number(row['crm_id']),
      json: textOrNull(row['json']),
      organization: row['contact_mode'] === 'Organization',
    }));
  }

  async keysFiledBy(scope: Scope): Promise<number | null> {
    const r = await this.q('SELECT fingerprint FROM match_key_scopes WHERE tenant_id = $1 AND ctx = $2', [scope.tenantId, CTX[scope.context]], null);
    const fp = r.rows[0]?.['fingerprint'];
    return fp == null ? null : Number(fp);
  }

  async withBuildLock<T>(scope: Scope, fn: () => Promise<T>): Promise<T> {
    const client = await this.connect();
    const key = BUILD_LOCK * 4 + CTX[scope.context];
    let broken = false;
    try {
      await client.query('SELECT pg_advisory_lock($1, $2)', [key, scope.tenantId]);
      try {
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1, $2)', [key, scope.tenantId]).catch(() => {
          broken = true;
        });
      }
    } finally {
      client.release(broken);
    }
  }

  async clearKeys(scope: Scope): Promise<void> {
    const args = [scope.tenantId, CTX[scope.context]];
    await this.transaction(async (client) => {
      await this.q(
        'INSERT INTO match_key_scopes (tenant_id, ctx, fingerprint) VALUES ($1, $2, NULL) ON CONFLICT (tenant_id, ctx) DO UPDATE SET fingerprint = NULL',
        args,
        client,
      );
      await this.q('DELETE FROM match_keys WHERE tenant_id = $1 AND ctx = $2', args, client);
      await this.q('DELETE FROM match_key_owners WHERE tenant_id = $1 AND ctx = $2', args, client);
      await this.q('DELETE FROM match_name_counts WHERE tenant_id = $1 AND ctx = $2', args, client);
    });
  }

  async fileMissing(scope: Scope, rows: readonly { readonly crmId: number; readonly keys: PersonKeys }[]): Promise<void> {
    if (rows.length === 0) return;
    const json = JSON.stringify(rows.map((r) => ({ crm_id: r.crmId, hashes: r.keys.hashes, first_name: r.keys.first, last_name: r.keys.last })));
    await this.q(FILE_MISSING_SQL, [scope.tenantId, CTX[scope.context], json], null);
  }

  async keysComplete(scope: Scope, fingerprint: number): Promise<void> {
    await this.q(
      `INSERT INTO match_key_scopes (tenant_id, ctx, fingerprint) VALUES ($1, $2, $3)
      ON CONFLICT (tenant_id, ctx) DO UPDATE SET fingerprint = excluded.fingerprint`,
      [scope.tenantId, CTX[scope.context], fingerprint],
      null,
    );
  }
}

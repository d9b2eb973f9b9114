/**
 * Versioned schema of the PostgreSQL store: the SQLite layout (migrations.ts) in PostgreSQL
 * types, plus what several server processes on one database need. Each migration runs once,
 * in its own transaction, under an advisory lock (processes starting together migrate once),
 * and is recorded in `schema_migrations`. Never edit a released migration: append a new one.
 *
 * Differences from SQLite, and why:
 * - `people.change_xid` (migration 7): the id of the transaction that last wrote the row
 *   (`txid_current()`); `person_merges.change_xid` and `possible_matches.decided_xid` likewise
 *   for a merge and a `different` decision. A process keeps its in-memory index in step by
 *   reading the rows written by transactions its last read's snapshot did not see (ids from
 *   the snapshot's `xmax` on, and those it listed as running; `matchbook_people_changes`), so
 *   writers of different people need no common lock and may commit in any order; it is also
 *   how a late starter or a reconnect catches up. `people.change_seq` (the `people_changes`
 *   sequence, also taken by merges and decisions) is the version: a later write of one person
 *   has a higher one (pg-store.ts).
 * - `admin_changes`: a sequence bumped by a statement trigger on tenants, keys and settings;
 *   its `last_value` is the store's change counter (the key and settings caches of every
 *   process notice a revoke or a settings change within 250 ms).
 * - Phone and address ids come from real sequences; ids, crm ids and counts are BIGINT.
 * - Times stay TEXT (ISO 8601 strings as the contract writes them) and collections stay JSON
 *   text, read and written whole, as in SQLite.
 */
import { columnOf, type Migration } from './migrations.js';
import { PERSON_SCALARS, INTEGER_SCALARS } from './types.js';

const SCALAR_COLUMNS = PERSON_SCALARS.map((f) => `${columnOf(f)} ${INTEGER_SCALARS.has(f) ? 'BIGINT' : 'TEXT'}`).join(',\n        ');

export const PG_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'tenants, settings, keys, people with change log, identifiers, usage, canvass responses',
    sql: `
      CREATE SEQUENCE admin_changes;
      CREATE FUNCTION bump_admin_changes() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM nextval('admin_changes'); RETURN NULL; END $$;
      CREATE TABLE tenants (
        id BIGSERIAL PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      );
      CREATE TABLE tenant_settings (
        tenant_id BIGINT NOT NULL REFERENCES tenants(id),
        context TEXT NOT NULL CHECK (context IN ('voterfile', 'campaign')),
        version BIGINT NOT NULL,
        json TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, context)
      );
      CREATE TABLE api_keys (
        id BIGSERIAL PRIMARY KEY,
        tenant_id BIGINT NOT NULL REFERENCES tenants(id),
        hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        tier TEXT NOT NULL,
        contexts TEXT NOT NULL,
        default_context TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE TRIGGER tenants_changed AFTER INSERT OR UPDATE OR DELETE ON tenants
        FOR EACH STATEMENT EXECUTE FUNCTION bump_admin_changes();
      CREATE TRIGGER settings_changed AFTER INSERT OR UPDATE OR DELETE ON tenant_settings
        FOR EACH STATEMENT EXECUTE FUNCTION bump_admin_changes();
      CREATE TRIGGER keys_changed AFTER INSERT OR UPDATE OR DELETE ON api_keys
        FOR EACH STATEMENT EXECUTE FUNCTION bump_admin_changes();
      CREATE SEQUENCE people_changes;
      CREATE SEQUENCE phone_ids;
      CREATE SEQUENCE address_ids;
      CREATE TABLE people (
        crm_id BIGSERIAL PRIMARY KEY,
        tenant_id BIGINT NOT NULL REFERENCES tenants(id),
        context TEXT NOT NULL CHECK (context IN ('voterfile', 'campaign')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        ${SCALAR_COLUMNS},
        emails TEXT NOT NULL DEFAULT '[]',
        phones TEXT NOT NULL DEFAULT '[]',
        addresses TEXT NOT NULL DEFAULT '[]',
        identifiers TEXT NOT NULL DEFAULT '[]',
        custom_field_values TEXT NOT NULL DEFAULT '[]',
        self_reported TEXT NOT NULL DEFAULT '{}',
        match_key TEXT,
        match_fp BIGINT,
        change_seq BIGINT NOT NULL
      );
      CREATE INDEX people_scope ON people (tenant_id, context, crm_id);
      CREATE INDEX people_changes_scope ON people (tenant_id, context, change_seq);
      CREATE TABLE person_identifiers (
        tenant_id BIGINT NOT NULL,
        context TEXT NOT NULL,
        type_key TEXT NOT NULL,
        external_id_key TEXT NOT NULL,
        crm_id BIGINT NOT NULL REFERENCES people(crm_id),
        PRIMARY KEY (tenant_id, context, type_key, external_id_key, crm_id)
      );
      CREATE INDEX person_identifiers_person ON person_identifiers (crm_id);
      CREATE TABLE api_key_usage (
        key_id BIGINT NOT NULL REFERENCES api_keys(id),
        month TEXT NOT NULL,
        count BIGINT NOT NULL,
        PRIMARY KEY (key_id, month)
      );
      CREATE TABLE canvass_responses (
        id BIGSERIAL PRIMARY KEY,
        tenant_id BIGINT NOT NULL,
        context TEXT NOT NULL CHECK (context IN ('voterfile', 'campaign')),
        crm_id BIGINT NOT NULL REFERENCES people(crm_id),
        canvassed_at TEXT NOT NULL,
        created_at TEXT NOT NULL,
        json TEXT NOT NULL
      );
      CREATE INDEX canvass_responses_person ON canvass_responses (tenant_id, context, crm_id, id);
    `,
  },
  {
    version: 2,
    name: 'bulk import: uploaded files (chunked), jobs with lease, per-row marks; people.suppressions',
    // As SQLite migrations 5 and 6 (see there): files live in the database so that every
    // process can read them; owner/lease_until name the process working on a job and until
    // when (epoch ms); bulk_import_rows is the resume checkpoint, written with the row's effects.
    sql: `
      CREATE TABLE bulk_import_files (
        id BIGSERIAL PRIMARY KEY,
        tenant_id BIGINT NOT NULL REFERENCES tenants(id),
        token TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        size BIGINT NOT NULL DEFAULT 0,
        complete BOOLEAN NOT NULL DEFAULT FALSE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      );
      CREATE TABLE bulk_import_file_chunks (
        file_id BIGINT NOT NULL REFERENCES bulk_import_files(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        data BYTEA NOT NULL,
        PRIMARY KEY (file_id, seq)
      );
      CREATE TABLE bulk_import_jobs (
        id BIGSERIAL PRIMARY KEY,
        tenant_id BIGINT NOT NULL REFERENCES tenants(id),
        context TEXT NOT NULL CHECK (context IN ('voterfile', 'campaign')),
        status TEXT NOT NULL,
        request TEXT NOT NULL,
        result_token TEXT NOT NULL,
        file_id BIGINT REFERENCES bulk_import_files(id) ON DELETE SET NULL,
        rows_total BIGINT,
        rows_done BIGINT NOT NULL DEFAULT 0,
        rows_failed BIGINT NOT NULL DEFAULT 0,
        owner TEXT,
        lease_until BIGINT,
        attempts INTEGER NOT NULL DEFAULT 0,
        errors TEXT NOT NULL DEFAULT '[]',
        result_parts TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL,
        finished_at TEXT,
        expires_at TEXT
      );
      CREATE INDEX bulk_import_jobs_open ON bulk_import_jobs (status, id);
      CREATE TABLE bulk_import_rows (
        job_id BIGINT NOT NULL REFERENCES bulk_import_jobs(id) ON DELETE CASCADE,
        row_no BIGINT NOT NULL,
        steps_done INTEGER NOT NULL,
        crm_id BIGINT,
        outcomes TEXT NOT NULL,
        included TEXT NOT NULL,
        PRIMARY KEY (job_id, row_no)
      );
      ALTER TABLE people ADD COLUMN suppressions TEXT NOT NULL DEFAULT '[]';
    `,
  },
  {
    version: 3,
    name: 'bulk_import_files.context: uploads and staged files belong to a tenant AND a context, like people',
    // As SQLite migration 7 (see there).
    sql: `
      ALTER TABLE bulk_import_files ADD COLUMN context TEXT CHECK (context IN ('voterfile', 'campaign'));
      UPDATE bulk_import_files f SET context = (SELECT j.context FROM bulk_import_jobs j
        WHERE j.tenant_id = f.tenant_id
          AND (j.file_id = f.id OR strpos(j.request, '"token":"' || f.token || '"') > 0)
        ORDER BY j.id LIMIT 1);
      CREATE INDEX bulk_import_files_scope ON bulk_import_files (tenant_id, context, token);
    `,
  },
  {
    version: 4,
    name: "tenant_models: each context's trained matching model, every version kept",
    // As SQLite migration 8 (see there); a change bumps admin_changes like settings, so every
    // process's scopes pick the model up within 250 ms.
    sql: `
      CREATE TABLE tenant_models (
        tenant_id BIGINT NOT NULL REFERENCES tenants(id),
        context TEXT NOT NULL CHECK (context IN ('voterfile', 'campaign')),
        version INTEGER NOT NULL,
        json TEXT,
        created_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, context, version)
      );
      CREATE TRIGGER models_changed AFTER INSERT OR UPDATE OR DELETE ON tenant_models
        FOR EACH STATEMENT EXECUTE FUNCTION bump_admin_changes();
    `,
  },
  {
    version: 5,
    name: 'database retrieval: blocking keys in a hash-partitioned table, filed with the person (match-key-types.ts)',
    // match_keys: one row per (person, blocking key hash); the primary key serves both a
    // lookup (the first rows under a hash) and a person's refiling (hash, crm_id); `seq` is
    // the filing order (most recently filed first, as the in-memory index reads a common key).
    // Hash-partitioned on the key hash, so each partition and its index stay a 16th of the
    // table. match_key_owners: what is filed for a person (to unfile it when it changes).
    // match_name_counts: people per compact first/last name and in all (kind 0), for term
    // frequencies, split in 16 shards by crm_id so concurrent writers rarely share a row.
    sql: `
      CREATE SEQUENCE match_key_filings;
      CREATE TABLE match_keys (
        tenant_id INTEGER NOT NULL,
        ctx SMALLINT NOT NULL,
        hash INTEGER NOT NULL,
        crm_id BIGINT NOT NULL,
        seq BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, ctx, hash, crm_id) INCLUDE (seq)
      ) PARTITION BY HASH (hash);
      ${Array.from({ length: 16 }, (_, i) => `CREATE TABLE match_keys_${i} PARTITION OF match_keys FOR VALUES WITH (MODULUS 16, REMAINDER ${i});`).join('\n      ')}
      CREATE TABLE match_key_owners (
        tenant_id INTEGER NOT NULL,
        ctx SMALLINT NOT NULL,
        crm_id BIGINT NOT NULL,
        hashes INTEGER[] NOT NULL,
        first_name TEXT,
        last_name TEXT,
        seq BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, ctx, crm_id)
      ) PARTITION BY HASH (crm_id);
      ${Array.from({ length: 16 }, (_, i) => `CREATE TABLE match_key_owners_${i} PARTITION OF match_key_owners FOR VALUES WITH (MODULUS 16, REMAINDER ${i});`).join('\n      ')}
      CREATE TABLE match_name_counts (
        tenant_id INTEGER NOT NULL,
        ctx SMALLINT NOT NULL,
        kind SMALLINT NOT NULL,
        name TEXT NOT NULL,
        shard SMALLINT NOT NULL,
        n BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, ctx, kind, name, shard)
      );
      CREATE TABLE match_key_scopes (
        tenant_id INTEGER NOT NULL,
        ctx SMALLINT NOT NULL,
        fingerprint BIGINT,
        PRIMARY KEY (tenant_id, ctx)
      );
    `,
  },
  {
    version: 6,
    name: 'review queue of Possible matches: pairs, merged crmIds, audit log of decisions',
    // As SQLite migration 9 (see there), plus change numbers: a merge (person_merges.change_seq)
    // and a different decision (possible_matches.decided_seq) take the next people_changes
    // value under the scope's lock, so the other processes' catch-up reads them with the
    // people changes (pg-store.ts CHANGES_SQL) and drops the merged person from their index.
    sql: `
      CREATE TABLE possible_matches (
        id BIGSERIAL PRIMARY KEY,
        tenant_id BIGINT NOT NULL REFERENCES tenants(id),
        context TEXT NOT NULL CHECK (context IN ('voterfile', 'campaign')),
        crm_id BIGINT NOT NULL,
        candidate_crm_id BIGINT NOT NULL,
        score DOUBLE PRECISION NOT NULL,
        explanation TEXT NOT NULL,
        created_at TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'same', 'different')),
        decided_at TEXT,
        decided_by_key_id BIGINT,
        decided_seq BIGINT
      );
      CREATE INDEX possible_matches_scope ON possible_matches (tenant_id, context, id);
      CREATE INDEX possible_matches_status ON possible_matches (tenant_id, context, status, id);
      CREATE INDEX possible_matches_changes ON possible_matches (tenant_id, context, decided_seq);
      CREATE TABLE person_merges (
        crm_id BIGINT PRIMARY KEY,
        tenant_id BIGINT NOT NULL,
        context TEXT NOT NULL CHECK (context IN ('voterfile', 'campaign')),
        survivor_crm_id BIGINT NOT NULL,
        merged_at TEXT NOT NULL,
        change_seq BIGINT NOT NULL
      );
      CREATE INDEX person_merges_survivor ON person_merges (tenant_id, context, survivor_crm_id);
      CREATE INDEX person_merges_changes ON person_merges (tenant_id, context, change_seq);
      CREATE TABLE review_audit (
        id BIGSERIAL PRIMARY KEY,
        tenant_id BIGINT NOT NULL,
        context TEXT NOT NULL CHECK (context IN ('voterfile', 'campaign')),
        possible_match_id BIGINT NOT NULL REFERENCES possible_matches(id),
        action TEXT NOT NULL,
        key_id BIGINT NOT NULL,
        actor TEXT NOT NULL,
        at TEXT NOT NULL,
        detail TEXT NOT NULL
      );
      CREATE INDEX review_audit_scope ON review_audit (tenant_id, context, possible_match_id, id);
    `,
  },
  {
    version: 7,
    name: 'changes followed by transaction snapshot (change_xid), so writes of different people run in parallel',
    // The xid columns are NULL for rows written before (every snapshot has seen them), which
    // also keeps their statistics about the rows written since. Each index serves both parts
    // of a catch-up: the writes of the transactions running at the last snapshot (= ANY), and
    // those after a key in (xid, crm_id) order (a page). The function reads the three tables
    // with one snapshot, people changes, merges and different decisions in one order (xid,
    // crm_id, kind, id: the page key). It runs with plan_cache_mode = force_generic_plan, so
    // its plan is made once per session: a custom plan (what the planner keeps choosing for
    // such a statement, since an unknown lower bound looks like a third of the table) costs
    // more to make than to run.
    sql: `
      ALTER TABLE people ADD COLUMN change_xid BIGINT;
      CREATE INDEX people_changed_by ON people (tenant_id, context, change_xid, crm_id);
      DROP INDEX people_changes_scope;
      ALTER TABLE person_merges ADD COLUMN change_xid BIGINT;
      CREATE INDEX person_merges_changed_by ON person_merges (tenant_id, context, change_xid, crm_id);
      DROP INDEX person_merges_changes;
      ALTER TABLE possible_matches ADD COLUMN decided_xid BIGINT;
      CREATE INDEX possible_matches_decided_by ON possible_matches (tenant_id, context, decided_xid, crm_id, id);
      DROP INDEX possible_matches_changes;
      CREATE FUNCTION matchbook_people_changes(p_tenant BIGINT, p_context TEXT, p_xip BIGINT[],
          p_xid BIGINT, p_crm BIGINT, p_kind INTEGER, p_id BIGINT, p_limit INTEGER)
        RETURNS TABLE (snap TEXT, crm_id BIGINT, change_xid BIGINT, change_seq BIGINT, match_key TEXT, match_fp BIGINT,
          contact_mode TEXT, merged_into BIGINT, different_from BIGINT, kind INTEGER, id BIGINT)
        LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $fn$
      BEGIN
        RETURN QUERY
          SELECT txid_current_snapshot()::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::text, NULL::bigint, NULL::text,
            NULL::bigint, NULL::bigint, NULL::integer, NULL::bigint
          UNION ALL
          SELECT NULL, p.crm_id, p.change_xid, p.change_seq, p.match_key, p.match_fp, p.contact_mode, NULL, NULL, 0, 0::bigint
          FROM people p WHERE p.tenant_id = p_tenant AND p.context = p_context AND p.change_xid = ANY(p_xip)
          UNION ALL
          SELECT NULL, m.crm_id, m.change_xid, m.change_seq, NULL, NULL, NULL, m.survivor_crm_id, NULL, 1, 0::bigint
          FROM person_merges m WHERE m.tenant_id = p_tenant AND m.context = p_context AND m.change_xid = ANY(p_xip)
          UNION ALL
          SELECT NULL, d.crm_id, d.decided_xid, d.decided_seq, NULL, NULL, NULL, NULL, d.candidate_crm_id, 2, d.id
          FROM possible_matches d WHERE d.tenant_id = p_tenant AND d.context = p_context AND d.decided_xid = ANY(p_xip)
          UNION ALL
          (SELECT * FROM (
            (SELECT NULL::text, p.crm_id, p.change_xid, p.change_seq, p.match_key, p.match_fp, p.contact_mode, NULL::bigint, NULL::bigint, 0, 0::bigint
              FROM people p WHERE p.tenant_id = p_tenant AND p.context = p_context AND (p.change_xid, p.crm_id) >= (p_xid, p_crm)
                AND (p.change_xid, p.crm_id, 0, 0::bigint) > (p_xid, p_crm, p_kind, p_id)
              ORDER BY p.change_xid, p.crm_id LIMIT p_limit)
            UNION ALL
            (SELECT NULL::text, m.crm_id, m.change_xid, m.change_seq, NULL::text, NULL::bigint, NULL::text, m.survivor_crm_id, NULL::bigint, 1, 0::bigint
              FROM person_merges m WHERE m.tenant_id = p_tenant AND m.context = p_context AND (m.change_xid, m.crm_id) >= (p_xid, p_crm)
                AND (m.change_xid, m.crm_id, 1, 0::bigint) > (p_xid, p_crm, p_kind, p_id)
              ORDER BY m.change_xid, m.crm_id LIMIT p_limit)
            UNION ALL
            (SELECT NULL::text, d.crm_id, d.decided_xid, d.decided_seq, NULL::text, NULL::bigint, NULL::text, NULL::bigint, d.candidate_crm_id, 2, d.id
              FROM possible_matches d WHERE d.tenant_id = p_tenant AND d.context = p_context AND (d.decided_xid, d.crm_id) >= (p_xid, p_crm)
                AND (d.decided_xid, d.crm_id, 2, d.id) > (p_xid, p_crm, p_kind, p_id)
              ORDER BY d.decided_xid, d.crm_id, d.id LIMIT p_limit)
          ) r ORDER BY 3, 2, 10, 11 LIMIT p_limit);
      END
      $fn$;
    `,
  },
];

/**
 * Versioned schema of the SQLite store. Each migration runs once, in its own transaction, and
 * is recorded in `schema_migrations`. Never edit a released migration: append a new one.
 *
 * Layout decisions:
 * - `people` keeps the contract's scalar fields as columns (readable with the sqlite3 shell,
 *   indexable later) and each collection (emails, phones, addresses, identifiers, custom field
 *   values, self-reported ids) as one JSON text column. A person is always read and written
 *   whole (GET returns it whole, findOrCreate merges it whole, the index load reads every
 *   person), so one row per person means one read per GET and one keyset scan to load the
 *   engine index, with no joins or N+1 queries; PostgreSQL's jsonb maps onto it directly.
 *   Values looked up by value in SQL get their own indexed table: identifiers (GET
 *   /people/{type}:{id}). Emails, phones and addresses are looked up through the in-memory
 *   engine index, so they need no SQL index.
 * - `crm_id` is one INTEGER PRIMARY KEY AUTOINCREMENT across tenants (never reused, even after
 *   a delete); isolation comes from `tenant_id AND context` in every WHERE.
 * - `sequences` hands out phone and address ids in the write's own transaction.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Column name of a camelCase scalar: "dateOfBirth" -> "date_of_birth". */
export function columnOf(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'tenants, settings, keys, people, identifiers, sequences',
    sql: `
      CREATE TABLE tenants (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      );
      CREATE TABLE tenant_settings (
        tenant_id INTEGER NOT NULL REFERENCES tenants(id),
        context TEXT NOT NULL CHECK (context IN ('voterfile', 'campaign')),
        version INTEGER NOT NULL,
        json TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, context)
      );
      CREATE TABLE api_keys (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant_id INTEGER NOT NULL REFERENCES tenants(id),
        hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        tier TEXT NOT NULL,
        contexts TEXT NOT NULL,
        default_context TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE TABLE people (
        crm_id INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant_id INTEGER NOT NULL REFERENCES tenants(id),
        context TEXT NOT NULL CHECK (context IN ('voterfile', 'campaign')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        first_name TEXT, middle_name TEXT, last_name TEXT, suffix TEXT, title TEXT,
        salutation TEXT, envelope_name TEXT, nickname TEXT, website TEXT, party TEXT,
        contact_method_preference_code TEXT, employer TEXT, occupation TEXT, job_title TEXT,
        sex TEXT, date_of_birth TEXT, year_of_birth INTEGER, collected_location_id INTEGER,
        election_type TEXT, cycle TEXT, organization_contact_common_name TEXT,
        organization_contact_official_name TEXT, contact_mode TEXT, pronoun_id INTEGER,
        source_file_title TEXT, source_file_first_name TEXT, source_file_middle_name TEXT,
        source_file_last_name TEXT, source_file_suffix TEXT,
        emails TEXT NOT NULL DEFAULT '[]',
        phones TEXT NOT NULL DEFAULT '[]',
        addresses TEXT NOT NULL DEFAULT '[]',
        identifiers TEXT NOT NULL DEFAULT '[]',
        custom_field_values TEXT NOT NULL DEFAULT '[]',
        self_reported TEXT NOT NULL DEFAULT '{}'
      );
      CREATE INDEX people_scope ON people (tenant_id, context, crm_id);
      CREATE TABLE person_identifiers (
        tenant_id INTEGER NOT NULL,
        context TEXT NOT NULL,
        type_key TEXT NOT NULL,
        external_id_key TEXT NOT NULL,
        crm_id INTEGER NOT NULL REFERENCES people(crm_id),
        PRIMARY KEY (tenant_id, context, type_key, external_id_key, crm_id)
      ) WITHOUT ROWID;
      CREATE INDEX person_identifiers_person ON person_identifiers (crm_id);
      CREATE TABLE sequences (
        name TEXT PRIMARY KEY,
        value INTEGER NOT NULL
      );
      INSERT INTO sequences (name, value) VALUES ('phone', 0), ('address', 0);
    `,
  },
  {
    version: 2,
    name: 'people.match_key: the engine-normalized form, so the index loads without re-normalizing',
    // match_key is the JSON of the engine's NormalizedContact for the row; match_fp the
    // fingerprint of the normalizer (engine version + default country) that produced it.
    // A row whose match_fp differs from the running normalizer's is re-normalized at load.
    sql: `
      ALTER TABLE people ADD COLUMN match_key TEXT;
      ALTER TABLE people ADD COLUMN match_fp INTEGER;
    `,
  },
  {
    version: 3,
    name: 'api_key_usage: requests per key and month (monthly quotas survive restarts)',
    // month is "YYYY-MM" in UTC; count is only ever increased (the server adds its batched
    // counts, so several processes may add to the same row).
    sql: `
      CREATE TABLE api_key_usage (
        key_id INTEGER NOT NULL REFERENCES api_keys(id),
        month TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (key_id, month)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 4,
    name: 'canvass_responses: canvass history per person',
    // json is the normalized canvass response (src/crm/canvass.ts); canvassed_at the
    // dateCanvassed in UTC ISO 8601. Read back newest first per person.
    sql: `
      CREATE TABLE canvass_responses (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant_id INTEGER NOT NULL,
        context TEXT NOT NULL CHECK (context IN ('voterfile', 'campaign')),
        crm_id INTEGER NOT NULL REFERENCES people(crm_id),
        canvassed_at TEXT NOT NULL,
        created_at TEXT NOT NULL,
        json TEXT NOT NULL
      );
      CREATE INDEX canvass_responses_person ON canvass_responses (tenant_id, context, crm_id, id);
    `,
  },
  {
    version: 5,
    name: 'bulk import: uploaded files (chunked blobs), jobs with lease, per-row marks',
    // Files live in the database so that every server process sharing it can read them.
    // A file row is visible (complete = 1) only once all its chunks are stored.
    // bulk_import_jobs.owner/lease_until: the process working on the job and until when
    // (epoch ms); another process takes over a job whose lease ran out.
    // bulk_import_rows: one row per data row, written in the same transaction as the row's
    // effects (the resume checkpoint; see src/store/import-types.ts).
    sql: `
      CREATE TABLE bulk_import_files (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant_id INTEGER NOT NULL REFERENCES tenants(id),
        token TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        size INTEGER NOT NULL DEFAULT 0,
        complete INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      );
      CREATE TABLE bulk_import_file_chunks (
        file_id INTEGER NOT NULL REFERENCES bulk_import_files(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (file_id, seq)
      ) WITHOUT ROWID;
      CREATE TABLE bulk_import_jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant_id INTEGER NOT NULL REFERENCES tenants(id),
        context TEXT NOT NULL CHECK (context IN ('voterfile', 'campaign')),
        status TEXT NOT NULL,
        request TEXT NOT NULL,
        result_token TEXT NOT NULL,
        file_id INTEGER REFERENCES bulk_import_files(id) ON DELETE SET NULL,
        rows_total INTEGER,
        rows_done INTEGER NOT NULL DEFAULT 0,
        rows_failed INTEGER NOT NULL DEFAULT 0,
        owner TEXT,
        lease_until INTEGER,
        attempts INTEGER NOT NULL DEFAULT 0,
        errors TEXT NOT NULL DEFAULT '[]',
        result_parts TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL,
        finished_at TEXT,
        expires_at TEXT
      );
      CREATE INDEX bulk_import_jobs_open ON bulk_import_jobs (status, id);
      CREATE TABLE bulk_import_rows (
        job_id INTEGER NOT NULL REFERENCES bulk_import_jobs(id) ON DELETE CASCADE,
        row_no INTEGER NOT NULL,
        steps_done INTEGER NOT NULL,
        crm_id INTEGER,
        outcomes TEXT NOT NULL,
        included TEXT NOT NULL,
        PRIMARY KEY (job_id, row_no)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 6,
    name: 'people.suppressions: suppressions per person (bulk import mapping type Suppressions)',
    // JSON array of {suppressionCode, suppressionName, dateApplied}, one per code.
    sql: `ALTER TABLE people ADD COLUMN suppressions TEXT NOT NULL DEFAULT '[]';`,
  },
  {
    version: 7,
    name: 'bulk_import_files.context: uploads and staged files belong to a tenant AND a context, like people',
    // A key of one context must not start a job from another context's upload (issue 15).
    // Existing files take the context of the job that staged or names them; an upload no job
    // names stays NULL, which no context can use (it expires within 24 hours: upload again).
    sql: `
      ALTER TABLE bulk_import_files ADD COLUMN context TEXT CHECK (context IN ('voterfile', 'campaign'));
      UPDATE bulk_import_files SET context = (SELECT j.context FROM bulk_import_jobs j
        WHERE j.tenant_id = bulk_import_files.tenant_id
          AND (j.file_id = bulk_import_files.id OR instr(j.request, '"token":"' || bulk_import_files.token || '"') > 0)
        ORDER BY j.id LIMIT 1);
      CREATE INDEX bulk_import_files_scope ON bulk_import_files (tenant_id, context, token);
    `,
  },
  {
    version: 8,
    name: "tenant_models: each context's trained matching model, every version kept",
    // One row per version (1, 2, ... per tenant and context); the highest is in force. json is
    // the engine's model document (src/engine/model-json.ts), or NULL for a return to the
    // shipped model (`matchbook tenants train NAME --reset`). created_at: the Crm's clock.
    sql: `
      CREATE TABLE tenant_models (
        tenant_id INTEGER NOT NULL REFERENCES tenants(id),
        context TEXT NOT NULL CHECK (context IN ('voterfile', 'campaign')),
        version INTEGER NOT NULL,
        json TEXT,
        created_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, context, version)
      );
    `,
  },
  {
    version: 9,
    name: 'review queue of Possible matches: pairs, merged crmIds, audit log of decisions',
    // possible_matches: the person findOrCreate created (crm_id) next to a Possible candidate,
    // with the score and the engine's explanation (JSON); status open, same (merged) or
    // different. person_merges: a merged-away crmId and the person that survived it (earlier
    // merges are re-pointed, so one lookup answers). review_audit: who decided what, when.
    // No foreign keys to people: a pair outlives the merge of its people.
    sql: `
      CREATE TABLE possible_matches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant_id INTEGER NOT NULL REFERENCES tenants(id),
        context TEXT NOT NULL CHECK (context IN ('voterfile', 'campaign')),
        crm_id INTEGER NOT NULL,
        candidate_crm_id INTEGER NOT NULL,
        score REAL NOT NULL,
        explanation TEXT NOT NULL,
        created_at TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'same', 'different')),
        decided_at TEXT,
        decided_by_key_id INTEGER
      );
      CREATE INDEX possible_matches_scope ON possible_matches (tenant_id, context, id);
      CREATE INDEX possible_matches_status ON possible_matches (tenant_id, context, status, id);
      CREATE TABLE person_merges (
        crm_id INTEGER PRIMARY KEY,
        tenant_id INTEGER NOT NULL,
        context TEXT NOT NULL CHECK (context IN ('voterfile', 'campaign')),
        survivor_crm_id INTEGER NOT NULL,
        merged_at TEXT NOT NULL
      );
      CREATE INDEX person_merges_survivor ON person_merges (tenant_id, context, survivor_crm_id);
      CREATE TABLE review_audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant_id INTEGER NOT NULL,
        context TEXT NOT NULL CHECK (context IN ('voterfile', 'campaign')),
        possible_match_id INTEGER NOT NULL REFERENCES possible_matches(id),
        action TEXT NOT NULL,
        key_id INTEGER NOT NULL,
        actor TEXT NOT NULL,
        at TEXT NOT NULL,
        detail TEXT NOT NULL
      );
      CREATE INDEX review_audit_scope ON review_audit (tenant_id, context, possible_match_id, id);
    `,
  },
];

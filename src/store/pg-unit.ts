/**
 * The SQL of a PostgreSQL people unit and of following a scope's changes (pg-store.ts runs
 * them), and the small state a store keeps for them: the lock wait figures and a pool of
 * phone and address ids.
 *
 * A unit's first round trip is one simple-protocol query of several statements (one write to
 * the socket, one answer): BEGIN; the advisory locks of its keys, in ascending order, in one
 * statement (which also says how long it waited: `clock_timestamp()` after the locks minus
 * `statement_timestamp()`); then, each a statement of its own so that its snapshot is taken
 * once the locks are held, the scope's changes the caller has not seen and the row of the
 * person it will likely update (`FOR UPDATE`); and more ids when the pool runs low (a crmId
 * when the unit will likely create). Only integers and a fixed context name are spliced into
 * that text. The catch-up's changes are read by a function whose plan is cached (see
 * {@link CHANGES_SQL}), the same statement prepared outside units.
 */
import type { ChangeCursor, ChangeKey, ContextName, LockKey, LockWaitStats, PeopleChanges, PersonChange, Scope } from './types.js';
import { textOrNull, type Row } from './rows.js';

/**
 * The changes of a scope ($1 tenant, $2 context): people written, people merged into another
 * and pairs decided different, by the transactions $3 (those running at the reader's last
 * snapshot), and those after the key ($4 xid, $5 crmId, $6 kind, $7 id) in that order, at most
 * $8 of the latter; through the function of pg-migrations.ts version 7 (its plan is cached and
 * generic: see there). The first row carries only the statement's snapshot (`snap`).
 */
export const CHANGES_SQL = 'SELECT * FROM matchbook_people_changes($1, $2, $3::bigint[], $4, $5, $6, $7, $8)';

/** Where the first page after the snapshot `after` starts: every write from its `xmax` on. */
function firstKey(after: ChangeCursor): ChangeKey {
  return { xid: after.xmax, crmId: 0, kind: 0, id: 0 };
}

/**
 * The values of {@link CHANGES_SQL}: the first page reads the writes of the transactions
 * running at the snapshot `after` and those from its `xmax` on; a next page only the latter,
 * after its key.
 */
export function changesValues(scope: Scope, after: ChangeCursor, limit: number, next?: ChangeKey): unknown[] {
  const from = next ?? firstKey(after);
  return [
    scope.tenantId,
    contextName(scope.context),
    next === undefined ? [...after.xip] : [],
    from.xid,
    from.crmId,
    from.kind,
    from.id,
    Math.max(1, Math.trunc(limit)),
  ];
}

/** {@link CHANGES_SQL} with its first page's values spliced in (integers and a fixed context name only). */
export function changesLiteral(scope: Scope, after: ChangeCursor, limit: number): string {
  return (
    `SELECT * FROM matchbook_people_changes(${int(scope.tenantId)}, '${contextName(scope.context)}', ARRAY[${after.xip.map(int).join(', ')}]::bigint[], ` +
    `${int(after.xmax)}, 0, 0, 0, ${Math.max(1, int(Math.trunc(limit)))})`
  );
}

/** -1, 0 or 1 as key `a` comes before, with or after `b`. */
function compareKeys(a: ChangeKey, b: ChangeKey): number {
  return Math.sign(a.xid - b.xid) || Math.sign(a.crmId - b.crmId) || Math.sign(a.kind - b.kind) || Math.sign(a.id - b.id);
}

/**
 * The cursor and changes of a {@link CHANGES_SQL} result read after `after`, `limit` per page;
 * `next` is the last key at or after `after.xmax` when the page held `limit` of them.
 */
export function changesOf(rows: readonly Row[], after: ChangeCursor, limit: number): PeopleChanges {
  const cursor = parseSnapshot(textOrNull(rows[0]?.['snap']) ?? '0:0:');
  const changes: PersonChange[] = [];
  let ranged = 0;
  let last: ChangeKey | null = null;
  for (const x of rows) {
    if (x['crm_id'] == null) continue;
    const key: ChangeKey = { xid: Number(x['change_xid']), crmId: Number(x['crm_id']), kind: Number(x['kind']), id: Number(x['id']) };
    if (key.xid >= after.xmax) {
      ranged++;
      if (last === null || compareKeys(key, last) > 0) last = key;
    }
    changes.push({
      crmId: key.crmId,
      seq: Number(x['change_seq']),
      json: textOrNull(x['match_key']),
      fingerprint: x['match_fp'] == null ? null : Number(x['match_fp']),
      organization: x['contact_mode'] === 'Organization',
      mergedInto: x['merged_into'] == null ? null : Number(x['merged_into']),
      differentFrom: x['different_from'] == null ? null : Number(x['different_from']),
    });
  }
  return { changes, cursor, next: ranged >= Math.max(1, Math.trunc(limit)) ? last : null };
}

/** A `txid_snapshot` ("xmin:xmax:xip,xip") as a cursor. */
export function parseSnapshot(text: string): ChangeCursor {
  const [, xmax = '0', xip = ''] = text.split(':');
  return {
    xmax: Number(xmax),
    xip:
      xip === ''
        ? []
        : xip
            .split(',')
            .map(Number)
            .sort((a, b) => a - b),
  };
}

/** The snapshot of this moment, as a cursor. */
export const SNAPSHOT_SQL = 'SELECT txid_current_snapshot()::text AS snap';

/**
 * The advisory lock class of a scope (the first key of `pg_advisory_xact_lock(int, int)`):
 * units of different scopes never wait on each other, up to a clash of this 32-bit number.
 */
export function lockClass(scope: Scope): number {
  return (Math.trunc(scope.tenantId) * 2 + (scope.context === 'campaign' ? 1 : 0)) | 0;
}

/** Takes the locks (ascending, once each) and answers how long that took, ms (`wait_ms`). */
export function lockLiteral(scope: Scope, keys: readonly LockKey[]): string {
  const sorted = [...new Set(keys.map((k) => k | 0))].sort((a, b) => a - b);
  return `SELECT (SELECT count(pg_advisory_xact_lock(${lockClass(scope)}, k)) FROM unnest(ARRAY[${sorted.join(', ')}]::int[]) AS k) AS n,
    (extract(epoch FROM clock_timestamp() - statement_timestamp()) * 1000)::float8 AS wait_ms`;
}

/** The row of a person ($1 crmId, $2 tenant, $3 context), locked until the unit ends. */
export const LOCK_PERSON_SQL = 'SELECT * FROM people WHERE crm_id = $1 AND tenant_id = $2 AND context = $3 FOR UPDATE';

/** {@link LOCK_PERSON_SQL} with its values spliced in. */
export function lockPersonLiteral(scope: Scope, crmId: number): string {
  return `SELECT * FROM people WHERE crm_id = ${int(crmId)} AND tenant_id = ${int(scope.tenantId)} AND context = '${contextName(scope.context)}' FOR UPDATE`;
}

/** $1 more phone ids, $2 more address ids, $3 more crmIds (rows `k` 'p', 'a' or 'c', `v`). */
export const IDS_SQL = `SELECT 'p' AS k, nextval('phone_ids') AS v FROM generate_series(1, $1::int)
  UNION ALL SELECT 'a', nextval('address_ids') FROM generate_series(1, $2::int)
  UNION ALL SELECT 'c', nextval('people_crm_id_seq') FROM generate_series(1, $3::int)`;

/** {@link IDS_SQL} with its counts spliced in. */
export function idsLiteral(phones: number, addresses: number, crmIds: number): string {
  return IDS_SQL.replace('$1', String(int(phones)))
    .replace('$2', String(int(addresses)))
    .replace('$3', String(int(crmIds)));
}

function int(n: number): number {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not an integer: ${n}`);
  return n;
}

/** The name of a context in the people table. */
export function contextName(context: ContextName): ContextName {
  return context === 'campaign' ? 'campaign' : 'voterfile';
}

/** Ids taken from the sequences ahead of need (a unit's first round trip refills them). */
export class IdPool {
  private readonly phones: number[] = [];
  private readonly addresses: number[] = [];
  /** Ids fetched per refill; the pool is refilled below {@link LOW}. */
  static readonly BLOCK = 64;
  static readonly LOW = 16;

  /** How many of each to fetch now (0, 0: enough). */
  wanted(): { phones: number; addresses: number } {
    return {
      phones: this.phones.length < IdPool.LOW ? IdPool.BLOCK - this.phones.length : 0,
      addresses: this.addresses.length < IdPool.LOW ? IdPool.BLOCK - this.addresses.length : 0,
    };
  }

  /** Adds fetched ids (rows of {@link IDS_SQL}); answers the crmIds among them (a unit's own, not pooled). */
  add(rows: readonly Row[]): number[] {
    const crmIds: number[] = [];
    for (const r of rows) (r['k'] === 'p' ? this.phones : r['k'] === 'a' ? this.addresses : crmIds).push(Number(r['v']));
    this.phones.sort((a, b) => a - b);
    this.addresses.sort((a, b) => a - b);
    return crmIds;
  }

  /** `n` ids of a kind, lowest first, or null when the pool has fewer. */
  take(kind: 'p' | 'a', n: number): number[] | null {
    const pool = kind === 'p' ? this.phones : this.addresses;
    return pool.length < n ? null : pool.splice(0, n);
  }
}

/** Adds up the lock waits of units ({@link Store.lockWaits}). */
export class LockWaits {
  private acquisitions = 0;
  private waited = 0;
  private totalMs = 0;
  private maxMs = 0;
  private retries = 0;

  note(ms: number): void {
    this.acquisitions++;
    if (ms >= 1) this.waited++;
    this.totalMs += ms;
    this.maxMs = Math.max(this.maxMs, ms);
  }

  retried(): void {
    this.retries++;
  }

  stats(): LockWaitStats {
    return { acquisitions: this.acquisitions, waited: this.waited, totalMs: this.totalMs, maxMs: this.maxMs, retries: this.retries };
  }
}

/**
 * Rows of the bulk-import tables as the Store's types: the same columns in the SQLite and
 * PostgreSQL adapters (sqlite-import.ts, pg-import.ts).
 */
import type { ImportFileRow, ImportJobRow, ImportJobStatus, ImportRowResult } from './import-types.js';
import { textOrNull } from './rows.js';

type Row = Record<string, unknown>;

/** The statuses of a job that still has work, as an SQL list. */
export const OPEN_STATUSES = `('Pending', 'InProgress', 'InProgressWithErrors')`;

export function toJob(r: Row): ImportJobRow {
  return {
    id: Number(r['id']),
    tenantId: Number(r['tenant_id']),
    context: String(r['context']) as 'voterfile' | 'campaign',
    status: String(r['status']) as ImportJobStatus,
    request: String(r['request']),
    resultToken: String(r['result_token']),
    createdAt: String(r['created_at']),
    fileId: r['file_id'] == null ? null : Number(r['file_id']),
    rowsTotal: r['rows_total'] == null ? null : Number(r['rows_total']),
    rowsDone: Number(r['rows_done']),
    rowsFailed: Number(r['rows_failed']),
    owner: textOrNull(r['owner']),
    leaseUntil: r['lease_until'] == null ? null : Number(r['lease_until']),
    attempts: Number(r['attempts']),
    errors: JSON.parse(String(r['errors'])) as ImportJobRow['errors'],
    resultParts: JSON.parse(String(r['result_parts'])) as ImportJobRow['resultParts'],
    finishedAt: textOrNull(r['finished_at']),
    expiresAt: textOrNull(r['expires_at']),
  };
}

export function toFile(r: Row): ImportFileRow {
  return {
    id: Number(r['id']),
    tenantId: Number(r['tenant_id']),
    context: String(r['context']) as 'voterfile' | 'campaign',
    token: String(r['token']),
    name: String(r['name']),
    size: Number(r['size']),
    createdAt: String(r['created_at']),
    expiresAt: String(r['expires_at']),
  };
}

export function toResult(r: Row): ImportRowResult {
  return {
    rowNo: Number(r['row_no']),
    stepsDone: Number(r['steps_done']),
    crmId: r['crm_id'] == null ? null : Number(r['crm_id']),
    outcomes: JSON.parse(String(r['outcomes'])) as string[],
    included: JSON.parse(String(r['included'])) as string[],
  };
}

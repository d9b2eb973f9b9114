/**
 * How tenants, API keys, models and people are laid out in rows: the same columns in both adapters
 * (migrations.ts and pg-migrations.ts create them), so one mapping each way serves both.
 */
import { columnOf } from './migrations.js';
import {
  INTEGER_SCALARS,
  PERSON_SCALARS,
  type ContextName,
  type KeyRow,
  type ModelRow,
  type PersonRecord,
  type PersonScalarName,
  type StoredNormalization,
  type StoredSelfReported,
  type TenantRow,
  type Tier,
} from './types.js';

/** A row as a driver returns it, by column name. */
export type Row = Record<string, unknown>;

/** Columns of the person scalars, in {@link PERSON_SCALARS} order. */
export const SCALAR_COLUMNS: readonly string[] = PERSON_SCALARS.map(columnOf);

/** The columns a person write sets, in {@link personValues} order: the person, then its stored normalization. */
export const PERSON_WRITE_COLUMNS: readonly string[] = [
  'created_at',
  'updated_at',
  ...SCALAR_COLUMNS,
  'emails',
  'phones',
  'addresses',
  'identifiers',
  'custom_field_values',
  'self_reported',
  'suppressions',
  'match_key',
  'match_fp',
];

const EMPTY_SELF_REPORTED: StoredSelfReported = {
  races: [],
  ethnicities: [],
  genders: [],
  sexualOrientations: [],
  languagePreference: null,
};

/**
 * A text column that may be NULL. Both databases hand back strings (a number is printed);
 * anything else means the schema and this code disagree, which is an error, not "[object Object]".
 */
export function textOrNull(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  throw new TypeError(`A text column holds a ${typeof value}.`);
}

/** A JSON column's value, or `fallback` when it is not text (NULL). */
export function parseJson<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string') return fallback;
  return JSON.parse(text) as T;
}

/** A `tenants` row. */
export function toTenant(row: Row): TenantRow {
  return { id: Number(row['id']), name: String(row['name']), createdAt: String(row['created_at']) };
}

/** A `tenant_models` row. */
export function toModelRow(row: Row): ModelRow {
  const json = row['json'];
  return { version: Number(row['version']), json: typeof json === 'string' ? json : null, createdAt: String(row['created_at']) };
}

/** An `api_keys` row joined with its tenant's name (`tenant_name`). */
export function toKeyRow(row: Row): KeyRow {
  return {
    id: Number(row['id']),
    tenantId: Number(row['tenant_id']),
    tenantName: String(row['tenant_name']),
    hash: String(row['hash']),
    prefix: String(row['prefix']),
    tier: String(row['tier']) as Tier,
    contexts: parseJson<ContextName[]>(row['contexts'], []),
    defaultContext: String(row['default_context']) as ContextName,
    createdAt: String(row['created_at']),
    revokedAt: textOrNull(row['revoked_at']),
  };
}

/** A person from its row's columns (`get` reads one by name). */
export function personOf(get: (column: string) => unknown): PersonRecord {
  const scalars = {} as Record<PersonScalarName, string | number | null>;
  PERSON_SCALARS.forEach((field, i) => {
    const value = get(SCALAR_COLUMNS[i] as string);
    if (!INTEGER_SCALARS.has(field)) scalars[field] = textOrNull(value);
    else scalars[field] = value === null || value === undefined ? null : Number(value);
  });
  return {
    crmId: Number(get('crm_id')),
    createdAt: String(get('created_at')),
    updatedAt: String(get('updated_at')),
    scalars,
    selfReported: { ...EMPTY_SELF_REPORTED, ...parseJson<Partial<StoredSelfReported>>(get('self_reported'), {}) },
    emails: parseJson(get('emails'), []),
    phones: parseJson(get('phones'), []),
    addresses: parseJson(get('addresses'), []),
    identifiers: parseJson(get('identifiers'), []),
    customFieldValues: parseJson(get('custom_field_values'), []),
    suppressions: parseJson(get('suppressions'), []),
  };
}

/** A `people` row. */
export function toPerson(row: Row): PersonRecord {
  return personOf((column) => row[column]);
}

/** The values of {@link PERSON_WRITE_COLUMNS} for a person and its stored normalization. */
export function personValues(person: PersonRecord, normalized: StoredNormalization | undefined): unknown[] {
  return [
    person.createdAt,
    person.updatedAt,
    ...PERSON_SCALARS.map((f) => person.scalars[f]),
    JSON.stringify(person.emails),
    JSON.stringify(person.phones),
    JSON.stringify(person.addresses),
    JSON.stringify(person.identifiers),
    JSON.stringify(person.customFieldValues),
    JSON.stringify(person.selfReported),
    JSON.stringify(person.suppressions),
    normalized?.json ?? null,
    normalized?.fingerprint ?? null,
  ];
}

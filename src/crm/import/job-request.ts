/**
 * The body of POST /bulkImportJobs (compatibility.md "Bulk import"), validated into a
 * {@link JobSpec}. Tolerates what clients send: `"hasHeader":"True"` (strings or booleans),
 * `"columnDelimiter":"csv"` (Csv, Tab, Pipe in any case; also "," "\t" "|"), `staticValue`
 * as a number, unknown keys. Every problem is reported at once, each with its property path.
 */
import { compileSchema, mergeIssues } from '../schemas/check.js';
import { BulkImportJobRequest } from '../schemas/bulk-import-job.js';
import { CrmError, type ValidationIssue } from '../errors.js';
import type { FieldValueMapping } from './field-mapping.js';
import { findMappingType, type MappingTypeName } from './mapping-types.js';

/** At most this many columns in a file (issue 5). */
export const MAX_COLUMNS = 50;
/** Default and largest `resultFileSizeKbLimit`. */
export const DEFAULT_RESULT_KB = 5000;
export const MAX_RESULT_KB = 100_000;

/** Where the file comes from: a URL to fetch, or a file uploaded to this server. */
export type JobSource = { readonly kind: 'url'; readonly url: string } | { readonly kind: 'upload'; readonly token: string };

export interface JobMappingType {
  readonly name: MappingTypeName;
  /** Position in the request's mappingTypes (for error paths). */
  readonly index: number;
  readonly fieldValueMappings: readonly FieldValueMapping[];
}

/** A validated job request, stored with the job as JSON. */
export interface JobSpec {
  readonly description: string | null;
  readonly fileName: string | null;
  readonly hasHeader: boolean;
  readonly hasQuotes: boolean;
  readonly delimiter: ',' | '\t' | '|';
  /** Column names as given in `file.columns`; null: taken from the header line. */
  readonly columns: readonly string[] | null;
  readonly sourceUrl: string;
  readonly source: JobSource;
  readonly resourceType: string;
  readonly resultFileSizeKbLimit: number;
  readonly mappingTypes: readonly JobMappingType[];
  readonly columnsToInclude: readonly string[];
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Json, k: string): unknown => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

const DELIMITERS: Readonly<Record<string, ',' | '\t' | '|'>> = { csv: ',', ',': ',', tab: '\t', '\t': '\t', tsv: '\t', pipe: '|', '|': '|' };

function readBool(issues: ValidationIssue[], value: unknown, path: string, fallback: boolean): boolean {
  if (value == null) return fallback;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  issues.push({ property: path, text: `${path} must be true or false.` });
  return fallback;
}

function readText(issues: ValidationIssue[], value: unknown, path: string, max: number, required = false): string | null {
  if (value == null || (typeof value === 'string' && value.trim() === '')) {
    if (required) issues.push({ property: path, text: `${path} is required.` });
    return null;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') {
    issues.push({ property: path, text: `${path} must be a string.` });
    return null;
  }
  if (value.length > max) {
    issues.push({ property: path, text: `${path} is longer than ${max} characters.` });
    return null;
  }
  return value;
}

function readList(issues: ValidationIssue[], value: unknown, path: string): unknown[] {
  if (value == null) return [];
  if (!Array.isArray(value)) {
    issues.push({ property: path, text: `${path} must be an array.` });
    return [];
  }
  return value;
}

function readNames(issues: ValidationIssue[], value: unknown, path: string): string[] {
  return readList(issues, value, path).flatMap((c, i) => {
    const name = isObject(c) ? readText(issues, own(c, 'name'), `${path}[${i}].name`, 200, true) : null;
    if (!isObject(c)) issues.push({ property: `${path}[${i}]`, text: `${path}[${i}] must be an object with a name.` });
    return name === null ? [] : [name.trim()];
  });
}

/** The upload a URL names when it is this server's own `/v2|v4/bulkImportFiles/{token}` on `origin`. */
export function uploadToken(url: URL, origin: string): string | null {
  if (url.origin !== origin) return null;
  const m = /^\/v[24]\/bulkImportFiles\/([A-Za-z0-9_-]{16,64})$/.exec(url.pathname);
  return m?.[1] ?? null;
}

/**
 * Validates a job request. `origin` is this server's origin as the client reached it (an
 * upload URL on it reads the stored upload); `hostAllowed` says whether another URL's host may
 * be fetched. Throws CrmError 400 naming every bad property.
 */
const JOB_SCHEMA = compileSchema(BulkImportJobRequest);

export function parseJobRequest(body: unknown, origin: string, hostAllowed: (url: URL) => boolean): JobSpec {
  const issues: ValidationIssue[] = [];
  if (!isObject(body)) throw new CrmError('BAD_REQUEST', [{ property: '', text: 'The body must be a JSON object with file and actions.' }]);
  const description = readText(issues, own(body, 'description'), 'description', 1000);
  const file = own(body, 'file');
  let fileName: string | null = null;
  let hasHeader = true;
  let hasQuotes = true;
  let delimiter: ',' | '\t' | '|' = ',';
  let columns: string[] | null = null;
  let sourceUrl = '';
  let source: JobSource = { kind: 'url', url: '' };
  if (!isObject(file)) {
    issues.push({ property: 'file', text: 'file is required: an object with sourceUrl, columnDelimiter, hasHeader and columns.' });
  } else {
    fileName = readText(issues, own(file, 'fileName'), 'file.fileName', 500);
    hasHeader = readBool(issues, own(file, 'hasHeader'), 'file.hasHeader', true);
    hasQuotes = readBool(issues, own(file, 'hasQuotes'), 'file.hasQuotes', true);
    const d = readText(issues, own(file, 'columnDelimiter'), 'file.columnDelimiter', 10);
    if (d !== null) {
      const known = DELIMITERS[d.trim().toLowerCase()] ?? DELIMITERS[d];
      if (known === undefined) issues.push({ property: 'file.columnDelimiter', text: `file.columnDelimiter "${d}" is not supported.`, hint: 'Use Csv, Tab or Pipe.' });
      else delimiter = known;
    }
    if (own(file, 'columns') != null) {
      columns = readNames(issues, own(file, 'columns'), 'file.columns');
      if (columns.length === 0) issues.push({ property: 'file.columns', text: 'file.columns must name at least one column.' });
      if (columns.length > MAX_COLUMNS) issues.push({ property: 'file.columns', text: `A file has at most ${MAX_COLUMNS} columns; file.columns names ${columns.length}.` });
    } else if (!hasHeader) {
      issues.push({ property: 'file.columns', text: 'file.columns is required when the file has no header line.' });
    }
    const url = readText(issues, own(file, 'sourceUrl'), 'file.sourceUrl', 2000, true);
    if (url !== null) {
      sourceUrl = url.trim();
      let parsed: URL | null = null;
      try {
        parsed = new URL(sourceUrl);
      } catch {
        issues.push({ property: 'file.sourceUrl', text: 'file.sourceUrl is not a valid URL.' });
      }
      if (parsed !== null) {
        const token = uploadToken(parsed, origin);
        if (token !== null) source = { kind: 'upload', token };
        else if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
          issues.push({ property: 'file.sourceUrl', text: 'file.sourceUrl must be an http or https URL.' });
        } else if (parsed.username !== '' || parsed.password !== '') {
          issues.push({ property: 'file.sourceUrl', text: 'file.sourceUrl must not hold credentials.' });
        } else if (!hostAllowed(parsed)) {
          issues.push({
            property: 'file.sourceUrl', text: `The host ${parsed.host} is not on this server's import allow-list.`,
            hint: 'Upload the file with POST /bulkImportFiles and use the sourceUrl it answers, or ask the operator to add the host to MATCHBOOK_IMPORT_ALLOWED_HOSTS.',
          });
        } else source = { kind: 'url', url: parsed.href };
      }
    }
  }
  const actions = readList(issues, own(body, 'actions'), 'actions');
  if (actions.length !== 1) issues.push({ property: 'actions', text: 'actions must hold exactly one action.' });
  let resourceType = 'Contacts';
  let resultFileSizeKbLimit = DEFAULT_RESULT_KB;
  const mappingTypes: JobMappingType[] = [];
  let columnsToInclude: string[] = [];
  const action = actions[0];
  if (actions.length === 1 && !isObject(action)) issues.push({ property: 'actions[0]', text: 'actions[0] must be an object.' });
  if (isObject(action)) {
    const at = 'actions[0]';
    const type = readText(issues, own(action, 'actionType'), `${at}.actionType`, 50);
    if (type !== null && type.trim().toLowerCase() !== 'loadmappedfile') {
      issues.push({ property: `${at}.actionType`, text: `${at}.actionType "${type}" is not supported.`, hint: 'Use loadMappedFile.' });
    }
    resourceType = readText(issues, own(action, 'resourceType'), `${at}.resourceType`, 100) ?? 'Contacts';
    const kb = own(action, 'resultFileSizeKbLimit');
    if (kb != null) {
      const n = typeof kb === 'string' ? Number(kb) : kb;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_RESULT_KB) {
        issues.push({ property: `${at}.resultFileSizeKbLimit`, text: `${at}.resultFileSizeKbLimit must be a whole number from 1 to ${MAX_RESULT_KB}.` });
      } else resultFileSizeKbLimit = n;
    }
    const types = readList(issues, own(action, 'mappingTypes'), `${at}.mappingTypes`);
    if (types.length === 0) issues.push({ property: `${at}.mappingTypes`, text: 'At least one mapping type is required.' });
    types.forEach((t, i) => {
      const path = `${at}.mappingTypes[${i}]`;
      if (!isObject(t)) {
        issues.push({ property: path, text: `${path} must be an object with a name.` });
        return;
      }
      const name = readText(issues, own(t, 'name'), `${path}.name`, 100, true);
      if (name === null) return;
      const def = findMappingType(name);
      if (def === undefined) {
        issues.push({ property: `${path}.name`, text: `Unknown mapping type "${name}".`, hint: 'See GET /bulkImportMappingTypes.' });
        return;
      }
      if (mappingTypes.some((m) => m.name === def.name)) {
        issues.push({ property: `${path}.name`, text: `Mapping type ${def.name} is given twice.` });
        return;
      }
      const fvms = readList(issues, own(t, 'fieldValueMappings'), `${path}.fieldValueMappings`).flatMap((m, j): FieldValueMapping[] => {
        const mp = `${path}.fieldValueMappings[${j}]`;
        if (!isObject(m)) {
          issues.push({ property: mp, text: `${mp} must be an object.` });
          return [];
        }
        const fieldName = readText(issues, own(m, 'fieldName'), `${mp}.fieldName`, 100, true);
        const columnName = readText(issues, own(m, 'columnName'), `${mp}.columnName`, 200);
        const staticValue = readText(issues, own(m, 'staticValue'), `${mp}.staticValue`, 1000);
        if (columnName !== null && staticValue !== null) issues.push({ property: mp, text: `${mp} has both columnName and staticValue; give one.` });
        const values = readList(issues, own(m, 'values'), `${mp}.values`).flatMap((v, k) => {
          const vp = `${mp}.values[${k}]`;
          if (!isObject(v)) {
            issues.push({ property: vp, text: `${vp} must be an object with sourceValue and targetValue.` });
            return [];
          }
          const s = readText(issues, own(v, 'sourceValue'), `${vp}.sourceValue`, 1000, true);
          const tv = readText(issues, own(v, 'targetValue'), `${vp}.targetValue`, 1000, true);
          return s === null || tv === null ? [] : [{ sourceValue: s, targetValue: tv }];
        });
        return fieldName === null ? [] : [{ fieldName, columnName, staticValue, values }];
      });
      mappingTypes.push({ name: def.name, index: i, fieldValueMappings: fvms });
    });
    columnsToInclude = readNames(issues, own(action, 'columnsToIncludeInResultsFile'), `${at}.columnsToIncludeInResultsFile`);
  }
  // The schema (the one GET /openapi.json shows) names what the readers above did not.
  const refused = JOB_SCHEMA.validate(body);
  if (issues.length > 0 || refused.length > 0) throw new CrmError('INVALID_PARAMETER', mergeIssues(issues, refused));
  // CreateOrUpdateContact runs first: the other types of the row apply to its contact.
  mappingTypes.sort((a, b) => Number(b.name === 'CreateOrUpdateContact') - Number(a.name === 'CreateOrUpdateContact'));
  return {
    description, fileName, hasHeader, hasQuotes, delimiter, columns, sourceUrl, source, resourceType,
    resultFileSizeKbLimit, mappingTypes, columnsToInclude,
  };
}

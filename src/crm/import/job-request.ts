/**
 * The body of POST /bulkImportJobs (compatibility.md "Bulk import"), validated into a
 * {@link JobSpec}. Tolerates what clients send: `"hasHeader":"True"` (strings or booleans),
 * `"columnDelimiter":"csv"` (Csv, Tab, Pipe in any case; also "," "\t" "|"), `staticValue`
 * as a number, unknown keys. Every problem is reported at once, each with its property path.
 */
import { compileSchema } from '../schemas/check.js';
import { ACTIONS_HINT, BulkImportJobRequest, FILE_HINT, MAX_RESULT_KB } from '../schemas/bulk-import-job.js';
import { clip } from '../schemas/kit.js';
import { Reader, isBlank, isObject, own, pathOf, type JsonObject } from '../schemas/reader.js';
import { CrmError } from '../errors.js';
import type { FieldValueMapping } from './field-mapping.js';
import { findMappingType, type MappingTypeName } from './mapping-types.js';

/** At most this many columns in a file (issue 5). */
export const MAX_COLUMNS = 50;
/** Default and largest `resultFileSizeKbLimit`. */
export const DEFAULT_RESULT_KB = 5000;
export { MAX_RESULT_KB } from '../schemas/bulk-import-job.js';

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

const DELIMITERS: ReadonlyMap<string, ',' | '\t' | '|'> = new Map([
  ['csv', ','],
  [',', ','],
  ['tab', '\t'],
  ['\t', '\t'],
  ['tsv', '\t'],
  ['pipe', '|'],
  ['|', '|'],
]);

const SCHEMA = compileSchema(BulkImportJobRequest);

/** A required text: an issue when blank or null (missing is the schema's). */
function requiredText(r: Reader, obj: JsonObject, key: string, path: string): string | undefined {
  const p = pathOf(path, key);
  const value = r.text(own(obj, key), p);
  if (value === undefined && isBlank(own(obj, key))) r.add(p, `${p} is required.`);
  return value;
}

/** The names of a list of `{name}` objects. */
function readNames(r: Reader, obj: JsonObject, key: string, path: string): string[] {
  const out: string[] = [];
  for (const { item, path: p } of r.each(own(obj, key), pathOf(path, key))) {
    const name = requiredText(r, item, 'name', p);
    if (name !== undefined) out.push(name);
  }
  return out;
}

/** `file.sourceUrl`: this server's upload, or an http(s) URL of an allowed host. */
function readSource(r: Reader, text: string, origin: string, hostAllowed: (url: URL) => boolean): JobSource {
  const at = 'file.sourceUrl';
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    r.add(at, `${at} is not a valid URL.`);
    return { kind: 'url', url: '' };
  }
  const token = uploadToken(parsed, origin);
  if (token !== null) return { kind: 'upload', token };
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') r.add(at, `${at} must be an http or https URL.`);
  else if (parsed.username !== '' || parsed.password !== '') r.add(at, `${at} must not hold credentials.`);
  else if (!hostAllowed(parsed)) {
    r.add(
      at,
      `The host ${parsed.host} is not on this server's import allow-list.`,
      'Upload the file with POST /bulkImportFiles and use the sourceUrl it answers, or ask the operator to add the host to MATCHBOOK_IMPORT_ALLOWED_HOSTS.',
    );
  } else return { kind: 'url', url: parsed.href };
  return { kind: 'url', url: '' };
}

type FileSpec = Pick<JobSpec, 'fileName' | 'hasHeader' | 'hasQuotes' | 'delimiter' | 'columns' | 'sourceUrl' | 'source'>;

function readFile(r: Reader, body: JsonObject, origin: string, hostAllowed: (url: URL) => boolean): FileSpec {
  if (own(body, 'file') === null) r.add('file', 'file is required.', FILE_HINT);
  const file = r.obj(own(body, 'file'), 'file');
  const out: { -readonly [K in keyof FileSpec]: FileSpec[K] } = {
    fileName: null,
    hasHeader: true,
    hasQuotes: true,
    delimiter: ',',
    columns: null,
    sourceUrl: '',
    source: { kind: 'url', url: '' },
  };
  if (file === undefined) return out;
  const at = (k: string): string => pathOf('file', k);
  out.fileName = r.text(own(file, 'fileName'), at('fileName')) ?? null;
  out.hasHeader = r.bool(own(file, 'hasHeader'), at('hasHeader')) ?? true;
  out.hasQuotes = r.bool(own(file, 'hasQuotes'), at('hasQuotes')) ?? true;
  const d = r.text(own(file, 'columnDelimiter'), at('columnDelimiter'));
  if (d !== undefined) {
    const known = DELIMITERS.get(d.toLowerCase());
    if (known === undefined) r.add(at('columnDelimiter'), `${at('columnDelimiter')} "${clip(d)}" is not supported.`, 'Use Csv, Tab or Pipe.');
    else out.delimiter = known;
  } else if (own(file, 'columnDelimiter') === '\t') out.delimiter = '\t'; // the character itself, which trimming blanks
  if (own(file, 'columns') != null) {
    const columns = readNames(r, file, 'columns', 'file');
    const sent = own(file, 'columns');
    if (Array.isArray(sent) && sent.length === 0) r.add(at('columns'), `${at('columns')} must name at least one column.`);
    if (columns.length > MAX_COLUMNS) r.add(at('columns'), `A file has at most ${MAX_COLUMNS} columns; file.columns names ${columns.length}.`);
    out.columns = columns;
  } else if (!out.hasHeader) {
    r.add(at('columns'), `${at('columns')} is required when the file has no header line.`);
  }
  const url = requiredText(r, file, 'sourceUrl', 'file');
  if (url !== undefined) {
    out.sourceUrl = url;
    out.source = readSource(r, url, origin, hostAllowed);
  }
  return out;
}

/** A `staticValue`: text, or a number or boolean written as text. */
function readStatic(r: Reader, value: unknown, path: string): string | null {
  if (typeof value === 'boolean') return r.ok(path) ? String(value) : null;
  return r.text(value, path) ?? null;
}

function readFieldValueMappings(r: Reader, type: JsonObject, path: string): FieldValueMapping[] {
  const out: FieldValueMapping[] = [];
  for (const { item, path: mp } of r.each(own(type, 'fieldValueMappings'), pathOf(path, 'fieldValueMappings'))) {
    const fieldName = requiredText(r, item, 'fieldName', mp);
    const columnName = r.text(own(item, 'columnName'), pathOf(mp, 'columnName')) ?? null;
    const staticValue = readStatic(r, own(item, 'staticValue'), pathOf(mp, 'staticValue'));
    if (columnName !== null && staticValue !== null) r.add(mp, `${mp} has both columnName and staticValue; give one.`);
    const values: { sourceValue: string; targetValue: string }[] = [];
    for (const { item: v, path: vp } of r.each(own(item, 'values'), pathOf(mp, 'values'))) {
      const sourceValue = requiredText(r, v, 'sourceValue', vp);
      const targetValue = requiredText(r, v, 'targetValue', vp);
      if (sourceValue !== undefined && targetValue !== undefined) values.push({ sourceValue, targetValue });
    }
    if (fieldName !== undefined) out.push({ fieldName, columnName, staticValue, values });
  }
  return out;
}

type ActionSpec = Pick<JobSpec, 'resourceType' | 'resultFileSizeKbLimit' | 'mappingTypes' | 'columnsToInclude'>;

function readAction(r: Reader, body: JsonObject): ActionSpec {
  if (own(body, 'actions') === null) r.add('actions', 'actions is required.', ACTIONS_HINT);
  const actions = r.each(own(body, 'actions'), 'actions');
  const out: ActionSpec = { resourceType: 'Contacts', resultFileSizeKbLimit: DEFAULT_RESULT_KB, mappingTypes: [], columnsToInclude: [] };
  const sent = own(body, 'actions');
  if (r.ok('actions') && Array.isArray(sent) && sent.length !== 1) r.add('actions', 'actions must hold exactly one action.', ACTIONS_HINT);
  // The first action is read even when more were sent, so that every problem is said at once.
  const action = actions[0]?.path === 'actions[0]' ? actions[0].item : undefined;
  if (action === undefined) return out;
  const at = (k: string): string => pathOf('actions[0]', k);
  const type = r.text(own(action, 'actionType'), at('actionType'));
  if (type !== undefined && type.toLowerCase() !== 'loadmappedfile') {
    r.add(at('actionType'), `${at('actionType')} "${clip(type)}" is not supported.`, 'Use loadMappedFile.');
  }
  const mappingTypes: JobMappingType[] = [];
  const types = r.each(own(action, 'mappingTypes'), at('mappingTypes'));
  if (r.ok(at('mappingTypes')) && !(Array.isArray(own(action, 'mappingTypes')) && (own(action, 'mappingTypes') as unknown[]).length > 0)) {
    r.add(at('mappingTypes'), 'At least one mapping type is required.', 'See GET /bulkImportMappingTypes.');
  }
  for (const { item, path } of types) {
    const name = requiredText(r, item, 'name', path);
    if (name === undefined) continue;
    const def = findMappingType(name);
    if (def === undefined) {
      r.add(pathOf(path, 'name'), `Unknown mapping type "${clip(name)}".`, 'See GET /bulkImportMappingTypes.');
      continue;
    }
    if (mappingTypes.some((m) => m.name === def.name)) {
      r.add(pathOf(path, 'name'), `Mapping type ${def.name} is given twice.`);
      continue;
    }
    const index = Number(/\[(\d+)\]$/.exec(path)?.[1]);
    mappingTypes.push({ name: def.name, index, fieldValueMappings: readFieldValueMappings(r, item, path) });
  }
  // CreateOrUpdateContact runs first: the other types of the row apply to its contact.
  mappingTypes.sort((a, b) => Number(b.name === 'CreateOrUpdateContact') - Number(a.name === 'CreateOrUpdateContact'));
  return {
    resourceType: r.text(own(action, 'resourceType'), at('resourceType')) ?? 'Contacts',
    resultFileSizeKbLimit: r.int(own(action, 'resultFileSizeKbLimit'), at('resultFileSizeKbLimit'), 1, MAX_RESULT_KB) ?? DEFAULT_RESULT_KB,
    mappingTypes,
    columnsToInclude: readNames(r, action, 'columnsToIncludeInResultsFile', 'actions[0]'),
  };
}

/** The upload a URL names when it is this server's own `/v2|v4/bulkImportFiles/{token}` on `origin`. */
export function uploadToken(url: URL, origin: string): string | null {
  if (url.origin !== origin) return null;
  const m = /^\/v[24]\/bulkImportFiles\/([\w-]{16,64})$/.exec(url.pathname);
  return m?.[1] ?? null;
}

/**
 * Validates a job request: checked once against its schema (schemas/bulk-import-job.ts, the one
 * GET /openapi.json shows), then read once by the code above. `origin` is this server's origin
 * as the client reached it (an upload URL on it reads the stored upload); `hostAllowed` says
 * whether another URL's host may be fetched. Throws CrmError 400 naming every bad property.
 */
export function parseJobRequest(body: unknown, origin: string, hostAllowed: (url: URL) => boolean): JobSpec {
  if (!isObject(body)) throw new CrmError('BAD_REQUEST', [{ property: '', text: 'The body must be a JSON object with file and actions.' }]);
  const refused = SCHEMA.validate(body);
  const r = new Reader(refused.map((i) => i.property));
  const description = r.text(own(body, 'description'), 'description') ?? null;
  const file = readFile(r, body, origin, hostAllowed);
  const action = readAction(r, body);
  if (refused.length > 0 || r.issues.length > 0) throw new CrmError('INVALID_PARAMETER', SCHEMA.ordered([...refused, ...r.issues]));
  return { description, ...file, ...action };
}

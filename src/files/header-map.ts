/**
 * Which column holds which contact field: header names matched against the contract's field
 * names and their common aliases ("given_name", "FIRST", "surname", "dob", "postcode"...),
 * case, accents, spaces and punctuation ignored; `--map HEADER=field` overrides; `--id`
 * names the id column. Pure: headers in, a plan (or an error text) out.
 */
import { chooseColumns, findColumn, leaveOutIpLocation, listHeaders, type AddressFallback } from './column-choice.js';
import { dateOrderInHeader, everySeparator, withoutDateFormat, type FileDateOrder } from './date-order.js';
import {
  CONTACT_FIELDS,
  DEFAULT_HEADER_ALIASES,
  fieldOfGroupPart,
  HEADER_PREFIXES,
  BRACKET_KINDS,
  CONTACT_BRACKET_KINDS,
  HEADER_SUFFIXES,
  headerKey,
  ID_HEADERS,
  identifierTypeOf,
  IGNORE,
  MULTI_VALUE_FIELDS,
  NUMBER_WORDS,
  PERSON_PREFIXES,
  type ContactField,
} from './header-fields.js';

export * from './header-fields.js';
export { findColumn } from './column-choice.js';

function buildAliasTable(aliases: Readonly<Record<ContactField, readonly string[]>>): Map<string, ContactField> {
  const table = new Map<string, ContactField>();
  for (const field of CONTACT_FIELDS) {
    table.set(headerKey(field), field);
    for (const alias of aliases[field]) if (!table.has(headerKey(alias))) table.set(headerKey(alias), field);
  }
  return table;
}

const DEFAULT_ALIAS_TABLE = buildAliasTable(DEFAULT_HEADER_ALIASES);

/**
 * The field a header names, or null. Tries the whole key, then without a trailing number
 * ("email2", "phone_1"), then without a known prefix ("home_phone", "voter_dob").
 */
export function fieldForHeader(header: string, table: ReadonlyMap<string, ContactField> = DEFAULT_ALIAS_TABLE): ContactField | null {
  const key = headerKey(header);
  if (key.length === 0) return null;
  const direct = table.get(key) ?? fieldOfGroupPart(header, table);
  if (direct !== undefined) return direct;
  // A trailing number counts only for fields a person has several of ("email2", "phone_1").
  const unnumbered = key.replace(/\d+$/, '');
  const multi = (field: ContactField | null | undefined): ContactField | null =>
    field !== undefined && field !== null && MULTI_VALUE_FIELDS.has(field) ? field : null;
  if (unnumbered !== key) {
    const viaNumber = multi(table.get(unnumbered));
    if (viaNumber !== null) return viaNumber;
  }
  const beforeSuffix = fieldBeforeSuffix(key, table);
  if (beforeSuffix !== undefined) return beforeSuffix;
  for (const prefix of HEADER_PREFIXES) {
    if (key.startsWith(prefix) && key.length > prefix.length) {
      const rest = key.slice(prefix.length);
      // "st" alone is too short to trust after a prefix ("resist"); a trailing word may follow ("res_city_desc").
      const field = rest === 'st' ? undefined : (table.get(rest) ?? fieldBeforeSuffix(rest, table, true));
      if (field !== undefined && !(field === 'fullName' && !namesPerson(prefix, rest))) return field;
    }
    if (unnumbered !== key && unnumbered.startsWith(prefix) && unnumbered.length > prefix.length) {
      const field = multi(table.get(unnumbered.slice(prefix.length)));
      if (field !== null) return field;
    }
  }
  return fieldOfParts(header, table);
}

/**
 * Whether a full name after `prefix` is the row's person's: the prefix names the person
 * ("Contact Name", "voter_name"), or the rest does ("Home Full Name", "work_contact_name").
 * "Business Name", "Work Name" and "Other Display Name" name another thing.
 */
function namesPerson(prefix: string, rest: string): boolean {
  if (PERSON_PREFIXES.has(prefix)) return true;
  for (const person of PERSON_PREFIXES) if (rest.startsWith(person)) return true;
  return false;
}

/** What a header may add in brackets: the format or the kind ("DOB (mm/dd/yyyy)", "Phone (home)", "First name(s)"). */
const BRACKETED = /\([^()]*\)|\[[^[\]]*\]/g;
/** Separators of a header that names one field two ways ("Zip/Postal Code", "Surname or family name"). */
const ALTERNATIVES = /\s*(?:\/|\||\bor\b)\s*/i;

/**
 * The field of a header once what it adds in brackets (or a date format) is left out, else
 * the one field its alternatives all name ("Zip/Postal Code", "Apt/Unit"; "Email/Phone"
 * names two, so none). Null when neither gives one.
 */
function fieldOfParts(header: string, table: ReadonlyMap<string, ContactField>): ContactField | null {
  const trimmed = header.trim();
  const bare = withoutDateFormat(trimmed.replace(BRACKETED, ' ')).trim();
  if (bare !== trimmed && bare.length > 0) {
    const field = fieldForHeader(bare, table);
    if (field === null) return null;
    let named: ContactField = field;
    for (const bracket of trimmed.match(BRACKETED) ?? []) {
      const inner = bracket.slice(1, -1);
      const key = headerKey(inner);
      if (BRACKET_KINDS.has(key) || FORMAT_TEXT.test(inner) || dateOrderInHeader(inner) !== null) continue;
      if (CONTACT_FIELDS_OF_KINDS.has(field) && CONTACT_BRACKET_KINDS.has(key)) continue;
      const part = fieldForHeader(inner, table);
      if (part === field) continue;
      // "Name (Surname)", "Name (Given)": the part of the full name the column holds.
      if (field === 'fullName' && part !== null && NAME_PARTS.has(part)) {
        named = part;
        continue;
      }
      // Another person's, or another thing's ("Name (Mother)", "Driver License (State)").
      return null;
    }
    return named;
  }
  // Every alternative must name the same field: "Emergency Contact Name/Phone" is another
  // person's name and phone, though "Phone" alone is a field.
  const parts = bare.split(ALTERNATIVES).filter((p) => headerKey(p).length > 0);
  if (parts.length < 2) return null;
  const fields = new Set(parts.map((part) => fieldForHeader(part, table)));
  const [only] = fields;
  return fields.size === 1 && only !== undefined ? only : null;
}

/** A format written out in brackets: "xxx-xxx-xxxx", "(###) ###-####", "99999". */
const FORMAT_TEXT = /^[\sx#9\-./()+]+$/i;
/** Fields whose headers may say in brackets which of the person's own they are ({@link CONTACT_BRACKET_KINDS}). */
const CONTACT_FIELDS_OF_KINDS: ReadonlySet<ContactField> = new Set([
  'phone',
  'email',
  'addressLine1',
  'addressLine2',
  'addressLine3',
  'city',
  'stateOrProvince',
  'zipOrPostalCode',
  'countryCode',
]);
/** The parts of a full name a bracket may name ("Name (Surname)"). */
const NAME_PARTS: ReadonlySet<ContactField> = new Set(['firstName', 'middleName', 'lastName', 'suffix']);

/** The field `key` names without a trailing word of {@link HEADER_SUFFIXES}; "st" alone is not trusted after a prefix. */
function fieldBeforeSuffix(key: string, table: ReadonlyMap<string, ContactField>, afterPrefix = false): ContactField | undefined {
  for (const suffix of HEADER_SUFFIXES) {
    if (!key.endsWith(suffix) || key.length <= suffix.length) continue;
    const core = key.slice(0, key.length - suffix.length);
    const field = afterPrefix && core === 'st' ? undefined : table.get(core);
    if (field !== undefined) return field;
  }
  for (const word of NUMBER_WORDS) {
    if (!key.endsWith(word) || key.length <= word.length) continue;
    const field = table.get(key.slice(0, key.length - word.length));
    if (field === 'phone' || field === 'identifier') return field;
  }
  return undefined;
}

/**
 * A field named by the user (`--map HEADER=field`): a field name or any alias, or "ignore"
 * / "-" to leave the column out. Null when unknown.
 */
export function resolveFieldName(name: string, table: ReadonlyMap<string, ContactField> = DEFAULT_ALIAS_TABLE): ContactField | typeof IGNORE | null {
  const key = headerKey(name);
  if (key === 'ignore' || name.trim() === '-' || key === 'none' || key === 'skip') return IGNORE;
  return table.get(key) ?? null;
}

/** One `--map` override. */
export interface ColumnOverride {
  readonly header: string;
  readonly field: ContactField | typeof IGNORE;
}

/** Parses `HEADER=field`; the header may itself hold "=" (the last "=" separates). */
export function parseMapOption(text: string): ColumnOverride | { error: string } {
  const at = text.lastIndexOf('=');
  if (at <= 0 || at === text.length - 1) return { error: `--map "${text}": expected HEADER=field, e.g. --map "Given Name=firstName"` };
  const header = text.slice(0, at).trim();
  const fieldText = text.slice(at + 1).trim();
  const field = resolveFieldName(fieldText);
  if (field === null) {
    return { error: `--map "${text}": unknown field "${fieldText}"; fields: ${CONTACT_FIELDS.join(', ')}, or ignore` };
  }
  return { header, field };
}

/** Options of {@link mapHeaders}. */
export interface HeaderMapOptions {
  readonly overrides?: readonly ColumnOverride[];
  /** Header of the id column (`--id`). */
  readonly idColumn?: string | undefined;
  /**
   * Without `idColumn`, use a column named like an id (`id`, `unique_id`, `rec_id`...) as the
   * id column (falling back to row numbers when its values are not unique). Default false.
   */
  readonly detectId?: boolean;
  /** Identifier columns by type (`--identifier TYPE=COLUMN`). */
  readonly identifiers?: readonly { readonly type: string; readonly header: string }[];
  /** Columns compared as free-text attributes (`--attribute COLUMN`). */
  readonly attributes?: readonly string[];
  /** Fail unless some column gives a name (first, last or full name). Default true. */
  readonly requireName?: boolean;
  readonly aliases?: ReadonlyMap<string, ContactField>;
}

/** What each column is used for. */
export interface HeaderPlan {
  readonly headers: readonly string[];
  /** Field of each column, or null (not matched on). */
  readonly columns: readonly (ContactField | null)[];
  /** Index of the id column, or null (ids are row numbers). */
  readonly idColumn: number | null;
  /** The id column was found by its name, not given: row numbers stand in if its values repeat. */
  readonly idDetected: boolean;
  /** Identifier type of each identifier column (null for other columns). */
  readonly identifierTypes: readonly (string | null)[];
  /** Columns compared as attributes, in order (their headers name them). */
  readonly attributes: readonly number[];
  /** Things the user should know about the mapping, one sentence each. */
  readonly notes: readonly string[];
  /**
   * The order the file writes numeric dates in, where the date of birth's header names a
   * format ("DOB (DD/MM/YYYY)"), or where its dates show it (linkage input.ts); else null.
   */
  readonly dateOrder: FileDateOrder | null;
  /** Other addresses of the person's own, read where a row leaves the chosen one empty (column-choice.ts). */
  readonly addressFallbacks: readonly AddressFallback[];
}

/**
 * Maps header names to fields. Overrides win; each single-valued field goes to one column,
 * the person's own before another use's, and the address's parts to one group of columns
 * (column-choice.ts; the others are noted and left out); several columns may feed email and phone.
 * When the street number has its own column and no column is the street name, line 1 holds
 * the street name (FEBRL's `street_number` + `address_1`).
 */
export function mapHeaders(headers: readonly string[], options: HeaderMapOptions = {}): HeaderPlan | { error: string } {
  const table = options.aliases ?? DEFAULT_ALIAS_TABLE;
  const notes: string[] = [];
  const columns: (ContactField | null)[] = headers.map(() => null);
  const fixed = new Set<number>();
  let idColumn: number | null = null;
  if (options.idColumn !== undefined) {
    const at = findColumn(headers, options.idColumn, '--id');
    if (typeof at !== 'number') return at;
    idColumn = at;
    fixed.add(at);
  }
  for (const override of options.overrides ?? []) {
    const at = findColumn(headers, override.header, '--map');
    if (typeof at !== 'number') return at;
    fixed.add(at);
    columns[at] = override.field === IGNORE ? null : override.field;
  }
  const identifierTypes: (string | null)[] = headers.map(() => null);
  for (const id of options.identifiers ?? []) {
    const at = findColumn(headers, id.header, '--identifier');
    if (typeof at !== 'number') return at;
    fixed.add(at);
    columns[at] = 'identifier';
    identifierTypes[at] = headerKey(id.type) || identifierTypeOf(id.header);
  }
  for (const name of options.attributes ?? []) {
    const at = findColumn(headers, name, '--attribute');
    if (typeof at !== 'number') return at;
    fixed.add(at);
    columns[at] = 'attribute';
  }
  let idDetected = false;
  if (idColumn === null && options.detectId === true) {
    const at = headers.findIndex((h, i) => !fixed.has(i) && ID_HEADERS.has(headerKey(h)));
    if (at !== -1) {
      idColumn = at;
      idDetected = true;
      fixed.add(at);
    }
  }
  const taken = new Set<ContactField>(columns.filter((f): f is ContactField => f !== null && !MULTI_VALUE_FIELDS.has(f)));
  const fieldOf = (header: string): ContactField | null => fieldForHeader(header, table);
  const found = headers.map((header, i) => (fixed.has(i) ? null : fieldOf(header)));
  leaveOutIpLocation(headers, found, notes);
  const chosen = chooseColumns(headers, found, taken, fieldOf);
  notes.push(...chosen.notes);
  headers.forEach((header, i) => {
    if (fixed.has(i)) {
      if (columns[i] === 'identifier' && identifierTypes[i] === null) identifierTypes[i] = identifierTypeOf(header);
      return;
    }
    const field = chosen.columns[i] ?? null;
    columns[i] = field;
    if (field === 'identifier') identifierTypes[i] = identifierTypeOf(header);
  });
  splitDateColumns(headers, columns, fixed, notes);
  const has = (f: ContactField): boolean => columns.includes(f);
  if (has('streetNumber') && !has('streetName') && has('addressLine1')) {
    const at = columns.indexOf('addressLine1');
    columns[at] = 'streetName';
    notes.push(`column "${headers[at] ?? ''}" is read as the street name (the street number has its own column)`);
  }
  if ((options.requireName ?? true) && !has('firstName') && !has('lastName') && !has('fullName')) {
    return {
      error:
        `no column holds a name (first name, last name or full name); columns: ${listHeaders(headers)}. ` +
        'Name one with --map, e.g. --map "Given=firstName" --map "Family=lastName"',
    };
  }
  if (has('fullName') && (has('firstName') || has('lastName'))) {
    notes.push('a full-name column and separate name columns: the full name fills only the parts the others leave empty');
  }
  const attributes = columns.flatMap((f, i) => (f === 'attribute' ? [i] : []));
  const dateHeader = headers[columns.indexOf('dateOfBirth')];
  const headerOrder = dateHeader === undefined ? null : dateOrderInHeader(dateHeader);
  // A year-first format ("DOB (YYYY-MM-DD)") says nothing of how the file's other dates put day and month.
  const dateOrder =
    headerOrder === null || headerOrder === 'ymd' ? null : { orders: everySeparator(headerOrder), how: `the header "${dateHeader ?? ''}" says so` };
  const addressFallbacks = chosen.fallbacks;
  return { headers: [...headers], columns, idColumn, idDetected, identifierTypes, attributes, notes, dateOrder, addressFallbacks };
}

/** What a header key names as part of a date of birth written over several columns. */
type DatePart = 'yearOfBirth' | 'monthOfBirth' | 'dayOfBirth';

/** Words of a date of birth's columns ("birth", "dob": the stem) and of each part. */
const DATE_STEM = '(?:birth|dob|dateofbirth|birthdate|bdate|born|b)';
const DATE_PART_WORDS: Readonly<Record<DatePart, string>> = {
  yearOfBirth: '(?:year|yyyy|yy|yr)',
  monthOfBirth: '(?:month|mon|mm|mo)',
  dayOfBirth: '(?:day|dd)',
};
const DATE_PARTS: readonly (readonly [DatePart, RegExp])[] = (Object.entries(DATE_PART_WORDS) as [DatePart, string][]).map(([part, word]) => [
  part,
  new RegExp(`^(?:${DATE_STEM}${word}|${word}(?:of)?${DATE_STEM})$`),
]);

/** The part of a date of birth a header key names ("birth_month", "dob_dd", "Year of birth"), or null. */
export function datePartOf(key: string): DatePart | null {
  for (const [part, pattern] of DATE_PARTS) if (pattern.test(key)) return part;
  return null;
}

/**
 * A date of birth over three columns (year, month and day: "birth_year", "birth_month",
 * "birth_day") is read as one date; a year and a month give the year. Without a month column
 * nothing changes ("birthday" stays the whole date; "birth_year" the year). Columns the user
 * mapped are left as they are.
 */
function splitDateColumns(headers: readonly string[], columns: (ContactField | null)[], fixed: ReadonlySet<number>, notes: string[]): void {
  const found: Partial<Record<DatePart, number>> = {};
  headers.forEach((header, i) => {
    if (fixed.has(i)) return;
    const part = datePartOf(headerKey(header));
    if (part !== null && found[part] === undefined && (columns[i] === null || columns[i] === 'dateOfBirth' || columns[i] === 'yearOfBirth')) found[part] = i;
  });
  const { yearOfBirth: year, monthOfBirth: month, dayOfBirth: day } = found;
  if (year === undefined || month === undefined) return;
  if (columns.some((f, i) => f === 'yearOfBirth' && i !== year)) return;
  const parts = [year, month, ...(day !== undefined ? [day] : [])];
  columns[year] = 'yearOfBirth';
  columns[month] = 'monthOfBirth';
  if (day !== undefined) columns[day] = 'dayOfBirth';
  notes.push(`columns ${parts.map((i) => `"${headers[i] ?? ''}"`).join(', ')} are read as one date of birth`);
}

/** One line per mapped column ("given_name -> firstName") and the columns left out. */
export function describePlan(plan: HeaderPlan): { mapped: string[]; ignored: string[] } {
  const mapped: string[] = [];
  const ignored: string[] = [];
  plan.headers.forEach((h, i) => {
    const field = plan.columns[i];
    if (i === plan.idColumn) mapped.push(`${h} -> id`);
    else if (field === 'identifier') mapped.push(`${h} -> identifier (${plan.identifierTypes[i] ?? h})`);
    else if (field) mapped.push(`${h} -> ${field}`);
    else {
      const fallback = plan.addressFallbacks.find((f) => Object.values(f.columns).includes(i));
      const part = fallback === undefined ? undefined : Object.entries(fallback.columns).find(([, at]) => at === i)?.[0];
      if (part === undefined) ignored.push(h);
      else mapped.push(`${h} -> ${part} (where the row's first address is empty)`);
    }
  });
  return { mapped, ignored };
}

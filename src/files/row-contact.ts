/**
 * One CSV row -> the engine's ContactInput, by a header plan. Pure and total: any cells in,
 * a contact out (values trimmed; empty cells are absent; a missing cell of a short row is
 * empty).
 */
import {
  DEFAULT_NICKNAMES,
  DEFAULT_PLACEHOLDERS,
  foldCompact,
  isTitle,
  nameFromEmail,
  normalizeName,
  parseFullName,
  placeholderNames,
  type AddressInput,
  type ContactInput,
  type DateOrder,
  type IdentifierInput,
  type PhoneInput,
} from '../engine/index.js';
import { DAY_MONTH_DATE, type FileDateOrder } from './date-order.js';
import type { ContactField, HeaderPlan } from './header-map.js';

/** Column indexes per field, computed once per file. */
export interface RowLayout {
  readonly single: Readonly<Partial<Record<ContactField, number>>>;
  readonly emails: readonly number[];
  readonly phones: readonly number[];
  /** Identifier columns and their types. */
  readonly identifiers: readonly { readonly column: number; readonly type: string }[];
  /** Attribute columns, in the plan's order. */
  readonly attributes: readonly number[];
  readonly idColumn: number | null;
  /** Separators of the numeric dates the file writes in the other order than the engine reads them (see {@link compileRowLayout}). */
  readonly swapDayMonth: ReadonlySet<string>;
  /** Other addresses of the person's own, read in turn where a row leaves the chosen one empty. */
  readonly addressFallbacks: HeaderPlan['addressFallbacks'];
}

/**
 * Precomputes where each field is read from. `dates`: the order the engine reads numeric
 * dates in, and the file's own where it is known (HeaderPlan.dateOrder) and the user did not
 * set one: day and month are swapped where the two differ.
 */
export function compileRowLayout(plan: HeaderPlan, dates: { readonly engine: DateOrder; readonly file: FileDateOrder | null } | null = null): RowLayout {
  const single: Partial<Record<ContactField, number>> = {};
  const emails: number[] = [];
  const phones: number[] = [];
  const identifiers: { column: number; type: string }[] = [];
  plan.columns.forEach((field, i) => {
    if (field === null) return;
    if (field === 'email') emails.push(i);
    else if (field === 'phone') phones.push(i);
    else if (field === 'identifier') identifiers.push({ column: i, type: plan.identifierTypes[i] ?? plan.headers[i] ?? 'id' });
    else if (field !== 'attribute' && single[field] === undefined) single[field] = i;
  });
  const swapDayMonth = new Set<string>();
  if (dates !== null && dates.file !== null && dates.engine !== 'ymd') {
    for (const [sep, order] of Object.entries(dates.file.orders)) if (order !== dates.engine && order !== 'ymd') swapDayMonth.add(sep);
  }
  const addressFallbacks = plan.addressFallbacks;
  return { single, emails, phones, identifiers, attributes: plan.attributes, idColumn: plan.idColumn, swapDayMonth, addressFallbacks };
}

/**
 * What separates the addresses of a cell: an address is a run of anything else with an "@"
 * that has something on both sides ("ada@x.org", "mailto:ada@x.org"). Splitting, rather than
 * one regex matching runs around an "@", keeps a long cell linear.
 */
const CELL_SEPARATORS = /[\s<>;,"'()[\]]+/;
/**
 * "Display Name <addr@x>" (the cell trimmed): the name before the angle brackets, and what
 * they hold. The name is at most 100 characters, so trying its lengths stays linear.
 */
const DISPLAY_NAME = /^"?([^"<>@]{2,100}?)"?\s*<([^<>]+)>$/;

/** Whether a text has an "@" with something before and after it. */
function hasInnerAt(text: string): boolean {
  const at = text.indexOf('@', 1);
  return at !== -1 && at < text.length - 1;
}

/**
 * The email addresses of a cell (several may be separated by spaces, commas or semicolons;
 * each may carry a display name, "Ada Lovelace <ada@x.org>"), and the display name when the
 * cell holds exactly one address with one.
 */
export function emailsInCell(text: string): { emails: string[]; displayName: string | null } {
  const emails = text
    .split(CELL_SEPARATORS)
    .filter(hasInnerAt)
    .map((e) => e.replace(/^mailto:/i, ''));
  let display: string | null = null;
  if (emails.length === 1) {
    // Trimmed first, so no quantifier competes for the spaces around the name; the name's
    // two characters may still count one space before it (" A <ada@x.org>" names "A").
    const cut = text.trimEnd();
    const trimmed = cut.trimStart();
    const named = DISPLAY_NAME.exec(trimmed) ?? (trimmed.length < cut.length ? DISPLAY_NAME.exec(cut.slice(cut.length - trimmed.length - 1)) : null);
    if (named?.[1] !== undefined && named[2] !== undefined && hasInnerAt(named[2])) display = named[1].trim();
  }
  return { emails, displayName: display !== null && display.length > 0 ? display : null };
}
/** Separators between several phones in one cell (not "," or spaces: they format numbers). */
const PHONE_SEPARATORS = /\s*[;|]\s*/;
const ISO_ALPHA2 = /^[A-Z]{2}$/i;

/** The address columns a row may fill, each named as the address field it fills. */
const ADDRESS_FIELDS = [
  'addressLine1',
  'addressLine2',
  'addressLine3',
  'streetNumber',
  'streetName',
  'city',
  'stateOrProvince',
  'zipOrPostalCode',
] as const satisfies readonly (keyof AddressInput & ContactField)[];

/** Two spaces or more: Mailchimp's separator of an address's parts in one cell. */
const WIDE_GAP = / {2,}/;
const STATE_CODE = /^[A-Z]{2,3}$/i;
const US_ZIP = /^\d{5}(?:-\d{4})?$/;

/**
 * An address written in one cell as Mailchimp's audience export writes it, its parts (street,
 * unit, city, state, postal code, country) two spaces apart ("12 Elm St  Apt 4  Springfield
 * IL  62701  US"), as a one-line address: "12 Elm St, Apt 4, Springfield, IL 62701, US", so
 * that its city and postal code are read (engine address-locality.ts). Other text as it is.
 */
export function spacedAddress(value: string): string {
  const parts = value.split(WIDE_GAP);
  if (parts.length < 3) return value;
  const out: string[] = [];
  for (const part of parts) {
    const before = out[out.length - 1];
    if (before !== undefined && STATE_CODE.test(before) && US_ZIP.test(part)) out[out.length - 1] = `${before} ${part}`;
    else out.push(part);
  }
  return out.join(', ');
}

/**
 * A database export's word for an empty cell: SQL's NULL in capitals, and MySQL's and
 * PostgreSQL's \N. Read as empty in every column: since Null is a surname (placeholders.csv),
 * a file writing NULL in each empty cell would otherwise give everyone without a surname the
 * same one ("Maria NULL" and "Maria NULL" of one zip code matched). A surname Null is written
 * "Null" (an all-capitals file loses it, as it did when the word was a placeholder).
 */
function isNullWord(value: string): boolean {
  return value.length <= 4 && (value === 'NULL' || value === '\\N');
}

function cell(cells: readonly string[], at: number | undefined): string | null {
  if (at === undefined) return null;
  const raw = cells[at];
  if (raw === undefined) return null;
  const value = raw.trim();
  return value.length > 0 && !isNullWord(value) ? value : null;
}

/** The contact a row describes. */
export function rowToContact(cells: readonly string[], layout: RowLayout): ContactInput {
  const s = layout.single;
  const get = (field: ContactField): string | null => cell(cells, s[field]);
  let firstName = get('firstName');
  let middleName = get('middleName');
  let lastName = get('lastName');
  let suffix = get('suffix');
  // A title in the first-name column ("Sir") is no first name: the full name may hold one.
  if (firstName !== null && isTitle(firstName)) firstName = null;
  const emails: string[] = [];
  let displayName: string | null = null;
  for (const at of layout.emails) {
    const value = cell(cells, at);
    if (value === null) continue;
    const found = emailsInCell(value);
    for (const e of found.emails) emails.push(e);
    displayName ??= found.displayName;
  }
  // A display name stands in for a row's names when it has none, or only placeholders ("Test
  // Patient", "Unknown"): "Åsa Andersson <asa@x.org>" beside them names the person.
  if (displayName !== null && (firstName !== null || lastName !== null) && placeholdersOnly(firstName, lastName)) {
    firstName = null;
    lastName = null;
  }
  const full = get('fullName') ?? (firstName === null && lastName === null ? displayName : null);
  if (full !== null) {
    const parts = parseFullName(full);
    const hasFirst = s['firstName'] !== undefined;
    const hasLast = s['lastName'] !== undefined;
    if (firstName === null && lastName === null) {
      firstName = parts.firstName;
      lastName = parts.lastName;
    } else {
      // A column the file lacks is filled from the full name. One the file has but left
      // empty in this row stays empty, unless the full name's other part is the row's: a
      // full name without a surname ("Alfred Enoch") would give a middle name as surname.
      if (lastName === null && !hasLast) lastName = parts.lastName;
      if (firstName === null && (!hasFirst || (parts.lastName !== null && lastName !== null && sameName(parts.lastName, lastName))))
        firstName = parts.firstName;
    }
    if (middleName === null && parts.middleName !== null && (firstName === null || parts.firstName === null || sameName(parts.firstName, firstName)))
      middleName = parts.middleName;
    suffix ??= parts.suffix;
  }
  // A row with no name, or placeholders only ("Test Test"), whose email spells one
  // ("ali.nasser1800353@..."): that name, so that the person's other rows, which may hold the
  // name and no email, are found and compared.
  if (emails.length > 0 && ((firstName === null && lastName === null) || placeholdersOnly(firstName, lastName))) {
    for (const email of emails) {
      const spelt = nameFromEmail(email.toLowerCase(), DEFAULT_NICKNAMES, DEFAULT_PLACEHOLDERS);
      if (spelt === null) continue;
      firstName = spelt.firstName;
      lastName = spelt.lastName;
      break;
    }
  }
  const country = get('countryCode');
  const phones: (PhoneInput | string)[] = [];
  const phoneCountry = country !== null && ISO_ALPHA2.test(country) ? country.toUpperCase() : null;
  for (const at of layout.phones) {
    const value = cell(cells, at);
    if (value === null) continue;
    for (const p of value.split(PHONE_SEPARATORS)) {
      if (p.length === 0) continue;
      phones.push(phoneCountry === null ? p : { phoneNumber: p, countryCode: phoneCountry });
    }
  }
  const address: { -readonly [K in keyof AddressInput]: AddressInput[K] } = {};
  // The chosen address, then the person's other addresses in turn where it is empty (no array made per row).
  const fallbacks = layout.addressFallbacks;
  for (let g = -1; g < fallbacks.length; g++) {
    const columns = g < 0 ? s : (fallbacks[g] as (typeof fallbacks)[number]).columns;
    for (const field of ADDRESS_FIELDS) {
      const value = cell(cells, columns[field]);
      if (value !== null) address[field] = value;
    }
    if (Object.keys(address).length > 0) break;
  }
  // A one-cell address without locality columns: Mailchimp's parts two spaces apart are read as a one-line address's.
  if (typeof address.addressLine1 === 'string' && address.city === undefined && address.stateOrProvince === undefined && address.zipOrPostalCode === undefined)
    address.addressLine1 = spacedAddress(address.addressLine1);
  const hasAddress = Object.keys(address).length > 0;
  if (hasAddress && country !== null) address.countryCode = country;
  const identifiers: IdentifierInput[] = [];
  for (const { column, type } of layout.identifiers) {
    const value = cell(cells, column);
    // Identifiers compare without their punctuation: 123-45-6789 is 123456789.
    const compact = value === null ? '' : value.replace(/[\s\-./]+/g, '');
    if (compact.length > 0) identifiers.push({ type, externalId: compact });
  }
  const contact: ContactInput = {
    firstName,
    middleName,
    lastName,
    suffix,
    dateOfBirth:
      datedCell(get('dateOfBirth') ?? wholeDateInDay(get('dayOfBirth')), layout) ?? dateFromParts(get('yearOfBirth'), get('monthOfBirth'), get('dayOfBirth')),
    emails,
    phones,
    addresses: hasAddress ? [address] : [],
    identifiers,
    sex: get('sex'),
    attributes: layout.attributes.map((at) => cell(cells, at)),
  };
  return contact;
}

/**
 * A date of birth from its columns (header-map.ts splitDateColumns): "1980-02-01" from 1980,
 * 2 and 1; "1 Feb 1980" from a month written as a word; the year alone when the month or the
 * day is missing or not a number of its range. Null without a year.
 */
export function dateFromParts(yearCell: string | null, monthCell: string | null, dayCell: string | null): string | null {
  const [year, month, day] = [whole(yearCell), whole(monthCell), whole(dayCell)];
  if (year === null) return null;
  if (month === null || day === null || !/^\d{1,2}$/.test(day)) return year;
  if (/^[a-z]{3,9}\.?$/i.test(month)) return `${day} ${month} ${year}`;
  const [y, m, d] = [Number(year), Number(month), Number(day)];
  if (!/^\d{1,2}$/.test(month) || !/^\d{2}$|^\d{4}$/.test(year) || m < 1 || m > 12 || d < 1) return year;
  // Not past the month's last day (31 February is no date: the year alone is).
  if (d > new Date(Date.UTC(2000, m, 0)).getUTCDate() || (m === 2 && d === 29 && year.length === 4 && new Date(Date.UTC(y, 1, 29)).getUTCMonth() !== 1))
    return year;
  // A two-digit year: the month as a word, so that the engine reads the year as it reads "1 Feb 80".
  return year.length === 2 ? `${d} ${MONTH_WORDS[m - 1] ?? ''} ${year}` : `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
}

const MONTH_WORDS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A whole number written as a float ("13.0", "1965.0": pandas writes a column with gaps so) as the number; anything else as it is. */
function whole(cell: string | null): string | null {
  return cell === null ? null : cell.replace(/^(\d+)\.0+$/, '$1');
}

/**
 * A spreadsheet's date serial, as a date column formatted "General" exports it: five digits,
 * days since 1899-12-30 (Excel and LibreOffice), 10000-60000 being 1927-05-18 to 2064-04-08.
 * No other date reads as five digits (a year has four, YYYYMMDD eight).
 */
const EXCEL_SERIAL = /^[1-5]\d{4}$|^60000$/;
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

/** The ISO date of a spreadsheet date serial ("23875" -> "1965-05-13"). */
export function excelDate(serial: number): string {
  return new Date(EXCEL_EPOCH_MS + serial * 86_400_000).toISOString().slice(0, 10);
}

/**
 * A whole date where the day's column holds one: a "Birthday" column beside "Birth Month" and
 * "Birth Year" may hold the date itself ("1965-05-13"), not its day. Null for a day (1-2 digits).
 */
function wholeDateInDay(day: string | null): string | null {
  return day !== null && !/^\d{1,2}(?:\.0+)?$/.test(day) ? day : null;
}

/**
 * A date cell in the order the engine reads: a spreadsheet's date serial as its date; the day
 * and the month swapped where the file writes dates of its separator in the other order
 * (`layout.swapDayMonth`: "07/03/1843" of a file written day first, read month first, is
 * "03/07/1843"). Other cells as they are.
 */
function datedCell(value: string | null, layout: RowLayout): string | null {
  if (value === null) return value;
  if (EXCEL_SERIAL.test(value)) return excelDate(Number(value));
  if (layout.swapDayMonth.size === 0) return value;
  const m = DAY_MONTH_DATE.exec(value);
  return m === null || !layout.swapDayMonth.has(m[2] ?? '') ? value : `${m[3] ?? ''}${m[2] ?? ''}${m[1] ?? ''}${m[2] ?? ''}${m[4] ?? ''}${m[5] ?? ''}`;
}

/** The id of a row: its id column's value, else its 1-based data row number. */
export function rowId(cells: readonly string[], layout: RowLayout, rowNumber: number): string {
  if (layout.idColumn === null) return String(rowNumber);
  return (cells[layout.idColumn] ?? '').trim();
}

/** True when every name given is a placeholder (engine placeholders.ts, the default table). */
function placeholdersOnly(firstName: string | null, lastName: string | null): boolean {
  // Most rows hold real names: a lookup of their plain lower-case letters rules them out
  // before the names are normalized (a placeholder is ASCII: "unknown", "test", "n/a").
  const f = firstName === null ? null : plain(firstName);
  const l = lastName === null ? null : plain(lastName);
  const t = DEFAULT_PLACEHOLDERS;
  const maybe = (f === null || t.first.has(f)) && (l === null || t.last.has(l));
  if (!maybe && (f === null || l === null || !t.names.has(`${f} ${l}`))) return false;
  const name = normalizeName({ firstName, lastName });
  const fake = placeholderNames(DEFAULT_PLACEHOLDERS, name.first, name.last);
  return (name.first === null || fake.first) && (name.last === null || fake.last);
}

/** Lower-case letters and digits only (the form placeholder tables hold, for ASCII text). */
function plain(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/** The same name once case, accents and punctuation are ignored. */
function sameName(a: string, b: string): boolean {
  return foldCompact(a) === foldCompact(b);
}

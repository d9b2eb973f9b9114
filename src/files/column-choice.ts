/**
 * Which column feeds a field that several columns name: the person's own before another
 * use's ("Home Phone" before "Work Phone", "Home Street" before "Business Street"), and all
 * the parts of the address from one group of columns ("Home Street", "Home City", "Home
 * State"...), so that the street of one address is never combined with the zip of another.
 * Outlook's CSV export writes Business, Home and Other addresses, Business first.
 */
import { ADDRESS_INPUT_FIELDS } from '../engine/index.js';
import { HEADER_PREFIXES, headerKey, MULTI_VALUE_FIELDS, PERSON_PREFIXES, type ContactField } from './header-fields.js';

/** The fields of an address, taken from one group of columns. */
export const ADDRESS_FIELDS: ReadonlySet<ContactField> = new Set(ADDRESS_INPUT_FIELDS);

/** Fields that make a group of address columns an address (a street or a city), not a lone zip. */
const ADDRESS_CORE: ReadonlySet<ContactField> = new Set(['addressLine1', 'streetName', 'streetNumber', 'city']);

/**
 * How much a use word says the column is the person's own: 0 their own (home, residential,
 * mailing, personal; or no word), 1 primary/main/current, 2 another one of theirs (other,
 * alt, secondary), 3 their work's (work, business, office). Lower is preferred.
 */
export const USE_RANKS: ReadonlyMap<string, number> = new Map([
  ['', 0],
  ['home', 0],
  ['residential', 0],
  ['res', 0],
  ['residence', 0],
  ['mailing', 0],
  ['mail', 0],
  ['personal', 0],
  ['private', 0],
  ['physical', 0],
  ['postal', 0],
  ['primary', 1],
  ['main', 1],
  ['current', 1],
  ['preferred', 1],
  ['other', 2],
  ['alt', 2],
  ['alternate', 2],
  ['secondary', 2],
  ['work', 3],
  ['business', 3],
  ['office', 3],
]);

/** The use a column's header names (a prefix, or a word in brackets: "Address (Work)"), "" for none or the person. */
export function useOfHeader(header: string, field: ContactField, fieldOf: (header: string) => ContactField | null): string {
  for (const bracket of header.match(/\([^()]*\)|\[[^[\]]*\]/g) ?? []) {
    const word = headerKey(bracket);
    if (USE_RANKS.has(word)) return word;
  }
  const bare = header.replace(/\([^()]*\)|\[[^[\]]*\]/g, ' ');
  const key = headerKey(bare);
  let best = '';
  for (const prefix of HEADER_PREFIXES) {
    if (prefix.length <= best.length || !key.startsWith(prefix) || key.length <= prefix.length) continue;
    // The rest as a key ("homephone": "phone"), or as written ("Mailing Zip/Postal Code": "Zip/Postal Code", which names one field two ways).
    if (fieldOf(key.slice(prefix.length)) === field || fieldOf(textAfter(bare, prefix)) === field) best = prefix;
  }
  return PERSON_PREFIXES.has(best) ? '' : best;
}

/** `header`'s text after the words that make `prefix` (a header key), "" when they do not. */
function textAfter(header: string, prefix: string): string {
  for (let i = 1; i <= header.length; i++) if (headerKey(header.slice(0, i)) === prefix) return header.slice(i);
  return '';
}

/** Another address of the person's own, read where a row leaves the chosen one empty: its use word and its columns. */
export interface AddressFallback {
  readonly use: string;
  readonly columns: Readonly<Partial<Record<ContactField, number>>>;
}

/**
 * The groups of address columns of the person's own other than the chosen `group` (use rank
 * at most 1: NationBuilder's "primary_" address beside its "mailing_" one), best rank first,
 * each with a street or a city. A row whose chosen address is empty (NationBuilder fills the
 * mailing address for some people only) is read from the first of them it fills.
 */
function fallbackAddresses(
  fields: readonly (ContactField | null)[],
  uses: readonly string[],
  group: string | null,
  taken: ReadonlySet<ContactField>,
): AddressFallback[] {
  const groups = new Map<string, Partial<Record<ContactField, number>>>();
  fields.forEach((field, i) => {
    const use = uses[i] as string;
    if (field === null || !ADDRESS_FIELDS.has(field) || taken.has(field) || use === group || rankOf(use) > 1) return;
    const columns = groups.get(use) ?? {};
    groups.set(use, columns);
    columns[field] ??= i;
  });
  return [...groups.entries()]
    .filter(([, columns]) => Object.keys(columns).some((f) => ADDRESS_CORE.has(f as ContactField)))
    .sort((a, b) => rankOf(a[0]) - rankOf(b[0]))
    .map(([use, columns]) => ({ use, columns }));
}

/** The rank of a use (see {@link USE_RANKS}); a use not listed ranks as the person's own. */
function rankOf(use: string): number {
  return USE_RANKS.get(use) ?? 0;
}

/**
 * Chooses the column of each field among the columns that name it (`fields`, null for
 * none): multi-valued fields (phones, emails) take every column; the address comes from the
 * best-ranked group that has a street or a city (ties: the first); any other field from
 * its best-ranked column (ties: the first). Fields in `taken` (set by the user) take none.
 * Answers each column's field and a note for each column left out.
 */
export function chooseColumns(
  headers: readonly string[],
  fields: readonly (ContactField | null)[],
  taken: ReadonlySet<ContactField>,
  fieldOf: (header: string) => ContactField | null,
): { columns: (ContactField | null)[]; notes: string[]; fallbacks: AddressFallback[] } {
  const uses = headers.map((h, i) => {
    const field = fields[i] ?? null;
    return field === null || MULTI_VALUE_FIELDS.has(field) ? '' : useOfHeader(h, field, fieldOf);
  });
  // The address's group: the best-ranked use with a street or a city, else with any address column.
  let group: string | null = null;
  let groupHasCore = false;
  fields.forEach((field, i) => {
    if (field === null || !ADDRESS_FIELDS.has(field) || taken.has(field)) return;
    const use = uses[i] as string;
    const core = ADDRESS_CORE.has(field);
    if (group === null || (core && !groupHasCore) || (core === groupHasCore && rankOf(use) < rankOf(group))) {
      group = use;
      groupHasCore = core;
    }
  });
  const best = new Map<ContactField, number>();
  fields.forEach((field, i) => {
    if (field === null || MULTI_VALUE_FIELDS.has(field) || taken.has(field)) return;
    if (ADDRESS_FIELDS.has(field) && uses[i] !== group) return;
    const at = best.get(field);
    if (at === undefined || rankOf(uses[i] as string) < rankOf(uses[at] as string)) best.set(field, i);
  });
  const fallbacks = fallbackAddresses(fields, uses, group, taken);
  const fallbackOf = (i: number): AddressFallback | undefined => fallbacks.find((f) => Object.values(f.columns).includes(i));
  const notes: string[] = [];
  const columns = fields.map((field, i): ContactField | null => {
    if (field === null) return null;
    if (MULTI_VALUE_FIELDS.has(field)) return field;
    const at = best.get(field);
    if (at === i) return field;
    const header = headers[i] ?? '';
    const change = `(--map "${header}=..." to change)`;
    const fallback = fallbackOf(i);
    if (fallback !== undefined) {
      notes.push(
        `column "${header}" is part of another address of the person's own (${fallback.use}), read where a row leaves the ${group || 'first'} address empty ${change}`,
      );
    } else if (ADDRESS_FIELDS.has(field) && !taken.has(field) && uses[i] !== group) {
      const read = group === '' ? 'the columns without a use word' : `the ${group} columns`;
      notes.push(`column "${header}" is part of another address (${uses[i] || 'no use word'}); the address is read from ${read} ${change}`);
    } else if (at === undefined) {
      notes.push(`column "${header}" also looks like ${field}; the column given by --map is used ${change}`);
    } else if (fields.indexOf(field) === at) {
      notes.push(`column "${header}" also looks like ${field}; only the first such column is used ${change}`);
    } else {
      notes.push(`column "${header}" also looks like ${field}; column "${headers[at] ?? ''}" is used, the person's own before another use's ${change}`);
    }
    return null;
  });
  return { columns, notes, fallbacks };
}

/**
 * Finds a column by the name a user typed: exactly, else ignoring case and surrounding
 * spaces, else by header key. Error text when none or several match.
 */
export function findColumn(headers: readonly string[], name: string, what: string): number | { error: string } {
  const exact = headers.indexOf(name);
  if (exact !== -1) return exact;
  const lower = name.trim().toLowerCase();
  const byCase = headers.flatMap((h, i) => (h.trim().toLowerCase() === lower ? [i] : []));
  if (byCase.length === 1) return byCase[0] as number;
  const key = headerKey(name);
  const byKey = key.length > 0 ? headers.flatMap((h, i) => (headerKey(h) === key ? [i] : [])) : [];
  if (byKey.length === 1 && byCase.length === 0) return byKey[0] as number;
  if (byCase.length > 1 || byKey.length > 1) return { error: `${what} "${name}": several columns match (${listHeaders(headers)})` };
  return { error: `${what} "${name}": no such column; columns: ${listHeaders(headers)}` };
}

export function listHeaders(headers: readonly string[]): string {
  const shown = headers
    .slice(0, 30)
    .map((h) => JSON.stringify(h))
    .join(', ');
  return headers.length > 30 ? `${shown}, ... (${headers.length} in all)` : shown;
}

/**
 * Header keys only Mailchimp's audience export writes: its "CC", "REGION", "LATITUDE"... are
 * where the subscriber's IP address was located when they signed up, not their address.
 */
const IP_LOCATION_SIGNS: ReadonlySet<string> = new Set(['optinip', 'confirmip', 'gmtoff', 'dstoff']);
const IP_LOCATION_COLUMNS: ReadonlySet<string> = new Set(['cc', 'region', 'latitude', 'longitude', 'timezone']);

/**
 * In a file that locates its rows' IP addresses (Mailchimp), leaves the location's columns out
 * of the address: a "REGION" beside a one-cell "Address" would be read as the address's state
 * (and stop the cell's own city, state and postal code being read).
 */
export function leaveOutIpLocation(headers: readonly string[], fields: (ContactField | null)[], notes: string[]): void {
  if (!headers.some((h) => IP_LOCATION_SIGNS.has(headerKey(h)))) return;
  headers.forEach((header, i) => {
    if (fields[i] === null || !IP_LOCATION_COLUMNS.has(headerKey(header))) return;
    fields[i] = null;
    notes.push(`column "${header}" is where the IP address of the sign-up was located, not the person's address; not used (--map "${header}=..." to use it)`);
  });
}

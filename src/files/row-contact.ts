/**
 * One CSV row -> the engine's ContactInput, by a header plan. Pure and total: any cells in,
 * a contact out (values trimmed; empty cells are absent; a missing cell of a short row is
 * empty).
 */
import { parseFullName, type AddressInput, type ContactInput, type PhoneInput } from '../engine/index.js';
import type { ContactField, HeaderPlan } from './header-map.js';

/** Column indexes per field, computed once per file. */
export interface RowLayout {
  readonly single: Readonly<Partial<Record<ContactField, number>>>;
  readonly emails: readonly number[];
  readonly phones: readonly number[];
  readonly idColumn: number | null;
}

/** Precomputes where each field is read from. */
export function compileRowLayout(plan: HeaderPlan): RowLayout {
  const single: Partial<Record<ContactField, number>> = {};
  const emails: number[] = [];
  const phones: number[] = [];
  plan.columns.forEach((field, i) => {
    if (field === null) return;
    if (field === 'email') emails.push(i);
    else if (field === 'phone') phones.push(i);
    else if (single[field] === undefined) single[field] = i;
  });
  return { single, emails, phones, idColumn: plan.idColumn };
}

/** Separators between several emails in one cell. */
const EMAIL_SEPARATORS = /[\s;,]+/;
/** Separators between several phones in one cell (not "," or spaces: they format numbers). */
const PHONE_SEPARATORS = /\s*[;|]\s*/;
const ISO_ALPHA2 = /^[A-Za-z]{2}$/;

function cell(cells: readonly string[], at: number | undefined): string | null {
  if (at === undefined) return null;
  const raw = cells[at];
  if (raw === undefined) return null;
  const value = raw.trim();
  return value.length > 0 ? value : null;
}

/** The contact a row describes. */
export function rowToContact(cells: readonly string[], layout: RowLayout): ContactInput {
  const s = layout.single;
  const get = (field: ContactField): string | null => cell(cells, s[field]);
  let firstName = get('firstName');
  let middleName = get('middleName');
  let lastName = get('lastName');
  let suffix = get('suffix');
  const full = get('fullName');
  if (full !== null) {
    const parts = parseFullName(full);
    firstName ??= parts.firstName;
    lastName ??= parts.lastName;
    middleName ??= parts.middleName;
    suffix ??= parts.suffix;
  }
  const country = get('countryCode');
  const emails: string[] = [];
  for (const at of layout.emails) {
    const value = cell(cells, at);
    if (value === null) continue;
    for (const e of value.split(EMAIL_SEPARATORS)) if (e.length > 0) emails.push(e);
  }
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
  let hasAddress = false;
  const put = (key: keyof AddressInput, field: ContactField): void => {
    const value = get(field);
    if (value !== null) {
      address[key] = value;
      hasAddress = true;
    }
  };
  put('addressLine1', 'addressLine1');
  put('addressLine2', 'addressLine2');
  put('addressLine3', 'addressLine3');
  put('streetNumber', 'streetNumber');
  put('streetName', 'streetName');
  put('city', 'city');
  put('stateOrProvince', 'stateOrProvince');
  put('zipOrPostalCode', 'zipOrPostalCode');
  if (hasAddress && country !== null) address.countryCode = country;
  const contact: ContactInput = {
    firstName,
    middleName,
    lastName,
    suffix,
    dateOfBirth: get('dateOfBirth'),
    emails,
    phones,
    addresses: hasAddress ? [address] : [],
  };
  return contact;
}

/** The id of a row: its id column's value, else its 1-based data row number. */
export function rowId(cells: readonly string[], layout: RowLayout, rowNumber: number): string {
  if (layout.idColumn === null) return String(rowNumber);
  return (cells[layout.idColumn] ?? '').trim();
}

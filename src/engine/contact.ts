/**
 * Normalizes a whole contact: names, date of birth, emails, phones, addresses, identifiers.
 * Values that cannot be normalized (an invalid phone, a date that is not a date) are left
 * out of the normalized contact: they cannot count as evidence either way.
 */
import { writtenNames } from './written-names.js';
import { normalizeAddress } from './address.js';
import { foldText } from './fold.js';
import { normalizeDate, type DateOrder } from './date.js';
import { normalizeEmail } from './email.js';
import { normalizeName } from './name.js';
import { normalizePhone, type PhoneMemo } from './phone.js';
import {
  DEFAULT_PLACEHOLDERS,
  isPlaceholderAddress,
  isPlaceholderDate,
  isPlaceholderEmail,
  isPlaceholderIdentifier,
  isPlaceholderPhone,
  placeholderNames,
  type PlaceholderTable,
} from './placeholders.js';
import { normalizeSex, sexOfTitle } from './sex.js';
import type { AddressInput, ContactInput, NormalizedAddress, NormalizedContact, PhoneInput } from './types.js';

/** Options of contact normalization. */
export interface NormalizeOptions {
  /** ISO alpha-2 country for phones and postal codes without one. Default "US". */
  readonly defaultCountry?: string;
  /** Day/month order of ambiguous dates such as 03/04/1975. Default 'mdy'. */
  readonly dateOrder?: DateOrder;
  /** Remembers recent address normalizations (the results are the same without it). */
  readonly addressMemo?: AddressMemo;
  /** Remembers libphonenumber's phone parses (the results are the same without it). */
  readonly phoneMemo?: PhoneMemo;
  /** Values read as missing. Default {@link DEFAULT_PLACEHOLDERS}; NO_PLACEHOLDERS keeps every value. */
  readonly placeholders?: PlaceholderTable;
  /**
   * Accepted years of birth. Default 1900-2100 (the contract's 20th and 21st centuries);
   * files of historical records pass wider bounds (date.ts HISTORICAL_YEARS).
   */
  readonly years?: { readonly min: number; readonly max: number };
  /** Keep a date of birth known only by its year ("1875", "c. 1875"). Default false. */
  readonly yearOnlyDates?: boolean;
  /**
   * Keep a seven-digit local phone number (no area code) as a partial phone ("L" and its
   * digits), which agrees with the last seven digits of a full number. Default false: such a
   * number is invalid and left out.
   */
  readonly localPhones?: boolean;
  /** Area code completing seven-digit local numbers (North American), e.g. "202". */
  readonly areaCode?: string;
  /**
   * Read a city, state and postal code off the end of an address line where the address has
   * none of those fields ("12 Main St, Springfield, MA 01101": address.ts oneLine). Default false.
   */
  readonly oneLineAddresses?: boolean;
}

/**
 * A bounded memo of address normalizations, owned by its caller. Parsing an address is about
 * half of normalizing a contact, and a server normalizes the same address twice when a
 * findOrCreate updates a record: once in the query, once in the updated record. Pure
 * otherwise: the same input and country give the same (shared, read-only) result.
 */
export class AddressMemo {
  private readonly results = new Map<string, NormalizedAddress>();

  /** `capacity`: entries kept; when full, the memo starts over. */
  constructor(private readonly capacity = 256) {}

  normalize(raw: AddressInput, defaultCountry: string, oneLine = false): NormalizedAddress {
    const key = memoKey(raw, defaultCountry, oneLine);
    if (key === null) return normalizeAddress(raw, { defaultCountry, oneLine });
    const known = this.results.get(key);
    if (known !== undefined) return known;
    const address = normalizeAddress(raw, { defaultCountry, oneLine });
    if (this.results.size >= this.capacity) this.results.clear();
    this.results.set(key, address);
    return address;
  }
}

/** The fields of an address a contact's input may hold, in the order they are read. */
export const ADDRESS_INPUT_FIELDS = [
  'addressLine1',
  'addressLine2',
  'addressLine3',
  'streetNumber',
  'streetName',
  'city',
  'stateOrProvince',
  'zipOrPostalCode',
  'countryCode',
] as const;

/**
 * The memo key of an address: the country and each field, length-prefixed so that no two
 * inputs share a key whatever their characters; null when a field is not a string (not memoized).
 */
function memoKey(raw: AddressInput | null | undefined, defaultCountry: string, oneLine: boolean): string | null {
  if (typeof raw !== 'object' || raw === null) return null;
  let key = `${oneLine ? 'o' : ''}${defaultCountry.length}:${defaultCountry}`;
  for (const field of ADDRESS_INPUT_FIELDS) {
    const value = raw[field];
    if (value === undefined || value === null) key += '-';
    else if (typeof value === 'string') key += `${value.length}:${value}`;
    else return null;
  }
  return key;
}

/** Default country of phones and addresses: "US". */
export const DEFAULT_COUNTRY = 'US';

function isEmptyAddress(a: NormalizedAddress): boolean {
  return a.number === null && a.street === null && a.unit === null && a.building === null && a.city === null && a.state === null && a.zip === null;
}

function pushUnique(list: string[], value: string): void {
  if (!list.includes(value)) list.push(value);
}

const NO_ATTRIBUTES: readonly (string | null)[] = Object.freeze([]);
const NON_DIGITS = /\D+/g;

/**
 * Normalizes a contact. Total: never throws, whatever the strings hold. Placeholder values
 * ("Unknown", "Baby Boy", none@none.com, 000-00-0000, GENERAL DELIVERY) are left out, like
 * values that cannot be normalized: they cannot count as evidence either way.
 */
export function normalizeContact(input: ContactInput, options: NormalizeOptions = {}): NormalizedContact {
  const country = options.defaultCountry ?? DEFAULT_COUNTRY;
  const placeholders = options.placeholders ?? DEFAULT_PLACEHOLDERS;
  const name = normalizeName(input);
  const fake = placeholderNames(placeholders, name.first, name.last);
  let dob: string | null = null;
  if (typeof input.dateOfBirth === 'string' && input.dateOfBirth.length > 0) {
    const date = normalizeDate(input.dateOfBirth, { order: options.dateOrder, years: options.years, yearOnly: options.yearOnlyDates });
    if (date.ok && !isPlaceholderDate(placeholders, date.value.iso)) dob = date.value.iso;
  }
  const emails: string[] = [];
  for (const raw of input.emails ?? []) {
    if (typeof raw !== 'string') continue;
    const email = normalizeEmail(raw);
    if (email.ok && !isPlaceholderEmail(placeholders, email.value.email)) pushUnique(emails, email.value.mailbox);
  }
  const phones: string[] = [];
  for (const raw of input.phones ?? []) {
    const phone = normalizeOnePhone(raw, country, options, placeholders);
    if (phone !== null) pushUnique(phones, phone);
  }
  const addresses: NormalizedAddress[] = [];
  const memo = options.addressMemo;
  const oneLine = options.oneLineAddresses === true;
  for (const raw of input.addresses ?? []) {
    const parsed = memo !== undefined ? memo.normalize(raw, country, oneLine) : normalizeAddress(raw, { defaultCountry: country, oneLine });
    const address = withoutPlaceholderStreet(parsed, placeholders);
    if (!isEmptyAddress(address)) addresses.push(address);
  }
  const identifiers: string[] = [];
  for (const id of input.identifiers ?? []) {
    if (typeof id.type === 'string' && typeof id.externalId === 'string' && isPlaceholderIdentifier(placeholders, id.type, id.externalId)) continue;
    const comparable = comparableIdentifier(id.type, id.externalId);
    if (comparable !== null) pushUnique(identifiers, comparable);
  }
  const sex = normalizeSex(input.sex) ?? sexOfTitle(input.title);
  const attributes = input.attributes === undefined || input.attributes.length === 0 ? NO_ATTRIBUTES : input.attributes.map(normalizeAttribute);
  // A literal with a fixed key order: every contact shares one hidden class (a spread gave
  // records varying shapes and cost about 20% of index build time, bench/README.md).
  return {
    first: fake.first ? null : name.first,
    middle: name.middle,
    last: fake.last ? null : name.last,
    suffix: name.suffix,
    dob,
    emails,
    phones,
    addresses,
    identifiers,
    sex,
    attributes,
    written: writtenNames(input),
  };
}

/** A phone in E.164; a local seven-digit number as "L" and its digits (when asked for); or null. */
function normalizeOnePhone(raw: PhoneInput | string, country: string, options: NormalizeOptions, placeholders: PlaceholderTable): string | null {
  const text = phoneTextOf(raw);
  const digits = text.replace(NON_DIGITS, '');
  if (digits.length >= 7 && isPlaceholderPhone(placeholders, digits)) return null;
  const phone = normalizePhone(raw, country, options.phoneMemo);
  if (phone.ok) return phone.value.e164;
  if (digits.length === 7 && !text.trim().startsWith('+')) {
    if (options.areaCode !== undefined) {
      const full = normalizePhone(options.areaCode + digits, country, options.phoneMemo);
      if (full.ok) return full.value.e164;
    }
    if (options.localPhones === true) return LOCAL_PHONE_PREFIX + digits;
  }
  return null;
}

/**
 * A phone's text as given: the string, or the object's `phoneNumber` (a number printed); ''
 * for anything else, such as a null in an untyped caller's list (normalization is total).
 */
function phoneTextOf(raw: PhoneInput | string | null | undefined): string {
  if (typeof raw === 'string') return raw;
  const number: unknown = raw?.phoneNumber;
  return typeof number === 'string' ? number : typeof number === 'number' ? String(number) : '';
}

/** Prefix of a local seven-digit number in a normalized phone list (compare.ts reads it too). */
const LOCAL_PHONE_PREFIX = 'L';

/**
 * Which supplied fields of a contact hold placeholders that normalization reads as missing
 * ("first name", "last name", "date of birth", "email", "phone", "street address", "identifier"), for an
 * answer that says why a request matched no one.
 */
export function placeholdersIn(input: ContactInput, placeholders: PlaceholderTable = DEFAULT_PLACEHOLDERS): string[] {
  const out: string[] = [];
  const name = normalizeName(input);
  const fake = placeholderNames(placeholders, name.first, name.last);
  if (fake.first) out.push('first name');
  if (fake.last) out.push('last name');
  if (typeof input.dateOfBirth === 'string' && input.dateOfBirth.length > 0) {
    const date = normalizeDate(input.dateOfBirth);
    if (date.ok && isPlaceholderDate(placeholders, date.value.iso)) out.push('date of birth');
  }
  if (
    (input.emails ?? []).some((raw) => {
      if (typeof raw !== 'string') return false;
      const email = normalizeEmail(raw);
      return email.ok && isPlaceholderEmail(placeholders, email.value.email);
    })
  )
    out.push('email');
  if (
    (input.phones ?? []).some((raw) => {
      const digits = phoneTextOf(raw).replace(NON_DIGITS, '');
      return digits.length >= 7 && isPlaceholderPhone(placeholders, digits);
    })
  )
    out.push('phone');
  if (
    (input.addresses ?? []).some((raw) => {
      const a = normalizeAddress(raw);
      return a.street !== null && withoutPlaceholderStreet(a, placeholders).street === null;
    })
  )
    out.push('street address');
  if (
    (input.identifiers ?? []).some(
      (id) => typeof id.type === 'string' && typeof id.externalId === 'string' && isPlaceholderIdentifier(placeholders, id.type, id.externalId),
    )
  ) {
    out.push('identifier');
  }
  return out;
}

/** An address whose street line is a placeholder ("general delivery") keeps only its locality. */
function withoutPlaceholderStreet(a: NormalizedAddress, placeholders: PlaceholderTable): NormalizedAddress {
  if (a.street === null || placeholders.addresses.size === 0) return a;
  const line = a.number === null ? a.street : `${a.number} ${a.street}`;
  if (!isPlaceholderAddress(placeholders, a.street) && !isPlaceholderAddress(placeholders, line)) return a;
  return { ...a, number: null, street: null, unit: null };
}

/** Longest attribute value compared (characters); longer text is cut. */
export const MAX_ATTRIBUTE_LENGTH = 100;

function normalizeAttribute(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const folded = foldText(value.length > MAX_ATTRIBUTE_LENGTH ? value.slice(0, MAX_ATTRIBUTE_LENGTH) : value);
  return folded.length > 0 && folded !== 'unknown' && folded !== 'na' && folded !== 'none' ? folded : null;
}

/**
 * An identifier type or value as identifiers are compared: trimmed and lower-cased
 * (interface.md 1.6: external identifiers are case-insensitive).
 */
export function foldIdentifier(text: string): string {
  return text.trim().toLowerCase();
}

/**
 * The comparable form of an external identifier: "type:externalid", each part folded by
 * {@link foldIdentifier}. Null when either part is empty.
 */
export function comparableIdentifier(type: string, externalId: string): string | null {
  if (typeof type !== 'string' || typeof externalId !== 'string') return null;
  const t = foldIdentifier(type);
  const v = foldIdentifier(externalId);
  return t.length > 0 && v.length > 0 ? `${t}:${v}` : null;
}

/**
 * The stored normalization: the engine's normalized form of a person, stored beside the
 * record so that the index of a tenant+context loads by parsing it instead of normalizing
 * every person again (name folding, address parsing and phone parsing are most of the load
 * time).
 *
 * A stored normalization is only as good as the normalizer that made it. Each is stored with a
 * fingerprint of the running normalizer: a hash of what it makes of a fixed set of probe
 * contacts that exercise every normalization (names with accents, particles and suffixes,
 * nicknames, dates, provider email aliases, national and international phones with
 * extensions, addresses with suffixes, directionals, units and ZIP+4, identifiers) under the
 * index's default country. When an engine upgrade or a new default country changes any
 * output, the fingerprint changes and the index load re-normalizes those rows and stores the
 * new normalizations. A change that no probe shows goes unnoticed: add a probe with such a change.
 */
import { ADDRESS_INPUT_FIELDS, sexedTitleOf, type ContactIndex, type ContactInput, type NormalizedContact } from '../engine/index.js';
import type { PersonRecord } from '../store/index.js';
import type { ValidCandidate } from './candidate.js';

/**
 * What the engine compares of a stored person or a validated candidate. Phones go in as
 * E.164 (validation already applied the country rules), so their normalization cannot drift.
 */
export function engineInput(x: {
  readonly scalars: ValidCandidate['scalars'] | PersonRecord['scalars'];
  readonly emails: readonly { readonly email: string }[];
  readonly phones: readonly { readonly e164: string; readonly ext: string | null }[];
  readonly addresses: ContactInput['addresses'];
  readonly identifiers: readonly { readonly type: string; readonly externalId: string }[];
}): ContactInput {
  const s = x.scalars;
  const str = (v: string | number | null | undefined): string | null => (v === undefined || v === null ? null : String(v));
  return {
    firstName: str(s.firstName),
    middleName: str(s.middleName),
    lastName: str(s.lastName),
    suffix: str(s.suffix),
    // A year of birth alone (yearOfBirth) is compared as a year (compare.ts compareDate).
    dateOfBirth: str(s.dateOfBirth) ?? str(s.yearOfBirth),
    sex: str(s.sex),
    // A title says the sex ("Mrs"), also typed into the first name ("Mrs. Pat").
    title: str(s.title) ?? sexedTitleOf(str(s.firstName)),
    emails: x.emails.map((e) => e.email),
    phones: x.phones.map((p) => ({ phoneNumber: p.e164, ext: p.ext })),
    addresses: x.addresses ?? [],
    identifiers: x.identifiers,
  };
}

const INPUT_SCALARS = ['firstName', 'middleName', 'lastName', 'suffix', 'dateOfBirth', 'sex', 'title'] as const;

function sameList<T>(a: readonly T[] | undefined, b: readonly T[] | undefined, same: (x: T, y: T) => boolean): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (!same(x[i] as T, y[i] as T)) return false;
  return true;
}

function sameParts(x: unknown, y: unknown, parts: readonly string[]): boolean {
  if (x === y) return true;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
  const a = x as Record<string, unknown>;
  const b = y as Record<string, unknown>;
  return parts.every((k) => a[k] === b[k]);
}

/**
 * Whether two {@link engineInput}s give the engine the same thing (every field it reads is
 * identical), so one's normalization stands for the other's. False whenever in doubt.
 */
export function sameEngineInput(a: ContactInput, b: ContactInput): boolean {
  for (const k of INPUT_SCALARS) if (a[k] !== b[k]) return false;
  return (
    sameList(a.emails, b.emails, (x, y) => sameParts(x, y, ['email'])) &&
    sameList(a.phones, b.phones, (x, y) => sameParts(x, y, ['phoneNumber', 'ext', 'countryCode'])) &&
    sameList(a.addresses, b.addresses, (x, y) => sameParts(x, y, ADDRESS_INPUT_FIELDS)) &&
    sameList(a.identifiers, b.identifiers, (x, y) => sameParts(x, y, ['type', 'externalId']))
  );
}

/** Contacts whose normalized forms make the fingerprint. */
export const FINGERPRINT_PROBES: readonly ContactInput[] = Object.freeze([
  { firstName: 'José-María', middleName: 'de la', lastName: "O'Brien-Smith Jr.", suffix: 'III', dateOfBirth: '1975-09-18' },
  { firstName: 'BOB', lastName: 'van der Berg', dateOfBirth: '09/18/1975', emails: ['J.Doe+tag@GoogleMail.com', 'x@example.org'] },
  { firstName: 'Revd', lastName: 'Lee' },
  { firstName: '伟', lastName: '王' },
  // Traditional characters written in their simplified forms (written-names.ts).
  { firstName: '偉', lastName: '陳' },
  // A character OpenCC also lists as its own simplified form stays as written (於, not 于).
  { firstName: '薴', lastName: '於' },
  // Katakana read as hiragana (written-names.ts): a normalization that kept katakana is made again.
  { firstName: 'サクラ', lastName: '佐藤' },
  { firstName: 'Wm.', lastName: 'Lee' },
  // A couple's honorifics before the first name.
  { firstName: 'Mr. and Mrs. John', lastName: 'Lee' },
  // A surname that is a word of the placeholder list's kind (Na: "not available") but a name.
  { firstName: 'Jiwoo', lastName: 'Na' },
  // A year of birth alone, read as a year; a title that says the sex.
  { firstName: 'Sam', lastName: 'Ortiz', dateOfBirth: '1985', title: 'Mrs' },
  {
    firstName: 'Łukasz',
    lastName: 'Straße',
    suffix: 'Sr',
    phones: ['(202) 429-1000', { phoneNumber: '+44 20 7946 0000', ext: '12' }, { phoneNumber: '2079460000', countryCode: 'GB' }],
  },
  {
    firstName: 'Ann',
    lastName: 'Lee',
    addresses: [
      { addressLine1: '1600 North Pennsylvania Avenue NW', addressLine2: 'Apt 4B', city: 'Washington', stateOrProvince: 'dc', zipOrPostalCode: '20500-0001' },
      { addressLine1: 'PO Box 12', city: 'Chicago', stateOrProvince: 'IL', zipOrPostalCode: '60601', countryCode: 'US' },
      { addressLine1: '10 Downing St', city: 'London', zipOrPostalCode: 'SW1A 2AA', countryCode: 'GB' },
      { streetNumber: '12', streetName: 'Main Street East', zipOrPostalCode: '02145' },
      // A house number's letter written apart and a compound ordinal street.
      { addressLine1: '12 B West Twenty-Third Street', zipOrPostalCode: '10011' },
      // A suffix word with one slip.
      { addressLine1: '145 West 5th Streeet', zipOrPostalCode: '10011' },
      { addressLine1: '40 Lake Terrance', zipOrPostalCode: '10011' },
      // Numbered roads and rural routes written one way (street-forms.ts).
      { addressLine1: '12 Co Rd 5', zipOrPostalCode: '45502' },
      { addressLine1: 'RFD 2 Box 5', zipOrPostalCode: '45502' },
      // A box's number after "#" (address-street.ts).
      { addressLine1: 'RR 2 Box #5', zipOrPostalCode: '45502' },
    ],
  },
  {
    identifiers: [
      { type: 'DWID', externalId: ' AbC-1 ' },
      { type: 'votercrmid', externalId: '42' },
    ],
  },
  {
    firstName: 'Unknown',
    lastName: 'Doe',
    sex: 'F',
    dateOfBirth: '1900-01-01',
    // Placeholder emails: listed (no.email@) and keyboard filler (x@x.com).
    emails: ['no.email@gmail.com', 'x@x.com'],
    addresses: [
      { addressLine1: 'Acme Store, 12 Main St', zipOrPostalCode: '02145' },
      { addressLine1: 'c/o Ann Lee, 9 Elm Road', zipOrPostalCode: '02145' },
      { addressLine1: 'GENERAL DELIVERY', zipOrPostalCode: '02145' },
    ],
  },
]);

/** 32-bit FNV-1a of a string. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The fingerprint of an index's normalizer (its engine code and default country). */
export function normalizerFingerprint(index: ContactIndex): number {
  return fnv1a(JSON.stringify(FINGERPRINT_PROBES.map((p) => index.normalize(p))));
}

/** The stored text of a normalized contact. */
export function encodeNormalization(contact: NormalizedContact): string {
  return JSON.stringify(contact);
}

/** A stored normalization back, or null when it is not one (then the record is re-normalized). */
export function decodeNormalization(json: string): NormalizedContact | null {
  try {
    const value = JSON.parse(json) as Partial<NormalizedContact> | null;
    if (value === null || typeof value !== 'object') return null;
    if (!Array.isArray(value.emails) || !Array.isArray(value.phones) || !Array.isArray(value.addresses) || !Array.isArray(value.identifiers)) return null;
    // A normalization of an older engine (no sex, no attributes) is made again.
    if (!Array.isArray(value.attributes) || !('sex' in value)) return null;
    return value as NormalizedContact;
  } catch {
    return null;
  }
}

/**
 * The person model: creating a record from a validated candidate, and the update rules of
 * findOrCreate on a match (compatibility.md "find and findOrCreate", interface.md section 3).
 *
 * - Supplied scalars replace stored ones; absent ones are kept.
 * - Emails, phones, addresses and identifiers that are new are appended; a value already on
 *   the record (same normalized value) is not added twice, its supplied properties update it.
 * - Email subscription: default S; U is terminal (a later S or N leaves U); `isSubscribed:false`
 *   is a permanent opt-out (status U, remembered), so a later `true` does not resubscribe.
 * - Phones: `isCellStatus` kept when omitted, `phoneOptInStatus` default U, at most one
 *   preferred phone (a phone sent with isPreferred true takes it from the others); same for emails.
 * - Addresses: the first address a person gets is preferred (assigned on creation, never
 *   moved); each address remembers when it was last created or re-supplied (`touched`), which
 *   decides `isBest` per type (Home and Voting are one type).
 * - Custom field values replace per field (`assignedValue` null removes it); self-reported
 *   lists that are supplied replace the stored ones.
 */
import { comparableIdentifier, normalizeAddress } from '../engine/index.js';
import {
  PERSON_SCALARS,
  type AddressType,
  type PersonRecord,
  type PersonScalarName,
  type PersonScalars,
  type StoredAddress,
  type StoredCustomFieldValue,
  type StoredEmail,
  type StoredIdentifier,
  type StoredPhone,
  type SubscriptionStatus,
} from '../store/index.js';
import type { ValidAddress, ValidCandidate, ValidEmail, ValidPhone } from './candidate.js';

const EMPTY_SCALARS: PersonScalars = Object.freeze(Object.fromEntries(PERSON_SCALARS.map((f) => [f, null])) as Record<PersonScalarName, null>);

/** Home and Voting have identical meaning (interface.md 2.4): one group for isBest and dedupe. */
export function addressGroup(type: AddressType): 'Home' | Exclude<AddressType, 'Home' | 'Voting'> {
  return type === 'Voting' ? 'Home' : type;
}

/**
 * The "not added twice" key of an address: its type group and the engine's normalized street
 * number, street (USPS suffixes and directionals standardized), unit, postal code and country.
 * "1600 Pennsylvania Avenue" and "1600 Pennsylvania Ave" are the same address.
 */
export function addressKey(a: Omit<ValidAddress, 'type'> & { readonly type: AddressType }): string {
  const n = normalizeAddress(a, { defaultCountry: a.countryCode });
  const zip = n.zip ?? '';
  const parts =
    n.number !== null || n.street !== null ? [n.number, n.street, n.unit, n.building, zip, n.country] : [n.building, n.city, n.state, zip, n.country];
  return [addressGroup(a.type), ...parts.map((p) => p ?? '')].join('|');
}

function nextSubscription(current: StoredEmail | null, e: ValidEmail): { status: SubscriptionStatus; optedOut: boolean } {
  const optedOut = (current?.optedOut ?? false) || e.isSubscribed === false;
  if (optedOut || current?.subscriptionStatus === 'U') return { status: 'U', optedOut };
  if (e.subscriptionStatus !== undefined) return { status: e.subscriptionStatus, optedOut };
  if (e.isSubscribed === true) return { status: 'S', optedOut };
  return { status: current?.subscriptionStatus ?? 'S', optedOut };
}

function mergeEmails(existing: readonly StoredEmail[], supplied: readonly ValidEmail[], now: string): StoredEmail[] {
  const out = [...existing];
  for (const e of supplied) {
    const at = out.findIndex((x) => x.key === e.key);
    const current = at === -1 ? null : (out[at] as StoredEmail);
    const sub = nextSubscription(current, e);
    const next: StoredEmail = {
      email: current?.email ?? e.email,
      key: e.key,
      type: e.type ?? current?.type ?? 'P',
      isPreferred: e.isPreferred ?? current?.isPreferred ?? false,
      subscriptionStatus: sub.status,
      optedOut: sub.optedOut,
      dateCreated: current?.dateCreated ?? now,
    };
    if (e.isPreferred === true) {
      for (let i = 0; i < out.length; i++) {
        const x = out[i] as StoredEmail;
        if (x.isPreferred && i !== at) out[i] = { ...x, isPreferred: false };
      }
    }
    if (at === -1) out.push(next);
    else out[at] = next;
  }
  return out;
}

function mergePhones(existing: readonly StoredPhone[], supplied: readonly ValidPhone[], now: string): StoredPhone[] {
  const out = [...existing];
  for (const p of supplied) {
    const at = out.findIndex((x) => x.e164 === p.e164 && x.ext === p.ext);
    const current = at === -1 ? null : (out[at] as StoredPhone);
    const next: StoredPhone = {
      // Keeps what else the phone carries (canvass dispositions, src/crm/canvass.ts).
      ...current,
      phoneId: current?.phoneId ?? 0,
      phoneNumber: p.phoneNumber,
      e164: p.e164,
      countryCode: p.countryCode,
      dialingPrefix: p.dialingPrefix,
      ext: p.ext,
      phoneType: p.phoneType ?? current?.phoneType ?? null,
      deviceType: p.deviceType ?? current?.deviceType ?? null,
      isPreferred: p.isPreferred ?? current?.isPreferred ?? false,
      phoneOptInStatus: p.phoneOptInStatus ?? current?.phoneOptInStatus ?? 'U',
      isCellStatusId: p.isCellStatusId ?? current?.isCellStatusId ?? null,
      dateCreated: current?.dateCreated ?? now,
    };
    if (p.isPreferred === true) {
      for (let i = 0; i < out.length; i++) {
        const x = out[i] as StoredPhone;
        if (x.isPreferred && i !== at) out[i] = { ...x, isPreferred: false };
      }
    }
    if (at === -1) out.push(next);
    else out[at] = next;
  }
  return out;
}

function mergeAddresses(existing: readonly StoredAddress[], supplied: readonly ValidAddress[], now: string): StoredAddress[] {
  const out = [...existing];
  let touched = out.reduce((max, a) => Math.max(max, a.touched), 0);
  for (const a of supplied) {
    const key = addressKey(a);
    const at = out.findIndex((x) => x.key === key);
    touched++;
    if (at === -1) {
      out.push({
        addressId: 0,
        addressLine1: a.addressLine1,
        addressLine2: a.addressLine2,
        addressLine3: a.addressLine3,
        city: a.city,
        stateOrProvince: a.stateOrProvince,
        zipOrPostalCode: a.zipOrPostalCode,
        countryCode: a.countryCode,
        type: a.type,
        // The first address a person gets is the preferred one (interface.md 2.4).
        isPreferred: out.length === 0,
        key,
        touched,
        dateCreated: now,
        dateUpdated: now,
      });
    } else {
      const x = out[at] as StoredAddress;
      // Re-supplied: it becomes the most recently updated of its type (unless it already is)
      // and gets the parts it lacked.
      const group = addressGroup(x.type);
      const isNewest = out.every((y) => addressGroup(y.type) !== group || y.touched <= x.touched);
      if (isNewest) touched--;
      out[at] = {
        ...x,
        addressLine2: x.addressLine2 ?? a.addressLine2,
        addressLine3: x.addressLine3 ?? a.addressLine3,
        city: x.city ?? a.city,
        stateOrProvince: x.stateOrProvince ?? a.stateOrProvince,
        zipOrPostalCode: a.zipOrPostalCode !== null && a.zipOrPostalCode.length > (x.zipOrPostalCode ?? '').length ? a.zipOrPostalCode : x.zipOrPostalCode,
        touched: isNewest ? x.touched : touched,
        dateUpdated: isNewest ? x.dateUpdated : now,
      };
    }
  }
  return out;
}

function mergeIdentifiers(existing: readonly StoredIdentifier[], supplied: readonly StoredIdentifier[]): StoredIdentifier[] {
  const out = [...existing];
  for (const id of supplied) {
    const comparable = comparableIdentifier(id.type, id.externalId);
    if (!out.some((x) => comparableIdentifier(x.type, x.externalId) === comparable)) out.push(id);
  }
  return out;
}

function mergeCustomFields(existing: readonly StoredCustomFieldValue[], supplied: ValidCandidate['customFieldValues']): StoredCustomFieldValue[] {
  const out = [...existing];
  for (const v of supplied) {
    const at = out.findIndex((x) => x.customFieldId === v.customFieldId);
    if (v.assignedValue === null) {
      if (at !== -1) out.splice(at, 1);
    } else if (at === -1) out.push(v);
    else out[at] = v;
  }
  return out;
}

/** A new person (crmId 0, ids 0 until stored) from a validated candidate. */
export function createPerson(c: ValidCandidate, now: string): PersonRecord {
  const scalars = { ...EMPTY_SCALARS, ...c.scalars } as Record<PersonScalarName, string | number | null>;
  // The name parts as first received stand for the source file's (interface.md 2.8).
  scalars.sourceFileTitle = c.scalars.title ?? null;
  scalars.sourceFileFirstName = c.scalars.firstName ?? null;
  scalars.sourceFileMiddleName = c.scalars.middleName ?? null;
  scalars.sourceFileLastName = c.scalars.lastName ?? null;
  scalars.sourceFileSuffix = c.scalars.suffix ?? null;
  const empty: PersonRecord = {
    crmId: 0,
    createdAt: now,
    updatedAt: now,
    scalars,
    selfReported: { races: [], ethnicities: [], genders: [], sexualOrientations: [], languagePreference: null },
    emails: [],
    phones: [],
    addresses: [],
    identifiers: [],
    customFieldValues: [],
    suppressions: [],
  };
  // createdAt = updatedAt = now: the same record whether or not the merge changed it.
  return merged(empty, c, now);
}

/** JSON.stringify(x) with a non-finite number or a function/symbol read as JSON does. */
function jsonValue(v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'function' || typeof v === 'symbol') return undefined;
  return v;
}

/** An object JSON writes with its own toJSON (a Date). */
function custom(v: unknown): boolean {
  return typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function';
}

/**
 * `JSON.stringify(a) === JSON.stringify(b)` for plain data (same keys in the same order, same
 * values), without building the two strings.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  const x = jsonValue(a);
  const y = jsonValue(b);
  if (x === y) return true;
  if (custom(x) || custom(y)) return JSON.stringify(x) === JSON.stringify(y);
  if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return false;
  const xa = Array.isArray(x);
  if (xa !== Array.isArray(y)) return false;
  if (xa) {
    const ya = y as unknown[];
    if (x.length !== ya.length) return false;
    for (let i = 0; i < x.length; i++) {
      // An array item JSON cannot write is written null.
      const u = jsonValue(x[i]);
      const w = jsonValue(ya[i]);
      if (!sameJson(u === undefined ? null : u, w === undefined ? null : w)) return false;
    }
    return true;
  }
  // Objects: the keys JSON writes (a value it cannot write is left out), in order.
  const xo = x as Record<string, unknown>;
  const yo = y as Record<string, unknown>;
  const xk = Object.keys(xo).filter((k) => jsonValue(xo[k]) !== undefined);
  const yk = Object.keys(yo).filter((k) => jsonValue(yo[k]) !== undefined);
  if (xk.length !== yk.length) return false;
  for (let i = 0; i < xk.length; i++) {
    const k = xk[i] as string;
    if (k !== yk[i] || !sameJson(xo[k], yo[k])) return false;
  }
  return true;
}

/** The person with the candidate merged in (updatedAt unchanged). */
function merged(p: PersonRecord, c: ValidCandidate, now: string): PersonRecord {
  // Validation never yields the sourceFile* parts, so they keep their first values.
  const scalars = { ...p.scalars, ...c.scalars };
  return {
    ...p,
    scalars,
    selfReported: { ...p.selfReported, ...c.selfReported },
    emails: mergeEmails(p.emails, c.emails, now),
    phones: mergePhones(p.phones, c.phones, now),
    addresses: mergeAddresses(p.addresses, c.addresses, now),
    identifiers: mergeIdentifiers(p.identifiers, c.identifiers),
    customFieldValues: mergeCustomFields(p.customFieldValues, c.customFieldValues),
  };
}

/**
 * Applies a candidate to a stored person (findOrCreate on a match). `changed` is false when
 * the candidate adds nothing, so the caller can skip the write.
 */
export function applyCandidate(p: PersonRecord, c: ValidCandidate, now: string): { person: PersonRecord; changed: boolean } {
  const person = merged(p, c, now);
  const changed = !sameJson({ ...person, updatedAt: '' }, { ...p, updatedAt: '' });
  return { person: changed ? { ...person, updatedAt: now } : p, changed };
}

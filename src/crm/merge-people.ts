/**
 * Merging two records of one person (POST /possibleMatches/{id} `same`, review.ts): the newer
 * record into the older, which survives with its crmId.
 * - Scalars: the older's where it has one, else the newer's.
 * - Emails, phones, addresses, identifiers: the older's, then the newer's it lacks (same
 *   comparison keys as findOrCreate's "not added twice", person.ts; an opt-out of either record
 *   is kept: unsubscribed U is terminal, as findOrCreate has it); an appended one is not
 *   preferred when the older already has a preferred one. Appended addresses keep their ids and
 *   their order, below the older's (their `touched` is lowered): the older's stay the best (isBest) of their type.
 * - Custom field values: the older's per field, the newer's for fields the older lacks;
 *   suppressions: one per code, the older's first; self-reported lists: the older's when it has
 *   any, else the newer's.
 * The canvass history and the identifier rows move in the store (Store mergePerson).
 */
import { comparableIdentifier } from '../engine/index.js';
import { PERSON_SCALARS, type PersonRecord, type PersonScalarName, type StoredEmail, type StoredPhone, type StoredSelfReported } from '../store/index.js';

/** Items of `newer` whose key `older` lacks, appended to `older`; `unprefer` clears isPreferred on them when `older` has a preferred one. */
function append<T>(older: readonly T[], newer: readonly T[], key: (x: T) => string, unprefer?: (x: T) => T, preferred?: (x: T) => boolean): T[] {
  const seen = new Set(older.map(key));
  const hasPreferred = preferred !== undefined && older.some(preferred);
  const out = [...older];
  for (const x of newer) {
    const k = key(x);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(hasPreferred && unprefer !== undefined ? unprefer(x) : x);
  }
  return out;
}

function mergeSelfReported(older: StoredSelfReported, newer: StoredSelfReported): StoredSelfReported {
  const pick = (a: readonly number[], b: readonly number[]): readonly number[] => (a.length > 0 ? a : b);
  return {
    races: pick(older.races, newer.races),
    ethnicities: pick(older.ethnicities, newer.ethnicities),
    genders: pick(older.genders, newer.genders),
    sexualOrientations: pick(older.sexualOrientations, newer.sexualOrientations),
    languagePreference: older.languagePreference ?? newer.languagePreference,
  };
}

const phoneKey = (p: StoredPhone): string => `${p.e164};${p.ext ?? ''}`;

/** An opt-out is never lost: an email both have stays opted out when the newer record opted out of it. */
function keepOptOuts(older: readonly StoredEmail[], newer: readonly StoredEmail[]): StoredEmail[] {
  const out = new Set(newer.filter((e) => e.optedOut || e.subscriptionStatus === 'U').map((e) => e.key));
  return older.map((e) => (out.has(e.key) ? { ...e, optedOut: e.optedOut || newer.some((n) => n.key === e.key && n.optedOut), subscriptionStatus: 'U' } : e));
}

/** Likewise for phones opted out (`phoneOptInStatus` O). */
function keepPhoneOptOuts(older: readonly StoredPhone[], newer: readonly StoredPhone[]): StoredPhone[] {
  const out = new Set(newer.filter((p) => p.phoneOptInStatus === 'O').map(phoneKey));
  return older.map((p) => (out.has(phoneKey(p)) ? { ...p, phoneOptInStatus: 'O' } : p));
}

/** The survivor of merging `newer` into `older` (see the module comment), updated `now`. */
export function mergePeople(older: PersonRecord, newer: PersonRecord, now: string): PersonRecord {
  const scalars = {} as Record<PersonScalarName, string | number | null>;
  for (const f of PERSON_SCALARS) scalars[f] = older.scalars[f] ?? newer.scalars[f];
  // Appended addresses keep their order among themselves, below the older's: the older's stay the best of their type.
  const touchedTop = newer.addresses.reduce((max, a) => Math.max(max, a.touched), 0);
  return {
    crmId: older.crmId,
    createdAt: older.createdAt,
    updatedAt: now,
    scalars,
    selfReported: mergeSelfReported(older.selfReported, newer.selfReported),
    emails: append(
      keepOptOuts(older.emails, newer.emails),
      newer.emails,
      (e) => e.key,
      (e) => ({ ...e, isPreferred: false }),
      (e) => e.isPreferred,
    ),
    phones: append(
      keepPhoneOptOuts(older.phones, newer.phones),
      newer.phones,
      phoneKey,
      (p) => ({ ...p, isPreferred: false }),
      (p) => p.isPreferred,
    ),
    addresses: append(
      older.addresses,
      newer.addresses.map((a) => ({ ...a, touched: a.touched - touchedTop })),
      (a) => a.key,
      (a) => ({ ...a, isPreferred: false }),
      (a) => a.isPreferred,
    ),
    identifiers: append(older.identifiers, newer.identifiers, (i) => comparableIdentifier(i.type, i.externalId) ?? `${i.type}:${i.externalId}`),
    customFieldValues: append(older.customFieldValues, newer.customFieldValues, (v) => String(v.customFieldId)),
    suppressions: append(older.suppressions, newer.suppressions, (s) => s.suppressionCode),
  };
}

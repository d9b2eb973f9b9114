/**
 * The Person as GET returns it (interface.md 2.8, compatibility.md "GET /people"): every
 * property present, defaults of the derived names applied, dates as "1975-09-18T00:00:00Z",
 * collections that were not expanded `null` and expanded-but-empty `[]`. Shapes follow the
 * captured client responses (data/van-clients/parsons-get-person-response.json): `crmId`, and
 * `vanId` beside it with the same value (parsons reads `vanId`; compatibility.md).
 */
import type { PersonRecord, StoredAddress, StoredPhone } from '../store/index.js';
import type { PhoneDisposition } from './canvass.js';
import { CELL_STATUSES } from './codes.js';
import { CrmError } from './errors.js';
import { addressGroup } from './person.js';
import type { ContextSettings, NamedValue } from './settings.js';
import { toDateTime } from './values.js';

/** Valid `$expand` values (compatibility.md); clients send all of them at once. */
export const EXPANDABLE: readonly string[] = Object.freeze([
  'contributionHistory',
  'addresses',
  'phones',
  'emails',
  'codes',
  'customFields',
  'externalIds',
  'preferences',
  'recordedAddresses',
  'reportedDemographics',
  'suppressions',
  'cases',
  'customProperties',
  'districts',
  'electionRecords',
  'membershipStatuses',
  'notes',
  'organizationRoles',
  'scores',
  'disclosureFieldValues',
  'primaryContact',
  'pollingLocation',
  'biography',
]);

/** A Person (interface.md 2.8) as plain JSON. */
export type Person = { readonly crmId: number; readonly vanId: number } & { readonly [property: string]: unknown };

const text = (v: string | number | null): string | null => (v === null ? null : String(v));

function joinWords(...parts: (string | null | undefined)[]): string | null {
  const words = parts.filter((p): p is string => typeof p === 'string' && p.length > 0);
  return words.length === 0 ? null : words.join(' ');
}

function initial(middle: string | null): string | null {
  const first = middle === null ? undefined : Array.from(middle)[0];
  return first === undefined ? null : `${first.toUpperCase()}.`;
}

/** USPS Publication 28 single-line form: lines trimmed, inner whitespace collapsed, joined by a space. */
export function standardizedStreet(a: Pick<StoredAddress, 'addressLine1' | 'addressLine2' | 'addressLine3'>): string | null {
  return joinWords(...[a.addressLine1, a.addressLine2, a.addressLine3].map((l) => l?.replace(/\s+/g, ' ').replace(/[\s,]+$/, '')));
}

/** Addresses that are the best (most recently updated) of their type group. */
function bestIds(addresses: readonly StoredAddress[]): Set<number> {
  const best = new Map<string, StoredAddress>();
  for (const a of addresses) {
    const group = addressGroup(a.type);
    const cur = best.get(group);
    if (cur === undefined || a.touched > cur.touched) best.set(group, a);
  }
  return new Set([...best.values()].map((a) => a.addressId));
}

function addressView(a: StoredAddress, isBest: boolean, type: string = a.type): Record<string, unknown> {
  const street = standardizedStreet(a);
  return {
    addressId: a.addressId,
    addressLine1: street,
    addressLine2: null,
    addressLine3: null,
    city: a.city,
    stateOrProvince: a.stateOrProvince,
    zipOrPostalCode: a.zipOrPostalCode,
    geoLocation: null,
    countryCode: a.countryCode,
    preview: joinWords(street, a.city, a.stateOrProvince, a.zipOrPostalCode),
    type,
    isPreferred: a.isPreferred,
    isBest,
    streetAddress: street,
    displayMode: 'Standardized',
    dateCreated: a.dateCreated,
    dateUpdated: a.dateUpdated,
  };
}

/**
 * GET's `addresses`: the best Home (or Voting) address and the best Mailing address; when the
 * person has no Mailing address, the best Home address is shown a second time as Mailing
 * (interface.md 2.4: the home address is also used as the mailing address).
 */
function currentAddresses(addresses: readonly StoredAddress[]): Record<string, unknown>[] {
  const best = bestIds(addresses);
  const home = addresses.find((a) => best.has(a.addressId) && addressGroup(a.type) === 'Home');
  const mailing = addresses.find((a) => best.has(a.addressId) && a.type === 'Mailing');
  const out: Record<string, unknown>[] = [];
  if (home !== undefined) out.push(addressView(home, true));
  if (mailing !== undefined) out.push(addressView(mailing, true));
  else if (home !== undefined) out.push(addressView(home, true, 'Mailing'));
  return out;
}

function named(list: readonly NamedValue[], id: number): string | null {
  return list.find((v) => v.id === id)?.name ?? null;
}

/** The canvass disposition fields a stored phone carries (absent until a canvass response set one). */
function dispositionOf(ph: StoredPhone): Record<string, unknown> {
  const d = ph as StoredPhone & PhoneDisposition;
  const out: Record<string, unknown> = {};
  for (const k of ['isWrongNumber', 'isDisconnected', 'doNotCall', 'doNotText', 'smsOptInStatus'] as const) if (d[k] !== undefined) out[k] = d[k];
  return out;
}

/** Renders a stored person for GET with the given `$expand` values (already validated). */
export function renderPerson(p: PersonRecord, expand: ReadonlySet<string>, settings: ContextSettings): Person {
  const s = p.scalars;
  const first = text(s.firstName);
  const middle = text(s.middleName);
  const last = text(s.lastName);
  const title = text(s.title);
  const suffix = text(s.suffix);
  const isOrg = s.contactMode === 'Organization';
  const common = text(s.organizationContactCommonName);
  const official = text(s.organizationContactOfficialName);
  const fullName = joinWords(first, initial(middle), last);
  const on = (name: string): boolean => expand.has(name);
  const list = (name: string): [] | null => (on(name) ? [] : null);
  const sr = settings.selfReported;
  const demographics = on('reportedDemographics');
  return {
    crmId: p.crmId,
    vanId: p.crmId,
    firstName: first,
    lastName: last,
    middleName: middle,
    suffix,
    title,
    sourceFileTitle: text(s.sourceFileTitle),
    sourceFileFirstName: text(s.sourceFileFirstName),
    sourceFileMiddleName: text(s.sourceFileMiddleName),
    sourceFileLastName: text(s.sourceFileLastName),
    sourceFileSuffix: text(s.sourceFileSuffix),
    contactMode: text(s.contactMode),
    organizationContactCommonName: common,
    organizationContactOfficialName: official,
    salutation: text(s.salutation) ?? (isOrg ? common : first),
    // "Title and last name"; without a title the full name, as the captured responses show.
    formalSalutation: isOrg ? 'Friends' : title !== null && last !== null ? `${title} ${last}` : joinWords(first, last),
    additionalSalutation: isOrg ? common : null,
    pronouns: s.pronounId === null ? null : { pronounId: Number(s.pronounId) },
    preferredPronoun: null,
    envelopeName: text(s.envelopeName) ?? (isOrg ? common : fullName),
    formalEnvelopeName: isOrg ? official : joinWords(title, first, initial(middle), last, suffix),
    additionalEnvelopeName: null,
    contactMethodPreferenceCode: text(s.contactMethodPreferenceCode),
    nickname: text(s.nickname),
    website: text(s.website),
    professionalSuffix: null,
    party: text(s.party),
    employer: text(s.employer),
    occupation: text(s.occupation),
    jobTitle: text(s.jobTitle),
    sex: text(s.sex),
    dateOfBirth: s.dateOfBirth === null ? null : toDateTime(String(s.dateOfBirth)),
    yearOfBirth: s.yearOfBirth,
    collectedLocationId: s.collectedLocationId,
    electionType: text(s.electionType),
    cycle: text(s.cycle),
    selfReportedRace: null,
    selfReportedEthnicity: null,
    selfReportedRaces: demographics ? p.selfReported.races.map((id) => ({ reportedRaceId: id, reportedRaceName: named(sr.races, id) })) : null,
    selfReportedEthnicities: demographics
      ? p.selfReported.ethnicities.map((id) => ({ reportedEthnicityId: id, reportedEthnicityName: named(sr.ethnicities, id) }))
      : null,
    selfReportedGenders: demographics ? p.selfReported.genders.map((id) => ({ reportedGenderId: id, reportedGenderName: named(sr.genders, id) })) : null,
    selfReportedSexualOrientations: demographics
      ? p.selfReported.sexualOrientations.map((id) => ({ reportedSexualOrientationId: id, reportedSexualOrientationName: named(sr.sexualOrientations, id) }))
      : null,
    selfReportedLanguagePreference:
      demographics && p.selfReported.languagePreference !== null
        ? {
            reportedLanguagePreferenceId: p.selfReported.languagePreference,
            reportedLanguagePreferenceName: named(sr.languagePreferences, p.selfReported.languagePreference),
          }
        : null,
    emails: on('emails')
      ? p.emails.map((e) => ({
          email: e.email,
          type: e.type,
          isPreferred: e.isPreferred,
          isSubscribed: e.subscriptionStatus === 'S',
          subscriptionStatus: e.subscriptionStatus,
          dateCreated: e.dateCreated,
        }))
      : null,
    phones: on('phones')
      ? p.phones.map((ph) => ({
          phoneId: ph.phoneId,
          phoneNumber: ph.phoneNumber,
          ext: ph.ext,
          dialingPrefix: ph.dialingPrefix,
          countryCode: ph.countryCode,
          phoneType: ph.phoneType,
          deviceType: ph.deviceType,
          isPreferred: ph.isPreferred,
          phoneOptInStatus: ph.phoneOptInStatus,
          isCellStatus: CELL_STATUSES.find((c) => c.statusId === ph.isCellStatusId) ?? null,
          dateCreated: ph.dateCreated,
          // Canvass dispositions (src/crm/canvass.ts), only once one was applied.
          ...dispositionOf(ph),
        }))
      : null,
    addresses: on('addresses') ? currentAddresses(p.addresses) : null,
    recordedAddresses: on('recordedAddresses')
      ? (() => {
          const best = bestIds(p.addresses);
          return p.addresses.map((a) => addressView(a, best.has(a.addressId)));
        })()
      : null,
    identifiers: on('externalIds') ? p.identifiers.map((i) => ({ type: i.type, externalId: i.externalId })) : null,
    codes: list('codes'),
    customFields: on('customFields') ? p.customFieldValues.map((v) => ({ ...v })) : null,
    primaryCustomField: null,
    contributionSummary: null,
    suppressions: on('suppressions') ? p.suppressions.map((x) => ({ suppressionCode: x.suppressionCode, suppressionName: x.suppressionName })) : null,
    caseworkCases: list('cases'),
    caseworkIssues: list('cases'),
    caseworkStories: list('cases'),
    notes: list('notes'),
    scores: list('scores'),
    customProperties: list('customProperties'),
    electionRecords: list('electionRecords'),
    membershipStatus: null,
    organizationRoles: list('organizationRoles'),
    districts: list('districts'),
    disclosureFieldValues: list('disclosureFieldValues'),
    surveyQuestionResponses: null,
    finderNumber: null,
    biographyImageUrl: null,
    primaryContact: null,
    pledgesSummaryDesignations: null,
    dateCreated: p.createdAt,
    dateModified: p.updatedAt,
  };
}

/** The `$expand` values, canonically spelled; CrmError 400 naming the unknown ones. */
export function expandSet(expand: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  const bad: string[] = [];
  for (const value of expand) {
    const known = EXPANDABLE.find((e) => e.toLowerCase() === value.trim().toLowerCase());
    if (known === undefined) bad.push(value);
    else out.add(known);
  }
  if (bad.length > 0) {
    throw new CrmError('INVALID_PARAMETER', [
      { property: '$expand', text: `Unknown $expand value${bad.length > 1 ? 's' : ''}: ${bad.join(', ')}.`, hint: `Valid values: ${EXPANDABLE.join(', ')}.` },
    ]);
  }
  return out;
}

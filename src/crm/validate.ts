/**
 * Validation of a Match Candidate (interface.md 2.1-2.6) against one context's settings.
 *
 * Every issue is collected before returning (all at once), each named by its dot path.
 * Tolerances of compatibility.md: unknown keys are ignored, explicit null is absent, codes in
 * any case, and a single object sent where an array is expected is ignored. A JSON number,
 * boolean or object where the contract says string is an issue, except `phoneNumber` as a
 * number (compatibility.md), `ext` as a number (a captured client, ngp_van-ruby, sends
 * `"ext": 999`) and `crmId`/`vanId` as a number (every captured client sends `vanId` so). Being below the minimum
 * combinations is not a validation problem (matching decides it).
 *
 * Total: returns a result for any JSON value (deep nesting, huge strings, lone surrogates)
 * and never throws.
 */
import type { PersonScalarName, StoredSelfReported } from '../store/index.js';
import { MAX_ITEMS, type CandidateResult, type ValidationContext, type ValidCandidate } from './candidate.js';
import {
  CONTACT_METHOD_CODES, CONTACT_MODE_CODES, ELECTION_TYPE_CODES, SEX_CODES,
} from './codes.js';
import type { ContextSettings, NamedValue } from './settings.js';
import { checkIsoDate, MAX_YEAR, MIN_YEAR } from './values.js';
import { readAddresses, readEmails, readPhones } from './validate-channels.js';
import { readCustomFieldValues, readIdentifiers } from './validate-lists.js';
import {
  Issues, clip, isObject, own, pathOf, readArray, readCode, readInteger, readObject, readText,
  type JsonObject,
} from './validate-util.js';


/** Text properties of 2.1 with their maximum lengths. */
export const TEXT_MAX_LENGTHS: Readonly<Partial<Record<PersonScalarName, number>>> = {
  firstName: 75, middleName: 75, lastName: 150, suffix: 50, title: 10, salutation: 100,
  envelopeName: 350, nickname: 50, website: 50, employer: 50, occupation: 50, jobTitle: 150,
  organizationContactCommonName: 150, organizationContactOfficialName: 150,
};

const PROFESSIONAL: ReadonlySet<string> = new Set(['employer', 'occupation', 'jobTitle']);
const ORGANIZATION: ReadonlySet<string> = new Set(['organizationContactCommonName', 'organizationContactOfficialName']);


function readScalars(issues: Issues, body: JsonObject, vc: ValidationContext): ValidCandidate['scalars'] {
  const out: { [K in PersonScalarName]?: string | number } = {};
  const orgsEnabled = vc.context === 'campaign' && vc.settings.organizationsAsContacts;
  for (const [field, max] of Object.entries(TEXT_MAX_LENGTHS) as [PersonScalarName, number][]) {
    const value = readText(issues, own(body, field), field, max);
    if (value === undefined) continue;
    if (PROFESSIONAL.has(field) && !vc.settings.professionalFields) {
      issues.add(field, `${field} is not available in this context.`);
      continue;
    }
    if (ORGANIZATION.has(field) && !orgsEnabled) {
      issues.add(field, `${field} is only available in a campaign context with organizations as contacts enabled.`);
      continue;
    }
    out[field] = value;
  }
  const party = readText(issues, own(body, 'party'), 'party', 1);
  if (party !== undefined) out.party = party.toUpperCase();
  const method = readCode(issues, own(body, 'contactMethodPreferenceCode'), 'contactMethodPreferenceCode', CONTACT_METHOD_CODES, 'P (phone), E (email), M (mail), F (fax), S (SMS)');
  if (method !== undefined) out.contactMethodPreferenceCode = method;
  const sex = readCode(issues, own(body, 'sex'), 'sex', SEX_CODES, 'M, F');
  if (sex !== undefined) out.sex = sex;
  const election = readCode(issues, own(body, 'electionType'), 'electionType', ELECTION_TYPE_CODES, 'G, P, R, PP, SP, SG, MP, MG, C, O');
  if (election !== undefined) out.electionType = election;
  const mode = readCode(issues, own(body, 'contactMode'), 'contactMode', CONTACT_MODE_CODES, 'Person, Organization');
  if (mode !== undefined) {
    if (!orgsEnabled) issues.add('contactMode', 'contactMode is only available in a campaign context with organizations as contacts enabled.');
    else out.contactMode = mode;
  }
  const cycle = readText(issues, own(body, 'cycle'), 'cycle', 4);
  if (cycle !== undefined) {
    if (/^\d{4}$/.test(cycle)) out.cycle = cycle;
    else issues.add('cycle', `cycle "${clip(cycle)}" must be a four-digit year such as "2024".`);
  }
  const dob = readText(issues, own(body, 'dateOfBirth'), 'dateOfBirth', 40);
  let dobYear: number | undefined;
  if (dob !== undefined) {
    const date = checkIsoDate(dob);
    if (date.ok) {
      out.dateOfBirth = date.iso;
      dobYear = date.year;
    } else if (date.problem === 'out-of-range') {
      issues.add('dateOfBirth', `dateOfBirth ${clip(dob)} must fall in the 20th or 21st century (${MIN_YEAR} to ${MAX_YEAR}).`);
    } else {
      issues.add('dateOfBirth', `dateOfBirth "${clip(dob)}" is not a valid ISO 8601 date.`, 'Use YYYY-MM-DD, for example 1975-09-18.');
    }
  }
  const year = readInteger(issues, own(body, 'yearOfBirth'), 'yearOfBirth', MIN_YEAR, MAX_YEAR);
  if (year !== undefined) {
    if (dobYear !== undefined && dobYear !== year) {
      issues.add('yearOfBirth', `yearOfBirth ${year} disagrees with dateOfBirth ${out.dateOfBirth}.`);
    } else out.yearOfBirth = year;
  }
  const locationKey = own(body, 'collectedLocationId') != null ? 'collectedLocationId' : 'collectionLocationId';
  const location = readInteger(issues, own(body, locationKey), locationKey, 1);
  if (location !== undefined) out.collectedLocationId = location;
  const pronouns = readObject(issues, own(body, 'pronouns'), 'pronouns');
  if (pronouns !== undefined) {
    const id = readInteger(issues, own(pronouns, 'pronounId'), 'pronouns.pronounId', 1);
    if (id !== undefined) out.pronounId = id;
    else if (own(pronouns, 'pronounId') == null) issues.add('pronouns.pronounId', 'pronouns.pronounId is required.');
  }
  return out;
}

const SELF_REPORTED = [
  { key: 'races', property: 'selfReportedRaces', idKey: 'reportedRaceId', list: 'races' },
  { key: 'ethnicities', property: 'selfReportedEthnicities', idKey: 'reportedEthnicityId', list: 'ethnicities' },
  { key: 'genders', property: 'selfReportedGenders', idKey: 'reportedGenderId', list: 'genders' },
  { key: 'sexualOrientations', property: 'selfReportedSexualOrientations', idKey: 'reportedSexualOrientationId', list: 'sexualOrientations' },
] as const;

function readReportedId(issues: Issues, item: unknown, path: string, idKey: string, allowed: readonly NamedValue[]): number | undefined {
  if (!isObject(item)) {
    issues.add(path, `${path} must be an object with ${idKey}.`);
    return undefined;
  }
  const idPath = pathOf(path, idKey);
  const id = readInteger(issues, own(item, idKey), idPath, 1);
  if (id === undefined) {
    if (own(item, idKey) == null) issues.add(idPath, `${idPath} is required.`);
    return undefined;
  }
  if (!allowed.some((v) => v.id === id)) {
    issues.add(idPath, `${idPath} ${id} is not available in this context.`,
      allowed.length === 0 ? 'No values are configured for this list in this context.' : `Available: ${allowed.map((v) => `${v.id} (${v.name})`).join(', ')}.`.slice(0, 500));
    return undefined;
  }
  return id;
}

function readSelfReported(issues: Issues, body: JsonObject, settings: ContextSettings): ValidCandidate['selfReported'] {
  const out: { -readonly [K in keyof StoredSelfReported]?: StoredSelfReported[K] } = {};
  for (const spec of SELF_REPORTED) {
    const items = readArray(issues, own(body, spec.property), spec.property);
    if (items === undefined) continue;
    if (items.length > MAX_ITEMS) {
      issues.add(spec.property, `${spec.property} has more than ${MAX_ITEMS} items.`);
      continue;
    }
    const ids: number[] = [];
    items.forEach((item, i) => {
      const id = readReportedId(issues, item, pathOf(spec.property, i), spec.idKey, settings.selfReported[spec.list]);
      if (id !== undefined && !ids.includes(id)) ids.push(id);
    });
    out[spec.key] = ids;
  }
  const lang = own(body, 'selfReportedLanguagePreference');
  if (lang != null) {
    const id = readReportedId(issues, lang, 'selfReportedLanguagePreference', 'reportedLanguagePreferenceId', settings.selfReported.languagePreferences);
    if (id !== undefined) out.languagePreference = id;
  }
  return out;
}

function readCrmId(issues: Issues, body: JsonObject): number | null {
  const key = own(body, 'crmId') != null ? 'crmId' : 'vanId';
  const value = own(body, key);
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' && typeof value !== 'number') {
    issues.add(key, `${key} must be a string or a number.`);
    return null;
  }
  const text = String(value).trim();
  // An id that cannot be ours is an unknown crmId: ignored, matching runs on the rest.
  if (!/^\d{1,15}$/.test(text)) return null;
  const id = Number(text);
  return id > 0 ? id : null;
}

export { MAX_ITEMS, type ValidationContext } from './candidate.js';

/**
 * Validates a Match Candidate body for one context. Returns the candidate, or every issue
 * (`BAD_REQUEST` when the body is not a JSON object, else `INVALID_PARAMETER`).
 */
export function validateCandidate(body: unknown, vc: ValidationContext): CandidateResult {
  if (!isObject(body)) {
    return { ok: false, code: 'BAD_REQUEST', issues: [{ property: '', text: 'The request body must be a JSON object (a Match Candidate).' }] };
  }
  const issues = new Issues();
  const value: ValidCandidate = {
    crmId: readCrmId(issues, body),
    scalars: readScalars(issues, body, vc),
    selfReported: readSelfReported(issues, body, vc.settings),
    emails: readEmails(issues, body, vc),
    phones: readPhones(issues, body, vc),
    addresses: readAddresses(issues, body, vc),
    identifiers: readIdentifiers(issues, body, vc),
    customFieldValues: readCustomFieldValues(issues, body, vc),
  };
  return issues.empty ? { ok: true, value } : { ok: false, code: 'INVALID_PARAMETER', issues: issues.list };
}

/**
 * Validation of a Match Candidate (interface.md 2.1-2.6) against one context's settings.
 *
 * The body is checked once against the Match Candidate schema (schemas/match-candidate.ts, the
 * same schema the OpenAPI document shows), then read once (schemas/reader.ts) by the code on
 * top: what depends on the context's settings, on outside rules (phone numbers, email
 * addresses, calendar dates) and the contract's cross-field rules. Every issue is collected
 * before returning, each named by its dot path, in the schema's property order.
 *
 * Tolerances of compatibility.md (stated by the schema): unknown keys are ignored, explicit null
 * is absent, codes in any case, a single object sent where an array is expected is ignored,
 * `phoneNumber` and `ext` may be JSON numbers, `crmId`/`vanId` strings or numbers. Being below
 * the minimum combinations is not a validation problem (matching decides it).
 *
 * Total: returns a result for any JSON value and never throws.
 */
import type { PersonScalarName, StoredSelfReported } from '../store/index.js';
import type { CandidateResult, ValidationContext, ValidCandidate } from './candidate.js';
import { CONTACT_METHOD_CODES, CONTACT_MODE_CODES, ELECTION_TYPE_CODES, SEX_CODES } from './codes.js';
import { compileSchema } from './schemas/check.js';
import { MatchCandidate, TEXT_MAX_LENGTHS } from './schemas/match-candidate.js';
import { clip } from './schemas/kit.js';
import { Reader, isObject, own, pathOf, type JsonObject } from './schemas/reader.js';
import type { NamedValue } from './settings.js';
import { checkIsoDate, MAX_YEAR, MIN_YEAR } from './values.js';
import { readAddresses, readEmails, readPhones } from './validate-channels.js';
import { readCustomFieldValues, readIdentifiers } from './validate-lists.js';

export { TEXT_MAX_LENGTHS } from './schemas/match-candidate.js';
export { MAX_ITEMS, type ValidationContext } from './candidate.js';

const SCHEMA = compileSchema(MatchCandidate);

const PROFESSIONAL: ReadonlySet<string> = new Set(['employer', 'occupation', 'jobTitle']);
const ORGANIZATION: ReadonlySet<string> = new Set(['organizationContactCommonName', 'organizationContactOfficialName']);

function readScalars(r: Reader, body: JsonObject, vc: ValidationContext): ValidCandidate['scalars'] {
  const out: { [K in PersonScalarName]?: string | number } = {};
  const orgsEnabled = vc.context === 'campaign' && vc.settings.organizationsAsContacts;
  for (const field of Object.keys(TEXT_MAX_LENGTHS) as PersonScalarName[]) {
    const value = r.text(own(body, field), field);
    if (value === undefined) continue;
    if (PROFESSIONAL.has(field) && !vc.settings.professionalFields) r.add(field, `${field} is not available in this context.`);
    else if (ORGANIZATION.has(field) && !orgsEnabled) r.add(field, `${field} is only available in a campaign context with organizations as contacts enabled.`);
    else out[field] = value;
  }
  const party = r.text(own(body, 'party'), 'party');
  if (party !== undefined) out.party = party.toUpperCase();
  const method = r.code(own(body, 'contactMethodPreferenceCode'), 'contactMethodPreferenceCode', CONTACT_METHOD_CODES);
  if (method !== undefined) out.contactMethodPreferenceCode = method;
  const sex = r.code(own(body, 'sex'), 'sex', SEX_CODES);
  if (sex !== undefined) out.sex = sex;
  const election = r.code(own(body, 'electionType'), 'electionType', ELECTION_TYPE_CODES);
  if (election !== undefined) out.electionType = election;
  const mode = r.code(own(body, 'contactMode'), 'contactMode', CONTACT_MODE_CODES);
  if (mode !== undefined) {
    if (!orgsEnabled) r.add('contactMode', 'contactMode is only available in a campaign context with organizations as contacts enabled.');
    else out.contactMode = mode;
  }
  const cycle = r.text(own(body, 'cycle'), 'cycle');
  if (cycle !== undefined) out.cycle = cycle;
  const dob = r.text(own(body, 'dateOfBirth'), 'dateOfBirth');
  let dobYear: number | undefined;
  if (dob !== undefined) {
    const date = checkIsoDate(dob);
    if (date.ok) {
      out.dateOfBirth = date.iso;
      dobYear = date.year;
    } else if (date.problem === 'out-of-range') {
      r.add('dateOfBirth', `dateOfBirth ${clip(dob)} must fall in the 20th or 21st century (${MIN_YEAR} to ${MAX_YEAR}).`);
    } else {
      r.add('dateOfBirth', `dateOfBirth "${clip(dob)}" is not a valid ISO 8601 date.`, 'Use YYYY-MM-DD, for example 1975-09-18.');
    }
  }
  const year = r.int(own(body, 'yearOfBirth'), 'yearOfBirth', MIN_YEAR, MAX_YEAR);
  if (year !== undefined) {
    if (dobYear !== undefined && dobYear !== year) r.add('yearOfBirth', `yearOfBirth ${year} disagrees with dateOfBirth ${out.dateOfBirth}.`);
    else out.yearOfBirth = year;
  }
  const locationKey = own(body, 'collectedLocationId') != null ? 'collectedLocationId' : 'collectionLocationId';
  const location = r.int(own(body, locationKey), locationKey, 1);
  if (location !== undefined) out.collectedLocationId = location;
  const pronouns = r.obj(own(body, 'pronouns'), 'pronouns');
  if (pronouns !== undefined) {
    const id = r.int(own(pronouns, 'pronounId'), 'pronouns.pronounId', 1);
    if (id !== undefined) out.pronounId = id;
    else if (own(pronouns, 'pronounId') == null) r.add('pronouns.pronounId', 'pronouns.pronounId is required.');
  }
  return out;
}

const SELF_REPORTED = [
  { key: 'races', property: 'selfReportedRaces', idKey: 'reportedRaceId', list: 'races' },
  { key: 'ethnicities', property: 'selfReportedEthnicities', idKey: 'reportedEthnicityId', list: 'ethnicities' },
  { key: 'genders', property: 'selfReportedGenders', idKey: 'reportedGenderId', list: 'genders' },
  { key: 'sexualOrientations', property: 'selfReportedSexualOrientations', idKey: 'reportedSexualOrientationId', list: 'sexualOrientations' },
] as const;

function readReportedId(r: Reader, item: JsonObject, path: string, idKey: string, allowed: readonly NamedValue[]): number | undefined {
  const idPath = pathOf(path, idKey);
  const id = r.int(own(item, idKey), idPath, 1);
  if (id === undefined) {
    if (own(item, idKey) == null) r.add(idPath, `${idPath} is required.`);
    return undefined;
  }
  if (!allowed.some((v) => v.id === id)) {
    r.add(
      idPath,
      `${idPath} ${id} is not available in this context.`,
      allowed.length === 0
        ? 'No values are configured for this list in this context.'
        : `Available: ${allowed.map((v) => `${v.id} (${v.name})`).join(', ')}.`.slice(0, 500),
    );
    return undefined;
  }
  return id;
}

function readSelfReported(r: Reader, body: JsonObject, vc: ValidationContext): ValidCandidate['selfReported'] {
  const out: { -readonly [K in keyof StoredSelfReported]?: StoredSelfReported[K] } = {};
  for (const spec of SELF_REPORTED) {
    const value = own(body, spec.property);
    if (!Array.isArray(value) || !r.ok(spec.property)) continue;
    const ids: number[] = [];
    for (const { item, path } of r.each(value, spec.property)) {
      const id = readReportedId(r, item, path, spec.idKey, vc.settings.selfReported[spec.list]);
      if (id !== undefined && !ids.includes(id)) ids.push(id);
    }
    out[spec.key] = ids;
  }
  const lang = r.obj(own(body, 'selfReportedLanguagePreference'), 'selfReportedLanguagePreference');
  if (lang !== undefined) {
    const id = readReportedId(r, lang, 'selfReportedLanguagePreference', 'reportedLanguagePreferenceId', vc.settings.selfReported.languagePreferences);
    if (id !== undefined) out.languagePreference = id;
  }
  return out;
}

/** A positive record id from `crmId` (or `vanId`); one that cannot be ours is ignored (matching runs on the rest). */
function readCrmId(r: Reader, body: JsonObject): number | null {
  const key = own(body, 'crmId') != null ? 'crmId' : 'vanId';
  const text = r.text(own(body, key), key);
  if (text === undefined || !/^\d{1,15}$/.test(text)) return null;
  const id = Number(text);
  return id > 0 ? id : null;
}

/**
 * Validates a Match Candidate body for one context. Returns the candidate, or every issue
 * (`BAD_REQUEST` when the body is not a JSON object, else `INVALID_PARAMETER`).
 */
export function validateCandidate(body: unknown, vc: ValidationContext): CandidateResult {
  if (!isObject(body)) {
    return { ok: false, code: 'BAD_REQUEST', issues: [{ property: '', text: 'The request body must be a JSON object (a Match Candidate).' }] };
  }
  const refused = SCHEMA.validate(body);
  const r = new Reader(refused.map((i) => i.property));
  const value: ValidCandidate = {
    crmId: readCrmId(r, body),
    scalars: readScalars(r, body, vc),
    selfReported: readSelfReported(r, body, vc),
    emails: readEmails(r, body, vc),
    phones: readPhones(r, body, vc),
    addresses: readAddresses(r, body, vc),
    identifiers: readIdentifiers(r, body, vc),
    customFieldValues: readCustomFieldValues(r, body, vc),
  };
  if (refused.length === 0 && r.issues.length === 0) return { ok: true, value };
  return { ok: false, code: 'INVALID_PARAMETER', issues: SCHEMA.ordered([...refused, ...r.issues]) };
}

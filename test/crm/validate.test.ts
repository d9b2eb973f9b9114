import { describe, expect, it } from 'vitest';
import type { ValidCandidate } from '../../src/crm/candidate.js';
import { DEFAULT_CONTEXT_SETTINGS, type ContextSettings } from '../../src/crm/settings.js';
import { validateCandidate } from '../../src/crm/validate.js';
import type { ContextName } from '../../src/store/index.js';
import { RICH_CAMPAIGN, RICH_VOTERFILE, vanBody, vanFiles } from './fixtures.js';

type Where = { context?: ContextName; settings?: ContextSettings };

function run(body: unknown, where: Where = {}) {
  const context = where.context ?? 'campaign';
  const settings = where.settings ?? (context === 'campaign' ? RICH_CAMPAIGN : RICH_VOTERFILE);
  return validateCandidate(body, { context, settings });
}

function valid(body: unknown, where: Where = {}): ValidCandidate {
  const r = run(body, where);
  if (!r.ok) throw new Error(`expected valid, got ${JSON.stringify(r.issues)}`);
  return r.value;
}

function issuesOf(body: unknown, where: Where = {}): string[] {
  const r = run(body, where);
  return r.ok ? [] : r.issues.map((i) => i.property);
}

const PLAIN: Where = { context: 'voterfile', settings: DEFAULT_CONTEXT_SETTINGS };
const long = (n: number): string => 'x'.repeat(n);

/**
 * Pair table: for each rule of interface.md 2.1-2.6, a body that passes and a body that fails
 * with the named property.
 */
const PAIRS: { rule: string; good: unknown; bad: unknown; property: string; where?: Where; goodWhere?: Where }[] = [
  { rule: 'firstName max 75', good: { firstName: long(75) }, bad: { firstName: long(76) }, property: 'firstName' },
  { rule: 'middleName max 75', good: { middleName: long(75) }, bad: { middleName: long(76) }, property: 'middleName' },
  { rule: 'lastName max 150', good: { lastName: long(150) }, bad: { lastName: long(151) }, property: 'lastName' },
  { rule: 'suffix max 50', good: { suffix: long(50) }, bad: { suffix: long(51) }, property: 'suffix' },
  { rule: 'title max 10', good: { title: long(10) }, bad: { title: long(11) }, property: 'title' },
  { rule: 'salutation max 100', good: { salutation: long(100) }, bad: { salutation: long(101) }, property: 'salutation' },
  { rule: 'envelopeName max 350', good: { envelopeName: long(350) }, bad: { envelopeName: long(351) }, property: 'envelopeName' },
  { rule: 'nickname max 50', good: { nickname: long(50) }, bad: { nickname: long(51) }, property: 'nickname' },
  { rule: 'website max 50', good: { website: long(50) }, bad: { website: long(51) }, property: 'website' },
  { rule: 'employer max 50', good: { employer: long(50) }, bad: { employer: long(51) }, property: 'employer' },
  { rule: 'occupation max 50', good: { occupation: long(50) }, bad: { occupation: long(51) }, property: 'occupation' },
  { rule: 'jobTitle max 150', good: { jobTitle: long(150) }, bad: { jobTitle: long(151) }, property: 'jobTitle' },
  { rule: 'max length counts characters, not UTF-16 units', good: { title: '😀'.repeat(10) }, bad: { title: '😀'.repeat(11) }, property: 'title' },
  {
    rule: 'employer unavailable in a context',
    good: { employer: 'Acme' },
    bad: { employer: 'Acme' },
    property: 'employer',
    where: { context: 'voterfile' },
    goodWhere: {},
  },
  { rule: 'party is one character', good: { party: 'd' }, bad: { party: 'DEM' }, property: 'party' },
  {
    rule: 'contactMethodPreferenceCode P/E/M/F/S',
    good: { contactMethodPreferenceCode: 's' },
    bad: { contactMethodPreferenceCode: 'X' },
    property: 'contactMethodPreferenceCode',
  },
  { rule: 'sex M/F', good: { sex: 'f' }, bad: { sex: 'X' }, property: 'sex' },
  { rule: 'electionType list', good: { electionType: 'pp' }, bad: { electionType: 'ZZ' }, property: 'electionType' },
  { rule: 'cycle is a 4-digit numeric string', good: { cycle: '2024' }, bad: { cycle: '24ab' }, property: 'cycle' },
  { rule: 'cycle max 4', good: { cycle: '2024' }, bad: { cycle: '20245' }, property: 'cycle' },
  { rule: 'cycle is a string, not a number', good: { cycle: '2024' }, bad: { cycle: 2024 }, property: 'cycle' },
  { rule: 'dateOfBirth ISO', good: { dateOfBirth: '1975-09-18' }, bad: { dateOfBirth: '09/18/1975' }, property: 'dateOfBirth' },
  { rule: 'dateOfBirth datetime', good: { dateOfBirth: '1975-09-18T00:00:00Z' }, bad: { dateOfBirth: '1975-02-30' }, property: 'dateOfBirth' },
  { rule: 'dateOfBirth 20th or 21st century', good: { dateOfBirth: '1900-01-01' }, bad: { dateOfBirth: '1899-12-31' }, property: 'dateOfBirth' },
  { rule: 'dateOfBirth upper bound', good: { dateOfBirth: '2100-12-31' }, bad: { dateOfBirth: '2101-01-01' }, property: 'dateOfBirth' },
  { rule: 'yearOfBirth integer', good: { yearOfBirth: 1975 }, bad: { yearOfBirth: 19.75 }, property: 'yearOfBirth' },
  { rule: 'yearOfBirth four digits in range', good: { yearOfBirth: '1975' }, bad: { yearOfBirth: 12345 }, property: 'yearOfBirth' },
  {
    rule: 'yearOfBirth agrees with dateOfBirth',
    good: { yearOfBirth: 1975, dateOfBirth: '1975-01-01' },
    bad: { yearOfBirth: 1976, dateOfBirth: '1975-01-01' },
    property: 'yearOfBirth',
  },
  { rule: 'collectedLocationId integer', good: { collectedLocationId: 7 }, bad: { collectedLocationId: 'seven' }, property: 'collectedLocationId' },
  {
    rule: 'collectionLocationId spelling of the sample',
    good: { collectionLocationId: 7 },
    bad: { collectionLocationId: -1 },
    property: 'collectionLocationId',
  },
  { rule: 'pronouns.pronounId integer', good: { pronouns: { pronounId: 2 } }, bad: { pronouns: { pronounId: 'he' } }, property: 'pronouns.pronounId' },
  { rule: 'pronouns is an object', good: { pronouns: { pronounId: 1 } }, bad: { pronouns: 3 }, property: 'pronouns' },
  {
    rule: 'selfReportedRaces available in context',
    good: { selfReportedRaces: [{ reportedRaceId: 2 }] },
    bad: { selfReportedRaces: [{ reportedRaceId: 9 }] },
    property: 'selfReportedRaces[0].reportedRaceId',
  },
  {
    rule: 'selfReportedEthnicities available',
    good: { selfReportedEthnicities: [{ reportedEthnicityId: 1 }] },
    bad: { selfReportedEthnicities: [{ reportedEthnicityId: 2 }] },
    property: 'selfReportedEthnicities[0].reportedEthnicityId',
  },
  {
    rule: 'selfReportedGenders available',
    good: { selfReportedGenders: [{ reportedGenderId: 1 }] },
    bad: { selfReportedGenders: [{ reportedGenderId: 5 }] },
    property: 'selfReportedGenders[0].reportedGenderId',
  },
  {
    rule: 'selfReportedSexualOrientations available',
    good: { selfReportedSexualOrientations: [{ reportedSexualOrientationId: 1 }] },
    bad: { selfReportedSexualOrientations: [{}] },
    property: 'selfReportedSexualOrientations[0].reportedSexualOrientationId',
  },
  {
    rule: 'selfReportedLanguagePreference available',
    good: { selfReportedLanguagePreference: { reportedLanguagePreferenceId: 2 } },
    bad: { selfReportedLanguagePreference: { reportedLanguagePreferenceId: 3 } },
    property: 'selfReportedLanguagePreference.reportedLanguagePreferenceId',
  },
  {
    rule: 'self-reported values need a configured list',
    good: {},
    bad: { selfReportedRaces: [{ reportedRaceId: 1 }] },
    property: 'selfReportedRaces[0].reportedRaceId',
    where: PLAIN,
  },
  {
    rule: 'organization names only where enabled',
    good: { organizationContactCommonName: 'Acme' },
    bad: { organizationContactCommonName: 'Acme' },
    property: 'organizationContactCommonName',
    where: { context: 'voterfile' },
    goodWhere: {},
  },
  {
    rule: 'organization official name max 150',
    good: { organizationContactOfficialName: long(150) },
    bad: { organizationContactOfficialName: long(151) },
    property: 'organizationContactOfficialName',
  },
  { rule: 'contactMode Person/Organization', good: { contactMode: 'organization' }, bad: { contactMode: 'Robot' }, property: 'contactMode' },
  {
    rule: 'contactMode only where enabled',
    good: { contactMode: 'Person' },
    bad: { contactMode: 'Person' },
    property: 'contactMode',
    where: PLAIN,
    goodWhere: {},
  },
  // 2.2 emails
  { rule: 'email required', good: { emails: [{ email: 'a@b.co' }] }, bad: { emails: [{ type: 'P' }] }, property: 'emails[0].email' },
  { rule: 'email valid', good: { emails: [{ email: 'jim@gotham.city.us' }] }, bad: { emails: [{ email: 'jim@' }] }, property: 'emails[0].email' },
  {
    rule: 'email type P/W/O',
    good: { emails: [{ email: 'a@b.co', type: 'w' }] },
    bad: { emails: [{ email: 'a@b.co', type: 'X' }] },
    property: 'emails[0].type',
  },
  {
    rule: 'email isPreferred boolean',
    good: { emails: [{ email: 'a@b.co', isPreferred: true }] },
    bad: { emails: [{ email: 'a@b.co', isPreferred: 'maybe' }] },
    property: 'emails[0].isPreferred',
  },
  {
    rule: 'subscriptionStatus U/N/S',
    good: { emails: [{ email: 'a@b.co', subscriptionStatus: 'n' }] },
    bad: { emails: [{ email: 'a@b.co', subscriptionStatus: 'Q' }] },
    property: 'emails[0].subscriptionStatus',
  },
  {
    rule: 'isSubscribed with subscriptionStatus is invalid',
    good: { emails: [{ email: 'a@b.co', isSubscribed: false }] },
    bad: { emails: [{ email: 'a@b.co', isSubscribed: true, subscriptionStatus: 'S' }] },
    property: 'emails[0].subscriptionStatus',
  },
  {
    rule: 'subscriptionStatus only with targeted email',
    good: { emails: [{ email: 'a@b.co', isSubscribed: true }] },
    bad: { emails: [{ email: 'a@b.co', subscriptionStatus: 'S' }] },
    property: 'emails[0].subscriptionStatus',
    where: { context: 'voterfile' },
  },
  // 2.3 phones
  { rule: 'phoneNumber required', good: { phones: [{ phoneNumber: '2024291000' }] }, bad: { phones: [{ phoneType: 'H' }] }, property: 'phones[0].phoneNumber' },
  {
    rule: 'phoneNumber valid for the default country',
    good: { phones: [{ phoneNumber: '(202) 429-1000' }] },
    bad: { phones: [{ phoneNumber: '555-888-9999' }] },
    property: 'phones[0].phoneNumber',
  },
  {
    rule: 'phoneNumber valid for countryCode',
    good: { phones: [{ phoneNumber: '020 7946 0000', countryCode: 'gb' }] },
    bad: { phones: [{ phoneNumber: '2024291000', countryCode: 'GB' }] },
    property: 'phones[0].phoneNumber',
  },
  {
    rule: 'phoneNumber valid for dialingPrefix',
    good: { phones: [{ phoneNumber: '2079460000', dialingPrefix: '44' }] },
    bad: { phones: [{ phoneNumber: '2024291000', dialingPrefix: '44' }] },
    property: 'phones[0].phoneNumber',
  },
  {
    rule: 'phoneType H/W/C/M/F',
    good: { phones: [{ phoneNumber: '2024291000', phoneType: 'c' }] },
    bad: { phones: [{ phoneNumber: '2024291000', phoneType: 'Z' }] },
    property: 'phones[0].phoneType',
  },
  {
    rule: 'deviceType C/L/U/F/V',
    good: { phones: [{ phoneNumber: '2024291000', deviceType: 'v' }] },
    bad: { phones: [{ phoneNumber: '2024291000', deviceType: 'X' }] },
    property: 'phones[0].deviceType',
  },
  {
    rule: 'phoneOptInStatus I/U/O',
    good: { phones: [{ phoneNumber: '2024291000', phoneOptInStatus: 'o' }] },
    bad: { phones: [{ phoneNumber: '2024291000', phoneOptInStatus: 'Y' }] },
    property: 'phones[0].phoneOptInStatus',
  },
  {
    rule: 'ext at most six digits',
    good: { phones: [{ phoneNumber: '2024291000', ext: '123456' }] },
    bad: { phones: [{ phoneNumber: '2024291000', ext: '1234567' }] },
    property: 'phones[0].ext',
  },
  {
    rule: 'ext numeric',
    good: { phones: [{ phoneNumber: '2024291000', ext: 999 }] },
    bad: { phones: [{ phoneNumber: '2024291000', ext: '12a' }] },
    property: 'phones[0].ext',
  },
  {
    rule: 'dialingPrefix 1-3 digits',
    good: { phones: [{ phoneNumber: '2024291000', dialingPrefix: '1' }] },
    bad: { phones: [{ phoneNumber: '2024291000', dialingPrefix: '1234' }] },
    property: 'phones[0].dialingPrefix',
  },
  {
    rule: 'dialingPrefix consistent with countryCode',
    good: { phones: [{ phoneNumber: '4165550123', dialingPrefix: '1', countryCode: 'CA' }] },
    bad: { phones: [{ phoneNumber: '2024291000', dialingPrefix: '44', countryCode: 'US' }] },
    property: 'phones[0].dialingPrefix',
  },
  {
    rule: 'phone countryCode ISO alpha-2',
    good: { phones: [{ phoneNumber: '2024291000', countryCode: 'US' }] },
    bad: { phones: [{ phoneNumber: '2024291000', countryCode: 'XX' }] },
    property: 'phones[0].countryCode',
  },
  {
    rule: 'isCellStatus by id or name',
    good: { phones: [{ phoneNumber: '2024291000', isCellStatus: { statusName: 'likely cell' } }] },
    bad: { phones: [{ phoneNumber: '2024291000', isCellStatus: { statusId: 9 } }] },
    property: 'phones[0].isCellStatus',
  },
  {
    rule: 'isCellStatus id and name must agree',
    good: { phones: [{ phoneNumber: '2024291000', isCellStatus: { statusId: 1, statusName: 'Verified Cell' } }] },
    bad: { phones: [{ phoneNumber: '2024291000', isCellStatus: { statusId: 1, statusName: 'Not a Cell' } }] },
    property: 'phones[0].isCellStatus',
  },
  // 2.4 addresses
  {
    rule: 'address type list',
    good: { addresses: [{ zipOrPostalCode: '20009', type: 'mailing' }] },
    bad: { addresses: [{ zipOrPostalCode: '20009', type: 'Boat' }] },
    property: 'addresses[0].type',
  },
  {
    rule: 'address type available in the context',
    good: { addresses: [{ zipOrPostalCode: '20009', type: 'Voting' }] },
    bad: { addresses: [{ zipOrPostalCode: '20009', type: 'Work' }] },
    property: 'addresses[0].type',
    where: { context: 'voterfile' },
  },
  {
    rule: 'stateOrProvince 2-3 characters',
    good: { addresses: [{ city: 'Chicago', stateOrProvince: 'il' }] },
    bad: { addresses: [{ city: 'Chicago', stateOrProvince: 'Illinois' }] },
    property: 'addresses[0].stateOrProvince',
  },
  {
    rule: 'US zip: ZIP or ZIP+4',
    good: { addresses: [{ zipOrPostalCode: '60622-4455' }] },
    bad: { addresses: [{ zipOrPostalCode: '6062' }] },
    property: 'addresses[0].zipOrPostalCode',
  },
  {
    rule: 'postal code elsewhere',
    good: { addresses: [{ zipOrPostalCode: 'SW1A 1AA', countryCode: 'GB' }] },
    bad: { addresses: [{ zipOrPostalCode: '!!', countryCode: 'GB' }] },
    property: 'addresses[0].zipOrPostalCode',
  },
  {
    rule: 'address countryCode supported by the context',
    good: { addresses: [{ city: 'Toronto', countryCode: 'CA' }] },
    bad: { addresses: [{ city: 'Paris', countryCode: 'FR' }] },
    property: 'addresses[0].countryCode',
  },
  // 2.5 identifiers
  {
    rule: 'identifier type available',
    good: { identifiers: [{ type: 'statefileid', externalId: 'K1' }] },
    bad: { identifiers: [{ type: 'ssn', externalId: '1' }] },
    property: 'identifiers[0].type',
  },
  {
    rule: 'votercrmid only in campaign',
    good: { identifiers: [{ type: 'dwid', externalId: '1' }] },
    bad: { identifiers: [{ type: 'votercrmid', externalId: '1' }] },
    property: 'identifiers[0].type',
    where: { context: 'voterfile' },
  },
  {
    rule: 'votercrmid is a crmId',
    good: { identifiers: [{ type: 'VoterCrmId', externalId: '123' }] },
    bad: { identifiers: [{ type: 'votercrmid', externalId: 'abc' }] },
    property: 'identifiers[0].externalId',
  },
  {
    rule: 'externalId required',
    good: { identifiers: [{ type: 'dwid', externalId: '5' }] },
    bad: { identifiers: [{ type: 'dwid' }] },
    property: 'identifiers[0].externalId',
  },
  {
    rule: 'externalId required, not empty',
    good: { identifiers: [{ type: 'dwid', externalId: '5' }] },
    bad: { identifiers: [{ type: 'dwid', externalId: ' ' }] },
    property: 'identifiers[0].externalId',
  },
  {
    rule: 'externalId is a string',
    good: { identifiers: [{ type: 'dwid', externalId: '5' }] },
    bad: { identifiers: [{ type: 'dwid', externalId: 5 }] },
    property: 'identifiers[0].externalId',
  },
  {
    rule: 'identifier type required',
    good: { identifiers: [{ type: 'dwid', externalId: 'x' }] },
    bad: { identifiers: [{ externalId: 'x' }] },
    property: 'identifiers[0].type',
  },
  // 2.6 custom fields
  {
    rule: 'customFieldId available',
    good: { customFieldValues: [{ customFieldId: 13, customFieldGroupId: 1, assignedValue: '2.5' }] },
    bad: { customFieldValues: [{ customFieldId: 99, customFieldGroupId: 1, assignedValue: '1' }] },
    property: 'customFieldValues[0].customFieldId',
  },
  {
    rule: 'customFieldGroupId required',
    good: { customFieldValues: [{ customFieldId: 21, customFieldGroupId: 2, assignedValue: 'web' }] },
    bad: { customFieldValues: [{ customFieldId: 21, assignedValue: 'web' }] },
    property: 'customFieldValues[0].customFieldGroupId',
  },
  {
    rule: "customFieldGroupId is the field's group",
    good: { customFieldValues: [{ customFieldId: 21, customFieldGroupId: 2 }] },
    bad: { customFieldValues: [{ customFieldId: 21, customFieldGroupId: 1, assignedValue: 'x' }] },
    property: 'customFieldValues[0].customFieldGroupId',
  },
  {
    rule: 'number field',
    good: { customFieldValues: [{ customFieldId: 13, customFieldGroupId: 1, assignedValue: '12' }] },
    bad: { customFieldValues: [{ customFieldId: 13, customFieldGroupId: 1, assignedValue: 'twelve' }] },
    property: 'customFieldValues[0].assignedValue',
  },
  {
    rule: 'date field',
    good: { customFieldValues: [{ customFieldId: 14, customFieldGroupId: 1, assignedValue: '2024-02-29' }] },
    bad: { customFieldValues: [{ customFieldId: 14, customFieldGroupId: 1, assignedValue: '2023-02-29' }] },
    property: 'customFieldValues[0].assignedValue',
  },
  {
    rule: 'assignedValue is a string',
    good: { customFieldValues: [{ customFieldId: 15, customFieldGroupId: 1, assignedValue: 'true' }] },
    bad: { customFieldValues: [{ customFieldId: 15, customFieldGroupId: 1, assignedValue: true }] },
    property: 'customFieldValues[0].assignedValue',
  },
  {
    rule: 'boolean field',
    good: { customFieldValues: [{ customFieldId: 15, customFieldGroupId: 1, assignedValue: 'yes' }] },
    bad: { customFieldValues: [{ customFieldId: 15, customFieldGroupId: 1, assignedValue: 'perhaps' }] },
    property: 'customFieldValues[0].assignedValue',
  },
  {
    rule: 'choice field',
    good: { customFieldValues: [{ customFieldId: 11, customFieldGroupId: 1, assignedValue: 'm' }] },
    bad: { customFieldValues: [{ customFieldId: 11, customFieldGroupId: 1, assignedValue: 'XL' }] },
    property: 'customFieldValues[0].assignedValue',
  },
  {
    rule: 'text field maxLength',
    good: { customFieldValues: [{ customFieldId: 12, customFieldGroupId: 1, assignedValue: long(10) }] },
    bad: { customFieldValues: [{ customFieldId: 12, customFieldGroupId: 1, assignedValue: long(11) }] },
    property: 'customFieldValues[0].assignedValue',
  },
  // shapes
  { rule: 'arrays hold objects', good: { emails: [{ email: 'a@b.co' }] }, bad: { emails: ['a@b.co'] }, property: 'emails[0]' },
  { rule: 'an array property is not a string', good: { phones: [] }, bad: { phones: '2024291000' }, property: 'phones' },
  { rule: 'strings are not booleans', good: { firstName: 'Ada' }, bad: { firstName: true }, property: 'firstName' },
  { rule: 'lone surrogates are not characters', good: { firstName: 'Zoë' }, bad: { firstName: 'Zo\ud800' }, property: 'firstName' },
  {
    rule: 'collections are bounded',
    good: { emails: Array.from({ length: 100 }, (_, i) => ({ email: `a${i}@b.co` })) },
    bad: { emails: Array.from({ length: 101 }, (_, i) => ({ email: `a${i}@b.co` })) },
    property: 'emails',
  },
];

describe('validateCandidate: pair table of the contract rules', () => {
  for (const pair of PAIRS) {
    it(pair.rule, () => {
      expect(issuesOf(pair.good, pair.goodWhere ?? pair.where ?? {})).toEqual([]);
      expect(issuesOf(pair.bad, pair.where ?? {})).toEqual([pair.property]);
    });
  }

  it('names every issue at once, each by its dot path', () => {
    const r = run({
      firstName: long(80),
      sex: 'Q',
      dateOfBirth: '1800-01-01',
      emails: [{ email: 'ok@x.org' }, { email: 'nope', type: 'Z' }],
      phones: [{ phoneNumber: '2024291000', ext: 'abcdefg' }, { phoneNumber: '2024291000' }, { phoneNumber: '12', dialingPrefix: '9999' }],
      addresses: [{ type: 'Boat', zipOrPostalCode: '1' }],
      identifiers: [{ type: 'nope', externalId: 'x' }],
      customFieldValues: [{ customFieldId: 404, customFieldGroupId: 1 }],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe('INVALID_PARAMETER');
    expect(r.issues.map((i) => i.property).sort()).toEqual([
      'addresses[0].type',
      'addresses[0].zipOrPostalCode',
      'customFieldValues[0].customFieldId',
      'dateOfBirth',
      'emails[1].email',
      'emails[1].type',
      'firstName',
      'identifiers[0].type',
      'phones[0].ext',
      'phones[2].dialingPrefix',
      'phones[2].phoneNumber',
      'sex',
    ]);
    for (const issue of r.issues) expect(issue.text.length).toBeGreaterThan(10);
  });

  it('a body that is not an object is a BAD_REQUEST about the whole body', () => {
    for (const body of [null, [], 'x', 3, true]) {
      const r = run(body);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r).toMatchObject({ code: 'BAD_REQUEST', issues: [{ property: '' }] });
    }
  });
});

describe('validateCandidate: tolerance of real clients (compatibility.md)', () => {
  it('ignores unknown keys and treats explicit null as absent', () => {
    const v = valid({
      firstName: 'Bob',
      lastName: null,
      whatever: { deep: [1] },
      phones: null,
      emails: [{ email: 'a@b.co', type: null, isSubscribed: null }],
      sex: null,
    });
    expect(v.scalars).toEqual({ firstName: 'Bob' });
    expect(v.phones).toEqual([]);
    expect(v.emails).toEqual([{ email: 'a@b.co', key: 'a@b.co' }]);
  });

  it('accepts phoneNumber as a JSON number', () => {
    const v = valid({ phones: [{ phoneNumber: 4142020792, phoneType: null }] });
    expect(v.phones[0]).toMatchObject({ phoneNumber: '4142020792', e164: '+14142020792', countryCode: 'US', dialingPrefix: '1', ext: null });
  });

  it('accepts enum codes in any case (address types also by their initials)', () => {
    const v = valid({
      sex: 'm',
      contactMethodPreferenceCode: 'e',
      electionType: 'sg',
      party: 'r',
      emails: [{ email: 'a@b.co', type: 'w', subscriptionStatus: 'n' }],
      phones: [{ phoneNumber: '2024291000', phoneType: 'c', deviceType: 'v', phoneOptInStatus: 'i' }],
      addresses: [{ zipOrPostalCode: '20009', type: 'H' }],
    });
    expect(v.scalars).toMatchObject({ sex: 'M', contactMethodPreferenceCode: 'E', electionType: 'SG', party: 'R' });
    expect(v.emails[0]).toMatchObject({ type: 'W', subscriptionStatus: 'N' });
    expect(v.phones[0]).toMatchObject({ phoneType: 'C', deviceType: 'V', phoneOptInStatus: 'I' });
    expect(v.addresses[0]?.type).toBe('Home');
  });

  it('ignores a single object sent where an array is expected', () => {
    const v = valid({
      emails: { email: 'not-even-valid' },
      phones: { phoneNumber: 'x' },
      addresses: { type: 'Boat' },
      identifiers: { type: 'nope' },
      customFieldValues: { customFieldId: 'x' },
      selfReportedRaces: { reportedRaceId: 99 },
    });
    expect(v).toMatchObject({ emails: [], phones: [], addresses: [], identifiers: [], customFieldValues: [], selfReported: {} });
  });

  it('treats empty strings as absent and trims', () => {
    const v = valid({ firstName: '  Ada ', lastName: '', middleName: '   ' });
    expect(v.scalars).toEqual({ firstName: 'Ada' });
  });

  it('reads crmId as a string or number, vanId as its alias, and ignores ids that cannot exist', () => {
    expect(valid({ crmId: '42' }).crmId).toBe(42);
    expect(valid({ crmId: 42 }).crmId).toBe(42);
    expect(valid({ vanId: 1234 }).crmId).toBe(1234);
    expect(valid({ crmId: 'abc' }).crmId).toBeNull();
    expect(valid({ crmId: -5 }).crmId).toBeNull();
    expect(issuesOf({ crmId: { id: 1 } })).toEqual(['crmId']);
  });

  it('a zip sent as a JSON number is an issue (the contract says string; only phoneNumber is tolerated)', () => {
    expect(issuesOf({ addresses: [{ zipOrPostalCode: 2145 }] })).toEqual(['addresses[0].zipOrPostalCode']);
  });

  it('normalizes phones: a leading + is international, dialingPrefix alone selects the country', () => {
    expect(valid({ phones: [{ phoneNumber: '+44 20 7946 0000' }] }).phones[0]).toMatchObject({ e164: '+442079460000', countryCode: 'GB', dialingPrefix: '44' });
    expect(valid({ phones: [{ phoneNumber: '1-202-429-1000' }] }).phones[0]?.e164).toBe('+12024291000');
    expect(valid({ phones: [{ phoneNumber: '2079460000', dialingPrefix: '+44' }] }).phones[0]?.countryCode).toBe('GB');
  });

  it('keeps one of each email and phone sent twice in a body', () => {
    const v = valid({ emails: [{ email: 'A@b.co' }, { email: 'a@B.CO' }], phones: [{ phoneNumber: '2024291000' }, { phoneNumber: '+1 (202) 429-1000' }] });
    expect(v.emails).toHaveLength(1);
    expect(v.phones).toHaveLength(1);
  });

  it('drops an address with no content; defaults type Home and country to the context', () => {
    const v = valid({ addresses: [{ type: 'Home' }, { addressLine1: '1 Main St' }] });
    expect(v.addresses).toEqual([
      {
        addressLine1: '1 Main St',
        addressLine2: null,
        addressLine3: null,
        city: null,
        stateOrProvince: null,
        zipOrPostalCode: null,
        countryCode: 'US',
        type: 'Home',
      },
    ]);
  });

  it('gives custom values their canonical text', () => {
    const v = valid({
      customFieldValues: [
        { customFieldId: 11, customFieldGroupId: 1, assignedValue: 'l' },
        { customFieldId: 15, customFieldGroupId: 1, assignedValue: 'YES' },
        { customFieldId: 14, customFieldGroupId: 1, assignedValue: '2024-01-31T10:00:00Z' },
        { customFieldId: 13, customFieldGroupId: '1', assignedValue: null },
      ],
    });
    expect(v.customFieldValues.map((c) => c.assignedValue)).toEqual(['L', 'true', '2024-01-31', null]);
  });

  it('the identifier type takes the spelling of the context list', () => {
    expect(valid({ identifiers: [{ type: 'STATEFILEID', externalId: ' KLYW682Z ' }] }).identifiers).toEqual([{ type: 'StateFileID', externalId: 'KLYW682Z' }]);
  });

  it('below the minimum combinations is not a validation error', () => {
    expect(run({}).ok).toBe(true);
    expect(run({ firstName: 'Ada' }).ok).toBe(true);
  });
});

describe('validateCandidate: every captured find / findOrCreate body is accepted', () => {
  const files = [...vanFiles('parsons-sent-find-'), ...vanFiles('parsons-sent-findOrCreate-')];
  it('has the captured bodies', () => expect(files.length).toBeGreaterThanOrEqual(5));
  for (const file of files) {
    for (const context of ['voterfile', 'campaign'] as const) {
      for (const [name, settings] of [
        ['default settings', DEFAULT_CONTEXT_SETTINGS],
        ['rich settings', context === 'campaign' ? RICH_CAMPAIGN : RICH_VOTERFILE],
      ] as const) {
        it(`${file} in ${context} (${name})`, () => {
          expect(run(vanBody(file), { context, settings })).toMatchObject({ ok: true });
        });
      }
    }
  }

  it('the ngp_van match candidate is refused only for its fictional 555 phone numbers', () => {
    expect(issuesOf(vanBody('ngp_van-ruby-match_candidate.json'))).toEqual(['phones[0].phoneNumber', 'phones[1].phoneNumber']);
  });
});

describe('validateCandidate: review gaps (required means non-empty, codes are codes, strings are strings)', () => {
  it('an empty or blank phoneNumber / email is "required", not absent', () => {
    expect(issuesOf({ phones: [{ phoneNumber: '' }] })).toEqual(['phones[0].phoneNumber']);
    expect(issuesOf({ phones: [{ phoneNumber: '   ', phoneType: 'H' }] })).toEqual(['phones[0].phoneNumber']);
    expect(issuesOf({ emails: [{ email: '' }] })).toEqual(['emails[0].email']);
    expect(issuesOf({ identifiers: [{ type: '', externalId: 'x' }] })).toEqual(['identifiers[0].type']);
    const r = run({ phones: [{ phoneNumber: '' }] });
    expect(r.ok ? '' : r.issues[0]?.text).toMatch(/required/);
  });

  it('a name is not a code: sex, contactMethodPreferenceCode and the other code fields', () => {
    const CASES: [unknown, string][] = [
      [{ sex: 'male' }, 'sex'],
      [{ sex: 'Female' }, 'sex'],
      [{ contactMethodPreferenceCode: 'phone' }, 'contactMethodPreferenceCode'],
      [{ contactMethodPreferenceCode: 'Email' }, 'contactMethodPreferenceCode'],
      [{ party: 'Dem' }, 'party'],
      [{ electionType: 'General' }, 'electionType'],
      [{ electionType: 'Presidential Primary' }, 'electionType'],
      [{ cycle: '24' }, 'cycle'],
      [{ cycle: '２０２４' }, 'cycle'],
      [{ phones: [{ phoneNumber: '2024291000', phoneType: 'Cell' }] }, 'phones[0].phoneType'],
      [{ phones: [{ phoneNumber: '2024291000', phoneType: 'mobile' }] }, 'phones[0].phoneType'],
      [{ phones: [{ phoneNumber: '2024291000', deviceType: 'Landline' }] }, 'phones[0].deviceType'],
      [{ phones: [{ phoneNumber: '2024291000', phoneOptInStatus: 'Opt In' }] }, 'phones[0].phoneOptInStatus'],
      [{ emails: [{ email: 'a@b.co', type: 'Work' }] }, 'emails[0].type'],
      [{ emails: [{ email: 'a@b.co', subscriptionStatus: 'Subscribed' }] }, 'emails[0].subscriptionStatus'],
      [{ addresses: [{ city: 'Chicago', type: 'House' }] }, 'addresses[0].type'],
    ];
    for (const [body, property] of CASES) expect(issuesOf(body), JSON.stringify(body)).toEqual([property]);
    // Codes in any case stay accepted.
    expect(valid({ sex: 'f', contactMethodPreferenceCode: 's', electionType: 'mg', cycle: '2024' }).scalars).toMatchObject({
      sex: 'F',
      contactMethodPreferenceCode: 'S',
      electionType: 'MG',
      cycle: '2024',
    });
    expect(valid({ addresses: [{ city: 'Chicago', type: 'VOTING' }] }).addresses[0]?.type).toBe('Voting');
  });

  it('a number, boolean or object where the contract says string is an issue naming the property', () => {
    const wrong = [42, true, { a: 1 }];
    const STRING_PROPERTIES: [(v: unknown) => unknown, string][] = [
      ...[
        'firstName',
        'middleName',
        'lastName',
        'suffix',
        'title',
        'salutation',
        'envelopeName',
        'nickname',
        'website',
        'employer',
        'occupation',
        'jobTitle',
        'party',
        'contactMethodPreferenceCode',
        'sex',
        'dateOfBirth',
        'electionType',
        'cycle',
        'organizationContactCommonName',
        'organizationContactOfficialName',
        'contactMode',
      ].map((k) => [(v: unknown) => ({ [k]: v }), k] as [(v: unknown) => unknown, string]),
      [(v) => ({ emails: [{ email: v }] }), 'emails[0].email'],
      [(v) => ({ emails: [{ email: 'a@b.co', type: v }] }), 'emails[0].type'],
      [(v) => ({ emails: [{ email: 'a@b.co', subscriptionStatus: v }] }), 'emails[0].subscriptionStatus'],
      [(v) => ({ phones: [{ phoneNumber: '2024291000', phoneType: v }] }), 'phones[0].phoneType'],
      [(v) => ({ phones: [{ phoneNumber: '2024291000', deviceType: v }] }), 'phones[0].deviceType'],
      [(v) => ({ phones: [{ phoneNumber: '2024291000', phoneOptInStatus: v }] }), 'phones[0].phoneOptInStatus'],
      [(v) => ({ phones: [{ phoneNumber: '2024291000', countryCode: v }] }), 'phones[0].countryCode'],
      [(v) => ({ phones: [{ phoneNumber: '2024291000', dialingPrefix: v }] }), 'phones[0].dialingPrefix'],
      ...['addressLine1', 'addressLine2', 'addressLine3', 'city', 'stateOrProvince', 'zipOrPostalCode', 'countryCode', 'type'].map(
        (k) => [(v: unknown) => ({ addresses: [{ city: 'Chicago', [k]: v }] }), `addresses[0].${k}`] as [(v: unknown) => unknown, string],
      ),
      [(v) => ({ identifiers: [{ type: v, externalId: 'x' }] }), 'identifiers[0].type'],
      [(v) => ({ identifiers: [{ type: 'dwid', externalId: v }] }), 'identifiers[0].externalId'],
      [(v) => ({ customFieldValues: [{ customFieldId: 21, customFieldGroupId: 2, assignedValue: v }] }), 'customFieldValues[0].assignedValue'],
    ];
    for (const [build, property] of STRING_PROPERTIES) {
      for (const v of wrong) {
        const body = build(v);
        expect(issuesOf(body), JSON.stringify(body)).toEqual([property]);
      }
      // Explicit null is absent, never an issue (except where the property is required).
      const nullBody = build(null);
      const required = ['emails[0].email', 'identifiers[0].type', 'identifiers[0].externalId'].includes(property);
      expect(issuesOf(nullBody), JSON.stringify(nullBody)).toEqual(required ? [property] : []);
    }
  });

  it('phoneNumber (and ext, which a captured client sends so) may be JSON numbers', () => {
    expect(valid({ phones: [{ phoneNumber: 2024291000, ext: 999 }] }).phones[0]).toMatchObject({ e164: '+12024291000', ext: '999' });
    expect(issuesOf({ phones: [{ phoneNumber: true }] })).toEqual(['phones[0].phoneNumber']);
    expect(issuesOf({ phones: [{ phoneNumber: { n: 1 } }] })).toEqual(['phones[0].phoneNumber']);
  });

  it('names every issue at once', () => {
    const r = run({ sex: 'male', contactMethodPreferenceCode: 'phone', cycle: 2024, phones: [{ phoneNumber: '' }], emails: [{ email: 7 }] });
    expect(r.ok ? [] : r.issues.map((i) => i.property)).toEqual(['contactMethodPreferenceCode', 'sex', 'cycle', 'emails[0].email', 'phones[0].phoneNumber']);
  });
});

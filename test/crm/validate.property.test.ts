import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTEXT_SETTINGS } from '../../src/crm/settings.js';
import { TEXT_MAX_LENGTHS, validateCandidate } from '../../src/crm/validate.js';
import { isValidEmail } from '../../src/crm/values.js';
import { RICH_CAMPAIGN } from './fixtures.js';

const CONTEXTS = [
  { context: 'campaign' as const, settings: RICH_CAMPAIGN },
  { context: 'voterfile' as const, settings: DEFAULT_CONTEXT_SETTINGS },
];

/** Every key the validator reads, so generated bodies hit real code paths. */
const KEYS = [
  'crmId',
  'vanId',
  'firstName',
  'middleName',
  'lastName',
  'suffix',
  'title',
  'salutation',
  'envelopeName',
  'pronouns',
  'nickname',
  'website',
  'party',
  'contactMethodPreferenceCode',
  'employer',
  'occupation',
  'jobTitle',
  'sex',
  'dateOfBirth',
  'yearOfBirth',
  'collectedLocationId',
  'collectionLocationId',
  'electionType',
  'cycle',
  'selfReportedRaces',
  'selfReportedEthnicities',
  'selfReportedGenders',
  'selfReportedSexualOrientations',
  'selfReportedLanguagePreference',
  'emails',
  'phones',
  'addresses',
  'identifiers',
  'customFieldValues',
  'organizationContactCommonName',
  'organizationContactOfficialName',
  'contactMode',
  '__proto__',
  'constructor',
];
const INNER_KEYS = [
  'email',
  'type',
  'isPreferred',
  'isSubscribed',
  'subscriptionStatus',
  'phoneNumber',
  'phoneType',
  'deviceType',
  'ext',
  'phoneOptInStatus',
  'isCellStatus',
  'statusId',
  'statusName',
  'dialingPrefix',
  'countryCode',
  'addressLine1',
  'addressLine2',
  'city',
  'stateOrProvince',
  'zipOrPostalCode',
  'externalId',
  'customFieldId',
  'customFieldGroupId',
  'assignedValue',
  'pronounId',
  'reportedRaceId',
  'reportedLanguagePreferenceId',
];

const LONE = ['\ud800', '\udfff', 'a\udc00b', '\ud83d', 'Zo\ud800ë'];
const nasty = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(...LONE, '', ' ', 'S', 'u', '2024', '1975-09-18', '2024291000', '+442079460000', 'a@b.co', 'Home', '1', 'true', 'null'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const inner = fc.dictionary(fc.constantFrom(...INNER_KEYS), fc.oneof(nasty, fc.jsonValue({ maxDepth: 2 })), { maxKeys: 8 });
const value = fc.oneof(nasty, inner, fc.array(fc.oneof(inner, nasty), { maxLength: 4 }), fc.jsonValue({ maxDepth: 3 }));
const candidateLike = fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 12 });

function checkResult(body: unknown): void {
  for (const vc of CONTEXTS) {
    const r = validateCandidate(body, vc);
    expect(typeof r.ok).toBe('boolean');
    if (!r.ok) {
      expect(r.issues.length).toBeGreaterThan(0);
      for (const issue of r.issues) {
        expect(typeof issue.property).toBe('string');
        expect(issue.text.length).toBeGreaterThan(0);
        expect(() => JSON.stringify(issue)).not.toThrow();
      }
      continue;
    }
    const v = r.value;
    for (const [field, max] of Object.entries(TEXT_MAX_LENGTHS)) {
      const s = (v.scalars as Record<string, unknown>)[field];
      if (typeof s === 'string') expect(Array.from(s).length).toBeLessThanOrEqual(max);
    }
    for (const e of v.emails) expect(isValidEmail(e.email)).toBe(true);
    for (const p of v.phones) {
      expect(p.e164).toMatch(/^\+\d{4,15}$/);
      if (p.ext !== null) expect(p.ext).toMatch(/^\d{1,6}$/);
    }
    if (v.scalars.dateOfBirth !== undefined) expect(v.scalars.dateOfBirth).toMatch(/^(19\d\d|20\d\d|2100)-\d\d-\d\d$/);
  }
}

describe('validateCandidate is total', () => {
  it('never throws on arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => checkResult(body)),
      { numRuns: 500 },
    );
  });

  it('never throws on candidate-shaped bodies with wrong types, odd strings and lone surrogates', () => {
    fc.assert(
      fc.property(candidateLike, (body) => checkResult(body)),
      { numRuns: 1500 },
    );
  });

  it('survives deep nesting', () => {
    let deep: unknown = { firstName: 'x' };
    for (let i = 0; i < 10000; i++) deep = i % 2 === 0 ? [deep] : { emails: deep, phones: [deep], pronouns: deep };
    checkResult(deep);
    checkResult({ emails: [deep], phones: [deep], addresses: [deep], customFieldValues: [deep], pronouns: deep });
  });

  it('answers on huge strings (a backtracking rule would time the test out), with an issue naming the property', () => {
    const huge = 'x'.repeat(5_000_000);
    const body = {
      firstName: huge,
      dateOfBirth: huge,
      cycle: huge,
      crmId: huge,
      emails: [{ email: huge }],
      phones: [{ phoneNumber: huge, ext: huge }],
      addresses: [{ addressLine1: huge, zipOrPostalCode: huge }],
      identifiers: [{ type: 'dwid', externalId: huge }],
      customFieldValues: [{ customFieldId: 12, customFieldGroupId: 1, assignedValue: huge }],
    };
    const r = validateCandidate(body, CONTEXTS[0] as (typeof CONTEXTS)[0]);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.issues.map((i) => i.property)).toEqual(
        expect.arrayContaining(['firstName', 'emails[0].email', 'phones[0].phoneNumber', 'addresses[0].addressLine1', 'identifiers[0].externalId']),
      );
      for (const issue of r.issues) expect(issue.text.length).toBeLessThan(1000);
    }
  });

  it('bounds the number of issues of a hopeless body', () => {
    const body = { emails: Array.from({ length: 100 }, () => ({ email: 'x', type: 'Z', isPreferred: 'q' })) };
    const r = validateCandidate(body, CONTEXTS[0] as (typeof CONTEXTS)[0]);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.length).toBeLessThanOrEqual(100);
  });
});

/**
 * The Match Candidate (interface.md 2.1-2.6) as one schema: the body of find, findOrCreate,
 * contacts/findOrCreate and POST /people/{crmId}. Validation (schemas/check.ts) and the OpenAPI
 * document (src/server/openapi.ts) both come from it. It states the shape, the JSON types
 * clients may send, lengths, codes and digit patterns; what depends on the context's settings or
 * on outside rules (a valid phone number for its country, an email address, a calendar date, the
 * custom fields of the context, the contract's cross-field rules) is code on top (validate.ts).
 *
 * Property order is the order issues are reported in.
 */
import type { TSchema } from '@sinclair/typebox';
import {
  ADDRESS_TYPE_CODES,
  CONTACT_METHOD_CODES,
  CONTACT_MODE_CODES,
  DEVICE_TYPE_CODES,
  ELECTION_TYPE_CODES,
  EMAIL_TYPE_CODES,
  OPT_IN_CODES,
  PHONE_TYPE_CODES,
  SEX_CODES,
  SUBSCRIPTION_CODES,
} from '../codes.js';
import { MAX_YEAR, MIN_YEAR } from '../values.js';
import { Bool, Code, IdLike, Int, List, Obj, Patterned, Text, TextOrNumber, clip, objectOf } from './kit.js';

/** Text properties of 2.1 with their maximum lengths (characters). */
export const TEXT_MAX_LENGTHS = {
  firstName: 75,
  middleName: 75,
  lastName: 150,
  suffix: 50,
  title: 10,
  salutation: 100,
  envelopeName: 350,
  nickname: 50,
  website: 50,
  employer: 50,
  occupation: 50,
  jobTitle: 150,
  organizationContactCommonName: 150,
  organizationContactOfficialName: 150,
} as const;

/** Longest text accepted where the contract states no maximum (our defensive bound). */
export const UNSPECIFIED_MAX_LENGTH = 1000;
/** Longest external identifier value accepted (the contract shows none; ours). */
export const MAX_EXTERNAL_ID_LENGTH = 100;

/** The canonical codes of a code map (its keys that are their own value's spelling). */
function codesOf(map: Readonly<Record<string, string>>): string[] {
  return Object.keys(map)
    .filter((k) => map[k]?.toUpperCase() === k)
    .map((k) => map[k] as string);
}
/** Every accepted spelling of a code map (codes, and names such as address type initials). */
function spellingsOf(map: Readonly<Record<string, string>>): string[] {
  return Object.keys(map);
}

const ISO_DATE = '^\\s*\\d{4}-\\d{2}-\\d{2}(?:[Tt ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?(?:[Zz]|[+-]\\d{2}(?::?\\d{2})?)?)?\\s*$';

const texts: Record<string, TSchema> = {};
for (const [name, max] of Object.entries(TEXT_MAX_LENGTHS)) texts[name] = Text(max, `At most ${max} characters.`);

const reported = (idKey: string, list: string) =>
  List(
    { [idKey]: Int(1, Number.MAX_SAFE_INTEGER, `The id of a value of the context's ${list} list.`) },
    [idKey],
    `Ids of the context's ${list} list (tenant settings).`,
    `an object with ${idKey}`,
  );

/** The Match Candidate schema. */
export const MatchCandidate = objectOf(
  {
    crmId: IdLike('A record id: it wins over every other criterion when the record exists; an unknown one is ignored.'),
    vanId: IdLike('Same as crmId (what clients of the modeled API send).'),
    ...texts,
    party: Patterned(1, '^\\s*\\S?\\s*$', 'A one-character party code.', (path, v) => ({ text: `${path} "${clip(v)}" must be one character.` })),
    contactMethodPreferenceCode: Code(codesOf(CONTACT_METHOD_CODES), 'P (phone), E (email), M (mail), F (fax), S (SMS)'),
    sex: Code(codesOf(SEX_CODES), 'M, F'),
    electionType: Code(codesOf(ELECTION_TYPE_CODES), 'G, P, R, PP, SP, SG, MP, MG, C, O'),
    contactMode: Code(spellingsOf(CONTACT_MODE_CODES), 'Person, Organization'),
    cycle: Patterned(4, '^\\s*[0-9]{4}\\s*$', 'A four-digit year such as "2024".', (path, v) => ({
      text: `${path} "${clip(v)}" must be a four-digit year such as "2024".`,
    })),
    dateOfBirth: Patterned(40, ISO_DATE, 'ISO 8601 date (or date-time) in 1900-2100.', (path, v) => ({
      text: `${path} "${clip(v)}" is not a valid ISO 8601 date.`,
      hint: 'Use YYYY-MM-DD, for example 1975-09-18.',
    })),
    yearOfBirth: Int(MIN_YEAR, MAX_YEAR, 'A four-digit year, 1900-2100; must agree with dateOfBirth.'),
    collectedLocationId: Int(1, Number.MAX_SAFE_INTEGER, 'Where the data was collected.'),
    collectionLocationId: Int(1, Number.MAX_SAFE_INTEGER, "Same as collectedLocationId (the spelling of the contract's sample)."),
    pronouns: Obj({ pronounId: Int(1, Number.MAX_SAFE_INTEGER, 'A pronoun id.') }, ['pronounId'], 'Preferred pronouns.'),
    selfReportedRaces: reported('reportedRaceId', 'races'),
    selfReportedEthnicities: reported('reportedEthnicityId', 'ethnicities'),
    selfReportedGenders: reported('reportedGenderId', 'genders'),
    selfReportedSexualOrientations: reported('reportedSexualOrientationId', 'sexualOrientations'),
    selfReportedLanguagePreference: Obj(
      { reportedLanguagePreferenceId: Int(1, Number.MAX_SAFE_INTEGER, 'A language preference id.') },
      ['reportedLanguagePreferenceId'],
      "An id of the context's languagePreferences list.",
      'an object with reportedLanguagePreferenceId',
    ),
    emails: List(
      {
        email: Text(320, 'An email address; required.'),
        type: Code(codesOf(EMAIL_TYPE_CODES), 'P (personal), W (work), O (other)'),
        isPreferred: Bool('The preferred email.'),
        isSubscribed: Bool('Subscribed to email (contexts without targeted email).'),
        subscriptionStatus: Code(
          codesOf(SUBSCRIPTION_CODES),
          'U (unsubscribed), N (neutral), S (subscribed); only where targeted email is enabled, and not with isSubscribed',
        ),
      },
      ['email'],
      'Email addresses; new ones are appended on update.',
      'an email object with an "email" property',
    ),
    phones: List(
      {
        phoneNumber: TextOrNumber(50, 'The number, with its area code; a JSON number is accepted. Required.'),
        countryCode: Text(2, 'ISO 3166-1 alpha-2 country of the number.'),
        dialingPrefix: Patterned(10, '^\\s*\\+?[0-9]{1,3}\\s*$', 'The country calling code ("1", "44"); must agree with countryCode.', (path) => ({
          text: `${path} must be 1 to 3 digits, such as "1" or "44".`,
        })),
        ext: TextOrNumber(20, 'Extension, up to six digits; a JSON number is accepted.', {
          pattern: '^\\s*[0-9]{1,6}\\s*$',
          problem: (path) => ({ text: `${path} must be at most six digits.` }),
        }),
        phoneType: Code(codesOf(PHONE_TYPE_CODES), 'H (home), W (work), C (cell), M (main), F (fax)'),
        deviceType: Code(codesOf(DEVICE_TYPE_CODES), 'C (cell), L (landline), U (unknown), F (fax), V (VoIP)'),
        isPreferred: Bool('The preferred phone.'),
        phoneOptInStatus: Code(codesOf(OPT_IN_CODES), 'I (opt in), U (unknown), O (opt out)'),
        isCellStatus: Obj(
          {
            statusId: Int(0, Number.MAX_SAFE_INTEGER, 'An id of GET /phones/isCellStatuses.'),
            statusName: Text(50, 'A name of GET /phones/isCellStatuses, any case.'),
          },
          [],
          'statusId or statusName (or both, agreeing).',
        ),
      },
      ['phoneNumber'],
      'Phone numbers; new ones are appended on update.',
      'a phone object with a "phoneNumber" property',
    ),
    addresses: List(
      {
        addressLine1: Text(UNSPECIFIED_MAX_LENGTH, 'Street address.'),
        addressLine2: Text(UNSPECIFIED_MAX_LENGTH, 'Address line 2.'),
        addressLine3: Text(UNSPECIFIED_MAX_LENGTH, 'Address line 3.'),
        city: Text(UNSPECIFIED_MAX_LENGTH, 'City.'),
        stateOrProvince: Patterned(3, '^\\s*[A-Za-z0-9]{2,3}\\s*$', 'A two or three character code, such as "IL".', (path) => ({
          text: `${path} must be a two or three character code, such as "IL".`,
        })),
        zipOrPostalCode: Text(12, 'ZIP (5 digits or ZIP+4) in the US, a postal code elsewhere.'),
        countryCode: Text(2, "ISO 3166-1 alpha-2; the context's default country when absent."),
        type: Code(spellingsOf(ADDRESS_TYPE_CODES), 'Mailing, Home, Voting, Work, Custom (or their initials); Home when absent; those of the context'),
      },
      [],
      'Addresses; new ones are appended on update.',
      'an address object',
    ),
    identifiers: List(
      {
        type: Text(50, "An identifier type of the context (dwid; votercrmid, or votervanid, in the campaign context; the tenant's own), any case. Required."),
        externalId: Text(MAX_EXTERNAL_ID_LENGTH, 'The value; for votercrmid the crmId of a voter-file record of the tenant. Required.'),
      },
      ['type', 'externalId'],
      'External identifiers; one that names a record decides the match.',
      'an identifier object with "type" and "externalId"',
    ),
    customFieldValues: List(
      {
        customFieldId: Int(1, Number.MAX_SAFE_INTEGER, 'A custom field of the context. Required.'),
        customFieldGroupId: Int(1, Number.MAX_SAFE_INTEGER, "The field's group. Required."),
        assignedValue: Text(10000, "The value, as text for the field's type; null clears it."),
      },
      ['customFieldId', 'customFieldGroupId'],
      'Custom field values of the context.',
      'a custom field value object',
    ),
  },
  [],
  { description: 'A Match Candidate (interface.md 2.1-2.6). Unknown properties are ignored; null is absent.' },
);

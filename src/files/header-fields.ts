/**
 * The vocabulary of headers: the fields a column can feed, and the names files give them
 * (aliases, the words headers add before and after a field's name, id columns, identifier
 * types). Data for header-map.ts, which matches headers against it.
 */
import { foldCompact } from '../engine/index.js';

/** Fields a column can feed. `fullName` is split into its parts (engine parseFullName). */
export type ContactField =
  | 'firstName'
  | 'middleName'
  | 'lastName'
  | 'suffix'
  | 'fullName'
  | 'email'
  | 'phone'
  | 'dateOfBirth'
  | 'addressLine1'
  | 'addressLine2'
  | 'addressLine3'
  | 'streetNumber'
  | 'streetName'
  | 'city'
  | 'stateOrProvince'
  | 'zipOrPostalCode'
  | 'countryCode'
  | 'yearOfBirth'
  | 'monthOfBirth'
  | 'dayOfBirth'
  | 'sex'
  | 'identifier'
  | 'attribute';

/** Every field, in the order the summary lists them. */
// prettier-ignore
export const CONTACT_FIELDS: readonly ContactField[] = [
  'firstName', 'middleName', 'lastName', 'suffix', 'fullName', 'email', 'phone', 'dateOfBirth',
  'addressLine1', 'addressLine2', 'addressLine3', 'streetNumber', 'streetName', 'city',
  'stateOrProvince', 'zipOrPostalCode', 'countryCode', 'yearOfBirth', 'monthOfBirth', 'dayOfBirth', 'sex', 'identifier',
  'attribute',
];

/**
 * Fields several columns may feed (a person has several emails and phones; a file several
 * identifier columns, an SSN and a passport number; and several attribute columns).
 */
export const MULTI_VALUE_FIELDS: ReadonlySet<ContactField> = new Set(['email', 'phone', 'identifier', 'attribute']);

/** What `--map HEADER=ignore` (or `-`) sets: the column is not matched on. */
export const IGNORE = 'ignore';

/**
 * Aliases of each field, written as header keys (see {@link headerKey}): lower case, letters
 * and digits only. The field's own name is always an alias too.
 */
// prettier-ignore
export const DEFAULT_HEADER_ALIASES: Readonly<Record<ContactField, readonly string[]>> = {
  firstName: ['first', 'fname', 'firstnm', 'givenname', 'given', 'givennames', 'forename', 'forenames', 'christianname', 'christiannames', 'namefirst', 'frstname', 'firstnames'],
  middleName: ['middle', 'additionalname', 'mname', 'middlenames', 'middleinitial', 'mi', 'initial', 'namemiddle', 'secondname', 'midl', 'midlname', 'midname', 'middlenm', 'midinit'],
  lastName: ['last', 'lname', 'lastnm', 'surname', 'surnames', 'familyname', 'familynames', 'family', 'namelast', 'secondlastname', 'lastnames'],
  suffix: ['namesuffix', 'suffixname', 'generation', 'gensuffix', 'sfx', 'sufx', 'namesufx', 'namesfx'],
  fullName: ['name', 'fullname', 'contactname', 'personname', 'displayname', 'customername', 'membername', 'completename', 'nameformatted'],
  email: ['emails', 'emailaddress', 'emailaddresses', 'mail', 'emailaddr', 'electronicmail'],
  phone: ['phones', 'phonenumbers', 'phonenumber', 'telephone', 'tel', 'telephonenumber', 'mobile', 'mobilenumber', 'cell', 'cellphone', 'cellnumber', 'contactnumber', 'phoneno', 'mobilephone', 'landline', 'landlinenumber'],
  dateOfBirth: ['dob', 'birthdate', 'birthday', 'dateofbirth', 'birthdt', 'bdate', 'datebirth', 'bday', 'birth', 'bornat'],
  addressLine1: ['address', 'address1', 'addressline', 'addr', 'addr1', 'street', 'streetaddress', 'streetaddress1', 'line1', 'mailingaddress', 'homeaddress', 'residentialaddress', 'postaladdress', 'addressstreet', 'streetaddressline1', 'streetline1', 'addressline1'],
  addressLine2: ['address2', 'addr2', 'line2', 'streetaddress2', 'apt', 'apartment', 'suite', 'unit', 'aptnumber', 'unitnumber'],
  addressLine3: ['address3', 'addr3', 'line3', 'streetaddress3', 'building', 'buildingname', 'housename'],
  streetNumber: ['streetno', 'streetnum', 'housenumber', 'houseno', 'housenum', 'addressnumber', 'streetnumber', 'buildingnumber'],
  streetName: ['street_name', 'streetnm', 'road', 'roadname', 'thoroughfare'],
  city: ['town', 'suburb', 'locality', 'municipality', 'cityname', 'towncity', 'citytown', 'placename', 'resicity', 'mailcity', 'postaltown', 'posttown'],
  stateOrProvince: ['state', 'province', 'region', 'stateprovince', 'statecode', 'stateabbr', 'st', 'provincecode', 'stateabbreviated'],
  zipOrPostalCode: ['zip', 'zipcode', 'zip5', 'postcode', 'postalcode', 'postal', 'postcodes', 'pincode', 'plz', 'zippostal'],
  countryCode: ['country', 'countryiso', 'countryname', 'nation', 'iso2', 'countryregion'],
  yearOfBirth: ['yob', 'birthyear', 'yearborn', 'byear', 'yearbirth', 'dobyear', 'birthyr', 'dobyr'],
  // Month and day of a date of birth split over columns: {@link splitDateColumns} finds them
  // (a "birth_day" column is the whole date unless a month column sits beside it).
  monthOfBirth: [],
  dayOfBirth: [],
  sex: ['gender', 'sexcode', 'gendercode', 'mf', 'genderidentity', 'sexatbirth', 'birthsex'],
  identifier: [
    'ssn', 'socsecid', 'socsec', 'socialsecurity', 'socialsecuritynumber', 'socialsecurityno', 'sin', 'nino', 'nin',
    'nationalinsurance', 'nationalinsurancenumber', 'nationalid', 'nationalidnumber', 'passport', 'passportno',
    'passportnumber', 'passportnum', 'driverslicense', 'driverslicence', 'driverlicense', 'driverlicence',
    'driverslicensenumber', 'dlnumber', 'dlno', 'dl', 'licensenumber', 'licencenumber', 'taxid', 'tin', 'itin', 'mrn',
    'medicalrecordnumber', 'medicare', 'medicaid', 'nhs', 'nhsnumber', 'voterid', 'voterno', 'voternumber', 'ncid',
  ],
  attribute: [
    'occupation', 'job', 'jobtitle', 'profession', 'employer', 'company', 'birthplace', 'placeofbirth', 'pob',
    'birthcity', 'birthcountry', 'countryofbirth', 'birthstate', 'county', 'nationality', 'citizenship',
    'maritalstatus', 'race', 'ethnicity', 'religion', 'party', 'language', 'fathername', 'fathersname',
    'mothername', 'mothersname', 'mothersmaidenname', 'maidenname', 'spousename', 'precinct', 'ward', 'parish',
    // An age (at the file's date: two rows of one person agree, or differ by a year).
    'age', 'birthage', 'ageyears', 'currentage',
  ],
};

/**
 * The identifier type a column's header names, so that two files' columns compare: social
 * security numbers are "ssn", passports "passport", driving licences "driverslicense";
 * any other identifier column keeps its header key.
 */
export function identifierTypeOf(header: string): string {
  const key = headerKey(header);
  if (/^(?:ssn|socsec|socialsecurity|sin$)/.test(key)) return 'ssn';
  if (key.startsWith('passport')) return 'passport';
  if (/^(?:drivers?licen[cs]e|dl(?:no|number)?$|licen[cs]enumber)/.test(key)) return 'driverslicense';
  if (/^(?:nino|nin|nationalinsurance)/.test(key)) return 'nino';
  // "NHS No." and "NHS number" name one identifier.
  const core = key.replace(/(?:no|num|nbr|number)$/, '');
  return core.length > 0 ? core : key;
}

/**
 * Words a header may carry after a field name ("postcode_fake", "dob_raw", "surname_clean"):
 * tried when the whole header is not an alias.
 */
// prettier-ignore
export const HEADER_SUFFIXES: readonly string[] = [
  'fake', 'raw', 'clean', 'cleaned', 'std', 'standardized', 'standardised', 'norm', 'normalized', 'orig', 'original',
  'value', 'text', 'txt', 'str',
  // Code-list exports ("state_cd", "res_city_desc", "name_suffix_lbl").
  'cd', 'desc', 'lbl',
  // "County of Residence", "City of residence".
  'ofresidence',
];

/**
 * Number words a header may carry after a phone's or an identifier's name ("Telephone No.",
 * "Driver License Number"; the "#" is not in the key). Only those fields: a "Family No" or a
 * "Birth Number" is a number of its own, not the surname or the date.
 */
export const NUMBER_WORDS: readonly string[] = ['no', 'num', 'nbr', 'number'];

/**
 * What a header may add in brackets about its own field: a plural ("First name(s)"), the
 * values written ("Sex (M/F)", "Suffix (Jr/Sr)"), a form ("Name (Last, First)", "SSN (last
 * 4)", "Year of Birth (YYYY)"), as header keys. Anything else in brackets may name another
 * person or another thing ("Name (Mother)", "Phone (Emergency Contact)", "Driver License
 * (State)"): such a header names no field of the row's person, unless the brackets name the
 * same field again ("Last Name (Surname)") or a part of a full name ("Name (Surname)").
 */
export const BRACKET_KINDS: ReadonlySet<string> = new Set([
  's',
  'es',
  'optional',
  'required',
  'ifknown',
  'ifany',
  'fake',
  'raw',
  'clean',
  'mf',
  'fm',
  'mfu',
  'mfx',
  'mfo',
  'maleorfemale',
  'malefemale',
  'yn',
  'last4',
  'last4digits',
  '5',
  '5digit',
  '5digits',
  '5digitzip',
  '9digit',
  '9digits',
  '10digits',
  'digits',
  'numbers',
  'numeric',
  'text',
  'full',
  'formatted',
  'us',
  'uk',
  'usa',
  'iso',
  'e164',
  'intl',
  'international',
  'national',
  'local',
  'lastfirst',
  'firstlast',
  'lastfirstmiddle',
  'firstmiddlelast',
  'lastnamefirstname',
  'firstnamelastname',
  'legal',
  'official',
  'asonid',
  'aspassport',
  'yyyy',
  'jrsr',
  'orinitial',
  'initial',
  '2letter',
  '2letters',
  'abbreviation',
  'abbr',
  'code',
]);

/**
 * Kinds in brackets of a phone's, an email's or an address's header ("Phone (home)", "Email
 * (Secondary)", "Address (Mailing)"): the person's own, of another use. Not of a name's:
 * "First Name (Preferred)" is a nickname column, not the first name.
 */
export const CONTACT_BRACKET_KINDS: ReadonlySet<string> = new Set([
  'home',
  'mobile',
  'cell',
  'cellular',
  'work',
  'personal',
  'private',
  'primary',
  'main',
  'preferred',
  'current',
  'business',
  'office',
  'day',
  'daytime',
  'evening',
  'landline',
  'alt',
  'alternate',
  'secondary',
  'other',
  'mailing',
  'residential',
  'residence',
  'physical',
  'postal',
]);

/**
 * Prefixes a header may carry before a field name ("voter_first_name", "home_phone",
 * "primary_email"): tried when the whole header is not an alias.
 */
export const HEADER_PREFIXES: readonly string[] = [
  'contact',
  'person',
  'customer',
  'client',
  'voter',
  'member',
  'patient',
  'primary',
  'home',
  'work',
  'personal',
  'business',
  'mailing',
  'residential',
  'res',
  'residence',
  'mail',
  'alt',
  'alternate',
  'other',
  'secondary',
  'main',
  'current',
  // "full_phone_number", "Full Address": the whole value, not a part of it.
  'full',
  // ActBlue's contributions ("Donor First Name", "Donor Addr1", "Donor ZIP").
  'donor',
  // Shopify's customers ("Default Address Address1", "Default Address Zip").
  'defaultaddress',
  // Action Network's activists ("can2_user_address", "can2_user_city", "can2_phone", "can2_state_abbreviated").
  'can2user',
  'can2',
  'preferred',
];

/**
 * Prefixes of {@link HEADER_PREFIXES} that name the row's person ("Contact Name", "voter_name"),
 * so that a name after them is the person's. After any other prefix a name is another thing's:
 * "Business Name" is a company, "Home Name" a house, not the person's full name.
 */
export const PERSON_PREFIXES: ReadonlySet<string> = new Set([
  'contact',
  'person',
  'customer',
  'client',
  'voter',
  'member',
  'patient',
  'full',
  'donor',
  'can2',
  'can2user',
]);

/** The field of each part of a numbered address group ("Address 1 - Street"); null: not used ("Formatted" repeats the parts). */
const ADDRESS_PARTS: ReadonlyMap<string, ContactField | null> = new Map<string, ContactField | null>([
  ['street', 'addressLine1'],
  ['extendedaddress', 'addressLine2'],
  ['city', 'city'],
  ['region', 'stateOrProvince'],
  ['postalcode', 'zipOrPostalCode'],
  ['country', 'countryCode'],
  ['formatted', null],
  ['pobox', null],
]);

/**
 * The field of a numbered group's part, as Google Contacts writes its headers ("E-mail 1 -
 * Value" is an email, "Address 1 - City" a city, "Phone 1 - Label" or "- Type" nothing);
 * undefined when the header is not "<group> <number> - <part>". `table`: the aliases, which
 * name the group ("E-mail", "Phone").
 */
export function fieldOfGroupPart(header: string, table: ReadonlyMap<string, ContactField>): ContactField | null | undefined {
  const text = header.trim();
  const dash = text.indexOf(' - ');
  const left = dash > 0 ? text.slice(0, dash).trimEnd() : '';
  let digits = left.length;
  while (digits > 0 && left.charCodeAt(digits - 1) >= 48 && left.charCodeAt(digits - 1) <= 57) digits--;
  if (digits === 0 || digits === left.length) return undefined;
  const group = headerKey(left.slice(0, digits));
  const part = headerKey(text.slice(dash + 3));
  if (group === 'address') return ADDRESS_PARTS.get(part) ?? null;
  const field = table.get(group);
  return part === 'value' && (field === 'email' || field === 'phone') ? field : null;
}

/**
 * Comparable form of a header: folded (no case, no accents), letters and digits only.
 * "First Name", "FIRST_NAME" and "first-name" all give "firstname".
 */
export function headerKey(header: string): string {
  return foldCompact(header);
}

/** Headers (as keys) of columns that hold each row's id. */
export const ID_HEADERS: ReadonlySet<string> = new Set(['id', 'uniqueid', 'recid', 'recordid', 'rowid', 'uid', 'personid', 'recordno', 'recno', 'idnumber']);

/**
 * The bulk import mapping types (compatibility.md "Bulk import"): what each does, its fields,
 * and the values of fields with predefined values. Served by GET /bulkImportMappingTypes...
 *
 * A field is filled from a column (`fieldValueMappings[].columnName`, or, when the field
 * `canBeMappedByName`, a column whose name is the field's name or one of its aliases,
 * compared without case, spaces, `_` or `-`), or from a `staticValue`. `values` translate
 * source values to the field's values.
 */
import type { CanvassLists } from '../canvass-lists.js';
import type { ContextSettings } from '../settings.js';
import { SUPPRESSIONS } from '../suppressions.js';

export type AllowMultipleMode = 'Single' | 'SinglePerType' | 'Multiple';

/** One field of a mapping type as served (`parents` always null here). */
export interface MappingField {
  readonly name: string;
  readonly description: string;
  readonly hasPredefinedValues: boolean;
  readonly isRequired: boolean;
  readonly canBeMappedToColumn: boolean;
  readonly canBeMappedByName: boolean;
  readonly parents: null;
}

/** A field with its matching aliases (not served). */
export interface FieldDef extends MappingField {
  readonly aliases: readonly string[];
}

export type MappingTypeName =
  'CreateOrUpdateContact' | 'Email' | 'Phones' | 'MailingAddress' | 'ApplyContactCustomFields' | 'ActivistCode' | 'CanvassResults' | 'Suppressions';

export interface MappingTypeDef {
  readonly name: MappingTypeName;
  readonly displayName: string;
  readonly allowMultipleMode: AllowMultipleMode;
  readonly resourceTypes: readonly string[];
  readonly fields: readonly FieldDef[];
  /**
   * Columns named `CF<customFieldId>` carry custom field values (ApplyContactCustomFields,
   * the way existing clients send them).
   */
  readonly customFieldColumns?: boolean;
}

/** A predefined value of a field (`GET .../{fieldName}/values`). */
export interface MappingValue {
  readonly id: string;
  readonly name: string;
  readonly parents: null;
}

function field(name: string, description: string, opts: { required?: boolean; values?: boolean; aliases?: readonly string[] } = {}): FieldDef {
  return {
    name,
    description,
    hasPredefinedValues: opts.values ?? false,
    isRequired: opts.required ?? false,
    canBeMappedToColumn: true,
    canBeMappedByName: true,
    parents: null,
    aliases: opts.aliases ?? [],
  };
}

const VAN_ID = (required: boolean): FieldDef =>
  field('VanID', "The contact's crmId (VanID)", { required, aliases: ['crmId', 'vanId', 'vanid', 'PersonID', 'ContactID'] });

/** Resource types served by GET /bulkImportJobs/resources. */
export const RESOURCE_TYPES: readonly string[] = ['Contacts', 'ContactsActivistCodes'];

/** Every mapping type this server applies. */
export const MAPPING_TYPES: readonly MappingTypeDef[] = [
  {
    name: 'CreateOrUpdateContact',
    displayName: 'Create Or Update Contact',
    allowMultipleMode: 'Single',
    resourceTypes: ['Contacts'],
    fields: [
      field('VanID', 'crmId of an existing contact: it wins over every other criterion when it exists', {
        aliases: ['crmId', 'vanId', 'PersonID', 'ContactID'],
      }),
      field('FirstName', 'First name', { aliases: ['first', 'given_name', 'givenName'] }),
      field('MiddleName', 'Middle name', { aliases: ['middle'] }),
      field('LastName', 'Last name', { aliases: ['last', 'surname', 'family_name'] }),
      field('Suffix', 'Suffix'),
      field('Title', 'Honorific'),
      field('Nickname', 'Preferred informal name'),
      field('DOB', 'Date of birth (YYYY-MM-DD)', { aliases: ['DateOfBirth', 'birthdate', 'birth_date'] }),
      field('Sex', 'M or F', { values: true, aliases: ['gender'] }),
      field('Party', 'One-character party code'),
      field('Email', 'Email address', { aliases: ['EmailAddress', 'email_address'] }),
      field('OtherEmail', 'A second email address', { aliases: ['Email2', 'EmailAddress2'] }),
      field('Phone', 'Phone number (home)', { aliases: ['PhoneNumber', 'phone_number', 'HomePhone'] }),
      field('PhoneCountryCode', 'Country calling code of Phone ("1", "01", "44")', { aliases: ['HomePhoneCountryCode', 'HomeCountryCode'] }),
      field('CellPhone', 'Cell phone number', { aliases: ['Cell'] }),
      field('CellPhoneCountryCode', 'Country calling code of CellPhone ("1", "01", "44")', { aliases: ['CellCountryCode'] }),
      field('VoterVanID', "The contact's voter-file crmId (votercrmid)", { aliases: ['VoterCrmId'] }),
      field('AddressLine1', 'Street address', { aliases: ['Address', 'Address1', 'Street'] }),
      field('AddressLine2', 'Address line 2', { aliases: ['Address2'] }),
      field('AddressLine3', 'Address line 3', { aliases: ['Address3'] }),
      field('City', 'City'),
      field('State', 'State or province code', { aliases: ['StateOrProvince', 'StateCode'] }),
      field('Zip5', 'ZIP, ZIP+4 or postal code', { aliases: ['Zip', 'ZipOrPostal', 'ZipOrPostalCode', 'PostalCode', 'Postcode'] }),
      field('CountryCode', 'Two-character ISO country code', { aliases: ['Country'] }),
      field('DisplayAsEntered', 'Y or N: accepted and ignored (addresses are standardized)'),
      field('Employer', 'Employer'),
      field('Occupation', 'Occupation'),
      field('JobTitle', 'Job title'),
    ],
  },
  {
    name: 'Email',
    displayName: 'Apply Email',
    allowMultipleMode: 'Multiple',
    resourceTypes: ['Contacts'],
    fields: [
      VAN_ID(true),
      field('Email', 'Email address', { required: true, aliases: ['EmailAddress'] }),
      field('EmailSubscriptionStatusId', 'Subscription status', { values: true, aliases: ['SubscriptionStatus'] }),
    ],
  },
  {
    name: 'Phones',
    displayName: 'Apply Phone',
    allowMultipleMode: 'Multiple',
    resourceTypes: ['Contacts'],
    fields: [
      VAN_ID(true),
      field('Phone', 'Phone number', { required: true, aliases: ['PhoneNumber'] }),
      field('PhoneTypeID', 'Phone type', { values: true, aliases: ['PhoneType'] }),
      field('Ext', 'Extension (up to six digits)'),
      field('PhoneOptInStatus', 'Opt-in status', { values: true, aliases: ['OptInStatus'] }),
    ],
  },
  {
    name: 'MailingAddress',
    displayName: 'Apply Mailing Address',
    allowMultipleMode: 'Single',
    resourceTypes: ['Contacts'],
    fields: [
      VAN_ID(true),
      field('AddressLine1', 'Street address', { required: true, aliases: ['Address', 'Address1'] }),
      field('AddressLine2', 'Address line 2', { aliases: ['Address2'] }),
      field('AddressLine3', 'Address line 3', { aliases: ['Address3'] }),
      field('City', 'City'),
      field('State', 'State or province code', { aliases: ['StateOrProvince'] }),
      field('Zip5', 'ZIP, ZIP+4 or postal code', { aliases: ['Zip', 'ZipOrPostal', 'PostalCode'] }),
      field('CountryCode', 'Two-character ISO country code', { aliases: ['Country'] }),
    ],
  },
  {
    name: 'ApplyContactCustomFields',
    displayName: 'Apply Contact Custom Fields',
    allowMultipleMode: 'Multiple',
    resourceTypes: ['Contacts'],
    customFieldColumns: true,
    fields: [VAN_ID(true), field('CustomFieldGroupID', 'Custom field group of the CF<id> columns', { required: true, values: true })],
  },
  {
    name: 'ActivistCode',
    displayName: 'Apply Activist Code',
    allowMultipleMode: 'Multiple',
    resourceTypes: ['Contacts', 'ContactsActivistCodes'],
    fields: [
      VAN_ID(true),
      field('ActivistCodeID', 'Activist Code ID', { required: true, values: true }),
      field('CanvassedBy', 'Recruited By, Must be a Valid User ID'),
      field('DateCanvassed', 'Contacted When'),
      field('ContactTypeID', 'Contacted How', { values: true }),
    ],
  },
  {
    name: 'CanvassResults',
    displayName: 'Apply Canvass Results',
    allowMultipleMode: 'Multiple',
    resourceTypes: ['Contacts'],
    fields: [
      VAN_ID(true),
      field('ResultID', 'Result code', { required: true, values: true, aliases: ['ResultCodeID'] }),
      field('ContactTypeID', 'Contacted How', { values: true }),
      field('InputTypeID', 'Input type (default 4, Bulk)', { values: true }),
      field('DateCanvassed', 'Contacted When'),
    ],
  },
  {
    name: 'Suppressions',
    displayName: 'Apply Suppressions',
    allowMultipleMode: 'Multiple',
    resourceTypes: ['Contacts'],
    fields: [
      VAN_ID(true),
      field('SuppressionCode', 'Suppression code (NC Do Not Call, NE Do Not Email, NM Do Not Mail, NT Do Not Text, NW Do Not Walk, NX Do Not Contact)', {
        required: true,
        values: true,
        aliases: ['Suppression', 'SuppressionID'],
      }),
      field('Action', 'Apply (default) or Remove', { values: true }),
    ],
  },
];

/** A mapping type by name, any case. */
export function findMappingType(name: string): MappingTypeDef | undefined {
  const key = name.trim().toLowerCase();
  return MAPPING_TYPES.find((t) => t.name.toLowerCase() === key);
}

/** A field of a type by name, any case. */
export function findField(type: MappingTypeDef, name: string): FieldDef | undefined {
  const key = name.trim().toLowerCase();
  return type.fields.find((f) => f.name.toLowerCase() === key);
}

/** The served form of a mapping type (without aliases). */
export function renderMappingType(t: MappingTypeDef): object {
  return {
    name: t.name,
    displayName: t.displayName,
    allowMultipleMode: t.allowMultipleMode,
    resourceTypes: t.resourceTypes,
    fields: t.fields.map(({ aliases: _aliases, ...f }) => f),
  };
}

const v = (id: string | number, name: string): MappingValue => ({ id: String(id), name, parents: null });

/** Email subscription status values (ids as existing clients know them). */
export const EMAIL_SUBSCRIPTION_VALUES: readonly MappingValue[] = [v(0, 'Unsubscribed'), v(1, 'Not Subscribed'), v(2, 'Subscribed')];
/** Phone types: id -> phoneType code. */
export const PHONE_TYPE_VALUES: readonly MappingValue[] = [v('H', 'Home'), v('W', 'Work'), v('C', 'Cell'), v('M', 'Main'), v('F', 'Fax')];
export const OPT_IN_VALUES: readonly MappingValue[] = [v('I', 'Opt In'), v('U', 'Unknown'), v('O', 'Opt Out')];
export const SEX_VALUES: readonly MappingValue[] = [v('M', 'Male'), v('F', 'Female')];

/**
 * The predefined values of a field in a context, or null when the field has none.
 * Lookup ids come from the context's canvass lists and custom field groups.
 */
export function fieldValues(_type: MappingTypeDef, f: FieldDef, lists: CanvassLists, settings: ContextSettings): readonly MappingValue[] | null {
  if (!f.hasPredefinedValues) return null;
  switch (f.name) {
    case 'EmailSubscriptionStatusId':
      return EMAIL_SUBSCRIPTION_VALUES;
    case 'PhoneTypeID':
      return PHONE_TYPE_VALUES;
    case 'PhoneOptInStatus':
      return OPT_IN_VALUES;
    case 'Sex':
      return SEX_VALUES;
    case 'ActivistCodeID':
      return lists.activistCodes.map((a) => v(a.activistCodeId, a.name));
    case 'ContactTypeID':
      return lists.contactTypes.map((c) => v(c.contactTypeId, c.name));
    case 'InputTypeID':
      return lists.inputTypes.map((c) => v(c.inputTypeId, c.name));
    case 'ResultID':
      return lists.resultCodes.map((c) => v(c.resultCodeId, c.name));
    case 'CustomFieldGroupID':
      return settings.customFieldGroups.map((g) => v(g.id, g.name));
    case 'SuppressionCode':
      return SUPPRESSIONS.map((s) => v(s.suppressionCode, s.suppressionName));
    case 'Action':
      return [v('Apply', 'Apply'), v('Remove', 'Remove')];
    default:
      return [];
  }
}

/**
 * From a file row to what each mapping type does with it (pure): a Match Candidate for
 * CreateOrUpdateContact (applied exactly as findOrCreate), a candidate to apply to the row's
 * contact (Email, Phones, MailingAddress, ApplyContactCustomFields), or a canvass response
 * (ActivistCode, CanvassResults). Also the outcome text of a refused row: the field named as
 * the client mapped it ("Email: ... is not a valid email address").
 */
import type { ValidationIssue } from '../errors.js';
import { findUnsafeCharacter } from '../unsafe-text.js';
import { columnIndex, compileMapping, hasField, readFields, type CompiledMapping } from './field-mapping.js';
import { MAX_COLUMNS, type JobSpec } from './job-request.js';
import { findMappingType } from './mapping-types.js';

/** The job's mapping types resolved against the file's columns. */
export interface ImportPlan {
  readonly columns: readonly string[];
  readonly types: readonly CompiledMapping[];
  /** Column indexes of `columnsToIncludeInResultsFile`. */
  readonly include: readonly number[];
}

type Json = Record<string, unknown>;

/** What one mapping type does with one row. */
export type Step =
  | { readonly kind: 'findOrCreate'; readonly body: Json; readonly labels: Labels }
  | { readonly kind: 'update'; readonly crmId: number | null; readonly body: Json }
  | { readonly kind: 'canvass'; readonly crmId: number | null; readonly body: Json }
  | { readonly kind: 'suppression'; readonly crmId: number | null; readonly code: string; readonly remove: boolean; readonly body: Json }
  | { readonly kind: 'invalid'; readonly outcome: string };

/** Outcome of a step that was applied. */
export const PROCESSED = 'Processed';
/** Input type of canvass responses written by a bulk import (seeded "Bulk"). */
export const BULK_INPUT_TYPE_ID = 4;

/** Resolves every mapping type of the job against the columns; issues name the request paths. */
export function compilePlan(spec: JobSpec, columns: readonly string[]): { ok: true; value: ImportPlan } | { ok: false; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  if (columns.length > MAX_COLUMNS)
    issues.push({ property: 'file.columns', text: `A file has at most ${MAX_COLUMNS} columns; this one has ${columns.length}.` });
  const types: CompiledMapping[] = [];
  const creates = spec.mappingTypes.some((t) => t.name === 'CreateOrUpdateContact');
  for (const t of spec.mappingTypes) {
    const def = findMappingType(t.name);
    if (def === undefined) continue;
    const path = `actions[0].mappingTypes[${t.index}]`;
    const compiled = compileMapping(def, t.fieldValueMappings, columns, path);
    if (!compiled.ok) {
      issues.push(...compiled.issues);
      continue;
    }
    if (def.name !== 'CreateOrUpdateContact' && !creates && !hasField(compiled.value, 'VanID')) {
      issues.push({ property: path, text: `${def.name} needs the contact: map its VanID field to a column, or add CreateOrUpdateContact to the job.` });
    }
    types.push(compiled.value);
  }
  const include = spec.columnsToInclude.map((name, i) => {
    const at = columnIndex(columns, name);
    if (at === -1) issues.push({ property: `actions[0].columnsToIncludeInResultsFile[${i}].name`, text: `The file has no column "${name}".` });
    return at;
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: { columns, types, include } };
}

function readCrmId(value: string | undefined): number | null | 'bad' {
  if (value === undefined) return null;
  return /^\d{1,15}$/.test(value) && Number(value) > 0 ? Number(value) : 'bad';
}

/** Body property (prefix) -> the mapping field it came from, where the position in a list says (a second phone is the cell). */
type Labels = readonly (readonly [string, string])[];

/** A country calling code as files write it ("01", "+44"): digits without leading zeros; other text as sent (validation names it). */
function callingCode(value: string): string {
  const digits = /^\+?0*(\d{1,3})$/.exec(value);
  return digits?.[1] ?? value;
}

/** Field name -> body property name, as pairs (made once: rows are copied by the thousand). */
type Names = readonly (readonly [string, string])[];
const namesOf = (names: Readonly<Record<string, string>>): Names => Object.entries(names);

/** Puts the present fields into `out` under their body names. */
function copy(fields: Map<string, string>, out: Json, names: Names): void {
  for (const [field, prop] of names) {
    const value = fields.get(field);
    if (value !== undefined) out[prop] = value;
  }
}

const ADDRESS: Readonly<Record<string, string>> = {
  AddressLine1: 'addressLine1',
  AddressLine2: 'addressLine2',
  AddressLine3: 'addressLine3',
  City: 'city',
  State: 'stateOrProvince',
  Zip5: 'zipOrPostalCode',
  CountryCode: 'countryCode',
};
const SCALARS: Readonly<Record<string, string>> = {
  FirstName: 'firstName',
  MiddleName: 'middleName',
  LastName: 'lastName',
  Suffix: 'suffix',
  Title: 'title',
  Nickname: 'nickname',
  DOB: 'dateOfBirth',
  Sex: 'sex',
  Party: 'party',
  Employer: 'employer',
  Occupation: 'occupation',
  JobTitle: 'jobTitle',
};

const ADDRESS_NAMES = namesOf(ADDRESS);
const SCALAR_NAMES = namesOf(SCALARS);
const PHONE_NAMES = namesOf({ Phone: 'phoneNumber', PhoneTypeID: 'phoneType', Ext: 'ext', PhoneOptInStatus: 'phoneOptInStatus' });
const ACTIVIST_CONTEXT_NAMES = namesOf({ ContactTypeID: 'contactTypeId', DateCanvassed: 'dateCanvassed' });
const RESULT_CONTEXT_NAMES = namesOf({ ContactTypeID: 'contactTypeId', DateCanvassed: 'dateCanvassed', InputTypeID: 'inputTypeId' });

function address(fields: Map<string, string>, type?: string): Json | null {
  const a: Json = {};
  copy(fields, a, ADDRESS_NAMES);
  if (Object.keys(a).length === 0) return null;
  if (type !== undefined) a['type'] = type;
  return a;
}

/** What mapping type `m` does with a row whose fields are read from `cells`; `contact` is the row's contact so far. */
export function stepFor(m: CompiledMapping, cells: readonly string[], contact: number | null): Step {
  const f = readFields(m, cells);
  for (const [field, value] of f) {
    const unsafe = findUnsafeCharacter(value);
    if (unsafe !== null)
      return { kind: 'invalid', outcome: `${field}: contains ${unsafe}: control characters and bidirectional overrides are not accepted in text.` };
  }
  const vanId = readCrmId(f.get('VanID'));
  if (vanId === 'bad') return { kind: 'invalid', outcome: `VanID: "${f.get('VanID')}" is not a crmId (a positive whole number).` };
  const crmId = contact ?? vanId;
  switch (m.def.name) {
    case 'CreateOrUpdateContact': {
      const body: Json = {};
      if (vanId !== null) body['crmId'] = vanId;
      copy(f, body, SCALAR_NAMES);
      const labels: [string, string][] = [];
      const emails: Json[] = [];
      for (const name of ['Email', 'OtherEmail']) {
        const email = f.get(name);
        if (email === undefined) continue;
        labels.push([`emails[${emails.length}]`, name]);
        emails.push({ email });
      }
      if (emails.length > 0) body['emails'] = emails;
      const phones: Json[] = [];
      for (const [name, prefixName, type] of [
        ['Phone', 'PhoneCountryCode', null],
        ['CellPhone', 'CellPhoneCountryCode', 'C'],
      ] as const) {
        const phoneNumber = f.get(name);
        if (phoneNumber === undefined) continue;
        const phone: Json = { phoneNumber };
        if (type !== null) phone['phoneType'] = type;
        const prefix = f.get(prefixName);
        if (prefix !== undefined) {
          phone['dialingPrefix'] = callingCode(prefix);
          labels.push([`phones[${phones.length}].dialingPrefix`, prefixName]);
        }
        labels.push([`phones[${phones.length}]`, name]);
        phones.push(phone);
      }
      if (phones.length > 0) body['phones'] = phones;
      const voter = f.get('VoterVanID');
      if (voter !== undefined) {
        body['identifiers'] = [{ type: 'votercrmid', externalId: voter }];
        labels.push(['identifiers', 'VoterVanID']);
      }
      const a = address(f);
      if (a !== null) body['addresses'] = [a];
      if (Object.keys(body).length === 0) return { kind: 'invalid', outcome: 'The row has no value in any mapped field.' };
      return { kind: 'findOrCreate', body, labels };
    }
    case 'Email': {
      const email: Json = { email: f.get('Email') };
      const status = f.get('EmailSubscriptionStatusId');
      if (status !== undefined) {
        if (status === '0') email['isSubscribed'] = false;
        else if (status === '2') email['isSubscribed'] = true;
        else if (status === '1') email['subscriptionStatus'] = 'N';
        else return { kind: 'invalid', outcome: `EmailSubscriptionStatusId: "${status}" is not 0, 1 or 2.` };
      }
      if (f.get('Email') === undefined) return { kind: 'invalid', outcome: 'Email: a value is required.' };
      return { kind: 'update', crmId, body: { emails: [email] } };
    }
    case 'Phones': {
      if (f.get('Phone') === undefined) return { kind: 'invalid', outcome: 'Phone: a value is required.' };
      const phone: Json = {};
      copy(f, phone, PHONE_NAMES);
      return { kind: 'update', crmId, body: { phones: [phone] } };
    }
    case 'MailingAddress': {
      if (f.get('AddressLine1') === undefined) return { kind: 'invalid', outcome: 'AddressLine1: a value is required.' };
      return { kind: 'update', crmId, body: { addresses: [address(f, 'Mailing')] } };
    }
    case 'ApplyContactCustomFields': {
      const group = f.get('CustomFieldGroupID');
      if (group === undefined || !/^\d{1,9}$/.test(group))
        return { kind: 'invalid', outcome: `CustomFieldGroupID: "${group ?? ''}" is not a custom field group id.` };
      const values = m.customFields.flatMap((c) => {
        const value = (cells[c.column] ?? '').trim();
        return value === '' ? [] : [{ customFieldId: c.customFieldId, customFieldGroupId: Number(group), assignedValue: value }];
      });
      if (values.length === 0) return { kind: 'invalid', outcome: 'The row has no custom field value.' };
      return { kind: 'update', crmId, body: { customFieldValues: values } };
    }
    case 'ActivistCode': {
      const canvassContext: Json = { inputTypeId: BULK_INPUT_TYPE_ID };
      copy(f, canvassContext, ACTIVIST_CONTEXT_NAMES);
      return {
        kind: 'canvass',
        crmId,
        body: { canvassContext, responses: [{ type: 'ActivistCode', action: 'Apply', activistCodeId: f.get('ActivistCodeID') }] },
      };
    }
    case 'Suppressions': {
      const code = f.get('SuppressionCode');
      if (code === undefined) return { kind: 'invalid', outcome: 'SuppressionCode: a value is required.' };
      const action = (f.get('Action') ?? 'Apply').toLowerCase();
      if (action !== 'apply' && action !== 'remove') return { kind: 'invalid', outcome: `Action: "${f.get('Action')}" is not Apply or Remove.` };
      return { kind: 'suppression', crmId, code, remove: action === 'remove', body: {} };
    }
    case 'CanvassResults': {
      const canvassContext: Json = { inputTypeId: BULK_INPUT_TYPE_ID };
      copy(f, canvassContext, RESULT_CONTEXT_NAMES);
      return { kind: 'canvass', crmId, body: { canvassContext, resultCodeId: f.get('ResultID') } };
    }
  }
}

/** Request property (prefix) -> mapping field name, for outcome texts. Longest prefix wins. */
const PROPERTY_FIELDS: readonly (readonly [string, string])[] = (
  [
    ['crmId', 'VanID'],
    ['emails[0].email', 'Email'],
    ['emails[0]', 'EmailSubscriptionStatusId'],
    ['emails', 'Email'],
    ['phones[0].phoneNumber', 'Phone'],
    ['phones[0].phoneType', 'PhoneTypeID'],
    ['phones[0].ext', 'Ext'],
    ['phones[0].phoneOptInStatus', 'PhoneOptInStatus'],
    ['phones', 'Phone'],
    ['addresses[0].addressLine1', 'AddressLine1'],
    ['addresses[0].addressLine2', 'AddressLine2'],
    ['addresses[0].addressLine3', 'AddressLine3'],
    ['addresses[0].city', 'City'],
    ['addresses[0].stateOrProvince', 'State'],
    ['addresses[0].zipOrPostalCode', 'Zip5'],
    ['addresses[0].countryCode', 'CountryCode'],
    ['addresses', 'AddressLine1'],
    ['canvassContext.contactTypeId', 'ContactTypeID'],
    ['canvassContext.inputTypeId', 'InputTypeID'],
    ['canvassContext.dateCanvassed', 'DateCanvassed'],
    ['responses[0].activistCodeId', 'ActivistCodeID'],
    ['resultCodeId', 'ResultID'],
    ['dateOfBirth', 'DOB'],
    ['suppressionCode', 'SuppressionCode'],
    ...Object.entries(SCALARS).map(([field, prop]) => [prop, field] as const),
  ] as (readonly [string, string])[]
).sort((a, b) => b[0].length - a[0].length);

/** The field of the longest prefix of `property` in `names` (sorted longest first), if any. */
function fieldOf(names: Labels, property: string): string | undefined {
  return names.find(([prefix]) => property === prefix || property.startsWith(`${prefix}.`) || property.startsWith(`${prefix}[`))?.[1];
}

/**
 * The outcome text of a refused step: each issue with the mapping field it concerns. `labels`
 * (a findOrCreate step's) name the items of lists first.
 */
export function outcomeOf(issues: readonly ValidationIssue[], m: CompiledMapping, body: Json, labels: Labels = []): string {
  const named = [...labels].sort((a, b) => b[0].length - a[0].length);
  const texts = issues.map((issue) => {
    let name = fieldOf(named, issue.property) ?? fieldOf(PROPERTY_FIELDS, issue.property);
    const cf = /^customFieldValues\[(\d+)\]/.exec(issue.property);
    if (cf !== null) {
      const values = body['customFieldValues'] as { customFieldId: number }[] | undefined;
      const id = values?.[Number(cf[1])]?.customFieldId;
      name = m.customFields.find((c) => c.customFieldId === id)?.columnName ?? 'CustomField';
    }
    return `${name ?? (issue.property === '' ? m.def.name : issue.property)}: ${issue.text}`;
  });
  return texts.join(' ').slice(0, 1000);
}

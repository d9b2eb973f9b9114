/**
 * Tenant settings: what each context of a tenant accepts and how it matches.
 *
 * ## The settings file (`matchbook tenants configure NAME --file settings.json`)
 *
 * A JSON object with one optional key per context, `voterfile` and `campaign`. A context
 * present in the file replaces that context's settings as a whole; a context left out keeps
 * its current settings. Every key of a context is optional; the default is in brackets.
 * Unknown keys are errors here (unlike request bodies) so that a typo is not silently lost.
 * Example: `data/examples/tenant-settings.example.json`.
 *
 * ```jsonc
 * {
 *   "campaign": {
 *     "defaultCountry": "US",            // ISO alpha-2; phones without countryCode/dialingPrefix
 *                                        //   and addresses without countryCode are read as this ["US"]
 *     "organizationsAsContacts": false,  // accept contactMode / organizationContact*Name;
 *                                        //   campaign context only (interface.md 2.1) [false]
 *     "targetedEmail": false,            // accept emails[].subscriptionStatus (interface.md 2.2) [false]
 *     "disablePartialMatching": false,   // strict matching: full first and last names only,
 *                                        //   no nicknames or permutations (interface.md 1.5) [false]
 *     "professionalFields": true,        // accept employer, occupation, jobTitle [true]
 *     "identifierTypes": ["StateFileID"],// external identifier types besides the built-in ones:
 *                                        //   "dwid" in both contexts, "votercrmid" in campaign only [[]]
 *     "addressTypes": ["Mailing", "Home", "Voting", "Work", "Custom"],  // accepted types [all five]
 *     "countryCodes": null,              // ISO alpha-2 codes accepted in addresses; null = any [null]
 *     "customFieldGroups": [             // [[]]
 *       { "id": 1, "name": "Volunteer",
 *         "customFields": [
 *           { "id": 11, "name": "Shirt size", "type": "choice", "values": ["S", "M", "L"] },
 *           { "id": 12, "name": "Notes", "type": "text", "maxLength": 200 },  // maxLength [255]
 *           { "id": 13, "name": "Hours", "type": "number" },   // decimal number
 *           { "id": 14, "name": "Trained on", "type": "date" },// YYYY-MM-DD
 *           { "id": 15, "name": "Has car", "type": "boolean" } // true/false/yes/no/1/0
 *         ] } ],
 *     "canvass": { "resultCodes": [] },  // canvass lookup lists added to the seeded ones; own
 *                                        //   surveyQuestions / activistCodes / volunteerActivities
 *                                        //   replace that kind's defaults; see
 *                                        //   src/crm/canvass-lists.ts [none added]
 *     "selfReported": {                  // value lists of the selfReported* properties [all empty]
 *       "races": [{ "id": 1, "name": "Asian" }],
 *       "ethnicities": [], "genders": [], "sexualOrientations": [],
 *       "languagePreferences": [{ "id": 1, "name": "English" }]
 *     }
 *   },
 *   "voterfile": { "defaultCountry": "US" }
 * }
 * ```
 *
 * Ids (custom field groups, custom fields across all groups, each self-reported list) must be
 * unique positive integers. A tenant without a settings row for a context uses
 * {@link DEFAULT_CONTEXT_SETTINGS}.
 */
import { isPhoneCountry } from '../engine/index.js';
import type { AddressType, ContextName } from '../store/index.js';
import { EMPTY_CANVASS_SETTINGS, readCanvassSettings, type CanvassLists } from './canvass-lists.js';
import { CrmError } from './errors.js';
import { Issues, isObject, own, pathOf, readArray, readBoolean, readInteger, readString, type JsonObject } from './settings-read.js';

export type CustomFieldType = 'text' | 'number' | 'date' | 'boolean' | 'choice';

export interface CustomFieldSetting {
  readonly id: number;
  readonly name: string;
  readonly type: CustomFieldType;
  /** Longest accepted text for `text` fields; 1..10000, default 255. */
  readonly maxLength: number;
  /** Allowed values of a `choice` field (compared case-insensitively); empty otherwise. */
  readonly values: readonly string[];
}

export interface CustomFieldGroupSetting {
  readonly id: number;
  readonly name: string;
  readonly customFields: readonly CustomFieldSetting[];
}

export interface NamedValue {
  readonly id: number;
  readonly name: string;
}

export interface SelfReportedSettings {
  readonly races: readonly NamedValue[];
  readonly ethnicities: readonly NamedValue[];
  readonly genders: readonly NamedValue[];
  readonly sexualOrientations: readonly NamedValue[];
  readonly languagePreferences: readonly NamedValue[];
}

/** Settings of one context of one tenant, with every default applied. */
export interface ContextSettings {
  readonly defaultCountry: string;
  readonly organizationsAsContacts: boolean;
  readonly targetedEmail: boolean;
  readonly disablePartialMatching: boolean;
  readonly professionalFields: boolean;
  /** Extra identifier types as configured (built-ins not included; see {@link identifierTypesOf}). */
  readonly identifierTypes: readonly string[];
  readonly addressTypes: readonly AddressType[];
  readonly countryCodes: readonly string[] | null;
  readonly customFieldGroups: readonly CustomFieldGroupSetting[];
  readonly selfReported: SelfReportedSettings;
  /** Canvass lookup lists added to the seeded ones (src/crm/canvass-lists.ts). */
  readonly canvass: CanvassLists;
}

/** The file's shape after validation: contexts that were present. */
export type TenantSettings = { readonly [C in ContextName]?: ContextSettings };

/** Every address type of interface.md 2.4. */
export const ADDRESS_TYPES: readonly AddressType[] = ['Mailing', 'Home', 'Voting', 'Work', 'Custom'];

/** Settings of a context that was never configured. */
export const DEFAULT_CONTEXT_SETTINGS: ContextSettings = Object.freeze({
  defaultCountry: 'US',
  organizationsAsContacts: false,
  targetedEmail: false,
  disablePartialMatching: false,
  professionalFields: true,
  identifierTypes: [],
  addressTypes: ADDRESS_TYPES,
  countryCodes: null,
  customFieldGroups: [],
  selfReported: { races: [], ethnicities: [], genders: [], sexualOrientations: [], languagePreferences: [] },
  canvass: EMPTY_CANVASS_SETTINGS,
});

/** Identifier types built into each context (interface.md 2.5). */
export const BUILT_IN_IDENTIFIER_TYPES: Readonly<Record<ContextName, readonly string[]>> = {
  voterfile: ['dwid'],
  campaign: ['dwid', 'votercrmid'],
};

/** All identifier types available in a context: built-ins first, then configured ones. */
export function identifierTypesOf(context: ContextName, settings: ContextSettings): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of [...BUILT_IN_IDENTIFIER_TYPES[context], ...settings.identifierTypes]) {
    if (!seen.has(t.toLowerCase())) {
      seen.add(t.toLowerCase());
      out.push(t);
    }
  }
  return out;
}

/** True for an ISO 3166-1 alpha-2 code (upper case) with a numbering plan in the engine's phone metadata. */
export function isKnownCountry(code: string): boolean {
  return code === code.toUpperCase() && isPhoneCountry(code);
}

const CONTEXT_KEYS = new Set([
  'defaultCountry',
  'organizationsAsContacts',
  'targetedEmail',
  'disablePartialMatching',
  'professionalFields',
  'identifierTypes',
  'addressTypes',
  'countryCodes',
  'customFieldGroups',
  'selfReported',
  'canvass',
]);
const SELF_REPORTED_KEYS = ['races', 'ethnicities', 'genders', 'sexualOrientations', 'languagePreferences'] as const;
const CUSTOM_FIELD_TYPES: ReadonlySet<string> = new Set(['text', 'number', 'date', 'boolean', 'choice']);
const IDENTIFIER_TYPE = /^[A-Z][\w.-]{0,49}$/i;

function checkKeys(issues: Issues, obj: JsonObject, path: string, allowed: ReadonlySet<string>): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.has(key)) {
      issues.add(pathOf(path, key), `Unknown setting "${pathOf(path, key)}".`, `Known settings: ${[...allowed].join(', ')}.`);
    }
  }
}

function readCountry(issues: Issues, value: unknown, path: string): string | undefined {
  const text = readString(issues, value, path, 2);
  if (text === undefined) return undefined;
  const code = text.toUpperCase();
  if (!isKnownCountry(code)) {
    issues.add(path, `${path} "${text}" is not an ISO 3166-1 alpha-2 country code.`);
    return undefined;
  }
  return code;
}

function readNamedList(issues: Issues, value: unknown, path: string): NamedValue[] {
  const list = readArray(issues, value, path) ?? [];
  const out: NamedValue[] = [];
  const ids = new Set<number>();
  list.forEach((item, i) => {
    const p = pathOf(path, i);
    if (!isObject(item)) {
      issues.add(p, `${p} must be an object with "id" and "name".`);
      return;
    }
    const id = readInteger(issues, own(item, 'id'), pathOf(p, 'id'), 1);
    const name = readString(issues, own(item, 'name'), pathOf(p, 'name'), 200);
    if (id === undefined || name === undefined) {
      if (own(item, 'id') == null) issues.add(pathOf(p, 'id'), `${pathOf(p, 'id')} is required.`);
      if (own(item, 'name') == null) issues.add(pathOf(p, 'name'), `${pathOf(p, 'name')} is required.`);
      return;
    }
    if (ids.has(id)) issues.add(pathOf(p, 'id'), `${pathOf(p, 'id')} ${id} is used twice in ${path}.`);
    ids.add(id);
    out.push({ id, name });
  });
  return out;
}

function readCustomFieldGroups(issues: Issues, value: unknown, path: string): CustomFieldGroupSetting[] {
  const groups: CustomFieldGroupSetting[] = [];
  const groupIds = new Set<number>();
  const fieldIds = new Set<number>();
  (readArray(issues, value, path) ?? []).forEach((item, gi) => {
    const gp = pathOf(path, gi);
    if (!isObject(item)) {
      issues.add(gp, `${gp} must be an object with "id", "name" and "customFields".`);
      return;
    }
    checkKeys(issues, item, gp, new Set(['id', 'name', 'customFields']));
    const id = readInteger(issues, own(item, 'id'), pathOf(gp, 'id'), 1);
    const name = readString(issues, own(item, 'name'), pathOf(gp, 'name'), 200) ?? '';
    if (own(item, 'id') == null) issues.add(pathOf(gp, 'id'), `${pathOf(gp, 'id')} is required.`);
    if (id !== undefined && groupIds.has(id)) issues.add(pathOf(gp, 'id'), `Custom field group id ${id} is used twice.`);
    if (id !== undefined) groupIds.add(id);
    const fields: CustomFieldSetting[] = [];
    const fp = pathOf(gp, 'customFields');
    (readArray(issues, own(item, 'customFields'), fp) ?? []).forEach((f, fi) => {
      const p = pathOf(fp, fi);
      if (!isObject(f)) {
        issues.add(p, `${p} must be an object with "id", "name" and "type".`);
        return;
      }
      checkKeys(issues, f, p, new Set(['id', 'name', 'type', 'maxLength', 'values']));
      const fid = readInteger(issues, own(f, 'id'), pathOf(p, 'id'), 1);
      if (own(f, 'id') == null) issues.add(pathOf(p, 'id'), `${pathOf(p, 'id')} is required.`);
      if (fid !== undefined && fieldIds.has(fid)) issues.add(pathOf(p, 'id'), `Custom field id ${fid} is used twice.`);
      if (fid !== undefined) fieldIds.add(fid);
      const fname = readString(issues, own(f, 'name'), pathOf(p, 'name'), 200) ?? '';
      const typeText = readString(issues, own(f, 'type'), pathOf(p, 'type'), 20) ?? 'text';
      const type = typeText.toLowerCase();
      if (!CUSTOM_FIELD_TYPES.has(type)) {
        issues.add(pathOf(p, 'type'), `${pathOf(p, 'type')} "${typeText}" is not a custom field type.`, 'Use one of: text, number, date, boolean, choice.');
      }
      const maxLength = readInteger(issues, own(f, 'maxLength'), pathOf(p, 'maxLength'), 1, 10000) ?? 255;
      const values: string[] = [];
      (readArray(issues, own(f, 'values'), pathOf(p, 'values')) ?? []).forEach((v, vi) => {
        const text = readString(issues, v, pathOf(pathOf(p, 'values'), vi), 200);
        if (text !== undefined) values.push(text);
      });
      if (type === 'choice' && values.length === 0) {
        issues.add(pathOf(p, 'values'), `${pathOf(p, 'values')} must list the allowed values of a choice field.`);
      }
      if (fid !== undefined) fields.push({ id: fid, name: fname, type: type as CustomFieldType, maxLength, values });
    });
    if (id !== undefined) groups.push({ id, name, customFields: fields });
  });
  return groups;
}

function readContextSettings(issues: Issues, context: ContextName, obj: JsonObject): ContextSettings {
  const path = context;
  checkKeys(issues, obj, path, CONTEXT_KEYS);
  const d = DEFAULT_CONTEXT_SETTINGS;
  const organizationsAsContacts =
    readBoolean(issues, own(obj, 'organizationsAsContacts'), pathOf(path, 'organizationsAsContacts')) ?? d.organizationsAsContacts;
  if (organizationsAsContacts && context !== 'campaign') {
    issues.add(pathOf(path, 'organizationsAsContacts'), 'Organizations as contacts can only be enabled in the campaign context.');
  }
  const identifierTypes: string[] = [];
  const ip = pathOf(path, 'identifierTypes');
  (readArray(issues, own(obj, 'identifierTypes'), ip) ?? []).forEach((t, i) => {
    const text = readString(issues, t, pathOf(ip, i), 50);
    if (text === undefined) return;
    if (!IDENTIFIER_TYPE.test(text)) {
      issues.add(
        pathOf(ip, i),
        `${pathOf(ip, i)} "${text}" is not a valid identifier type name.`,
        'Start with a letter; then letters, digits, "_", "." or "-"; at most 50 characters.',
      );
    } else if (text.toLowerCase() === 'votercrmid' && context !== 'campaign') {
      issues.add(pathOf(ip, i), 'The votercrmid identifier type is only available in the campaign context.');
    } else if (!identifierTypes.some((x) => x.toLowerCase() === text.toLowerCase())) identifierTypes.push(text);
  });
  let addressTypes: AddressType[] = [...d.addressTypes];
  const ap = pathOf(path, 'addressTypes');
  const rawTypes = readArray(issues, own(obj, 'addressTypes'), ap);
  if (rawTypes !== undefined) {
    addressTypes = [];
    rawTypes.forEach((t, i) => {
      const text = readString(issues, t, pathOf(ap, i), 20);
      const type = ADDRESS_TYPES.find((x) => x.toLowerCase() === text?.toLowerCase());
      if (type === undefined) {
        if (text !== undefined) issues.add(pathOf(ap, i), `${pathOf(ap, i)} "${text}" is not an address type.`, `Use: ${ADDRESS_TYPES.join(', ')}.`);
      } else if (!addressTypes.includes(type)) addressTypes.push(type);
    });
  }
  let countryCodes: string[] | null = null;
  const cp = pathOf(path, 'countryCodes');
  const rawCountries = readArray(issues, own(obj, 'countryCodes'), cp);
  if (rawCountries !== undefined) {
    countryCodes = [];
    rawCountries.forEach((c, i) => {
      const code = readCountry(issues, c, pathOf(cp, i));
      if (code !== undefined && !countryCodes?.includes(code)) countryCodes?.push(code);
    });
  }
  const sp = pathOf(path, 'selfReported');
  const rawSelf = own(obj, 'selfReported');
  const selfObj = isObject(rawSelf) ? rawSelf : {};
  if (rawSelf != null && !isObject(rawSelf)) issues.add(sp, `${sp} must be an object.`);
  checkKeys(issues, selfObj, sp, new Set(SELF_REPORTED_KEYS));
  const selfReported = {} as Record<(typeof SELF_REPORTED_KEYS)[number], NamedValue[]>;
  for (const key of SELF_REPORTED_KEYS) selfReported[key] = readNamedList(issues, own(selfObj, key), pathOf(sp, key));
  return {
    defaultCountry: readCountry(issues, own(obj, 'defaultCountry'), pathOf(path, 'defaultCountry')) ?? d.defaultCountry,
    organizationsAsContacts,
    targetedEmail: readBoolean(issues, own(obj, 'targetedEmail'), pathOf(path, 'targetedEmail')) ?? d.targetedEmail,
    disablePartialMatching: readBoolean(issues, own(obj, 'disablePartialMatching'), pathOf(path, 'disablePartialMatching')) ?? d.disablePartialMatching,
    professionalFields: readBoolean(issues, own(obj, 'professionalFields'), pathOf(path, 'professionalFields')) ?? d.professionalFields,
    identifierTypes,
    addressTypes,
    countryCodes,
    customFieldGroups: readCustomFieldGroups(issues, own(obj, 'customFieldGroups'), pathOf(path, 'customFieldGroups')),
    selfReported,
    canvass: readCanvassSettings(issues, own(obj, 'canvass'), pathOf(path, 'canvass')),
  };
}

/**
 * Validates a settings file (see the module comment). Returns the contexts it sets, with
 * defaults applied, or throws a {@link CrmError} `INVALID_PARAMETER` listing every problem,
 * each named by its path in the file ("campaign.customFieldGroups[0].customFields[1].type").
 */
export function parseTenantSettings(input: unknown): TenantSettings {
  const issues = new Issues();
  if (!isObject(input)) throw new CrmError('INVALID_PARAMETER', 'The settings file must hold a JSON object with "voterfile" and/or "campaign" keys.');
  checkKeys(issues, input, '', new Set(['voterfile', 'campaign']));
  const out: { -readonly [C in ContextName]?: ContextSettings } = {};
  for (const context of ['voterfile', 'campaign'] as const) {
    const value = own(input, context);
    if (value === undefined || value === null) continue;
    if (!isObject(value)) {
      issues.add(context, `${context} must be an object.`);
      continue;
    }
    out[context] = readContextSettings(issues, context, value);
  }
  if (!issues.empty) throw new CrmError('INVALID_PARAMETER', issues.list);
  return out;
}

/** Reads one stored context document back (it was validated when stored). */
export function parseStoredContextSettings(context: ContextName, json: string): ContextSettings {
  const parsed = parseTenantSettings({ [context]: JSON.parse(json) as unknown });
  return parsed[context] ?? DEFAULT_CONTEXT_SETTINGS;
}

/** A custom field of the context by id, with its group id. */
export function findCustomField(settings: ContextSettings, id: number): { field: CustomFieldSetting; groupId: number } | undefined {
  for (const group of settings.customFieldGroups) {
    const field = group.customFields.find((f) => f.id === id);
    if (field !== undefined) return { field, groupId: group.id };
  }
  return undefined;
}

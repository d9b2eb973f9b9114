/**
 * Validation of the context-dependent lists of a Match Candidate: external identifiers
 * (interface.md 2.5) and custom field values (2.6), both checked against the context's settings.
 */
import { type ValidCustomFieldValue, type ValidIdentifier, type ValidationContext } from './candidate.js';
import { findCustomField, identifierTypesOf, type CustomFieldSetting } from './settings.js';
import { checkIsoDate } from './values.js';
import { eachObject } from './validate-channels.js';
import { VOTER_CRM_ID, canonicalIdentifierType, canonicalVoterCrmId } from './voter-ids.js';
import {
  Issues, clip, isBlank, own, pathOf, readInteger, readText, type JsonObject,
} from './validate-util.js';

/** Longest external identifier value accepted (the contract shows none; ours). */
export const MAX_EXTERNAL_ID_LENGTH = 100;

export function readIdentifiers(issues: Issues, body: JsonObject, vc: ValidationContext): ValidIdentifier[] {
  const available = identifierTypesOf(vc.context, vc.settings);
  const out: ValidIdentifier[] = [];
  eachObject(issues, body, 'identifiers', 'an identifier object with "type" and "externalId"', (item, path) => {
    const typePath = pathOf(path, 'type');
    const idPath = pathOf(path, 'externalId');
    const typeText = readText(issues, own(item, 'type'), typePath, 50);
    const externalId = readText(issues, own(item, 'externalId'), idPath, MAX_EXTERNAL_ID_LENGTH);
    if (typeText === undefined && isBlank(own(item, 'type'))) issues.add(typePath, `${typePath} is required.`);
    if (externalId === undefined && isBlank(own(item, 'externalId'))) issues.add(idPath, `${idPath} is required.`);
    if (typeText === undefined) return;
    const wanted = canonicalIdentifierType(typeText).toLowerCase();
    const type = available.find((t) => t.toLowerCase() === wanted);
    if (type === undefined) {
      const hint = wanted === VOTER_CRM_ID
        ? 'votercrmid is only available in the campaign context.'
        : `Available in this context: ${available.join(', ')}.`;
      issues.add(typePath, `${typePath} "${clip(typeText)}" is not an identifier type available in this context.`, hint);
      return;
    }
    if (externalId === undefined) return;
    let value = externalId;
    if (type === VOTER_CRM_ID) {
      const canonical = canonicalVoterCrmId(externalId);
      if (canonical === null) {
        issues.add(idPath, `${idPath} must be the crmId of a voter-file record (digits only).`);
        return;
      }
      // Existence in the tenant's voter file is checked by the Crm (src/crm/voter-ids.ts).
      value = canonical;
    }
    const key = `${type.toLowerCase()}:${value.toLowerCase()}`;
    if (!out.some((x) => `${x.type.toLowerCase()}:${x.externalId.toLowerCase()}` === key)) out.push({ type, externalId: value });
  });
  return out;
}

const NUMBER = /^[+-]?(?:\d{1,30}(?:\.\d{0,30})?|\.\d{1,30})$/;
const TRUE_WORDS: ReadonlySet<string> = new Set(['true', 'yes', 'y', '1']);
const FALSE_WORDS: ReadonlySet<string> = new Set(['false', 'no', 'n', '0']);

/** The canonical text of a custom field value, or an issue text. */
function checkAssignedValue(field: CustomFieldSetting, text: string): { value: string } | { problem: string; hint?: string } {
  switch (field.type) {
    case 'text':
      return [...text].length <= field.maxLength ? { value: text } : { problem: `is longer than ${field.maxLength} characters` };
    case 'number':
      return NUMBER.test(text) ? { value: text } : { problem: 'must be a number', hint: 'Use digits with an optional decimal point, such as 12.5.' };
    case 'date': {
      const date = checkIsoDate(text);
      return date.ok ? { value: date.iso } : { problem: 'must be an ISO 8601 date between 1900 and 2100', hint: 'Use YYYY-MM-DD.' };
    }
    case 'boolean': {
      const t = text.toLowerCase();
      if (TRUE_WORDS.has(t)) return { value: 'true' };
      if (FALSE_WORDS.has(t)) return { value: 'false' };
      return { problem: 'must be true or false' };
    }
    case 'choice': {
      const choice = field.values.find((v) => v.toLowerCase() === text.toLowerCase());
      return choice !== undefined ? { value: choice } : { problem: 'is not one of the field\'s values', hint: `Use one of: ${field.values.join(', ')}.`.slice(0, 500) };
    }
  }
}

export function readCustomFieldValues(issues: Issues, body: JsonObject, vc: ValidationContext): ValidCustomFieldValue[] {
  const out: ValidCustomFieldValue[] = [];
  eachObject(issues, body, 'customFieldValues', 'a custom field value object', (item, path) => {
    const fieldPath = pathOf(path, 'customFieldId');
    const groupPath = pathOf(path, 'customFieldGroupId');
    const valuePath = pathOf(path, 'assignedValue');
    const fieldId = readInteger(issues, own(item, 'customFieldId'), fieldPath, 1);
    const groupId = readInteger(issues, own(item, 'customFieldGroupId'), groupPath, 1);
    if (own(item, 'customFieldId') == null) issues.add(fieldPath, `${fieldPath} is required.`);
    if (own(item, 'customFieldGroupId') == null) issues.add(groupPath, `${groupPath} is required.`);
    const raw = own(item, 'assignedValue');
    const text = readText(issues, raw, valuePath, 10000);
    if (fieldId === undefined) return;
    const found = findCustomField(vc.settings, fieldId);
    if (found === undefined) {
      issues.add(fieldPath, `${fieldPath} ${fieldId} is not a custom field available in this context.`);
      return;
    }
    if (groupId === undefined) return;
    if (!vc.settings.customFieldGroups.some((g) => g.id === groupId)) {
      issues.add(groupPath, `${groupPath} ${groupId} is not a custom field group available in this context.`);
      return;
    }
    if (groupId !== found.groupId) {
      issues.add(groupPath, `Custom field ${fieldId} belongs to group ${found.groupId}, not ${groupId}.`);
      return;
    }
    let assignedValue: string | null = null;
    if (text !== undefined) {
      const checked = checkAssignedValue(found.field, text);
      if ('problem' in checked) {
        issues.add(valuePath, `${valuePath} "${clip(text)}" ${checked.problem} (custom field ${fieldId}, ${found.field.type}).`, checked.hint);
        return;
      }
      assignedValue = checked.value;
    }
    const at = out.findIndex((v) => v.customFieldId === fieldId);
    const value = { customFieldId: fieldId, customFieldGroupId: groupId, assignedValue };
    if (at === -1) out.push(value);
    else out[at] = value;
  });
  return out;
}

/**
 * The code on top of the Match Candidate schema for the context-dependent lists: external
 * identifiers (interface.md 2.5) and custom field values (2.6), both checked against the
 * context's settings (the schema has checked their shapes).
 */
import { type ValidCustomFieldValue, type ValidIdentifier, type ValidationContext } from './candidate.js';
import { findCustomField, identifierTypesOf, type CustomFieldSetting } from './settings.js';
import { checkIsoDate } from './values.js';
import { isLongerThan } from './schemas/check.js';
import { clip } from './schemas/kit.js';
import { isBlank, own, pathOf, type JsonObject, type Reader } from './schemas/reader.js';
import { VOTER_CRM_ID, canonicalIdentifierType, canonicalVoterCrmId } from './voter-ids.js';

export function readIdentifiers(r: Reader, body: JsonObject, vc: ValidationContext): ValidIdentifier[] {
  const available = identifierTypesOf(vc.context, vc.settings);
  const out: ValidIdentifier[] = [];
  for (const { item, path } of r.each(own(body, 'identifiers'), 'identifiers')) {
    const typePath = pathOf(path, 'type');
    const idPath = pathOf(path, 'externalId');
    const typeText = r.text(own(item, 'type'), typePath);
    const externalId = r.text(own(item, 'externalId'), idPath);
    if (typeText === undefined && isBlank(own(item, 'type'))) r.add(typePath, `${typePath} is required.`);
    if (externalId === undefined && isBlank(own(item, 'externalId'))) r.add(idPath, `${idPath} is required.`);
    if (typeText === undefined) continue;
    const wanted = canonicalIdentifierType(typeText).toLowerCase();
    const type = available.find((t) => t.toLowerCase() === wanted);
    if (type === undefined) {
      const hint = wanted === VOTER_CRM_ID ? 'votercrmid is only available in the campaign context.' : `Available in this context: ${available.join(', ')}.`;
      r.add(typePath, `${typePath} "${clip(typeText)}" is not an identifier type available in this context.`, hint);
      continue;
    }
    if (externalId === undefined) continue;
    let value = externalId;
    if (type === VOTER_CRM_ID) {
      const canonical = canonicalVoterCrmId(externalId);
      if (canonical === null) {
        r.add(idPath, `${idPath} must be the crmId of a voter-file record (digits only).`);
        continue;
      }
      // Existence in the tenant's voter file is checked by the Crm (src/crm/voter-ids.ts).
      value = canonical;
    }
    const key = `${type.toLowerCase()}:${value.toLowerCase()}`;
    if (!out.some((x) => `${x.type.toLowerCase()}:${x.externalId.toLowerCase()}` === key)) out.push({ type, externalId: value });
  }
  return out;
}

const NUMBER = /^[+-]?(?:\d{1,30}(?:\.\d{0,30})?|\.\d{1,30})$/;
const TRUE_WORDS: ReadonlySet<string> = new Set(['true', 'yes', 'y', '1']);
const FALSE_WORDS: ReadonlySet<string> = new Set(['false', 'no', 'n', '0']);

/** The canonical text of a custom field value, or an issue text. */
function checkAssignedValue(field: CustomFieldSetting, text: string): { value: string } | { problem: string; hint?: string } {
  switch (field.type) {
    case 'text':
      return !isLongerThan(text, field.maxLength) ? { value: text } : { problem: `is longer than ${field.maxLength} characters` };
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
      return choice !== undefined
        ? { value: choice }
        : { problem: "is not one of the field's values", hint: `Use one of: ${field.values.join(', ')}.`.slice(0, 500) };
    }
  }
}

export function readCustomFieldValues(r: Reader, body: JsonObject, vc: ValidationContext): ValidCustomFieldValue[] {
  const out: ValidCustomFieldValue[] = [];
  for (const { item, path } of r.each(own(body, 'customFieldValues'), 'customFieldValues')) {
    const fieldPath = pathOf(path, 'customFieldId');
    const groupPath = pathOf(path, 'customFieldGroupId');
    const valuePath = pathOf(path, 'assignedValue');
    const fieldId = r.int(own(item, 'customFieldId'), fieldPath, 1);
    const groupId = r.int(own(item, 'customFieldGroupId'), groupPath, 1);
    if (own(item, 'customFieldId') == null) r.add(fieldPath, `${fieldPath} is required.`);
    if (own(item, 'customFieldGroupId') == null) r.add(groupPath, `${groupPath} is required.`);
    const text = r.text(own(item, 'assignedValue'), valuePath);
    if (fieldId === undefined) continue;
    const found = findCustomField(vc.settings, fieldId);
    if (found === undefined) {
      r.add(fieldPath, `${fieldPath} ${fieldId} is not a custom field available in this context.`);
      continue;
    }
    if (groupId === undefined) continue;
    if (!vc.settings.customFieldGroups.some((g) => g.id === groupId)) {
      r.add(groupPath, `${groupPath} ${groupId} is not a custom field group available in this context.`);
      continue;
    }
    if (groupId !== found.groupId) {
      r.add(groupPath, `Custom field ${fieldId} belongs to group ${found.groupId}, not ${groupId}.`);
      continue;
    }
    if (!r.ok(valuePath)) continue;
    let assignedValue: string | null = null;
    if (text !== undefined) {
      const checked = checkAssignedValue(found.field, text);
      if ('problem' in checked) {
        r.add(valuePath, `${valuePath} "${clip(text)}" ${checked.problem} (custom field ${fieldId}, ${found.field.type}).`, checked.hint);
        continue;
      }
      assignedValue = checked.value;
    }
    const at = out.findIndex((v) => v.customFieldId === fieldId);
    const value = { customFieldId: fieldId, customFieldGroupId: groupId, assignedValue };
    if (at === -1) out.push(value);
    else out[at] = value;
  }
  return out;
}

/**
 * Canvass responses (compatibility.md "canvassResponses"): reading a request body into a
 * {@link CanvassInput} against a context's lists and the person's phones, and applying its
 * phone dispositions. Pure functions; the Crm facade stores the result.
 *
 * Tolerated: explicit nulls (absent), `resultCodeId: null` next to `responses`, `type` and
 * `action` in any case, ids as numeric strings, `dateCanvassed` as a date or a datetime with
 * an offset, unknown keys (ignored). Refused (400, property named): an unknown contact type,
 * input type, result code, survey question, activist code or volunteer activity; a survey
 * response not of its question; both a non-null `resultCodeId` and `responses`; a `phoneId`
 * that is not a phone of the person. A `phone.phoneNumber` the person lacks changes no phone
 * (the response is kept with the number in the history).
 */
import type { PersonRecord, PhoneOptInStatus, StoredPhone } from '../store/index.js';
import { DEFAULT_INPUT_TYPE_ID, RESULT_CODE, type CanvassLists } from './canvass-lists.js';
import { OPT_IN_CODES } from './codes.js';
import type { ValidationIssue } from './errors.js';
import { compileSchema, mergeIssues } from './schemas/check.js';
import { CanvassResponse } from './schemas/canvass-response.js';
import { Issues, isObject, own, pathOf, readArray, readBoolean, readCode, readInteger, readObject, readString } from './validate-util.js';

/** One applied or removed item of `responses`. */
export type CanvassItem =
  | { readonly type: 'ActivistCode'; readonly action: 'Apply' | 'Remove'; readonly activistCodeId: number }
  | { readonly type: 'SurveyResponse'; readonly surveyQuestionId: number; readonly surveyResponseId: number }
  | { readonly type: 'VolunteerActivity'; readonly action: 'Apply' | 'Remove'; readonly volunteerActivityId: number };

/** A validated canvass response, as stored in the person's history (JSON). */
export interface CanvassInput {
  readonly contactTypeId: number | null;
  readonly inputTypeId: number;
  /** UTC ISO 8601 (`2012-04-09T04:00:00Z`). */
  readonly dateCanvassed: string;
  /** The result code; 14 Canvassed when `responses` were given (compatibility.md). */
  readonly resultCodeId: number | null;
  readonly responses: readonly CanvassItem[];
  /** The phone the response is about (by `phoneId` or by `phone.phoneNumber`), or null. */
  readonly phoneId: number | null;
  /** `canvassContext.phone.phoneNumber` as sent (kept when it names no phone of the person), or null. */
  readonly phoneNumber: string | null;
  readonly smsOptInStatus: PhoneOptInStatus | null;
  readonly campaignId: number | null;
  /** False when `omitActivistCodeContactHistory` was set and only activist codes were sent: no contact attempt is recorded. */
  readonly contactHistory: boolean;
}

/** Validation result. */
export type CanvassParse = { readonly ok: true; readonly value: CanvassInput } | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

const TYPES: Readonly<Record<string, CanvassItem['type']>> = {
  ACTIVISTCODE: 'ActivistCode', SURVEYRESPONSE: 'SurveyResponse', VOLUNTEERACTIVITY: 'VolunteerActivity',
};
const ACTIONS: Readonly<Record<string, 'Apply' | 'Remove'>> = { APPLY: 'Apply', REMOVE: 'Remove' };

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;

/** `dateCanvassed`: a date (midnight UTC) or an ISO datetime with or without offset (UTC when none). */
export function readCanvassDate(issues: Issues, value: unknown, path: string): string | undefined {
  const text = readString(issues, value, path, 40);
  if (text === undefined) return undefined;
  let ms = Number.NaN;
  if (DATE_ONLY.test(text)) ms = Date.parse(`${text}T00:00:00Z`);
  else if (DATE_TIME.test(text)) {
    const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(text);
    const normalized = text.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
    ms = Date.parse(hasZone ? normalized : `${normalized}Z`);
  }
  const year = Number.isNaN(ms) ? 0 : new Date(ms).getUTCFullYear();
  if (Number.isNaN(ms) || year < 1900 || year > 2199) {
    issues.add(path, `${path} "${text.slice(0, 40)}" is not a date.`, 'Use ISO 8601, e.g. 2024-10-01 or 2024-10-01T18:30:00-04:00.');
    return undefined;
  }
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Digits of a phone number, without a leading NANP 1 when 11 digits long. */
function phoneDigits(text: string): string {
  const digits = text.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}

/** The person's phone with the same number (national digits compared; E.164 as fallback). */
function findPhone(phones: readonly StoredPhone[], number: string, dialingPrefix: string | undefined): StoredPhone | undefined {
  const digits = phoneDigits(number);
  const e164 = dialingPrefix === undefined ? null : `+${dialingPrefix}${number.replace(/\D/g, '')}`;
  return phones.find((p) => phoneDigits(p.phoneNumber) === digits || p.e164 === e164 || phoneDigits(p.e164) === digits);
}

const CANVASS_SCHEMA = compileSchema(CanvassResponse);

/**
 * Reads a canvass response body against the context's lists and the person. `now` is the
 * default `dateCanvassed` (UTC ISO 8601).
 */
export function parseCanvassResponse(body: unknown, lists: CanvassLists, person: PersonRecord, now: string): CanvassParse {
  const issues = new Issues();
  if (!isObject(body)) return { ok: false, issues: [{ property: '', text: 'The request body must be a JSON object with a canvassContext.' }] };
  const ctx = readObject(issues, own(body, 'canvassContext'), 'canvassContext') ?? {};
  if (own(body, 'canvassContext') == null) issues.add('canvassContext', 'canvassContext is required.', 'Send {"canvassContext":{...},"resultCodeId":N} or {"canvassContext":{...},"responses":[...]}.');

  const contactTypeId = readInteger(issues, own(ctx, 'contactTypeId'), 'canvassContext.contactTypeId', 1) ?? null;
  if (contactTypeId !== null && !lists.contactTypes.some((t) => t.contactTypeId === contactTypeId)) {
    issues.add('canvassContext.contactTypeId', `'contactTypeId' must be a valid contact type in the current context.`, 'See GET /canvassResponses/contactTypes.');
  }
  const inputTypeId = readInteger(issues, own(ctx, 'inputTypeId'), 'canvassContext.inputTypeId', 1) ?? DEFAULT_INPUT_TYPE_ID;
  if (!lists.inputTypes.some((t) => t.inputTypeId === inputTypeId)) {
    issues.add('canvassContext.inputTypeId', `'inputTypeId' must be a valid input type in the current context.`, 'See GET /canvassResponses/inputTypes.');
  }
  const dateCanvassed = readCanvassDate(issues, own(ctx, 'dateCanvassed'), 'canvassContext.dateCanvassed') ?? now;
  const omit = readBoolean(issues, own(ctx, 'omitActivistCodeContactHistory'), 'canvassContext.omitActivistCodeContactHistory') ?? false;
  const campaignId = readInteger(issues, own(ctx, 'campaignId'), 'canvassContext.campaignId', 0) ?? null;

  // The phone: by id (must be the person's), else by number.
  let phone: StoredPhone | undefined;
  const rawPhoneId = own(ctx, 'phoneId');
  const phoneId = readInteger(issues, rawPhoneId, 'canvassContext.phoneId', 1);
  if (phoneId !== undefined) {
    phone = person.phones.find((p) => p.phoneId === phoneId);
    if (phone === undefined) issues.add('canvassContext.phoneId', `'phoneId' ${phoneId} is not a phone of this person.`, 'Use a phoneId from GET /people/{crmId}?$expand=phones.');
  }
  const phoneObj = readObject(issues, own(ctx, 'phone'), 'canvassContext.phone');
  let smsOptInStatus: PhoneOptInStatus | null = null;
  let phoneNumber: string | undefined;
  if (phoneObj !== undefined) {
    phoneNumber = readString(issues, own(phoneObj, 'phoneNumber'), 'canvassContext.phone.phoneNumber', 50);
    const prefix = readString(issues, own(phoneObj, 'dialingPrefix'), 'canvassContext.phone.dialingPrefix', 3);
    smsOptInStatus = readCode(issues, own(phoneObj, 'smsOptInStatus'), 'canvassContext.phone.smsOptInStatus', OPT_IN_CODES, 'I (opt in), U (unknown), O (opt out)') ?? null;
    if (phone === undefined && phoneId === undefined && phoneNumber !== undefined) phone = findPhone(person.phones, phoneNumber, prefix);
  }

  // resultCodeId or responses, not both (a null resultCodeId next to responses is fine).
  const resultCodeId = readInteger(issues, own(body, 'resultCodeId'), 'resultCodeId', 1) ?? null;
  const rawResponses = readArray(issues, own(body, 'responses'), 'responses') ?? [];
  if (resultCodeId !== null && rawResponses.length > 0) {
    issues.add('resultCodeId', 'Send either resultCodeId or responses, not both.', 'Responses imply the result Canvassed; leave resultCodeId out or null.');
  } else if (resultCodeId !== null && !lists.resultCodes.some((c) => c.resultCodeId === resultCodeId)) {
    issues.add('resultCodeId', `'resultCodeId' must be a valid result code in the current context.`, 'See GET /canvassResponses/resultCodes.');
  }
  const responses: CanvassItem[] = [];
  rawResponses.forEach((raw, i) => {
    const p = pathOf('responses', i);
    if (!isObject(raw)) {
      issues.add(p, `${p} must be an object with a "type".`);
      return;
    }
    const typeText = readString(issues, own(raw, 'type'), pathOf(p, 'type'), 50);
    const type = typeText === undefined ? undefined : TYPES[typeText.replace(/[\s_-]/g, '').toUpperCase()];
    if (type === undefined) {
      issues.add(pathOf(p, 'type'), typeText === undefined ? `${pathOf(p, 'type')} is required.` : `${pathOf(p, 'type')} "${typeText.slice(0, 40)}" is not a response type.`, 'Use ActivistCode, SurveyResponse or VolunteerActivity.');
      return;
    }
    const actionText = readString(issues, own(raw, 'action'), pathOf(p, 'action'), 20);
    const action = actionText === undefined ? 'Apply' : ACTIONS[actionText.toUpperCase()];
    if (action === undefined) issues.add(pathOf(p, 'action'), `${pathOf(p, 'action')} "${String(actionText).slice(0, 40)}" is not an action.`, 'Use Apply or Remove.');
    if (type === 'ActivistCode') {
      const id = readInteger(issues, own(raw, 'activistCodeId'), pathOf(p, 'activistCodeId'), 1);
      if (id === undefined) {
        if (own(raw, 'activistCodeId') == null) issues.add(pathOf(p, 'activistCodeId'), `${pathOf(p, 'activistCodeId')} is required.`);
      } else if (!lists.activistCodes.some((a) => a.activistCodeId === id)) {
        issues.add(pathOf(p, 'activistCodeId'), `'activistCodeId' must be a valid Activist Code that is available in the current context.`, 'See GET /activistCodes.');
      } else if (action !== undefined) responses.push({ type, action, activistCodeId: id });
    } else if (type === 'VolunteerActivity') {
      const id = readInteger(issues, own(raw, 'volunteerActivityId'), pathOf(p, 'volunteerActivityId'), 1);
      if (id === undefined) {
        if (own(raw, 'volunteerActivityId') == null) issues.add(pathOf(p, 'volunteerActivityId'), `${pathOf(p, 'volunteerActivityId')} is required.`);
      } else if (!lists.volunteerActivities.some((a) => a.volunteerActivityId === id)) {
        issues.add(pathOf(p, 'volunteerActivityId'), `'volunteerActivityId' must be a valid Volunteer Activity that is available in the current context.`);
      } else if (action !== undefined) responses.push({ type, action, volunteerActivityId: id });
    } else {
      const qid = readInteger(issues, own(raw, 'surveyQuestionId'), pathOf(p, 'surveyQuestionId'), 1);
      const rid = readInteger(issues, own(raw, 'surveyResponseId'), pathOf(p, 'surveyResponseId'), 1);
      if (own(raw, 'surveyQuestionId') == null) issues.add(pathOf(p, 'surveyQuestionId'), `${pathOf(p, 'surveyQuestionId')} is required.`);
      if (own(raw, 'surveyResponseId') == null) issues.add(pathOf(p, 'surveyResponseId'), `${pathOf(p, 'surveyResponseId')} is required.`);
      if (qid === undefined || rid === undefined) return;
      const question = lists.surveyQuestions.find((q) => q.surveyQuestionId === qid);
      if (question === undefined) {
        issues.add(pathOf(p, 'surveyQuestionId'), `'surveyQuestionId' must be a valid Survey Question that is available in the current context.`, 'See GET /surveyQuestions.');
      } else if (!question.responses.some((r) => r.surveyResponseId === rid)) {
        issues.add(pathOf(p, 'surveyResponseId'), `'surveyResponseId' must be a valid Response to the given Survey Question.`,
          `Responses of question ${qid}: ${question.responses.map((r) => r.surveyResponseId).join(', ') || 'none'}.`);
      } else responses.push({ type, surveyQuestionId: qid, surveyResponseId: rid });
    }
  });

  // A number the person does not have changes no phone; it is kept in the history (phoneNumber).
  // The schema (the one GET /openapi.json shows) names what the readers above did not.
  const refused = CANVASS_SCHEMA.validate(body);
  if (!issues.empty || refused.length > 0) return { ok: false, issues: mergeIssues(issues.list, refused) };
  const onlyActivistCodes = resultCodeId === null && responses.length > 0 && responses.every((r) => r.type === 'ActivistCode');
  const contactHistory = !(omit && onlyActivistCodes);
  return {
    ok: true,
    value: {
      contactTypeId, inputTypeId, dateCanvassed,
      resultCodeId: resultCodeId ?? (responses.length > 0 && contactHistory ? RESULT_CODE.Canvassed : null),
      responses, phoneId: phone?.phoneId ?? null, phoneNumber: phoneNumber ?? null, smsOptInStatus, campaignId,
      contactHistory,
    },
  };
}

/** What a phone carries once dispositions were applied (shown on GET person with the phone). */
export interface PhoneDisposition {
  readonly isWrongNumber?: boolean;
  readonly isDisconnected?: boolean;
  readonly doNotCall?: boolean;
  readonly doNotText?: boolean;
  readonly smsOptInStatus?: PhoneOptInStatus;
}

/**
 * Applies a canvass response's dispositions to the person's phone: Wrong Number and
 * Disconnected mark it, Do Not Call sets `doNotCall`, Do Not Text and an SMS opt-out
 * (`phone.smsOptInStatus` O) set `doNotText` and `phoneOptInStatus` O; an SMS opt-in (I) sets
 * `phoneOptInStatus` I. Returns the changed phones, or null when nothing changes.
 */
export function applyPhoneDispositions(phones: readonly StoredPhone[], input: CanvassInput): StoredPhone[] | null {
  if (input.phoneId === null) return null;
  let changed = false;
  const out = phones.map((p) => {
    if (p.phoneId !== input.phoneId) return p;
    const next: { -readonly [K in keyof (StoredPhone & PhoneDisposition)]: (StoredPhone & PhoneDisposition)[K] } = { ...p };
    switch (input.resultCodeId) {
      case RESULT_CODE.WrongNumber: next.isWrongNumber = true; break;
      case RESULT_CODE.Disconnected: next.isDisconnected = true; break;
      case RESULT_CODE.DoNotCall: next.doNotCall = true; break;
      case RESULT_CODE.DoNotText: next.doNotText = true; next.phoneOptInStatus = 'O'; break;
      default: break;
    }
    if (input.smsOptInStatus !== null) {
      next.smsOptInStatus = input.smsOptInStatus;
      if (input.smsOptInStatus === 'O') {
        next.doNotText = true;
        next.phoneOptInStatus = 'O';
      } else if (input.smsOptInStatus === 'I') next.phoneOptInStatus = 'I';
    }
    if (JSON.stringify(next) !== JSON.stringify(p)) changed = true;
    return next;
  });
  return changed ? out : null;
}

/** A person named in a path: by record id, or by external identifier type and value. */
export type PersonRef =
  | { readonly kind: 'crmId'; readonly crmId: number }
  | { readonly kind: 'external'; readonly type: string; readonly id: string };

/** A canvass response as `GET /people/{ref}/canvassResponses` lists it. */
export interface CanvassHistoryItem extends CanvassInput {
  readonly canvassResponseId: number;
  /** When it was received (UTC). */
  readonly dateCreated: string;
}

/** The listed form of a stored row. */
export function canvassHistoryItem(row: { readonly id: number; readonly createdAt: string; readonly json: string }): CanvassHistoryItem {
  return { canvassResponseId: row.id, ...(JSON.parse(row.json) as CanvassInput), dateCreated: row.createdAt };
}

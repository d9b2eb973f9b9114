/**
 * Canvass responses (compatibility.md "canvassResponses"): reading a request body into a
 * {@link CanvassInput} against a context's lists and the person's phones, and applying its
 * phone dispositions. Pure functions; the Crm facade stores the result.
 *
 * The body is checked once against its schema (schemas/canvass-response.ts: the shape, the JSON
 * types, lengths and codes, as GET /openapi.json shows it), then read once by the code here.
 * Tolerated (stated by the schema): explicit nulls (absent; null items of `responses` are
 * skipped), `resultCodeId: null` next to `responses`, `type` and `action` in any case, ids as
 * numeric strings, `dateCanvassed` as a date or a datetime with an offset, unknown keys
 * (ignored). Refused (400, property named): an unknown contact type, input type, result code,
 * survey question, activist code or volunteer activity; a survey response not of its question;
 * both a non-null `resultCodeId` and `responses`; a `phoneId` that is not a phone of the
 * person. A `phone.phoneNumber` the person lacks changes no phone (the response is kept with
 * the number in the history).
 */
import type { PersonRecord, PhoneOptInStatus, StoredPhone } from '../store/index.js';
import { DEFAULT_INPUT_TYPE_ID, RESULT_CODE, type CanvassLists } from './canvass-lists.js';
import { OPT_IN_CODES } from './codes.js';
import type { ValidationIssue } from './errors.js';
import { compileSchema } from './schemas/check.js';
import { CANVASS_CONTEXT_HINT, CanvassResponse, RESPONSE_TYPE_HINT } from './schemas/canvass-response.js';
import { clip } from './schemas/kit.js';
import { Reader, isBlank, isObject, own, pathOf, type JsonObject } from './schemas/reader.js';

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
  ACTIVISTCODE: 'ActivistCode',
  SURVEYRESPONSE: 'SurveyResponse',
  VOLUNTEERACTIVITY: 'VolunteerActivity',
};
const ACTIONS: Readonly<Record<string, 'Apply' | 'Remove'>> = { APPLY: 'Apply', REMOVE: 'Remove' };

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;

/** `dateCanvassed` (trimmed): a date (midnight UTC) or an ISO datetime with or without offset (UTC when none), as UTC ISO 8601; null when it is not one. */
export function canvassDate(text: string): string | null {
  let ms = Number.NaN;
  if (DATE_ONLY.test(text)) ms = Date.parse(`${text}T00:00:00Z`);
  else if (DATE_TIME.test(text)) {
    const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(text);
    const normalized = text.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
    ms = Date.parse(hasZone ? normalized : `${normalized}Z`);
  }
  const year = Number.isNaN(ms) ? 0 : new Date(ms).getUTCFullYear();
  if (Number.isNaN(ms) || year < 1900 || year > 2199) return null;
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

const SCHEMA = compileSchema(CanvassResponse);

/** The canvass context: how, when and through which phone. */
function readContext(r: Reader, body: JsonObject, lists: CanvassLists, person: PersonRecord, now: string) {
  if (own(body, 'canvassContext') === null) r.add('canvassContext', 'canvassContext is required.', CANVASS_CONTEXT_HINT);
  const ctx = r.obj(own(body, 'canvassContext'), 'canvassContext') ?? {};
  const at = (k: string): string => pathOf('canvassContext', k);

  const contactTypeId = r.int(own(ctx, 'contactTypeId'), at('contactTypeId'), 1) ?? null;
  if (contactTypeId !== null && !lists.contactTypes.some((t) => t.contactTypeId === contactTypeId)) {
    r.add(at('contactTypeId'), `'contactTypeId' must be a valid contact type in the current context.`, 'See GET /canvassResponses/contactTypes.');
  }
  const inputTypeId = r.int(own(ctx, 'inputTypeId'), at('inputTypeId'), 1) ?? DEFAULT_INPUT_TYPE_ID;
  if (!lists.inputTypes.some((t) => t.inputTypeId === inputTypeId)) {
    r.add(at('inputTypeId'), `'inputTypeId' must be a valid input type in the current context.`, 'See GET /canvassResponses/inputTypes.');
  }
  const dateText = r.text(own(ctx, 'dateCanvassed'), at('dateCanvassed'));
  const date = dateText === undefined ? null : canvassDate(dateText);
  if (dateText !== undefined && date === null) {
    r.add(at('dateCanvassed'), `${at('dateCanvassed')} "${clip(dateText)}" is not a date.`, 'Use ISO 8601, e.g. 2024-10-01 or 2024-10-01T18:30:00-04:00.');
  }
  const omit = r.bool(own(ctx, 'omitActivistCodeContactHistory'), at('omitActivistCodeContactHistory')) ?? false;
  const campaignId = r.int(own(ctx, 'campaignId'), at('campaignId'), 0) ?? null;

  // The phone: by id (must be the person's), else by number.
  let phone: StoredPhone | undefined;
  const phoneId = r.int(own(ctx, 'phoneId'), at('phoneId'), 1);
  if (phoneId !== undefined) {
    phone = person.phones.find((p) => p.phoneId === phoneId);
    if (phone === undefined)
      r.add(at('phoneId'), `'phoneId' ${phoneId} is not a phone of this person.`, 'Use a phoneId from GET /people/{crmId}?$expand=phones.');
  }
  const phoneObj = r.obj(own(ctx, 'phone'), at('phone'));
  let smsOptInStatus: PhoneOptInStatus | null = null;
  let phoneNumber: string | undefined;
  if (phoneObj !== undefined) {
    const p = (k: string): string => pathOf(at('phone'), k);
    phoneNumber = r.text(own(phoneObj, 'phoneNumber'), p('phoneNumber'));
    const prefix = r.text(own(phoneObj, 'dialingPrefix'), p('dialingPrefix'))?.replace(/^\+/, '');
    smsOptInStatus = r.code(own(phoneObj, 'smsOptInStatus'), p('smsOptInStatus'), OPT_IN_CODES) ?? null;
    if (phone === undefined && phoneId === undefined && phoneNumber !== undefined) phone = findPhone(person.phones, phoneNumber, prefix);
  }
  return {
    contactTypeId,
    inputTypeId,
    dateCanvassed: date ?? now,
    omit,
    campaignId,
    // A number the person does not have changes no phone; it is kept in the history (phoneNumber).
    phoneId: phone?.phoneId ?? null,
    phoneNumber: phoneNumber ?? null,
    smsOptInStatus,
  };
}

/** An id of one response that must name a value of a context's list. */
function readListId(
  r: Reader,
  item: JsonObject,
  path: string,
  key: string,
  known: (id: number) => boolean,
  unknown: string,
  hint?: string,
): number | undefined {
  const p = pathOf(path, key);
  const id = r.int(own(item, key), p, 1);
  if (id === undefined) {
    if (own(item, key) == null) r.add(p, `${p} is required.`);
    return undefined;
  }
  if (!known(id)) {
    r.add(p, unknown, hint);
    return undefined;
  }
  return id;
}

/** One item of `responses`, checked against the context's lists; undefined when it has an issue. */
function readResponse(r: Reader, item: JsonObject, path: string, lists: CanvassLists): CanvassItem | undefined {
  const typePath = pathOf(path, 'type');
  const typeText = r.text(own(item, 'type'), typePath);
  const type = typeText === undefined ? undefined : TYPES[typeText.replace(/[\s_-]/g, '').toUpperCase()];
  if (type === undefined) {
    if (typeText !== undefined) r.add(typePath, `${typePath} "${clip(typeText)}" is not a response type.`, RESPONSE_TYPE_HINT);
    else if (isBlank(own(item, 'type'))) r.add(typePath, `${typePath} is required.`, RESPONSE_TYPE_HINT);
    return undefined;
  }
  const actionPath = pathOf(path, 'action');
  const actionText = r.text(own(item, 'action'), actionPath);
  const action = actionText === undefined ? 'Apply' : ACTIONS[actionText.toUpperCase()];
  if (action === undefined) r.add(actionPath, `${actionPath} "${clip(actionText ?? '')}" is not an action.`, 'Use Apply or Remove.');
  if (type === 'ActivistCode') {
    const id = readListId(
      r,
      item,
      path,
      'activistCodeId',
      (id) => lists.activistCodes.some((a) => a.activistCodeId === id),
      `'activistCodeId' must be a valid Activist Code that is available in the current context.`,
      'See GET /activistCodes.',
    );
    return id === undefined || action === undefined ? undefined : { type, action, activistCodeId: id };
  }
  if (type === 'VolunteerActivity') {
    const id = readListId(
      r,
      item,
      path,
      'volunteerActivityId',
      (id) => lists.volunteerActivities.some((a) => a.volunteerActivityId === id),
      `'volunteerActivityId' must be a valid Volunteer Activity that is available in the current context.`,
    );
    return id === undefined || action === undefined ? undefined : { type, action, volunteerActivityId: id };
  }
  const qPath = pathOf(path, 'surveyQuestionId');
  const rPath = pathOf(path, 'surveyResponseId');
  const qid = r.int(own(item, 'surveyQuestionId'), qPath, 1);
  const rid = r.int(own(item, 'surveyResponseId'), rPath, 1);
  if (own(item, 'surveyQuestionId') == null) r.add(qPath, `${qPath} is required.`);
  if (own(item, 'surveyResponseId') == null) r.add(rPath, `${rPath} is required.`);
  if (qid === undefined || rid === undefined) return undefined;
  const question = lists.surveyQuestions.find((q) => q.surveyQuestionId === qid);
  if (question === undefined) {
    r.add(qPath, `'surveyQuestionId' must be a valid Survey Question that is available in the current context.`, 'See GET /surveyQuestions.');
    return undefined;
  }
  if (!question.responses.some((x) => x.surveyResponseId === rid)) {
    r.add(
      rPath,
      `'surveyResponseId' must be a valid Response to the given Survey Question.`,
      `Responses of question ${qid}: ${question.responses.map((x) => x.surveyResponseId).join(', ') || 'none'}.`,
    );
    return undefined;
  }
  return { type, surveyQuestionId: qid, surveyResponseId: rid };
}

/**
 * Reads a canvass response body against the context's lists and the person: checked once
 * against its schema (schemas/canvass-response.ts, the one GET /openapi.json shows), then read
 * once by the code above. `now` is the default `dateCanvassed` (UTC ISO 8601).
 */
export function parseCanvassResponse(body: unknown, lists: CanvassLists, person: PersonRecord, now: string): CanvassParse {
  if (!isObject(body)) return { ok: false, issues: [{ property: '', text: 'The request body must be a JSON object with a canvassContext.' }] };
  const refused = SCHEMA.validate(body);
  const r = new Reader(refused.map((i) => i.property));
  const ctx = readContext(r, body, lists, person, now);

  // resultCodeId or responses, not both (a null resultCodeId next to responses is fine).
  const resultCodeId = r.int(own(body, 'resultCodeId'), 'resultCodeId', 1) ?? null;
  const items = r.each(own(body, 'responses'), 'responses');
  if (resultCodeId !== null && items.length > 0) {
    r.add('resultCodeId', 'Send either resultCodeId or responses, not both.', 'Responses imply the result Canvassed; leave resultCodeId out or null.');
  } else if (resultCodeId !== null && !lists.resultCodes.some((c) => c.resultCodeId === resultCodeId)) {
    r.add('resultCodeId', `'resultCodeId' must be a valid result code in the current context.`, 'See GET /canvassResponses/resultCodes.');
  }
  const responses: CanvassItem[] = [];
  for (const { item, path } of items) {
    const response = readResponse(r, item, path, lists);
    if (response !== undefined) responses.push(response);
  }
  if (refused.length > 0 || r.issues.length > 0) return { ok: false, issues: SCHEMA.ordered([...refused, ...r.issues]) };

  const onlyActivistCodes = resultCodeId === null && responses.length > 0 && responses.every((x) => x.type === 'ActivistCode');
  const contactHistory = !(ctx.omit && onlyActivistCodes);
  return {
    ok: true,
    value: {
      contactTypeId: ctx.contactTypeId,
      inputTypeId: ctx.inputTypeId,
      dateCanvassed: ctx.dateCanvassed,
      resultCodeId: resultCodeId ?? (responses.length > 0 && contactHistory ? RESULT_CODE.Canvassed : null),
      responses,
      phoneId: ctx.phoneId,
      phoneNumber: ctx.phoneNumber,
      smsOptInStatus: ctx.smsOptInStatus,
      campaignId: ctx.campaignId,
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
  const out: StoredPhone[] = [];
  for (const p of phones) {
    if (p.phoneId !== input.phoneId) {
      out.push(p);
      continue;
    }
    const next: { -readonly [K in keyof (StoredPhone & PhoneDisposition)]: (StoredPhone & PhoneDisposition)[K] } = { ...p };
    switch (input.resultCodeId) {
      case RESULT_CODE.WrongNumber:
        next.isWrongNumber = true;
        break;
      case RESULT_CODE.Disconnected:
        next.isDisconnected = true;
        break;
      case RESULT_CODE.DoNotCall:
        next.doNotCall = true;
        break;
      case RESULT_CODE.DoNotText:
        next.doNotText = true;
        next.phoneOptInStatus = 'O';
        break;
      default:
        break;
    }
    if (input.smsOptInStatus !== null) {
      next.smsOptInStatus = input.smsOptInStatus;
      if (input.smsOptInStatus === 'O') {
        next.doNotText = true;
        next.phoneOptInStatus = 'O';
      } else if (input.smsOptInStatus === 'I') next.phoneOptInStatus = 'I';
    }
    if (JSON.stringify(next) !== JSON.stringify(p)) changed = true;
    out.push(next);
  }
  return changed ? out : null;
}

/** A person named in a path: by record id, or by external identifier type and value. */
export type PersonRef = { readonly kind: 'crmId'; readonly crmId: number } | { readonly kind: 'external'; readonly type: string; readonly id: string };

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

/**
 * Canvass lookup lists (compatibility.md "canvassResponses"): contact types, input types,
 * result codes, survey questions with their responses, activist codes and volunteer
 * activities. Each tenant context sees the seeded lists below (the ids clients rely on) plus
 * what its settings file adds under `canvass` (same shapes as the API returns, so a list
 * copied from another system can be pasted):
 *
 * ```jsonc
 * "campaign": { "canvass": {
 *   "contactTypes": [{ "contactTypeId": 79, "name": "Social Media", "channelTypeName": "Online" }],
 *   "inputTypes": [{ "inputTypeId": 5, "name": "Back End" }],
 *   "resultCodes": [{ "resultCodeId": 205, "name": "Opted Out", "mediumName": "OptO", "shortName": "OO" }],
 *   "surveyQuestions": [{ "surveyQuestionId": 378552, "name": "2020VotePPE", "type": "GOTV", "cycle": 2020,
 *     "responses": [{ "surveyResponseId": 1555791, "name": "Yes - Early" }] }],
 *   "activistCodes": [{ "activistCodeId": 4482459, "name": "EdayIssue-PollWorker", "type": "Constituency/Issue" }],
 *   "volunteerActivities": [{ "volunteerActivityId": 3425, "name": "Phone bank" }]
 * } }
 * ```
 *
 * An entry with a seeded id replaces the seeded entry. Survey questions, activist codes and
 * volunteer activities have no seeded entries.
 */
import { Issues, isObject, own, pathOf, readArray, readInteger, readString, type JsonObject } from './validate-util.js';

export interface ContactType { readonly contactTypeId: number; readonly name: string; readonly channelTypeName: string | null }
export interface InputType { readonly inputTypeId: number; readonly name: string }
export interface ResultCode { readonly resultCodeId: number; readonly name: string; readonly mediumName: string | null; readonly shortName: string | null }
export interface SurveyResponseOption { readonly surveyResponseId: number; readonly name: string; readonly mediumName: string | null; readonly shortName: string | null }
export interface SurveyQuestion {
  readonly surveyQuestionId: number;
  readonly type: string | null;
  readonly cycle: number | null;
  readonly name: string;
  readonly mediumName: string | null;
  readonly shortName: string | null;
  readonly scriptQuestion: string | null;
  readonly status: string;
  readonly responses: readonly SurveyResponseOption[];
}
export interface ActivistCode {
  readonly activistCodeId: number;
  readonly type: string | null;
  readonly name: string;
  readonly mediumName: string | null;
  readonly shortName: string | null;
  readonly description: string | null;
  readonly scriptQuestion: string | null;
  readonly status: string;
}
export interface VolunteerActivity { readonly volunteerActivityId: number; readonly name: string }

/** The canvass lists of a context: the settings' additions, or (merged) everything a context sees. */
export interface CanvassLists {
  readonly contactTypes: readonly ContactType[];
  readonly inputTypes: readonly InputType[];
  readonly resultCodes: readonly ResultCode[];
  readonly surveyQuestions: readonly SurveyQuestion[];
  readonly activistCodes: readonly ActivistCode[];
  readonly volunteerActivities: readonly VolunteerActivity[];
}

/** Result codes with an effect on the phone the canvass names (compatibility.md). */
export const RESULT_CODE = {
  Deceased: 4, Canvassed: 14, CallBack: 17, Busy: 18, LeftMessage: 19, WrongNumber: 20,
  DoNotCall: 22, Disconnected: 25, DoNotText: 130, DoNotEmail: 131,
} as const;

/** Input type used when a request names none: API. */
export const DEFAULT_INPUT_TYPE_ID = 11;

/** The seeded lists: the ids of compatibility.md, names and short names as clients see them. */
export const SEEDED_CANVASS_LISTS: CanvassLists = Object.freeze({
  contactTypes: [
    { contactTypeId: 1, name: 'Phone', channelTypeName: 'Phone' },
    { contactTypeId: 2, name: 'Walk', channelTypeName: 'Walk' },
    { contactTypeId: 4, name: 'Robocall', channelTypeName: 'Phone' },
    { contactTypeId: 15, name: 'Survey', channelTypeName: 'Other' },
    { contactTypeId: 19, name: 'Auto Dial', channelTypeName: 'Phone' },
    { contactTypeId: 37, name: 'SMS Text', channelTypeName: 'Text' },
  ],
  inputTypes: [
    { inputTypeId: 2, name: 'Manual' },
    { inputTypeId: 4, name: 'Bulk' },
    { inputTypeId: 10, name: 'VPB' },
    { inputTypeId: 11, name: 'API' },
    { inputTypeId: 14, name: 'Mobile' },
  ],
  resultCodes: [
    { resultCodeId: 4, name: 'Deceased', mediumName: 'Dec', shortName: 'DC' },
    { resultCodeId: 14, name: 'Canvassed', mediumName: 'Canv', shortName: 'CV' },
    { resultCodeId: 17, name: 'Call Back', mediumName: 'CB', shortName: 'CB' },
    { resultCodeId: 18, name: 'Busy', mediumName: 'Busy', shortName: 'BZ' },
    { resultCodeId: 19, name: 'Left Message', mediumName: 'LM', shortName: 'LM' },
    { resultCodeId: 20, name: 'Wrong Number', mediumName: 'Wr#', shortName: 'WN' },
    { resultCodeId: 22, name: 'Do Not Call', mediumName: 'DNC', shortName: 'XC' },
    { resultCodeId: 25, name: 'Disconnected', mediumName: 'Disc', shortName: 'WX' },
    { resultCodeId: 130, name: 'Do Not Text', mediumName: 'DNT', shortName: 'XT' },
    { resultCodeId: 131, name: 'Do Not Email', mediumName: 'DNE', shortName: 'DE' },
  ],
  surveyQuestions: [],
  activistCodes: [],
  volunteerActivities: [],
});

/** No additions. */
export const EMPTY_CANVASS_SETTINGS: CanvassLists = Object.freeze({
  contactTypes: [], inputTypes: [], resultCodes: [], surveyQuestions: [], activistCodes: [], volunteerActivities: [],
});

function mergeById<T>(seeded: readonly T[], added: readonly T[], id: (t: T) => number): T[] {
  const out = new Map<number, T>();
  for (const t of seeded) out.set(id(t), t);
  for (const t of added) out.set(id(t), t);
  return [...out.values()].sort((a, b) => id(a) - id(b));
}

/** Merged lists per settings object (settings are immutable and replaced on change). */
const MERGED = new WeakMap<CanvassLists, CanvassLists>();

/** What a context sees: the seeded lists with its settings' additions, each sorted by id (memoized). */
export function canvassListsOf(added: CanvassLists): CanvassLists {
  let lists = MERGED.get(added);
  if (lists === undefined) {
    lists = mergeLists(added);
    MERGED.set(added, lists);
  }
  return lists;
}

function mergeLists(added: CanvassLists): CanvassLists {
  const s = SEEDED_CANVASS_LISTS;
  return {
    contactTypes: mergeById(s.contactTypes, added.contactTypes, (t) => t.contactTypeId),
    inputTypes: mergeById(s.inputTypes, added.inputTypes, (t) => t.inputTypeId),
    resultCodes: mergeById(s.resultCodes, added.resultCodes, (t) => t.resultCodeId),
    surveyQuestions: mergeById(s.surveyQuestions, added.surveyQuestions, (t) => t.surveyQuestionId),
    activistCodes: mergeById(s.activistCodes, added.activistCodes, (t) => t.activistCodeId),
    volunteerActivities: mergeById(s.volunteerActivities, added.volunteerActivities, (t) => t.volunteerActivityId),
  };
}

const CANVASS_KEYS = ['contactTypes', 'inputTypes', 'resultCodes', 'surveyQuestions', 'activistCodes', 'volunteerActivities'] as const;

/** Reads the items of one list: objects with a required positive integer `idKey` (unique) and `name`. */
function readItems(issues: Issues, value: unknown, path: string, idKey: string, read: (item: JsonObject, p: string, id: number, name: string) => void): void {
  const ids = new Set<number>();
  (readArray(issues, value, path) ?? []).forEach((item, i) => {
    const p = pathOf(path, i);
    if (!isObject(item)) {
      issues.add(p, `${p} must be an object with "${idKey}" and "name".`);
      return;
    }
    const id = readInteger(issues, own(item, idKey), pathOf(p, idKey), 1);
    const name = readString(issues, own(item, 'name'), pathOf(p, 'name'), 200);
    if (own(item, idKey) == null) issues.add(pathOf(p, idKey), `${pathOf(p, idKey)} is required.`);
    if (own(item, 'name') == null) issues.add(pathOf(p, 'name'), `${pathOf(p, 'name')} is required.`);
    if (id === undefined || name === undefined) return;
    if (ids.has(id)) {
      issues.add(pathOf(p, idKey), `${pathOf(p, idKey)} ${id} is used twice in ${path}.`);
      return;
    }
    ids.add(id);
    read(item, p, id, name);
  });
}

function text(issues: Issues, item: JsonObject, p: string, key: string): string | null {
  return readString(issues, own(item, key), pathOf(p, key), 500) ?? null;
}

/** Reads the `canvass` key of a context's settings (absent: no additions); issues name paths. */
export function readCanvassSettings(issues: Issues, value: unknown, path: string): CanvassLists {
  if (value === undefined || value === null) return EMPTY_CANVASS_SETTINGS;
  if (!isObject(value)) {
    issues.add(path, `${path} must be an object.`);
    return EMPTY_CANVASS_SETTINGS;
  }
  for (const key of Object.keys(value)) {
    if (!(CANVASS_KEYS as readonly string[]).includes(key)) {
      issues.add(pathOf(path, key), `Unknown setting "${pathOf(path, key)}".`, `Known settings: ${CANVASS_KEYS.join(', ')}.`);
    }
  }
  const contactTypes: ContactType[] = [];
  readItems(issues, own(value, 'contactTypes'), pathOf(path, 'contactTypes'), 'contactTypeId', (item, p, id, name) =>
    contactTypes.push({ contactTypeId: id, name, channelTypeName: text(issues, item, p, 'channelTypeName') }));
  const inputTypes: InputType[] = [];
  readItems(issues, own(value, 'inputTypes'), pathOf(path, 'inputTypes'), 'inputTypeId', (_item, _p, id, name) =>
    inputTypes.push({ inputTypeId: id, name }));
  const resultCodes: ResultCode[] = [];
  readItems(issues, own(value, 'resultCodes'), pathOf(path, 'resultCodes'), 'resultCodeId', (item, p, id, name) =>
    resultCodes.push({ resultCodeId: id, name, mediumName: text(issues, item, p, 'mediumName'), shortName: text(issues, item, p, 'shortName') }));
  const surveyQuestions: SurveyQuestion[] = [];
  readItems(issues, own(value, 'surveyQuestions'), pathOf(path, 'surveyQuestions'), 'surveyQuestionId', (item, p, id, name) => {
    const responses: SurveyResponseOption[] = [];
    readItems(issues, own(item, 'responses'), pathOf(p, 'responses'), 'surveyResponseId', (r, rp, rid, rname) =>
      responses.push({ surveyResponseId: rid, name: rname, mediumName: text(issues, r, rp, 'mediumName'), shortName: text(issues, r, rp, 'shortName') }));
    surveyQuestions.push({
      surveyQuestionId: id, type: text(issues, item, p, 'type'),
      cycle: readInteger(issues, own(item, 'cycle'), pathOf(p, 'cycle'), 1900, 2200) ?? null,
      name, mediumName: text(issues, item, p, 'mediumName'), shortName: text(issues, item, p, 'shortName'),
      scriptQuestion: text(issues, item, p, 'scriptQuestion'), status: text(issues, item, p, 'status') ?? 'Active', responses,
    });
  });
  const activistCodes: ActivistCode[] = [];
  readItems(issues, own(value, 'activistCodes'), pathOf(path, 'activistCodes'), 'activistCodeId', (item, p, id, name) =>
    activistCodes.push({
      activistCodeId: id, type: text(issues, item, p, 'type'), name, mediumName: text(issues, item, p, 'mediumName'),
      shortName: text(issues, item, p, 'shortName'), description: text(issues, item, p, 'description'),
      scriptQuestion: text(issues, item, p, 'scriptQuestion'), status: text(issues, item, p, 'status') ?? 'Active',
    }));
  const volunteerActivities: VolunteerActivity[] = [];
  readItems(issues, own(value, 'volunteerActivities'), pathOf(path, 'volunteerActivities'), 'volunteerActivityId', (_item, _p, id, name) =>
    volunteerActivities.push({ volunteerActivityId: id, name }));
  return { contactTypes, inputTypes, resultCodes, surveyQuestions, activistCodes, volunteerActivities };
}

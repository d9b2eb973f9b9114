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
 * volunteer activities start with a small default set ({@link DEFAULT_CANVASS_LISTS}), so that
 * a fresh tenant can take a canvass without configuration; a context whose settings list any
 * of those sees its own list instead of that kind's defaults.
 */
import { Issues, isObject, own, pathOf, readArray, readInteger, readString, type JsonObject } from './settings-read.js';

export interface ContactType {
  readonly contactTypeId: number;
  readonly name: string;
  readonly channelTypeName: string | null;
}
export interface InputType {
  readonly inputTypeId: number;
  readonly name: string;
}
export interface ResultCode {
  readonly resultCodeId: number;
  readonly name: string;
  readonly mediumName: string | null;
  readonly shortName: string | null;
}
export interface SurveyResponseOption {
  readonly surveyResponseId: number;
  readonly name: string;
  readonly mediumName: string | null;
  readonly shortName: string | null;
}
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
export interface VolunteerActivity {
  readonly volunteerActivityId: number;
  readonly name: string;
}

/** The canvass lists of a context: the settings' additions, or (merged) everything a context sees. */
export interface CanvassLists {
  readonly contactTypes: readonly ContactType[];
  readonly inputTypes: readonly InputType[];
  readonly resultCodes: readonly ResultCode[];
  readonly surveyQuestions: readonly SurveyQuestion[];
  readonly activistCodes: readonly ActivistCode[];
  readonly volunteerActivities: readonly VolunteerActivity[];
}

/** Result codes with an effect on the phone the canvass names, and the common outcomes (compatibility.md). */
export const RESULT_CODE = {
  NotHome: 1,
  Refused: 2,
  Inaccessible: 3,
  Deceased: 4,
  Moved: 5,
  Canvassed: 14,
  CallBack: 17,
  Busy: 18,
  LeftMessage: 19,
  WrongNumber: 20,
  DoNotCall: 22,
  Disconnected: 25,
  DoNotText: 130,
  DoNotEmail: 131,
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
  // 1-5, 10, 13, 14, 21, 23: the ids of the modeled API's standard door and phone outcomes (as
  // clients' own examples use them: parsons applies result code 1); 6-9 are ours.
  resultCodes: [
    { resultCodeId: 1, name: 'Not Home', mediumName: 'NH', shortName: 'NH' },
    { resultCodeId: 2, name: 'Refused', mediumName: 'Ref', shortName: 'RF' },
    { resultCodeId: 3, name: 'Inaccessible', mediumName: 'Inac', shortName: 'IA' },
    { resultCodeId: 4, name: 'Deceased', mediumName: 'Dec', shortName: 'DC' },
    { resultCodeId: 5, name: 'Moved', mediumName: 'Moved', shortName: 'MV' },
    { resultCodeId: 6, name: 'Hostile', mediumName: 'Host', shortName: 'HO' },
    { resultCodeId: 7, name: 'Language Barrier', mediumName: 'Lang', shortName: 'LB' },
    { resultCodeId: 8, name: 'Not Interested', mediumName: 'NotInt', shortName: 'NI' },
    { resultCodeId: 10, name: 'Vacant', mediumName: 'Vac', shortName: 'VA' },
    { resultCodeId: 13, name: 'Come Back', mediumName: 'CB', shortName: 'CB' },
    { resultCodeId: 14, name: 'Canvassed', mediumName: 'Canv', shortName: 'CV' },
    { resultCodeId: 17, name: 'Call Back', mediumName: 'CB', shortName: 'CB' },
    { resultCodeId: 18, name: 'Busy', mediumName: 'Busy', shortName: 'BZ' },
    { resultCodeId: 19, name: 'Left Message', mediumName: 'LM', shortName: 'LM' },
    { resultCodeId: 20, name: 'Wrong Number', mediumName: 'Wr#', shortName: 'WN' },
    { resultCodeId: 21, name: 'Lit Drop', mediumName: 'Lit', shortName: 'LD' },
    { resultCodeId: 22, name: 'Do Not Call', mediumName: 'DNC', shortName: 'XC' },
    { resultCodeId: 23, name: 'Do Not Walk', mediumName: 'DNW', shortName: 'XW' },
    { resultCodeId: 25, name: 'Disconnected', mediumName: 'Disc', shortName: 'WX' },
    { resultCodeId: 130, name: 'Do Not Text', mediumName: 'DNT', shortName: 'XT' },
    { resultCodeId: 131, name: 'Do Not Email', mediumName: 'DNE', shortName: 'DE' },
  ],
  surveyQuestions: [],
  activistCodes: [],
  volunteerActivities: [],
});

const responses = (first: number, names: readonly string[]): SurveyResponseOption[] =>
  names.map((name, i) => ({ surveyResponseId: first + i, name, mediumName: name.slice(0, 9), shortName: String(i + 1) }));

/**
 * The default survey questions, activist codes and volunteer activities of a context that
 * configures none of that kind: enough to record a door or phone conversation on a fresh tenant.
 */
export const DEFAULT_CANVASS_LISTS: Pick<CanvassLists, 'surveyQuestions' | 'activistCodes' | 'volunteerActivities'> = Object.freeze({
  surveyQuestions: [
    {
      surveyQuestionId: 1,
      type: 'Candidate',
      cycle: null,
      name: 'Support',
      mediumName: 'Support',
      shortName: 'Sup',
      scriptQuestion: 'Can we count on your support?',
      status: 'Active',
      responses: responses(1, ['Strong Support', 'Lean Support', 'Undecided', 'Lean Oppose', 'Strong Oppose']),
    },
    {
      surveyQuestionId: 2,
      type: 'GOTV',
      cycle: null,
      name: 'Vote Plan',
      mediumName: 'VotePlan',
      shortName: 'VP',
      scriptQuestion: 'How do you plan to vote?',
      status: 'Active',
      responses: responses(6, ['Early', 'Election Day', 'By Mail', 'Not Voting']),
    },
    {
      surveyQuestionId: 3,
      type: 'Volunteer',
      cycle: null,
      name: 'Volunteer Ask',
      mediumName: 'VolAsk',
      shortName: 'VA',
      scriptQuestion: 'Would you volunteer with us?',
      status: 'Active',
      responses: responses(10, ['Yes', 'Maybe', 'No']),
    },
  ],
  activistCodes: [
    {
      activistCodeId: 1,
      type: 'Volunteer',
      name: 'Volunteer',
      mediumName: 'Volunteer',
      shortName: 'Vol',
      description: 'Agreed to volunteer',
      scriptQuestion: null,
      status: 'Active',
    },
    {
      activistCodeId: 2,
      type: 'Constituency/Issue',
      name: 'Supporter',
      mediumName: 'Supporter',
      shortName: 'Sup',
      description: 'Supports the campaign',
      scriptQuestion: null,
      status: 'Active',
    },
    {
      activistCodeId: 3,
      type: 'Constituency/Issue',
      name: 'Donor',
      mediumName: 'Donor',
      shortName: 'Don',
      description: 'Gave money',
      scriptQuestion: null,
      status: 'Active',
    },
    {
      activistCodeId: 4,
      type: 'Constituency/Issue',
      name: 'Yard Sign',
      mediumName: 'Yard Sign',
      shortName: 'YS',
      description: 'Asked for a yard sign',
      scriptQuestion: null,
      status: 'Active',
    },
    {
      activistCodeId: 5,
      type: 'Constituency/Issue',
      name: 'Opt-In: Cell Phone',
      mediumName: 'Cell Phon',
      shortName: 'Cel',
      description: 'Agreed to be texted on the cell phone',
      scriptQuestion: null,
      status: 'Active',
    },
  ],
  volunteerActivities: [
    { volunteerActivityId: 1, name: 'Canvass' },
    { volunteerActivityId: 2, name: 'Phone Bank' },
    { volunteerActivityId: 3, name: 'Text Bank' },
  ],
});

/** No additions. */
export const EMPTY_CANVASS_SETTINGS: CanvassLists = Object.freeze({
  contactTypes: [],
  inputTypes: [],
  resultCodes: [],
  surveyQuestions: [],
  activistCodes: [],
  volunteerActivities: [],
});

/** A context's own list, or the defaults when it configures none. */
function orDefault<T>(own: readonly T[], defaults: readonly T[]): readonly T[] {
  return own.length > 0 ? own : defaults;
}

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
    surveyQuestions: mergeById(s.surveyQuestions, orDefault(added.surveyQuestions, DEFAULT_CANVASS_LISTS.surveyQuestions), (t) => t.surveyQuestionId),
    activistCodes: mergeById(s.activistCodes, orDefault(added.activistCodes, DEFAULT_CANVASS_LISTS.activistCodes), (t) => t.activistCodeId),
    volunteerActivities: mergeById(
      s.volunteerActivities,
      orDefault(added.volunteerActivities, DEFAULT_CANVASS_LISTS.volunteerActivities),
      (t) => t.volunteerActivityId,
    ),
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
    contactTypes.push({ contactTypeId: id, name, channelTypeName: text(issues, item, p, 'channelTypeName') }),
  );
  const inputTypes: InputType[] = [];
  readItems(issues, own(value, 'inputTypes'), pathOf(path, 'inputTypes'), 'inputTypeId', (_item, _p, id, name) => inputTypes.push({ inputTypeId: id, name }));
  const resultCodes: ResultCode[] = [];
  readItems(issues, own(value, 'resultCodes'), pathOf(path, 'resultCodes'), 'resultCodeId', (item, p, id, name) =>
    resultCodes.push({ resultCodeId: id, name, mediumName: text(issues, item, p, 'mediumName'), shortName: text(issues, item, p, 'shortName') }),
  );
  const surveyQuestions: SurveyQuestion[] = [];
  readItems(issues, own(value, 'surveyQuestions'), pathOf(path, 'surveyQuestions'), 'surveyQuestionId', (item, p, id, name) => {
    const responses: SurveyResponseOption[] = [];
    readItems(issues, own(item, 'responses'), pathOf(p, 'responses'), 'surveyResponseId', (r, rp, rid, rname) =>
      responses.push({ surveyResponseId: rid, name: rname, mediumName: text(issues, r, rp, 'mediumName'), shortName: text(issues, r, rp, 'shortName') }),
    );
    surveyQuestions.push({
      surveyQuestionId: id,
      type: text(issues, item, p, 'type'),
      cycle: readInteger(issues, own(item, 'cycle'), pathOf(p, 'cycle'), 1900, 2200) ?? null,
      name,
      mediumName: text(issues, item, p, 'mediumName'),
      shortName: text(issues, item, p, 'shortName'),
      scriptQuestion: text(issues, item, p, 'scriptQuestion'),
      status: text(issues, item, p, 'status') ?? 'Active',
      responses,
    });
  });
  const activistCodes: ActivistCode[] = [];
  readItems(issues, own(value, 'activistCodes'), pathOf(path, 'activistCodes'), 'activistCodeId', (item, p, id, name) =>
    activistCodes.push({
      activistCodeId: id,
      type: text(issues, item, p, 'type'),
      name,
      mediumName: text(issues, item, p, 'mediumName'),
      shortName: text(issues, item, p, 'shortName'),
      description: text(issues, item, p, 'description'),
      scriptQuestion: text(issues, item, p, 'scriptQuestion'),
      status: text(issues, item, p, 'status') ?? 'Active',
    }),
  );
  const volunteerActivities: VolunteerActivity[] = [];
  readItems(issues, own(value, 'volunteerActivities'), pathOf(path, 'volunteerActivities'), 'volunteerActivityId', (_item, _p, id, name) =>
    volunteerActivities.push({ volunteerActivityId: id, name }),
  );
  return { contactTypes, inputTypes, resultCodes, surveyQuestions, activistCodes, volunteerActivities };
}

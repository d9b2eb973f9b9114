/**
 * The body of `POST /people/{crmId}/canvassResponses` (compatibility.md "canvassResponses") as
 * one schema: its shape and the JSON types clients send (nulls everywhere, `type` in any case,
 * ids as numbers or digit strings, unknown keys). The lists it names (contact types, result
 * codes, survey questions...) are the context's: code on top (canvass.ts) checks them and the
 * cross-field rules (resultCodeId or responses; a survey response of its question; the phone of
 * the person).
 *
 * Property order is the order issues are reported in.
 */
import { Bool, Code, Int, List, Obj, Patterned, Text, TextOrNumber, objectOf, withRequiredHint } from './kit.js';

const ID = (what: string, min = 1) => Int(min, Number.MAX_SAFE_INTEGER, what);

/** What to send when canvassContext is missing (the schema) or null (the code on top). */
export const CANVASS_CONTEXT_HINT = 'Send {"canvassContext":{...},"resultCodeId":N} or {"canvassContext":{...},"responses":[...]}.';
/** What to send when a response's type is missing or blank. */
export const RESPONSE_TYPE_HINT = 'Use ActivistCode, SurveyResponse or VolunteerActivity.';

/** The canvass response schema. */
export const CanvassResponse = objectOf(
  {
    canvassContext: withRequiredHint(
      Obj(
        {
          contactTypeId: ID('A contact type of GET /canvassResponses/contactTypes.'),
          inputTypeId: ID('An input type of GET /canvassResponses/inputTypes; 11 (API) when absent.'),
          dateCanvassed: Text(40, 'ISO 8601 date (midnight UTC) or date-time (UTC when it has no offset), 1900-2199; now when absent.'),
          phoneId: ID('A phone of the person (GET /people/{crmId}?$expand=phones); dispositions apply to it.'),
          omitActivistCodeContactHistory: Bool('Activist codes alone leave no contact history.'),
          campaignId: ID('A campaign id, kept as sent.', 0),
          phone: Obj(
            {
              dialingPrefix: Patterned(10, '^\\s*\\+?[0-9]{1,3}\\s*$', 'Country calling code ("1", "44").', (path) => ({
                text: `${path} must be 1 to 3 digits, such as "1" or "44".`,
              })),
              phoneNumber: TextOrNumber(50, 'The number canvassed; a phone of the person with this number takes the dispositions (a JSON number is accepted).'),
              smsOptInStatus: Code(['I', 'U', 'O'], 'I (opt in), U (unknown), O (opt out)'),
            },
            [],
            'The number canvassed, when not by phoneId.',
          ),
        },
        [],
        'How, when and through which phone the person was canvassed. Required.',
        'an object',
      ),
      CANVASS_CONTEXT_HINT,
    ),
    resultCodeId: ID('A result code of GET /canvassResponses/resultCodes (not with responses; null is absent).'),
    responses: List(
      {
        type: withRequiredHint(
          Text(50, 'ActivistCode, SurveyResponse or VolunteerActivity, any case (spaces, "_" and "-" ignored). Required.'),
          RESPONSE_TYPE_HINT,
        ),
        action: Text(20, 'Apply (when absent) or Remove, any case (activist codes and volunteer activities).'),
        activistCodeId: ID('An activist code of GET /activistCodes (type ActivistCode).'),
        surveyQuestionId: ID('A survey question of GET /surveyQuestions (type SurveyResponse).'),
        surveyResponseId: ID('A response of that survey question (type SurveyResponse).'),
        volunteerActivityId: ID('A volunteer activity of the context (type VolunteerActivity).'),
      },
      ['type'],
      'Activist codes, survey responses, volunteer activities (imply the result Canvassed).',
      'a response object with a "type"',
    ),
  },
  ['canvassContext'],
  { description: 'A canvass response: a result code, or responses.' },
);

/**
 * The body of `POST /people/{crmId}/canvassResponses` (compatibility.md "canvassResponses") as
 * one schema: its shape and the JSON types clients send (nulls everywhere, `type` in any case,
 * ids as numbers or digit strings, unknown keys). The lists it names (contact types, result
 * codes, survey questions...) are the context's: code on top (canvass.ts) checks them and the
 * cross-field rules (resultCodeId or responses; a survey response of its question; the phone of
 * the person).
 */
import { Bool, Int, List, Obj, Text, TextOrNumber, objectOf } from './kit.js';

const ID = (what: string) => Int(0, Number.MAX_SAFE_INTEGER, what);

/** The canvass response schema. */
export const CanvassResponse = objectOf({
  canvassContext: Obj({
    contactTypeId: ID('A contact type of GET /canvassResponses/contactTypes.'),
    inputTypeId: ID('An input type of GET /canvassResponses/inputTypes; 11 (API) when absent.'),
    dateCanvassed: Text(40, 'ISO 8601 date or date-time with offset; now when absent.'),
    phoneId: ID('A phone of the person (GET /people/{crmId}?$expand=phones); dispositions apply to it.'),
    omitActivistCodeContactHistory: Bool('Activist codes alone leave no contact history.'),
    campaignId: ID('A campaign id, kept as sent.'),
    phone: Obj({
      dialingPrefix: Text(10, 'Country calling code.'),
      phoneNumber: TextOrNumber(50, 'The number canvassed.'),
      smsOptInStatus: Text(10, 'I (opt in), U (unknown), O (opt out).'),
    }, [], 'The number canvassed, when not by phoneId.'),
  }, [], 'How, when and through which phone the person was canvassed. Required.', 'an object'),
  resultCodeId: ID('A result code of GET /canvassResponses/resultCodes (not with responses).'),
  responses: List({
    type: Text(50, 'ActivistCode, SurveyResponse or VolunteerActivity, any case.'),
    action: Text(20, 'Apply or Remove (activist codes and volunteer activities).'),
    activistCodeId: ID('An activist code of GET /activistCodes.'),
    surveyQuestionId: ID('A survey question of GET /surveyQuestions.'),
    surveyResponseId: ID('A response of that survey question.'),
    volunteerActivityId: ID('A volunteer activity of the context.'),
  }, [], 'Activist codes, survey responses, volunteer activities (imply the result Canvassed).', 'a response object'),
}, ['canvassContext'], { description: 'A canvass response: a result code, or responses.' });

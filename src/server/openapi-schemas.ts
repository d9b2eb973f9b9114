/**
 * The shapes of the server's answers, for the OpenAPI document (openapi.ts), as plain JSON
 * Schema. The request bodies are not here: they are the schemas the domain validates with
 * (src/crm/schemas, TypeBox's home).
 */

/** A JSON Schema object. */
export type TSchema = Record<string, unknown>;
type Opts = { description?: string; additionalProperties?: boolean };
const OPTIONAL = Symbol('optional');

/** The few JSON Schema builders the answers need (the same spelling as TypeBox's). */
const Type = {
  String: (o: Opts & { format?: string } = {}): TSchema => ({ type: 'string', ...o }),
  Integer: (o: Opts = {}): TSchema => ({ type: 'integer', ...o }),
  Number: (o: Opts = {}): TSchema => ({ type: 'number', ...o }),
  Boolean: (): TSchema => ({ type: 'boolean' }),
  Null: (): TSchema => ({ type: 'null' }),
  Literal: (value: string): TSchema => ({ const: value, type: 'string' }),
  Array: (items: TSchema, o: Opts = {}): TSchema => ({ type: 'array', items, ...o }),
  Union: (anyOf: TSchema[], o: Opts = {}): TSchema => ({ anyOf, ...o }),
  Optional: (schema: TSchema): TSchema => Object.assign({ ...schema }, { [OPTIONAL]: true }),
  Object: (properties: Record<string, TSchema>, o: Opts = {}): TSchema => {
    const required = Object.keys(properties).filter((k) => !(OPTIONAL in (properties[k] as object)));
    return { type: 'object', properties, ...(required.length > 0 && { required }), ...o };
  },
};

const nullable = (t: TSchema): TSchema => Type.Union([t, Type.Null()]);
const open = (props: Record<string, TSchema>, description?: string): TSchema =>
  Type.Object(props, { additionalProperties: true, ...(description === undefined ? {} : { description }) });

/** The error envelope of every error answer (compatibility.md "Errors"). */
export const ErrorEnvelope = Type.Object(
  {
    errors: Type.Array(
      Type.Object({
        code: Type.String({
          description:
            'ALL_CAPS: UNAUTHORIZED, FORBIDDEN, INVALID_PARAMETER, BAD_REQUEST, NOT_FOUND, METHOD_NOT_ALLOWED, INTERNAL_SERVER_ERROR...; "429" when rate limited.',
        }),
        text: Type.String({ description: 'A sentence a person can act on.' }),
        properties: Type.Optional(Type.Array(Type.String(), { description: 'Dot paths into the request, arrays as phones[1].ext.' })),
        hint: Type.Optional(Type.String()),
        referenceCode: Type.Optional(Type.String({ description: 'On a 500: also in the server log.' })),
      }),
    ),
  },
  { description: 'The error envelope.' },
);

/** The Match Response (interface.md 2.7, compatibility.md). */
export const MatchResponse = Type.Object({
  crmId: nullable(Type.Integer()),
  vanId: nullable(Type.Integer({ description: 'Same as crmId.' })),
  status: Type.Union([Type.Literal('Matched'), Type.Literal('UnmatchedStored'), Type.Literal('Unmatched')]),
  reason: Type.Optional(
    Type.String({
      description: 'Why no record matched: below-minimum, no-candidates, below-threshold, criterion-disagrees, no-gate-agrees (also in X-Match-Reason).',
    }),
  ),
  reasonText: Type.Optional(Type.String()),
  nearest: Type.Optional(
    Type.Object(
      { crmId: Type.Integer(), vanId: Type.Integer(), score: Type.Number({ description: 'Match weight in bits; 18 matches.' }) },
      { description: 'The record a Possible or below-threshold request was near.' },
    ),
  ),
});

/** A Person (interface.md 2.8); collections not expanded are null. */
export const Person = open(
  {
    crmId: Type.Integer(),
    vanId: Type.Integer({ description: 'Same as crmId.' }),
    firstName: nullable(Type.String()),
    lastName: nullable(Type.String()),
    dateOfBirth: nullable(Type.String({ description: '1975-09-18T00:00:00Z' })),
    emails: nullable(Type.Array(open({ email: Type.String() }))),
    phones: nullable(Type.Array(open({ phoneId: Type.Integer(), phoneNumber: Type.String() }))),
    addresses: nullable(Type.Array(open({ addressId: Type.Integer() }))),
    identifiers: nullable(Type.Array(open({ type: Type.String(), externalId: Type.String() }))),
  },
  'A Person: every property present; collections not in $expand are null, expanded but empty [].',
);

/** A paged list (compatibility.md "Lists and paging"). */
export const Page = (item: TSchema): TSchema =>
  Type.Object({
    items: Type.Array(item),
    count: Type.Integer({ description: 'Total, not the page size.' }),
    nextPageLink: nullable(Type.String({ description: 'Absolute URL of the next page.' })),
  });

export const ContactType = Type.Object({ contactTypeId: Type.Integer(), name: Type.String(), channelTypeName: nullable(Type.String()) });
export const InputType = Type.Object({ inputTypeId: Type.Integer(), name: Type.String() });
export const ResultCode = Type.Object({
  resultCodeId: Type.Integer(),
  name: Type.String(),
  mediumName: nullable(Type.String()),
  shortName: nullable(Type.String()),
});
export const SurveyQuestion = open({
  surveyQuestionId: Type.Integer(),
  name: Type.String(),
  responses: Type.Array(open({ surveyResponseId: Type.Integer(), name: Type.String() })),
});
export const ActivistCode = open({ activistCodeId: Type.Integer(), name: Type.String(), type: nullable(Type.String()) });
export const CellStatus = Type.Object({ statusId: Type.Integer(), statusName: Type.String() });
export const CanvassHistoryItem = open({
  canvassResponseId: Type.Integer(),
  resultCodeId: nullable(Type.Integer()),
  dateCanvassed: Type.String(),
  dateCreated: Type.String(),
});

export const ApiKeyProfile = open({
  keyId: Type.Integer(),
  tenant: Type.String(),
  contexts: Type.Array(Type.String()),
  defaultContext: Type.String(),
  currentContext: Type.String(),
  tier: Type.String(),
  limits: nullable(open({ High: Type.Integer(), Medium: Type.Integer(), Low: Type.Integer() })),
  monthlyQuota: nullable(Type.Integer()),
  usage: open({ month: Type.String(), used: Type.Integer(), remaining: nullable(Type.Integer()), resetsAt: Type.String() }),
  model: Type.Optional(
    Type.Object(
      {
        source: Type.Union([Type.Literal('shipped'), Type.Literal('trained')], {
          description: "shipped: the model Matchbook ships; trained: `matchbook tenants train` estimated it from this context's people.",
        }),
        version: nullable(Type.Integer({ description: 'The stored model version in force; null when the context was never trained.' })),
        since: nullable(Type.String({ description: 'When that version was stored (ISO 8601 UTC).' })),
      },
      { description: 'The matching model the current context scores with.' },
    ),
  ),
});

export const JobCreated = Type.Object({ jobId: Type.Integer() });
export const Job = open({
  id: Type.Integer(),
  status: Type.Union(
    ['Pending', 'InProgress', 'InProgressWithErrors', 'Completed', 'CompletedWithErrors', 'Failed'].map((s) => Type.Literal(s)),
    { description: 'Row failures leave Completed (the result file says why); CompletedWithErrors: the job as a whole fell short (errors[]).' },
  ),
  resourceType: Type.String(),
  webhookUrl: nullable(Type.String()),
  resultFileSizeLimitKb: Type.Integer(),
  errors: Type.Array(open({ code: Type.String(), text: Type.String() })),
  resultFiles: Type.Array(Type.Object({ url: Type.String(), dateExpired: Type.String() })),
  rowsTotal: nullable(Type.Integer()),
  rowsDone: Type.Integer(),
  rowsFailed: Type.Integer(),
});
export const MappingType = open({
  name: Type.String(),
  displayName: Type.String(),
  allowMultipleMode: Type.String(),
  resourceTypes: Type.Array(Type.String()),
  fields: Type.Array(open({ name: Type.String() })),
});
export const MappingValue = Type.Object({ id: Type.String(), name: Type.String(), parents: Type.Null() });
export const Upload = Type.Object({ sourceUrl: Type.String(), size: Type.Integer() });

export const Health = Type.Object({ status: Type.Literal('ok'), uptimeSeconds: Type.Integer() });
const ReadyChecks = Type.Object({ database: Type.Boolean(), scopes: Type.Integer(), people: Type.Integer(), loading: Type.Integer() });
export const Ready = Type.Object({ status: Type.Literal('ready'), checks: ReadyChecks });
export const NotReady = Type.Object({
  status: Type.Literal('not-ready'),
  reason: Type.String(),
  checks: ReadyChecks,
  errors: Type.Array(Type.Object({ code: Type.String(), text: Type.String() })),
});

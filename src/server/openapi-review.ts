/**
 * The answer shapes of the review queue of Possible matches (routes/possible-matches.ts), for
 * the OpenAPI document (openapi.ts), as plain JSON Schema.
 */
import { Person, type TSchema } from './openapi-schemas.js';

const int = { type: 'integer' };
const str = { type: 'string' };
const nullable = (t: object): TSchema => ({ anyOf: [t, { type: 'null' }] });

/** One entry of a pair's audit log. */
export const ReviewAudit: TSchema = {
  type: 'object',
  properties: {
    action: { type: 'string', enum: ['same', 'different'] },
    keyId: int,
    by: { type: 'string', description: 'The API key that decided.' },
    at: { type: 'string', description: 'When (UTC, the server clock).' },
    detail: { type: 'object', description: "The pair's crmIds; after `same`, survivorCrmId and mergedCrmId.", additionalProperties: true },
  },
  required: ['action', 'keyId', 'by', 'at', 'detail'],
};

/** A recorded pair (GET /possibleMatches items). */
export const PossibleMatch: TSchema = {
  type: 'object',
  additionalProperties: true,
  properties: {
    possibleMatchId: int,
    status: { type: 'string', enum: ['open', 'same', 'different'] },
    createdAt: str,
    score: { type: 'number', description: 'Match weight in bits of the candidate for the request that created the person (18 matches).' },
    crmId: { type: 'integer', description: 'The person findOrCreate created.' },
    candidateCrmId: { type: 'integer', description: 'The existing person it was near.' },
    person: nullable(Person),
    candidate: nullable(Person),
    explanation: {
      type: 'object',
      additionalProperties: true,
      description:
        "reason and reasonText as findOrCreate answered them, heldBack (why a candidate above the match threshold was left for review, else null), gates, gate and fields (each field's level, label and weight).",
    },
    decidedAt: nullable(str),
    decidedByKeyId: nullable(int),
    survivorCrmId: nullable(int),
  },
  required: ['possibleMatchId', 'status', 'createdAt', 'score', 'crmId', 'candidateCrmId', 'person', 'candidate', 'explanation'],
};

/** A pair with its audit entries (GET and POST /possibleMatches/{id}). */
export const PossibleMatchDetail: TSchema = {
  ...PossibleMatch,
  properties: { ...(PossibleMatch['properties'] as object), audit: { type: 'array', items: ReviewAudit } },
};

/** The body of POST /possibleMatches/{id}. */
export const PossibleMatchDecision: TSchema = {
  type: 'object',
  properties: {
    decision: {
      type: 'string',
      enum: ['same', 'different'],
      description: '`same`: merge the newer person into the older; `different`: never match them as one.',
    },
  },
  required: ['decision'],
};

/**
 * The one place that renders the error envelope of compatibility.md:
 * `{"errors":[{"code","text","properties"?,"hint"?,"referenceCode"?}]}`, always
 * `application/json; charset=utf-8`, for every error status including 401, 404 and 500.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { CrmError } from './crm-port.js';

/** Error codes this server emits (ALL_CAPS, compatibility.md "Errors"). */
export type ErrorCode =
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'INVALID_PARAMETER'
  | 'BAD_REQUEST'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'INDEX_FULL'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'URI_TOO_LONG'
  | 'INTERNAL_SERVER_ERROR';

/** One entry of the envelope. */
export interface ErrorItem {
  code: string;
  text: string;
  properties?: string[];
  hint?: string;
  referenceCode?: string;
}

/** The error body of every non-2xx/3xx answer except the 404 Unmatched Match Response. */
export interface ErrorEnvelope {
  errors: ErrorItem[];
}

/** Content type of every JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** Text of a 404 for an unknown route or id (compatibility.md). */
export const NOT_FOUND_TEXT = 'The specified resource cannot be found.';

/** An error the HTTP layer raises on purpose: status, envelope items and extra headers. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly items: readonly ErrorItem[],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(items[0]?.text ?? `HTTP ${status}`);
    this.name = 'HttpError';
  }
}

/** Build an HttpError with one item. */
export function httpError(
  status: number,
  code: ErrorCode,
  text: string,
  extra: { properties?: string[]; hint?: string; headers?: Record<string, string> } = {},
): HttpError {
  const item: ErrorItem = { code, text };
  if (extra.properties !== undefined) item.properties = extra.properties;
  if (extra.hint !== undefined) item.hint = extra.hint;
  return new HttpError(status, [item], extra.headers ?? {});
}

/** 404 envelope with the contract's text. */
export function notFound(): HttpError {
  return httpError(404, 'NOT_FOUND', NOT_FOUND_TEXT);
}

/** A rendered error: status, body, headers. */
export interface RenderedError {
  status: number;
  envelope: ErrorEnvelope;
  headers: Record<string, string>;
  /** Set for 5xx: the code shown to the client and written to the log. */
  referenceCode?: string;
}

/** Fastify's own errors that are the client's fault, with our code and a text a person can act on. */
const FRAMEWORK_ERRORS: Readonly<Record<string, { status: number; code: ErrorCode; text: string }>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    text: 'The request body must be JSON sent with Content-Type: application/json.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    text: 'The request body is too large.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'BAD_REQUEST',
    text: 'The request body is empty; send a JSON object.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'BAD_REQUEST',
    text: 'The request body is not valid JSON.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'BAD_REQUEST',
    text: 'The Content-Length header does not match the body that was sent.',
  },
  FST_ERR_BAD_URL: { status: 400, code: 'BAD_REQUEST', text: 'The URL is not valid.' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'URI_TOO_LONG', text: 'A path segment of the URL is too long.' },
};

/** Generic code for a client-error status that carries no code of ours. */
function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 405:
      return 'METHOD_NOT_ALLOWED';
    case 409:
      return 'CONFLICT';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 414:
      return 'URI_TOO_LONG';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    default:
      return 'BAD_REQUEST';
  }
}

/** A short random code that ties a 500 answer to its log line, e.g. `E-5F1C0A9B2D7E`. */
export function newReferenceCode(): string {
  return `E-${randomBytes(6).toString('hex').toUpperCase()}`;
}

/**
 * Map any thrown value to the envelope. Domain errors keep their status and list every
 * issue; framework client errors get a clear text; anything else is a 500 with a
 * reference code, logged with its stack (the stack never reaches the client).
 */
export function renderError(err: unknown, log: FastifyBaseLogger): RenderedError {
  if (err instanceof HttpError) {
    return { status: err.status, envelope: { errors: [...err.items] }, headers: { ...err.headers } };
  }
  if (err instanceof CrmError && err.status >= 400 && err.status < 600) {
    if (err.status >= 500) log.error({ err }, err.message);
    const errors: ErrorItem[] =
      err.issues.length === 0
        ? [{ code: err.code, text: err.message }]
        : err.issues.map((issue) => {
            const item: ErrorItem = { code: err.code, text: issue.text };
            // An empty property means the body as a whole: no path to name.
            if (issue.property !== '') item.properties = [issue.property];
            if (issue.hint !== undefined) item.hint = issue.hint;
            return item;
          });
    return { status: err.status, envelope: { errors }, headers: {} };
  }
  const fwCode = (err as { code?: unknown } | null)?.code;
  if (typeof fwCode === 'string') {
    const known = FRAMEWORK_ERRORS[fwCode];
    if (known !== undefined) {
      return { status: known.status, envelope: { errors: [{ code: known.code, text: known.text }] }, headers: {} };
    }
  }
  const status = (err as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    log.info({ err }, 'client error');
    return {
      status,
      envelope: { errors: [{ code: codeForStatus(status), text: 'The request could not be processed.' }] },
      headers: {},
    };
  }
  const referenceCode = newReferenceCode();
  log.error({ err, referenceCode }, 'internal error');
  return {
    status: 500,
    envelope: {
      errors: [
        {
          code: 'INTERNAL_SERVER_ERROR',
          text: 'An unexpected error occurred. Retry later; if it persists, report the reference code.',
          referenceCode,
        },
      ],
    },
    headers: {},
    referenceCode,
  };
}

/** Send a rendered error on a fastify reply. */
export function sendError(reply: FastifyReply, rendered: RenderedError): FastifyReply {
  reply.code(rendered.status).headers(rendered.headers).type(JSON_TYPE);
  return reply.send(rendered.envelope);
}

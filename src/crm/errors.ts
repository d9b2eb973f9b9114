/**
 * The CRM layer's one error class (architecture.md: "misuse is an exception, one typed error
 * class per layer"). The HTTP adapter renders it as the contract's error envelope:
 * `{"errors":[{"code", "text", "properties":[issue.property], "hint"}]}`, one entry per issue.
 */

/** One problem with a request, named by its dot path into the body ("phones[1].ext"). */
export interface ValidationIssue {
  /** Dot path into the request body, arrays as `[i]`; "" means the body as a whole. */
  readonly property: string;
  /** A sentence a person can act on. */
  readonly text: string;
  /** Optional extra guidance, e.g. the allowed values. */
  readonly hint?: string;
}

/** Error codes of the envelope that the CRM layer raises. */
export type CrmErrorCode = 'INVALID_PARAMETER' | 'BAD_REQUEST' | 'NOT_FOUND' | 'FORBIDDEN' | 'CONFLICT' | 'INDEX_FULL';

const STATUS: Readonly<Record<CrmErrorCode, number>> = {
  INVALID_PARAMETER: 400,
  BAD_REQUEST: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** This process may index no more people (Crm maxIndexPeople): 507 Insufficient Storage. */
  INDEX_FULL: 507,
};

/**
 * A request the CRM refuses. `status` is the HTTP status to answer with; `issues` lists every
 * problem found (validation collects all of them before throwing), never empty.
 */
export class CrmError extends Error {
  override readonly name = 'CrmError';
  readonly status: number;
  readonly issues: ValidationIssue[];

  constructor(
    readonly code: CrmErrorCode,
    issues: ValidationIssue[] | string,
  ) {
    const list = typeof issues === 'string' ? [{ property: '', text: issues }] : issues;
    super(list.map((i) => (i.property === '' ? i.text : `${i.property}: ${i.text}`)).join(' '));
    this.status = STATUS[code];
    this.issues = list;
  }
}

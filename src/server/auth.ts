/**
 * The authentication hook: every API route runs it before its body is read. It resolves
 * the key through the facade, picks the context (suffix, else the key's default) and puts
 * both on the request. Failures are 401 envelopes.
 */
import type { FastifyRequest } from 'fastify';
import type { CallContext, CrmPort, KeyIdentity } from './crm-port.js';
import { readCredentials } from './credentials.js';
import { httpError, type HttpError } from './http-error.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated key; set by the auth hook on API routes. */
    identity: KeyIdentity | null;
    /** Tenant and context of this call; set by the auth hook on API routes. */
    callContext: CallContext | null;
  }
}

/** Sent with every 401 so that generic HTTP clients know Basic auth is accepted. */
const CHALLENGE = { 'www-authenticate': 'Basic realm="matchbook", charset="UTF-8"' };

/** Text of the 401 for a context the key has no access to (compatibility.md, verbatim). */
export const INVALID_DATABASE_MODE = 'Invalid Database Mode';

function unauthorized(text: string, hint?: string): HttpError {
  return httpError(401, 'UNAUTHORIZED', text, hint === undefined ? { headers: CHALLENGE } : { hint, headers: CHALLENGE });
}

/** Build the onRequest hook for a facade. */
export function createAuthHook(crm: Pick<CrmPort, 'authenticate'>) {
  return async function authenticateRequest(request: FastifyRequest): Promise<void> {
    const credentials = readCredentials(request.headers);
    switch (credentials.kind) {
      case 'missing':
        throw unauthorized('An API key is required.', 'Send HTTP Basic auth with the key as the password (any username), or an apiKey header.');
      case 'malformed':
        throw unauthorized('The API key is not valid.', 'A key is a GUID, optionally followed by |0 or |1.');
      case 'bad-mode':
        throw unauthorized(INVALID_DATABASE_MODE, 'Use |0 for the voter-file context or |1 for the campaign context.');
      case 'key':
        break;
    }
    const identity = await crm.authenticate(credentials.guid);
    if (identity === null) throw unauthorized('The API key is not valid.');
    const context = credentials.context ?? identity.defaultContext;
    if (!identity.contexts.includes(context)) throw unauthorized(INVALID_DATABASE_MODE);
    request.identity = identity;
    request.callContext = { tenantId: identity.tenantId, context };
  };
}

/** The call context of an authenticated request (a route without the hook is a bug). */
export function callContextOf(request: FastifyRequest): CallContext {
  if (request.callContext === null) throw new Error('route is missing the auth hook');
  return request.callContext;
}

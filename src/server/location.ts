/**
 * The `Location` of a Matched / UnmatchedStored answer: an absolute URL on the origin the
 * client used (compatibility.md), so that HTTP libraries following the 302 reach this server.
 */
import type { FastifyRequest } from 'fastify';

/** Host header values we reflect: name or IPv4/IPv6 literal with an optional port. */
const SAFE_HOST_RE = /^(?:[A-Z0-9.-]+|\[[0-9A-F:.]+\])(?::\d{1,5})?$/i;

/**
 * Origin of the request: scheme and host. Fastify takes them from X-Forwarded-Proto and
 * X-Forwarded-Host only when the app was built with `trustProxy`. A missing or odd Host
 * falls back to the socket's local address.
 */
export function requestOrigin(request: FastifyRequest): string {
  const scheme = request.protocol;
  const host = request.host;
  if (typeof host === 'string' && SAFE_HOST_RE.test(host)) return `${scheme}://${host}`;
  const socket = request.raw.socket;
  const address = socket.localAddress ?? '127.0.0.1';
  const literal = address.includes(':') ? `[${address}]` : address;
  return `${scheme}://${literal}:${socket.localPort ?? 80}`;
}

/** Absolute URL of `GET {prefix}/people/{crmId}` on the request's origin. */
export function personLocation(request: FastifyRequest, prefix: string, crmId: number): string {
  return `${requestOrigin(request)}${prefix}/people/${crmId}`;
}

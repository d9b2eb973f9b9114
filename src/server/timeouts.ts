/**
 * How long a client may hold a connection (issue 15: 1,600 connections with half-sent headers
 * stayed open past 15 s). Node's HTTP server enforces them: headers and the whole request
 * are checked every `connectionsCheckingInterval` (Node's default, 30 s, is why a stalled
 * connection outlived 15 s), an idle keep-alive connection is closed by `keepAliveTimeout`.
 * A request whose headers or body came too slowly is answered 408 (app.ts writeClientError)
 * and its connection closed.
 */
import type { ServerOptions } from 'node:http';

/** The three timeouts, ms (README "HTTP timeouts"). */
export interface HttpTimeouts {
  /** From the connection (or the end of the previous request) to the end of the request's headers. */
  readonly headersMs: number;
  /** From the start of a request to the end of its body (a large upload must fit in it). */
  readonly requestMs: number;
  /** A keep-alive connection with no request is closed after this. */
  readonly idleMs: number;
}

/**
 * Defaults: headers within 10 s (a client sends them at once; 10 s leaves room for a slow
 * network), the whole request within 30 s (the server's earlier limit; at 100 MiB an upload
 * needs about 3.5 MB/s), an idle connection closed after 30 s (behind a proxy keep its own
 * idle timeout below this, README "Deployment").
 */
export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000, idleMs: 30_000 };

/** How often Node checks the header and request timeouts: a stalled connection lives at most this much past them. */
export function checkingIntervalOf(t: HttpTimeouts): number {
  return Math.max(50, Math.min(1000, Math.floor(Math.min(t.headersMs, t.requestMs) / 4)));
}

/** The options of Node's `http.createServer` for these timeouts (headers never after the whole request). */
export function httpServerOptions(t: HttpTimeouts): ServerOptions {
  return {
    headersTimeout: Math.min(t.headersMs, t.requestMs),
    requestTimeout: t.requestMs,
    keepAliveTimeout: t.idleMs,
    connectionsCheckingInterval: checkingIntervalOf(t),
  };
}

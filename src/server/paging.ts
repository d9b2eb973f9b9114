/**
 * Paged lists (compatibility.md "Lists and paging"): `$top` (default 50, 1 to 200) and
 * `$skip` (default 0), answered as `{items, count, nextPageLink}` where `count` is the total
 * and `nextPageLink` an absolute URL on the request's origin (with the request's other
 * parameters: a list's filters and `$expand` hold on every page), or null on the last page.
 * Clients that re-send their query on the next page repeat keys: the first value wins
 * (the one the nextPageLink carried).
 */
import type { FastifyRequest } from 'fastify';
import { httpError } from './http-error.js';
import { requestOrigin } from './location.js';

/** Page size when `$top` is absent. */
export const DEFAULT_TOP = 50;
/** Largest accepted `$top`. */
export const MAX_TOP = 200;

/** A requested page. */
export interface Page {
  readonly top: number;
  readonly skip: number;
}

/** The answer of a paged list. */
export interface PagedList<T> {
  readonly items: readonly T[];
  readonly count: number;
  readonly nextPageLink: string | null;
}

function firstValue(raw: unknown): string | undefined {
  const value = Array.isArray(raw) ? (raw as unknown[])[0] : raw;
  return typeof value === 'string' ? value.trim() : undefined;
}

function readNumber(query: Record<string, unknown>, name: '$top' | '$skip', fallback: number, min: number, max: number, hint: string): number {
  const text = firstValue(query[name]);
  if (text === undefined || text === '') return fallback;
  if (!/^\d{1,9}$/.test(text) || Number(text) < min || Number(text) > max) {
    const shown = text.length > 20 ? `${text.slice(0, 20)}...` : text;
    throw httpError(400, 'INVALID_PARAMETER', `${name} "${shown}" must be a whole number from ${min} to ${max}.`, { properties: [name], hint });
  }
  return Number(text);
}

/** Reads `$top` and `$skip` (400 INVALID_PARAMETER naming the parameter when out of range). */
export function readPage(query: unknown): Page {
  const q = typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
  return {
    top: readNumber(q, '$top', DEFAULT_TOP, 1, MAX_TOP, `Use $top from 1 to ${MAX_TOP} (default ${DEFAULT_TOP}) and page on with $skip or nextPageLink.`),
    skip: readNumber(q, '$skip', 0, 0, 999_999_999, 'Use $skip of 0 or more.'),
  };
}

/** The page of `all` and its links. */
export function pageOf<T>(request: FastifyRequest, all: readonly T[], page: Page): PagedList<T> {
  return pagedList(request, all.slice(page.skip, page.skip + page.top), all.length, page);
}

/** The request's query parameters other than `$top` and `$skip` (a list's filters, `$expand`), each as `&name=value`. */
function otherParameters(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return '';
  let out = '';
  for (const pair of url.slice(at + 1).split('&')) {
    if (pair === '') continue;
    const raw = pair.split('=', 1)[0] ?? '';
    let name = raw;
    try {
      name = decodeURIComponent(raw.replace(/\+/g, ' '));
    } catch {
      // A malformed escape: compared as sent.
    }
    if (name.trim() !== '$top' && name.trim() !== '$skip') out += `&${pair}`;
  }
  return out;
}

/** A page whose items were already cut, with `count` the total; nextPageLink keeps the request's other parameters. */
export function pagedList<T>(request: FastifyRequest, items: readonly T[], count: number, page: Page): PagedList<T> {
  const next = page.skip + page.top;
  let nextPageLink: string | null = null;
  if (next < count) {
    const path = request.url.split('?', 1)[0] ?? '';
    nextPageLink = `${requestOrigin(request)}${path}?$top=${page.top}&$skip=${next}${otherParameters(request.url)}`;
  }
  return { items, count, nextPageLink };
}

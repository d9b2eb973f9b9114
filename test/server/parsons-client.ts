/**
 * What the parsons VAN connector does on the wire, written down so that a test can replay its
 * calls without depending on parsons (Python): its `VANConnector` (Basic auth
 * `(auth_name, key|db_code)`, base URI `.../v4/`), its `APIConnector` (status >= 400 raises,
 * POST success codes 200/201/202/204 answer the JSON or the status code, GET follows
 * `nextPageLink` and reads `items`), and Python requests underneath (a 301/302/303 answer to a
 * POST is followed with a GET without body; Authorization is kept while the host stays the same).
 * Every exchange is recorded, so a test checks each hop: status, headers, body.
 */

/** One HTTP exchange as it happened. */
export interface Exchange {
  readonly method: string;
  readonly url: string;
  readonly requestBody: unknown;
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** What parsons raises for a status >= 400 (`requests.HTTPError`). */
export class HttpErrorLike extends Error {
  constructor(readonly exchange: Exchange) {
    super(`HTTP error occurred (${exchange.status}): ${exchange.text}`);
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A parsons-like VAN connection to `base` (an origin) with `key` and database mode `dbCode`. */
export class ParsonsLikeClient {
  /** Every exchange, in order (redirect hops included). */
  readonly log: Exchange[] = [];
  private readonly uri: string;
  private readonly auth: string;

  constructor(base: string, key: string, dbCode: 0 | 1, authName = 'default') {
    this.uri = `${base}/v4/`;
    this.auth = `Basic ${Buffer.from(`${authName}:${key}|${dbCode}`).toString('base64')}`;
  }

  /** The exchanges of the last call (its request and the redirects requests followed). */
  lastCall(): Exchange[] {
    const out: Exchange[] = [];
    for (let i = this.log.length - 1; i >= 0; i--) {
      const e = this.log[i] as Exchange;
      out.unshift(e);
      if (e.method !== 'GET' || !REDIRECTS.has(this.log[i - 1]?.status ?? 0)) break;
    }
    return out;
  }

  /** requests.request(method, url, json=body, auth=...), following redirects as requests does. */
  private async request(method: string, url: string, body?: unknown): Promise<Exchange> {
    let current = { method, url, body };
    for (let hops = 0; hops < 30; hops++) {
      const headers: Record<string, string> = { 'user-agent': 'python-requests/2.32.3', accept: '*/*' };
      const sameHost = new URL(current.url).host === new URL(this.uri).host;
      if (sameHost) headers['authorization'] = this.auth;
      if (current.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(current.url, {
        method: current.method,
        headers,
        redirect: 'manual',
        ...(current.body === undefined ? {} : { body: JSON.stringify(current.body) }),
      });
      const exchange: Exchange = {
        method: current.method,
        url: current.url,
        requestBody: current.body,
        status: res.status,
        headers: res.headers,
        text: await res.text(),
      };
      this.log.push(exchange);
      const location = res.headers.get('location');
      if (!REDIRECTS.has(res.status) || location === null) return exchange;
      // requests' rebuild_method: 303 (and 301/302 of a POST) become a GET without body.
      const toGet = res.status === 303 || ((res.status === 301 || res.status === 302) && current.method === 'POST');
      current = { method: toGet ? 'GET' : current.method, url: new URL(location, current.url).toString(), body: toGet ? undefined : current.body };
    }
    throw new Error('too many redirects');
  }

  private static check(e: Exchange): void {
    if (e.status >= 400) throw new HttpErrorLike(e);
  }

  private static json(e: Exchange): unknown {
    try {
      return JSON.parse(e.text) as unknown;
    } catch {
      return undefined;
    }
  }

  /** `VANConnector.get_request`: GET, raise on error, read `items`, follow `nextPageLink`. */
  async getRequest(endpoint: string, params: Record<string, string> = {}): Promise<unknown> {
    const url = new URL(endpoint, this.uri);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    let e = await this.request('GET', url.toString());
    ParsonsLikeClient.check(e);
    let page = ParsonsLikeClient.json(e) as Record<string, unknown> | unknown[];
    const parse = (r: Record<string, unknown> | unknown[]): unknown => (Array.isArray(r) ? r : 'items' in r ? r['items'] : r);
    let data = parse(page);
    while (!Array.isArray(page) && typeof page['nextPageLink'] === 'string' && page['nextPageLink'] !== '') {
      e = await this.request('GET', page['nextPageLink']);
      ParsonsLikeClient.check(e);
      page = ParsonsLikeClient.json(e) as Record<string, unknown>;
      data = [...(data as unknown[]), ...(parse(page) as unknown[])];
    }
    return data;
  }

  /** `APIConnector.post_request`: raise on error; on 200/201/202/204 the JSON, else the status code. */
  async postRequest(endpoint: string, json: unknown): Promise<unknown> {
    const e = await this.request('POST', new URL(endpoint, this.uri).toString(), json);
    ParsonsLikeClient.check(e);
    if ([200, 201, 202, 204].includes(e.status)) return ParsonsLikeClient.json(e) ?? e.status;
    return undefined;
  }

  /** A plain GET of an absolute URL (parsons' `Table.from_csv(url)` of a result file). */
  async fetchText(url: string): Promise<string> {
    const res = await fetch(url);
    if (res.status >= 400) throw new Error(`GET ${url}: ${res.status}`);
    return res.text();
  }
}

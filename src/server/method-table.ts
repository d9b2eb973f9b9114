/**
 * Which methods each registered path answers, so that a known path called with another
 * method gets 405 METHOD_NOT_ALLOWED (with `Allow`) instead of 404. Routes register
 * themselves through fastify's onRoute hook, so routes added later by other modules count too.
 */
import type { FastifyInstance } from 'fastify';

interface PathPattern {
  /** Segments; null marks a parameter (`:name`), which matches any non-empty segment. */
  readonly segments: readonly (string | null)[];
  /** True when the pattern ends in `*`. */
  readonly wildcard: boolean;
  readonly methods: Set<string>;
}

/** Collects route patterns and answers which methods a concrete path allows. */
export class MethodTable {
  private readonly patterns = new Map<string, PathPattern>();

  /** Record that `method` is served at the router pattern `url`. */
  add(method: string, url: string): void {
    let pattern = this.patterns.get(url);
    if (pattern === undefined) {
      const parts = url.split('/');
      const wildcard = parts[parts.length - 1] === '*';
      if (wildcard) parts.pop();
      pattern = {
        segments: parts.map((p) => (p.startsWith(':') ? null : p)),
        wildcard,
        methods: new Set(),
      };
      this.patterns.set(url, pattern);
    }
    pattern.methods.add(method.toUpperCase());
  }

  /**
   * Methods served at a concrete path (no query string), sorted; empty if none. Like the
   * router, the most specific patterns win: `/people/find` is the static route, not `/people/:ref`.
   */
  allowedMethods(path: string): string[] {
    const parts = path.split('/');
    let best = Infinity;
    let methods = new Set<string>();
    for (const pattern of this.patterns.values()) {
      if (!matches(pattern, parts)) continue;
      const looseness = pattern.segments.filter((s) => s === null).length + (pattern.wildcard ? 1000 : 0);
      if (looseness < best) {
        best = looseness;
        methods = new Set(pattern.methods);
      } else if (looseness === best) {
        for (const m of pattern.methods) methods.add(m);
      }
    }
    return [...methods].sort();
  }

  /** Register the onRoute hook on `app` (before any route is added). */
  install(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) this.add(method, route.url);
    });
  }
}

function matches(pattern: PathPattern, parts: readonly string[]): boolean {
  const { segments, wildcard } = pattern;
  if (wildcard ? parts.length < segments.length : parts.length !== segments.length) return false;
  for (let i = 0; i < segments.length; i++) {
    const want = segments[i];
    const got = parts[i] ?? '';
    if (want === null ? got === '' : want !== got) return false;
  }
  return true;
}

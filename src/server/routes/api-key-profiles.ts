/**
 * `GET /apiKeyProfiles` (Medium): what the calling key is. A paged list (compatibility.md
 * "Lists and paging") holding this key's one profile:
 *
 * ```json
 * {"items":[{"keyId":3,"tenant":"acme","contexts":["voterfile","campaign"],"defaultContext":"voterfile",
 *   "currentContext":"campaign","tier":"Startup","limits":{"High":10,"Medium":5,"Low":2},
 *   "monthlyQuota":1000000,"usage":{"month":"2026-11","used":42,"remaining":999958,"resetsAt":"2026-12-01T00:00:00Z"},
 *   "model":{"source":"trained","version":2,"since":"2026-11-25T19:20:18Z"}}],
 *  "count":1,"nextPageLink":null}
 * ```
 *
 * `model`: the matching model the current context scores with: `shipped` (version null when
 * never trained; a version when `matchbook tenants train --reset` went back to it) or
 * `trained` by `matchbook tenants train`, with the version and when it was stored.
 *
 * `limits` is null and `monthlyQuota` null for Internal keys (no limits); `monthlyQuota` and
 * `usage.remaining` are null for Preferred (unlimited). This request itself is counted.
 */
import type { FastifyInstance } from 'fastify';
import { callContextOf } from '../auth.js';
import type { CrmPort } from '../crm-port.js';
import { TIER_LIMITS, type RateLimiter } from '../rate-limit.js';

/** Start of the month after "YYYY-MM", ISO 8601 UTC. */
function monthEnd(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, m ?? 1, 1)).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Register the route on an authenticated, prefixed instance. */
export function registerApiKeyProfileRoutes(app: FastifyInstance, options: { readonly limiter: RateLimiter; readonly crm: CrmPort }): void {
  app.get('/apiKeyProfiles', async (request, reply) => {
    const ctx = callContextOf(request);
    const identity = request.identity;
    if (identity === null) throw new Error('route is missing the auth hook');
    const limits = TIER_LIMITS[identity.tier];
    const usage = await options.limiter.usage({ keyId: identity.keyId, tier: identity.tier });
    const quota = limits?.monthlyQuota ?? null;
    const profile = {
      keyId: identity.keyId,
      tenant: identity.tenantName,
      contexts: identity.contexts,
      defaultContext: identity.defaultContext,
      currentContext: ctx.context,
      tier: identity.tier,
      limits: limits === null ? null : { ...limits.perSecond },
      monthlyQuota: quota,
      usage: {
        month: usage.month,
        used: usage.used,
        remaining: quota === null ? null : Math.max(0, quota - usage.used),
        resetsAt: monthEnd(usage.month),
      },
      ...(options.crm.modelInForce === undefined ? {} : { model: await options.crm.modelInForce(ctx) }),
    };
    return reply.code(200).send({ items: [profile], count: 1, nextPageLink: null });
  });
}

/**
 * `matchbook review audit --tenant NAME [--context C] [--limit N]`: the audit log of the
 * decisions on Possible matches (POST /possibleMatches/{id}, src/crm/review.ts), newest first:
 * which key decided what, and when.
 */
import type { Command } from 'commander';
import { CONTEXTS, type ContextName } from '../crm/index.js';
import { resolveDbPath } from './db-path.js';
import { formatTable } from './format.js';
import type { CliIo } from './io.js';
import { withCrm } from './with-crm.js';

/** Register the `review` command group. */
export function registerReview(program: Command, io: CliIo): void {
  const review = program.command('review').description('the review queue of Possible matches: its audit log');
  review
    .command('audit')
    .description('list the decisions on Possible matches, newest first (who, when, what)')
    .requiredOption('--tenant <name>', 'tenant name')
    .option('--context <context>', 'voterfile or campaign (default: both)')
    .option('--limit <n>', 'at most this many entries', '100')
    .option('--db <path>', 'SQLite database file or PostgreSQL URL (default: $MATCHBOOK_DB or ./var/matchbook.db)')
    .action(async (opts: { tenant: string; context?: string; limit: string; db?: string }) => {
      const contexts = opts.context === undefined ? CONTEXTS : [opts.context as ContextName];
      if (!contexts.every((c) => CONTEXTS.includes(c))) throw new Error(`--context must be one of ${CONTEXTS.join(', ')}, not "${opts.context}"`);
      const limit = Number(opts.limit);
      if (!/^\d{1,6}$/.test(opts.limit) || limit < 1) throw new Error(`--limit must be a whole number from 1 to 999999, not "${opts.limit}"`);
      const rows = await withCrm(resolveDbPath(opts.db, io), (crm) => crm.listReviewAudit(opts.tenant, contexts, limit));
      io.stdout(
        formatTable(
          rows.map((r) => ({ at: r.at, context: r.context, possibleMatch: r.possibleMatchId, action: r.action, by: r.by, detail: JSON.stringify(r.detail) })),
        ),
      );
    });
}

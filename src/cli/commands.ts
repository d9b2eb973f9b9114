/**
 * The registry of `matchbook` subcommands, in help order. Each module is imported only when
 * its command runs (src/cli/program.ts). To add a subcommand, write `registerX(program, io)`
 * in its own file and list it here with its help line.
 */
import type { LazyCommand } from './program.js';

/** Every subcommand, in help order. */
export const COMMANDS: readonly LazyCommand[] = [
  {
    name: 'serve',
    term: 'serve [options]',
    description: 'start the HTTP API server',
    load: async () => (await import('./serve.js')).registerServe,
  },
  {
    name: 'tenants',
    term: 'tenants',
    description: 'manage tenants',
    load: async () => (await import('./tenants.js')).registerTenants,
  },
  {
    name: 'keys',
    term: 'keys',
    description: 'manage API keys',
    load: async () => (await import('./keys.js')).registerKeys,
  },
  {
    name: 'review',
    term: 'review',
    description: 'the review queue of Possible matches: its audit log',
    load: async () => (await import('./review.js')).registerReview,
  },
  {
    name: 'dedupe',
    term: 'dedupe [options] <input>',
    description: 'find the rows of a CSV file that describe the same person; writes every row with cluster_id, match_score, matched_id and match_note',
    load: async () => (await import('./dedupe.js')).registerDedupe,
  },
  {
    name: 'link',
    term: 'link [options] <left> <right>',
    description: 'link the rows of RIGHT to the rows of LEFT that describe the same person; writes left_id,right_id,score',
    load: async () => (await import('./link.js')).registerLink,
  },
  {
    name: 'eval',
    term: 'eval [options] <input> [right]',
    description: 'measure dedupe (one file) or link (two files) against labelled truth: precision, recall, F1, clusters, pair completeness',
    load: async () => (await import('./eval.js')).registerEval,
  },
  {
    name: 'db',
    term: 'db',
    description: 'database maintenance',
    load: async () => (await import('./db.js')).registerDb,
  },
];

/**
 * `matchbook tenants train NAME [--context CONTEXT] [--dry-run | --yes] [--reset]`: estimates a
 * context's matching model from its own people (src/crm/model-training.ts), prints what
 * would change (the weights, and how many stored pairs would be decided otherwise, by
 * transition), and stores it only with `--yes`. Without `--yes` nothing is saved and the
 * command fails (exit 1) after the report; `--dry-run` prints the report and exits 0.
 */
import { Option, type Command } from 'commander';
import type { Crm, ModelInForce, ModelPlan } from '../crm/index.js';
import { resolveDbPath } from './db-path.js';
import type { CliIo } from './io.js';
import { autoProgressMode, formatCount, Progress, type ProgressMode } from './progress.js';
import { withCrm } from './with-crm.js';

interface TrainFlags {
  context?: string;
  dryRun?: boolean;
  yes?: boolean;
  reset?: boolean;
  progress?: string;
  db?: string;
}

/** "trained version 3 (2026-11-25T19:20:18Z)", "shipped", "shipped (reset in version 4, ...)". */
export function describeModel(model: ModelInForce): string {
  if (model.source === 'trained') return `trained version ${model.version ?? '?'} (${model.since ?? '?'})`;
  return model.version === null ? 'shipped' : `shipped (since version ${model.version}, ${model.since ?? '?'})`;
}

/** The report of a plan, for standard output. */
export function formatPlan(plan: ModelPlan): string {
  const lines: string[] = [];
  const what = plan.document === null ? 'back to the shipped model' : 'a model trained on its people';
  lines.push(`Tenant "${plan.tenant}", ${plan.scope.context}: ${formatCount(plan.people)} people; in force: ${describeModel(plan.current)}; planned: ${what}.`);
  const report = plan.estimation;
  if (report !== null) {
    const bySource = (source: string): string[] =>
      Object.entries(report.sources)
        .filter(([, s]) => s === source)
        .map(([f]) => f);
    const estimated = bySource('estimated');
    const fallback = bySource('fallback');
    const prior = bySource('prior');
    const borrowed = bySource('borrowed');
    lines.push(`m estimated (EM) for: ${estimated.length === 0 ? 'none' : estimated.join(', ')}.`);
    if (fallback.length > 0) lines.push(`Degenerate estimate, shipped m kept for: ${fallback.join(', ')}.`);
    if (prior.length > 0) lines.push(`Too few training pairs, shipped m kept for: ${prior.join(', ')}.`);
    if (borrowed.length > 0) lines.push(`No training session for it, typo and similarity m taken from the other name's estimate: ${borrowed.join(', ')}.`);
    lines.push(`u measured on ${formatCount(report.uPairs)} random pairs and value frequencies.`);
    for (const note of report.notes) lines.push(`  note: ${note}`);
  }
  if (plan.weights.length > 0) {
    lines.push('Weights that change (bits, in force -> new):');
    const byField = new Map<string, string[]>();
    for (const w of plan.weights) {
      const list = byField.get(w.field) ?? [];
      list.push(`${w.level} ${w.before.toFixed(1)} -> ${w.after.toFixed(1)}`);
      byField.set(w.field, list);
    }
    const width = Math.max(...[...byField.keys()].map((f) => f.length));
    for (const [field, list] of byField) lines.push(`  ${field.padEnd(width)}  ${list.join(', ')}`);
  }
  const { pairs, changed, transitions } = plan.changes;
  lines.push(`Stored candidate pairs compared: ${formatCount(pairs)}; decided otherwise under the new model: ${formatCount(changed)}.`);
  for (const [transition, n] of Object.entries(transitions).sort((a, b) => b[1] - a[1])) {
    lines.push(`  ${transition.replace('->', ' -> ').padEnd(24)}  ${formatCount(n)}`);
  }
  return `${lines.join('\n')}\n`;
}

async function train(crm: Crm, name: string, flags: TrainFlags, io: CliIo, mode: ProgressMode): Promise<void> {
  const progress = new Progress({ mode, write: io.stderr });
  const options: { context?: string; reset?: boolean; progress: Progress } = { progress };
  if (flags.context !== undefined) options.context = flags.context;
  if (flags.reset === true) options.reset = true;
  let plan: ModelPlan;
  try {
    plan = await crm.planTenantModel(name, options);
  } finally {
    progress.finish();
  }
  if (plan.unchanged) {
    io.stderr(`matchbook: tenant "${plan.tenant}" ${plan.scope.context} already scores with the shipped model; nothing to reset\n`);
    return;
  }
  io.stdout(formatPlan(plan));
  if (flags.dryRun === true) {
    io.stderr('matchbook: dry run: nothing saved\n');
    return;
  }
  if (flags.yes !== true) {
    throw new Error(
      `not saved: ${formatCount(plan.changes.changed)} stored pair(s) would be decided otherwise; run again with --yes to put this model in force (--dry-run only reports)`,
    );
  }
  const now = await crm.saveTenantModel(plan);
  io.stderr(
    `matchbook: tenant "${plan.tenant}" ${plan.scope.context} now scores with the ${describeModel(now)} model; running servers pick it up within a second\n`,
  );
}

/** Registers `tenants train` on the `tenants` command group. */
export function registerTenantTrain(tenants: Command, io: CliIo, db: { flags: string; help: string }): void {
  tenants
    .command('train')
    .description("estimate a context's matching model (m and u) from the tenant's own people; prints what would change, saves with --yes")
    .argument('<name>', 'tenant name')
    .option('--context <context>', 'voterfile or campaign', 'voterfile')
    .option('--dry-run', 'print the report only; save nothing')
    .option('--yes', 'save the model and put it in force (running servers pick it up)')
    .option('--reset', 'go back to the shipped model (the report shows what that changes)')
    .addOption(
      new Option('--progress <mode>', 'progress on stderr: a bar on a terminal, plain lines otherwise')
        .choices(['auto', 'tty', 'plain', 'none'])
        .default('auto'),
    )
    .option(db.flags, db.help)
    .action(async (name: string, flags: TrainFlags) => {
      if (flags.dryRun === true && flags.yes === true) throw new Error('--dry-run and --yes exclude each other');
      const text = flags.progress ?? 'auto';
      const mode: ProgressMode = text === 'auto' ? autoProgressMode(process.stderr.isTTY) : (text as ProgressMode);
      await withCrm(resolveDbPath(flags.db, io), (crm) => train(crm, name, flags, io, mode));
    });
}

/**
 * `npm run bench:cli`: how long the `matchbook` command takes to start, against `node -e 0`
 * (Node's own start). Each command runs as a whole process, the commands in turn (A B C A B C
 * ...), after warm-up runs; medians of wall time, and each command's median ratio to `node -e 0`
 * over the same rounds. Runs the compiled CLI: `npm run build` first.
 *
 *   npm run bench:cli -- [--runs 15] [--other /path/to/old/checkout] [--no-readme]
 *
 * `--other` also times another checkout's compiled CLI (e.g. a commit before a change, unpacked
 * with `git archive REV | tar -x -C DIR` and built there). Results replace the section
 * "CLI start-up" of bench/README.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { updateReadmeSection } from './lib/readme.js';
import { describeMachine, machineInfo, median } from './lib/report.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));

interface Case {
  readonly label: string;
  readonly args: readonly string[];
  readonly cwd: string;
}

/** Wall time of one run of `node ...args`, ms; throws when it fails. */
function timeRun(c: Case): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, c.args, { cwd: c.cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`${c.label} failed (${run.status}): ${run.stderr}`);
  return ms;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '15' },
      warmup: { type: 'string', default: '2' },
      other: { type: 'string' },
      'no-readme': { type: 'boolean', default: false },
    },
  });
  const runs = Math.max(3, Number(values.runs));
  const warmup = Math.max(0, Number(values.warmup));
  const cli = join(REPO, 'dist', 'cli', 'main.js');
  if (!existsSync(cli)) throw new Error('dist/cli/main.js is missing: run `npm run build` first.');
  const cases: Case[] = [
    { label: 'node -e 0', args: ['-e', '0'], cwd: REPO },
    { label: 'matchbook --help', args: [cli, '--help'], cwd: REPO },
    { label: 'matchbook dedupe --help', args: [cli, 'dedupe', '--help'], cwd: REPO },
    { label: 'matchbook serve --help', args: [cli, 'serve', '--help'], cwd: REPO },
  ];
  if (values.other !== undefined) {
    const other = join(values.other, 'dist', 'cli', 'main.js');
    if (!existsSync(other)) throw new Error(`${other} is missing: build that checkout first.`);
    cases.push({ label: 'matchbook --help (--other)', args: [other, '--help'], cwd: values.other });
    cases.push({ label: 'matchbook dedupe --help (--other)', args: [other, 'dedupe', '--help'], cwd: values.other });
  }
  const machine = machineInfo();
  process.stderr.write(`${describeMachine(machine)}\n`);
  for (let i = 0; i < warmup; i++) for (const c of cases) timeRun(c);
  const times = cases.map(() => [] as number[]);
  for (let round = 0; round < runs; round++) {
    cases.forEach((c, i) => times[i]?.push(timeRun(c)));
  }
  const loadEnd = Math.round((os.loadavg()[0] ?? 0) * 10) / 10;
  const base = times[0] ?? [];
  const rows = cases.map((c, i) => {
    const t = times[i] ?? [];
    const ratios = t.map((ms, r) => ms / (base[r] ?? ms));
    return `| ${c.label} | ${median(t).toFixed(0)} ms | ${Math.min(...t).toFixed(0)}-${Math.max(...t).toFixed(0)} ms | ${median(ratios).toFixed(2)}x |`;
  });
  const section = [
    '## CLI start-up (bench/cli-start.bench.ts)',
    '',
    `${describeMachine(machine)}; load average ${loadEnd} at the end. ${runs} rounds after ${warmup} of warm-up, the commands in turn.`,
    '',
    '| command (whole process) | median wall time | min-max | median ratio to node -e 0, same round |',
    '|---|---:|---:|---:|',
    ...rows,
    '',
    'A command imports its module only when it runs (src/cli/commands.ts): `--help` loads the command list and commander, `dedupe` the linkage library and the engine, `serve` the server, the CRM and the database drivers.',
  ].join('\n');
  process.stdout.write(`${section}\n`);
  if (!values['no-readme']) updateReadmeSection('## CLI start-up (bench/cli-start.bench.ts)', section);
}

main();

/**
 * Bulk import benchmark: a 100k-row CreateOrUpdateContact job into a database of 100k people,
 * end to end through the real `matchbook serve` process: upload (POST /bulkImportFiles),
 * job (POST /bulkImportJobs), poll to completion. Reports rows/s, the server's peak RSS, and
 * POST /people/find latency at a fixed request rate, idle and while a job runs.
 *
 *   npm run bench:import -- [--size 100000] [--rows 100000] [--rate 200] [--sync full|normal] [--runs 1] [--canvass] [--record]
 *
 * Steps: (1) the seeded synthetic corpus (bench/corpus.ts) of `--size` people is imported by
 * a first job into the empty database (this is the "database of 100k people"); (2) find at
 * `--rate` req/s for 10 s, idle; (3) the measured job: `--rows` noisy queries of the corpus
 * (nicknames, typos, other formats, moved house; 30% people not stored), so rows both match
 * (and update) and create; (4) the same kind of job again (another query pool) with find at
 * `--rate` req/s running during the whole job.
 * Targets (issue 5, 2 cores): >= 5,000 rows/s end to end, memory bounded (streaming), find
 * p99 during a job within 2x of idle.
 * `--runs N` repeats all of it N times (a fresh database and server each time) and reports
 * medians, with each run's rows/s: single runs on this shared machine vary by about 25%.
 * `--canvass` adds, right after the measured job, the same kind of job with CanvassResults
 * (a result code on every row's contact) beside CreateOrUpdateContact, and prints the ratio
 * of their rows/s (issue 15: 4-5x slower; target within 1.5x) with the load average.
 * `--record` writes the results into bench/README.md under "## Bulk import (bench/import.bench.ts)".
 */
import autocannon, { type Result } from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Crm } from '../src/crm/index.js';
import { toCandidate } from './api.bench.js';
import { generateCorpus } from './corpus.js';
import { updateReadmeSection } from './lib/readme.js';
import { describeMachine, machineInfo, median, type MachineInfo } from './lib/report.js';
import { cpuSecondsOf, rssOf, startFlags, startServer } from './lib/server.js';
import { csvOf } from './lib/import-csv.js';

const SECTION = '## Bulk import (bench/import.bench.ts)';

interface Args {
  size: number;
  rows: number;
  rate: number;
  seed: number;
  sync: 'full' | 'normal';
  runs: number;
  canvass: boolean;
  record: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  const num = (name: string, dflt: number) => {
    const i = argv.indexOf(name);
    const v = i >= 0 ? Number(argv[i + 1]) : dflt;
    if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} needs a positive number`);
    return v;
  };
  const sync = argv.includes('--sync') ? argv[argv.indexOf('--sync') + 1] : 'full';
  if (sync !== 'full' && sync !== 'normal') throw new Error('--sync is full or normal');
  return {
    size: num('--size', 100_000),
    rows: num('--rows', 100_000),
    rate: num('--rate', 200),
    seed: num('--seed', 42),
    sync,
    runs: Math.trunc(num('--runs', 1)),
    canvass: argv.includes('--canvass'),
    record: argv.includes('--record'),
  };
}

interface JobRun {
  name: string;
  /** Server CPU per row in µs (load-independent cost; includes the find load when there is one). */
  cpuPerRowUs: number | null;
  rows: number;
  seconds: number;
  status: string;
  rowsFailed: number;
  peakRss: number | null;
  uploadSeconds: number;
}

/** Uploads `csv`, runs a CreateOrUpdateContact job on it, polls to the end; samples the server's RSS. */
/** CreateOrUpdateContact alone, or followed by CanvassResults (result code 14 on the row's contact). */
type JobKind = 'contacts' | 'contacts+canvass';

const MAPPINGS: Record<JobKind, unknown[]> = {
  contacts: [{ name: 'CreateOrUpdateContact' }],
  'contacts+canvass': [{ name: 'CreateOrUpdateContact' }, { name: 'CanvassResults', fieldValueMappings: [{ fieldName: 'ResultID', staticValue: '14' }] }],
};

async function runJob(
  name: string,
  base: string,
  key: string,
  pid: number,
  csv: string,
  log: (s: string) => void,
  kind: JobKind = 'contacts',
): Promise<JobRun> {
  const auth = { apiKey: key };
  const upStart = performance.now();
  const up = await fetch(`${base}/v4/bulkImportFiles`, { method: 'POST', headers: { ...auth, 'content-type': 'text/csv' }, body: csv });
  if (up.status !== 201) throw new Error(`upload: ${up.status} ${await up.text()}`);
  const { sourceUrl } = (await up.json()) as { sourceUrl: string };
  const uploadSeconds = (performance.now() - upStart) / 1000;
  const started = performance.now();
  const cpuBefore = cpuSecondsOf(pid);
  const created = await fetch(`${base}/v4/bulkImportJobs`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      description: name,
      file: { fileName: 'bench.csv', hasHeader: true, hasQuotes: true, columnDelimiter: 'Csv', sourceUrl },
      actions: [{ resourceType: 'Contacts', actionType: 'loadMappedFile', mappingTypes: MAPPINGS[kind] }],
    }),
  });
  if (created.status !== 201) throw new Error(`job: ${created.status} ${await created.text()}`);
  const { jobId } = (await created.json()) as { jobId: number };
  let peakRss = rssOf(pid);
  let lastLog = 0;
  for (;;) {
    const job = (await (await fetch(`${base}/v4/bulkImportJobs/${jobId}`, { headers: auth })).json()) as {
      status: string;
      rowsDone: number;
      rowsTotal: number | null;
      rowsFailed: number;
      errors: unknown[];
    };
    const rss = rssOf(pid);
    if (rss !== null && (peakRss === null || rss > peakRss)) peakRss = rss;
    if (/Completed|Failed/.test(job.status)) {
      const seconds = (performance.now() - started) / 1000;
      if (job.status === 'Failed') throw new Error(`job failed: ${JSON.stringify(job.errors)}`);
      const cpuAfter = cpuSecondsOf(pid);
      const rows = job.rowsTotal ?? 0;
      const cpuPerRowUs = cpuBefore === null || cpuAfter === null || rows === 0 ? null : Math.round(((cpuAfter - cpuBefore) * 1e6) / rows);
      return { name, rows, seconds, status: job.status, rowsFailed: job.rowsFailed, peakRss, uploadSeconds, cpuPerRowUs };
    }
    if (performance.now() - lastLog > 5000) {
      lastLog = performance.now();
      log(`  ${name}: ${job.status} ${job.rowsDone}/${job.rowsTotal ?? '?'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** find at a fixed rate for `seconds` (or until `until` resolves, in 5 s rounds); latency samples in ms. */
async function findAtRate(
  base: string,
  key: string,
  bodies: readonly string[],
  rate: number,
  seconds: number,
  until?: Promise<unknown>,
): Promise<{ p50: number; p99: number; requests: number; non2xx: number }> {
  let next = 0;
  const rounds = { last: false }; // set when `until` resolves (a property: the loop reads what the callback set)
  void until?.then(() => {
    rounds.last = true;
  });
  const results: Result[] = [];
  do {
    results.push(
      await autocannon({
        url: base,
        connections: 4,
        overallRate: rate,
        duration: until === undefined ? seconds : 5,
        timeout: 10,
        requests: [
          {
            method: 'POST',
            path: '/v4/people/find',
            headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`apiuser:${key}`).toString('base64')}` },
            setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length]! }),
          },
        ],
      }),
    );
  } while (until !== undefined && !rounds.last);
  // Rounds are the same length: the median of the rounds' percentiles summarizes them.
  return {
    p50: median(results.map((r) => r.latency.p50)),
    p99: median(results.map((r) => r.latency.p99)),
    requests: results.reduce((n, r) => n + r.requests.total, 0),
    non2xx:
      results.reduce((n, r) => n + r.non2xx, 0) -
      results.reduce((n, r) => n + (r.statusCodeStats['404']?.count ?? 0) + (r.statusCodeStats['302']?.count ?? 0), 0),
  };
}

function mib(bytes: number | null): string {
  return bytes === null ? 'n/a' : `${(bytes / 2 ** 20).toFixed(0)} MiB`;
}

/** One run of the bench: the three jobs and find latency idle and during the third. */
interface Run {
  readonly jobs: readonly JobRun[];
  /** With --canvass: the CanvassResults job (run right after the measured one) and the 1-minute load average after each. */
  readonly canvass: { readonly job: JobRun; readonly loadMeasured: number; readonly loadCanvass: number } | null;
  readonly idle: { p50: number; p99: number };
  readonly during: { p50: number; p99: number; requests: number };
}

const rowsPerSecond = (j: JobRun): number => j.rows / j.seconds;
const thousands = (n: number): string => Math.round(n).toLocaleString('en-US');

function render(args: Args, machine: MachineInfo, runs: readonly Run[]): string {
  const first = runs[0] as Run;
  const many = runs.length > 1;
  const rows = first.jobs.map((j, i) => {
    const all = runs.map((r) => r.jobs[i] as JobRun);
    const cpu = all.map((a) => a.cpuPerRowUs).filter((c): c is number => c !== null);
    const rss = all.map((a) => a.peakRss).filter((m): m is number => m !== null);
    const each = many ? ` (${all.map((a) => thousands(rowsPerSecond(a))).join(', ')})` : '';
    const statuses = [...new Set(all.map((a) => `${a.status} (${a.rowsFailed} rows refused)`))].join('; ');
    return `| ${j.name} | ${j.rows.toLocaleString('en-US')} | ${median(all.map((a) => a.seconds)).toFixed(1)} | **${thousands(median(all.map(rowsPerSecond)))}**${each} | ${cpu.length > 0 ? Math.round(median(cpu)) : 'n/a'} | ${statuses} | ${mib(rss.length > 0 ? Math.max(...rss) : null)} | ${median(all.map((a) => a.uploadSeconds)).toFixed(1)} |`;
  });
  const measured = median(runs.map((r) => rowsPerSecond(r.jobs[1] as JobRun)));
  const idle = { p50: median(runs.map((r) => r.idle.p50)), p99: median(runs.map((r) => r.idle.p99)) };
  const during = { p50: median(runs.map((r) => r.during.p50)), p99: median(runs.map((r) => r.during.p99)) };
  const ratios = runs.map((r) => r.during.p99 / Math.max(r.idle.p99, 0.001));
  const ratio = median(ratios);
  const of = many ? `median of ${runs.length} runs` : 'one run';
  return [
    SECTION,
    '',
    `Run on ${describeMachine(machine)}. The machine is shared: other work (load above 2) lowers rows/s and raises latency.`,
    '',
    `How: \`npm run bench:import -- --sync ${args.sync}${many ? ` --runs ${runs.length}` : ''}\` (MATCHBOOK_IMPORT_SLICE_MS ${process.env['MATCHBOOK_IMPORT_SLICE_MS'] ?? '1 (default)'}). The real \`matchbook serve\` process as \`npm start\` runs it (dist/, built first when stale; Node flags ${startFlags().join(' ')}; \`--sync ${args.sync}\`) on a temp SQLite ` +
      `database. Each job: the CSV uploaded with POST /bulkImportFiles (kept in the database), a CreateOrUpdateContact job ` +
      '(columns FirstName, MiddleName, LastName, Suffix, DOB, Email, Phone, AddressLine1, City, State, Zip5, mapped by name), ' +
      'polled every 100 ms; rows/s = data rows / time from POST /bulkImportJobs to Completed (staging, every row matched ' +
      'and written, result file split). Peak RSS: the server process, sampled at each poll. ' +
      `Seed: the corpus' ${args.size.toLocaleString('en-US')} people imported into the empty database. Measured: ${args.rows.toLocaleString('en-US')} noisy queries of the ` +
      'corpus (30% people not stored) into that database, so rows match and update or create. Then another pool of ' +
      `queries with POST /v4/people/find at a fixed ${args.rate} req/s (autocannon, 4 connections) running during the whole job.` +
      (many
        ? ` Each of the ${runs.length} runs: a fresh database and server; the tables give medians (seconds, rows/s, CPU, upload; RSS: the largest), with each run's rows/s in brackets.`
        : ''),
    '',
    '| job | rows | seconds | rows/s | server CPU µs/row | status | server peak RSS | upload s |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Target >= 5,000 rows/s (the measured job, into ${args.size.toLocaleString('en-US')} people; ${of}): ${measured >= 5000 ? 'met' : '**not met**'}.`,
    '',
    `| POST /v4/people/find at ${args.rate} req/s (${of}) | p50 ms | p99 ms |`,
    '|---|---|---|',
    `| idle | ${idle.p50} | ${idle.p99} |`,
    `| during a job (${runs.map((r) => r.during.requests.toLocaleString('en-US')).join(', ')} requests; median of 5 s rounds) | ${during.p50} | ${during.p99} |`,
    '',
    `find p99 during a job / idle: ${ratio.toFixed(2)}x${many ? ` (runs: ${ratios.map((x) => `${x.toFixed(2)}x`).join(', ')})` : ''} (target within 2x: ${ratio <= 2 ? 'met' : '**not met**'}).`,
    ...canvassLines(runs),
  ].join('\n');
}

/** With --canvass: CreateOrUpdateContact alone against with CanvassResults, side by side in each run. */
function canvassLines(runs: readonly Run[]): string[] {
  const pairs = runs.flatMap((r) =>
    r.canvass === null
      ? []
      : [{ alone: rowsPerSecond(r.jobs[1] as JobRun), canvass: rowsPerSecond(r.canvass.job), load: [r.canvass.loadMeasured, r.canvass.loadCanvass] }],
  );
  if (pairs.length === 0) return [];
  const ratios = pairs.map((p) => p.alone / p.canvass);
  const ratio = median(ratios);
  return [
    '',
    '| job (same run, same database, one after the other) | rows/s | 1-min load average after it |',
    '|---|---|---|',
    `| CreateOrUpdateContact alone (the measured job) | ${pairs.map((p) => thousands(p.alone)).join(', ')} | ${pairs.map((p) => p.load[0]?.toFixed(2)).join(', ')} |`,
    `| CreateOrUpdateContact + CanvassResults | ${pairs.map((p) => thousands(p.canvass)).join(', ')} | ${pairs.map((p) => p.load[1]?.toFixed(2)).join(', ')} |`,
    '',
    `CanvassResults slowdown (alone / with CanvassResults): ${ratio.toFixed(2)}x${pairs.length > 1 ? ` (runs: ${ratios.map((x) => `${x.toFixed(2)}x`).join(', ')})` : ''} (target within 1.5x: ${ratio <= 1.5 ? 'met' : '**not met**'}).`,
  ];
}

/** One run: a fresh database and server, the seed job, find idle, the measured job, a job with find traffic. */
async function oneRun(args: Args, log: (s: string) => void): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'matchbook-bench-import-'));
  const db = join(dir, 'bench.db');
  try {
    const crm = await Crm.open({ db });
    await crm.createTenant('bench');
    const { key } = await crm.createKey({ tenant: 'bench', tier: 'Internal', contexts: ['campaign'], defaultContext: 'campaign' });
    await crm.close();
    const corpus = generateCorpus({ seed: args.seed, size: args.size });
    const seedCsv = csvOf(
      (function* people() {
        for (const p of corpus.people()) yield p.contact;
      })(),
    );
    const queries = (seed: number) => corpus.queries({ count: args.rows, seed }).map((q) => q.candidate);
    const server = await startServer(db, args.sync);
    log(`server up at ${server.base}`);
    const jobs: JobRun[] = [];
    try {
      jobs.push(await runJob(`seed: ${args.size.toLocaleString('en-US')} corpus people into an empty database`, server.base, key, server.pid, seedCsv, log));
      log(`  ${jobs[0]!.name}: ${Math.round(jobs[0]!.rows / jobs[0]!.seconds)} rows/s`);
      const findBodies = corpus.queries({ count: 20_000, seed: args.seed + 7 }).map((q) => JSON.stringify(toCandidate(q.candidate)));
      log('find idle...');
      const idle = await findAtRate(server.base, key, findBodies, args.rate, 10);
      jobs.push(
        await runJob(
          `measured: ${args.rows.toLocaleString('en-US')} queries into ${args.size.toLocaleString('en-US')} people`,
          server.base,
          key,
          server.pid,
          csvOf(queries(args.seed + 1)),
          log,
        ),
      );
      log(`  ${jobs[1]!.name}: ${Math.round(jobs[1]!.rows / jobs[1]!.seconds)} rows/s`);
      let canvass: Run['canvass'] = null;
      if (args.canvass) {
        const loadMeasured = loadavg()[0] ?? 0;
        const job = await runJob(
          `with CanvassResults: another ${args.rows.toLocaleString('en-US')} queries`,
          server.base,
          key,
          server.pid,
          csvOf(queries(args.seed + 3)),
          log,
          'contacts+canvass',
        );
        canvass = { job, loadMeasured, loadCanvass: loadavg()[0] ?? 0 };
        log(
          `  ${job.name}: ${Math.round(job.rows / job.seconds)} rows/s (${job.status}, ${job.rowsFailed} rows refused; load ${loadavg()
            .map((x) => x.toFixed(2))
            .join(' ')})`,
        );
      }
      log('job with find at a fixed rate...');
      const jobDone = runJob(
        `with find at ${args.rate} req/s: another ${args.rows.toLocaleString('en-US')} queries`,
        server.base,
        key,
        server.pid,
        csvOf(queries(args.seed + 2)),
        log,
      );
      const during = await findAtRate(server.base, key, findBodies, args.rate, 0, jobDone);
      jobs.push(await jobDone);
      return { jobs, idle, during, canvass };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const machine = machineInfo();
  const runs: Run[] = [];
  for (let i = 0; i < args.runs; i++) {
    if (args.runs > 1) log(`run ${i + 1} of ${args.runs}`);
    runs.push(await oneRun(args, log));
  }
  const section = render(args, machine, runs);
  process.stdout.write(`${section}\n`);
  if (args.record) {
    updateReadmeSection(SECTION, section);
    log('recorded in bench/README.md');
  }
}

await main();

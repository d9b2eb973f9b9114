/**
 * `npm run bench:api -- --store postgres --processes N` (issues 7 and 17): the same seeded
 * database in SQLite and copied into PostgreSQL (a throwaway cluster with fsync on, or `--pg
 * URL` of a server whose databases it may create), then find and findOrCreate through SQLite
 * (one process, `--sync full`) and PostgreSQL with 1 and N server processes, in one run on the
 * same machine. With `--base REF`, the same PostgreSQL rows also run an older build (the git
 * ref, built in a temp directory, on its own copy of the database): old and new side by side.
 * `--db FILE`: the seeded SQLite database is kept there and reused (each run writes to a copy).
 *
 * The configurations take turns for `--rounds` rounds (the order reversed every other round,
 * so a drift of the machine's load falls on both sides); the table gives the median of the
 * rounds, the ratios are medians of the per-round ratios. Per row: req/s, latency, the CPU
 * each request cost the server processes and PostgreSQL's processes (from /proc, over the
 * measured seconds: load-independent enough to compare on a shared machine), the time people
 * units spent waiting for each other's locks (the servers' `matchbook_people_lock_*`
 * metrics), and the 1-minute load average when the row started. Servers are measured once
 * `GET /ready` answers 200 (serve listens before its indexes are loaded).
 *
 * Recorded under "## API on PostgreSQL, several processes (bench/api.bench.ts --store postgres)".
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { copySqliteToPg } from '../src/crm/index.js';
import { startPostgres } from '../test/services.js';
import type { Args, prepare as Prepare, toCandidate as ToCandidate } from './api.bench.js';
import { generateCorpus } from './corpus.js';
import { buildBase, commitOf } from './lib/base-build.js';
import { hammerAll } from './lib/hammer.js';
import { updateReadmeSection } from './lib/readme.js';
import { describeMachine, machineInfo, median } from './lib/report.js';
import { cpuSecondsOf, startServer, startFlags, type BenchServer } from './lib/server.js';

const SCALE_SECTION = '## API on PostgreSQL, several processes (bench/api.bench.ts --store postgres)';
const METRICS_KEY = 'bench-metrics-key';
const ENDPOINTS = ['POST /v4/people/find', 'POST /v4/people/findOrCreate'] as const;

/** What this bench takes from api.bench.ts (passed in: that module is the script that runs this one). */
export interface ApiBench {
  readonly prepare: typeof Prepare;
  readonly toCandidate: typeof ToCandidate;
}

/** One configuration: a store, a build, a number of processes. */
interface Config {
  readonly name: string;
  readonly store: 'SQLite' | 'PostgreSQL';
  /** 'new': this checkout; 'old': the --base build. */
  readonly build: 'new' | 'old';
  readonly processes: number;
  readonly db: string;
}

/** One measured row of one round. */
interface Measured {
  reqPerSec: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  /** Non-2xx/3xx answers (a 4xx or 5xx here is a failure of the run). */
  failures: number;
  statuses: Map<string, number>;
  /** CPU ms per request: the matchbook processes, PostgreSQL's (null: in-process SQLite). */
  serverCpuMs: number;
  dbCpuMs: number | null;
  /** People units that took locks, waited >= 1 ms, and the time spent taking them (ms); null: the build reports none. */
  lockUnits: number | null;
  lockWaited: number;
  lockMs: number;
  load: number;
}

/** What the counters say at one moment. */
interface Sample {
  serverCpu: number;
  dbCpu: Map<number, number>;
  lockUnits: number | null;
  lockWaited: number;
  lockSeconds: number;
}

/** A metric's value in a Prometheus text page (null when absent). */
function metric(text: string, name: string): number | null {
  const m = new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text);
  return m === null ? null : Number(m[1]);
}

const load1 = (): number => Math.round((loadavg()[0] ?? 0) * 10) / 10;

/** CPU of the servers, of the database's processes (pg_stat_activity), and the servers' lock metrics. */
async function sample(servers: readonly BenchServer[], db: pg.Pool | null): Promise<Sample> {
  const dbCpu = new Map<number, number>();
  if (db !== null) {
    for (const row of (await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity')).rows) {
      const cpu = cpuSecondsOf(row.pid);
      if (cpu !== null) dbCpu.set(row.pid, cpu);
    }
  }
  let lockUnits: number | null = null;
  let lockWaited = 0;
  let lockSeconds = 0;
  for (const s of servers) {
    const text = await (await fetch(`${s.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_KEY}` } })).text();
    const units = metric(text, 'matchbook_people_lock_units_total');
    if (units !== null) lockUnits = (lockUnits ?? 0) + units;
    lockWaited += metric(text, 'matchbook_people_lock_waited_total') ?? 0;
    lockSeconds += metric(text, 'matchbook_people_lock_wait_seconds_total') ?? 0;
  }
  return { serverCpu: servers.reduce((n, s) => n + (cpuSecondsOf(s.pid) ?? 0), 0), dbCpu, lockUnits, lockWaited, lockSeconds };
}

/** Database CPU between two samples: every process seen at the end, less what it had at the start (0 when new). */
function dbCpuBetween(before: Sample, after: Sample): number {
  let total = 0;
  for (const [pid, cpu] of after.dbCpu) total += cpu - (before.dbCpu.get(pid) ?? 0);
  return total;
}

/**
 * {@link hammerAll} against every server at once, with the servers' and PostgreSQL's CPU and the
 * lock waits sampled around the run.
 */
async function hammerAllSampled(
  servers: readonly BenchServer[],
  db: pg.Pool | null,
  path: string,
  key: string,
  bodies: readonly string[],
  connections: number,
  seconds: number,
): Promise<Measured> {
  const load = load1();
  const before = await sample(servers, db);
  const run = await hammerAll(
    servers.map((s) => s.base),
    path,
    key,
    bodies,
    connections,
    seconds,
  );
  const after = await sample(servers, db);
  const requests = Math.max(1, run.requests);
  // 404 is find's Unmatched answer; any other 4xx or 5xx is a failure of the run.
  const failures = [...run.counts].filter(([code]) => Number(code) >= 400 && code !== '404').reduce((n, [, c]) => n + c, 0);
  return {
    reqPerSec: run.reqPerSec,
    p50: run.p50,
    p99: run.p99,
    requests,
    errors: run.errors,
    failures,
    statuses: new Map(run.counts),
    serverCpuMs: ((after.serverCpu - before.serverCpu) * 1000) / requests,
    dbCpuMs: db === null ? null : (dbCpuBetween(before, after) * 1000) / requests,
    lockUnits: after.lockUnits === null || before.lockUnits === null ? null : after.lockUnits - before.lockUnits,
    lockWaited: after.lockWaited - before.lockWaited,
    lockMs: (after.lockSeconds - before.lockSeconds) * 1000,
    load,
  };
}

/**
 * VACUUM ANALYZE and CHECKPOINT after a copy, so that the first rows do not pay for the
 * autovacuum and checkpoint a bulk load sets off.
 */
async function settle(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('VACUUM ANALYZE');
    await client.query('CHECKPOINT');
  } finally {
    await client.end();
  }
}

const fmt = (n: number, digits = 0): string =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a';
const spread = (xs: readonly number[], digits = 0): string => `${fmt(median(xs), digits)} (${fmt(Math.min(...xs), digits)}-${fmt(Math.max(...xs), digits)})`;
const cpuOf = (m: Measured): number => m.serverCpuMs + (m.dbCpuMs ?? 0);

/** The per-round values of one row (config, endpoint), in round order. */
type Table = Map<string, Measured[]>;
const rowKey = (config: Config, endpoint: string): string => `${config.name}|${endpoint}`;

/** Medians of the per-round ratios a/b (rounds where both ran). */
function ratioOf(table: Table, a: string, b: string, value: (m: Measured) => number): number {
  const x = table.get(a) ?? [];
  const y = table.get(b) ?? [];
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(x.length, y.length); i++) ratios.push(value(x[i] as Measured) / value(y[i] as Measured));
  return ratios.length === 0 ? Number.NaN : median(ratios);
}

/** The issue 17 goals against the medians. */
function goals(table: Table, configs: readonly Config[], processes: number): string[] {
  const named = (store: string, build: string, n: number) => configs.find((c) => c.store === store && c.build === build && c.processes === n);
  const lite = named('SQLite', 'new', 1);
  const pg1 = named('PostgreSQL', 'new', 1);
  const pgN = processes > 1 ? named('PostgreSQL', 'new', processes) : undefined;
  const out: string[] = [];
  const say = (ok: boolean, text: string) => out.push(`- ${ok ? 'met' : '**not met**'}: ${text}`);
  const foc = ENDPOINTS[1];
  if (lite !== undefined && pg1 !== undefined) {
    const r = ratioOf(table, rowKey(pg1, foc), rowKey(lite, foc), (m) => m.reqPerSec);
    say(r >= 0.8, `PostgreSQL findOrCreate with one process >= 0.8x SQLite's req/s: ${r.toFixed(2)}x`);
    const c = ratioOf(table, rowKey(pg1, foc), rowKey(lite, foc), cpuOf);
    const s = ratioOf(table, rowKey(pg1, foc), rowKey(lite, foc), (m) => m.serverCpuMs);
    say(c <= 1.5, `CPU per findOrCreate (matchbook + PostgreSQL) <= 1.5x SQLite's: ${c.toFixed(2)}x (matchbook alone ${s.toFixed(2)}x)`);
  }
  if (pg1 !== undefined && pgN !== undefined) {
    for (const endpoint of ENDPOINTS) {
      const xs = table.get(rowKey(pgN, endpoint)) ?? [];
      const ys = table.get(rowKey(pg1, endpoint)) ?? [];
      const per = xs.map((x, i) => x.reqPerSec / (ys[i]?.reqPerSec ?? Number.NaN));
      say(
        per.every((r) => r >= 1),
        `${endpoint.replace('POST /v4/people/', '')}: ${processes} processes never below one: ${per.map((r) => r.toFixed(2)).join(', ')} per round`,
      );
    }
  }
  for (const c of [pg1, pgN]) {
    if (c === undefined) continue;
    const rows = table.get(rowKey(c, foc)) ?? [];
    const units = rows.reduce((n, m) => n + (m.lockUnits ?? 0), 0);
    const waited = rows.reduce((n, m) => n + m.lockWaited, 0);
    const ms = rows.reduce((n, m) => n + m.lockMs, 0);
    out.push(
      `- lock waits of findOrCreate, ${c.processes} process(es), all rounds: ${waited} of ${units} units waited >= 1 ms; ${(ms / Math.max(1, units)).toFixed(3)} ms per unit on average`,
    );
  }
  const old1 = named('PostgreSQL', 'old', 1);
  if (pg1 !== undefined && old1 !== undefined) {
    for (const endpoint of ENDPOINTS) {
      const r = ratioOf(table, rowKey(pg1, endpoint), rowKey(old1, endpoint), (m) => m.reqPerSec);
      const c = ratioOf(table, rowKey(pg1, endpoint), rowKey(old1, endpoint), cpuOf);
      out.push(
        `- new against old build, 1 process, ${endpoint.replace('POST /v4/people/', '')}: ${r.toFixed(2)}x the req/s, ${c.toFixed(2)}x the CPU per request`,
      );
    }
  }
  return out;
}

/** Parses `--rounds`, `--base`, `--pg`, `--db`. */
function scaleFlags(argv: readonly string[]): { rounds: number; base: string | null; pg: string | null; db: string | null } {
  const value = (name: string): string | null => {
    const i = argv.indexOf(name);
    return i >= 0 ? (argv[i + 1] ?? null) : null;
  };
  const rounds = Number(value('--rounds') ?? 3);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds needs a positive integer');
  return { rounds, base: value('--base'), pg: value('--pg'), db: value('--db') };
}

/** `--store postgres --processes N`: SQLite (1 process) next to PostgreSQL with 1 and N processes (and the --base build's). */
export async function mainScale(api: ApiBench, args: Args, processes: number): Promise<void> {
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const flags = scaleFlags(process.argv);
  const machine = machineInfo();
  const dir = mkdtempSync(join(tmpdir(), 'matchbook-bench-scale-'));
  const cluster = flags.pg !== null ? null : await startPostgres({ durable: true });
  const watches: pg.Pool[] = [];
  try {
    const base = flags.base === null ? null : buildBase(flags.base, dir, log);
    const baseCommit = flags.base === null ? null : commitOf(flags.base);
    const newCommit = commitOf('HEAD');
    const db = join(dir, 'bench.db');
    // --db FILE: seeded there once and reused (copied: the runs below write to their copy).
    const seededAt = flags.db ?? db;
    log(`preparing ${args.size} people in ${seededAt}...`);
    const { key, seedMs, seeded } = await api.prepare(seededAt, args, log);
    if (seededAt !== db) {
      for (const suffix of ['', '-wal', '-shm']) if (existsSync(seededAt + suffix)) copyFileSync(seededAt + suffix, db + suffix);
    }
    const newDatabase = async (): Promise<string> => {
      if (cluster !== null) return cluster.createDatabase();
      const name = `bench_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
      const admin = new pg.Pool({ connectionString: flags.pg as string, max: 1 });
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(flags.pg as string);
      url.pathname = `/${name}`;
      return url.toString();
    };
    const urlNew = await newDatabase();
    const copyStarted = performance.now();
    const copied = await copySqliteToPg(db, urlNew);
    await settle(urlNew);
    const copyMs = performance.now() - copyStarted;
    log(`copied into PostgreSQL in ${(copyMs / 1000).toFixed(1)} s: ${JSON.stringify(copied)}`);
    let urlOld: string | null = null;
    if (base !== null) {
      urlOld = await newDatabase();
      // The old build migrates and copies its own database (its schema may be older).
      execFileSync(process.execPath, [...startFlags(), join(base, 'dist/cli/main.js'), 'db', 'copy', '--from', db, '--to', urlOld], {
        cwd: base,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      await settle(urlOld);
    }
    const corpus = generateCorpus({ seed: args.seed, size: args.size });
    const bodies = (seed: number, count: number) => corpus.queries({ count, seed }).map((q) => JSON.stringify(api.toCandidate(q.candidate)));
    const findBodies = bodies(args.seed + 1, 20_000);

    const configs: Config[] = [{ name: 'SQLite (--sync full), new', store: 'SQLite', build: 'new', processes: 1, db }];
    for (const n of processes > 1 ? [1, processes] : [1]) {
      configs.push({ name: `PostgreSQL, ${n} process${n > 1 ? 'es' : ''}, new`, store: 'PostgreSQL', build: 'new', processes: n, db: urlNew });
      if (urlOld !== null)
        configs.push({ name: `PostgreSQL, ${n} process${n > 1 ? 'es' : ''}, old`, store: 'PostgreSQL', build: 'old', processes: n, db: urlOld });
    }
    const watch = new Map<string, pg.Pool>();
    for (const url of [urlNew, urlOld]) {
      if (url === null) continue;
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      watches.push(pool);
      watch.set(url, pool);
    }

    const table: Table = new Map();
    const startMs: number[] = [];
    for (let round = 0; round < flags.rounds; round++) {
      const order = round % 2 === 0 ? configs : [...configs].reverse();
      for (const config of order) {
        const servers = await Promise.all(
          Array.from({ length: config.processes }, () =>
            startServer(config.db, 'full', {
              env: { MATCHBOOK_METRICS_KEY: METRICS_KEY },
              ...(config.build === 'old' && base !== null ? { repo: base } : {}),
            }),
          ),
        );
        startMs.push(Math.max(...servers.map((s) => s.startMs)));
        const pool = watch.get(config.db) ?? null;
        log(
          `round ${round + 1}/${flags.rounds}: ${config.name} ready in ${(Math.max(...servers.map((s) => s.startMs)) / 1000).toFixed(1)} s (load ${load1()})`,
        );
        try {
          await hammerAllSampled(servers, pool, '/v4/people/find', key, findBodies, args.connections, args.warmup);
          const find = await hammerAllSampled(servers, pool, '/v4/people/find', key, findBodies, args.connections, args.duration);
          // Every database sees each pool once: old and new builds the same pool, 1 and N processes different ones.
          const createBodies = bodies(args.seed + 100 + round * 10 + config.processes, 40_000);
          const create = await hammerAllSampled(servers, pool, '/v4/people/findOrCreate', key, createBodies, args.connections, args.duration);
          for (const [endpoint, m] of [
            [ENDPOINTS[0], find],
            [ENDPOINTS[1], create],
          ] as const) {
            const k = rowKey(config, endpoint);
            table.set(k, [...(table.get(k) ?? []), m]);
            log(
              `  ${endpoint}: ${fmt(m.reqPerSec)} req/s, CPU ${m.serverCpuMs.toFixed(2)} + ${m.dbCpuMs === null ? '-' : m.dbCpuMs.toFixed(2)} ms/req, ` +
                `locks ${m.lockUnits === null ? '-' : `${m.lockWaited}/${m.lockUnits} ${m.lockMs.toFixed(0)} ms`}, load ${m.load}${m.failures + m.errors > 0 ? `, ${m.failures} failed + ${m.errors} errors` : ''}`,
            );
          }
        } finally {
          await Promise.all(servers.map((s) => s.stop()));
        }
      }
    }

    const liteOf = (endpoint: string) => configs.find((c) => c.store === 'SQLite' && table.has(rowKey(c, endpoint)));
    const oldOf = (c: Config) => configs.find((o) => o.store === c.store && o.build === 'old' && o.processes === c.processes);
    const rows: string[] = [];
    for (const endpoint of ENDPOINTS) {
      for (const c of configs) {
        const ms = table.get(rowKey(c, endpoint)) ?? [];
        if (ms.length === 0) continue;
        const lite = liteOf(endpoint);
        const old = c.build === 'new' ? oldOf(c) : undefined;
        const vsLite = lite === undefined || lite === c ? '' : `${ratioOf(table, rowKey(c, endpoint), rowKey(lite, endpoint), (m) => m.reqPerSec).toFixed(2)}x`;
        const cpuLite = lite === undefined || lite === c ? '' : `${ratioOf(table, rowKey(c, endpoint), rowKey(lite, endpoint), cpuOf).toFixed(2)}x`;
        const vsOld =
          old === undefined
            ? ''
            : `${ratioOf(table, rowKey(c, endpoint), rowKey(old, endpoint), (m) => m.reqPerSec).toFixed(2)}x / ${ratioOf(table, rowKey(c, endpoint), rowKey(old, endpoint), cpuOf).toFixed(2)}x`;
        const units = ms.every((m) => m.lockUnits === null) ? null : ms.reduce((n, m) => n + (m.lockUnits ?? 0), 0);
        const locks =
          units === null
            ? '-'
            : `${ms.reduce((n, m) => n + m.lockWaited, 0)}/${units}, ${(ms.reduce((n, m) => n + m.lockMs, 0) / Math.max(1, units)).toFixed(2)} ms/unit`;
        const statuses = new Map<string, number>();
        for (const m of ms) for (const [code, n] of m.statuses) statuses.set(code, (statuses.get(code) ?? 0) + n);
        rows.push(
          `| ${endpoint.replace('POST /v4/people/', '')} | ${c.name} | ${spread(ms.map((m) => m.reqPerSec))} | ${vsLite} | ${fmt(median(ms.map((m) => m.p50)), 1)} | ` +
            `${fmt(median(ms.map((m) => m.p99)))} | ${spread(
              ms.map((m) => m.serverCpuMs),
              2,
            )} | ${
              ms[0]?.dbCpuMs === null
                ? '-'
                : spread(
                    ms.map((m) => m.dbCpuMs ?? 0),
                    2,
                  )
            } | ${cpuLite} | ${vsOld} | ` +
            `${locks} | ${fmt(Math.min(...ms.map((m) => m.load)), 1)}-${fmt(Math.max(...ms.map((m) => m.load)), 1)} | ${ms.reduce((n, m) => n + m.errors + m.failures, 0)} | ` +
            `${[...statuses]
              .sort(([a], [b]) => Number(a) - Number(b))
              .map(([code, n]) => `${code}: ${n}`)
              .join(', ')} |`,
        );
      }
    }
    const section = [
      SCALE_SECTION,
      '',
      `Run on ${describeMachine(machine)}. New build ${newCommit}${baseCommit === null ? '' : `, old build ${baseCommit} (${flags.base})`}.`,
      '',
      `How: \`npm run bench:api -- --store postgres --processes ${processes} --rounds ${flags.rounds}${flags.base === null ? '' : ` --base ${flags.base}`}\`. ${args.size.toLocaleString('en-US')} people of the seeded corpus, seeded into SQLite ` +
        `through \`Crm.findOrCreate\` (${seeded ? `${(seedMs / 1000).toFixed(0)} s` : `earlier, kept with --db`}), then copied into PostgreSQL ${flags.pg !== null ? '(a database created on the server given with --pg)' : '15 (a throwaway local cluster, default settings with fsync on)'} ` +
        `with \`matchbook db copy\`'s code, then VACUUM ANALYZE and CHECKPOINT (${(copyMs / 1000).toFixed(1)} s)${base === null ? '' : '; the old build copies the same SQLite file into a database of its own'}. ` +
        `Each configuration: N real \`matchbook serve\` processes, measured once \`GET /ready\` answers (${(median(startMs) / 1000).toFixed(1)} s median start), ` +
        `autocannon in the bench process with ${args.connections} connections split evenly over the processes (as a round-robin load balancer would), ` +
        `${args.duration} s per row after a ${args.warmup} s warm-up of find; find: 20,000 noisy queries (30% of people not stored); findOrCreate: a fresh pool of ` +
        '40,000 per round and process count (the old and new builds get the same pool, each in its own database), so it really creates. ' +
        `The configurations take turns for ${flags.rounds} rounds (order reversed every other round); each cell is the median of the rounds (min-max in brackets), ` +
        'every ratio the median of the per-round ratios. req/s is the sum over the processes, p50 their mean, p99 the worst. CPU ms/req from /proc over the ' +
        'measured seconds: the matchbook processes, and PostgreSQL\'s (its backends and background processes); "CPU x SQLite" compares their sum with ' +
        'SQLite\'s one process. "new/old": req/s and CPU per request of this build against the old one. Lock waits: people units that waited >= 1 ms for ' +
        "another's locks, of those that took locks, and the mean time taking them (the servers' metrics; the old build reports none). Load: the 1-minute " +
        'average when each row started (lowest-highest). Everything (PostgreSQL, the servers, autocannon) shares the same 2 cores, so a second process ' +
        'cannot add CPU here.',
      '',
      '| endpoint | configuration | req/s | x SQLite | p50 ms | p99 ms | CPU ms/req matchbook | CPU ms/req PostgreSQL | CPU x SQLite | new/old req/s / CPU | lock waits | load | errors | statuses |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
      'Issue 17 goals in this run (medians of the rounds):',
      '',
      ...goals(table, configs, processes),
      '',
    ].join('\n');
    process.stdout.write(`${section}\n`);
    if (args.record) {
      updateReadmeSection(SCALE_SECTION, section);
      log('recorded in bench/README.md');
    }
  } finally {
    await Promise.all(watches.map((p) => p.end()));
    cluster?.stop();
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  }
}

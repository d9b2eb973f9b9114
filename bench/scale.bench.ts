/**
 * Proof at size (issue 17 item 3): N synthetic people loaded into PostgreSQL with COPY, then
 * find and findOrCreate through 2 real `matchbook serve --index database` processes, with
 * each process's start time (spawn to GET /ready) and resident memory.
 *
 *   npm run bench:scale -- [--sizes 1000000,3000000] [--processes 2] [--duration 20] [--connections 10] [--rate 100] [--pg URL [--reuse]] [--record]
 *
 * Default size 10M. Each size gets a fresh database: a throwaway cluster (test/services.ts,
 * fsync on, in a private temp directory, removed at the end) unless `--pg URL` names an
 * existing empty database (then only the first size is run). People come from the seeded
 * corpus (bench/corpus.ts; past its 4M people, further corpora with other seeds), go through
 * the API's own validation and createPerson, and are filed with the engine's keys
 * (DatabaseRetrieval.keysOf), exactly what findOrCreate stores; COPY goes through `psql \copy`.
 * Goals: find p99 <= 20 ms, findOrCreate p99 <= 50 ms, start <= 5 s, RSS <= 500 MB per process.
 * Each endpoint is measured twice: as fast as the servers answer (throughput; its p99 is mostly
 * the queue of 10 connections on a saturated machine), and at `--rate` requests per second in
 * all (default 100: the latency a request sees when the machine is not saturated).
 * `--reuse` (with `--pg`): the database holds the people of an earlier run (its tenant
 * `scale`), so measure again without loading, e.g. at a quieter hour.
 * `--record` writes the result under "## Tenants bigger than memory (bench/scale.bench.ts)".
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { loadavg } from 'node:os';
import pg from 'pg';
import { Crm } from '../src/crm/index.js';
import { DatabaseRetrieval } from '../src/crm/db-retrieval.js';
import { createPerson } from '../src/crm/person.js';
import { DEFAULT_CONTEXT_SETTINGS } from '../src/crm/settings.js';
import { encodeNormalization, engineInput } from '../src/crm/stored-normalization.js';
import { validateCandidate } from '../src/crm/validate.js';
import { PgStore, type PersonRecord, type Scope } from '../src/store/index.js';
import { PERSON_WRITE_COLUMNS, personValues } from '../src/store/rows.js';
import { startPostgres, type PgServer } from '../test/services.js';
import { toCandidate } from './api.bench.js';
import { generateCorpus, MAX_CORPUS_SIZE } from './corpus.js';
import { updateReadmeSection } from './lib/readme.js';
import { describeMachine, machineInfo } from './lib/report.js';
import { cpuSecondsOf, ensureBuilt, rssOf, startServer, type BenchServer } from './lib/server.js';
import { hammerAll } from './lib/hammer.js';

const SECTION = '## Tenants bigger than memory (bench/scale.bench.ts)';
const NAME_SHARDS = 16;

interface Args {
  sizes: number[];
  processes: number;
  duration: number;
  connections: number;
  seed: number;
  pg: string | null;
  reuse: boolean;
  /** Requests per second of the set-load rows. */
  rate: number;
  record: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  const get = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const num = (name: string, dflt: number): number => {
    const v = Number(get(name) ?? dflt);
    if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} needs a positive number`);
    return v;
  };
  return {
    sizes: (get('--sizes') ?? '10000000')
      .split(',')
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0),
    processes: num('--processes', 2),
    duration: num('--duration', 20),
    connections: num('--connections', 10),
    seed: num('--seed', 42),
    pg: get('--pg') ?? null,
    reuse: argv.includes('--reuse'),
    rate: num('--rate', 100),
    record: argv.includes('--record'),
  };
}

/** A CSV field for COPY (FORMAT csv): NULL is an unquoted empty field. */
function csv(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return `"${String(v)}"`;
  if (typeof v !== 'string') throw new TypeError(`not a COPY field: ${typeof v}`);
  return `"${v.replace(/"/g, '""')}"`;
}

/** `psql URL -c "\copy table (cols) FROM STDIN (FORMAT csv)"`, written to with back-pressure. */
class Copy {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly done: Promise<void>;
  constructor(url: string, table: string, columns: readonly string[]) {
    this.child = spawn('psql', [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', `\\copy ${table} (${columns.join(', ')}) FROM STDIN WITH (FORMAT csv)`]);
    let err = '';
    this.child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    this.child.stdout.resume();
    this.done = new Promise((resolve, reject) => this.child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql \\copy ${table}: ${err}`)))));
  }
  async write(text: string): Promise<void> {
    if (!this.child.stdin.write(text)) await new Promise((resolve) => this.child.stdin.once('drain', resolve));
  }
  end(): Promise<void> {
    this.child.stdin.end();
    return this.done;
  }
}

/** Loads `size` people into the scope with COPY; answers seconds taken and rows of keys. */
async function load(
  url: string,
  scope: Scope,
  size: number,
  seed: number,
  log: (s: string) => void,
): Promise<{ seconds: number; keys: number; bytes: number }> {
  const started = performance.now();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const store = await PgStore.open({ url, poolSize: 2 });
  const retrieval = new DatabaseRetrieval(scope, store.matchKeys, DEFAULT_CONTEXT_SETTINGS.defaultCountry);
  try {
    // Bulk load into a key table without its primary key; the key is built once at the end.
    await admin.query('ALTER TABLE match_keys DROP CONSTRAINT match_keys_pkey');
    const peopleCols = ['crm_id', 'tenant_id', 'context', ...PERSON_WRITE_COLUMNS, 'change_seq'];
    const people = new Copy(url, 'people', peopleCols);
    const keys = new Copy(url, 'match_keys', ['tenant_id', 'ctx', 'hash', 'crm_id', 'seq']);
    const owners = new Copy(url, 'match_key_owners', ['tenant_id', 'ctx', 'crm_id', 'hashes', 'first_name', 'last_name', 'seq']);
    const counts = new Map<string, number>();
    const count = (kind: number, name: string | null, shard: number): void => {
      if (name === null) return;
      const k = `${kind}\t${shard}\t${name}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    };
    let crmId = 0;
    let phoneId = 0;
    let addressId = 0;
    let keyRows = 0;
    const vc = { context: scope.context, settings: DEFAULT_CONTEXT_SETTINGS };
    const now = '2026-01-01T00:00:00Z';
    for (let part = 0; crmId < size; part++) {
      const corpus = generateCorpus({ seed: seed + part * 7919, size: Math.min(MAX_CORPUS_SIZE, size - crmId) });
      let p: string[] = [];
      let k: string[] = [];
      let o: string[] = [];
      for (const person of corpus.people()) {
        const valid = validateCandidate(toCandidate(person.contact), vc);
        if (!valid.ok) continue;
        const created = createPerson(valid.value, now);
        const record: PersonRecord = {
          ...created,
          crmId: ++crmId,
          phones: created.phones.map((x) => ({ ...x, phoneId: ++phoneId })),
          addresses: created.addresses.map((x) => ({ ...x, addressId: ++addressId })),
        };
        const contact = retrieval.normalize(engineInput(record));
        const filed = retrieval.keysOf(contact);
        const values = personValues(record, { fingerprint: retrieval.fingerprint, json: encodeNormalization(contact) });
        p.push([crmId, scope.tenantId, scope.context, ...values, crmId].map(csv).join(','));
        for (const h of filed.hashes) k.push(`${scope.tenantId},0,${h},${crmId},${crmId}`);
        o.push(`${scope.tenantId},0,${crmId},"{${filed.hashes.join(',')}}",${csv(filed.first)},${csv(filed.last)},${crmId}`);
        keyRows += filed.hashes.length;
        const shard = crmId % NAME_SHARDS;
        count(0, '', shard);
        count(1, filed.first, shard);
        count(2, filed.last, shard);
        if (p.length >= 2000) {
          await Promise.all([people.write(`${p.join('\n')}\n`), keys.write(`${k.join('\n')}\n`), owners.write(`${o.join('\n')}\n`)]);
          p = [];
          k = [];
          o = [];
          if (crmId % 100_000 < 2000)
            log(
              `  ${crmId.toLocaleString('en-US')} people, ${keyRows.toLocaleString('en-US')} keys (${((performance.now() - started) / 1000).toFixed(0)} s, load ${loadavg()[0]?.toFixed(1)})`,
            );
        }
        if (crmId >= size) break;
      }
      if (p.length > 0) await Promise.all([people.write(`${p.join('\n')}\n`), keys.write(`${k.join('\n')}\n`), owners.write(`${o.join('\n')}\n`)]);
    }
    await Promise.all([people.end(), keys.end(), owners.end()]);
    const names = new Copy(url, 'match_name_counts', ['tenant_id', 'ctx', 'kind', 'name', 'shard', 'n']);
    for (const [key, n] of counts) {
      const [kind, shard, name] = key.split('\t');
      await names.write(`${scope.tenantId},0,${kind},${csv(name)},${shard},${n}\n`);
    }
    await names.end();
    log(
      `  copied ${crmId.toLocaleString('en-US')} people and ${keyRows.toLocaleString('en-US')} keys in ${((performance.now() - started) / 1000).toFixed(0)} s; building the key index...`,
    );
    await admin.query("SET maintenance_work_mem = '1GB'");
    await admin.query('ALTER TABLE match_keys ADD PRIMARY KEY (tenant_id, ctx, hash, crm_id) INCLUDE (seq)');
    await admin.query(
      `SELECT setval('people_crm_id_seq', $1), setval('people_changes', $1), setval('match_key_filings', $1),
      setval('phone_ids', GREATEST($2, 1)), setval('address_ids', GREATEST($3, 1))`,
      [crmId, phoneId, addressId],
    );
    await admin.query('VACUUM ANALYZE');
    await store.matchKeys.keysComplete(scope, retrieval.keysFingerprint);
    const bytes = Number((await admin.query('SELECT pg_database_size(current_database()) AS b')).rows[0]?.b ?? 0);
    return { seconds: (performance.now() - started) / 1000, keys: keyRows, bytes };
  } finally {
    await store.close();
    await admin.end();
  }
}

/** What an earlier run loaded (--reuse): key rows and database size; the load time is not known (NaN). */
async function loadedBefore(url: string): Promise<{ seconds: number; keys: number; bytes: number }> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // The planner's estimate: counting 100M+ rows would take minutes.
    const keys = Number((await admin.query("SELECT sum(reltuples) AS n FROM pg_class WHERE relname LIKE 'match_keys%' AND relkind = 'r'")).rows[0]?.n ?? 0);
    const bytes = Number((await admin.query('SELECT pg_database_size(current_database()) AS b')).rows[0]?.b ?? 0);
    return { seconds: Number.NaN, keys, bytes };
  } finally {
    await admin.end();
  }
}

/** Polls GET /ready until it answers 200; milliseconds since `since`. */
async function readyAfter(server: BenchServer, since: number): Promise<number> {
  for (;;) {
    const r = await fetch(`${server.base}/ready`).catch(() => null);
    if (r?.status === 200) return performance.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface SizeResult {
  size: number;
  loadSeconds: number;
  keys: number;
  dbGiB: number;
  startMs: number[];
  rssStartMiB: number[];
  rssEndMiB: number[];
  /** Rows: `rate` null as fast as answers come, else the set load (req/s). */
  runs: {
    endpoint: string;
    rate: number | null;
    reqPerSec: number;
    p50: number;
    p99: number;
    errors: number;
    statuses: string;
    load: number;
    cpuUs: number | null;
  }[];
}

async function measureSize(args: Args, size: number, cluster: PgServer | null, log: (s: string) => void): Promise<SizeResult> {
  const url = args.pg ?? (await (cluster as PgServer).createDatabase());
  const crm = await Crm.open({ db: url, loadIndexes: false });
  const reused = args.reuse ? ((await crm.listTenants()).find((t) => t.name === 'scale') ?? null) : null;
  if (args.reuse && reused === null) {
    await crm.close();
    throw new Error('--reuse: the database has no tenant "scale" (load it first: the same command without --reuse)');
  }
  const tenant = reused ?? (await crm.createTenant('scale'));
  const key = (await crm.createKey({ tenant: 'scale', tier: 'Internal' })).key;
  await crm.close();
  const scope: Scope = { tenantId: tenant.id, context: 'voterfile' };
  log(`${size.toLocaleString('en-US')} people: ${reused === null ? 'loading...' : 'loaded by an earlier run (--reuse)'}`);
  const loaded = reused === null ? await load(url, scope, size, args.seed, log) : await loadedBefore(url);
  const mib = (b: number | null) => Math.round((b ?? 0) / 2 ** 20);
  const servers: BenchServer[] = [];
  const startMs: number[] = [];
  ensureBuilt(); // before the clocks below start: a start time is the process's own
  for (let i = 0; i < args.processes; i++) {
    const since = performance.now();
    const s = await startServer(url, 'full', { env: { MATCHBOOK_INDEX: 'database' } });
    servers.push(s);
    startMs.push(await readyAfter(s, since));
  }
  const rssStartMiB = servers.map((s) => mib(rssOf(s.pid)));
  log(`  ${args.processes} processes ready in ${startMs.map((ms) => (ms / 1000).toFixed(1)).join(', ')} s; RSS ${rssStartMiB.join(', ')} MiB`);
  const runs: SizeResult['runs'] = [];
  let rssEndMiB: number[];
  try {
    const corpus = generateCorpus({ seed: args.seed, size: Math.min(size, MAX_CORPUS_SIZE) });
    const bodies = (seed: number, count: number) => corpus.queries({ count, seed }).map((q) => JSON.stringify(toCandidate(q.candidate)));
    const bases = servers.map((s) => s.base);
    const findBodies = bodies(args.seed + 1, 20_000);
    await hammerAll(bases, '/v4/people/find', key, findBodies, args.connections, 5);
    // A reused database gets other findOrCreate bodies than the people its earlier runs created.
    const createSeed = args.seed + 2 + (reused === null ? 0 : 1000 + (Math.floor(Date.now() / 1000) % 1000));
    for (const rate of [null, args.rate]) {
      for (const [endpoint, pool] of [
        ['/v4/people/find', findBodies],
        ['/v4/people/findOrCreate', bodies(createSeed + (rate === null ? 0 : 1), 40_000)],
      ] as const) {
        const load = loadavg()[0] ?? 0;
        log(`  ${endpoint} ${rate === null ? 'as fast as answered' : `at ${rate} req/s`}: measuring (load ${load.toFixed(1)})`);
        const cpu = () => servers.reduce((sum, s) => sum + (cpuSecondsOf(s.pid) ?? Number.NaN), 0);
        const before = cpu();
        const run = await hammerAll(bases, endpoint, key, pool, args.connections, args.duration, rate ?? undefined);
        const used = cpu() - before;
        const requests = run.reqPerSec * args.duration;
        runs.push({ endpoint: `POST ${endpoint}`, rate, load, cpuUs: Number.isFinite(used) && requests > 0 ? (used * 1e6) / requests : null, ...run });
      }
    }
  } finally {
    rssEndMiB = servers.map((s) => mib(rssOf(s.pid)));
    await Promise.all(servers.map((s) => s.stop()));
  }
  return { size, loadSeconds: loaded.seconds, keys: loaded.keys, dbGiB: loaded.bytes / 2 ** 30, startMs, rssStartMiB, rssEndMiB, runs };
}

function render(args: Args, results: readonly SizeResult[], machine: string): string {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const rows = results.flatMap((r) =>
    r.runs.map(
      (run) =>
        `| ${n(r.size)} | ${run.endpoint} | ${run.rate === null ? 'as fast as answered' : `${n(run.rate)} req/s`} | ${n(run.reqPerSec)} | ${run.p50.toFixed(1)} | ${run.p99} | ${run.cpuUs === null ? '-' : n(run.cpuUs)} | ${run.errors} | ${run.load.toFixed(1)} | ${run.statuses} |`,
    ),
  );
  const sizes = results.map(
    (r) =>
      `| ${n(r.size)} | ${n(r.keys)} | ${r.dbGiB.toFixed(1)} | ${Number.isNaN(r.loadSeconds) ? 'earlier run' : n(r.loadSeconds)} | ${r.startMs.map((ms) => (ms / 1000).toFixed(1)).join(', ')} | ${r.rssStartMiB.join(', ')} | ${r.rssEndMiB.join(', ')} |`,
  );
  return [
    SECTION,
    '',
    `Run on ${machine}.`,
    '',
    `How: \`npm run bench:scale -- --sizes ${args.sizes.join(',')}\`. Each size: a fresh database on ${args.pg === null ? 'a throwaway PostgreSQL 15 cluster (default settings, shared_buffers 128 MB, fsync on)' : 'the database given with --pg'}, ` +
      'the seeded corpus loaded with COPY (validated and stored as findOrCreate would, keys filed by the engine), then ' +
      `${args.processes} \`matchbook serve --index database\` processes; autocannon with ${args.connections} connections split over them, ${args.duration} s per row after 5 s of find, ` +
      `each endpoint as fast as the servers answer (throughput; on a saturated machine p99 is mostly the connections' queue) and at ${args.rate} req/s in all (latency below saturation). ` +
      (args.reuse ? 'The database was loaded by an earlier run (--reuse; its load time is not measured again). ' : '') +
      "find: 20,000 noisy queries (30% of people not stored); findOrCreate: 40,000 fresh ones (it creates). req/s summed, p50 the mean, p99 the worst process; server CPU: both processes' CPU time over the row's requests (PostgreSQL's not counted). " +
      'Start: spawn to GET /ready 200. Everything shares the 2 cores; load is the 1-minute load average when the row started.',
    '',
    '| people | key rows | database GiB | load (COPY + index) s | start s per process | RSS at start MiB | RSS at end MiB |',
    '|---|---|---|---|---|---|---|',
    ...sizes,
    '',
    '| people | endpoint | offered load | req/s | p50 ms | p99 ms | server CPU µs/req | errors | load | statuses |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const machine = describeMachine(machineInfo());
  const cluster = args.pg === null ? await startPostgres({ durable: true }) : null;
  const results: SizeResult[] = [];
  try {
    for (const size of args.pg === null ? args.sizes : args.sizes.slice(0, 1)) results.push(await measureSize(args, size, cluster, log));
  } finally {
    cluster?.stop();
  }
  const section = render(args, results, machine);
  process.stdout.write(`${section}\n`);
  if (args.record) {
    updateReadmeSection(SECTION, section);
    log('recorded in bench/README.md');
  }
}

await main();

/**
 * In-process import harness (no HTTP): the bulk import worker on a temp SQLite database, for
 * CPU profiles and CPU per row without the server's noise.
 *
 *   npx tsx bench/import-profile.ts [--size 100000] [--rows 100000] [--sync full|normal] [--slice 1] [--digest out.txt]
 *   npx tsx bench/import-profile.ts --prof measured.cpuprofile   (a CPU profile of the measured job only)
 *   npx tsx bench/import-profile.ts --canvass   (the measured job with CanvassResults too: wall time against CPU time)
 *
 * Seeds `--size` corpus people with one CreateOrUpdateContact job, then runs the measured job
 * (`--rows` noisy queries, as bench/import.bench.ts) and prints wall time and CPU per row of
 * each. `--digest` writes the people (with their identifier rows), the review queue's pairs,
 * the id sequences and the result rows (to compare two versions of the code: the same input
 * gives the same file; the clock is injected, so timestamps are the same too).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { BulkImports, Crm, ImportRunner } from '../src/crm/index.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import { generateCorpus } from './corpus.js';
import { csvOf } from './lib/import-csv.js';

const argv = process.argv.slice(2);
const arg = (name: string, dflt: string): string => (argv.includes(name) ? argv[argv.indexOf(name) + 1]! : dflt);
const size = Number(arg('--size', '100000'));
const rows = Number(arg('--rows', '100000'));
const sync = arg('--sync', 'full') === 'normal' ? 'NORMAL' : 'FULL';
const sliceMs = Number(arg('--slice', '1'));
const digest = arg('--digest', '');
const prof = arg('--prof', '');
const canvass = argv.includes('--canvass');

const dir = mkdtempSync(join(tmpdir(), 'matchbook-import-profile-'));
try {
  let tick = Date.parse('2026-01-01T00:00:00Z');
  const crm = await Crm.open({ db: join(dir, 'p.db'), synchronous: sync, now: () => new Date(tick) });
  const store = crm.store;
  if (!(store instanceof SqliteStore)) throw new Error('import-profile measures the SQLite store');
  await crm.createTenant('bench');
  const { key } = await crm.createKey({ tenant: 'bench', tier: 'Internal', contexts: ['campaign'], defaultContext: 'campaign' });
  const ctx = { tenantId: (await crm.authenticate(key))!.tenantId, context: 'campaign' as const };
  const imports = new BulkImports(crm, null, () => false);
  const runner = new ImportRunner({
    crm,
    owner: 'profile',
    fetchUrl: () => {
      throw new Error('no fetch');
    },
    limits: { maxBytes: 1e9, maxZipRatio: 100 },
    sliceMs,
  });
  const corpus = generateCorpus({ seed: 42, size });
  const run = async (name: string, csv: string, profile = false, withCanvass = false): Promise<number> => {
    const up = await imports.saveUpload(
      ctx,
      'bench.csv',
      (async function* () {
        yield Buffer.from(csv);
      })(),
    );
    const id = await imports.createJob(
      ctx,
      {
        file: { fileName: 'bench.csv', hasHeader: true, hasQuotes: true, columnDelimiter: 'Csv', sourceUrl: `http://origin/v4/bulkImportFiles/${up.token}` },
        actions: [
          {
            resourceType: 'Contacts',
            actionType: 'loadMappedFile',
            mappingTypes: withCanvass
              ? [{ name: 'CreateOrUpdateContact' }, { name: 'CanvassResults', fieldValueMappings: [{ fieldName: 'ResultID', staticValue: '14' }] }]
              : [{ name: 'CreateOrUpdateContact' }],
          },
        ],
      },
      'http://origin',
    );
    const job = await crm.store.claimImportJob('profile', Date.now(), 60_000);
    const session = profile ? new Session() : null;
    if (session !== null) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await runner.run(job!);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    if (session !== null) {
      const { profile: p } = await session.post('Profiler.stop');
      writeFileSync(prof, JSON.stringify(p));
      session.disconnect();
    }
    const view = await imports.getJob(ctx, id);
    const n = view?.rowsTotal ?? 0;
    const us = (cpu.user + cpu.system) / n;
    process.stderr.write(
      `${name}: ${n} rows ${seconds.toFixed(1)} s ${Math.round(n / seconds)} rows/s, CPU ${Math.round(us)} µs/row (user ${Math.round(cpu.user / n)}, sys ${Math.round(cpu.system / n)}), ${view?.status} failed ${view?.rowsFailed}, commits ${store.stats.commits} commit ms ${Math.round(store.stats.commitMs)}\n`,
    );
    tick += 3_600_000;
    return id;
  };
  const seedId = await run(
    'seed',
    csvOf(
      (function* people() {
        for (const p of corpus.people()) yield p.contact;
      })(),
    ),
  );
  const measuredId = await run(
    canvass ? 'measured with CanvassResults' : 'measured',
    csvOf(corpus.queries({ count: rows, seed: 43 }).map((q) => q.candidate)),
    prof !== '',
    canvass,
  );
  if (digest !== '') {
    const db = store.db;
    const out: string[] = [];
    for (const r of db.prepare('SELECT * FROM people ORDER BY crm_id').iterate() as Iterable<Record<string, unknown>>) out.push(JSON.stringify(r));
    // What else a row writes: the identifier rows, the review queue's pairs, the id sequences.
    for (const table of ['person_identifiers ORDER BY crm_id, type_key, external_id_key', 'possible_matches ORDER BY id', 'sequences ORDER BY name']) {
      for (const r of db.prepare(`SELECT * FROM ${table}`).iterate() as Iterable<Record<string, unknown>>) out.push(JSON.stringify(r));
    }
    for (const jobId of [seedId, measuredId]) {
      for (const r of db
        .prepare('SELECT row_no, steps_done, crm_id, outcomes, included FROM bulk_import_rows WHERE job_id = ? ORDER BY row_no')
        .iterate(jobId) as Iterable<Record<string, unknown>>)
        out.push(JSON.stringify(r));
      out.push(JSON.stringify(db.prepare('SELECT status, rows_total, rows_done, rows_failed, result_parts FROM bulk_import_jobs WHERE id = ?').get(jobId)));
    }
    const text = `${out.join('\n')}\n`;
    writeFileSync(digest, text);
    process.stderr.write(`digest ${createHash('sha256').update(text).digest('hex').slice(0, 16)} (${out.length} lines) -> ${digest}\n`);
  }
  await crm.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Index load at start: how long `Crm.open` takes to read N stored people from SQLite and
 * build the in-memory engine index (issue 3: "measure and report the load time for 1M").
 *
 * 1. Generates N people of the seeded benchmark corpus (bench/corpus.ts) and stores them
 *    through the CRM's own validation and person model, straight into a temp SQLite file
 *    (batched transactions; generation is not timed).
 * 2. Times `Crm.open` on that file (migrations check + settings + keyset scan + index build),
 *    with memory before and after, then checks a few finds against the loaded index.
 *
 *   tsx bench/index-load.ts [--size 1000000] [--db FILE] [--reuse] [--keep] [--readme]
 *
 * `--reuse` skips generation when FILE already holds the people; `--keep` leaves the temp
 * file; `--skip-stale` skips the second, stale-keys open; `--readme` writes the result into
 * its section of bench/README.md. Progress goes to stderr as each phase ends.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPerson } from '../src/crm/person.js';
import { encodeNormalization, engineInput, normalizerFingerprint } from '../src/crm/stored-normalization.js';
import { validateCandidate } from '../src/crm/validate.js';
import { Crm, DEFAULT_CONTEXT_SETTINGS } from '../src/crm/index.js';
import { SqliteStore, type Scope } from '../src/store/index.js';
import { ContactIndex, type ContactInput } from '../src/engine/index.js';
import { generateCorpus } from './corpus.js';
import { updateReadmeSection } from './lib/readme.js';
import { describeMachine, machineInfo } from './lib/report.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '1000000' },
    db: { type: 'string' },
    reuse: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    readme: { type: 'boolean', default: false },
    'skip-stale': { type: 'boolean', default: false },
    seed: { type: 'string', default: '42' },
  },
});
const size = Number(values.size);
const seed = Number(values.seed);
const dir = values.db === undefined ? mkdtempSync(join(tmpdir(), 'matchbook-index-load-')) : null;
const db = values.db ?? join(dir as string, 'people.db');

function toBody(c: ContactInput): Record<string, unknown> {
  return {
    firstName: c.firstName,
    middleName: c.middleName,
    lastName: c.lastName,
    suffix: c.suffix,
    dateOfBirth: c.dateOfBirth,
    emails: (c.emails ?? []).map((email) => ({ email })),
    phones: (c.phones ?? []).map((p) => (typeof p === 'string' ? { phoneNumber: p } : p)),
    addresses: c.addresses ?? [],
  };
}

const mb = (bytes: number): string => `${Math.round(bytes / 1024 / 1024)} MB`;

async function generate(): Promise<{ stored: number; seconds: number }> {
  const started = performance.now();
  const store = await SqliteStore.open({ path: db, synchronous: 'NORMAL' });
  const tenant = await store.createTenant('bench', '2024-01-01T00:00:00Z');
  const scope: Scope = { tenantId: tenant.id, context: 'voterfile' };
  const vc = { context: 'voterfile' as const, settings: DEFAULT_CONTEXT_SETTINGS };
  // The server stores each person's normalization with the write; do the same.
  const normalizer = new ContactIndex({ defaultCountry: DEFAULT_CONTEXT_SETTINGS.defaultCountry });
  const fingerprint = normalizerFingerprint(normalizer);
  let stored = 0;
  store.db.exec('BEGIN');
  for (const p of generateCorpus({ seed, size }).people()) {
    const body = toBody(p.contact);
    let result = validateCandidate(body, vc);
    // Keep the person when one of their values is invalid: drop the bad collections.
    if (!result.ok) result = validateCandidate({ ...body, phones: [], emails: [], dateOfBirth: null }, vc);
    if (!result.ok) continue;
    const person = createPerson(result.value, '2024-01-01T00:00:00Z');
    const normalization = { fingerprint, json: encodeNormalization(normalizer.normalize(engineInput(person))) };
    await store.writeScope(scope, (writer) => writer.insertPerson(person, normalization));
    stored++;
    if (stored % 20000 === 0) {
      store.db.exec('COMMIT');
      store.db.exec('BEGIN');
      if (stored % 200000 === 0) process.stderr.write(`  generated ${stored}\n`);
    }
  }
  store.db.exec('COMMIT');
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  await store.close();
  return { stored, seconds: (performance.now() - started) / 1000 };
}

async function main(): Promise<void> {
  const machine = describeMachine(machineInfo());
  let generated: { stored: number; seconds: number } | null = null;
  if (!(values.reuse && existsSync(db))) {
    process.stderr.write(`generating ${size} people into ${db}\n`);
    generated = await generate();
    process.stderr.write(`generated ${generated.stored} people in ${generated.seconds.toFixed(1)} s\n`);
  }
  const fileSize = statSync(db).size;

  globalThis.gc?.();
  const before = process.memoryUsage();
  const started = performance.now();
  const crm = await Crm.open({ db });
  const seconds = (performance.now() - started) / 1000;
  globalThis.gc?.();
  const after = process.memoryUsage();
  process.stderr.write(`Crm.open with stored normalizations: ${seconds.toFixed(1)} s, heap ${mb(after.heapUsed)}, RSS ${mb(after.rss)}\n`);

  // Sanity: the loaded index answers.
  const tenant = (await crm.listTenants())[0];
  const ctx = { tenantId: tenant?.id ?? 1, context: 'voterfile' as const };
  const people = tenant?.people.voterfile ?? 0;
  let matched = 0;
  let tried = 0;
  const findStart = performance.now();
  for (const p of generateCorpus({ seed, size: Math.min(size, 1000) }).people()) {
    tried++;
    try {
      if ((await crm.find(ctx, toBody(p.contact))).status === 'Matched') matched++;
    } catch {
      // an invalid generated value: not a load question
    }
  }
  const findMs = (performance.now() - findStart) / tried;
  await crm.close();

  process.stderr.write(`re-find: ${matched}/${tried} matched, ${findMs.toFixed(2)} ms each\n`);

  // Stale: every stored normalization stale (as after an engine upgrade): re-normalize and store new ones.
  let coldSeconds: number | null = null;
  if (!values['skip-stale']) {
    const invalidate = await SqliteStore.open({ path: db });
    invalidate.db.exec('UPDATE people SET match_fp = 0');
    await invalidate.close();
    const coldStart = performance.now();
    await (await Crm.open({ db })).close();
    coldSeconds = (performance.now() - coldStart) / 1000;
    process.stderr.write(`Crm.open with stale normalizations: ${coldSeconds.toFixed(1)} s\n`);
  }

  const lines = [
    '## Index load at start (bench/index-load.ts)',
    '',
    `Machine: ${machine}.`,
    '',
    '| people | SQLite file | Crm.open, normalizations stored | rate | heap before -> after | RSS after | Crm.open, normalizations stale (re-normalize + rewrite) | re-find of stored people |',
    '|---|---|---|---|---|---|---|---|',
    `| ${people.toLocaleString('en-US')} | ${mb(fileSize)} | ${seconds.toFixed(1)} s | ${Math.round(people / seconds).toLocaleString('en-US')} people/s | ${mb(before.heapUsed)} -> ${mb(after.heapUsed)} | ${mb(after.rss)} | ${coldSeconds === null ? 'not run' : `${coldSeconds.toFixed(1)} s`} | ${matched}/${tried} matched, ${findMs.toFixed(2)} ms each |`,
    '',
    'Cached: the normal start (every write stores the engine normalization of its person). Stale: the first start after an engine change or a new default country (src/crm/stored-normalization.ts).',
    `Generation (not timed above): ${generated === null ? 'reused file' : `${generated.stored.toLocaleString('en-US')} people stored through validation and the person model in ${generated.seconds.toFixed(0)} s`}.`,
    'Run: `tsx bench/index-load.ts --size 1000000` (add `--expose-gc` via NODE_OPTIONS for exact heap figures).',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (values.readme) updateReadmeSection(lines[0] as string, lines.join('\n'));
  if (dir !== null && !values.keep) rmSync(dir, { recursive: true, force: true });
}

await main();

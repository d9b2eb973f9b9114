/**
 * `npm run eval:api:files`: the API's find-or-create on labelled files it was not built
 * around. Each labelled set `npm run eval` scores (FEBRL 1-4, Splink's fake_1000 and the
 * seeded messy files) becomes a find-or-create suite, the way a client replays its history:
 * - its rows become Match Candidates (the CLI's header mapping, then the contract's fields;
 *   dates of birth sent as ISO 8601, a date the contract refuses left out);
 * - a seeded 80% of its true persons get one record stored with findOrCreate (FEBRL's
 *   "-org" row where there is one, else the person's first row), in a shuffled order;
 * - every other row is sent to find: it is right when it matches its person's stored record,
 *   or, for a person never stored (the other 20%), when it matches no one. Possible is not a
 *   match. A row below the contract's minimum combinations is left out (not decidable).
 * "Wrong person" counts finds that matched someone else's record, plus seed records that
 * findOrCreate merged into another person's. P: of the finds that matched, the share that
 * matched the right record; R: of the rows whose person was stored, the share matched to it.
 *
 *   npx tsx bench/api-files.ts [--only NAME] [--seed N] [--failures N] [--json]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Crm, CrmError, type CallContext } from '../src/crm/index.js';
import { normalizeDate, type ContactInput } from '../src/engine/index.js';
import { openCsv } from '../src/files/csv-reader.js';
import { mapHeaders } from '../src/files/header-map.js';
import { compileRowLayout, rowToContact } from '../src/files/row-contact.js';
import { toCandidate } from './api.bench.js';
import { messySets, publicSets, type EvalSet } from './eval.js';
import { Rng } from './lib/prng.js';

/** One labelled row: its true person and the body a client would send. */
interface Row {
  readonly person: string;
  readonly id: string;
  readonly body: Record<string, unknown>;
}

/** One set's result. */
export interface FilesSuiteResult {
  readonly set: string;
  readonly persons: number;
  readonly seeded: number;
  readonly seedMerges: number;
  /** Finds sent, and those left out as below the contract's minimum. */
  readonly cases: number;
  readonly belowMinimum: number;
  /** Rows the contract refused (400), seeds and finds: left out, with the first refusals. */
  readonly refused: number;
  readonly refusals: readonly string[];
  readonly matchCases: number;
  readonly matchRight: number;
  readonly noMatchCases: number;
  readonly noMatchRight: number;
  readonly wrongPerson: number;
  readonly failures: readonly {
    readonly kind: 'wrong person' | 'missed' | 'seed merged';
    readonly body: unknown;
    readonly other: unknown;
    readonly explanation: unknown;
  }[];
}

/** The Match Candidate a row's contact becomes: the contract's fields, the date of birth in ISO 8601 when it is one the contract takes. */
export function bodyOf(c: ContactInput, country: string | null): Record<string, unknown> {
  const dob = c.dateOfBirth === null || c.dateOfBirth === undefined ? null : normalizeDate(c.dateOfBirth);
  const addresses = country === null ? c.addresses : c.addresses?.map((a) => ({ ...a, countryCode: a.countryCode ?? country }));
  const body = toCandidate({ ...c, addresses, dateOfBirth: dob !== null && dob.ok ? dob.value.iso : null });
  if (typeof c.sex === 'string' && /^[mf]$/i.test(c.sex.trim())) body['sex'] = c.sex.trim().toUpperCase();
  return body;
}

/** Where a set's addresses are (FEBRL's are Australian, the historical files British); null: the tenant's default (US). */
const countryOf = (set: EvalSet): string | null => (set.name.startsWith('FEBRL') ? 'AU' : set.name.includes('historical') ? 'GB' : null);

/** Reads a labelled file's rows (a link's two files: left rows first). */
async function readRows(set: EvalSet): Promise<Row[]> {
  if (!('column' in set.truth)) throw new Error(`${set.name}: the truth must be a column`);
  const truth = set.truth;
  const rows: Row[] = [];
  for (const path of set.right === undefined ? [set.input] : [set.input, set.right]) {
    const csv = await openCsv(path, { batchRows: 1000 });
    const plan = mapHeaders(csv.layout.header, { detectId: true });
    if ('error' in plan) throw new Error(`${path}: ${plan.error}`);
    const layout = compileRowLayout(plan);
    const truthAt = csv.layout.header.findIndex((h) => h.trim() === truth.column);
    if (truthAt < 0) throw new Error(`${path}: no truth column ${truth.column}`);
    for await (const batch of csv.batches()) {
      for (const cells of batch.rows) {
        const raw = (cells[truthAt] ?? '').trim();
        const m = truth.pattern === undefined || truth.pattern === null ? null : truth.pattern.exec(raw);
        const person = m === null ? raw : (m[1] ?? raw);
        rows.push({ person, id: raw, body: bodyOf(rowToContact(cells, layout), countryOf(set)) });
      }
    }
  }
  return rows;
}

/** Runs one set's suite; see the module comment. */
export async function runFilesSuite(set: EvalSet, seed: number): Promise<FilesSuiteResult> {
  const rows = await readRows(set);
  const byPerson = new Map<string, Row[]>();
  for (const r of rows) {
    const list = byPerson.get(r.person);
    if (list === undefined) byPerson.set(r.person, [r]);
    else list.push(r);
  }
  const rng = new Rng(seed);
  const persons = [...byPerson.keys()].sort();
  for (let i = persons.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [persons[i], persons[j]] = [persons[j] as string, persons[i] as string];
  }
  const seededPersons = new Set(persons.slice(0, Math.round(persons.length * 0.8)));
  const crm = await Crm.open({ db: ':memory:' });
  try {
    const tenant = await crm.createTenant('files');
    const ctx: CallContext = { tenantId: tenant.id, context: 'campaign' };
    const recordOf = new Map<string, number>();
    const ownerOf = new Map<number, string>();
    const seedRow = new Map<string, Row>();
    const failures: FilesSuiteResult['failures'][number][] = [];
    let seedMerges = 0;
    let refused = 0;
    const refusals: string[] = [];
    /** The call's answer, or null when the contract refuses the body (counted). */
    const call = async <T>(fn: () => Promise<T>): Promise<T | null> => {
      try {
        return await fn();
      } catch (err) {
        if (!(err instanceof CrmError) || err.status !== 400) throw err;
        refused++;
        if (refusals.length < 5) refusals.push(err.issues.map((i) => i.text).join('; '));
        return null;
      }
    };
    for (const person of persons) {
      if (!seededPersons.has(person)) continue;
      const list = byPerson.get(person) ?? [];
      const first = list.find((r) => r.id.endsWith('-org')) ?? list[0];
      if (first === undefined) continue;
      seedRow.set(person, first);
      const out = await call(() => crm.findOrCreate(ctx, first.body, { explain: true }));
      if (out === null) continue;
      if (out.crmId === null) throw new Error(`${set.name}: seed ${first.id} was not stored`);
      if (out.status === 'Matched') {
        seedMerges++;
        const owner = ownerOf.get(out.crmId);
        failures.push({ kind: 'seed merged', body: first.body, other: owner === undefined ? null : seedRow.get(owner)?.body, explanation: out.explanation });
      } else ownerOf.set(out.crmId, person);
      recordOf.set(person, out.crmId);
    }
    let cases = 0;
    let belowMinimum = 0;
    let matchCases = 0;
    let matchRight = 0;
    let noMatchCases = 0;
    let noMatchRight = 0;
    let wrongPerson = seedMerges;
    for (const r of rows) {
      if (seedRow.get(r.person) === r) continue;
      cases++;
      const out = await call(() => crm.find(ctx, r.body, { explain: true }));
      if (out === null) continue;
      if (out.status !== 'Matched' && out.reason === 'below-minimum') {
        belowMinimum++;
        continue;
      }
      // A person whose seed the contract refused has no record: its rows are no-match cases.
      const want = recordOf.get(r.person) ?? null;
      const got = out.status === 'Matched' ? out.crmId : null;
      if (want === null) noMatchCases++;
      else matchCases++;
      if (got === want) {
        if (want === null) noMatchRight++;
        else matchRight++;
        continue;
      }
      const owner = got === null ? undefined : ownerOf.get(got);
      if (got !== null) wrongPerson++;
      failures.push({
        kind: got === null ? 'missed' : 'wrong person',
        body: r.body,
        other: owner === undefined ? (want === null ? null : seedRow.get(r.person)?.body) : seedRow.get(owner)?.body,
        explanation: out.explanation,
      });
    }
    return {
      set: set.name,
      persons: persons.length,
      seeded: seededPersons.size,
      seedMerges,
      cases,
      belowMinimum,
      refused,
      refusals,
      matchCases,
      matchRight,
      noMatchCases,
      noMatchRight,
      wrongPerson,
      failures,
    };
  } finally {
    await crm.close();
  }
}

const share = (n: number, d: number): string => (d === 0 ? '-' : (n / d).toFixed(3));

/** The results as a table. */
export function formatFiles(results: readonly FilesSuiteResult[]): string {
  const head = [
    'set',
    'persons',
    'finds',
    'refused',
    'below min.',
    'decidable',
    'right',
    'match right',
    'no-match right',
    'wrong person',
    'seed merges',
    'P',
    'R',
  ];
  const lines = [
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
    ...results.map((r) => {
      const decidable = r.matchCases + r.noMatchCases;
      return `| ${[
        r.set,
        r.persons,
        r.cases,
        r.refused,
        r.belowMinimum,
        decidable,
        share(r.matchRight + r.noMatchRight, decidable),
        `${share(r.matchRight, r.matchCases)} of ${r.matchCases}`,
        `${share(r.noMatchRight, r.noMatchCases)} of ${r.noMatchCases}`,
        r.wrongPerson,
        r.seedMerges,
        // Of the finds that matched, the share that matched the right record; of the rows whose
        // person was stored, the share matched to it.
        share(r.matchRight, r.matchRight + r.wrongPerson - r.seedMerges),
        share(r.matchRight, r.matchCases),
      ].join(' | ')} |`;
    }),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string', default: '11' },
      only: { type: 'string' },
      json: { type: 'boolean', default: false },
      failures: { type: 'string', default: '0' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      "npm run eval:api:files -- [--only NAME] [--seed N] [--failures N] [--json]\n  The API's find-or-create on every labelled file npm run eval scores (bench/api-files.ts).\n",
    );
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'matchbook-api-files-'));
  try {
    const sets = [...publicSets(), ...messySets(dir)].filter((s) => values.only === undefined || s.name.includes(values.only));
    const results: FilesSuiteResult[] = [];
    for (const set of sets) {
      process.stderr.write(`${set.name}... (load ${loadavg()[0]?.toFixed(1)})\n`);
      results.push(await runFilesSuite(set, Number(values.seed)));
    }
    if (values.json) {
      process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
      return;
    }
    process.stdout.write(`${formatFiles(results)}\n`);
    const show = Number(values.failures);
    for (const r of results) {
      for (const f of r.failures.slice(0, show))
        process.stdout.write(`\n${r.set}, ${f.kind}:\n  ${JSON.stringify(f.body)}\n  other: ${JSON.stringify(f.other)}\n  ${JSON.stringify(f.explanation)}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

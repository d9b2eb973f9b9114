/**
 * `npm run eval:api`: the API's find-or-create accuracy on a labelled, seeded suite
 * (bench/lib/foc). Each person's first record is sent with findOrCreate through the real
 * CRM (SQLite, in memory), then every labelled case is sent with find. A case is right when
 * a match case matches its person's record, or a no-match case matches no one (Possible is
 * not a match). "Wrong person" counts finds that matched someone else, plus seed records
 * that findOrCreate merged into another person's record.
 *
 *   npx tsx bench/api-accuracy.ts [--seed N] [--people N] [--per-cause N] [--json]
 */
import { parseArgs } from 'node:util';
import { Crm, type CallContext } from '../src/crm/index.js';
import { makeCases, seedBody, type FocCase } from './lib/foc/cases.js';
import { makePopulation } from './lib/foc/population.js';
import { Rng } from './lib/prng.js';

const USAGE = `npm run eval:api -- [--seed N] [--people N] [--per-cause N] [--json] [--failures N] [--cause TEXT]
  The API's find-or-create accuracy on a seeded, labelled suite (bench/api-accuracy.ts).
  --seed N        suite seed (default 7); --people N  people seeded (default 4000)
  --per-cause N   labelled finds per cause (default 60); --json  the result as JSON
  --failures N    print the first N wrong or missed cases; --cause TEXT  only causes containing TEXT`;

/** One cause's tally. */
export interface CauseTally {
  readonly cause: string;
  cases: number;
  right: number;
  wrongPerson: number;
  missed: number;
  /** Unmatched cases that named a nearest record (Possible or just below; right for a no-match case, missed for a match case). */
  possible: number;
}

/** The suite's result. */
export interface FocResult {
  readonly seed: number;
  readonly people: number;
  /** Seed records findOrCreate merged into another person's record. */
  readonly seedMerges: number;
  readonly cases: number;
  readonly right: number;
  readonly wrongPerson: number;
  readonly causes: readonly CauseTally[];
  /** Wrong and missed cases, for reading. */
  readonly failures: readonly {
    readonly cause: string;
    readonly body: unknown;
    readonly expect: number | null;
    readonly got: number | null;
    readonly reason: string | null;
    readonly explanation: unknown;
  }[];
}

/** Runs the suite: `people` seeded, `perCause` cases per cause. */
export async function runFocSuite(opts: { seed: number; people: number; perCause: number }): Promise<FocResult> {
  const population = makePopulation(opts.seed, opts.people);
  const cases = makeCases(population, opts.seed + 1, opts.perCause);
  const crm = await Crm.open({ db: ':memory:' });
  try {
    const tenant = await crm.createTenant('suite');
    const ctx: CallContext = { tenantId: tenant.id, context: 'campaign' };
    const rng = new Rng(opts.seed + 2);
    const recordOf = new Map<number, number>();
    const ownerOf = new Map<number, number>();
    let seedMerges = 0;
    const failures: FocResult['failures'][number][] = [];
    for (const p of population) {
      if (!p.seeded) continue;
      const body = seedBody(p, rng);
      // explain: a seed merged into another person is printed with its per-field explanation (--failures).
      const out = await crm.findOrCreate(ctx, body, { explain: true });
      if (out.crmId === null) throw new Error(`seed person ${p.id} was not stored`);
      if (out.status === 'Matched') {
        seedMerges++;
        failures.push({
          cause: 'seed merged into another person',
          body,
          expect: p.id,
          got: ownerOf.get(out.crmId) ?? -1,
          reason: null,
          explanation: out.explanation,
        });
      } else ownerOf.set(out.crmId, p.id);
      recordOf.set(p.id, out.crmId);
    }
    const tallies = new Map<string, CauseTally>();
    let right = 0;
    let wrongPerson = seedMerges;
    for (const c of cases) {
      const t = tallies.get(c.cause) ?? { cause: c.cause, cases: 0, right: 0, wrongPerson: 0, missed: 0, possible: 0 };
      tallies.set(c.cause, t);
      t.cases++;
      const out = await crm.find(ctx, c.body, { explain: true });
      const got = out.status === 'Matched' ? out.crmId : null;
      const want = c.expect === null ? null : (recordOf.get(c.expect) ?? null);
      if (out.status !== 'Matched' && out.explanation.nearest !== null) t.possible++;
      if (got === want) {
        t.right++;
        right++;
        continue;
      }
      if (got !== null) {
        t.wrongPerson++;
        wrongPerson++;
      } else t.missed++;
      failures.push({
        cause: c.cause,
        body: c.body,
        expect: c.expect,
        got: got === null ? null : (ownerOf.get(got) ?? -1),
        reason: out.reason,
        explanation: out.explanation,
      });
    }
    return { seed: opts.seed, people: opts.people, seedMerges, cases: cases.length, right, wrongPerson, causes: [...tallies.values()], failures };
  } finally {
    await crm.close();
  }
}

function pct(n: number, d: number): string {
  return d === 0 ? '-' : (n / d).toFixed(3);
}

/** The result as a table. */
export function formatFoc(r: FocResult): string {
  const lines = [
    `find-or-create suite: seed ${r.seed}, ${r.people} people seeded, ${r.cases} labelled finds`,
    `decided right ${r.right}/${r.cases} = ${pct(r.right, r.cases)}   wrong person ${r.wrongPerson} (of which seed merges ${r.seedMerges})`,
    '',
    `${'cause'.padEnd(48)} ${'cases'.padStart(5)} ${'right'.padStart(6)} ${'wrong'.padStart(6)} ${'missed'.padStart(6)} ${'possible'.padStart(8)}`,
  ];
  for (const t of r.causes) {
    lines.push(
      `${t.cause.padEnd(48)} ${String(t.cases).padStart(5)} ${pct(t.right, t.cases).padStart(6)} ${String(t.wrongPerson).padStart(6)} ${String(t.missed).padStart(6)} ${String(t.possible).padStart(8)}`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string', default: '7' },
      people: { type: 'string', default: '4000' },
      'per-cause': { type: 'string', default: '60' },
      json: { type: 'boolean', default: false },
      failures: { type: 'string', default: '0' },
      cause: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const r = await runFocSuite({ seed: Number(values.seed), people: Number(values.people), perCause: Number(values['per-cause']) });
  if (values.json) {
    process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
    return;
  }
  process.stdout.write(`${formatFoc(r)}\n`);
  const show = Number(values.failures);
  const only = values.cause;
  for (const f of r.failures.filter((x) => only === undefined || x.cause.includes(only)).slice(0, show))
    process.stdout.write(`\n${f.cause}: expect ${f.expect} got ${f.got} (${f.reason})\n  ${JSON.stringify(f.body)}\n  ${JSON.stringify(f.explanation)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
export type { FocCase };

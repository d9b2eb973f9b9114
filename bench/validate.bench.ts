/**
 * `npx tsx bench/validate.bench.ts`: the Match Candidate schema compiled by TypeBox's compiler
 * and by Ajv (the JSON Schema validator fastify ships), per body, on the captured client bodies
 * and a typical one; and the whole of validateCandidate (schema + the code on top). Medians of
 * 7 alternating rounds, with the load average.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Ajv } from 'ajv';
import { MatchCandidate } from '../src/crm/schemas/match-candidate.js';
import { DEFAULT_CONTEXT_SETTINGS } from '../src/crm/settings.js';
import { validateCandidate } from '../src/crm/validate.js';

const files = [
  'parsons-sent-findOrCreate-request-upsert_person-full.json',
  'parsons-sent-find-request-find_person_json.json',
  'ngp_van-ruby-match_candidate.json',
];
const bodies: unknown[] = files.map((f) => JSON.parse(readFileSync(new URL(`../data/van-clients/${f}`, import.meta.url), 'utf8')) as unknown);
bodies.push({
  firstName: 'Ada',
  lastName: 'Lovelace',
  emails: [{ email: 'ada@example.org' }],
  phones: [{ phoneNumber: '2024291000' }],
  addresses: [{ addressLine1: '12 Analytical Way', zipOrPostalCode: '20009', city: 'Washington', stateOrProvince: 'DC' }],
  dateOfBirth: '1975-09-18',
});

const typebox = TypeCompiler.Compile(MatchCandidate);
const ajvAll = new Ajv({ allErrors: true, strict: false, logger: false }).compile(MatchCandidate);
const ajvFirst = new Ajv({ allErrors: false, strict: false, logger: false }).compile(MatchCandidate);
const vc = { context: 'campaign' as const, settings: DEFAULT_CONTEXT_SETTINGS };

const cases: [string, (b: unknown) => unknown][] = [
  ['TypeBox compiled Check', (b) => typebox.Check(b)],
  ['Ajv, every error', (b) => ajvAll(b)],
  ['Ajv, first error', (b) => ajvFirst(b)],
  ['validateCandidate (schema + code on top)', (b) => validateCandidate(b, vc)],
];

function time(f: (b: unknown) => unknown): number {
  const n = 40_000;
  for (let i = 0; i < 4000; i++) f(bodies[i % bodies.length]);
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f(bodies[i % bodies.length]);
  return Number(process.hrtime.bigint() - t) / n / 1000;
}

const rounds: number[][] = cases.map(() => []);
for (let r = 0; r < 7; r++) cases.forEach(([, f], i) => rounds[i]?.push(time(f)));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
cases.forEach(([name], i) => console.log(`${name.padEnd(44)} ${median(rounds[i] ?? []).toFixed(2)} µs per body`));

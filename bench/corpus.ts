/**
 * Seeded synthetic contact corpus for benchmarks: realistic people (Zipf-skewed names,
 * accents, particles, households sharing addresses, landlines and emails, Jr/Sr namesakes,
 * shared office switchboards, missing fields) and noisy incoming queries with known truth.
 *
 * Deterministic: the same (seed, size) gives the same people on every machine; person i
 * is generated on demand, so a 1M corpus costs almost no memory until records are kept.
 *
 *   import { generateCorpus } from './corpus.js';
 *   const corpus = generateCorpus({ seed: 42, size: 100_000 });
 *   for (const p of corpus.people()) index.upsert(p.personId, p.contact);
 *   const queries = corpus.queries({ count: 10_000 });   // { candidate, truth, kind, noise }
 *
 * CLI: `tsx bench/corpus.ts --seed 42 --size 10000 --write corpus.csv [--queries 1000 queries.csv]`
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { ContactInput } from '../src/engine/types.js';
import { HouseholdLayout, MAX_PEOPLE, PeopleModel, TAG_QUERY, TAG_RECORD, sampleAddress } from './lib/corpus-model.js';
import type { PersonModel } from './lib/corpus-model.js';
import { renderQuery, renderRecord } from './lib/corpus-render.js';
import type { FreshValues, NoiseTag, QueryKind } from './lib/corpus-render.js';
import { Rng, hashSeed } from './lib/prng.js';

export type { NoiseTag, QueryKind } from './lib/corpus-render.js';

export interface CorpusOptions {
  /** Any 32-bit integer. */
  readonly seed: number;
  /** Number of distinct people, 1..MAX_CORPUS_SIZE. */
  readonly size: number;
}

/** Largest corpus whose phone numbers and email tokens are guaranteed unique. */
export const MAX_CORPUS_SIZE = Math.min(MAX_PEOPLE - 1_000_000, 4_000_000);

/** One stored person: the record as a CRM holds it, with its truth labels. */
export interface CorpusPerson {
  /** Truth label, 0..size-1; also a fine index id. */
  readonly personId: number;
  /** personId of the household's first member; shared by everyone at that address. */
  readonly householdId: number;
  readonly contact: ContactInput;
}

export interface QueryOptions {
  readonly count: number;
  /** Seed of the query stream (default: the corpus seed + 1). */
  readonly seed?: number;
  /** Share of queries describing people who are not in the corpus (default 0.3). */
  readonly newFraction?: number;
}

/** An incoming description of a person, with the truth. */
export interface CorpusQuery {
  readonly candidate: ContactInput;
  /** personId of the stored person it describes, or null for someone new. */
  readonly truth: number | null;
  readonly kind: QueryKind;
  /** Deliberate differences from the stored record (empty for new people). */
  readonly noise: readonly NoiseTag[];
}

export interface Corpus {
  readonly seed: number;
  readonly size: number;
  person(personId: number): CorpusPerson;
  people(): IterableIterator<CorpusPerson>;
  queries(options: QueryOptions): CorpusQuery[];
}

/** Of the new-person queries: 70% strangers, 20% new household members, 10% namesake juniors. */
const NEW_RELATIVE_SHARE = 0.2;
const NEW_JUNIOR_SHARE = 0.1;

export function generateCorpus(options: CorpusOptions): Corpus {
  const { seed, size } = options;
  if (!Number.isInteger(size) || size < 1 || size > MAX_CORPUS_SIZE) {
    throw new RangeError(`size must be an integer in 1..${MAX_CORPUS_SIZE}`);
  }
  const model = new PeopleModel(seed, new HouseholdLayout(seed, size));

  const person = (personId: number): CorpusPerson => {
    if (!Number.isInteger(personId) || personId < 0 || personId >= size) throw new RangeError(`no person ${personId}`);
    const p = model.person(personId);
    const record = renderRecord(p, new Rng(hashSeed(seed, TAG_RECORD, personId)));
    return { personId, householdId: p.householdId, contact: record.contact };
  };

  function* people(): IterableIterator<CorpusPerson> {
    for (let i = 0; i < size; i++) yield person(i);
  }

  const canHaveJunior = (p: PersonModel): boolean => {
    if (p.gender !== 'm' || p.dob === null || p.suffix !== null) return false;
    if (Number(p.dob.slice(0, 4)) > 1982) return false;
    const household = model.household(p.householdId, model.layout.size[p.personId] ?? 1);
    return !household.members.some((m) => m.suffix === 'Jr' || m.suffix === 'II');
  };

  const queries = (q: QueryOptions): CorpusQuery[] => {
    const querySeed = q.seed ?? seed + 1;
    const newFraction = q.newFraction ?? 0.3;
    // New people take indexes size.., fresh values take indexes MAX_PEOPLE-1 downwards.
    if (size + 2 * q.count >= MAX_PEOPLE) throw new RangeError('too many queries for this corpus size');
    const out: CorpusQuery[] = [];
    for (let n = 0; n < q.count; n++) {
      const rng = new Rng(hashSeed(seed, TAG_QUERY, querySeed, n));
      const freshIndex = size + n;
      const fresh: FreshValues = {
        // Indexes past every stored and new person: unique values that are on no record.
        email: () => model.newPerson(MAX_PEOPLE - 1 - n).emails[0] ?? `new${n}@example.org`,
        phone: () => ({ digits: freshPhone(model, n), kind: 'mobile', ext: null }),
        address: () => sampleAddress(rng),
      };
      if (!rng.chance(newFraction)) {
        const personId = rng.int(size);
        const p = model.person(personId);
        const record = renderRecord(p, new Rng(hashSeed(seed, TAG_RECORD, personId)));
        const r = renderQuery(p, rng, 'existing', record, fresh);
        out.push({ candidate: r.candidate, truth: personId, kind: 'existing', noise: r.noise });
        continue;
      }
      const roll = rng.float();
      let kind: QueryKind = 'new';
      let p: PersonModel | null = null;
      if (roll < NEW_RELATIVE_SHARE) {
        kind = 'new-relative';
        p = model.newRelative(freshIndex, rng.int(size), false);
      } else if (roll < NEW_RELATIVE_SHARE + NEW_JUNIOR_SHARE) {
        for (let tries = 0; tries < 50 && p === null; tries++) {
          const of = model.person(rng.int(size));
          if (canHaveJunior(of)) p = model.newRelative(freshIndex, of.personId, true);
        }
        if (p !== null) kind = 'new-junior';
      }
      p ??= model.newPerson(freshIndex);
      const r = renderQuery(p, rng, kind, null, fresh);
      out.push({ candidate: r.candidate, truth: null, kind, noise: r.noise });
    }
    return out;
  };

  return { seed, size, person, people, queries };
}

function freshPhone(model: PeopleModel, n: number): string {
  // A mobile of a "person" far past the corpus: unique, on no record.
  const p = model.newPerson(MAX_PEOPLE - 1 - n);
  return p.phones.find((x) => x.kind === 'mobile')?.digits ?? '2025550100';
}

// ---------------------------------------------------------------- CSV export (CLI)

function csvCell(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The columns of {@link contactCells}, as the CLI's header mapping reads them. */
export const CONTACT_CSV_HEADER: readonly string[] = [
  'firstName',
  'middleName',
  'lastName',
  'suffix',
  'dateOfBirth',
  'emails',
  'phones',
  'addressLine1',
  'addressLine2',
  'city',
  'stateOrProvince',
  'zipOrPostalCode',
];

/** The corpus file's columns: the person's and household's ids, then the contact's. */
const CSV_COLUMNS = ['personId', 'householdId', ...CONTACT_CSV_HEADER];

/** The cells of a contact, unquoted: several emails/phones joined with "; ", the first address only. */
export function contactCells(c: ContactInput): string[] {
  const a = c.addresses?.[0];
  const phones = (c.phones ?? []).map((p) => (typeof p === 'string' ? p : p.ext ? `${p.phoneNumber} ext. ${p.ext}` : p.phoneNumber));
  return [
    c.firstName ?? '',
    c.middleName ?? '',
    c.lastName ?? '',
    c.suffix ?? '',
    c.dateOfBirth ?? '',
    (c.emails ?? []).join('; '),
    phones.join('; '),
    a?.addressLine1 ?? '',
    a?.addressLine2 ?? '',
    a?.city ?? '',
    a?.stateOrProvince ?? '',
    a?.zipOrPostalCode ?? '',
  ];
}

/** {@link contactCells} quoted for a CSV line. */
export function contactCsvCells(c: ContactInput): string[] {
  return contactCells(c).map((v) => csvCell(v));
}

function main(argv: readonly string[]): void {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const seed = Number(arg('--seed') ?? 42);
  const size = Number(arg('--size') ?? 10000);
  const write = arg('--write');
  const corpus = generateCorpus({ seed, size });
  const started = performance.now();
  if (write === undefined) {
    let n = 0;
    for (const p of corpus.people()) n += p.contact.firstName ? 1 : 0;
    const ms = performance.now() - started;
    console.log(`generated ${n} people (seed ${seed}) in ${ms.toFixed(0)} ms; use --write FILE.csv to save them`);
    return;
  }
  const lines = [CSV_COLUMNS.join(',')];
  for (const p of corpus.people()) lines.push([p.personId, p.householdId, ...contactCsvCells(p.contact)].join(','));
  writeFileSync(write, `${lines.join('\n')}\n`);
  console.log(`wrote ${size} people to ${write}`);
  const queryCount = arg('--queries');
  const queryFile = queryCount !== undefined ? argv[argv.indexOf('--queries') + 2] : undefined;
  if (queryCount !== undefined && queryFile !== undefined) {
    const qs = corpus.queries({ count: Number(queryCount) });
    const qLines = [`truth,kind,noise,${CONTACT_CSV_HEADER.join(',')}`];
    for (const q of qs) {
      qLines.push([q.truth ?? '', q.kind, csvCell(q.noise.join(' ')), ...contactCsvCells(q.candidate)].join(','));
    }
    writeFileSync(queryFile, `${qLines.join('\n')}\n`);
    console.log(`wrote ${qs.length} queries to ${queryFile}`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2));
}

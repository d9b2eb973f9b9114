/**
 * Scenario `mixed`: a small truth set merged from six sources that each keep different
 * columns in their own formats. Columns: unique_id, source, first_name, last_name, name,
 * email, phone, dob, address, city, zip, sex, ssn, passport, drivers_license, cluster.
 *
 * | source | weight | name | email | phone | dob | address | sex | identifiers |
 * |---|---|---|---|---|---|---|---|---|
 * | crm | 30 | first_name, last_name | yes | (212) 555-0134 or 212-555-0134 | MM/DD/YYYY | yes | M/F | - |
 * | dmv | 20 | name "LAST, FIRST MIDDLE" | - | - | ISO | yes (ZIP+4 half the time) | male/female | ssn, drivers_license |
 * | clinic | 18 | first_name, last_name | - | 212.555.0134 or 2125550134 | MM/DD/YYYY | yes | Male/Female | ssn (placeholders) |
 * | web | 15 | first_name, last_name | yes | any style | - | - | - | - |
 * | travel | 12 | name "First Last" | yes | +1 212 555 0134 | DD.MM.YYYY | - | M/F | passport |
 * | watchlist | 5 | name "LAST, First" or "First LAST" | - | - | ISO | - | - | - |
 *
 * Each person is in 1-5 distinct sources (weights 35/30/18/10/7), drawn by source weight.
 * People and households come from the corpus model (bench/lib/corpus-model.ts: shared
 * addresses, landlines and family emails, Jr/Sr, office switchboards); households have
 * Cyrillic (5%), Greek (3%) or Arabic (5%) names (bench/lib/messy/mixed-data.ts). Everyday
 * sources (crm, clinic, web) get nicknames, placeholders and generic values; the sources
 * that may keep the native script are dmv, travel and watchlist. The generic values: three
 * offices' info@ addresses and main lines, two shelters (address and phone).
 *
 * Rates (per record or per person, by level):
 *
 * | rate | per | low | medium | high | what (of which records) |
 * |---|---|---|---|---|---|
 * | homeless | entity | 0.03 | 0.03 | 0.03 | people living alone without a home: GENERAL DELIVERY, HOMELESS or a shelter address, its phone |
 * | twins | entity | 0.15 | 0.15 | 0.15 | households of 3+ with twins (an extra person: same date of birth, surname and address) |
 * | hasPassport | entity | 0.45 | 0.45 | 0.45 | people with a passport |
 * | hasLicense | entity | 0.70 | 0.70 | 0.70 | people with a driver's licence |
 * | nativeScript | record | 0.50 | 0.50 | 0.50 | name in its native script (dmv, travel, watchlist records of people with a non-Latin name) |
 * | romanizationVariant | record | 0.30 | 0.45 | 0.60 | a less usual Latin spelling: Alexander for Aleksandr, Muhammad for Mohammed (Latin records of such people, names with variants) |
 * | nickname | record | 0.10 | 0.15 | 0.20 | a nickname from the engine-listed table: Bob for Robert (crm, clinic, web records of names with one) |
 * | nicknameUnlisted | record | 0.02 | 0.04 | 0.06 | a plausible nickname not from that table: Libby, Sasha (same records, no listed one used, names with one) |
 * | otherSurname | record | 0.02 | 0.03 | 0.05 | a woman's other (maiden or married) surname (Latin records of women in households of 2+) |
 * | nameTypo | record | 0.03 | 0.06 | 0.10 | a keyboard slip in the given name or surname (Latin records) |
 * | suffixShown | record | 0.50 | 0.50 | 0.50 | Jr/Sr/II/III written after the surname (records of people with a suffix) |
 * | nameSwap | record | 0.01 | 0.02 | 0.04 | first_name and last_name swapped (records with split names) |
 * | placeholderName | record | 0.01 | 0.02 | 0.03 | a placeholder name: Unknown, Baby Boy, John Doe, Test (crm, clinic and web records) |
 * | namelessRow | record | 0.03 | 0.05 | 0.08 | an extra crm or web row with only an email or a phone of the person (people with one) |
 * | sameSourceTwice | record | 0.04 | 0.06 | 0.10 | the source holds the person again, rendered anew (records from a source) |
 * | genericEmail | record | 0.02 | 0.03 | 0.05 | an office's info@ address instead of the person's (crm and web records) |
 * | placeholderEmail | record | 0.01 | 0.02 | 0.03 | none@none.com and the like (crm and web records without a generic email) |
 * | emailTypo | record | 0.01 | 0.02 | 0.04 | a keyboard slip in the mailbox name (records with a real email) |
 * | emailDomain | record | 0.01 | 0.02 | 0.04 | the mailbox name at another domain: a slip in the domain (gmial.com) or another provider (records with a real email) |
 * | emailWithName | record | 0.05 | 0.10 | 0.15 | "First Last <addr@x>" in the email cell (records with an email) |
 * | genericPhone | record | 0.02 | 0.03 | 0.05 | an office's main line instead of the person's phone (crm, clinic and web records) |
 * | placeholderPhone | record | 0.01 | 0.015 | 0.02 | 000-000-0000, 555-555-5555 and the like (same records, no generic phone) |
 * | phoneLocal7 | record | 0.05 | 0.10 | 0.15 | 7-digit local number without the area code (records with a phone number, placeholders aside) |
 * | dobMissing | record | 0.10 | 0.15 | 0.25 | dob empty (records of sources with a dob, people whose dob is known: 85%) |
 * | placeholderDob | record | 0.005 | 0.01 | 0.02 | 1900-01-01 and the like (crm and clinic records with a dob) |
 * | dobDigitTypo | record | 0.02 | 0.04 | 0.07 | one digit of the date wrong, still a valid date (records with a real dob) |
 * | dobDaySwap | record | 0.02 | 0.03 | 0.05 | day and month swapped (records with a real dob, day <= 12 and != month) |
 * | addressMissing | record | 0.05 | 0.10 | 0.15 | address, city and zip empty (records of sources with an address, people with one) |
 * | addressMoved | record | 0.04 | 0.06 | 0.10 | a previous address instead of the current one (records with an address) |
 * | addressVariant | record | 0.10 | 0.20 | 0.30 | street written otherwise: St/Street, N/North, unit dropped (records with an address) |
 * | zipTypo | record | 0.01 | 0.02 | 0.04 | one digit of the zip wrong (records with an address) |
 * | sexMissing | record | 0.05 | 0.10 | 0.15 | sex empty (records of sources with sex) |
 * | ssnPlaceholder | record | 0.05 | 0.10 | 0.15 | SSN cell holds 000-00-0000, 123-45-6789... (clinic records) |
 * | idMissing | record | 0.10 | 0.15 | 0.25 | identifier empty (identifier cells of sources holding it, person having it) |
 * | idTypo | record | 0.02 | 0.04 | 0.07 | one digit of an identifier wrong or two swapped (identifiers written) |
 */
import { Rng, WeightedSampler, hashSeed } from '../prng.js';
import { assemble, clusterSizes } from './assemble.js';
import type { Draft, MessyFile, MessyOptions } from './assemble.js';
import type { DateFormat } from './dates.js';
import type { PhoneStyle } from './formats.js';
import { renderNameless, renderRecord } from './mixed-render.js';
import { mixedPeople } from './mixed-world.js';
import { LEVELS, Tally, entityRate, recordRate } from './rates.js';
import type { RateTable } from './rates.js';

const r = recordRate;
const same = entityRate;

export const MIXED_RATES = {
  homeless: same(0.03, 'people living alone without a home: GENERAL DELIVERY, HOMELESS or a shelter address, its phone'),
  twins: same(0.15, 'households of 3+ with twins (an extra person: same date of birth, surname and address)'),
  hasPassport: same(0.45, 'people with a passport'),
  hasLicense: same(0.7, "people with a driver's licence"),
  nativeScript: r(0.5, 0.5, 0.5, 'name in its native script (dmv, travel, watchlist records of people with a non-Latin name)'),
  romanizationVariant: r(
    0.3,
    0.45,
    0.6,
    'a less usual Latin spelling: Alexander for Aleksandr, Muhammad for Mohammed (Latin records of such people, names with variants)',
  ),
  nickname: r(0.1, 0.15, 0.2, 'a nickname from the engine-listed table: Bob for Robert (crm, clinic, web records of names with one)'),
  nicknameUnlisted: r(0.02, 0.04, 0.06, 'a plausible nickname not from that table: Libby, Sasha (same records, no listed one used, names with one)'),
  otherSurname: r(0.02, 0.03, 0.05, "a woman's other (maiden or married) surname (Latin records of women in households of 2+)"),
  nameTypo: r(0.03, 0.06, 0.1, 'a keyboard slip in the given name or surname (Latin records)'),
  suffixShown: r(0.5, 0.5, 0.5, 'Jr/Sr/II/III written after the surname (records of people with a suffix)'),
  nameSwap: r(0.01, 0.02, 0.04, 'first_name and last_name swapped (records with split names)'),
  placeholderName: r(0.01, 0.02, 0.03, 'a placeholder name: Unknown, Baby Boy, John Doe, Test (crm, clinic and web records)'),
  namelessRow: r(0.03, 0.05, 0.08, 'an extra crm or web row with only an email or a phone of the person (people with one)'),
  sameSourceTwice: r(0.04, 0.06, 0.1, 'the source holds the person again, rendered anew (records from a source)'),
  genericEmail: r(0.02, 0.03, 0.05, "an office's info@ address instead of the person's (crm and web records)"),
  placeholderEmail: r(0.01, 0.02, 0.03, 'none@none.com and the like (crm and web records without a generic email)'),
  emailTypo: r(0.01, 0.02, 0.04, 'a keyboard slip in the mailbox name (records with a real email)'),
  emailDomain: r(0.01, 0.02, 0.04, 'the mailbox name at another domain: a slip in the domain (gmial.com) or another provider (records with a real email)'),
  emailWithName: r(0.05, 0.1, 0.15, '"First Last <addr@x>" in the email cell (records with an email)'),
  genericPhone: r(0.02, 0.03, 0.05, "an office's main line instead of the person's phone (crm, clinic and web records)"),
  placeholderPhone: r(0.01, 0.015, 0.02, '000-000-0000, 555-555-5555 and the like (same records, no generic phone)'),
  phoneLocal7: r(0.05, 0.1, 0.15, '7-digit local number without the area code (records with a phone number, placeholders aside)'),
  dobMissing: r(0.1, 0.15, 0.25, 'dob empty (records of sources with a dob, people whose dob is known: 85%)'),
  placeholderDob: r(0.005, 0.01, 0.02, '1900-01-01 and the like (crm and clinic records with a dob)'),
  dobDigitTypo: r(0.02, 0.04, 0.07, 'one digit of the date wrong, still a valid date (records with a real dob)'),
  dobDaySwap: r(0.02, 0.03, 0.05, 'day and month swapped (records with a real dob, day <= 12 and != month)'),
  addressMissing: r(0.05, 0.1, 0.15, 'address, city and zip empty (records of sources with an address, people with one)'),
  addressMoved: r(0.04, 0.06, 0.1, 'a previous address instead of the current one (records with an address)'),
  addressVariant: r(0.1, 0.2, 0.3, 'street written otherwise: St/Street, N/North, unit dropped (records with an address)'),
  zipTypo: r(0.01, 0.02, 0.04, 'one digit of the zip wrong (records with an address)'),
  sexMissing: r(0.05, 0.1, 0.15, 'sex empty (records of sources with sex)'),
  ssnPlaceholder: r(0.05, 0.1, 0.15, 'SSN cell holds 000-00-0000, 123-45-6789... (clinic records)'),
  idMissing: r(0.1, 0.15, 0.25, 'identifier empty (identifier cells of sources holding it, person having it)'),
  idTypo: r(0.02, 0.04, 0.07, 'one digit of an identifier wrong or two swapped (identifiers written)'),
} as const;

export type MixedRate = keyof typeof MIXED_RATES;
const RATES: RateTable<MixedRate> = MIXED_RATES;

/** Default number of people: about 3,300 rows. */
export const MIXED_DEFAULT_ENTITIES = 1400;
export const MIXED_COLUMNS = [
  'source',
  'first_name',
  'last_name',
  'name',
  'email',
  'phone',
  'dob',
  'address',
  'city',
  'zip',
  'sex',
  'ssn',
  'passport',
  'drivers_license',
] as const;
export type MixedColumn = (typeof MIXED_COLUMNS)[number];

export type SourceName = 'crm' | 'dmv' | 'clinic' | 'web' | 'travel' | 'watchlist';

/** What one source keeps and how it writes it (see the table above). */
export interface SourceSpec {
  readonly name: SourceName;
  readonly weight: number;
  readonly names: 'split' | 'last-first' | 'first-last' | 'watch';
  readonly email: boolean;
  readonly phone: readonly PhoneStyle[];
  readonly dob: DateFormat | null;
  readonly address: boolean;
  readonly sex: readonly [string, string] | null;
  readonly ssn: boolean;
  readonly passport: boolean;
  readonly license: boolean;
  /** May keep a non-Latin name in its script. */
  readonly native: boolean;
  /** Entered by staff or users: nicknames, placeholders and generic values happen here. */
  readonly everyday: boolean;
}

const base = {
  email: false,
  phone: [],
  dob: null,
  address: false,
  sex: null,
  ssn: false,
  passport: false,
  license: false,
  native: false,
  everyday: false,
} as const;

export const SOURCES: readonly SourceSpec[] = [
  { ...base, name: 'crm', weight: 30, names: 'split', email: true, phone: ['paren', 'dash'], dob: 'mdy', address: true, sex: ['M', 'F'], everyday: true },
  { ...base, name: 'dmv', weight: 20, names: 'last-first', dob: 'iso', address: true, sex: ['male', 'female'], ssn: true, license: true, native: true },
  {
    ...base,
    name: 'clinic',
    weight: 18,
    names: 'split',
    phone: ['dot', 'plain'],
    dob: 'mdy',
    address: true,
    sex: ['Male', 'Female'],
    ssn: true,
    everyday: true,
  },
  { ...base, name: 'web', weight: 15, names: 'split', email: true, phone: ['paren', 'dash', 'dot', 'plain', 'intl'], everyday: true },
  { ...base, name: 'travel', weight: 12, names: 'first-last', email: true, phone: ['intl'], dob: 'dmy-dot', sex: ['M', 'F'], passport: true, native: true },
  { ...base, name: 'watchlist', weight: 5, names: 'watch', dob: 'iso', native: true },
];

const TAG = 0x4d58; // "MX"
const SOURCE_COUNT = clusterSizes([35, 30, 18, 10, 7]);

/** k distinct sources drawn by weight. */
function pickSources(rng: Rng, k: number): SourceSpec[] {
  const chosen: SourceSpec[] = [];
  while (chosen.length < k) {
    const sampler = new WeightedSampler(SOURCES.map((s) => (chosen.includes(s) ? 0 : s.weight)));
    chosen.push(SOURCES[sampler.sample(rng)] ?? SOURCES[0]!);
  }
  return chosen;
}

/** The `mixed` file for these options (entities defaulted by generateMessy). */
export function generateMixed(options: Required<MessyOptions>): MessyFile {
  const level = LEVELS.indexOf(options.level);
  const tally = new Tally(RATES, options.level);
  const people = mixedPeople(options.seed, options.entities, tally);
  const householdSize = new Map<number, number>();
  for (const p of people) householdSize.set(p.householdId, (householdSize.get(p.householdId) ?? 0) + 1);
  const drafts: Draft[] = [];
  people.forEach((person, i) => {
    const world = new Rng(hashSeed(options.seed, TAG, 3, i));
    const sources = pickSources(world, SOURCE_COUNT(world));
    const rng = new Rng(hashSeed(options.seed, TAG, 4, level, i));
    const ctx = { rng, tally, person, shared: (householdSize.get(person.householdId) ?? 1) > 1 };
    for (const source of sources) {
      drafts.push(renderRecord(ctx, source));
      if (tally.roll(rng, 'sameSourceTwice')) drafts.push(renderRecord(ctx, source));
    }
    const hasContact = person.personalEmail ?? person.familyEmail ?? person.mobile ?? person.landline;
    if (hasContact !== null && tally.roll(rng, 'namelessRow')) drafts.push(renderNameless(ctx));
  });
  return assemble({
    options,
    drafts,
    columns: MIXED_COLUMNS,
    idColumn: 'unique_id',
    truthColumn: 'cluster',
    rowId: (n) => String(n),
    processes: tally.snapshot(),
    shuffleSeed: hashSeed(options.seed, TAG, 5),
  });
}

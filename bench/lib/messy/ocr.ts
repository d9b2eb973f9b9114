/**
 * Scenario `ocr`: a voter-file-like list re-keyed and OCR'd from scanned paper lists, 1-5
 * records per person (weights 50/30/12/5/3). Columns: rec_id, FIRST NAME, MIDDLE NAME,
 * LAST NAME, STREET ADDRESS, CITY, ZIP, BIRTH YEAR, true_id; no full date of birth. One
 * letter case for the whole file (upper 50%, lower 30%, title 20%, from the seed).
 *
 * People and households come from the corpus model (bench/lib/corpus-model.ts): about 60%
 * of people share a home (same address and mostly the same surname, different given
 * names), Jr/Sr namesakes in 12% of households of 2+, Zipf-skewed names. Added here: twins
 * and a cluster of the most common names in the largest city.
 *
 * A corrupted field gets 1 or 2 corrupted characters; fields are drawn by weight among the
 * non-empty ones: first name 32, last name 32, zip 22, street 8, middle name 6. An OCR
 * confusion that finds nothing to confuse becomes a keyboard slip. Zip confusions give a
 * look-alike letter (0/o, 5/s...) one time in three, another digit otherwise.
 *
 * Rates (per record or per person, by level):
 *
 * | rate | per | low | medium | high | what (of which records) |
 * |---|---|---|---|---|---|
 * | commonName | entity | 0.03 | 0.03 | 0.03 | people living alone renamed to a top-3 given name and Smith (70%) or Johnson, moved to the largest city |
 * | twins | entity | 0.15 | 0.15 | 0.15 | households of 3+ with twins (an extra person: same birth year, surname and address, another given name) |
 * | originalCorrupted | record | 0.05 | 0.10 | 0.15 | OCR or keyboard error in one field (first records) |
 * | duplicateCorrupted | record | 0.55 | 0.75 | 0.90 | OCR or keyboard errors in at least one field (records after the first) |
 * | secondField | record | 0.30 | 0.45 | 0.60 | a second field corrupted as well (corrupted records after the first) |
 * | thirdField | record | 0.00 | 0.05 | 0.10 | a third field corrupted as well (records with two) |
 * | twoCharacters | record | 0.25 | 0.35 | 0.45 | two characters corrupted in the field instead of one (corrupted fields) |
 * | keyboardSlip | record | 0.20 | 0.25 | 0.30 | a keyboard slip instead of an OCR confusion (corrupted characters) |
 * | middleInitial | record | 0.50 | 0.50 | 0.50 | middle name written as its initial (records keeping a middle name) |
 * | middleDropped | record | 0.15 | 0.25 | 0.35 | middle name left out (records of people with one) |
 * | nickname | record | 0.03 | 0.05 | 0.08 | a nickname: BOB for ROBERT (records after the first, names with one) |
 * | nameSwap | record | 0.01 | 0.02 | 0.04 | first and last name swapped (records after the first) |
 * | suffixShown | record | 0.60 | 0.50 | 0.40 | JR/SR/II/III written after the last name (records of people with a suffix) |
 * | moved | record | 0.03 | 0.05 | 0.08 | an older address: other street, maybe other city and zip (records after the first) |
 * | addressMissing | record | 0.20 | 0.30 | 0.40 | street address empty (all records) |
 * | streetVariant | record | 0.10 | 0.20 | 0.30 | street written otherwise: ST/STREET, N/NORTH, unit dropped (records with an address) |
 * | cityMissing | record | 0.02 | 0.04 | 0.06 | city empty (all records) |
 * | zipMissing | record | 0.02 | 0.04 | 0.06 | zip empty (all records) |
 * | birthYearMissing | record | 0.40 | 0.50 | 0.60 | birth year empty (records of people whose birth date is known: 85%) |
 * | birthYearOff | record | 0.05 | 0.08 | 0.12 | birth year +-1 (records with a birth year) |
 */
import { CITIES, FEMALE_FIRST, MALE_FIRST, NICKNAMES } from '../corpus-data.js';
import { HouseholdLayout, PeopleModel, sampleAddress, stripAccents } from '../corpus-model.js';
import type { AddressModel, PersonModel } from '../corpus-model.js';
import { Rng, WeightedSampler, hashSeed } from '../prng.js';
import { assemble, clusterSizes, titleCase } from './assemble.js';
import type { Draft, MessyFile, MessyOptions } from './assemble.js';
import { streetLine } from './formats.js';
import { LEVELS, Tally, entityRate, recordRate } from './rates.js';
import type { RateTable } from './rates.js';
import { keyboardTypo, ocrDigits, ocrName } from './text-errors.js';

const r = recordRate;
const same = entityRate;

export const OCR_RATES = {
  commonName: same(0.03, 'people living alone renamed to a top-3 given name and Smith (70%) or Johnson, moved to the largest city'),
  twins: same(0.15, 'households of 3+ with twins (an extra person: same birth year, surname and address, another given name)'),
  originalCorrupted: r(0.05, 0.1, 0.15, 'OCR or keyboard error in one field (first records)'),
  duplicateCorrupted: r(0.55, 0.75, 0.9, 'OCR or keyboard errors in at least one field (records after the first)'),
  secondField: r(0.3, 0.45, 0.6, 'a second field corrupted as well (corrupted records after the first)'),
  thirdField: r(0, 0.05, 0.1, 'a third field corrupted as well (records with two)'),
  twoCharacters: r(0.25, 0.35, 0.45, 'two characters corrupted in the field instead of one (corrupted fields)'),
  keyboardSlip: r(0.2, 0.25, 0.3, 'a keyboard slip instead of an OCR confusion (corrupted characters)'),
  middleInitial: r(0.5, 0.5, 0.5, 'middle name written as its initial (records keeping a middle name)'),
  middleDropped: r(0.15, 0.25, 0.35, 'middle name left out (records of people with one)'),
  nickname: r(0.03, 0.05, 0.08, 'a nickname: BOB for ROBERT (records after the first, names with one)'),
  nameSwap: r(0.01, 0.02, 0.04, 'first and last name swapped (records after the first)'),
  suffixShown: r(0.6, 0.5, 0.4, 'JR/SR/II/III written after the last name (records of people with a suffix)'),
  moved: r(0.03, 0.05, 0.08, 'an older address: other street, maybe other city and zip (records after the first)'),
  addressMissing: r(0.2, 0.3, 0.4, 'street address empty (all records)'),
  streetVariant: r(0.1, 0.2, 0.3, 'street written otherwise: ST/STREET, N/NORTH, unit dropped (records with an address)'),
  cityMissing: r(0.02, 0.04, 0.06, 'city empty (all records)'),
  zipMissing: r(0.02, 0.04, 0.06, 'zip empty (all records)'),
  birthYearMissing: r(0.4, 0.5, 0.6, 'birth year empty (records of people whose birth date is known: 85%)'),
  birthYearOff: r(0.05, 0.08, 0.12, 'birth year +-1 (records with a birth year)'),
} as const;

export type OcrRate = keyof typeof OCR_RATES;
const RATES: RateTable<OcrRate> = OCR_RATES;

/** Default number of people: about 5,500 rows. */
export const OCR_DEFAULT_ENTITIES = 3000;
export const OCR_COLUMNS = ['FIRST NAME', 'MIDDLE NAME', 'LAST NAME', 'STREET ADDRESS', 'CITY', 'ZIP', 'BIRTH YEAR'] as const;
const F = { first: 0, middle: 1, last: 2, street: 3, city: 4, zip: 5, year: 6 } as const;
const FIELD_NAMES = ['first_name', 'middle_name', 'last_name', 'street', 'city', 'zip', 'birth_year'];
const CORRUPTIBLE = [F.first, F.last, F.zip, F.street, F.middle];
const CORRUPTIBLE_WEIGHTS = [32, 32, 22, 8, 6];

const TAG = 0x4f43; // "OC"
const RECORDS = clusterSizes([50, 30, 12, 5, 3]);

type Case = 'upper' | 'lower' | 'title';

interface Voter {
  readonly id: string;
  readonly person: PersonModel;
  readonly address: AddressModel;
  readonly records: number;
}

function applyCase(text: string, mode: Case): string {
  return mode === 'upper' ? text.toUpperCase() : mode === 'lower' ? text.toLowerCase() : titleCase(text);
}

/** People of the file: the corpus model's, plus common-name and twin overlays. */
function voters(options: Required<MessyOptions>, tally: Tally<OcrRate>): Voter[] {
  const seed = hashSeed(options.seed, TAG, 1);
  const layout = new HouseholdLayout(seed, options.entities);
  const model = new PeopleModel(seed, layout);
  const out: Voter[] = [];
  let extra = options.entities;
  for (let i = 0; i < options.entities; i++) {
    const rng = new Rng(hashSeed(seed, TAG, 2, i));
    const size = layout.size[i] ?? 1;
    const start = i - (layout.offset[i] ?? 0);
    let person = model.person(i);
    let address = person.addresses[0] ?? model.household(start, size).address;
    if (size === 1 && tally.roll(rng, 'commonName')) {
      const top = person.gender === 'm' ? MALE_FIRST : FEMALE_FIRST;
      person = { ...person, first: rng.pick(top.slice(0, 3)), last: rng.chance(0.7) ? 'Smith' : 'Johnson', middle: rng.chance(0.5) ? person.middle : null };
      address = sampleAddress(rng, 0);
    }
    out.push({ id: String(i + 1), person, address, records: RECORDS(rng) });
    if (start === i && size >= 3 && tally.roll(rng, 'twins')) {
      const sibling = model.person(start + size - 1);
      const twin = model.newRelative(extra, start + size - 1, false);
      const person2 = { ...twin, last: sibling.last, dob: sibling.dob };
      out.push({ id: String(++extra), person: person2, address: model.household(start, size).address, records: RECORDS(rng) });
    }
  }
  return out;
}

function corruptChar(rng: Rng, tally: Tally<OcrRate>, value: string, field: number, mode: Case): string {
  const name = FIELD_NAMES[field] ?? '';
  if (!tally.roll(rng, 'keyboardSlip')) {
    const ocr =
      field === F.zip
        ? ocrDigits(value, rng, rng.chance(1 / 3), mode === 'upper')
        : field === F.street
          ? (ocrDigits(value, rng, false) ?? ocrName(value, rng))
          : ocrName(value, rng);
    if (ocr !== null) {
      tally.note(`ocr:${name}`);
      return ocr;
    }
  }
  tally.note(`key:${name}`);
  return keyboardTypo(value, rng, field === F.zip) ?? value;
}

/** Corrupts one field with 1 or 2 characters, never giving back the value it started with. */
function corruptField(rng: Rng, tally: Tally<OcrRate>, cells: string[], field: number, mode: Case): void {
  const original = cells[field] ?? '';
  tally.note(`field:${FIELD_NAMES[field] ?? ''}`);
  const chars = tally.roll(rng, 'twoCharacters') ? 2 : 1;
  let value = original;
  for (let c = 0; c < chars; c++) {
    let next = corruptChar(rng, tally, value, field, mode);
    for (let tries = 0; tries < 3 && (next === original || next === value); tries++) next = keyboardTypo(value, rng, field === F.zip) ?? next;
    value = next;
  }
  cells[field] = value;
}

function pickFields(rng: Rng, cells: readonly string[], count: number): number[] {
  const chosen: number[] = [];
  for (let n = 0; n < count; n++) {
    const weights = CORRUPTIBLE.map((f, k) => (chosen.includes(f) || (cells[f] ?? '').length < 2 ? 0 : (CORRUPTIBLE_WEIGHTS[k] ?? 0)));
    if (weights.every((w) => w === 0)) break;
    chosen.push(CORRUPTIBLE[new WeightedSampler(weights).sample(rng)] ?? F.first);
  }
  return chosen;
}

function renderRecord(rng: Rng, tally: Tally<OcrRate>, v: Voter, k: number, mode: Case): Draft {
  const p = v.person;
  const dup = k > 0;
  let first = stripAccents(p.first);
  const nicknames = NICKNAMES[first.toLowerCase()];
  if (dup && nicknames !== undefined && tally.roll(rng, 'nickname')) first = rng.pick(nicknames);
  let middle = p.middle === null || p.middle === p.first ? '' : stripAccents(p.middle);
  if (middle !== '') {
    if (tally.roll(rng, 'middleDropped')) middle = '';
    else if (tally.roll(rng, 'middleInitial')) middle = middle.charAt(0);
  }
  let last = stripAccents(p.last);
  if (p.suffix !== null && tally.roll(rng, 'suffixShown')) last = `${last} ${p.suffix}`;
  if (dup && tally.roll(rng, 'nameSwap')) [first, last] = [last, first];
  let address = v.address;
  if (dup && tally.roll(rng, 'moved')) address = sampleAddress(rng, rng.chance(0.6) ? address.city : undefined);
  let street = '';
  if (!tally.roll(rng, 'addressMissing')) street = streetLine(address, rng, tally.roll(rng, 'streetVariant'));
  const city = tally.roll(rng, 'cityMissing') ? '' : stripAccents(CITIES[address.city]?.city ?? '');
  const zip = tally.roll(rng, 'zipMissing') ? '' : address.zip5;
  let year = '';
  if (p.dob !== null && !tally.roll(rng, 'birthYearMissing')) {
    year = p.dob.slice(0, 4);
    if (tally.roll(rng, 'birthYearOff')) year = String(Number(year) + (rng.chance(0.5) ? 1 : -1));
  }
  const cells = [first, middle, last, street, city, zip, year].map((c, i) => (i === F.zip || i === F.year ? c : applyCase(c, mode)));
  let fields = 0;
  if (!dup) fields = tally.roll(rng, 'originalCorrupted') ? 1 : 0;
  else if (tally.roll(rng, 'duplicateCorrupted')) fields = !tally.roll(rng, 'secondField') ? 1 : tally.roll(rng, 'thirdField') ? 3 : 2;
  for (const f of pickFields(rng, cells, fields)) corruptField(rng, tally, cells, f, mode);
  return { entity: v.id, cells, tags: tally.take() };
}

/** The `ocr` file for these options (entities defaulted by generateMessy). */
export function generateOcr(options: Required<MessyOptions>): MessyFile {
  const level = LEVELS.indexOf(options.level);
  const tally = new Tally(RATES, options.level);
  const caseRoll = new Rng(hashSeed(options.seed, TAG, 4)).float();
  const mode: Case = caseRoll < 0.5 ? 'upper' : caseRoll < 0.8 ? 'lower' : 'title';
  const drafts: Draft[] = [];
  voters(options, tally).forEach((v, i) => {
    const rng = new Rng(hashSeed(options.seed, TAG, 3, level, i));
    for (let k = 0; k < v.records; k++) drafts.push(renderRecord(rng, tally, v, k, mode));
  });
  return assemble({
    options,
    drafts,
    columns: OCR_COLUMNS,
    idColumn: 'rec_id',
    truthColumn: 'true_id',
    rowId: (n) => String(100001 + n),
    processes: tally.snapshot(),
    shuffleSeed: hashSeed(options.seed, TAG, 5),
  });
}

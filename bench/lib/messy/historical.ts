/**
 * Scenario `historical`: people born 1600-1950 as transcribed from registers, censuses and
 * family trees, 1-6 records each (many singletons). Columns: id, full_name, given_name,
 * surname, birth_date, birth_place, postcode, gender, occupation, truth. Every record is a
 * transcription, so every record (the first of a person too) goes through the processes.
 *
 * Records per person: 1-6 with weights 42/22/14/10/7/5 (mean 2.3). Birth years: 8% 1600s,
 * 17% 1700s, 50% 1800s, 25% 1900-1950.
 *
 * Rates (per record or per person, by level):
 *
 * | rate | per | low | medium | high | what (of which records) |
 * |---|---|---|---|---|---|
 * | hasMiddle | entity | 0.45 | 0.45 | 0.45 | people with a middle name |
 * | hasTitle | entity | 0.12 | 0.12 | 0.12 | people with a title (Rev, Sir, Lady, Mrs, Captain...) |
 * | namesakeChild | entity | 0.08 | 0.08 | 0.08 | people followed by a child with the same given name and surname, born 18-40 years later |
 * | titleAsFirst | record | 0.30 | 0.45 | 0.60 | given_name holds the title (records of titled people) |
 * | middleAsFirst | record | 0.08 | 0.12 | 0.18 | the record knows the person by the middle name only (records of people with one) |
 * | firstInitial | record | 0.05 | 0.08 | 0.12 | given name reduced to an initial (records not already changed above) |
 * | firstAbbreviation | record | 0.08 | 0.12 | 0.16 | given name as a clerk abbreviated it: Wm, Thos, Geo (records of names with one) |
 * | firstNickname | record | 0.04 | 0.06 | 0.09 | familiar form: Polly, Betsy, Harry (records of names with one, not abbreviated) |
 * | firstTranscription | record | 0.03 | 0.06 | 0.10 | a misread letter in the given name (all records) |
 * | surnameMissing | record | 0.10 | 0.15 | 0.20 | surname empty (all records) |
 * | surnameVariant | record | 0.08 | 0.12 | 0.18 | phonetic spelling of the surname: -son/-sen, ph/f, double letters, final e (records where a rule applies) |
 * | surnameTranscription | record | 0.03 | 0.06 | 0.10 | a misread letter in the surname (records with a surname) |
 * | fullNameMissing | record | 0.08 | 0.12 | 0.18 | full_name empty (all records) |
 * | dobMissing | record | 0.30 | 0.45 | 0.60 | birth_date empty (all records) |
 * | dobYearOff | record | 0.05 | 0.08 | 0.12 | birth year +-1, as from an age (records with a date) |
 * | dobYearOnly | record | 0.15 | 0.25 | 0.35 | only the year written (records with a date) |
 * | dobApproximate | record | 0.20 | 0.30 | 0.40 | year written "abt 1843", "c. 1843", "1843?", with its month or quarter only ("Mar 1843", "1843-03", "Q1 1843"), or as a christening ("chr 7 Mar 1843") (year-only records) |
 * | dobDigitTypo | record | 0.03 | 0.06 | 0.10 | one digit of the full date wrong, still a valid date (full-date records) |
 * | dobDaySwap | record | 0.03 | 0.05 | 0.08 | day and month swapped (full-date records with day <= 12, day != month) |
 * | dobOtherFormat | record | 0.10 | 0.20 | 0.30 | written 7 Mar 1843, 07/03/1843 or Mar 7, 1843 instead of ISO (full-date records) |
 * | birthPlaceMissing | record | 0.15 | 0.25 | 0.35 | birth_place empty (all records) |
 * | birthPlaceNeighbour | record | 0.04 | 0.07 | 0.10 | a neighbouring town instead (records with a place) |
 * | birthPlaceSpelling | record | 0.10 | 0.15 | 0.22 | another spelling of the town: Yorke, Leverpool, Brummagem (records with a place) |
 * | birthPlaceCounty | record | 0.15 | 0.20 | 0.25 | county appended: "Leeds, Yorks" (records with a place) |
 * | postcodeMissing | record | 0.30 | 0.40 | 0.50 | postcode empty (all records) |
 * | postcodeTypo | record | 0.03 | 0.06 | 0.10 | one character of the postcode mistyped (records with a postcode) |
 * | postcodeFormat | record | 0.05 | 0.10 | 0.15 | postcode without its space or in lower case (records with a postcode) |
 * | genderMissing | record | 0.05 | 0.10 | 0.15 | gender empty (all records) |
 * | occupationMissing | record | 0.25 | 0.35 | 0.45 | occupation empty (all records) |
 * | occupationOther | record | 0.03 | 0.05 | 0.08 | another occupation or a life stage: scholar, retired, pauper (records with one) |
 * | occupationWording | record | 0.20 | 0.30 | 0.40 | the same occupation worded otherwise: ag lab, collier, cordwainer (records with one) |
 */
import { Rng, WeightedSampler, hashSeed, zipfWeights } from '../prng.js';
import { assemble, clusterSizes } from './assemble.js';
import type { Draft, MessyFile, MessyOptions } from './assemble.js';
import { MONTHS, dateDigitTypo, formatDate, randomDateIn, shiftYear, swapDayMonth } from './dates.js';
import type { DateFormat, Ymd } from './dates.js';
import {
  HIST_ABBREVIATIONS,
  HIST_FEMALE,
  HIST_MALE,
  HIST_NICKNAMES,
  HIST_SURNAMES,
  LIFE_STAGE_OCCUPATIONS,
  OCCUPATIONS,
  PLACES,
  POSTCODE_INWARD_LETTERS,
  TITLES_FEMALE,
  TITLES_MALE,
  TITLE_FEMALE_WEIGHTS,
  TITLE_MALE_WEIGHTS,
} from './historical-data.js';
import { LEVELS, Tally, entityRate, recordRate } from './rates.js';
import type { RateTable } from './rates.js';
import { HANDWRITING_PAIRS, confuse, keyboardTypo, phoneticVariant } from './text-errors.js';

const r = recordRate;
const same = entityRate;

export const HISTORICAL_RATES = {
  hasMiddle: same(0.45, 'people with a middle name'),
  hasTitle: same(0.12, 'people with a title (Rev, Sir, Lady, Mrs, Captain...)'),
  namesakeChild: same(0.08, 'people followed by a child with the same given name and surname, born 18-40 years later'),
  titleAsFirst: r(0.3, 0.45, 0.6, 'given_name holds the title (records of titled people)'),
  middleAsFirst: r(0.08, 0.12, 0.18, 'the record knows the person by the middle name only (records of people with one)'),
  firstInitial: r(0.05, 0.08, 0.12, 'given name reduced to an initial (records not already changed above)'),
  firstAbbreviation: r(0.08, 0.12, 0.16, 'given name as a clerk abbreviated it: Wm, Thos, Geo (records of names with one)'),
  firstNickname: r(0.04, 0.06, 0.09, 'familiar form: Polly, Betsy, Harry (records of names with one, not abbreviated)'),
  firstTranscription: r(0.03, 0.06, 0.1, 'a misread letter in the given name (all records)'),
  surnameMissing: r(0.1, 0.15, 0.2, 'surname empty (all records)'),
  surnameVariant: r(0.08, 0.12, 0.18, 'phonetic spelling of the surname: -son/-sen, ph/f, double letters, final e (records where a rule applies)'),
  surnameTranscription: r(0.03, 0.06, 0.1, 'a misread letter in the surname (records with a surname)'),
  fullNameMissing: r(0.08, 0.12, 0.18, 'full_name empty (all records)'),
  dobMissing: r(0.3, 0.45, 0.6, 'birth_date empty (all records)'),
  dobYearOff: r(0.05, 0.08, 0.12, 'birth year +-1, as from an age (records with a date)'),
  dobYearOnly: r(0.15, 0.25, 0.35, 'only the year written (records with a date)'),
  dobApproximate: r(
    0.2,
    0.3,
    0.4,
    'year written "abt 1843", "c. 1843", "1843?", with its month or quarter only ("Mar 1843", "1843-03", "Q1 1843"), or as a christening ("chr 7 Mar 1843") (year-only records)',
  ),
  dobDigitTypo: r(0.03, 0.06, 0.1, 'one digit of the full date wrong, still a valid date (full-date records)'),
  dobDaySwap: r(0.03, 0.05, 0.08, 'day and month swapped (full-date records with day <= 12, day != month)'),
  dobOtherFormat: r(0.1, 0.2, 0.3, 'written 7 Mar 1843, 07/03/1843 or Mar 7, 1843 instead of ISO (full-date records)'),
  birthPlaceMissing: r(0.15, 0.25, 0.35, 'birth_place empty (all records)'),
  birthPlaceNeighbour: r(0.04, 0.07, 0.1, 'a neighbouring town instead (records with a place)'),
  birthPlaceSpelling: r(0.1, 0.15, 0.22, 'another spelling of the town: Yorke, Leverpool, Brummagem (records with a place)'),
  birthPlaceCounty: r(0.15, 0.2, 0.25, 'county appended: "Leeds, Yorks" (records with a place)'),
  postcodeMissing: r(0.3, 0.4, 0.5, 'postcode empty (all records)'),
  postcodeTypo: r(0.03, 0.06, 0.1, 'one character of the postcode mistyped (records with a postcode)'),
  postcodeFormat: r(0.05, 0.1, 0.15, 'postcode without its space or in lower case (records with a postcode)'),
  genderMissing: r(0.05, 0.1, 0.15, 'gender empty (all records)'),
  occupationMissing: r(0.25, 0.35, 0.45, 'occupation empty (all records)'),
  occupationOther: r(0.03, 0.05, 0.08, 'another occupation or a life stage: scholar, retired, pauper (records with one)'),
  occupationWording: r(0.2, 0.3, 0.4, 'the same occupation worded otherwise: ag lab, collier, cordwainer (records with one)'),
} as const;

export type HistoricalRate = keyof typeof HISTORICAL_RATES;
const RATES: RateTable<HistoricalRate> = HISTORICAL_RATES;

/** Default number of people: about 5,000 rows. */
export const HISTORICAL_DEFAULT_ENTITIES = 2200;
export const HISTORICAL_COLUMNS = ['full_name', 'given_name', 'surname', 'birth_date', 'birth_place', 'postcode', 'gender', 'occupation'] as const;

const TAG = 0x4849; // "HI"
const RECORDS = clusterSizes([42, 22, 14, 10, 7, 5]);
/** Records per person with `manyRecords`: 4-18, most 5-11. */
const MANY_RECORDS = clusterSizes([0, 0, 0, 5, 8, 10, 10, 10, 8, 8, 6, 5, 4, 3, 2, 2, 1, 1]);
const MALE = new WeightedSampler(zipfWeights(HIST_MALE.length, 1.1, 2));
const FEMALE = new WeightedSampler(zipfWeights(HIST_FEMALE.length, 1.1, 2));
const SURNAME = new WeightedSampler(zipfWeights(HIST_SURNAMES.length, 0.8, 4));
const TITLE_M = new WeightedSampler(TITLE_MALE_WEIGHTS);
const TITLE_F = new WeightedSampler(TITLE_FEMALE_WEIGHTS);
const OCC_M = new WeightedSampler(OCCUPATIONS.map((o) => o.male));
const OCC_F = new WeightedSampler(OCCUPATIONS.map((o) => o.female));
const PLACE = new WeightedSampler(zipfWeights(PLACES.length, 0.6, 3));
const RESIDENCES = PLACES.map((p, i) => (p.area === '' ? -1 : i)).filter((i) => i >= 0);

interface Person {
  readonly id: string;
  readonly male: boolean;
  readonly first: string;
  readonly middle: string | null;
  readonly surname: string;
  readonly title: readonly string[] | null;
  readonly dob: Ymd;
  readonly place: number;
  readonly postcode: string;
  readonly occupation: number;
  readonly records: number;
}

function birthYear(rng: Rng): number {
  const u = rng.float();
  if (u < 0.08) return rng.range(1600, 1699);
  if (u < 0.25) return rng.range(1700, 1799);
  if (u < 0.75) return rng.range(1800, 1899);
  return rng.range(1900, 1950);
}

function postcodeIn(rng: Rng, place: number): string {
  const area = PLACES[place]?.area ?? 'YO';
  const letter = (): string => POSTCODE_INWARD_LETTERS.charAt(rng.int(POSTCODE_INWARD_LETTERS.length));
  return `${area}${rng.range(1, 20)} ${rng.range(0, 9)}${letter()}${letter()}`;
}

function fold(name: string): string {
  return name.toLowerCase();
}

function samplePerson(rng: Rng, tally: Tally<HistoricalRate>, id: string, parent: Person | null, many: boolean): Person {
  const male = parent !== null ? parent.male : rng.chance(0.5);
  const names = male ? HIST_MALE : HIST_FEMALE;
  const sampler = male ? MALE : FEMALE;
  const first = parent?.first ?? names[sampler.sample(rng)] ?? 'John';
  let middle: string | null = null;
  if (tally.roll(rng, 'hasMiddle')) {
    middle = names[sampler.sample(rng)] ?? null;
    if (middle === first) middle = names[(names.indexOf(first) + 1) % names.length] ?? null;
  }
  let title: readonly string[] | null = null;
  if (tally.roll(rng, 'hasTitle')) title = (male ? TITLES_MALE[TITLE_M.sample(rng)] : TITLES_FEMALE[TITLE_F.sample(rng)]) ?? null;
  const year = parent !== null ? Math.min(1950, parent.dob.y + rng.range(18, 40)) : birthYear(rng);
  let place = PLACE.sample(rng);
  if (parent !== null) {
    const near = rng.pick(PLACES[parent.place]?.near ?? []);
    place = rng.chance(0.7)
      ? parent.place
      : Math.max(
          0,
          PLACES.findIndex((p) => p.forms[0] === near),
        );
  }
  let postcode: string;
  if (parent !== null && rng.chance(0.6)) postcode = parent.postcode;
  else postcode = postcodeIn(rng, (PLACES[place]?.area ?? '') !== '' && rng.chance(0.7) ? place : rng.pick(RESIDENCES));
  const occupation = parent !== null && rng.chance(0.5) ? parent.occupation : (male ? OCC_M : OCC_F).sample(rng);
  return {
    id,
    male,
    first,
    middle,
    title,
    place,
    occupation,
    postcode,
    surname: parent?.surname ?? HIST_SURNAMES[SURNAME.sample(rng)] ?? 'Smith',
    dob: randomDateIn(rng, year),
    records: (many ? MANY_RECORDS : RECORDS)(rng),
  };
}

function renderName(rng: Rng, tally: Tally<HistoricalRate>, p: Person): { full: string; given: string; surname: string } {
  const key = fold(p.first);
  let given = p.first;
  const abbreviations = HIST_ABBREVIATIONS[key];
  const nicknames = HIST_NICKNAMES[key];
  if (abbreviations !== undefined && tally.roll(rng, 'firstAbbreviation')) given = rng.pick(abbreviations);
  else if (nicknames !== undefined && tally.roll(rng, 'firstNickname')) given = rng.pick(nicknames);
  const misread = (v: string): string | null => confuse(v, HANDWRITING_PAIRS, rng) ?? keyboardTypo(v, rng);
  given = tally.apply(rng, 'firstTranscription', given, misread);
  let surname = p.surname;
  if (tally.roll(rng, 'surnameMissing')) surname = '';
  else {
    const variant = phoneticVariant(surname, rng);
    if (variant !== null && tally.roll(rng, 'surnameVariant')) surname = variant;
    surname = tally.apply(rng, 'surnameTranscription', surname, misread);
  }
  const title = p.title !== null ? rng.pick(p.title) : null;
  const middle = p.middle !== null && rng.chance(0.7) ? p.middle : null;
  const join = (...parts: (string | null)[]): string => parts.filter((x): x is string => x !== null && x !== '').join(' ');
  let column = given;
  let full = join(title !== null && rng.chance(0.5) ? title : null, given, middle, surname);
  if (title !== null && tally.roll(rng, 'titleAsFirst')) {
    column = title;
    full = rng.chance(0.5) ? join(title, surname) : join(title, given, middle, surname);
  } else if (p.middle !== null && tally.roll(rng, 'middleAsFirst')) {
    column = p.middle;
    full = join(p.middle, surname);
  } else if (tally.roll(rng, 'firstInitial')) {
    column = given.charAt(0) + (rng.chance(0.5) ? '.' : '');
    full = join(column, middle !== null ? `${middle.charAt(0)}.` : null, surname);
  }
  if (tally.roll(rng, 'fullNameMissing')) full = '';
  else if (surname !== '' && rng.chance(0.1)) full = `${surname}, ${join(column === title ? title : given, middle)}`;
  return { full, given: column, surname };
}

const OTHER_FORMATS: readonly DateFormat[] = ['d-mon-y', 'dmy', 'mon-d-y'];

function renderDob(rng: Rng, tally: Tally<HistoricalRate>, dob: Ymd): string {
  if (tally.roll(rng, 'dobMissing')) return '';
  let date = dob;
  if (tally.roll(rng, 'dobYearOff')) date = shiftYear(date, rng.chance(0.5) ? 1 : -1);
  if (tally.roll(rng, 'dobYearOnly')) {
    const year = formatDate(date, 'year');
    if (!tally.roll(rng, 'dobApproximate')) return year;
    const month = MONTHS[date.m - 1] ?? 'Jan';
    return rng.pick([
      `abt ${year}`,
      `c. ${year}`,
      `${year}?`,
      `c${year}`,
      `${month} ${year}`,
      `${year}-${String(date.m).padStart(2, '0')}`,
      `Q${Math.ceil(date.m / 3)} ${year}`,
      `chr ${formatDate(date, 'd-mon-y')}`,
    ]);
  }
  if (tally.roll(rng, 'dobDigitTypo')) {
    const typo = dateDigitTypo(date, rng);
    if (typo === null) tally.revoke('dobDigitTypo');
    else date = typo;
  }
  const swapped = swapDayMonth(date);
  if (swapped !== null && tally.roll(rng, 'dobDaySwap')) date = swapped;
  return formatDate(date, tally.roll(rng, 'dobOtherFormat') ? rng.pick(OTHER_FORMATS) : 'iso');
}

function renderPlace(rng: Rng, tally: Tally<HistoricalRate>, index: number): string {
  if (tally.roll(rng, 'birthPlaceMissing')) return '';
  let place = PLACES[index] ?? PLACES[0];
  if (place === undefined) return '';
  if (tally.roll(rng, 'birthPlaceNeighbour')) {
    const near = rng.pick(place.near);
    place = PLACES.find((p) => p.forms[0] === near) ?? place;
  }
  let text = place.forms[0] ?? '';
  if (place.forms.length > 1 && tally.roll(rng, 'birthPlaceSpelling')) text = place.forms[1 + rng.int(place.forms.length - 1)] ?? text;
  if (tally.roll(rng, 'birthPlaceCounty')) text = `${text}, ${rng.pick(place.county)}`;
  return text;
}

function renderPostcode(rng: Rng, tally: Tally<HistoricalRate>, postcode: string): string {
  if (tally.roll(rng, 'postcodeMissing')) return '';
  let text = tally.apply(rng, 'postcodeTypo', postcode, (v) => keyboardTypo(v, rng));
  if (tally.roll(rng, 'postcodeFormat')) text = rng.chance(0.5) ? text.replace(' ', '') : text.toLowerCase();
  return text;
}

function renderOccupation(rng: Rng, tally: Tally<HistoricalRate>, p: Person): string {
  if (tally.roll(rng, 'occupationMissing')) return '';
  const forms = OCCUPATIONS[p.occupation]?.forms ?? ['labourer'];
  if (tally.roll(rng, 'occupationOther')) {
    return rng.chance(0.5) ? rng.pick(LIFE_STAGE_OCCUPATIONS) : rng.pick(rng.pick(OCCUPATIONS).forms.slice(0, 1));
  }
  if (tally.roll(rng, 'occupationWording')) return forms[1 + rng.int(forms.length - 1)] ?? forms[0] ?? '';
  return forms[0] ?? '';
}

function renderRecord(rng: Rng, tally: Tally<HistoricalRate>, p: Person): Draft {
  const name = renderName(rng, tally, p);
  const cells = [
    name.full,
    name.given,
    name.surname,
    renderDob(rng, tally, p.dob),
    renderPlace(rng, tally, p.place),
    renderPostcode(rng, tally, p.postcode),
    tally.roll(rng, 'genderMissing') ? '' : p.male ? 'M' : 'F',
    renderOccupation(rng, tally, p),
  ];
  return { entity: p.id, cells, tags: tally.take() };
}

/** The `historical` file for these options (entities defaulted by generateMessy). */
export function generateHistorical(options: Required<MessyOptions>): MessyFile {
  const level = LEVELS.indexOf(options.level);
  const tally = new Tally(RATES, options.level);
  const drafts: Draft[] = [];
  let parent: Person | null = null;
  for (let i = 0; i < options.entities; i++) {
    const world = new Rng(hashSeed(options.seed, TAG, 1, i));
    const person: Person = samplePerson(world, tally, `P${i + 1}`, parent, options.manyRecords);
    parent = parent === null && tally.roll(world, 'namesakeChild') ? person : null;
    const rng = new Rng(hashSeed(options.seed, TAG, 2, level, i));
    for (let k = 0; k < person.records; k++) drafts.push(renderRecord(rng, tally, person));
  }
  return assemble({
    options,
    drafts,
    columns: HISTORICAL_COLUMNS,
    idColumn: 'id',
    truthColumn: 'truth',
    rowId: (n) => String(n + 1),
    processes: tally.snapshot(),
    shuffleSeed: hashSeed(options.seed, TAG, 3),
  });
}

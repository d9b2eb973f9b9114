/**
 * The "true" people behind the synthetic corpus: households, names, dates of birth, emails,
 * phones and addresses in canonical form. Rendering them as records or noisy queries is
 * bench/lib/corpus-render.ts's job.
 *
 * Every person and household is generated on demand from (seed, index), so a 1M corpus
 * needs no memory beyond two small typed arrays, and person i is the same whichever order
 * people are asked for in.
 */
import {
  CITIES,
  COMPANY_TLDS,
  COMPANY_WORDS,
  DIRECTIONALS,
  EMAIL_DOMAINS,
  EMAIL_DOMAIN_WEIGHTS,
  FEMALE_FIRST,
  FIRST_TAIL_ENDS,
  FIRST_TAIL_HEADS,
  MALE_FIRST,
  NICKNAMES,
  STREET_NAMES,
  STREET_SUFFIX_WEIGHTS,
  SURNAMES,
  SURNAME_TAIL_ENDS,
  SURNAME_TAIL_HEADS,
  SURNAME_TAIL_MIDS,
} from './corpus-data.js';
import { Rng, WeightedSampler, goldenMultiplier, hashSeed, scatter, zipfWeights } from './prng.js';

export type Gender = 'm' | 'f';
export type Suffix = 'Jr' | 'Sr' | 'II' | 'III';

export interface AddressModel {
  readonly number: string;
  /** Index into DIRECTIONALS, or -1. */
  readonly predir: number;
  readonly street: string;
  /** Index into STREET_SUFFIXES, or -1 (a street with no suffix). */
  readonly suffix: number;
  /** Unit number such as "4B", or null. */
  readonly unit: string | null;
  /** Index into CITIES. */
  readonly city: number;
  readonly zip5: string;
  readonly plus4: string;
}

export type PhoneKind = 'mobile' | 'landline' | 'office';

export interface PhoneModel {
  /** Ten US digits: area code, exchange, line. */
  readonly digits: string;
  readonly kind: PhoneKind;
  readonly ext: string | null;
}

export interface PersonModel {
  readonly personId: number;
  readonly householdId: number;
  readonly gender: Gender;
  /** Canonical given name, accents kept ("José"). */
  readonly first: string;
  readonly middle: string | null;
  readonly last: string;
  readonly suffix: Suffix | null;
  /** "YYYY-MM-DD" or null when unknown. */
  readonly dob: string | null;
  /** Canonical (lower-case) addresses; shared family address last. */
  readonly emails: readonly string[];
  readonly phones: readonly PhoneModel[];
  /** Current address first, then a previous one if any. */
  readonly addresses: readonly AddressModel[];
  /** Which values are shared with other people (household or office). */
  readonly sharedEmail: string | null;
  readonly sharedPhones: readonly string[];
  /** Another member of the household has the same first and last name (Jr/Sr). */
  readonly namesake: boolean;
}

interface MemberPlan {
  readonly gender: Gender;
  readonly first: string;
  readonly middle: string | null;
  readonly last: string;
  readonly suffix: Suffix | null;
  readonly birthYear: number;
  readonly landline: boolean;
  readonly familyEmail: boolean;
}

export interface HouseholdModel {
  readonly start: number;
  readonly size: number;
  readonly surname: string;
  readonly address: AddressModel;
  readonly landline: PhoneModel | null;
  readonly familyEmail: string | null;
  readonly members: readonly MemberPlan[];
}

// Streams: one tag per kind of thing generated from (seed, index).
export const TAG_LAYOUT = 1;
export const TAG_HOUSEHOLD = 2;
export const TAG_PERSON = 3;
export const TAG_RECORD = 4;
export const TAG_QUERY = 5;
const TAG_OFFICE = 6;

/** Household sizes 1..5 (share of households): about 60% of people share a home. */
const HOUSEHOLD_SIZE = new WeightedSampler([0.62, 0.21, 0.08, 0.06, 0.03]);

const MALE = new WeightedSampler(zipfWeights(MALE_FIRST.length, 1, 8));
const FEMALE = new WeightedSampler(zipfWeights(FEMALE_FIRST.length, 1, 8));
const SURNAME = new WeightedSampler(zipfWeights(SURNAMES.length, 1, 12));
const SURNAME_TAIL_SIZE = SURNAME_TAIL_HEADS.length * SURNAME_TAIL_MIDS.length * SURNAME_TAIL_ENDS.length;
const SURNAME_TAIL = new WeightedSampler(zipfWeights(SURNAME_TAIL_SIZE, 0.9, 5));
const CITY = new WeightedSampler(zipfWeights(CITIES.length, 1, 2));
const STREET = new WeightedSampler(zipfWeights(STREET_NAMES.length, 0.6));
const STREET_SUFFIX = new WeightedSampler(STREET_SUFFIX_WEIGHTS);
const EMAIL_DOMAIN = new WeightedSampler(EMAIL_DOMAIN_WEIGHTS);

/** Share of people whose surname comes from the ranked list (the rest: the long tail). */
const LISTED_SURNAME_SHARE = 0.5;
/** Share of people whose given name comes from the ranked lists. */
const LISTED_FIRST_SHARE = 0.9;

/** Valid US exchanges: 200-999 without N11 service codes and without 555. */
const EXCHANGES: readonly string[] = (() => {
  const out: string[] = [];
  for (let e = 200; e <= 999; e++) if (e % 100 !== 11 && e !== 555) out.push(String(e));
  return out;
})();
const NUMBERS_PER_AREA = EXCHANGES.length * 10000;
const PHONE_MULTIPLIER = goldenMultiplier(NUMBERS_PER_AREA);
const EMAIL_TOKENS = 10_000_000;
const EMAIL_MULTIPLIER = goldenMultiplier(EMAIL_TOKENS);
/** Phone slots 3i, 3i+1, 3i+2 must stay below NUMBERS_PER_AREA to be unique. */
export const MAX_PEOPLE = Math.floor(NUMBERS_PER_AREA / 3) - 1;
const ALL_AREAS: readonly string[] = CITIES.flatMap((c) => c.area);

const ACCENTS = /[\u0300-\u036f]/g;
const NON_DECOMPOSING: Readonly<Record<string, string>> = {
  ł: 'l',
  Ł: 'L',
  ø: 'o',
  Ø: 'O',
  ß: 'ss',
  ı: 'i',
  æ: 'ae',
  Æ: 'Ae',
  đ: 'd',
  Đ: 'D',
};

/** Removes accents the way a keyboard without them would: "Łukasz" -> "Lukasz". */
export function stripAccents(text: string): string {
  if (!/[\u0080-\uffff]/.test(text)) return text;
  return text
    .normalize('NFKD')
    .replace(ACCENTS, '')
    .replace(/[łøßıæđ]/gi, (ch) => NON_DECOMPOSING[ch] ?? ch);
}

/** Lower-case ASCII letters only, for email local parts: "de la Cruz" -> "delacruz". */
function emailWord(text: string): string {
  return stripAccents(text)
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

/** Same nickname group (from NICKNAMES) or same folded name. */
export function sameGivenName(a: string, b: string): boolean {
  const x = stripAccents(a).toLowerCase();
  const y = stripAccents(b).toLowerCase();
  if (x === y) return true;
  const nx = NICKNAMES[x];
  const ny = NICKNAMES[y];
  if (nx?.some((n) => n.toLowerCase() === y)) return true;
  if (ny?.some((n) => n.toLowerCase() === x)) return true;
  if (nx && ny) return nx.some((n) => ny.includes(n));
  return x.slice(0, 3) === y.slice(0, 3) && (x.length < 4 || y.length < 4);
}

export function sampleFirst(rng: Rng, gender: Gender): string {
  if (!rng.chance(LISTED_FIRST_SHARE)) {
    return rng.pick(FIRST_TAIL_HEADS) + rng.pick(FIRST_TAIL_ENDS);
  }
  const list = gender === 'm' ? MALE_FIRST : FEMALE_FIRST;
  const sampler = gender === 'm' ? MALE : FEMALE;
  return list[sampler.sample(rng)] ?? 'Alex';
}

export function sampleSurname(rng: Rng): string {
  if (rng.chance(LISTED_SURNAME_SHARE)) return SURNAMES[SURNAME.sample(rng)] ?? 'Smith';
  // Scatter ranks so that the common tail names are not all built from the first syllables.
  const idx = scatter(SURNAME_TAIL.sample(rng), 7, 3, SURNAME_TAIL_SIZE);
  const head = SURNAME_TAIL_HEADS[idx % SURNAME_TAIL_HEADS.length] ?? '';
  const rest = Math.floor(idx / SURNAME_TAIL_HEADS.length);
  const mid = SURNAME_TAIL_MIDS[rest % SURNAME_TAIL_MIDS.length] ?? '';
  const end = SURNAME_TAIL_ENDS[Math.floor(rest / SURNAME_TAIL_MIDS.length)] ?? '';
  return head + mid + end;
}

function sampleMiddle(rng: Rng, gender: Gender): string | null {
  return rng.chance(0.7) ? sampleFirst(rng, rng.chance(0.85) ? gender : gender === 'm' ? 'f' : 'm') : null;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function sampleDob(rng: Rng, year: number): string {
  const month = rng.range(1, 12);
  const day = rng.range(1, daysInMonth(year, month));
  return `${year}-${pad(month, 2)}-${pad(day, 2)}`;
}

export function sampleAddress(rng: Rng, cityIndex?: number): AddressModel {
  const city = cityIndex ?? CITY.sample(rng);
  const entry = CITIES[city] ?? CITIES[0];
  const number = Math.min(19999, Math.max(1, Math.floor(Math.exp(rng.float() * Math.log(20000)))));
  const unit = rng.chance(0.22) ? String(rng.range(1, 40)) + (rng.chance(0.35) ? String.fromCharCode(65 + rng.int(6)) : '') : null;
  return {
    number: String(number),
    predir: rng.chance(0.18) ? rng.int(rng.chance(0.85) ? 4 : DIRECTIONALS.length) : -1,
    street: STREET_NAMES[STREET.sample(rng)] ?? 'Main',
    suffix: rng.chance(0.03) ? -1 : STREET_SUFFIX.sample(rng),
    unit,
    city,
    zip5: rng.pick(entry?.zip3 ?? ['100']) + pad(rng.int(100), 2),
    plus4: pad(rng.int(10000), 4),
  };
}

/** A unique US phone number for a slot (slot < 3 * MAX_PEOPLE), in the given area code. */
function phoneDigits(slot: number, area: string): string {
  const n = scatter(slot, PHONE_MULTIPLIER, 4242, NUMBERS_PER_AREA);
  return area + (EXCHANGES[Math.floor(n / 10000)] ?? '200') + pad(n % 10000, 4);
}

function cityArea(rng: Rng, city: number): string {
  return rng.pick(CITIES[city]?.area ?? ['202']);
}

/** Unique email token per (index < 5M, stream 0 or 1): a bijection of [0, 10^7). */
function emailToken(index: number, stream: number): number {
  return scatter(2 * index + stream, EMAIL_MULTIPLIER, 7777, EMAIL_TOKENS);
}

function personalEmail(rng: Rng, first: string, last: string, token: number): string {
  const f = emailWord(first) || 'user';
  const l = emailWord(last) || 'mail';
  const t = String(token);
  const roll = rng.int(100);
  const local =
    roll < 30
      ? `${f}.${l}${t}`
      : roll < 50
        ? `${f}${l}${t}`
        : roll < 70
          ? `${f[0] ?? ''}${l}${t}`
          : roll < 78
            ? `${f}_${l}${t}`
            : roll < 85
              ? `${l}.${f}${t}`
              : roll < 93
                ? `${f}${t}`
                : `${f[0] ?? ''}.${l}${t}`;
  return `${local}@${EMAIL_DOMAINS[EMAIL_DOMAIN.sample(rng)] ?? 'gmail.com'}`;
}

/** Employers sharing a switchboard number: Zipf-sized, the largest has thousands at 1M. */
export class Offices {
  readonly count: number;
  private readonly sampler: WeightedSampler;

  constructor(
    private readonly seed: number,
    corpusSize: number,
  ) {
    this.count = Math.max(5, Math.floor(corpusSize / 200));
    this.sampler = new WeightedSampler(zipfWeights(this.count, 0.9));
  }

  sample(rng: Rng): number {
    return this.sampler.sample(rng);
  }

  phone(office: number): string {
    const rng = new Rng(hashSeed(this.seed, TAG_OFFICE, office));
    return phoneDigits(3 * office + 2, cityArea(rng, CITY.sample(rng)));
  }

  domain(office: number): string {
    const word = COMPANY_WORDS[office % COMPANY_WORDS.length] ?? 'acme';
    const tld = COMPANY_TLDS[Math.floor(office / COMPANY_WORDS.length) % COMPANY_TLDS.length] ?? 'com';
    const n = Math.floor(office / (COMPANY_WORDS.length * COMPANY_TLDS.length));
    return `${word}${n > 0 ? n : ''}.${tld}`;
  }
}

/** Household layout: for each person, their offset in the household and its size. */
export class HouseholdLayout {
  readonly offset: Uint8Array;
  readonly size: Uint8Array;

  constructor(seed: number, people: number) {
    this.offset = new Uint8Array(people);
    this.size = new Uint8Array(people);
    const rng = new Rng(hashSeed(seed, TAG_LAYOUT));
    let i = 0;
    while (i < people) {
      const n = Math.min(HOUSEHOLD_SIZE.sample(rng) + 1, people - i);
      for (let k = 0; k < n; k++) {
        this.offset[i + k] = k;
        this.size[i + k] = n;
      }
      i += n;
    }
  }
}

/** Generates households and people from (seed, index). */
export class PeopleModel {
  readonly offices: Offices;
  private cached: HouseholdModel | null = null;

  constructor(
    readonly seed: number,
    readonly layout: HouseholdLayout,
  ) {
    this.offices = new Offices(seed, layout.size.length);
  }

  /** The household whose first member is person `start`, of `size` people. */
  household(start: number, size: number): HouseholdModel {
    if (this.cached?.start === start && this.cached.size === size) return this.cached;
    const rng = new Rng(hashSeed(this.seed, TAG_HOUSEHOLD, start));
    const surname = sampleSurname(rng);
    const address = sampleAddress(rng);
    const landline = rng.chance(size >= 2 ? 0.5 : 0.2)
      ? { digits: phoneDigits(3 * start + 1, cityArea(rng, address.city)), kind: 'landline' as const, ext: null }
      : null;
    let familyEmail: string | null = null;
    if (size >= 2 && rng.chance(0.3)) {
      const l = emailWord(surname) || 'family';
      const t = emailToken(start, 1);
      const local = rng.chance(0.5) ? `the${l}s${t}` : `${l}family${t}`;
      familyEmail = `${local}@${EMAIL_DOMAINS[EMAIL_DOMAIN.sample(rng)] ?? 'gmail.com'}`;
    }
    const junior = size >= 2 && rng.chance(0.12);
    const headGender: Gender = junior || rng.chance(0.5) ? 'm' : 'f';
    const headYear = size >= 3 || junior ? rng.range(1935, 1982) : rng.range(1935, 2006);
    const members: MemberPlan[] = [];
    const spouseAt = junior ? 2 : 1;
    let spouseLast: string | null = null;
    for (let k = 0; k < size; k++) {
      const landlineMember = rng.chance(0.85);
      const familyMember = rng.chance(0.7);
      const head = members[0];
      if (k === 0 || head === undefined) {
        members.push({
          gender: headGender,
          first: sampleFirst(rng, headGender),
          middle: sampleMiddle(rng, headGender),
          last: surname,
          suffix: junior ? (rng.chance(0.7) ? 'Sr' : null) : rng.chance(0.004) ? 'III' : null,
          birthYear: headYear,
          landline: landlineMember,
          familyEmail: familyMember,
        });
        continue;
      }
      if (k === 1 && junior) {
        members.push({
          gender: 'm',
          first: head.first,
          middle: head.middle,
          last: surname,
          suffix: rng.chance(0.88) ? 'Jr' : 'II',
          birthYear: Math.min(2006, headYear + rng.range(20, 38)),
          landline: landlineMember,
          familyEmail: familyMember,
        });
        continue;
      }
      const isSpouse = k === spouseAt;
      const gender: Gender = isSpouse ? (rng.chance(0.9) ? (headGender === 'm' ? 'f' : 'm') : headGender) : rng.chance(0.5) ? 'm' : 'f';
      let first = sampleFirst(rng, gender);
      for (let tries = 0; tries < 20 && members.some((m) => sameGivenName(m.first, first)); tries++) {
        first = sampleFirst(rng, gender);
      }
      let last = surname;
      let birthYear: number;
      if (isSpouse) {
        birthYear = Math.min(2006, Math.max(1930, headYear + rng.range(-6, 6)));
        const roll = rng.float();
        if (roll < 0.15) last = sampleSurname(rng);
        else if (roll < 0.22) last = `${sampleSurname(rng)}-${surname}`;
        spouseLast = last;
      } else {
        birthYear = Math.min(2006, headYear + rng.range(20, 38));
        if (spouseLast !== null && spouseLast !== surname && !spouseLast.includes('-') && rng.chance(0.3)) {
          last = `${surname}-${spouseLast}`;
        }
      }
      members.push({
        gender,
        first,
        middle: sampleMiddle(rng, gender),
        last,
        suffix: null,
        birthYear,
        landline: landlineMember,
        familyEmail: familyMember,
      });
    }
    const model: HouseholdModel = { start, size, surname, address, landline, familyEmail, members };
    this.cached = model;
    return model;
  }

  /** Person i of the corpus (i < layout size). */
  person(i: number): PersonModel {
    const offset = this.layout.offset[i] ?? 0;
    const size = this.layout.size[i] ?? 1;
    const household = this.household(i - offset, size);
    const plan = household.members[offset];
    if (plan === undefined) throw new RangeError(`no member ${offset} in household ${i - offset}`);
    return this.personFrom(i, household, plan);
  }

  /** A person outside the corpus (index >= corpus size) living alone. */
  newPerson(i: number): PersonModel {
    const household = this.household(i, 1);
    const plan = household.members[0];
    if (plan === undefined) throw new RangeError('empty household');
    return this.personFrom(i, household, plan);
  }

  /**
   * A person outside the corpus (index >= corpus size) joining an existing household: a
   * different first name, or with `junior` the head's namesake with suffix Jr.
   */
  newRelative(i: number, relativeOf: number, junior: boolean): PersonModel {
    const offset = this.layout.offset[relativeOf] ?? 0;
    const household = this.household(relativeOf - offset, this.layout.size[relativeOf] ?? 1);
    const rng = new Rng(hashSeed(this.seed, TAG_HOUSEHOLD, i));
    const of = household.members[offset];
    if (of === undefined) throw new RangeError('no such member');
    let plan: MemberPlan;
    if (junior) {
      plan = { ...of, gender: 'm', suffix: 'Jr', birthYear: of.birthYear + rng.range(22, 35), landline: true, familyEmail: false };
    } else {
      const gender: Gender = rng.chance(0.5) ? 'm' : 'f';
      let first = sampleFirst(rng, gender);
      for (let tries = 0; tries < 20 && household.members.some((m) => sameGivenName(m.first, first)); tries++) {
        first = sampleFirst(rng, gender);
      }
      plan = {
        gender,
        first,
        middle: sampleMiddle(rng, gender),
        last: of.last,
        suffix: null,
        birthYear: Math.min(2006, of.birthYear + rng.range(-30, 30)),
        landline: rng.chance(0.9),
        familyEmail: rng.chance(0.5),
      };
    }
    const person = this.personFrom(i, household, plan);
    // A namesake junior always carries a date of birth: the case tested is "same name, same
    // address, different date of birth" (without one, Jr vs a suffix-less record is a guess).
    return junior && person.dob === null ? { ...person, dob: sampleDob(rng, plan.birthYear) } : person;
  }

  private personFrom(i: number, household: HouseholdModel, plan: MemberPlan): PersonModel {
    const rng = new Rng(hashSeed(this.seed, TAG_PERSON, i));
    const emails: string[] = [];
    const phones: PhoneModel[] = [];
    const sharedPhones: string[] = [];
    let sharedEmail: string | null = null;
    if (rng.chance(0.72)) emails.push(personalEmail(rng, plan.first, plan.last, emailToken(i, 0)));
    let office = -1;
    if (rng.chance(0.06)) office = this.offices.sample(rng);
    if (office >= 0 && rng.chance(0.5)) {
      const f = emailWord(plan.first) || 'staff';
      const l = emailWord(plan.last) || 'member';
      emails.push(`${f}.${l}${emailToken(i, 1)}@${this.offices.domain(office)}`);
    }
    if (household.familyEmail !== null && plan.familyEmail) {
      emails.push(household.familyEmail);
      sharedEmail = household.familyEmail;
    }
    if (rng.chance(0.78)) {
      const area = rng.chance(0.7) ? cityArea(rng, household.address.city) : rng.pick(ALL_AREAS);
      phones.push({ digits: phoneDigits(3 * i, area), kind: 'mobile', ext: null });
    }
    if (household.landline !== null && plan.landline) {
      phones.push(household.landline);
      sharedPhones.push(household.landline.digits);
    }
    if (office >= 0) {
      const digits = this.offices.phone(office);
      phones.push({ digits, kind: 'office', ext: rng.chance(0.4) ? String(rng.range(100, 9999)) : null });
      sharedPhones.push(digits);
    }
    const addresses: AddressModel[] = [];
    if (rng.chance(0.95)) addresses.push(household.address);
    if (rng.chance(0.08)) addresses.push(sampleAddress(rng, rng.chance(0.5) ? household.address.city : undefined));
    if (emails.length === 0 && phones.length === 0 && addresses.length === 0) addresses.push(household.address);
    const dob = rng.chance(plan.suffix === 'Jr' || plan.suffix === 'Sr' ? 0.95 : 0.85) ? sampleDob(rng, plan.birthYear) : null;
    return {
      personId: i,
      householdId: household.start,
      gender: plan.gender,
      first: plan.first,
      middle: plan.middle,
      last: plan.last,
      suffix: plan.suffix,
      dob,
      emails,
      phones,
      addresses,
      sharedEmail,
      sharedPhones,
      namesake: household.members.some((m) => m !== plan && m.first === plan.first && m.last === plan.last),
    };
  }
}

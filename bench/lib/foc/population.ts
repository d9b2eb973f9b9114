/**
 * A seeded population of patient- and voter-like people for the find-or-create accuracy suite
 * (bench/api-accuracy.ts): households that share a surname, an address, a landline and
 * sometimes an email; twins; fathers and sons of one name told apart by Jr/Sr; people of
 * one name in one town; placeholder records ("Unknown Unknown", "Baby Girl", "John Doe")
 * entered by intake desks; people with no home ("GENERAL DELIVERY"); first names stored
 * as a short prefix by a form that cut them; addresses behind a firm or care-of line.
 *
 * The error processes are modelled generically (what intake desks, forms and other sources
 * do to a record), not after any one file. Everything derives from the seed.
 */
import { CITIES, COMPANY_WORDS, FEMALE_FIRST, MALE_FIRST, NICKNAMES, STREET_NAMES, STREET_SUFFIXES, SURNAMES } from '../corpus-data.js';
import { Rng } from '../prng.js';

/** One person as the truth knows them. */
export interface TruePerson {
  readonly id: number;
  readonly household: number;
  first: string;
  readonly middle: string | null;
  last: string;
  suffix: string | null;
  readonly sex: 'M' | 'F';
  dob: string;
  readonly address: TrueAddress;
  readonly phone: string | null;
  readonly email: string | null;
  /** How the person's first record was entered: a form cut the first name, a firm line before the street... */
  readonly quirk: SeedQuirk;
  /** Whether the seed file's record has the date of birth (8% do not). */
  readonly seedDob: boolean;
  /** Whether the seed file holds the person (false: someone only the cases know, like a son named for his seeded father). */
  seeded: boolean;
}

export interface TrueAddress {
  /** Null for a non-address ("GENERAL DELIVERY", "HOMELESS"). */
  readonly number: string | null;
  /** Street name with its suffix, or the non-address's text. */
  readonly street: string;
  readonly unit: string | null;
  readonly city: string;
  readonly state: string;
  readonly zip: string;
}

export type SeedQuirk = 'none' | 'prefix-first' | 'firm-line' | 'care-of' | 'placeholder' | 'no-home';

/** Placeholder names intake desks use for people they cannot name. */
export const PLACEHOLDER_NAMES: readonly (readonly [string, string])[] = [
  ['Unknown', 'Unknown'],
  ['Unk', 'Unk'],
  ['Anonymous', 'Anonymous'],
  ['Baby', 'Boy'],
  ['Baby', 'Girl'],
  ['John', 'Doe'],
  ['Jane', 'Doe'],
];

/** First names given to either sex (a name alone does not tell sex). */
const UNISEX_FIRST = ['Jordan', 'Taylor', 'Casey', 'Jamie', 'Morgan', 'Riley', 'Alex', 'Jessie', 'Robin', 'Terry', 'Leslie', 'Dana'];

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** A valid ISO date between years `lo` and `hi`. */
export function randomDob(rng: Rng, lo: number, hi: number): string {
  const y = rng.range(lo, hi);
  const m = 1 + rng.int(12);
  const d = 1 + rng.int(28);
  return `${y}-${pad2(m)}-${pad2(d)}`;
}

function firstName(rng: Rng, sex: 'M' | 'F'): string {
  if (rng.chance(0.05)) return rng.pick(UNISEX_FIRST);
  return rng.pick(sex === 'M' ? MALE_FIRST : FEMALE_FIRST);
}

/** Whether two first names could be taken for one (same first three letters, or one a nickname of the other). */
function related(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x.slice(0, 3) === y.slice(0, 3)) return true;
  return (NICKNAMES[x] ?? []).some((n) => n.toLowerCase() === y) || (NICKNAMES[y] ?? []).some((n) => n.toLowerCase() === x);
}

function street(rng: Rng): string {
  const suffix = rng.pick(STREET_SUFFIXES)[1] ?? 'Street';
  return `${rng.pick(STREET_NAMES)} ${suffix}`;
}

function address(rng: Rng): TrueAddress {
  const c = rng.pick(CITIES.slice(0, 20));
  const zip = `${rng.pick(c.zip3)}${pad2(rng.int(40))}`;
  return { number: String(1 + rng.int(9000)), street: street(rng), unit: rng.chance(0.12) ? String(1 + rng.int(40)) : null, city: c.city, state: c.state, zip };
}

function phone(rng: Rng, zip: string): string {
  const c = CITIES.find((x) => x.zip3.includes(zip.slice(0, 3))) ?? CITIES[0];
  return `${rng.pick(c?.area ?? ['212'])}${2 + rng.int(8)}${String(rng.int(1_000_000)).padStart(6, '0')}`;
}

function email(rng: Rng, first: string, last: string): string {
  const local = rng.chance(0.5) ? `${first}.${last}` : `${first.charAt(0)}${last}${rng.int(100)}`;
  return `${local.toLowerCase().replace(/[^a-z0-9.]/g, '')}@${rng.pick(['gmail.com', 'yahoo.com', 'outlook.com', 'aol.com', 'icloud.com'])}`;
}

/**
 * `size` people in households: sizes 1-4; a shared surname (90%), address, landline (40%) and
 * family email (10%); twins in 10% of bigger households; a son named for his father (Jr/Sr)
 * in 8% of households with a man; 1.5% placeholder records, 1% with no home, 1.5% stored
 * with a cut first name, 1.5% behind a firm or care-of line.
 */
export function makePopulation(seed: number, size: number): TruePerson[] {
  const rng = new Rng(seed);
  const people: TruePerson[] = [];
  let household = 0;
  while (people.length < size) {
    household++;
    const n = rng.chance(0.55) ? 1 : rng.chance(0.55) ? 2 : rng.chance(0.6) ? 3 : 4;
    const home = address(rng);
    const last = rng.pick(SURNAMES);
    const landline = rng.chance(0.4) ? phone(rng, home.zip) : null;
    const familyEmail = rng.chance(0.1) ? email(rng, 'the', last) : null;
    const twinsDob = n >= 3 && rng.chance(0.1) ? randomDob(rng, 1995, 2012) : null;
    const members: TruePerson[] = [];
    for (let k = 0; k < n && people.length + members.length < size; k++) {
      const sex = rng.chance(0.5) ? 'M' : 'F';
      const adult = k < 2;
      // Parents do not give two children one name, or variants of one name.
      let first = firstName(rng, sex);
      for (let tries = 0; tries < 20 && members.some((m) => related(m.first, first)); tries++) first = firstName(rng, sex);
      const own = rng.chance(0.9) ? last : rng.pick(SURNAMES);
      const dob = !adult && twinsDob !== null && k >= 2 ? twinsDob : adult ? randomDob(rng, 1935, 1990) : randomDob(rng, 1990, 2012);
      const roll = rng.float();
      const quirk: SeedQuirk = roll < 0.015 ? 'prefix-first' : roll < 0.0225 ? 'firm-line' : roll < 0.03 ? 'care-of' : 'none';
      members.push({
        id: people.length + members.length,
        household,
        first,
        middle: rng.chance(0.45) ? firstName(rng, sex) : null,
        last: own,
        suffix: null,
        sex,
        dob,
        address: home,
        phone: landline ?? (rng.chance(0.6) ? phone(rng, home.zip) : null),
        email: familyEmail ?? (rng.chance(0.5) ? email(rng, first, own) : null),
        quirk,
        seedDob: rng.chance(0.92),
        seeded: true,
      });
    }
    // A son named for his father: Jr and Sr.
    const father = members.find((m, i) => i < 2 && m.sex === 'M');
    if (father !== undefined && members.length >= 3 && rng.chance(0.08)) {
      const son = members[members.length - 1] as TruePerson;
      if (son.sex === 'M') {
        son.first = father.first;
        son.last = father.last;
        son.suffix = 'Jr';
        father.suffix = 'Sr';
        // Half the time only one of them is in the seed file: the other is a case's stranger.
        if (rng.chance(0.5)) (rng.chance(0.5) ? son : father).seeded = false;
      }
    }
    people.push(...members);
  }
  uniqueMailboxes(people);
  // Placeholders and people with no home replace some records' identity.
  for (const p of people) {
    const roll = rng.float();
    if (roll < 0.015) {
      const [f, l] = rng.pick(PLACEHOLDER_NAMES);
      Object.assign(p, { first: f, last: l, suffix: null, quirk: 'placeholder', email: null, phone: rng.chance(0.3) ? p.phone : null });
      if (f === 'Baby') p.dob = randomDob(rng, 2018, 2024);
    } else if (roll < 0.025) {
      const text = rng.pick(['GENERAL DELIVERY', 'HOMELESS', 'UNKNOWN']);
      Object.assign(p, { quirk: 'no-home', address: { ...p.address, number: null, street: text, unit: null } });
    }
  }
  return people;
}

/**
 * One mailbox, one owner: an address the generator gave two households by chance (two Sean
 * Phillips at yahoo.com, two Smith families' "the.smith@") is made unique for the later one
 * (its household number appended), as a mail provider would have it; a family address stays
 * shared within its household. Two people cannot both own sean.phillips@yahoo.com, and a
 * suite that gave it to both measured the generator, not matching.
 */
function uniqueMailboxes(people: TruePerson[]): void {
  const owner = new Map<string, number>();
  const renamed = new Map<string, string>();
  for (let i = 0; i < people.length; i++) {
    const p = people[i] as TruePerson;
    if (p.email === null) continue;
    const household = owner.get(p.email);
    if (household === undefined || household === p.household) {
      owner.set(p.email, p.household);
      continue;
    }
    const key = `${p.household}|${p.email}`;
    let next = renamed.get(key);
    if (next === undefined) {
      const at = p.email.lastIndexOf('@');
      next = `${p.email.slice(0, at)}${p.household}${p.email.slice(at)}`;
      while (owner.has(next)) next = `${next.slice(0, next.lastIndexOf('@'))}0${next.slice(next.lastIndexOf('@'))}`;
      renamed.set(key, next);
      owner.set(next, p.household);
    }
    people[i] = { ...p, email: next };
  }
}

/** A firm's name for a firm-line address. */
export function firmName(rng: Rng): string {
  return `${rng.pick(COMPANY_WORDS)} ${rng.pick(['Store', 'Pharmacy', 'Clinic', 'Office', 'Services', 'Market'])}`;
}

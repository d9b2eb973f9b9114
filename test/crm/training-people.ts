/**
 * Synthetic people for training tests: a "campus" tenant whose people all live at one
 * address (so a trained model learns that the address tells them apart no better than
 * chance), born within two years, with names, dates of birth, emails and phones drawn from a seeded generator, and
 * a few people entered twice with a typo (so EM has same-person pairs to learn from).
 */
import { SeededRandom } from '../../src/engine/index.js';

const FIRST = [
  'Ava',
  'Liam',
  'Noah',
  'Emma',
  'Mia',
  'Owen',
  'Ruth',
  'Cole',
  'Iris',
  'Jude',
  'Nina',
  'Omar',
  'Paul',
  'Rosa',
  'Sean',
  'Tara',
  'Vera',
  'Wade',
  'Yara',
  'Zoe',
];
const LAST = [
  'Abbott',
  'Barker',
  'Carver',
  'Dalton',
  'Ellison',
  'Fowler',
  'Garner',
  'Hollis',
  'Ingram',
  'Jarvis',
  'Keller',
  'Lowell',
  'Mercer',
  'Nolan',
  'Orton',
  'Pruitt',
  'Quimby',
  'Rowley',
  'Sutton',
  'Tatum',
  'Upton',
  'Vance',
  'Walsh',
  'Yates',
  'Zeller',
];

/** The one address of the campus tenant. */
export const CAMPUS_ADDRESS = { addressLine1: '1 College Ave', city: 'Hanover', stateOrProvince: 'NH', zipOrPostalCode: '03755' };

/** A findOrCreate body. */
export type Body = Record<string, unknown>;

/** `count` people of the campus (plus every 10th entered again with a typo in the surname). */
export function campusPeople(count: number, seed = 7): Body[] {
  const rng = new SeededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[rng.below(list.length)] as T;
  const out: Body[] = [];
  for (let i = 0; i < count; i++) {
    const first = pick(FIRST);
    const last = pick(LAST);
    const dob = `${2000 + rng.below(2)}-${String(1 + rng.below(12)).padStart(2, '0')}-${String(1 + rng.below(28)).padStart(2, '0')}`;
    const person: Body = {
      firstName: first,
      lastName: last,
      dateOfBirth: dob,
      emails: [{ email: `${first}.${last}.${i}@example.edu`.toLowerCase() }],
      phones: [{ phoneNumber: `603555${String(1000 + i).slice(-4)}` }],
      addresses: [{ ...CAMPUS_ADDRESS }],
    };
    out.push(person);
    if (i % 10 === 9) {
      // The same person again, with a typo in the surname, another email and no phone or
      // address: no minimum combination agrees, so findOrCreate stores a second record.
      out.push({
        firstName: first,
        lastName: `${last.slice(0, -1)}${last.endsWith('e') ? 'a' : 'e'}`,
        dateOfBirth: dob,
        emails: [{ email: `${first}${i}@mail.example.com`.toLowerCase() }],
      });
    }
  }
  return out;
}

/** A town tenant: people spread over many addresses and zip codes (another distribution). */
export function townPeople(count: number, seed = 11): Body[] {
  const rng = new SeededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[rng.below(list.length)] as T;
  return Array.from({ length: count }, (_, i) => {
    const first = pick(FIRST);
    const last = pick(LAST);
    return {
      firstName: first,
      lastName: last,
      dateOfBirth: `${1940 + rng.below(60)}-${String(1 + rng.below(12)).padStart(2, '0')}-${String(1 + rng.below(28)).padStart(2, '0')}`,
      emails: [{ email: `${first}.${last}.t${i}@example.com`.toLowerCase() }],
      addresses: [
        {
          addressLine1: `${1 + rng.below(900)} ${pick(['Main', 'Elm', 'Oak', 'Pine', 'Maple'])} St`,
          city: 'Springfield',
          stateOrProvince: 'IL',
          zipOrPostalCode: String(62701 + rng.below(40)),
        },
      ],
    };
  });
}

/** The crafted request: a campus person's name and the campus address, nothing else. */
export function nameAtCampus(person: Body): Body {
  return { firstName: person['firstName'], lastName: person['lastName'], addresses: [{ ...CAMPUS_ADDRESS }] };
}

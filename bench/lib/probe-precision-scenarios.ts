/**
 * Precision scenarios of bench/probe-recall.ts (`--precision`): two different people a real CRM
 * sees side by side (twins, a father and his son, spouses, a household's landline, an office's
 * mailbox, common names in one ZIP, placeholders typed to get past a required field), each
 * stored by findOrCreate, then a request the contract lets match one of them or no one.
 * `expect`: `new` (201: another person), `match` (302 to the record of `before[target]`, the
 * right one of several), or `either` (the contract is silent: recorded, not scored). `distinct`
 * says the `before` requests are different people, so each must create its own record.
 */
import type { Scenario } from './probe-recall-scenarios.js';

type Body = Record<string, unknown>;

/** A precision scenario: a recall scenario with a target record and distinct stored people. */
export interface PrecisionScenario extends Scenario {
  /** Index in `before` of the record a `match` must reach (default 0). */
  readonly target?: number;
  /** Every `before` request is another person: each must be created, none merged. */
  readonly distinct?: boolean;
}

const email = (e: string): Body => ({ emails: [{ email: e }] });
const phone = (p: string): Body => ({ phones: [{ phoneNumber: p }] });
const addr = (line1: string, zip: string, city = 'Springfield', state = 'IL'): Body => ({
  addresses: [{ ...(line1 === '' ? {} : { addressLine1: line1 }), city, stateOrProvince: state, zipOrPostalCode: zip }],
});
const nm = (firstName: string, lastName: string, extra: Body = {}): Body => ({ firstName, lastName, ...extra });
const dob = (d: string): Body => ({ dateOfBirth: d });

const HOME = addr('412 Maple Avenue', '62704');
const LANDLINE = phone('2175550148');
const s: PrecisionScenario[] = [];
const add = (
  group: string,
  name: string,
  before: Body | Body[],
  request: Body,
  expect: Scenario['expect'],
  why: string,
  more: { target?: number; distinct?: boolean; settings?: Record<string, unknown> } = {},
): void => {
  const list = Array.isArray(before) ? before : [before];
  s.push({ group, name, before: list, request, expect, why, distinct: more.distinct ?? list.length > 1, ...more });
};

// --- Twins: one surname, birthday, address and landline; another first name ---
const twinPairs: [string, string, string][] = [
  ['Kristen', 'Kirsten', 'F'],
  ['Jean', 'Joan', 'F'],
  ['Ava', 'Eva', 'F'],
  ['Mario', 'Maria', ''],
  ['Dana', 'Diana', 'F'],
  ['Ryan', 'Brian', 'M'],
  ['Dean', 'Sean', 'M'],
  ['Lena', 'Lina', 'F'],
  ['Aaron', 'Darren', 'M'],
  ['Jon', 'Don', 'M'],
  ['Carla', 'Clara', 'F'],
  ['Ian', 'Ivan', 'M'],
];
for (const [a, b, sex] of twinPairs) {
  const sx = sex === '' ? {} : { sex };
  const twin = (first: string): Body => ({ ...nm(first, 'Hollister'), ...dob('1996-08-21'), ...HOME, ...LANDLINE, ...sx });
  add('twins', `${a} / ${b}: dob, address, landline`, twin(a), twin(b), 'new', 'twins share all but the first name');
  add(
    'twins',
    `${a} / ${b}: dob + zip only`,
    { ...nm(a, 'Hollister'), ...dob('1996-08-21'), ...addr('', '62704') },
    { ...nm(b, 'Hollister'), ...dob('1996-08-21'), ...addr('', '62704') },
    'new',
    'twins: the dob gate',
  );
  add(
    'twins',
    `${a} / ${b}: shared email + dob`,
    { ...nm(a, 'Hollister'), ...dob('1996-08-21'), ...email('hollisters@example.net') },
    { ...nm(b, 'Hollister'), ...dob('1996-08-21'), ...email('hollisters@example.net') },
    'new',
    "twins share a parent's email",
  );
  add('twins', `${a} / ${b}: both stored, ${b} sent again`, [twin(a), twin(b)], twin(b), 'match', 'the twin sent is the twin stored', { target: 1 });
}

// --- A father and his son: one name, one address ---
const JOHN = nm('John', 'Whitaker');
add(
  'generations',
  'Jr / Sr, address + landline, other dob',
  { ...JOHN, suffix: 'Sr', ...dob('1961-04-02'), ...HOME, ...LANDLINE },
  { ...JOHN, suffix: 'Jr', ...dob('1989-10-17'), ...HOME, ...LANDLINE },
  'new',
  'father and son',
);
add(
  'generations',
  'Jr / Sr, address + landline, no dob',
  { ...JOHN, suffix: 'Sr', ...HOME, ...LANDLINE },
  { ...JOHN, suffix: 'Jr', ...HOME, ...LANDLINE },
  'new',
  'Jr and Sr are two people',
);
add(
  'generations',
  'II / III, address + landline',
  { ...JOHN, suffix: 'II', ...HOME, ...LANDLINE },
  { ...JOHN, suffix: 'III', ...HOME, ...LANDLINE },
  'new',
  'two generations',
);
add(
  'generations',
  'Jr in the last name / Sr',
  { ...JOHN, suffix: 'Sr', ...HOME, ...LANDLINE },
  { ...nm('John', 'Whitaker Jr'), ...HOME, ...LANDLINE },
  'new',
  'suffix typed into the last name',
);
add(
  'generations',
  'Sr in the last name / Jr in the last name',
  { ...nm('John', 'Whitaker Sr.'), ...HOME, ...LANDLINE },
  { ...nm('John', 'Whitaker, Jr.'), ...HOME, ...LANDLINE },
  'new',
  'suffix typed into the last name',
);
add(
  'generations',
  'Jr / Sr in the first name',
  { ...nm('John Sr', 'Whitaker'), ...HOME, ...LANDLINE },
  { ...nm('John Jr', 'Whitaker'), ...HOME, ...LANDLINE },
  'new',
  'suffix typed into the first name',
);
add(
  'generations',
  'no suffix, other dob (decades), address + landline',
  { ...JOHN, ...dob('1961-04-02'), ...HOME, ...LANDLINE },
  { ...JOHN, ...dob('1989-10-17'), ...HOME, ...LANDLINE },
  'new',
  'dates of birth differ',
);
add(
  'generations',
  'no suffix, dob years transposed 1958 / 1985',
  { ...JOHN, ...dob('1958-06-10'), ...HOME, ...LANDLINE },
  { ...JOHN, ...dob('1985-06-10'), ...HOME, ...LANDLINE },
  'new',
  "a son born on his father's birthday: 27 years is no typo",
);
add(
  'generations',
  'no suffix, same birthday 1960 / 1990',
  { ...JOHN, ...dob('1960-06-10'), ...HOME, ...LANDLINE },
  { ...JOHN, ...dob('1990-06-10'), ...HOME, ...LANDLINE },
  'new',
  'one digit, 30 years',
);
add(
  'generations',
  'no suffix, dob on one only',
  { ...JOHN, ...dob('1961-04-02'), ...HOME, ...LANDLINE },
  { ...JOHN, ...HOME, ...LANDLINE },
  'either',
  'contract: first+last+phone',
);
add(
  'generations',
  'both stored, son sent with his dob',
  [
    { ...JOHN, ...dob('1961-04-02'), ...HOME, ...LANDLINE },
    { ...JOHN, ...dob('1989-10-17'), ...HOME, ...LANDLINE },
  ],
  { ...JOHN, ...dob('1989-10-17'), ...HOME },
  'match',
  'the son',
  { target: 1 },
);
add(
  'generations',
  'both stored with suffix, Jr sent',
  [
    { ...JOHN, suffix: 'Sr', ...HOME, ...LANDLINE },
    { ...JOHN, suffix: 'Jr', ...HOME, ...LANDLINE },
  ],
  { ...JOHN, suffix: 'Jr', ...LANDLINE },
  'match',
  'the son',
  { target: 1 },
);
add(
  'generations',
  "mother / daughter same name, daughter's dob",
  [
    { ...nm('Mary', 'Kowalski'), ...dob('1952-01-30'), ...HOME, ...LANDLINE },
    { ...nm('Mary', 'Kowalski'), ...dob('1979-09-03'), ...HOME, ...LANDLINE },
  ],
  { ...nm('Mary', 'Kowalski'), ...dob('1979-09-03'), ...LANDLINE },
  'match',
  'the daughter',
  { target: 1 },
);
add(
  'generations',
  'middle initials differ, address + landline',
  { ...JOHN, middleName: 'A', ...HOME, ...LANDLINE },
  { ...JOHN, middleName: 'R', ...HOME, ...LANDLINE },
  'either',
  'father and son without suffixes, or a misread initial',
);
add(
  'generations',
  'Jr / Sr + shared family email',
  { ...JOHN, suffix: 'Sr', ...email('whitakers@example.net') },
  { ...JOHN, suffix: 'Jr', ...email('whitakers@example.net') },
  'new',
  'Jr and Sr',
);

// --- Spouses: a shared email or phone ---
add(
  'spouses',
  'shared email, other first name',
  { ...nm('Robert', 'Lindqvist'), ...email('lindqvist.home@example.net') },
  { ...nm('Linda', 'Lindqvist'), ...email('lindqvist.home@example.net') },
  'new',
  'compat: households share emails',
);
add(
  'spouses',
  'shared email, Chris / Chris, sexes differ',
  { ...nm('Chris', 'Lindqvist'), sex: 'M', ...email('lindqvist.home@example.net') },
  { ...nm('Chris', 'Lindqvist'), sex: 'F', ...email('lindqvist.home@example.net') },
  'new',
  'README: sexes differ',
);
add(
  'spouses',
  'shared phone, Chris / Chris, other dob',
  { ...nm('Chris', 'Lindqvist'), ...dob('1970-02-14'), ...LANDLINE },
  { ...nm('Chris', 'Lindqvist'), ...dob('1972-11-05'), ...LANDLINE },
  'new',
  'dates of birth differ',
);
add(
  'spouses',
  'shared phone, Jordan / Jordan, other dob, address',
  { ...nm('Jordan', 'Price'), ...dob('1981-07-07'), ...HOME, ...LANDLINE },
  { ...nm('Jordan', 'Price'), ...dob('1983-03-19'), ...HOME, ...LANDLINE },
  'new',
  'dates of birth differ',
);
add(
  'spouses',
  'wife with the shared email and her own phone',
  { ...nm('Michael', 'Brennan'), ...email('brennans@example.net'), ...phone('2175550161') },
  { ...nm('Michelle', 'Brennan'), ...email('brennans@example.net'), ...phone('2175550162') },
  'new',
  'another person',
);
add(
  'spouses',
  'Francis / Frances, shared email, no sex',
  { ...nm('Francis', 'Boyle'), ...email('boyle@example.net') },
  { ...nm('Frances', 'Boyle'), ...email('boyle@example.net') },
  'new',
  'README: names of opposite sexes',
);
add(
  'spouses',
  'Gene / Jean, shared landline',
  { ...nm('Gene', 'Moreau'), ...LANDLINE, ...HOME },
  { ...nm('Jean', 'Moreau'), ...LANDLINE, ...HOME },
  'new',
  'sound-alike names of opposite sexes',
);
add(
  'spouses',
  'Mr / Mrs title, Pat / Pat, shared landline',
  { ...nm('Pat', 'Donnelly'), title: 'Mr', ...LANDLINE },
  { ...nm('Pat', 'Donnelly'), title: 'Mrs', ...LANDLINE },
  'either',
  'a title says the sex; contract silent',
);
add(
  'spouses',
  'Mrs John Smith / John Smith, shared landline',
  { ...nm('John', 'Smith'), ...LANDLINE },
  { ...nm('John', 'Smith'), title: 'Mrs', ...LANDLINE },
  'either',
  "a wife under her husband's name",
);
add(
  'spouses',
  'both stored, email, wife sent',
  [
    { ...nm('Robert', 'Lindqvist'), ...email('lindqvist.home@example.net') },
    { ...nm('Linda', 'Lindqvist'), ...email('lindqvist.home@example.net') },
  ],
  { ...nm('Linda', 'Lindqvist'), ...email('lindqvist.home@example.net') },
  'match',
  'the wife',
  { target: 1 },
);
add(
  'spouses',
  'both stored, email alone',
  [
    { ...nm('Robert', 'Lindqvist'), ...email('lindqvist.home@example.net') },
    { ...nm('Linda', 'Lindqvist'), ...email('lindqvist.home@example.net') },
  ],
  email('lindqvist.home@example.net'),
  'either',
  'email alone is a minimum; two people hold it',
);

// --- A household's landline, many people ---
const KELLY = ['Mary', 'John', 'Peter', 'Ann', 'Michael'].map((f) => ({ ...nm(f, 'Kelly'), ...LANDLINE, ...HOME }));
add('household', 'five Kellys at one landline, distinct', KELLY, { ...nm('Bridget', 'Kelly'), ...LANDLINE, ...HOME }, 'new', 'sixth member');
add('household', 'five Kellys, Mike sent', KELLY, { ...nm('Mike', 'Kelly'), ...LANDLINE }, 'either', 'nickname beside the household landline');
add('household', 'five Kellys, Anne sent', KELLY, { ...nm('Anne', 'Kelly'), ...LANDLINE }, 'match', 'Ann written Anne', { target: 3 });
add('household', 'five Kellys, M. sent', KELLY, { ...nm('M', 'Kelly'), ...LANDLINE, ...HOME }, 'new', 'an initial: Mary or Michael');
add(
  'household',
  'Austin / Justin, landline + address',
  { ...nm('Austin', 'Reyes'), ...LANDLINE, ...HOME },
  { ...nm('Justin', 'Reyes'), ...LANDLINE, ...HOME },
  'new',
  'README: brothers',
);
add(
  'household',
  'Elizabeth / Lisa (mother / daughter), landline + address',
  { ...nm('Elizabeth', 'Spencer'), ...LANDLINE, ...HOME },
  { ...nm('Lisa', 'Spencer'), ...LANDLINE, ...HOME },
  'new',
  'README: nickname beside a household landline',
);
add(
  'household',
  'Kristen / Kirsten, landline + address, no dob',
  { ...nm('Kristen', 'Hollister'), ...LANDLINE, ...HOME },
  { ...nm('Kirsten', 'Hollister'), ...LANDLINE, ...HOME },
  'new',
  'sisters',
);
add(
  'household',
  'roommates, other surnames, landline + address',
  { ...nm('Emily', 'Carter'), ...LANDLINE, ...HOME },
  { ...nm('Emily', 'Cartwright'), ...LANDLINE, ...HOME },
  'new',
  'another surname',
);

// --- An office's or a shelter's contact, shared by many ---
const STAFF = [
  ['Alice', 'Nguyen'],
  ['Brian', 'Okafor'],
  ['Carmen', 'Ruiz'],
  ['David', 'Cohen'],
].map(([f, l]) => ({ ...nm(f ?? '', l ?? ''), ...email('info@riversideclinic.org'), ...phone('2175550100') }));
add(
  'shared',
  'clinic info@ and main line, four staff distinct',
  STAFF,
  { ...nm('Erin', 'Walsh'), ...email('info@riversideclinic.org'), ...phone('2175550100') },
  'new',
  'another employee',
);
add('shared', 'clinic info@ alone', STAFF, email('info@riversideclinic.org'), 'new', 'README: a shared mailbox alone matches no one');
add('shared', 'clinic main line, Alice sent', STAFF, { ...nm('Alice', 'Nguyen'), ...phone('2175550100') }, 'match', 'her name and the phone', { target: 0 });
const SHELTER = addr('1200 Hope Street', '62702');
const RESIDENTS = [
  ['James', 'Brown', '1958-03-03'],
  ['James', 'Brown', '1971-12-09'],
  ['Luis', 'Martinez', '1966-05-20'],
].map(([f, l, d]) => ({ ...nm(f ?? '', l ?? ''), ...dob(d ?? ''), ...SHELTER, ...phone('2175550190') }));
add('shared', 'shelter: two James Browns, other dobs, distinct', RESIDENTS, { ...nm('Luis', 'Martinez'), ...dob('1966-05-20'), ...SHELTER }, 'match', 'Luis', {
  target: 2,
});
add(
  'shared',
  'shelter: third James Brown, another dob',
  RESIDENTS,
  { ...nm('James', 'Brown'), ...dob('1980-08-08'), ...SHELTER, ...phone('2175550190') },
  'new',
  'a third resident',
);
add('shared', 'shelter: James Brown, no dob', RESIDENTS, { ...nm('James', 'Brown'), ...phone('2175550190') }, 'either', 'two stored: which?');
add('shared', "shelter: James Brown, second's dob", RESIDENTS, { ...nm('James', 'Brown'), ...dob('1971-12-09'), ...SHELTER }, 'match', 'the second', {
  target: 1,
});
add(
  'shared',
  'office info@ + same first name, other surname',
  { ...nm('Sarah', 'Mills'), ...email('office@millsandco.com') },
  { ...nm('Sarah', 'Milne'), ...email('office@millsandco.com') },
  'new',
  'colleagues',
);

// --- Common names in one ZIP ---
const ZIP = addr('', '62704');
add('common', 'John Smith, zip + city only', { ...nm('John', 'Smith'), ...ZIP }, { ...nm('John', 'Smith'), ...ZIP }, 'new', 'below the minimum');
add('common', 'Maria Garcia, zip + city only', { ...nm('Maria', 'Garcia'), ...ZIP }, { ...nm('Maria', 'Garcia'), ...ZIP }, 'new', 'below the minimum');
add(
  'common',
  'John Smith, zip, other dob',
  { ...nm('John', 'Smith'), ...dob('1975-01-01'), ...ZIP },
  { ...nm('John', 'Smith'), ...dob('1982-07-15'), ...ZIP },
  'new',
  'dates of birth differ',
);
add(
  'common',
  'John Smith, zip, dob one digit off',
  { ...nm('John', 'Smith'), ...dob('1975-01-14'), ...ZIP },
  { ...nm('John', 'Smith'), ...dob('1975-01-19'), ...ZIP },
  'new',
  'README: one digit off is at most Possible',
);
add(
  'common',
  'Maria Garcia, other streets in one zip',
  { ...nm('Maria', 'Garcia'), ...addr('18 Oak Street', '62704') },
  { ...nm('Maria', 'Garcia'), ...addr('911 Walnut Street', '62704') },
  'new',
  'no minimum combination agrees',
);
add(
  'common',
  'Maria Garcia, same street, other number',
  { ...nm('Maria', 'Garcia'), ...addr('18 Oak Street', '62704') },
  { ...nm('Maria', 'Garcia'), ...addr('81 Oak Street', '62704') },
  'new',
  'another house',
);
add(
  'common',
  'Maria Garcia, other phones',
  { ...nm('Maria', 'Garcia'), ...phone('2175550131') },
  { ...nm('Maria', 'Garcia'), ...phone('2175550113') },
  'new',
  'no minimum combination agrees',
);
add(
  'common',
  'John Smith, phones one digit apart (family plan)',
  { ...nm('John', 'Smith'), ...phone('2175550171') },
  { ...nm('John', 'Smith'), ...phone('2175550172') },
  'new',
  'another phone',
);
add(
  'common',
  'John Smith, gmail / yahoo same local part',
  { ...nm('John', 'Smith'), ...email('john.smith@gmail.com') },
  { ...nm('John', 'Smith'), ...email('john.smith@yahoo.com') },
  'new',
  'another email',
);
add(
  'common',
  'John Smith, emails one digit apart',
  { ...nm('John', 'Smith'), ...email('jsmith71@gmail.com') },
  { ...nm('John', 'Smith'), ...email('jsmith72@gmail.com') },
  'new',
  'another email',
);
add(
  'common',
  'John Smith, gmail dot + digit',
  { ...nm('John', 'Smith'), ...email('john.smith1@gmail.com') },
  { ...nm('John', 'Smith'), ...email('johnsmith@gmail.com') },
  'new',
  'another email',
);
add(
  'common',
  'Jon Smith / John Smith, zip + dob',
  { ...nm('Jon', 'Smith'), ...dob('1975-01-01'), ...ZIP },
  { ...nm('John', 'Smith'), ...dob('1975-01-01'), ...ZIP },
  'either',
  'spelling',
);
add(
  'common',
  'John Smith / Joan Smith, zip + dob',
  { ...nm('John', 'Smith'), ...dob('1975-01-01'), ...ZIP },
  { ...nm('Joan', 'Smith'), ...dob('1975-01-01'), ...ZIP },
  'new',
  'README: Jon / Joan',
);

// --- Surnames: hyphens, marriages, one letter apart ---
add(
  'surnames',
  'Chan / Chen, landline, other dobs',
  { ...nm('Wei', 'Chan'), ...dob('1975-02-11'), ...LANDLINE },
  { ...nm('Wei', 'Chen'), ...dob('1980-06-30'), ...LANDLINE },
  'new',
  'dates of birth differ',
);
add(
  'surnames',
  'Chan / Chen, dob + zip',
  { ...nm('Wei', 'Chan'), ...dob('1975-02-11'), ...ZIP },
  { ...nm('Wei', 'Chen'), ...dob('1975-02-11'), ...ZIP },
  'either',
  'two surnames or a typo',
);
add(
  'surnames',
  'Chan / Chen, shared office phone',
  { ...nm('Wei', 'Chan'), ...phone('2175550100') },
  { ...nm('Wei', 'Chen'), ...phone('2175550100') },
  'either',
  'two surnames or a typo',
);
add(
  'surnames',
  'Lee / Li, landline + address',
  { ...nm('Min', 'Lee'), ...LANDLINE, ...HOME },
  { ...nm('Min', 'Li'), ...LANDLINE, ...HOME },
  'either',
  'romanizations of one surname',
);
add(
  'surnames',
  'Smith-Jones / Smith, sisters-in-law, landline, other dobs',
  { ...nm('Anne', 'Smith-Jones'), ...dob('1970-05-05'), ...LANDLINE },
  { ...nm('Anne', 'Smith'), ...dob('1948-09-09'), ...LANDLINE },
  'new',
  'dates of birth differ',
);
add(
  'surnames',
  'married name, other first name, same landline',
  { ...nm('Jennifer', 'Adams'), ...LANDLINE, ...HOME },
  { ...nm('Jessica', 'Baker'), ...LANDLINE, ...HOME },
  'new',
  'another person',
);
add(
  'surnames',
  'married name, same first, landline, no dob',
  { ...nm('Jennifer', 'Adams'), ...LANDLINE },
  { ...nm('Jennifer', 'Baker'), ...LANDLINE },
  'new',
  'README: through the phone: review',
);
add(
  'surnames',
  'Carter / Cartwright, shared email',
  { ...nm('Emily', 'Carter'), ...email('ecarter@example.net') },
  { ...nm('Emily', 'Cartwright'), ...email('ecarter@example.net') },
  'either',
  'a changed name or an email kept',
);
add(
  'surnames',
  'Smith / Smyth, one landline, other dobs',
  { ...nm('Ann', 'Smith'), ...dob('1950-03-03'), ...LANDLINE },
  { ...nm('Ann', 'Smyth'), ...dob('1952-04-04'), ...LANDLINE },
  'new',
  'dates of birth differ',
);

// --- Dates of birth: a swap against another day ---
add(
  'dob',
  'siblings 1990 / 1992 same day, zip',
  { ...nm('Sam', 'Ortiz'), ...dob('1990-04-09'), ...ZIP },
  { ...nm('Sam', 'Ortiz'), ...dob('1992-04-09'), ...ZIP },
  'new',
  'README: one digit: at most Possible',
);
add(
  'dob',
  'twins one day apart (midnight), twin names',
  { ...nm('Ava', 'Ortiz'), ...dob('1990-04-09'), ...ZIP },
  { ...nm('Eva', 'Ortiz'), ...dob('1990-04-10'), ...ZIP },
  'new',
  'twins across midnight',
);
add(
  'dob',
  'day / month swap, same name, zip',
  { ...nm('Sam', 'Ortiz'), ...dob('1990-04-09'), ...ZIP },
  { ...nm('Sam', 'Ortiz'), ...dob('1990-09-04'), ...ZIP },
  'either',
  'README: a swap matches',
);
add(
  'dob',
  'day / month swap, other first names',
  { ...nm('Samuel', 'Ortiz'), ...dob('1990-04-09'), ...ZIP },
  { ...nm('Daniel', 'Ortiz'), ...dob('1990-09-04'), ...ZIP },
  'new',
  'another name',
);
add(
  'dob',
  'same year and month, days far apart, landline',
  { ...nm('Sam', 'Ortiz'), ...dob('1990-04-02'), ...LANDLINE },
  { ...nm('Sam', 'Ortiz'), ...dob('1990-04-27'), ...LANDLINE },
  'new',
  'dates of birth differ',
);
add(
  'dob',
  'yearOfBirth only, decades apart, landline',
  { ...nm('Sam', 'Ortiz'), yearOfBirth: 1950, ...LANDLINE },
  { ...nm('Sam', 'Ortiz'), yearOfBirth: 1985, ...LANDLINE },
  'new',
  'years differ',
);
add(
  'dob',
  'dob / yearOfBirth disagree, landline',
  { ...nm('Sam', 'Ortiz'), ...dob('1950-04-02'), ...LANDLINE },
  { ...nm('Sam', 'Ortiz'), yearOfBirth: 1985, ...LANDLINE },
  'new',
  'years differ',
);

// --- Placeholders typed to get past a required field (123-456-7890, 999-999-9999,
// 555-555-5555 and (111) 111-1111 are refused with a 400: no valid US number, so no merge) ---
const fake = (label: string, key: Body): void => {
  add('placeholders', label, { ...nm('Alan', 'Porter'), ...key }, { ...nm('Grace', 'Lam'), ...key }, 'new', "a placeholder is no one's");
  add('placeholders', `${label}, same surname`, { ...nm('Alan', 'Porter'), ...key }, { ...nm('Grace', 'Porter'), ...key }, 'new', "a placeholder is no one's");
  add('placeholders', `${label}, alone`, { ...nm('Alan', 'Porter'), ...key }, key, 'new', "a placeholder is no one's");
};
fake('test@test.com', email('test@test.com'));
fake('noemail@gmail.com', email('noemail@gmail.com'));
fake('none@none.com', email('none@none.com'));
fake('x@x.com', email('x@x.com'));
fake('a@a.com', email('a@a.com'));
fake('email@email.com', email('email@email.com'));
fake('no.email@gmail.com', email('no.email@gmail.com'));
fake('notprovided@gmail.com', email('notprovided@gmail.com'));
fake('na@gmail.com', email('na@gmail.com'));
fake('212-555-1212', phone('212-555-1212'));
fake('800-555-1212', phone('800-555-1212'));
add(
  'placeholders',
  'John Smith, 212-555-1212 twice',
  { ...nm('John', 'Smith'), ...phone('212-555-1212') },
  { ...nm('John', 'Smith'), ...phone('212-555-1212') },
  'either',
  "directory assistance; the contract's minimum",
);
add(
  'placeholders',
  'John Smith, test@test.com twice',
  { ...nm('John', 'Smith'), ...email('test@test.com') },
  { ...nm('John', 'Smith'), ...email('test@test.com') },
  'new',
  'no minimum but a placeholder',
);
add(
  'placeholders',
  'same name, dob 1900-01-01 + zip',
  { ...nm('Alan', 'Porter'), ...dob('1900-01-01'), ...ZIP },
  { ...nm('Alan', 'Porter'), ...dob('1900-01-01'), ...ZIP },
  'new',
  'placeholder date',
);
add(
  'placeholders',
  'same name, Homeless + zip',
  { ...nm('Alan', 'Porter'), ...addr('Homeless', '62704') },
  { ...nm('Alan', 'Porter'), ...addr('Homeless', '62704') },
  'new',
  'no street',
);

// --- Other scripts sharing an email ---
add(
  'script',
  'أحمد خان / Mohammed Khan, shared email',
  { ...nm('أحمد', 'خان'), ...email('khan.family.home@example.net') },
  { ...nm('Mohammed', 'Khan'), ...email('khan.family.home@example.net') },
  'new',
  'Ahmed and Mohammed',
);
add(
  'script',
  'محمد خان / Ahmed Khan, shared email',
  { ...nm('محمد', 'خان'), ...email('khans@example.net') },
  { ...nm('Ahmed', 'Khan'), ...email('khans@example.net') },
  'new',
  'Mohammed and Ahmed',
);
add(
  'script',
  'فاطمة خان / Aisha Khan, shared phone',
  { ...nm('فاطمة', 'خان'), ...LANDLINE },
  { ...nm('Aisha', 'Khan'), ...LANDLINE },
  'new',
  'Fatima and Aisha',
);
add(
  'script',
  'Дмитрий / Dmitri Ivanov, shared email, Anna sent',
  { ...nm('Дмитрий', 'Иванов'), ...email('ivanovs@example.net') },
  { ...nm('Anna', 'Ivanova'), ...email('ivanovs@example.net') },
  'new',
  'husband and wife',
);
add(
  'script',
  'Иванов / Ivanova, Evgeniy / Evgeniya, shared email',
  { ...nm('Евгений', 'Иванов'), ...email('ivanovs@example.net') },
  { ...nm('Evgeniya', 'Ivanova'), ...email('ivanovs@example.net') },
  'new',
  'README: feminine form',
);
add('script', '王伟 / 王薇 shared phone', { ...nm('伟', '王'), ...LANDLINE }, { ...nm('薇', '王'), ...LANDLINE }, 'new', 'README: brother and sister');
add(
  'script',
  '王伟 / Wang Wei, shared phone, other dobs',
  { ...nm('伟', '王'), ...dob('1980-01-01'), ...LANDLINE },
  { ...nm('Wei', 'Wang'), ...dob('1985-05-05'), ...LANDLINE },
  'new',
  'dates of birth differ',
);

// --- External identifiers ---
const dw = (id: string): Body => ({ identifiers: [{ type: 'dwid', externalId: id }] });
add(
  'ids',
  'same name + address, other dwid',
  { ...JOHN, ...HOME, ...LANDLINE, ...dw('A100') },
  { ...JOHN, ...HOME, ...LANDLINE, ...dw('A200') },
  'new',
  'README: another identifier',
);
add(
  'ids',
  'same dwid, another person',
  { ...JOHN, ...HOME, ...dw('A100') },
  { ...nm('Grace', 'Lam'), ...phone('2175550177'), ...dw('A100') },
  'either',
  'an identifier is no minimum combination',
);
add(
  'ids',
  'same dwid, another first name, landline',
  { ...JOHN, ...LANDLINE, ...dw('A100') },
  { ...nm('Peter', 'Whitaker'), ...LANDLINE, ...dw('A100') },
  'either',
  'identifier against the name',
);
add(
  'ids',
  'Jr / Sr with other dwids, same dob',
  { ...JOHN, suffix: 'Sr', ...dob('1961-04-02'), ...ZIP, ...dw('A100') },
  { ...JOHN, suffix: 'Jr', ...dob('1961-04-02'), ...ZIP, ...dw('A200') },
  'new',
  'identifiers and suffixes differ',
);
add(
  'ids',
  'both stored with dwid, second sent by dwid + phone',
  [
    { ...JOHN, ...LANDLINE, ...dw('A100') },
    { ...JOHN, ...LANDLINE, ...dw('A200') },
  ],
  { ...JOHN, ...LANDLINE, ...dw('a200') },
  'match',
  'the identifier decides',
  { target: 1 },
);

// --- Disable Partial Matching ---
const STRICT = { campaign: { disablePartialMatching: true }, voterfile: { disablePartialMatching: true } };
const strict = (name: string, a: Body, b: Body, expect: Scenario['expect'], why: string): void => add('strict', name, a, b, expect, why, { settings: STRICT });
strict(
  'Kristen / Kirsten + email',
  { ...nm('Kristen', 'Hollister'), ...email('kh@example.net') },
  { ...nm('Kirsten', 'Hollister'), ...email('kh@example.net') },
  'new',
  '1.5: full first name',
);
strict('Chan / Chen + phone', { ...nm('Wei', 'Chan'), ...LANDLINE }, { ...nm('Wei', 'Chen'), ...LANDLINE }, 'new', '1.5: full last name');
strict(
  'Smith-Jones / Jones + email',
  { ...nm('Anne', 'Smith-Jones'), ...email('asj@example.net') },
  { ...nm('Anne', 'Jones'), ...email('asj@example.net') },
  'new',
  '1.5: full last name',
);
strict(
  'J / John + dob + address',
  { ...JOHN, ...dob('1961-04-02'), ...HOME },
  { ...nm('J', 'Whitaker'), ...dob('1961-04-02'), ...HOME },
  'new',
  '1.5: full first name',
);
strict('Chris / Christopher + phone', { ...nm('Christopher', 'Lee'), ...LANDLINE }, { ...nm('Chris', 'Lee'), ...LANDLINE }, 'new', '1.5: no nicknames');
strict(
  'Juan Carlos / Juan + email',
  { ...nm('Juan Carlos', 'Pérez'), ...email('jcp@example.net') },
  { ...nm('Juan', 'Perez'), ...email('jcp@example.net') },
  'either',
  '1.5: full first name, or a first name part',
);
strict(
  'Magaret typo + email',
  { ...nm('Margaret', 'Sullivan'), ...email('ms@example.net') },
  { ...nm('Magaret', 'Sullivan'), ...email('ms@example.net') },
  'either',
  '1.5 names nicknames and permutations, not typos',
);
strict(
  'twins Jean / Joan, dob + zip',
  { ...nm('Jean', 'Hollister'), ...dob('1996-08-21'), ...ZIP },
  { ...nm('Joan', 'Hollister'), ...dob('1996-08-21'), ...ZIP },
  'new',
  'twins',
);
strict('Mary Ann / Mary + phone', { ...nm('Mary Ann', 'Kelly'), ...LANDLINE }, { ...nm('Mary', 'Kelly'), ...LANDLINE }, 'new', '1.5: full first name');
strict(
  "Sullivan-O'Connor / O'Connor + email",
  { ...nm('Margaret', "Sullivan-O'Connor"), ...email('ms@example.net') },
  { ...nm('Margaret', "O'Connor"), ...email('ms@example.net') },
  'new',
  '1.5: full last name',
);

// --- Round 2: a shared email or phone beside nearly equal names, other countries, units ---
const FAM = email('whitaker.family.home@example.net');
add(
  'round2',
  'father / son, same name, shared email, other dobs',
  { ...JOHN, ...dob('1961-04-02'), ...FAM },
  { ...JOHN, ...dob('1989-10-17'), ...FAM },
  'new',
  'dates of birth differ',
);
add(
  'round2',
  'Christopher / Christina, shared email',
  { ...nm('Christopher', 'Lee'), ...email('lees@example.net') },
  { ...nm('Christina', 'Lee'), ...email('lees@example.net') },
  'new',
  'opposite sexes',
);
add(
  'round2',
  'Christopher / Christine, shared landline + address',
  { ...nm('Christopher', 'Lee'), ...LANDLINE, ...HOME },
  { ...nm('Christine', 'Lee'), ...LANDLINE, ...HOME },
  'new',
  'opposite sexes',
);
add(
  'round2',
  'Chris (stored) / Christine, shared email',
  { ...nm('Chris', 'Lee'), ...email('lees@example.net') },
  { ...nm('Christine', 'Lee'), ...email('lees@example.net') },
  'either',
  'Chris may be either',
);
add(
  'round2',
  'Mary Jones / Mary Smith-Jones, landline, other dobs',
  { ...nm('Mary', 'Jones'), ...dob('1950-02-02'), ...LANDLINE },
  { ...nm('Mary', 'Smith-Jones'), ...dob('1978-08-08'), ...LANDLINE },
  'new',
  'dates of birth differ',
);
add(
  'round2',
  'UK number / US number with the same digits',
  { ...nm('Ann', 'Lee'), phones: [{ phoneNumber: '+44 20 7946 0958' }] },
  { ...nm('Ann', 'Lee'), ...phone('207-946-0958') },
  'new',
  'another country, another number',
);
add(
  'round2',
  'yahoo dots are another mailbox',
  { ...nm('John', 'Smith'), ...email('john.smith@yahoo.com') },
  { ...nm('John', 'Smith'), ...email('johnsmith@yahoo.com') },
  'either',
  'Yahoo keeps dots',
);
add(
  'round2',
  "Sr at one address, no suffix with the son's dob",
  { ...JOHN, suffix: 'Sr', ...dob('1961-04-02'), ...HOME, ...LANDLINE },
  { ...JOHN, ...dob('1989-10-17'), ...HOME, ...LANDLINE },
  'new',
  'dates of birth differ',
);
add(
  'round2',
  'Jr in the middle name field / Sr',
  { ...JOHN, suffix: 'Sr', ...HOME, ...LANDLINE },
  { ...JOHN, middleName: 'Jr', ...HOME, ...LANDLINE },
  'new',
  'suffix typed into the middle name',
);
add(
  'round2',
  'twins Mary-Kate / Ashley, same everything',
  { ...nm('Mary-Kate', 'Olsen'), ...dob('1986-06-13'), ...HOME, ...LANDLINE },
  { ...nm('Ashley', 'Olsen'), ...dob('1986-06-13'), ...HOME, ...LANDLINE },
  'new',
  'another name',
);
add(
  'round2',
  'twins Mary Kate / Mary Beth, same everything',
  { ...nm('Mary Kate', 'Olsen'), ...dob('1986-06-13'), ...HOME, ...LANDLINE },
  { ...nm('Mary Beth', 'Olsen'), ...dob('1986-06-13'), ...HOME, ...LANDLINE },
  'new',
  'README: two given names sharing one part',
);
add(
  'round2',
  'twins Elizabeth / Elisa, same dob + email',
  { ...nm('Elizabeth', 'Olsen'), ...dob('1986-06-13'), ...email('olsens@example.net') },
  { ...nm('Elisa', 'Olsen'), ...dob('1986-06-13'), ...email('olsens@example.net') },
  'either',
  'Elisa is a form of Elizabeth',
);
add(
  'round2',
  'twins Jacob / Caleb, same dob + zip',
  { ...nm('Jacob', 'Olsen'), ...dob('1986-06-13'), ...ZIP },
  { ...nm('Caleb', 'Olsen'), ...dob('1986-06-13'), ...ZIP },
  'new',
  'another name',
);
add(
  'round2',
  'twins Aiden / Jaden, same dob + zip',
  { ...nm('Aiden', 'Olsen'), ...dob('2012-06-13'), ...ZIP },
  { ...nm('Jaden', 'Olsen'), ...dob('2012-06-13'), ...ZIP },
  'new',
  'another name',
);
add(
  'round2',
  'twins Alan / Alana, same dob + zip, no sex',
  { ...nm('Alan', 'Olsen'), ...dob('1986-06-13'), ...ZIP },
  { ...nm('Alana', 'Olsen'), ...dob('1986-06-13'), ...ZIP },
  'new',
  'README: feminine in a',
);
add(
  'round2',
  'twins Erin / Aaron, same dob + zip',
  { ...nm('Erin', 'Olsen'), ...dob('1986-06-13'), ...ZIP },
  { ...nm('Aaron', 'Olsen'), ...dob('1986-06-13'), ...ZIP },
  'new',
  'sound-alike names of opposite sexes',
);
add(
  'round2',
  'twins Tia / Mia, same dob + landline',
  { ...nm('Tia', 'Olsen'), ...dob('2010-06-13'), ...LANDLINE },
  { ...nm('Mia', 'Olsen'), ...dob('2010-06-13'), ...LANDLINE },
  'new',
  'another name',
);
add(
  'round2',
  'twins Abby / Gabby, same dob + landline',
  { ...nm('Abby', 'Olsen'), ...dob('2010-06-13'), ...LANDLINE },
  { ...nm('Gabby', 'Olsen'), ...dob('2010-06-13'), ...LANDLINE },
  'new',
  'another name',
);
add(
  'round2',
  'twins Eli / Ella, same dob + landline',
  { ...nm('Eli', 'Olsen'), ...dob('2010-06-13'), ...LANDLINE },
  { ...nm('Ella', 'Olsen'), ...dob('2010-06-13'), ...LANDLINE },
  'new',
  'another name',
);
add(
  'round2',
  'twins Noah / Nora, same dob + landline',
  { ...nm('Noah', 'Olsen'), ...dob('2010-06-13'), ...LANDLINE },
  { ...nm('Nora', 'Olsen'), ...dob('2010-06-13'), ...LANDLINE },
  'new',
  'opposite sexes',
);
add(
  'round2',
  'twins Liam / Lia, same dob + landline',
  { ...nm('Liam', 'Olsen'), ...dob('2010-06-13'), ...LANDLINE },
  { ...nm('Lia', 'Olsen'), ...dob('2010-06-13'), ...LANDLINE },
  'new',
  'opposite sexes',
);
add(
  'round2',
  'twins Ethan / Evan, same dob + landline',
  { ...nm('Ethan', 'Olsen'), ...dob('2010-06-13'), ...LANDLINE },
  { ...nm('Evan', 'Olsen'), ...dob('2010-06-13'), ...LANDLINE },
  'new',
  'another name',
);
add(
  'round2',
  'twins Luke / Luka, same dob + landline',
  { ...nm('Luke', 'Olsen'), ...dob('2010-06-13'), ...LANDLINE },
  { ...nm('Luka', 'Olsen'), ...dob('2010-06-13'), ...LANDLINE },
  'either',
  'one name in two languages, or twins',
);
add(
  'round2',
  'twins Cody / Cory, same dob + landline',
  { ...nm('Cody', 'Olsen'), ...dob('2000-06-13'), ...LANDLINE },
  { ...nm('Cory', 'Olsen'), ...dob('2000-06-13'), ...LANDLINE },
  'new',
  'another name',
);
add(
  'round2',
  'twins Jenna / Jenny, same dob + landline',
  { ...nm('Jenna', 'Olsen'), ...dob('2000-06-13'), ...LANDLINE },
  { ...nm('Jenny', 'Olsen'), ...dob('2000-06-13'), ...LANDLINE },
  'either',
  'Jenny may be Jenna',
);
add(
  'round2',
  'twins Hannah / Sarah, dob + landline',
  { ...nm('Hannah', 'Olsen'), ...dob('2000-06-13'), ...LANDLINE },
  { ...nm('Sarah', 'Olsen'), ...dob('2000-06-13'), ...LANDLINE },
  'new',
  'another name',
);
add(
  'round2',
  'twins Marie / Maria, dob + landline',
  { ...nm('Marie', 'Olsen'), ...dob('2000-06-13'), ...LANDLINE },
  { ...nm('Maria', 'Olsen'), ...dob('2000-06-13'), ...LANDLINE },
  'either',
  'one name in two languages, or twins',
);
add(
  'round2',
  'twins Brandon / Brendan, dob + landline',
  { ...nm('Brandon', 'Olsen'), ...dob('2000-06-13'), ...LANDLINE },
  { ...nm('Brendan', 'Olsen'), ...dob('2000-06-13'), ...LANDLINE },
  'new',
  'another name',
);
add(
  'round2',
  'twins Tyler / Taylor, dob + landline',
  { ...nm('Tyler', 'Olsen'), ...dob('2000-06-13'), ...LANDLINE },
  { ...nm('Taylor', 'Olsen'), ...dob('2000-06-13'), ...LANDLINE },
  'new',
  'another name',
);
add(
  'round2',
  'twins Molly / Polly, dob + landline',
  { ...nm('Molly', 'Olsen'), ...dob('2000-06-13'), ...LANDLINE },
  { ...nm('Polly', 'Olsen'), ...dob('2000-06-13'), ...LANDLINE },
  'either',
  'Polly is a form of Mary as Molly is',
);
add(
  'round2',
  'twins Emma / Emily, dob + landline',
  { ...nm('Emma', 'Olsen'), ...dob('2000-06-13'), ...LANDLINE },
  { ...nm('Emily', 'Olsen'), ...dob('2000-06-13'), ...LANDLINE },
  'new',
  'another name',
);
add(
  'round2',
  'twins Jessie / Jesse, dob + landline, sexes given',
  { ...nm('Jessie', 'Olsen'), sex: 'F', ...dob('2000-06-13'), ...LANDLINE },
  { ...nm('Jesse', 'Olsen'), sex: 'M', ...dob('2000-06-13'), ...LANDLINE },
  'new',
  'sexes differ',
);
add(
  'round2',
  'twins Samuel / Samantha, dob + landline',
  { ...nm('Samuel', 'Olsen'), ...dob('2000-06-13'), ...LANDLINE },
  { ...nm('Samantha', 'Olsen'), ...dob('2000-06-13'), ...LANDLINE },
  'new',
  'opposite sexes',
);

// --- Round 3: buildings, organizations, contexts ---
const TOWER = (unit: string): Body => ({
  addresses: [{ addressLine1: `100 Main Street ${unit}`.trim(), city: 'Springfield', stateOrProvince: 'IL', zipOrPostalCode: '62701' }],
});
add(
  'round3',
  'Maria Garcia, one tower, flats 4B / 12C',
  { ...nm('Maria', 'Garcia'), ...TOWER('Apt 4B') },
  { ...nm('Maria', 'Garcia'), ...TOWER('Apt 12C') },
  'new',
  'README: another flat',
);
add(
  'round3',
  'Maria Garcia, one tower, flat on one only',
  { ...nm('Maria', 'Garcia'), ...TOWER('Apt 4B') },
  { ...nm('Maria', 'Garcia'), ...TOWER('') },
  'either',
  'a flat left out, or a neighbour',
);
add(
  'round3',
  'Maria Garcia, one tower, flats 4B / 4B, other dobs',
  { ...nm('Maria', 'Garcia'), ...dob('1950-01-01'), ...TOWER('Apt 4B') },
  { ...nm('Maria', 'Garcia'), ...dob('1980-05-05'), ...TOWER('Apt 4B') },
  'new',
  'mother and daughter',
);
add(
  'round3',
  'suffix III / no suffix + dob on both, other dob',
  { ...JOHN, suffix: 'III', ...dob('1989-10-17'), ...LANDLINE },
  { ...JOHN, ...dob('1961-04-02'), ...LANDLINE },
  'new',
  'dates of birth differ',
);
add(
  'round3',
  'same name, same zip, dob transposed digits in year 1987 / 1978',
  { ...nm('Sam', 'Ortiz'), ...dob('1987-04-09'), ...ZIP },
  { ...nm('Sam', 'Ortiz'), ...dob('1978-04-09'), ...ZIP },
  'new',
  'README: one digit (transposed) is at most Possible',
);
add(
  'round3',
  'same name, landline, dob month one off (siblings 11 months apart)',
  { ...nm('Sam', 'Ortiz'), ...dob('1990-03-09'), ...LANDLINE },
  { ...nm('Sam', 'Ortiz'), ...dob('1990-04-09'), ...LANDLINE },
  'new',
  'README: one digit is at most Possible',
);
add(
  'round3',
  'initial only + landline, two Kellys with M',
  [
    { ...nm('Mary', 'Kelly'), ...LANDLINE },
    { ...nm('Michael', 'Kelly'), ...LANDLINE },
  ],
  { ...nm('M.', 'Kelly'), ...LANDLINE },
  'new',
  'README: an initial needs the dob and the address',
);
add(
  'round3',
  'swapped names + shared landline, another person',
  { ...nm('Kelly', 'Morgan'), ...LANDLINE },
  { ...nm('Morgan', 'Kelly'), ...LANDLINE },
  'either',
  'README: swapped beside a phone matches',
);
add(
  'round3',
  'Kelly Morgan / Morgan Kelly, both stored, Morgan Kelly sent',
  [
    { ...nm('Kelly', 'Morgan'), ...dob('1971-03-03'), ...LANDLINE },
    { ...nm('Morgan', 'Kelly'), ...dob('1990-09-09'), ...LANDLINE },
  ],
  { ...nm('Morgan', 'Kelly'), ...LANDLINE },
  'match',
  'the exact name',
  { target: 1 },
);

// --- Round 4: titles ---
add(
  'titles',
  'Mr / Mrs title field, Pat / Pat, shared landline + address',
  { ...nm('Pat', 'Donnelly'), title: 'Mr', ...LANDLINE, ...HOME },
  { ...nm('Pat', 'Donnelly'), title: 'Mrs', ...LANDLINE, ...HOME },
  'new',
  'a title says the sex: spouses of one unisex name',
);
add(
  'titles',
  'Mr / Ms title field, Jordan / Jordan, shared email',
  { ...nm('Jordan', 'Price'), title: 'Mr.', ...email('prices@example.net') },
  { ...nm('Jordan', 'Price'), title: 'Ms.', ...email('prices@example.net') },
  'new',
  'a title says the sex',
);
add(
  'titles',
  'Mr. in the first name / Mrs. in the first name, shared landline',
  { ...nm('Mr. Pat', 'Donnelly'), ...LANDLINE },
  { ...nm('Mrs. Pat', 'Donnelly'), ...LANDLINE },
  'new',
  'a title typed into the first name says the sex',
);
add(
  'titles',
  'Mrs. John Smith (first name field) / John Smith, shared landline',
  { ...nm('John', 'Smith'), ...LANDLINE },
  { ...nm('Mrs. John', 'Smith'), ...LANDLINE },
  'either',
  "a wife under her husband's name",
);
add(
  'titles',
  'Dr title on one, same person',
  { ...nm('Pat', 'Donnelly'), ...LANDLINE },
  { ...nm('Pat', 'Donnelly'), title: 'Dr', ...LANDLINE },
  'match',
  'a title on one record only',
);
add(
  'titles',
  'Mr title on one, sex M on the other',
  { ...nm('Pat', 'Donnelly'), sex: 'M', ...LANDLINE },
  { ...nm('Pat', 'Donnelly'), title: 'Mr', ...LANDLINE },
  'match',
  'one sex',
);
add(
  'titles',
  'Mrs title, sex F given too, same person',
  { ...nm('Pat', 'Donnelly'), title: 'Mrs', ...LANDLINE },
  { ...nm('Pat', 'Donnelly'), sex: 'F', ...LANDLINE },
  'match',
  'one sex',
);

export const PRECISION_SCENARIOS: readonly PrecisionScenario[] = s;

/**
 * The people behind the `mixed` scenario: the corpus model's households (shared addresses,
 * landlines and family emails, Jr/Sr namesakes, office switchboards), with overlays for
 * this scenario: names in Cyrillic, Greek or Arabic script for whole households, twins,
 * people without a home (a shelter's address and phone), and identifiers (SSN, passport,
 * driver's licence), unique per person.
 */
import { HouseholdLayout, PeopleModel } from '../corpus-model.js';
import type { AddressModel, PersonModel } from '../corpus-model.js';
import { Rng, goldenMultiplier, hashSeed, scatter } from '../prng.js';
import type { Ymd } from './dates.js';
import type { MixedRate } from './mixed.js';
import { NATIVE_NAMES, SCRIPT_SHARES } from './mixed-data.js';
import type { NativeName, Script } from './mixed-data.js';
import type { Tally } from './rates.js';

export interface NativeIdentity {
  readonly script: Script;
  readonly first: NativeName;
  readonly last: NativeName;
}

export interface MixedPerson {
  readonly id: string;
  readonly householdId: number;
  readonly male: boolean;
  /** Latin given name and surname (for non-Latin names: the usual romanization). */
  readonly first: string;
  readonly middle: string | null;
  readonly last: string;
  readonly suffix: string | null;
  readonly native: NativeIdentity | null;
  readonly dob: Ymd | null;
  readonly personalEmail: string | null;
  /** Shared with the household (different people!). */
  readonly familyEmail: string | null;
  readonly mobile: string | null;
  /** Shared with the household. */
  readonly landline: string | null;
  readonly address: AddressModel | null;
  readonly previousAddress: AddressModel | null;
  /** Index into SHELTERS for people without a home, else -1. */
  readonly shelter: number;
  readonly ssn: string;
  readonly passport: string | null;
  readonly license: string | null;
}

const TAG = 0x4d58; // "MX"
const SSN_AREAS: readonly number[] = Array.from({ length: 899 }, (_v, i) => i + 1).filter((a) => a !== 666);
const SSN_SPACE = SSN_AREAS.length * 99 * 9999;
const PASSPORT_SPACE = 900_000_000;
const LICENSE_SPACE = 26 * 10_000_000;

function ssnOf(i: number): string {
  let n = scatter(i, goldenMultiplier(SSN_SPACE), 4711, SSN_SPACE);
  const serial = (n % 9999) + 1;
  n = Math.floor(n / 9999);
  const group = (n % 99) + 1;
  const area = SSN_AREAS[Math.floor(n / 99)] ?? 1;
  return `${String(area).padStart(3, '0')}-${String(group).padStart(2, '0')}-${String(serial).padStart(4, '0')}`;
}

function passportOf(i: number): string {
  return String(100_000_000 + scatter(i, goldenMultiplier(PASSPORT_SPACE), 99, PASSPORT_SPACE));
}

function licenseOf(i: number): string {
  const n = scatter(i, goldenMultiplier(LICENSE_SPACE), 7, LICENSE_SPACE);
  return String.fromCharCode(65 + Math.floor(n / 10_000_000)) + String(n % 10_000_000).padStart(7, '0');
}

/** A small stable hash of a string (FNV-1a), to map a Latin name to a native one. */
function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function parseDob(dob: string | null): Ymd | null {
  if (dob === null) return null;
  return { y: Number(dob.slice(0, 4)), m: Number(dob.slice(5, 7)), d: Number(dob.slice(8, 10)) };
}

function asciiWord(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

/** The same email with the name part rebuilt from new names, keeping its number and domain. */
function renamedEmail(email: string, first: string, last: string): string {
  const [local = '', domain = 'gmail.com'] = email.split('@');
  const token = /\d+$/.exec(local)?.[0] ?? '';
  return `${asciiWord(first)}.${asciiWord(last)}${token}@${domain}`;
}

function familyEmailFor(email: string, last: string): string {
  const [local = '', domain = 'gmail.com'] = email.split('@');
  return `${asciiWord(last)}family${/\d+$/.exec(local)?.[0] ?? ''}@${domain}`;
}

function scriptOf(seed: number, household: number): Script | null {
  const u = new Rng(hashSeed(seed, TAG, 7, household)).float();
  let acc = 0;
  for (const [script, share] of SCRIPT_SHARES) {
    acc += share;
    if (u < acc) return script;
  }
  return null;
}

/**
 * Native names for a person of a non-Latin household. `names` holds the household's given
 * names so far (Latin -> native), so that a Jr gets his father's name and two different
 * people of one household never get the same one.
 */
function nativeFor(seed: number, p: PersonModel, script: Script, names: Map<string, NativeName>): NativeIdentity {
  const table = NATIVE_NAMES[script];
  const firsts = p.gender === 'm' ? table.male : table.female;
  const surname = table.surnames[new Rng(hashSeed(seed, TAG, 8, p.householdId)).int(table.surnames.length)] ?? table.surnames[0];
  let first = names.get(p.first);
  if (first === undefined) {
    const taken = new Set(names.values());
    const at = hashText(p.first);
    for (let k = 0; k < firsts.length && (first === undefined || taken.has(first)); k++) first = firsts[(at + k) % firsts.length];
    if (first !== undefined) names.set(p.first, first);
  }
  if (surname === undefined || first === undefined) throw new RangeError(`no ${script} names`);
  return { script, first, last: p.gender === 'm' ? surname.male : surname.female };
}

interface Context {
  readonly seed: number;
  readonly rng: Rng;
  readonly tally: Tally<MixedRate>;
  /** Given names used so far in the current household (Latin -> native). */
  readonly names: Map<string, NativeName>;
}

function build(ctx: Context, i: number, p: PersonModel, shelter: number): MixedPerson {
  const { seed, rng, tally } = ctx;
  const script = scriptOf(seed, p.householdId);
  const native = script === null ? null : nativeFor(seed, p, script, ctx.names);
  const first = native?.first[1] ?? p.first;
  const last = native?.last[1] ?? p.last;
  const personal = p.emails.find((e) => e !== p.sharedEmail) ?? null;
  const mobile = p.phones.find((ph) => ph.kind === 'mobile')?.digits ?? null;
  const landline = p.phones.find((ph) => ph.kind === 'landline')?.digits ?? null;
  const homeless = shelter >= 0;
  return {
    id: String(i + 1),
    householdId: p.householdId,
    male: p.gender === 'm',
    first,
    last,
    native,
    middle: native !== null || p.middle === p.first ? null : p.middle,
    suffix: p.suffix,
    dob: parseDob(p.dob),
    personalEmail: personal === null ? null : native !== null ? renamedEmail(personal, first, last) : personal,
    familyEmail: p.sharedEmail === null || homeless ? null : native !== null ? familyEmailFor(p.sharedEmail, native.last[1] ?? last) : p.sharedEmail,
    mobile: homeless && rng.chance(0.6) ? null : mobile,
    landline: homeless ? null : landline,
    address: homeless ? null : (p.addresses[0] ?? null),
    previousAddress: p.addresses[1] ?? null,
    shelter,
    ssn: ssnOf(i),
    passport: tally.roll(rng, 'hasPassport') ? passportOf(i) : null,
    license: tally.roll(rng, 'hasLicense') ? licenseOf(i) : null,
  };
}

/** The people of a mixed file: `entities` from the corpus model plus the twins it adds. */
export function mixedPeople(seed: number, entities: number, tally: Tally<MixedRate>): MixedPerson[] {
  const world = hashSeed(seed, TAG, 1);
  const layout = new HouseholdLayout(world, entities);
  const model = new PeopleModel(world, layout);
  const out: MixedPerson[] = [];
  let extra = entities;
  const names = new Map<string, NativeName>();
  for (let i = 0; i < entities; i++) {
    const rng = new Rng(hashSeed(world, TAG, 2, i));
    const ctx: Context = { seed: world, rng, tally, names };
    const size = layout.size[i] ?? 1;
    const start = i - (layout.offset[i] ?? 0);
    if (start === i) names.clear();
    const shelter = size === 1 && tally.roll(rng, 'homeless') ? rng.int(2) : -1;
    out.push(build(ctx, i, model.person(i), shelter));
    if (start === i && size >= 3 && tally.roll(rng, 'twins')) {
      // Twins: an extra person of the household, born the same day as its youngest member.
      const sibling = model.person(start + size - 1);
      const twin = model.newRelative(extra, start + size - 1, false);
      out.push(build(ctx, extra, { ...twin, last: sibling.last, dob: sibling.dob ?? twin.dob }, -1));
      extra++;
    }
  }
  return out;
}

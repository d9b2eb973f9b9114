/**
 * One record of a `mixed` person as one source keeps it, with the error processes of that
 * source (rates in bench/lib/messy/mixed.ts).
 */
import { CITIES, NICKNAMES } from '../corpus-data.js';
import { sampleAddress, sampleSurname, stripAccents } from '../corpus-model.js';
import type { Rng } from '../prng.js';
import type { Draft } from './assemble.js';
import { dateDigitTypo, formatDate, swapDayMonth } from './dates.js';
import type { DateFormat, Ymd } from './dates.js';
import { formatPhone, localPhone, streetLine } from './formats.js';
import type { MixedColumn, MixedRate, SourceSpec } from './mixed.js';
import { MIXED_COLUMNS } from './mixed.js';
import {
  EXTRA_NICKNAMES,
  GENERIC_ORGS,
  NO_ADDRESS,
  PLACEHOLDER_DOBS,
  PLACEHOLDER_EMAILS,
  PLACEHOLDER_NAMES,
  PLACEHOLDER_PHONES,
  PLACEHOLDER_SSNS,
  SHELTERS,
} from './mixed-data.js';
import type { MixedPerson } from './mixed-world.js';
import type { Tally } from './rates.js';
import { digitSwap, digitTypo, keyboardTypo } from './text-errors.js';

export interface RenderContext {
  readonly rng: Rng;
  readonly tally: Tally<MixedRate>;
  readonly person: MixedPerson;
  /** The person shares a household with others. */
  readonly shared: boolean;
}

type Row = Partial<Record<MixedColumn, string>>;

/** Providers a person may hold the same mailbox name at (the emailDomain rate). */
const EMAIL_PROVIDERS: readonly string[] = ['gmail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'aol.com', 'icloud.com'];

function toCells(row: Row): string[] {
  return MIXED_COLUMNS.map((c) => row[c] ?? '');
}

interface Names {
  first: string;
  last: string;
  middle: string | null;
}

function names(ctx: RenderContext, source: SourceSpec): Names {
  const { rng, tally, person: p } = ctx;
  if (p.native !== null && source.native && tally.roll(rng, 'nativeScript')) {
    return { first: p.native.first[0], last: p.native.last[0], middle: null };
  }
  let first = p.first;
  let last = p.last;
  if (p.native !== null) {
    const firsts = p.native.first.slice(2);
    const lasts = p.native.last.slice(2);
    if (firsts.length + lasts.length > 0 && tally.roll(rng, 'romanizationVariant')) {
      const onFirst = lasts.length === 0 || (firsts.length > 0 && rng.chance(0.6));
      if (onFirst) first = rng.pick(firsts);
      else last = rng.pick(lasts);
    }
  }
  if (source.everyday) {
    const key = stripAccents(first).toLowerCase();
    const listed = NICKNAMES[key];
    const extra = EXTRA_NICKNAMES[key];
    if (listed !== undefined && tally.roll(rng, 'nickname')) first = rng.pick(listed);
    else if (extra !== undefined && tally.roll(rng, 'nicknameUnlisted')) first = rng.pick(extra);
  }
  if (!p.male && ctx.shared && tally.roll(rng, 'otherSurname')) last = sampleSurname(rng);
  if (tally.roll(rng, 'nameTypo')) {
    if (rng.chance(0.5)) first = keyboardTypo(first, rng) ?? first;
    else last = keyboardTypo(last, rng) ?? last;
  }
  return { first, last, middle: p.middle };
}

function nameCells(ctx: RenderContext, source: SourceSpec, row: Row): Names {
  const { rng, tally, person: p } = ctx;
  const n = names(ctx, source);
  let last = n.last;
  if (p.suffix !== null && tally.roll(rng, 'suffixShown')) last = `${last} ${p.suffix}`;
  const up = (s: string): string => s.toUpperCase();
  if (source.names === 'split') {
    let [first, lastName] = [n.first, last];
    if (tally.roll(rng, 'nameSwap')) [first, lastName] = [lastName, first];
    if (tally.roll(rng, 'placeholderName')) {
      const ph = rng.pick(PLACEHOLDER_NAMES);
      first = ph.first;
      lastName = ph.last ?? lastName;
    }
    row.first_name = first;
    row.last_name = lastName;
  } else if (source.names === 'last-first') {
    row.name = `${up(last)}, ${up(n.first)}${n.middle !== null && rng.chance(0.6) ? ` ${up(n.middle)}` : ''}`;
  } else if (source.names === 'first-last') {
    row.name = `${n.first} ${last}`;
  } else {
    row.name = rng.chance(0.5) ? `${up(last)}, ${n.first}` : `${n.first} ${up(last)}`;
  }
  return { ...n, last };
}

function emailCell(ctx: RenderContext, source: SourceSpec, display: string): string {
  const { rng, tally, person: p } = ctx;
  let value =
    p.personalEmail !== null && p.familyEmail !== null ? (rng.chance(0.35) ? p.familyEmail : p.personalEmail) : (p.personalEmail ?? p.familyEmail ?? '');
  let real = value !== '';
  if (source.everyday && tally.roll(rng, 'genericEmail')) {
    value = rng.pick(GENERIC_ORGS).email;
    real = false;
  } else if (source.everyday && tally.roll(rng, 'placeholderEmail')) {
    value = rng.pick(PLACEHOLDER_EMAILS);
    real = false;
  }
  if (real) {
    value = ctx.tally.apply(ctx.rng, 'emailTypo', value, (v) => {
      const at = v.indexOf('@');
      const typo = keyboardTypo(v.slice(0, at), rng);
      return typo === null ? null : typo + v.slice(at);
    });
    value = ctx.tally.apply(ctx.rng, 'emailDomain', value, (v) => {
      const at = v.indexOf('@');
      const domain = v.slice(at + 1);
      if (rng.chance(0.5)) {
        const typo = keyboardTypo(domain, rng);
        return typo === null ? null : `${v.slice(0, at + 1)}${typo}`;
      }
      const other = EMAIL_PROVIDERS.filter((d) => d !== domain);
      return `${v.slice(0, at + 1)}${rng.pick(other)}`;
    });
  }
  if (value !== '' && tally.roll(rng, 'emailWithName')) value = `${display} <${value}>`;
  return value;
}

function phoneCell(ctx: RenderContext, source: SourceSpec): string {
  const { rng, tally, person: p } = ctx;
  const shelter = SHELTERS[p.shelter];
  let digits = p.mobile !== null && p.landline !== null ? (rng.chance(0.35) ? p.landline : p.mobile) : (p.mobile ?? p.landline);
  if (shelter !== undefined && (digits === null || rng.chance(0.7))) digits = shelter.phone;
  if (source.everyday) {
    if (tally.roll(rng, 'genericPhone')) digits = rng.pick(GENERIC_ORGS).phone;
    else if (tally.roll(rng, 'placeholderPhone')) return rng.pick(PLACEHOLDER_PHONES);
  }
  if (digits === null) return '';
  if (tally.roll(rng, 'phoneLocal7')) return localPhone(digits);
  return formatPhone(digits, rng.pick(source.phone));
}

function dobCell(ctx: RenderContext, source: SourceSpec, format: DateFormat): string {
  const { rng, tally, person: p } = ctx;
  if (p.dob === null || tally.roll(rng, 'dobMissing')) return '';
  if (source.everyday && tally.roll(rng, 'placeholderDob')) {
    const [y, m, d] = rng.pick(PLACEHOLDER_DOBS).split('-').map(Number);
    return formatDate({ y: y ?? 1900, m: m ?? 1, d: d ?? 1 }, format);
  }
  let date: Ymd = p.dob;
  if (tally.roll(rng, 'dobDigitTypo')) {
    const typo = dateDigitTypo(date, rng);
    if (typo === null) tally.revoke('dobDigitTypo');
    date = typo ?? date;
  }
  const swapped = swapDayMonth(date);
  if (swapped !== null && tally.roll(rng, 'dobDaySwap')) date = swapped;
  return formatDate(date, format);
}

function addressCells(ctx: RenderContext, source: SourceSpec, row: Row): void {
  const { rng, tally, person: p } = ctx;
  const shelter = SHELTERS[p.shelter];
  if (shelter !== undefined) {
    row.address = rng.chance(0.5) ? rng.pick(NO_ADDRESS) : shelter.address;
    row.city = CITIES[shelter.city]?.city ?? '';
    row.zip = shelter.zip;
    return;
  }
  if (p.address === null || tally.roll(rng, 'addressMissing')) return;
  let address = p.address;
  if (tally.roll(rng, 'addressMoved')) address = p.previousAddress ?? sampleAddress(rng, address.city);
  row.address = streetLine(address, rng, tally.roll(rng, 'addressVariant'));
  row.city = CITIES[address.city]?.city ?? '';
  let zip = source.name === 'dmv' && rng.chance(0.5) ? `${address.zip5}-${address.plus4}` : address.zip5;
  zip = ctx.tally.apply(ctx.rng, 'zipTypo', zip, (z) => digitTypo(z.slice(0, 5), rng)?.concat(z.slice(5)) ?? null);
  row.zip = zip;
}

function identifier(ctx: RenderContext, value: string | null, dashes: boolean): string {
  const { rng, tally } = ctx;
  if (value === null || tally.roll(rng, 'idMissing')) return '';
  let out = ctx.tally.apply(ctx.rng, 'idTypo', value, (v) => (rng.chance(0.7) ? digitTypo(v, rng) : digitSwap(v, rng)));
  if (!dashes) out = out.replace(/-/g, '');
  return out;
}

/** One record of `ctx.person` as `source` keeps it. */
export function renderRecord(ctx: RenderContext, source: SourceSpec): Draft {
  const { rng, tally, person: p } = ctx;
  const row: Row = { source: source.name };
  const n = nameCells(ctx, source, row);
  if (source.email) row.email = emailCell(ctx, source, `${n.first} ${n.last}`);
  if (source.phone.length > 0) row.phone = phoneCell(ctx, source);
  if (source.dob !== null) row.dob = dobCell(ctx, source, source.dob);
  if (source.address) addressCells(ctx, source, row);
  if (source.sex !== null && !tally.roll(rng, 'sexMissing')) row.sex = p.male ? source.sex[0] : source.sex[1];
  if (source.ssn) {
    if (source.name === 'clinic' && tally.roll(rng, 'ssnPlaceholder')) row.ssn = rng.pick(PLACEHOLDER_SSNS);
    else row.ssn = identifier(ctx, p.ssn, rng.chance(0.7));
  }
  if (source.passport) row.passport = identifier(ctx, p.passport, false);
  if (source.license) row.drivers_license = identifier(ctx, p.license, false);
  return { entity: p.id, cells: toCells(row), tags: tally.take() };
}

/** A crm or web row holding only one email or one phone of the person (no name). */
export function renderNameless(ctx: RenderContext): Draft {
  const { rng, tally, person: p } = ctx;
  const row: Row = { source: rng.chance(0.5) ? 'crm' : 'web' };
  const email = p.personalEmail ?? p.familyEmail;
  const phone = p.mobile ?? p.landline;
  if (email !== null && (phone === null || rng.chance(0.6))) row.email = rng.chance(0.5) && p.familyEmail !== null ? p.familyEmail : email;
  else if (phone !== null) row.phone = formatPhone(rng.chance(0.5) && p.landline !== null ? p.landline : phone, 'dash');
  return { entity: p.id, cells: toCells(row), tags: tally.take() };
}

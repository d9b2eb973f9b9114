/**
 * Turns a PersonModel into what a CRM sees: a stored record (varied but clean formats) or
 * an incoming query (the same person typed again by someone else: nicknames, typos, accents
 * dropped, case changes, swapped day/month, moved house, other phone formats, missing
 * fields). Every deliberate difference between a query and its stored record is tagged.
 */
import type { AddressInput, ContactInput, PhoneInput } from '../../src/engine/types.js';
import { ACCENTED_VOWELS, CITIES, DIRECTIONALS, KEYBOARD_NEIGHBOURS, NICKNAMES, STREET_SUFFIXES } from './corpus-data.js';
import type { AddressModel, PersonModel, PhoneModel } from './corpus-model.js';
import { stripAccents } from './corpus-model.js';
import type { Rng } from './prng.js';

/** What was done to a query relative to the stored record of the same person. */
export type NoiseTag =
  | 'nickname'
  | 'first-typo'
  | 'last-typo'
  | 'name-swap'
  | 'accent-dropped'
  | 'accent-added'
  | 'case'
  | 'surname-joined'
  | 'surname-partial'
  | 'suffix-in-last'
  | 'suffix-dropped'
  | 'dob-swapped'
  | 'dob-typo'
  | 'moved'
  | 'old-address'
  | 'zip4'
  | 'street-format'
  | 'street-typo'
  | 'phone-format'
  | 'new-phone'
  | 'new-email'
  | 'email-case'
  | 'gmail-alias'
  /** A Jr/Sr namesake lives in the same household and nothing in the query tells them apart. */
  | 'namesake-ambiguous';

type CaseMode = 'title' | 'upper' | 'lower';

/** How a stored record was written, for tagging the differences of a query. */
export interface RenderedRecord {
  readonly contact: ContactInput;
  readonly firstBase: string;
  readonly accents: boolean;
  readonly caseMode: CaseMode;
  readonly lastKind: LastKind;
  /** Rendered phones, emails and addresses in model order. */
  readonly phones: readonly (PhoneInput | string)[];
  readonly emails: readonly string[];
  readonly addresses: readonly AddressInput[];
}

type LastKind = 'plain' | 'titled' | 'joined' | 'spaced' | 'partial';

const HAS_NON_ASCII = /[\u0080-\uffff]/;

function styleText(text: string, accents: boolean, mode: CaseMode): string {
  const t = accents ? text : stripAccents(text);
  return mode === 'upper' ? t.toUpperCase() : mode === 'lower' ? t.toLowerCase() : t;
}

function pickCase(rng: Rng, upper: number, lower: number): CaseMode {
  const r = rng.float();
  return r < upper ? 'upper' : r < upper + lower ? 'lower' : 'title';
}

function titleWords(text: string): string {
  return text.replace(/(^|[\s-])(\p{Ll})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
}

function renderLast(last: string, rng: Rng, joinRate: number, partialRate: number): { text: string; kind: LastKind } {
  if (last.includes('-')) {
    const r = rng.float();
    if (r < partialRate) return { text: last.slice(0, last.indexOf('-')), kind: 'partial' };
    if (r < partialRate + 0.12) return { text: last.replace('-', ' '), kind: 'spaced' };
    return { text: last, kind: 'plain' };
  }
  if (/[' .]/.test(last)) {
    const r = rng.float();
    if (r < joinRate) {
      const joined = last.replace(/[' .]/g, '');
      return { text: joined.charAt(0).toUpperCase() + joined.slice(1), kind: 'joined' };
    }
    if (last.includes("'") && r < joinRate * 1.6) return { text: last.replace("'", ' '), kind: 'spaced' };
    if (last.includes(' ') && r < 0.3) return { text: titleWords(last), kind: 'titled' };
  }
  return { text: last, kind: 'plain' };
}

function renderSuffix(suffix: string, rng: Rng): string {
  const r = rng.int(10);
  if (suffix === 'Jr' || suffix === 'Sr') return r < 5 ? suffix : r < 8 ? `${suffix}.` : suffix.toUpperCase();
  return suffix;
}

function renderMiddle(middle: string, rng: Rng): string {
  const r = rng.float();
  return r < 0.6 ? middle : r < 0.85 ? middle.charAt(0) : `${middle.charAt(0)}.`;
}

const PHONE_FORMAT_WEIGHTS = [30, 25, 8, 15, 7, 7, 5, 3];

function formatPhone(digits: string, rng: Rng): string {
  const a = digits.slice(0, 3);
  const e = digits.slice(3, 6);
  const l = digits.slice(6);
  let r = rng.int(100);
  let f = 0;
  for (; f < PHONE_FORMAT_WEIGHTS.length - 1; f++) {
    r -= PHONE_FORMAT_WEIGHTS[f] ?? 0;
    if (r < 0) break;
  }
  switch (f) {
    case 0:
      return `(${a}) ${e}-${l}`;
    case 1:
      return `${a}-${e}-${l}`;
    case 2:
      return `${a}.${e}.${l}`;
    case 3:
      return `${a}${e}${l}`;
    case 4:
      return `+1 ${a} ${e} ${l}`;
    case 5:
      return `+1${a}${e}${l}`;
    case 6:
      return `1-${a}-${e}-${l}`;
    default:
      return `${a} ${e} ${l}`;
  }
}

function renderPhone(phone: PhoneModel, rng: Rng): PhoneInput | string {
  const text = formatPhone(phone.digits, rng);
  if (phone.ext === null) return text;
  const r = rng.int(3);
  return r === 0 ? `${text} ext. ${phone.ext}` : r === 1 ? `${text} x${phone.ext}` : { phoneNumber: text, ext: phone.ext };
}

function phoneText(phone: PhoneInput | string): string {
  return typeof phone === 'string' ? phone : `${phone.phoneNumber}|${phone.ext ?? ''}`;
}

/** One in this many directionals is written after the street. */
const DIRECTIONAL_PLACES = 8;

function renderAddress(model: AddressModel, rng: Rng, accents: boolean, mode: CaseMode, plus4Rate: number): AddressInput {
  const dirForms = model.predir >= 0 ? DIRECTIONALS[model.predir] : undefined;
  // The directional's form and, from the same draw (the form as before), its place: an
  // eighth of the time after the street ("Main St North" for "N Main St").
  const place = dirForms ? rng.int(dirForms.length * DIRECTIONAL_PLACES) : 0;
  const dirWord = dirForms ? (dirForms[Math.floor(place / DIRECTIONAL_PLACES)] ?? '') : '';
  const dirAfter = dirForms !== undefined && place % DIRECTIONAL_PLACES === 0;
  const dir = dirForms && !dirAfter ? `${dirWord} ` : '';
  const suffixForms = model.suffix >= 0 ? STREET_SUFFIXES[model.suffix] : undefined;
  let suffix = '';
  if (suffixForms) {
    const r = rng.float();
    // Standard abbreviation 50%, full word 35%, other variants 15%.
    suffix = ` ${r < 0.5 ? suffixForms[0] : r < 0.85 ? suffixForms[1] : rng.pick(suffixForms)}`;
  }
  let line1 = `${model.number} ${dir}${model.street}${suffix}${dirAfter ? ` ${dirWord}` : ''}`;
  let line2: string | undefined;
  if (model.unit !== null) {
    const r = rng.int(5);
    const unit =
      r === 0 ? `Apt ${model.unit}` : r === 1 ? `Apt. ${model.unit}` : r === 2 ? `#${model.unit}` : r === 3 ? `Unit ${model.unit}` : `APT ${model.unit}`;
    if (rng.chance(0.3)) line1 += rng.chance(0.5) ? `, ${unit}` : ` ${unit}`;
    else line2 = unit;
  }
  const city = CITIES[model.city];
  const zip = rng.chance(plus4Rate) ? `${model.zip5}-${model.plus4}` : model.zip5;
  const out: { -readonly [K in keyof AddressInput]: AddressInput[K] } = {
    addressLine1: styleText(line1, accents, mode === 'lower' ? 'lower' : mode === 'upper' ? 'upper' : 'title'),
    city: styleText(city?.city ?? 'Springfield', accents, mode),
    stateOrProvince: rng.chance(0.03) ? (city?.state ?? 'IL').toLowerCase() : (city?.state ?? 'IL'),
    zipOrPostalCode: zip,
  };
  if (line2 !== undefined) out.addressLine2 = styleText(line2, accents, mode);
  return out;
}

function addressKey(a: AddressInput): string {
  return stripAccents(`${a.addressLine1 ?? ''}|${a.addressLine2 ?? ''}`).toLowerCase();
}

/** Renders the stored record of a person: every field the model has, in varied formats. */
export function renderRecord(person: PersonModel, rng: Rng): RenderedRecord {
  const nicknames = NICKNAMES[stripAccents(person.first).toLowerCase()];
  const firstBase = nicknames !== undefined && rng.chance(0.06) ? rng.pick(nicknames) : person.first;
  const accents = rng.chance(0.75);
  const caseMode = pickCase(rng, 0.08, 0.04);
  const last = renderLast(person.last, rng, 0.05, 0);
  const contact: { -readonly [K in keyof ContactInput]: ContactInput[K] } = {
    firstName: styleText(firstBase, accents, caseMode),
    lastName: styleText(last.text, accents, caseMode),
  };
  if (person.middle !== null && rng.chance(0.55)) contact.middleName = styleText(renderMiddle(person.middle, rng), accents, caseMode);
  if (person.suffix !== null) {
    const r = rng.float();
    if (r < 0.85) contact.suffix = renderSuffix(person.suffix, rng);
    else if (r < 0.95) contact.lastName = `${contact.lastName ?? ''} ${renderSuffix(person.suffix, rng)}`;
  }
  if (person.dob !== null) contact.dateOfBirth = person.dob;
  const emails = person.emails.map((e) => (rng.chance(0.05) ? mixedCaseEmail(e) : e));
  const phones = person.phones.map((p) => renderPhone(p, rng));
  const addresses = person.addresses.map((a) => renderAddress(a, rng, accents, caseMode, 0.3));
  if (emails.length > 0) contact.emails = emails;
  if (phones.length > 0) contact.phones = phones;
  if (addresses.length > 0) contact.addresses = addresses;
  return { contact, firstBase, accents, caseMode, lastKind: last.kind, phones, emails, addresses };
}

function mixedCaseEmail(email: string): string {
  const at = email.indexOf('@');
  const local = email.slice(0, at).replace(/(^|[._])([a-z])/g, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
  const domain = email.slice(at + 1);
  return `${local}@${domain.charAt(0).toUpperCase()}${domain.slice(1)}`;
}

/** One keyboard typo: substitute a neighbour, delete, insert a neighbour or transpose. */
export function typo(text: string, rng: Rng): string {
  if (text.length < 3) return text;
  // Only letters get mistyped (a typo in a space or digit changes what the field is).
  const letters: number[] = [];
  for (let i = 1; i < text.length; i++) if (/\p{L}/u.test(text.charAt(i))) letters.push(i);
  if (letters.length === 0) return text;
  const pos = rng.chance(0.85) || !/\p{L}/u.test(text.charAt(0)) ? rng.pick(letters) : 0;
  const ch = text.charAt(pos);
  const lower = ch.toLowerCase();
  const near = KEYBOARD_NEIGHBOURS[lower] ?? 'e';
  let rep = near.charAt(rng.int(near.length));
  if (ch !== lower) rep = rep.toUpperCase();
  const r = rng.float();
  let out: string;
  if (r < 0.4) out = text.slice(0, pos) + rep + text.slice(pos + 1);
  else if (r < 0.6) out = text.slice(0, pos) + text.slice(pos + 1);
  else if (r < 0.75) out = text.slice(0, pos) + rep + text.slice(pos);
  else {
    const p = Math.min(pos, text.length - 2);
    const swapped = text.slice(0, p) + text.charAt(p + 1) + text.charAt(p) + text.slice(p + 2);
    out = /\p{L}\p{L}/u.test(text.slice(p, p + 2)) ? swapped : text.slice(0, pos) + rep + text.slice(pos + 1);
  }
  return out === text ? text.slice(0, pos) + text.slice(pos + 1) : out;
}

function addAccent(text: string, rng: Rng): string {
  const positions: number[] = [];
  for (let i = 1; i < text.length; i++) if (ACCENTED_VOWELS[text.charAt(i)] !== undefined) positions.push(i);
  if (positions.length === 0) return text;
  const p = rng.pick(positions);
  return text.slice(0, p) + (ACCENTED_VOWELS[text.charAt(p)] ?? '') + text.slice(p + 1);
}

/** Query kinds: a stored person typed again, or people who are not in the corpus. */
export type QueryKind = 'existing' | 'new' | 'new-relative' | 'new-junior';

export interface RenderedQuery {
  readonly candidate: ContactInput;
  readonly noise: readonly NoiseTag[];
}

/** Fresh values (not on any record) a query may bring: a new email, phone or address. */
export interface FreshValues {
  email(): string;
  phone(): PhoneModel;
  address(): AddressModel;
}

/**
 * Renders an incoming query for `person`. With `record` (an existing person) the noise is
 * tagged against it; the query always keeps at least one value that is also on the record
 * (an email, phone or address), so a careful human could still link it.
 */
export function renderQuery(person: PersonModel, rng: Rng, kind: QueryKind, record: RenderedRecord | null, fresh: FreshValues): RenderedQuery {
  const tags = new Set<NoiseTag>();
  const nicknames = NICKNAMES[stripAccents(person.first).toLowerCase()];
  const firstBase = nicknames !== undefined && rng.chance(0.15) ? rng.pick(nicknames) : person.first;
  const accents = rng.chance(0.6);
  const caseMode = pickCase(rng, 0.07, 0.05);
  const last = renderLast(person.last, rng, 0.15, 0.2);
  let first = styleText(firstBase, accents, caseMode);
  let lastText = styleText(last.text, accents, caseMode);

  if (record !== null) {
    if (stripAccents(record.firstBase).toLowerCase() !== stripAccents(firstBase).toLowerCase()) tags.add('nickname');
    const accentedSource = HAS_NON_ASCII.test(firstBase + person.last + (CITIES[person.addresses[0]?.city ?? -1]?.city ?? ''));
    if (accentedSource && record.accents && !accents) tags.add('accent-dropped');
    if (accentedSource && !record.accents && accents) tags.add('accent-added');
    if (record.caseMode !== caseMode) tags.add('case');
    if (last.kind === 'partial' && record.lastKind !== 'partial') tags.add('surname-partial');
    else if ((last.kind === 'joined' || last.kind === 'spaced') && record.lastKind !== last.kind) tags.add('surname-joined');
  }
  if (!HAS_NON_ASCII.test(first + lastText) && rng.chance(0.01)) {
    lastText = addAccent(lastText, rng);
    tags.add('accent-added');
  }
  if (rng.chance(0.04)) {
    const t = typo(first, rng);
    if (t !== first) {
      first = t;
      tags.add('first-typo');
    }
  }
  if (rng.chance(0.05)) {
    const t = typo(lastText, rng);
    if (t !== lastText) {
      lastText = t;
      tags.add('last-typo');
    }
  }
  const candidate: { -readonly [K in keyof ContactInput]: ContactInput[K] } = {};
  if (rng.chance(0.01)) {
    candidate.firstName = lastText;
    candidate.lastName = first;
    tags.add('name-swap');
  } else {
    candidate.firstName = first;
    candidate.lastName = lastText;
  }
  if (person.middle !== null && rng.chance(0.35)) candidate.middleName = styleText(renderMiddle(person.middle, rng), accents, caseMode);
  if (person.suffix !== null) {
    const forced = kind === 'new-junior';
    const r = rng.float();
    if (forced || r < 0.72) candidate.suffix = renderSuffix(person.suffix, rng);
    else if (r < 0.8) {
      candidate.lastName = `${candidate.lastName ?? ''} ${renderSuffix(person.suffix, rng)}`;
      tags.add('suffix-in-last');
    } else tags.add('suffix-dropped');
  }

  // Which values to send; "linked" = also on the stored record, unchanged.
  const emails: string[] = [];
  const phones: (PhoneInput | string)[] = [];
  const addresses: AddressInput[] = [];
  // What the values sent have in common with the record (set by the add* helpers).
  const sent = { linked: false, shared: false, personal: false };

  const addEmail = (index: number): void => {
    const canonical = person.emails[index];
    if (canonical === undefined) return;
    let email = canonical;
    const at = email.indexOf('@');
    if (email.endsWith('@gmail.com') && rng.chance(0.08)) {
      email = rng.chance(0.5) ? `${email.slice(0, at).replace(/\./g, '')}@gmail.com` : `${email.slice(0, at)}+news@gmail.com`;
      if (email !== canonical) tags.add('gmail-alias');
    }
    if (rng.chance(0.06)) email = mixedCaseEmail(email);
    const stored = record?.emails[index];
    if (stored !== undefined && stored !== email && stored.toLowerCase() === email.toLowerCase()) tags.add('email-case');
    emails.push(email);
    sent.linked = true;
    if (canonical === person.sharedEmail) sent.shared = true;
    else sent.personal = true;
  };
  const addPhone = (index: number): void => {
    const phone = person.phones[index];
    if (phone === undefined) return;
    const rendered = renderPhone(phone, rng);
    const stored = record?.phones[index];
    if (stored !== undefined && phoneText(stored) !== phoneText(rendered)) tags.add('phone-format');
    phones.push(rendered);
    sent.linked = true;
    if (person.sharedPhones.includes(phone.digits)) sent.shared = true;
    else sent.personal = true;
  };
  const addAddress = (index: number): void => {
    const address = person.addresses[index];
    if (address === undefined) return;
    const rendered = renderAddress(address, rng, accents, caseMode, 0.3);
    let line1 = rendered.addressLine1 ?? '';
    if (rng.chance(0.03)) {
      const space = line1.indexOf(' ');
      const typed = line1.slice(0, space + 1) + typo(line1.slice(space + 1), rng);
      if (typed !== line1) {
        line1 = typed;
        tags.add('street-typo');
      }
    }
    const out = { ...rendered, addressLine1: line1 };
    const stored = record?.addresses[index];
    if (stored !== undefined) {
      if (stored.zipOrPostalCode !== out.zipOrPostalCode) tags.add('zip4');
      if (!tags.has('street-typo') && addressKey(stored) !== addressKey(out)) tags.add('street-format');
    }
    if (index > 0) tags.add('old-address');
    addresses.push(out);
    sent.linked = true;
    sent.shared = true;
  };
  const preferredPhone = (): number => {
    const mobile = person.phones.findIndex((p) => p.kind === 'mobile');
    return mobile >= 0 && rng.chance(0.7) ? mobile : rng.int(person.phones.length);
  };

  if (person.emails.length > 0 && rng.chance(0.6)) addEmail(rng.int(person.emails.length));
  if (rng.chance(0.04)) {
    emails.push(fresh.email());
    tags.add('new-email');
  }
  if (person.phones.length > 0 && rng.chance(0.6)) addPhone(preferredPhone());
  if (rng.chance(0.04)) {
    phones.push(formatPhone(fresh.phone().digits, rng));
    tags.add('new-phone');
  }
  const wantsAddress = rng.chance(0.7) || kind === 'new-junior';
  // Only people with another way to link them (email, phone) can move house in a query.
  const canMove = kind === 'existing' && person.emails.length + person.phones.length > 0;
  if (wantsAddress && rng.chance(0.08) && canMove) {
    addresses.push(renderAddress(fresh.address(), rng, accents, caseMode, 0.3));
    tags.add('moved');
  } else if (wantsAddress && person.addresses.length > 0) {
    addAddress(person.addresses.length > 1 && rng.chance(0.15) ? 1 : 0);
  }
  // Keep the query linkable: at least one value that is also on the record.
  if (!sent.linked) {
    const options: (() => void)[] = [];
    if (person.emails.length > 0) options.push(() => addEmail(rng.int(person.emails.length)));
    if (person.phones.length > 0) options.push(() => addPhone(preferredPhone()));
    if (person.addresses.length > 0 && !tags.has('moved')) options.push(() => addAddress(0));
    if (options.length > 0) rng.pick(options)();
  }
  // A relative is only a hard negative if the query carries something the family shares.
  if (kind === 'new-relative' && !sent.shared && person.addresses.length > 0) addAddress(0);

  if (person.dob !== null && (rng.chance(0.65) || kind === 'new-junior')) {
    let dob = person.dob;
    const year = dob.slice(0, 4);
    const month = Number(dob.slice(5, 7));
    const day = Number(dob.slice(8, 10));
    const r = rng.float();
    if (r < 0.03 && day <= 12 && day !== month) {
      dob = `${year}-${dob.slice(8, 10)}-${dob.slice(5, 7)}`;
      tags.add('dob-swapped');
    } else if (r >= 0.03 && r < 0.05) {
      dob = rng.chance(0.5)
        ? `${Number(year) + (rng.chance(0.5) ? 1 : -1)}${dob.slice(4)}`
        : `${year}-${dob.slice(5, 7)}-${String(day === 1 ? 2 : day - 1).padStart(2, '0')}`;
      tags.add('dob-typo');
    }
    candidate.dateOfBirth = dob;
  }
  if (person.namesake && !sent.personal && candidate.dateOfBirth === undefined && candidate.suffix === undefined) {
    tags.add('namesake-ambiguous');
  }
  if (emails.length > 0) candidate.emails = emails;
  if (phones.length > 0) candidate.phones = phones;
  if (addresses.length > 0) candidate.addresses = addresses;
  if (record === null) {
    // Tags describe differences from a stored record; new people have none.
    for (const t of ['nickname', 'accent-dropped', 'accent-added', 'case'] as const) tags.delete(t);
  }
  return { candidate, noise: [...tags] };
}

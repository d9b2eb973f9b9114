/**
 * A batch of normalized contacts in columns, for sending between threads. The structured clone
 * of an array of contact objects writes and reads every object's keys one by one; a million
 * rows of a dedupe cross from the normalizing worker to the builder, and their clone cost
 * about 115 ms of CPU per 20,480 contacts on the two sides. In columns (one array per field,
 * the lists' lengths in one typed array, the lists' and addresses' values in one array each)
 * the same batch packs, clones and is rebuilt in about 70 ms (bench/README.md, "Dedupe").
 */
import type { NameSuffix, NormalizedAddress, NormalizedContact, Sex } from '../engine/index.js';

/** Per contact: its emails, phones, identifiers, attributes and addresses (in that order). */
const LISTS = 5;

/** A batch of contacts in columns ({@link packContacts}); plain data, cheap to clone. */
export interface PackedContacts {
  readonly count: number;
  readonly first: (string | null)[];
  readonly middle: (string | null)[];
  readonly last: (string | null)[];
  readonly suffix: (NameSuffix | null)[];
  readonly dob: (string | null)[];
  readonly sex: (Sex | null)[];
  /** Names as written in Chinese characters or kana (NormalizedContact.written). */
  readonly written: (string | null)[];
  /** {@link LISTS} lengths per contact. */
  readonly lengths: Int32Array;
  /** Every contact's emails, phones, identifiers and attributes, one after another. */
  readonly values: (string | null)[];
  /** Every address's eight fields, in NormalizedAddress's key order. */
  readonly addresses: (string | null)[];
}

/** Columns of a batch of contacts. */
export function packContacts(contacts: readonly NormalizedContact[]): PackedContacts {
  const n = contacts.length;
  const first = new Array<string | null>(n);
  const middle = new Array<string | null>(n);
  const last = new Array<string | null>(n);
  const suffix = new Array<NameSuffix | null>(n);
  const dob = new Array<string | null>(n);
  const sex = new Array<Sex | null>(n);
  const written = new Array<string | null>(n);
  const lengths = new Int32Array(n * LISTS);
  const values: (string | null)[] = [];
  const addresses: (string | null)[] = [];
  for (let i = 0; i < n; i++) {
    const c = contacts[i] as NormalizedContact;
    first[i] = c.first;
    middle[i] = c.middle;
    last[i] = c.last;
    suffix[i] = c.suffix;
    dob[i] = c.dob;
    sex[i] = c.sex;
    written[i] = c.written ?? null;
    const at = i * LISTS;
    lengths[at] = c.emails.length;
    for (const v of c.emails) values.push(v);
    lengths[at + 1] = c.phones.length;
    for (const v of c.phones) values.push(v);
    lengths[at + 2] = c.identifiers.length;
    for (const v of c.identifiers) values.push(v);
    lengths[at + 3] = c.attributes.length;
    for (const v of c.attributes) values.push(v);
    lengths[at + 4] = c.addresses.length;
    for (const a of c.addresses) addresses.push(a.number, a.street, a.unit, a.building, a.city, a.state, a.zip, a.country);
  }
  return { count: n, first, middle, last, suffix, dob, sex, written, lengths, values, addresses };
}

/** The contacts of a packed batch (new objects, equal to those packed). */
export function unpackContacts(p: PackedContacts): NormalizedContact[] {
  const out = new Array<NormalizedContact>(p.count);
  const { lengths, values, addresses: a } = p;
  let v = 0;
  let k = 0;
  for (let i = 0; i < p.count; i++) {
    const at = i * LISTS;
    const emails = take(values, v, lengths[at] as number) as string[];
    v += emails.length;
    const phones = take(values, v, lengths[at + 1] as number) as string[];
    v += phones.length;
    const identifiers = take(values, v, lengths[at + 2] as number) as string[];
    v += identifiers.length;
    const attributes = take(values, v, lengths[at + 3] as number);
    v += attributes.length;
    const count = lengths[at + 4] as number;
    const addresses = new Array<NormalizedAddress>(count);
    for (let j = 0; j < count; j++, k += 8) {
      // NormalizedAddress's key order, as normalizeAddress's literal (one hidden class).
      addresses[j] = {
        number: a[k] as string | null,
        street: a[k + 1] as string | null,
        unit: a[k + 2] as string | null,
        building: a[k + 3] as string | null,
        city: a[k + 4] as string | null,
        state: a[k + 5] as string | null,
        zip: a[k + 6] as string | null,
        country: a[k + 7] as string | null,
      };
    }
    // normalizeContact's key order (one hidden class for every contact).
    out[i] = {
      first: p.first[i] as string | null,
      middle: p.middle[i] as string | null,
      last: p.last[i] as string | null,
      suffix: p.suffix[i] as NameSuffix | null,
      dob: p.dob[i] as string | null,
      emails,
      phones,
      addresses,
      identifiers,
      sex: p.sex[i] as Sex | null,
      attributes,
      written: p.written[i] as string | null,
    };
  }
  return out;
}

function take(values: readonly (string | null)[], from: number, count: number): (string | null)[] {
  const out = new Array<string | null>(count);
  for (let j = 0; j < count; j++) out[j] = values[from + j] as string | null;
  return out;
}

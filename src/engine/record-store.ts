/**
 * The index's records, stored by column in typed arrays instead of one object per record.
 *
 * Why: at a million records, one object graph per record (the contact, its lists, its
 * addresses) is five to ten heap objects each, and the garbage collector marks all of them
 * again on every major collection while the index grows; about a fifth of the build time went
 * to that (bench/README.md, "Engine"). Here a record is a row of small integers: names, date
 * of birth and address parts are ids into one table of distinct strings (a city or a surname
 * is stored once however many records hold it), and the per-record values (emails, phones,
 * identifiers) are UTF-16 code units in one typed array, not strings: a string per email and phone
 * outlived the young generation and made every scavenge copy it. `get` builds the record's `NormalizedContact` when
 * scoring asks for it (a handful of short-lived objects per candidate).
 *
 * Layout of a row (eight ints side by side, so reading a record's names and date of birth is
 * one cache line): `first`, `middle`, `last`, `dob` (string ids, -1 for null), `suffix` and
 * sex (codes, 0 for none, in one int), `listAt`, the start of the row's segment in `lists`,
 * the record's id, and the names as written in Chinese characters or kana (a string id, -1
 * for none: written-names.ts). Attributes (a file's free-text columns), when the store has any, are
 * string ids in `attrs`, a fixed number per row. A row's segment of `lists` is
 * `[emails, phones, identifiers, addresses, ...(offset, length) in `units` of each email, phone
 * and identifier, ...8 string ids per address]`, or -1 when every list is empty.
 * Removed rows are reused; the space their segments and values held is reclaimed by a
 * compaction once it is more than half of what is in use.
 *
 * Past 400 lines because every method reads or writes that one layout by its offsets (the R_
 * constants below), and RecordView, which hands a row to scoring, reads it the same way:
 * split, the layout would be spread over files. The string table (string-table.ts) and the
 * comparison of stored emails and phones (stored-values.ts) live apart.
 */
import { GATE_FIELD_BITS } from './gates.js';
import type { ContactNames, NameForms } from './name-compare.js';
import type { LevelName } from './comparisons.js';
import { storedEmailLevel, storedHolds, storedIdentifierLevel, storedPhoneLevel, type StoredLists } from './stored-values.js';
import { StringTable, type StringTableState } from './string-table.js';
import type { NameSuffix, NormalizedAddress, NormalizedContact, Sex } from './types.js';

const NONE: readonly never[] = Object.freeze([]);
const SUFFIXES: readonly (NameSuffix | null)[] = [null, 'jr', 'sr', 'ii', 'iii', 'iv', 'v'];
const SEXES: readonly (Sex | null)[] = [null, 'm', 'f'];
/** The suffix and sex share one int of the row: the suffix code in the low 4 bits, the sex above. */
const SEX_SHIFT = 4;
const SUFFIX_BITS = (1 << SEX_SHIFT) - 1;
const ADDRESS_WIDTH = 8;
const HEADER = 4;
const INITIAL_ROWS = 1 << 10;
const FREE = -2;
/** Ints per row, and the fields' offsets in a row (8: two rows per 64-byte cache line). */
const ROW_WIDTH = 8;
const R_FIRST = 0;
const R_MIDDLE = 1;
const R_LAST = 2;
const R_DOB = 3;
const R_SUFFIX = 4;
const R_LIST = 5;
const R_ID = 6;
/** The name as written in Chinese characters or kana (written-names.ts), a string id, -1 for none. */
const R_WRITTEN = 7;
/** Code units of the value being decoded. */
const SCRATCH: number[] = [];
const DECODE_CHUNK = 4096;

/** Id -> row, open addressing with linear probing over one Int32Array of [id, row] pairs. */
class IdToRow {
  private table: Int32Array = new Int32Array(INITIAL_ROWS * 2).fill(-1);
  private capacity = INITIAL_ROWS;
  size = 0;

  get(id: number): number {
    const t = this.table;
    const mask = this.capacity - 1;
    for (let s = home(id) & mask; ; s = (s + 1) & mask) {
      const key = t[2 * s] as number;
      if (key === id) return t[2 * s + 1] as number;
      if (key === -1) return -1;
    }
  }

  /** Sets the row of an id that is not in the map. */
  add(id: number, row: number): void {
    if ((this.size + 1) * 4 > this.capacity * 3) this.grow();
    this.place(id, row);
    this.size++;
  }

  delete(id: number): void {
    const t = this.table;
    const mask = this.capacity - 1;
    let s = home(id) & mask;
    for (; ; s = (s + 1) & mask) {
      const key = t[2 * s] as number;
      if (key === -1) return;
      if (key === id) break;
    }
    // Backward-shift deletion: move later entries of the probe run into the hole.
    let hole = s;
    for (let j = (hole + 1) & mask; ; j = (j + 1) & mask) {
      const key = t[2 * j] as number;
      if (key === -1) break;
      const h = home(key) & mask;
      const stays = hole <= j ? hole < h && h <= j : hole < h || h <= j;
      if (stays) continue;
      t[2 * hole] = key;
      t[2 * hole + 1] = t[2 * j + 1] as number;
      hole = j;
    }
    t[2 * hole] = -1;
    this.size--;
  }

  get bytes(): number {
    return this.table.byteLength;
  }

  /** Replaces each row by `newRow[row]` (RecordStore.reorder). */
  remapRows(newRow: Int32Array): void {
    const t = this.table;
    for (let s = 0; s < t.length; s += 2) if ((t[s] as number) !== -1) t[s + 1] = newRow[t[s + 1] as number] as number;
  }

  exportState(): { table: Int32Array; capacity: number; size: number } {
    return { table: this.table, capacity: this.capacity, size: this.size };
  }

  importState(s: { table: Int32Array; capacity: number; size: number }, adopt = false): void {
    this.table = adopt ? s.table : s.table.slice();
    this.capacity = s.capacity;
    this.size = s.size;
  }

  private place(id: number, row: number): void {
    const t = this.table;
    const mask = this.capacity - 1;
    let s = home(id) & mask;
    while (t[2 * s] !== -1) s = (s + 1) & mask;
    t[2 * s] = id;
    t[2 * s + 1] = row;
  }

  private grow(): void {
    const old = this.table;
    this.capacity *= 2;
    this.table = new Int32Array(this.capacity * 2).fill(-1);
    for (let s = 0; s < old.length; s += 2) {
      const key = old[s] as number;
      if (key !== -1) this.place(key, old[s + 1] as number);
    }
  }
}

function home(id: number): number {
  const h = Math.imul(id ^ (id >>> 15), 0x2c1b3c6d);
  return (h ^ (h >>> 12)) >>> 0;
}

/** Rows of `width` ints of `data` in `order` (row k of the result is row order[k] of `data`). */
function permuteRows(data: Int32Array, order: Int32Array, width: number): Int32Array {
  const out = new Int32Array(data.length);
  for (let k = 0; k < order.length; k++) {
    const from = (order[k] as number) * width;
    for (let j = 0; j < width; j++) out[k * width + j] = data[from + j] as number;
  }
  return out;
}

function grownInt32(a: Int32Array, need: number): Int32Array {
  if (need <= a.length) return a;
  const next = new Int32Array(Math.max(need, Math.ceil(a.length * 1.5)));
  next.set(a);
  return next;
}

/** A {@link RecordStore}'s data. */
export interface RecordStoreState {
  readonly ids: { table: Int32Array; capacity: number; size: number };
  readonly rowData: Int32Array;
  readonly freeRows: readonly number[];
  readonly strings: StringTableState;
  readonly units: Uint16Array;
  readonly deadUnits: number;
  readonly lists: Int32Array;
  readonly deadLists: number;
  readonly attrs: Int32Array;
}

/** Columnar store of normalized contacts by record id (non-negative int32). */
export class RecordStore {
  private readonly ids = new IdToRow();
  /**
   * Rows of ROW_WIDTH ints, a row's fields side by side (one cache line to read a record's
   * names and date): string ids of first, middle, last and dob (-1 for null), the suffix
   * code, and the start of the row's segment in `lists` (-1 when it has none, FREE for a
   * removed row).
   */
  private rowData: Int32Array = new Int32Array(INITIAL_ROWS * ROW_WIDTH);
  private rows = 0;
  private freeRows: number[] = [];

  /** Distinct shared values (names, dates, address parts) and their ids. */
  private readonly strings = new StringTable();
  /** Per-record values (emails, phones, identifiers) as UTF-16 code units (exact for any string). */
  private units: Uint16Array = new Uint16Array(INITIAL_ROWS * 32);
  private unitsUsed = 0;
  private deadUnits = 0;
  private lists: Int32Array = new Int32Array(INITIAL_ROWS * 4);
  private listsUsed = 0;
  private deadLists = 0;
  /** Attribute string ids, `attributeCount` per row (-1 for null). */
  private attrs: Int32Array;

  /** `attributeCount`: how many attributes each record has (the model's attribute columns). */
  constructor(readonly attributeCount = 0) {
    this.attrs = new Int32Array(attributeCount === 0 ? 0 : INITIAL_ROWS * attributeCount);
  }

  /** Number of records. */
  get size(): number {
    return this.ids.size;
  }

  has(id: number): boolean {
    return this.ids.get(id) >= 0;
  }

  /** The record with this id, built from its row (a new object each call), or undefined. */
  get(id: number): NormalizedContact | undefined {
    const row = this.ids.get(id);
    return row < 0 ? undefined : this.contactAt(row);
  }

  /** The row of a record id, or -1. */
  rowOf(id: number): number {
    return this.ids.get(id);
  }

  /** The record id of a row in use. */
  idOfRow(row: number): number {
    return this.rowData[row * ROW_WIDTH + R_ID] as number;
  }

  /** Rows allocated (in use, and removed ones not yet reused). */
  get rowCount(): number {
    return this.rows;
  }

  /** String ids of a row's first name and surname (-1 for none), into `out[0]` and `out[1]`. */
  namesOfRow(row: number, out: Int32Array): void {
    out[0] = this.rowData[row * ROW_WIDTH + R_FIRST] as number;
    out[1] = this.rowData[row * ROW_WIDTH + R_LAST] as number;
  }

  /** Adds a record, or replaces the one with the same id; answers its row. */
  set(id: number, c: NormalizedContact): number {
    const old = this.ids.get(id);
    if (old >= 0) this.releaseRow(old);
    const row = old >= 0 ? old : this.allocRow();
    const first = this.intern(c.first);
    const middle = this.intern(c.middle);
    const last = this.intern(c.last);
    const dob = this.intern(c.dob);
    const listAt = this.writeLists(c);
    const d = this.rowData;
    const r = row * ROW_WIDTH;
    d[r + R_FIRST] = first;
    d[r + R_MIDDLE] = middle;
    d[r + R_LAST] = last;
    d[r + R_DOB] = dob;
    d[r + R_SUFFIX] = (c.suffix === null ? 0 : SUFFIXES.indexOf(c.suffix)) | ((c.sex === null ? 0 : SEXES.indexOf(c.sex)) << SEX_SHIFT);
    d[r + R_LIST] = listAt;
    d[r + R_ID] = id;
    d[r + R_WRITTEN] = this.intern(c.written ?? null);
    const width = this.attributeCount;
    if (width > 0) {
      this.attrs = grownInt32(this.attrs, (row + 1) * width);
      for (let k = 0; k < width; k++) this.attrs[row * width + k] = this.intern(c.attributes[k] ?? null);
    }
    if (old < 0) this.ids.add(id, row);
    else this.maybeCompact();
    return row;
  }

  /** Removes a record; false when there was none. */
  delete(id: number): boolean {
    const row = this.ids.get(id);
    if (row < 0) return false;
    this.releaseRow(row);
    this.rowData[row * ROW_WIDTH + R_LIST] = FREE;
    this.freeRows.push(row);
    this.ids.delete(id);
    this.maybeCompact();
    return true;
  }

  /** Bytes held by typed arrays (the distinct shared strings are on the heap besides). */
  get bytes(): number {
    return this.ids.bytes + this.rowData.byteLength + this.lists.byteLength + this.units.byteLength + this.strings.bytes + this.attrs.byteLength;
  }

  /** The store's data, for {@link importState} in another thread (structured-clonable). */
  exportState(): RecordStoreState {
    return {
      ids: this.ids.exportState(),
      rowData: this.rowData.subarray(0, this.rows * ROW_WIDTH),
      freeRows: this.freeRows,
      strings: this.strings.exportState(),
      units: this.units.subarray(0, this.unitsUsed),
      deadUnits: this.deadUnits,
      lists: this.lists.subarray(0, this.listsUsed),
      deadLists: this.deadLists,
      attrs: this.attrs.subarray(0, this.rows * this.attributeCount),
    };
  }

  /** Replaces this (empty) store's data with an exported state: a copy, or the state's own arrays when `adopt`. */
  importState(s: RecordStoreState, adopt = false): void {
    const take = <T extends Int32Array | Uint16Array>(a: T): T => (adopt ? a : (a.slice() as T));
    this.ids.importState(s.ids, adopt);
    this.rowData = take(s.rowData);
    this.rows = s.rowData.length / ROW_WIDTH;
    this.freeRows = s.freeRows.slice();
    this.strings.importState(s.strings, adopt);
    this.units = take(s.units);
    this.unitsUsed = s.units.length;
    this.deadUnits = s.deadUnits;
    this.lists = take(s.lists);
    this.listsUsed = s.lists.length;
    this.deadLists = s.deadLists;
    this.attrs = take(s.attrs);
  }

  private intern(v: string | null): number {
    return v === null ? -1 : this.strings.id(v);
  }

  private allocRow(): number {
    const reused = this.freeRows.pop();
    if (reused !== undefined) return reused;
    const row = this.rows++;
    this.rowData = grownInt32(this.rowData, (row + 1) * ROW_WIDTH);
    return row;
  }

  /** Marks a row's segment and values as dead (the row itself stays allocated). */
  private releaseRow(row: number): void {
    const at = this.rowData[row * ROW_WIDTH + R_LIST] as number;
    if (at < 0) return;
    const l = this.lists;
    const nValues = (l[at] as number) + (l[at + 1] as number) + (l[at + 2] as number);
    for (let k = at + HEADER; k < at + HEADER + 2 * nValues; k += 2) this.deadUnits += l[k + 1] as number;
    this.deadLists += HEADER + 2 * nValues + (l[at + 3] as number) * ADDRESS_WIDTH;
    this.rowData[row * ROW_WIDTH + R_LIST] = -1;
  }

  private writeLists(c: NormalizedContact): number {
    const nE = c.emails.length;
    const nP = c.phones.length;
    const nI = c.identifiers.length;
    const nA = c.addresses.length;
    if (nE + nP + nI + nA === 0) return -1;
    const at = this.listsUsed;
    const width = HEADER + 2 * (nE + nP + nI) + nA * ADDRESS_WIDTH;
    this.lists = grownInt32(this.lists, at + width);
    const l = this.lists;
    l[at] = nE;
    l[at + 1] = nP;
    l[at + 2] = nI;
    l[at + 3] = nA;
    let k = at + HEADER;
    for (const v of c.emails) k = this.pushValue(v, k);
    for (const v of c.phones) k = this.pushValue(v, k);
    for (const v of c.identifiers) k = this.pushValue(v, k);
    for (const a of c.addresses) {
      l[k++] = this.intern(a.number);
      l[k++] = this.intern(a.street);
      l[k++] = this.intern(a.unit);
      l[k++] = this.intern(a.building);
      l[k++] = this.intern(a.city);
      l[k++] = this.intern(a.state);
      l[k++] = this.intern(a.zip);
      l[k++] = this.intern(a.country);
    }
    this.listsUsed = k;
    return at;
  }

  /** Writes a value's code units and its (offset, length) at `lists[k]`; returns k + 2. */
  private pushValue(v: string, k: number): number {
    const at = this.unitsUsed;
    const n = v.length;
    if (at + n > this.units.length) {
      const grown = new Uint16Array(Math.max(at + n, Math.ceil(this.units.length * 1.5)));
      grown.set(this.units.subarray(0, at));
      this.units = grown;
    }
    const u = this.units;
    for (let i = 0; i < n; i++) u[at + i] = v.charCodeAt(i);
    this.unitsUsed = at + n;
    this.lists[k] = at;
    this.lists[k + 1] = n;
    return k + 2;
  }

  private str(id: number): string | null {
    return id < 0 ? null : this.strings.get(id);
  }

  /** The shared string of an id (a name, a date, an address part: RecordView's `*Id` fields). */
  text(id: number): string {
    return this.strings.get(id);
  }

  /** The string id of `v` when a record holds it (a name, a date, an address part), else -1. */
  idOfText(v: string): number {
    return this.strings.idOf(v);
  }

  /** True when a row's record has both a first name and a surname (blocking.ts: the unnamed keys are not its to look up by). */
  isNamed(row: number): boolean {
    const r = row * ROW_WIDTH;
    return (this.rowData[r + R_FIRST] as number) >= 0 && (this.rowData[r + R_LAST] as number) >= 0;
  }

  /** gates.ts suppliedFields of a row's record, read from the row without building it. */
  suppliedOf(row: number): number {
    const d = this.rowData;
    const r = row * ROW_WIDTH;
    let mask = 0;
    if ((d[r + R_FIRST] as number) >= 0) mask |= GATE_FIELD_BITS.firstName;
    if ((d[r + R_LAST] as number) >= 0) mask |= GATE_FIELD_BITS.lastName;
    if ((d[r + R_MIDDLE] as number) >= 0) mask |= GATE_FIELD_BITS.middleName;
    if ((d[r + R_DOB] as number) >= 0) mask |= GATE_FIELD_BITS.dateOfBirth;
    const at = d[r + R_LIST] as number;
    if (at < 0) return mask;
    const l = this.lists;
    if ((l[at] as number) > 0) mask |= GATE_FIELD_BITS.email;
    if ((l[at + 1] as number) > 0) mask |= GATE_FIELD_BITS.phone;
    if ((l[at + 2] as number) > 0) mask |= GATE_FIELD_BITS.identifier;
    const nA = l[at + 3] as number;
    let k = at + HEADER + 2 * ((l[at] as number) + (l[at + 1] as number) + (l[at + 2] as number));
    for (let i = 0; i < nA; i++, k += ADDRESS_WIDTH) {
      if ((l[k + 6] as number) >= 0) mask |= GATE_FIELD_BITS.zip5;
      if ((l[k] as number) >= 0) mask |= GATE_FIELD_BITS.streetNumber;
      if ((l[k + 1] as number) >= 0) mask |= GATE_FIELD_BITS.streetName;
      if ((l[k + 4] as number) >= 0) mask |= GATE_FIELD_BITS.city;
      if ((l[k + 5] as number) >= 0) mask |= GATE_FIELD_BITS.state;
    }
    return mask;
  }

  private contactAt(row: number): NormalizedContact {
    let emails: readonly string[] = NONE;
    let phones: readonly string[] = NONE;
    let identifiers: readonly string[] = NONE;
    let addresses: readonly NormalizedAddress[] = NONE;
    const at = this.rowData[row * ROW_WIDTH + R_LIST] as number;
    if (at >= 0) {
      const l = this.lists;
      let k = at + HEADER;
      const nE = l[at] as number;
      const nP = l[at + 1] as number;
      const nI = l[at + 2] as number;
      const nA = l[at + 3] as number;
      if (nE > 0) emails = this.valuesAt(k, nE);
      k += 2 * nE;
      if (nP > 0) phones = this.valuesAt(k, nP);
      k += 2 * nP;
      if (nI > 0) identifiers = this.valuesAt(k, nI);
      k += 2 * nI;
      if (nA > 0) {
        const out: NormalizedAddress[] = [];
        for (let i = 0; i < nA; i++, k += ADDRESS_WIDTH) out.push(this.addressAt(k));
        addresses = out;
      }
    }
    const d = this.rowData;
    const r = row * ROW_WIDTH;
    const code = d[r + R_SUFFIX] as number;
    // Same key order as normalizeContact's literal: one hidden class for every contact.
    return {
      first: this.str(d[r + R_FIRST] as number),
      middle: this.str(d[r + R_MIDDLE] as number),
      last: this.str(d[r + R_LAST] as number),
      suffix: SUFFIXES[code & SUFFIX_BITS] ?? null,
      dob: this.str(d[r + R_DOB] as number),
      emails,
      phones,
      addresses,
      identifiers,
      sex: SEXES[code >> SEX_SHIFT] ?? null,
      attributes: this.attributesOf(row),
      written: this.str(d[r + R_WRITTEN] as number),
    };
  }

  /** Attributes of a row (empty when the store has none). */
  attributesOf(row: number): readonly (string | null)[] {
    const width = this.attributeCount;
    if (width === 0) return NONE;
    const out = new Array<string | null>(width);
    for (let k = 0; k < width; k++) out[k] = this.str(this.attrs[row * width + k] as number);
    return out;
  }

  /**
   * Points `view` at a row in use (from {@link rowOf} or {@link set}). The view's scalar
   * fields are set at once and its lists built only when read, so a candidate rejected on
   * its name or date of birth costs no list or address objects.
   */
  loadRow(row: number, view: RecordView): void {
    const d = this.rowData;
    const r = row * ROW_WIDTH;
    const code = d[r + R_SUFFIX] as number;
    const first = d[r + R_FIRST] as number;
    const middle = d[r + R_MIDDLE] as number;
    const last = d[r + R_LAST] as number;
    view.reset(
      row,
      first,
      middle,
      last,
      this.str(first),
      this.str(middle),
      this.str(last),
      SUFFIXES[code & SUFFIX_BITS] ?? null,
      this.str(d[r + R_DOB] as number),
      SEXES[code >> SEX_SHIFT] ?? null,
      this.str(d[r + R_WRITTEN] as number),
    );
  }

  /** List `which` (0 emails, 1 phones, 2 identifiers) of a row. */
  listOf(row: number, which: 0 | 1 | 2): readonly string[] {
    const at = this.rowData[row * ROW_WIDTH + R_LIST] as number;
    if (at < 0) return NONE;
    const l = this.lists;
    const n = l[at + which] as number;
    if (n === 0) return NONE;
    let k = at + HEADER;
    for (let i = 0; i < which; i++) k += 2 * (l[at + i] as number);
    return this.valuesAt(k, n);
  }

  /** compareEmails (compare.ts) of `q` with a row's emails, read where they are stored (stored-values.ts). */
  emailLevelOf(row: number, q: readonly string[], levels: number, shared?: (email: string) => boolean): LevelName {
    const at = this.rowData[row * ROW_WIDTH + R_LIST] as number;
    if (at < 0) return 'missing';
    return storedEmailLevel(this.units, this.lists, at + HEADER, this.lists[at] as number, q, levels, shared);
  }

  /** comparePhones (compare.ts) of `q` with a row's phones, read where they are stored. */
  phoneLevelOf(row: number, q: readonly string[], levels: number): LevelName {
    const at = this.rowData[row * ROW_WIDTH + R_LIST] as number;
    if (at < 0) return 'missing';
    const l = this.lists;
    return storedPhoneLevel(this.units, l, at + HEADER + 2 * (l[at] as number), l[at + 1] as number, q, levels);
  }

  /** compareIdentifiers (compare.ts) of `q` with a row's identifiers, read where they are stored. */
  identifierLevelOf(row: number, q: readonly string[], levels: number): LevelName {
    const at = this.rowData[row * ROW_WIDTH + R_LIST] as number;
    if (at < 0) return 'missing';
    const l = this.lists;
    return storedIdentifierLevel(this.units, l, at + HEADER + 2 * ((l[at] as number) + (l[at + 1] as number)), l[at + 2] as number, q, levels);
  }

  /** True when a row's list `which` (0 emails, 1 phones) holds `value`. */
  holdsOf(row: number, which: 0 | 1, value: string): boolean {
    const at = this.rowData[row * ROW_WIDTH + R_LIST] as number;
    if (at < 0) return false;
    const l = this.lists;
    const k = at + HEADER + (which === 1 ? 2 * (l[at] as number) : 0);
    return storedHolds(this.units, l, k, l[at + which] as number, value);
  }

  /** Addresses of a row. */
  addressesOf(row: number): readonly NormalizedAddress[] {
    const at = this.rowData[row * ROW_WIDTH + R_LIST] as number;
    if (at < 0) return NONE;
    const l = this.lists;
    const nA = l[at + 3] as number;
    if (nA === 0) return NONE;
    let k = at + HEADER + 2 * ((l[at] as number) + (l[at + 1] as number) + (l[at + 2] as number));
    const out: NormalizedAddress[] = [];
    for (let i = 0; i < nA; i++, k += ADDRESS_WIDTH) out.push(this.addressAt(k));
    return out;
  }

  private addressAt(k: number): NormalizedAddress {
    const l = this.lists;
    return {
      number: this.str(l[k] as number),
      street: this.str(l[k + 1] as number),
      unit: this.str(l[k + 2] as number),
      building: this.str(l[k + 3] as number),
      city: this.str(l[k + 4] as number),
      state: this.str(l[k + 5] as number),
      zip: this.str(l[k + 6] as number),
      country: this.str(l[k + 7] as number),
    };
  }

  private decode(at: number, n: number): string {
    // A reused plain array is about twice as fast to apply as a typed-array view; long values
    // (an identifier can be any length) go in chunks, under the engine's argument limit.
    const units = this.units;
    if (n > DECODE_CHUNK) {
      let out = '';
      for (let i = 0; i < n; i += DECODE_CHUNK) out += this.decode(at + i, Math.min(DECODE_CHUNK, n - i));
      return out;
    }
    SCRATCH.length = n;
    for (let i = 0; i < n; i++) SCRATCH[i] = units[at + i] as number;
    return String.fromCharCode.apply(null, SCRATCH);
  }

  private valuesAt(k: number, n: number): string[] {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.decode(this.lists[k + 2 * i] as number, this.lists[k + 2 * i + 1] as number));
    return out;
  }

  /**
   * Puts the records in another order of rows: row k takes the record of row `order[k]`
   * (`order` lists every row once), and the lists and values are rewritten in the new row
   * order, so records read one after another sit side by side in memory. Ids and string ids
   * stay. Answers the new row of each old row. Only for a store without removed rows.
   */
  reorder(order: Int32Array): Int32Array {
    const n = this.rows;
    if (this.freeRows.length > 0 || order.length !== n)
      throw new Error(`reorder: ${order.length} rows given, the store has ${n} and ${this.freeRows.length} free`);
    const newRow = new Int32Array(n).fill(-1);
    for (let k = 0; k < n; k++) {
      const old = order[k] as number;
      if (old < 0 || old >= n || newRow[old] !== -1) throw new Error(`reorder: row ${old} is not a row or is listed twice`);
      newRow[old] = k;
    }
    this.rowData = permuteRows(this.rowData, order, ROW_WIDTH);
    if (this.attributeCount > 0) this.attrs = permuteRows(this.attrs, order, this.attributeCount);
    this.ids.remapRows(newRow);
    this.compact();
    return newRow;
  }

  /** Rewrites `lists` and the value units without dead entries once those are most of them. */
  private maybeCompact(): void {
    if (this.deadLists < 4096 || this.deadLists * 2 < this.listsUsed) return;
    this.compact();
  }

  /** Rewrites `lists` and the value units in row order, without dead entries. */
  private compact(): void {
    const oldLists = this.lists;
    const oldUnits = this.units;
    const lists = new Int32Array(Math.max(INITIAL_ROWS, this.listsUsed - this.deadLists));
    const units = new Uint16Array(Math.max(INITIAL_ROWS, this.unitsUsed - this.deadUnits));
    let used = 0;
    let unitsUsed = 0;
    for (let row = 0; row < this.rows; row++) {
      const at = this.rowData[row * ROW_WIDTH + R_LIST] as number;
      if (at < 0) continue;
      const nValues = (oldLists[at] as number) + (oldLists[at + 1] as number) + (oldLists[at + 2] as number);
      const width = HEADER + 2 * nValues + (oldLists[at + 3] as number) * ADDRESS_WIDTH;
      // Element by element: a subarray per row and value cost more than the copying.
      for (let k = 0; k < width; k++) lists[used + k] = oldLists[at + k] as number;
      for (let k = used + HEADER; k < used + HEADER + 2 * nValues; k += 2) {
        const from = lists[k] as number;
        const n = lists[k + 1] as number;
        for (let i = 0; i < n; i++) units[unitsUsed + i] = oldUnits[from + i] as number;
        lists[k] = unitsUsed;
        unitsUsed += n;
      }
      this.rowData[row * ROW_WIDTH + R_LIST] = used;
      used += width;
    }
    this.lists = lists;
    this.listsUsed = used;
    this.deadLists = 0;
    this.units = units;
    this.unitsUsed = unitsUsed;
    this.deadUnits = 0;
  }
}

/**
 * One record of a {@link RecordStore} seen through {@link RecordStore.loadRow}: reused from
 * candidate to candidate while scoring, so it must not be kept (`RecordStore.get` gives a
 * record to keep).
 */
export class RecordView implements NormalizedContact, StoredLists {
  /** String ids of the names (-1 for none): {@link RecordStore.text}. */
  firstId = -1;
  middleId = -1;
  lastId = -1;
  first: string | null = null;
  middle: string | null = null;
  last: string | null = null;
  suffix: NameSuffix | null = null;
  dob: string | null = null;
  sex: Sex | null = null;
  written: string | null = null;
  private row = -1;
  private emailList: readonly string[] | null = null;
  private phoneList: readonly string[] | null = null;
  private identifierList: readonly string[] | null = null;
  private addressList: readonly NormalizedAddress[] | null = null;
  private attributeList: readonly (string | null)[] | null = null;
  /** The names' forms, filled on first read after a reset (one object reused, as the view is). */
  private readonly names: { first: NameForms | null; middle: NameForms | null; last: NameForms | null } = { first: null, middle: null, last: null };
  private namesRow = -1;

  /** `formsOf`: the forms of a name by its string id (the index keeps them; absent: none kept, see {@link nameForms}). */
  constructor(
    private readonly store: RecordStore,
    private readonly formsOf?: (id: number) => NameForms,
  ) {}

  /** Called by {@link RecordStore.loadRow}. */
  reset(
    row: number,
    firstId: number,
    middleId: number,
    lastId: number,
    first: string | null,
    middle: string | null,
    last: string | null,
    suffix: NameSuffix | null,
    dob: string | null,
    sex: Sex | null,
    written: string | null,
  ): void {
    this.row = row;
    this.firstId = firstId;
    this.middleId = middleId;
    this.lastId = lastId;
    this.namesRow = -1;
    this.first = first;
    this.middle = middle;
    this.last = last;
    this.suffix = suffix;
    this.dob = dob;
    this.sex = sex;
    this.written = written;
    this.attributeList = null;
    this.emailList = null;
    this.phoneList = null;
    this.identifierList = null;
    this.addressList = null;
  }

  get emails(): readonly string[] {
    return (this.emailList ??= this.store.listOf(this.row, 0));
  }

  get phones(): readonly string[] {
    return (this.phoneList ??= this.store.listOf(this.row, 1));
  }

  get identifiers(): readonly string[] {
    return (this.identifierList ??= this.store.listOf(this.row, 2));
  }

  get addresses(): readonly NormalizedAddress[] {
    return (this.addressList ??= this.store.addressesOf(this.row));
  }

  get attributes(): readonly (string | null)[] {
    return (this.attributeList ??= this.store.attributesOf(this.row));
  }

  /** StoredLists: the row's emails, phones and identifiers compared where they are stored, never built. */
  emailLevel(q: readonly string[], levels: number, shared?: (email: string) => boolean): LevelName {
    return this.store.emailLevelOf(this.row, q, levels, shared);
  }

  phoneLevel(q: readonly string[], levels: number): LevelName {
    return this.store.phoneLevelOf(this.row, q, levels);
  }

  identifierLevel(q: readonly string[], levels: number): LevelName {
    return this.store.identifierLevelOf(this.row, q, levels);
  }

  holdsEmail(value: string): boolean {
    return this.store.holdsOf(this.row, 0, value);
  }

  holdsPhone(value: string): boolean {
    return this.store.holdsOf(this.row, 1, value);
  }

  /** The names' forms for comparison (score.ts), from the index's forms by string id; undefined without them. */
  get nameForms(): ContactNames | undefined {
    const formsOf = this.formsOf;
    if (formsOf === undefined) return undefined;
    const names = this.names;
    if (this.namesRow !== this.row) {
      names.first = this.firstId < 0 ? null : formsOf(this.firstId);
      names.middle = this.middleId < 0 ? null : formsOf(this.middleId);
      names.last = this.lastId < 0 ? null : formsOf(this.lastId);
      this.namesRow = this.row;
    }
    return names;
  }
}

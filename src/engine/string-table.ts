/**
 * Distinct strings and their ids, for the record store: each city, surname or date of birth
 * is kept once, and records hold its id.
 *
 * Faster than a `Map<string, number>` for this job (about a tenth of index build time went to
 * interning at a million records): the strings arriving are freshly normalized, so a Map must
 * first compute and store their hash; here short digit strings (street numbers, ZIP codes),
 * ISO dates and two-letter codes (states, countries) map to a slot of a direct table by
 * arithmetic, and other strings are hashed with FNV-1a into an open-addressing table of ids.
 */

/** Direct slots: digit strings of 1 to 5 characters ("0".."99999", leading zeros distinct). */
const DIGITS_END = 111_110;
/** ISO dates 1800-01-01..2199-12-31 ("YYYY-MM-DD"), 31 days a month. */
const DATE_FIRST_YEAR = 1800;
const DATE_YEARS = 400;
const DATES_END = DIGITS_END + DATE_YEARS * 12 * 31;
/** Two ASCII letters, either case. */
const PAIRS_END = DATES_END + 52 * 52;
const INITIAL_SLOTS = 1 << 12;

function letterCode(c: number): number {
  if (c >= 97 && c <= 122) return c - 97;
  if (c >= 65 && c <= 90) return c - 65 + 26;
  return -1;
}

/** The direct slot of a string of a recognised shape, or -1. */
function directSlot(v: string): number {
  const n = v.length;
  if (n === 0) return -1;
  const c0 = v.charCodeAt(0);
  if (n <= 5 && c0 >= 48 && c0 <= 57) {
    let value = 0;
    for (let i = 0; i < n; i++) {
      const d = v.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return -1;
      value = value * 10 + d;
    }
    // Offsets of each length: 0, 10, 110, 1110, 11110.
    return (10 ** n - 10) / 9 + value;
  }
  if (n === 10 && v.charCodeAt(4) === 45 && v.charCodeAt(7) === 45) {
    let year = 0;
    for (let i = 0; i < 4; i++) {
      const d = v.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return -1;
      year = year * 10 + d;
    }
    const m1 = v.charCodeAt(5) - 48;
    const m2 = v.charCodeAt(6) - 48;
    const d1 = v.charCodeAt(8) - 48;
    const d2 = v.charCodeAt(9) - 48;
    if (m1 < 0 || m1 > 1 || m2 < 0 || m2 > 9 || d1 < 0 || d1 > 3 || d2 < 0 || d2 > 9) return -1;
    const month = m1 * 10 + m2;
    const day = d1 * 10 + d2;
    if (year < DATE_FIRST_YEAR || year >= DATE_FIRST_YEAR + DATE_YEARS || month < 1 || month > 12 || day < 1 || day > 31) return -1;
    return DIGITS_END + ((year - DATE_FIRST_YEAR) * 12 + month - 1) * 31 + day - 1;
  }
  if (n === 2) {
    const a = letterCode(c0);
    const b = letterCode(v.charCodeAt(1));
    if (a >= 0 && b >= 0) return DATES_END + a * 52 + b;
  }
  return -1;
}

function fnv(v: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < v.length; i++) h = Math.imul(h ^ v.charCodeAt(i), 0x01000193);
  return h;
}

function spread(h: number): number {
  return (h ^ (h >>> 15)) >>> 0;
}

/** A {@link StringTable}'s data. */
export interface StringTableState {
  readonly strings: readonly string[];
  readonly direct: Int32Array | null;
  readonly slots: Int32Array;
  readonly hashes: Int32Array;
  readonly hashed: number;
}

/** Interned strings by id (ids are dense, from 0, in order of first sight). */
export class StringTable {
  private strings: string[] = [];
  /** Direct slot -> id + 1 (0: not seen). Allocated on first use. */
  private direct: Int32Array | null = null;
  /** Hashed strings: slot -> id (-1 empty), with the hash beside it to skip most comparisons. */
  private slots: Int32Array = new Int32Array(INITIAL_SLOTS).fill(-1);
  private hashes: Int32Array = new Int32Array(INITIAL_SLOTS);
  private hashed = 0;

  /** Number of distinct strings. */
  get size(): number {
    return this.strings.length;
  }

  /** The string of an id. */
  get(id: number): string {
    return this.strings[id] as string;
  }

  /** Every string, by id (the table's own list: not to be changed). */
  values(): readonly string[] {
    return this.strings;
  }

  /** The id of `v`, added when new. */
  id(v: string): number {
    const slot = directSlot(v);
    if (slot >= 0) {
      const direct = (this.direct ??= new Int32Array(PAIRS_END));
      const known = direct[slot] as number;
      if (known > 0) return known - 1;
      const id = this.push(v);
      direct[slot] = id + 1;
      return id;
    }
    const h = fnv(v);
    const s = this.slotFor(v, h);
    const known = this.slots[s] as number;
    if (known >= 0) return known;
    const added = this.push(v);
    this.slots[s] = added;
    this.hashes[s] = h;
    if (++this.hashed * 4 > this.slots.length * 3) this.grow();
    return added;
  }

  /** The hashed slot of `v` (hash `h`): the one holding its id, else the empty one where it would go. */
  private slotFor(v: string, h: number): number {
    const mask = this.slots.length - 1;
    for (let s = spread(h) & mask; ; s = (s + 1) & mask) {
      const id = this.slots[s] as number;
      if (id < 0 || (this.hashes[s] === h && this.strings[id] === v)) return s;
    }
  }

  /** The id of `v` when it is in the table, else -1 (adds nothing). */
  idOf(v: string): number {
    const slot = directSlot(v);
    if (slot >= 0) return this.direct === null ? -1 : (this.direct[slot] as number) - 1;
    return this.slots[this.slotFor(v, fnv(v))] as number;
  }

  /** Bytes held by the typed arrays (the strings themselves are on the heap). */
  get bytes(): number {
    return (this.direct?.byteLength ?? 0) + this.slots.byteLength + this.hashes.byteLength;
  }

  /** The table's data, for {@link importState} in another thread (structured-clonable). */
  exportState(): StringTableState {
    return { strings: this.strings, direct: this.direct, slots: this.slots, hashes: this.hashes, hashed: this.hashed };
  }

  /** Replaces this table's data with an exported state: a copy, or the state's own arrays when `adopt`. */
  importState(s: StringTableState, adopt = false): void {
    this.strings = adopt ? (s.strings as string[]) : s.strings.slice();
    this.direct = s.direct === null ? null : adopt ? s.direct : s.direct.slice();
    this.slots = adopt ? s.slots : s.slots.slice();
    this.hashes = adopt ? s.hashes : s.hashes.slice();
    this.hashed = s.hashed;
  }

  private push(v: string): number {
    this.strings.push(v);
    return this.strings.length - 1;
  }

  private grow(): void {
    const oldSlots = this.slots;
    const oldHashes = this.hashes;
    this.slots = new Int32Array(oldSlots.length * 2).fill(-1);
    this.hashes = new Int32Array(oldSlots.length * 2);
    const mask = this.slots.length - 1;
    for (let i = 0; i < oldSlots.length; i++) {
      const id = oldSlots[i] as number;
      if (id < 0) continue;
      const h = oldHashes[i] as number;
      let s = spread(h) & mask;
      while ((this.slots[s] as number) >= 0) s = (s + 1) & mask;
      this.slots[s] = id;
      this.hashes[s] = h;
    }
  }
}

/**
 * A multimap from 32-bit key hashes to record ids, in typed arrays: open addressing over the
 * keys; a key holding one id keeps it in its slot (most keys do: a record's own email,
 * phone, birthday-and-postcode); a key holding several points to a list of entries headed
 * by one that carries the count. Freed entries are reused.
 *
 * Why not `Map<number, number[]>`: at a hundred thousand records with a dozen keys each, the
 * Map cost 765 heap bytes per record and kept the garbage collector busy; this costs about
 * 200 (bench/README.md).
 *
 * Slot head encoding: -1 never used; -2 used, empty; <= -3 one id, `-(head + 3)`; >= 0 the
 * list's header entry, whose `entryId` is the count and `entryNext` the first entry.
 */

const NEVER = -1;
const EMPTIED = -2;
const INITIAL_SLOTS = 1 << 10;
const INITIAL_ENTRIES = 1 << 8;
/** Grow the slot table when more than this share of it is in use (linear probing). */
const MAX_LOAD = 0.8;

/** Ids are integers in 0..MAX_RECORD_ID (the slot encoding takes three values below zero). */
export const MAX_RECORD_ID = 0x7fffffff - 3;

export class PostingTable {
  /** Slot `s` is `slots[2s]` (the key) and `slots[2s + 1]` (the head): one cache line per probe. */
  private slots = new Int32Array(INITIAL_SLOTS * 2).fill(NEVER);
  /** Entry `e` is `entries[2e]` (the id, or a header's count) and `entries[2e + 1]` (the next entry). */
  private entries = new Int32Array(INITIAL_ENTRIES * 2);
  private slotCount = INITIAL_SLOTS;
  private slotsUsed = 0;
  private entriesUsed = 0;
  private freeEntry = -1;
  private liveKeys = 0;

  /** Number of distinct keys holding at least one id. */
  get keys(): number {
    return this.liveKeys;
  }

  /** Bytes held by the typed arrays. */
  get bytes(): number {
    return this.slots.byteLength + this.entries.byteLength;
  }

  /** Number of ids filed under `key`. */
  count(key: number): number {
    return this.countAt(this.find(key));
  }

  /** Files `id` under `key` (no effect when it is there already; scans the key's list). */
  add(key: number, id: number): void {
    this.insert(key, id, true);
  }

  /**
   * Files `id` under `key` when the caller knows it is not there yet: no scan, so filing
   * under a key that thousands of records share ("john smith") stays O(1).
   */
  addNew(key: number, id: number): void {
    this.insert(key, id, false);
  }

  private insert(key: number, id: number, checkDuplicate: boolean): void {
    let slot = this.find(key);
    if (slot < 0) {
      if ((this.slotsUsed + 1) / this.slotCount > MAX_LOAD) this.rebuildSlots();
      slot = this.insertSlot(key);
    }
    const slots = this.slots;
    const head = slots[2 * slot + 1] as number;
    if (head === EMPTIED) {
      slots[2 * slot + 1] = -(id + 3);
      this.liveKeys++;
      return;
    }
    if (head < 0) {
      const other = -(head + 3);
      if (other === id) return;
      const header = this.allocEntry();
      const a = this.allocEntry();
      const b = this.allocEntry();
      const entries = this.entries;
      entries[2 * a] = other;
      entries[2 * a + 1] = -1;
      entries[2 * b] = id;
      entries[2 * b + 1] = a;
      entries[2 * header] = 2;
      entries[2 * header + 1] = b;
      slots[2 * slot + 1] = header;
      return;
    }
    if (checkDuplicate) {
      const entries = this.entries;
      for (let e = entries[2 * head + 1] as number; e >= 0; e = entries[2 * e + 1] as number) {
        if (entries[2 * e] === id) return;
      }
    }
    const entry = this.allocEntry();
    const entries = this.entries;
    entries[2 * entry] = id;
    entries[2 * entry + 1] = entries[2 * head + 1] as number;
    entries[2 * head + 1] = entry;
    entries[2 * head] = (entries[2 * head] as number) + 1;
  }

  /** Removes `id` from `key`'s list; false when it was not there. */
  remove(key: number, id: number): boolean {
    const slot = this.find(key);
    if (slot < 0) return false;
    const slots = this.slots;
    const head = slots[2 * slot + 1] as number;
    if (head === EMPTIED) return false;
    if (head < 0) {
      if (-(head + 3) !== id) return false;
      slots[2 * slot + 1] = EMPTIED;
      this.liveKeys--;
      return true;
    }
    const entries = this.entries;
    let prev = head;
    for (let e = entries[2 * head + 1] as number; e >= 0; e = entries[2 * e + 1] as number) {
      if (entries[2 * e] === id) {
        entries[2 * prev + 1] = entries[2 * e + 1] as number;
        this.freeEntryAt(e);
        const left = (entries[2 * head] as number) - 1;
        entries[2 * head] = left;
        if (left === 1) {
          // Back to one id: keep it in the slot and free the list.
          const last = entries[2 * head + 1] as number;
          slots[2 * slot + 1] = -((entries[2 * last] as number) + 3);
          this.freeEntryAt(last);
          this.freeEntryAt(head);
        }
        return true;
      }
      prev = e;
    }
    return false;
  }

  /** The slot of `key` for {@link countAt} and {@link forEachAt} (one probe for both), or -1. */
  slotOf(key: number): number {
    return this.find(key);
  }

  /** Number of ids in a slot from {@link slotOf} (0 for -1). */
  countAt(slot: number): number {
    if (slot < 0) return 0;
    const head = this.slots[2 * slot + 1] as number;
    if (head >= 0) return this.entries[2 * head] as number;
    return head === EMPTIED ? 0 : 1;
  }

  /** Calls `fn(id, arg)` with up to `limit` ids filed under `key`, most recently filed first. */
  forEach<A>(key: number, limit: number, arg: A, fn: (id: number, arg: A) => void): void {
    this.forEachAt(this.find(key), limit, arg, fn);
  }

  /** {@link forEach} for a slot from {@link slotOf}. */
  forEachAt<A>(slot: number, limit: number, arg: A, fn: (id: number, arg: A) => void): void {
    if (slot < 0 || limit <= 0) return;
    const head = this.slots[2 * slot + 1] as number;
    if (head === EMPTIED) return;
    if (head < 0) {
      fn(-(head + 3), arg);
      return;
    }
    const entries = this.entries;
    let n = 0;
    for (let e = entries[2 * head + 1] as number; e >= 0 && n < limit; e = entries[2 * e + 1] as number, n++) {
      fn(entries[2 * e] as number, arg);
    }
  }

  /** Slot holding `key`, or -1. */
  private find(key: number): number {
    const slots = this.slots;
    const mask = this.slotCount - 1;
    let slot = mix(key) & mask;
    for (;;) {
      const head = slots[2 * slot + 1] as number;
      if (head === NEVER) return -1;
      if (slots[2 * slot] === key) return slot;
      slot = (slot + 1) & mask;
    }
  }

  private insertSlot(key: number): number {
    const slots = this.slots;
    const mask = this.slotCount - 1;
    let slot = mix(key) & mask;
    while (slots[2 * slot + 1] !== NEVER) slot = (slot + 1) & mask;
    slots[2 * slot] = key;
    slots[2 * slot + 1] = EMPTIED;
    this.slotsUsed++;
    return slot;
  }

  private allocEntry(): number {
    if (this.freeEntry >= 0) {
      const e = this.freeEntry;
      this.freeEntry = this.entries[2 * e + 1] as number;
      return e;
    }
    if (this.entriesUsed * 2 === this.entries.length) {
      const grown = new Int32Array(Math.ceil(this.entriesUsed * 1.5) * 2);
      grown.set(this.entries);
      this.entries = grown;
    }
    return this.entriesUsed++;
  }

  private freeEntryAt(e: number): void {
    this.entries[2 * e + 1] = this.freeEntry;
    this.freeEntry = e;
  }

  /** Rebuilds the slot table, doubled unless emptied keys made the room: drops emptied slots. */
  private rebuildSlots(): void {
    const old = this.slots;
    const oldCount = this.slotCount;
    const size = this.liveKeys / oldCount > MAX_LOAD / 2 ? oldCount * 2 : oldCount;
    this.slots = new Int32Array(size * 2).fill(NEVER);
    this.slotCount = size;
    this.slotsUsed = 0;
    for (let s = 0; s < oldCount; s++) {
      const head = old[2 * s + 1] as number;
      if (head === NEVER || head === EMPTIED) continue;
      const slot = this.insertSlot(old[2 * s] as number);
      this.slots[2 * slot + 1] = head;
    }
  }
}

/** Spreads a hash's bits before masking (keys are FNV hashes already; this evens out runs). */
function mix(key: number): number {
  let h = key ^ (key >>> 16);
  h = Math.imul(h, 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}

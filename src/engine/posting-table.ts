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
  private slotKey = new Int32Array(INITIAL_SLOTS);
  private slotHead = new Int32Array(INITIAL_SLOTS).fill(NEVER);
  private entryId = new Int32Array(INITIAL_ENTRIES);
  private entryNext = new Int32Array(INITIAL_ENTRIES);
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
    return this.slotKey.byteLength * 2 + this.entryId.byteLength * 2;
  }

  /** Number of ids filed under `key`. */
  count(key: number): number {
    const slot = this.find(key);
    if (slot < 0) return 0;
    const head = this.slotHead[slot] as number;
    if (head >= 0) return this.entryId[head] as number;
    return head === EMPTIED ? 0 : 1;
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
      if ((this.slotsUsed + 1) / this.slotKey.length > MAX_LOAD) this.rebuildSlots();
      slot = this.insertSlot(key);
    }
    const head = this.slotHead[slot] as number;
    if (head === EMPTIED) {
      this.slotHead[slot] = -(id + 3);
      this.liveKeys++;
      return;
    }
    if (head < 0) {
      const other = -(head + 3);
      if (other === id) return;
      const header = this.allocEntry();
      const a = this.allocEntry();
      const b = this.allocEntry();
      this.entryId[a] = other;
      this.entryNext[a] = -1;
      this.entryId[b] = id;
      this.entryNext[b] = a;
      this.entryId[header] = 2;
      this.entryNext[header] = b;
      this.slotHead[slot] = header;
      return;
    }
    if (checkDuplicate) {
      for (let e = this.entryNext[head] as number; e >= 0; e = this.entryNext[e] as number) {
        if (this.entryId[e] === id) return;
      }
    }
    const entry = this.allocEntry();
    this.entryId[entry] = id;
    this.entryNext[entry] = this.entryNext[head] as number;
    this.entryNext[head] = entry;
    this.entryId[head] = (this.entryId[head] as number) + 1;
  }

  /** Removes `id` from `key`'s list; false when it was not there. */
  remove(key: number, id: number): boolean {
    const slot = this.find(key);
    if (slot < 0) return false;
    const head = this.slotHead[slot] as number;
    if (head === EMPTIED) return false;
    if (head < 0) {
      if (-(head + 3) !== id) return false;
      this.slotHead[slot] = EMPTIED;
      this.liveKeys--;
      return true;
    }
    let prev = head;
    for (let e = this.entryNext[head] as number; e >= 0; e = this.entryNext[e] as number) {
      if (this.entryId[e] === id) {
        this.entryNext[prev] = this.entryNext[e] as number;
        this.freeEntryAt(e);
        const left = (this.entryId[head] as number) - 1;
        this.entryId[head] = left;
        if (left === 1) {
          // Back to one id: keep it in the slot and free the list.
          const last = this.entryNext[head] as number;
          this.slotHead[slot] = -((this.entryId[last] as number) + 3);
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
    const head = this.slotHead[slot] as number;
    if (head >= 0) return this.entryId[head] as number;
    return head === EMPTIED ? 0 : 1;
  }

  /** Calls `fn` with up to `limit` ids filed under `key`, most recently filed first. */
  forEach(key: number, limit: number, fn: (id: number) => void): void {
    this.forEachAt(this.find(key), limit, fn);
  }

  /** {@link forEach} for a slot from {@link slotOf}. */
  forEachAt(slot: number, limit: number, fn: (id: number) => void): void {
    if (slot < 0 || limit <= 0) return;
    const head = this.slotHead[slot] as number;
    if (head === EMPTIED) return;
    if (head < 0) {
      fn(-(head + 3));
      return;
    }
    let n = 0;
    for (let e = this.entryNext[head] as number; e >= 0 && n < limit; e = this.entryNext[e] as number, n++) {
      fn(this.entryId[e] as number);
    }
  }

  /** Slot holding `key`, or -1. */
  private find(key: number): number {
    const mask = this.slotKey.length - 1;
    let slot = mix(key) & mask;
    for (;;) {
      const head = this.slotHead[slot] as number;
      if (head === NEVER) return -1;
      if (this.slotKey[slot] === key) return slot;
      slot = (slot + 1) & mask;
    }
  }

  private insertSlot(key: number): number {
    const mask = this.slotKey.length - 1;
    let slot = mix(key) & mask;
    while (this.slotHead[slot] !== NEVER) slot = (slot + 1) & mask;
    this.slotKey[slot] = key;
    this.slotHead[slot] = EMPTIED;
    this.slotsUsed++;
    return slot;
  }

  private allocEntry(): number {
    if (this.freeEntry >= 0) {
      const e = this.freeEntry;
      this.freeEntry = this.entryNext[e] as number;
      return e;
    }
    if (this.entriesUsed === this.entryId.length) {
      const size = Math.ceil(this.entryId.length * 1.5);
      const ids = new Int32Array(size);
      ids.set(this.entryId);
      const next = new Int32Array(size);
      next.set(this.entryNext);
      this.entryId = ids;
      this.entryNext = next;
    }
    return this.entriesUsed++;
  }

  private freeEntryAt(e: number): void {
    this.entryNext[e] = this.freeEntry;
    this.freeEntry = e;
  }

  /** Rebuilds the slot table, doubled unless emptied keys made the room: drops emptied slots. */
  private rebuildSlots(): void {
    const oldKey = this.slotKey;
    const oldHead = this.slotHead;
    const size = this.liveKeys / oldKey.length > MAX_LOAD / 2 ? oldKey.length * 2 : oldKey.length;
    this.slotKey = new Int32Array(size);
    this.slotHead = new Int32Array(size).fill(NEVER);
    this.slotsUsed = 0;
    for (let s = 0; s < oldKey.length; s++) {
      const head = oldHead[s] as number;
      if (head === NEVER || head === EMPTIED) continue;
      const slot = this.insertSlot(oldKey[s] as number);
      this.slotHead[slot] = head;
    }
  }
}

/** Spreads a hash's bits before masking (keys are FNV hashes already; this evens out runs). */
function mix(key: number): number {
  let h = key ^ (key >>> 16);
  h = Math.imul(h, 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A multimap from 32-bit key hashes to record ids, in typed arrays: open addressing over the
 * keys, and each key's ids in a singly linked list of entries with a free list for reuse.
 *
 * Why not `Map<number, number[]>`: at a million records with a dozen keys each, a Map entry
 * plus an array per shared key costs about 60 bytes per (record, key) and keeps the garbage
 * collector busy; here an entry costs 8 bytes and a key slot 12 (bench/README.md).
 */

const EMPTY = -1;
const INITIAL_SLOTS = 1 << 10;
const INITIAL_ENTRIES = 1 << 10;
/** Grow the slot table when more than this share of it is in use. */
const MAX_LOAD = 0.7;

/** Ids must fit a 32-bit signed integer and be >= 0. */
export const MAX_RECORD_ID = 0x7fffffff;

export class PostingTable {
  private slotKey = new Int32Array(INITIAL_SLOTS);
  /** First entry of the slot's list; EMPTY when the slot was never used, -2 when its list is empty. */
  private slotHead = new Int32Array(INITIAL_SLOTS).fill(EMPTY);
  private slotCount = new Int32Array(INITIAL_SLOTS);
  private entryId = new Int32Array(INITIAL_ENTRIES);
  private entryNext = new Int32Array(INITIAL_ENTRIES);
  private slotsUsed = 0;
  private entriesUsed = 0;
  private freeEntry = EMPTY;
  /** Distinct keys with at least one id. */
  private liveKeys = 0;

  /** Number of distinct keys holding at least one id. */
  get keys(): number {
    return this.liveKeys;
  }

  /** Bytes held by the typed arrays. */
  get bytes(): number {
    return this.slotKey.byteLength * 3 + this.entryId.byteLength * 2;
  }

  /** Number of ids filed under `key`. */
  count(key: number): number {
    const slot = this.find(key);
    return slot === EMPTY ? 0 : (this.slotCount[slot] as number);
  }

  /** Files `id` under `key` (no effect when it is there already). */
  add(key: number, id: number): void {
    let slot = this.find(key);
    if (slot === EMPTY) {
      if ((this.slotsUsed + 1) / this.slotKey.length > MAX_LOAD) this.growSlots();
      slot = this.insertSlot(key);
    } else {
      for (let e = this.slotHead[slot] as number; e >= 0; e = this.entryNext[e] as number) {
        if (this.entryId[e] === id) return;
      }
    }
    const entry = this.allocEntry();
    this.entryId[entry] = id;
    this.entryNext[entry] = this.slotHead[slot] as number;
    this.slotHead[slot] = entry;
    if (this.slotCount[slot] === 0) this.liveKeys++;
    this.slotCount[slot] = (this.slotCount[slot] as number) + 1;
  }

  /** Removes `id` from `key`'s list; false when it was not there. */
  remove(key: number, id: number): boolean {
    const slot = this.find(key);
    if (slot === EMPTY) return false;
    let prev = EMPTY;
    for (let e = this.slotHead[slot] as number; e >= 0; e = this.entryNext[e] as number) {
      if (this.entryId[e] === id) {
        const next = this.entryNext[e] as number;
        if (prev === EMPTY) this.slotHead[slot] = next < 0 ? -2 : next;
        else this.entryNext[prev] = next;
        this.entryNext[e] = this.freeEntry;
        this.freeEntry = e;
        this.slotCount[slot] = (this.slotCount[slot] as number) - 1;
        if (this.slotCount[slot] === 0) this.liveKeys--;
        return true;
      }
      prev = e;
    }
    return false;
  }

  /**
   * Appends up to `limit` ids filed under `key` to `out`, skipping those `skip` returns true
   * for. Returns how many were appended.
   */
  collect(key: number, out: number[], limit: number, skip: (id: number) => boolean): number {
    const slot = this.find(key);
    if (slot === EMPTY) return 0;
    let added = 0;
    for (let e = this.slotHead[slot] as number; e >= 0 && out.length < limit; e = this.entryNext[e] as number) {
      const id = this.entryId[e] as number;
      if (!skip(id)) {
        out.push(id);
        added++;
      }
    }
    return added;
  }

  /** Slot holding `key`, or EMPTY. A slot whose list emptied keeps its key (head -2). */
  private find(key: number): number {
    const mask = this.slotKey.length - 1;
    let slot = mix(key) & mask;
    for (;;) {
      const head = this.slotHead[slot] as number;
      if (head === EMPTY) return EMPTY;
      if (this.slotKey[slot] === key) return slot;
      slot = (slot + 1) & mask;
    }
  }

  private insertSlot(key: number): number {
    const mask = this.slotKey.length - 1;
    let slot = mix(key) & mask;
    while (this.slotHead[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.slotKey[slot] = key;
    this.slotHead[slot] = -2; // used, list empty
    this.slotCount[slot] = 0;
    this.slotsUsed++;
    return slot;
  }

  private allocEntry(): number {
    if (this.freeEntry !== EMPTY) {
      const e = this.freeEntry;
      this.freeEntry = this.entryNext[e] as number;
      return e;
    }
    if (this.entriesUsed === this.entryId.length) {
      const size = this.entryId.length * 2;
      const ids = new Int32Array(size);
      ids.set(this.entryId);
      const next = new Int32Array(size);
      next.set(this.entryNext);
      this.entryId = ids;
      this.entryNext = next;
    }
    return this.entriesUsed++;
  }

  /** Doubles the slot table (or rebuilds it at the same size to drop emptied keys). */
  private growSlots(): void {
    const oldKey = this.slotKey;
    const oldHead = this.slotHead;
    const oldCount = this.slotCount;
    const size = this.liveKeys / oldKey.length > MAX_LOAD / 2 ? oldKey.length * 2 : oldKey.length;
    this.slotKey = new Int32Array(size);
    this.slotHead = new Int32Array(size).fill(EMPTY);
    this.slotCount = new Int32Array(size);
    this.slotsUsed = 0;
    for (let s = 0; s < oldKey.length; s++) {
      if ((oldCount[s] as number) === 0) continue; // drop never-used and emptied slots
      const slot = this.insertSlot(oldKey[s] as number);
      this.slotHead[slot] = oldHead[s] as number;
      this.slotCount[slot] = oldCount[s] as number;
    }
  }
}

/** Spreads a hash's bits before masking (keys are FNV hashes already; this evens out runs). */
function mix(key: number): number {
  let h = key ^ (key >>> 16);
  h = Math.imul(h, 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A multimap from 32-bit key hashes to record ids, in typed arrays: open addressing over the
 * keys; a key holding one id keeps it in its slot (most keys do: a record's own email,
 * phone, birthday-and-postcode); a key holding several points to a block of consecutive ids
 * in a pool, in filing order, that doubles when full (freed blocks are reused by size).
 *
 * Why not `Map<number, number[]>`: at a hundred thousand records with a dozen keys each, the
 * Map cost 765 heap bytes per record and kept the garbage collector busy. Why blocks and not
 * linked entries: reading a key's ids is then one or two cache lines instead of one cache
 * miss per id, which at a million records was the largest single cost of a lookup.
 *
 * Slot head encoding: -1 never used; -2 used, empty; <= -3 one id, `-3 - head`; >= 0 the
 * offset of the key's block: `pool[b]` the count, `pool[b + 1]` the capacity (a power of
 * two), then the ids.
 *
 * Past 400 lines because every method reads and writes the one layout above (slots, blocks,
 * free lists): split, each part would have to share the encoding's internals.
 */

import { mix, sortBySlot, sortByValue } from './slot-sort.js';

const NEVER = -1;
const EMPTIED = -2;
const INITIAL_SLOTS = 1 << 10;
const INITIAL_POOL = 1 << 10;
/** Grow the slot table when more than this share of it is in use (linear probing). */
const MAX_LOAD = 0.8;
/** Count and capacity before a block's ids. */
const BLOCK_HEADER = 2;
/** Capacity of a key's first block (when its second id arrives). */
const FIRST_CAPACITY = 2;

/** Ids are integers in 0..MAX_RECORD_ID (the slot encoding takes three values below zero). */
export const MAX_RECORD_ID = 0x7fffffff - 3;

/** A {@link PostingTable}'s data. */
export interface PostingTableState {
  readonly slots: Int32Array;
  readonly slotCount: number;
  readonly slotsUsed: number;
  readonly liveKeys: number;
  readonly pool: Int32Array;
  readonly freeBlocks: readonly number[];
}

export class PostingTable {
  /** Slot `s` is `slots[2s]` (the key) and `slots[2s + 1]` (the head): one cache line per probe. */
  private slots: Int32Array = new Int32Array(INITIAL_SLOTS * 2).fill(NEVER);
  private slotCount = INITIAL_SLOTS;
  private slotsUsed = 0;
  private liveKeys = 0;
  private pool: Int32Array = new Int32Array(INITIAL_POOL);
  private poolUsed = 0;
  /** Head of the free list of blocks of capacity 2^k (the next free block is in `pool[b]`). */
  private freeBlocks: number[] = [];

  /** Number of distinct keys holding at least one id. */
  get keys(): number {
    return this.liveKeys;
  }

  /** Bytes held by the typed arrays. */
  get bytes(): number {
    return this.slots.byteLength + this.pool.byteLength;
  }

  /** Number of ids filed under `key`. */
  count(key: number): number {
    return this.countAt(this.find(key));
  }

  /** Files `id` under `key` (no effect when it is there already; scans the key's ids). */
  add(key: number, id: number): void {
    this.insert(key, id, true);
  }

  /**
   * Files `id` under `key` when the caller knows it is not there yet: no scan, so filing
   * under a key that thousands of records share ("john smith") stays O(1) amortized.
   */
  addNew(key: number, id: number): void {
    this.insert(key, id, false);
  }

  /**
   * Files `ids[i]` under `keys[i]` for every i < count, as {@link addNew} one pair at a time
   * in that order would (a key keeps its ids in that order), when no id is under its key yet.
   * The pairs are first put in the order of the slots their keys hash to, so that the slots
   * are written front to back instead of at random: at a million records (tens of millions
   * of pairs) filing them one by one spent most of its time waiting for memory. Into an empty
   * table, each key's block is allocated once, and the blocks are laid out in the order of
   * their lowest id: when ids are a record store's rows in lookup order (ContactIndex
   * relayoutForLookups), records looked up one after another read blocks side by side.
   * `keys` and `ids` are reordered in place.
   */
  addAllNew(keys: Int32Array, ids: Int32Array, count: number): void {
    if (count === 0) return;
    // Room for every key being new: sorted by slot in a table of that size, a key's pairs are
    // side by side, in their order, and the distinct keys can be counted.
    let size = this.slotCount;
    while ((this.slotsUsed + count) / size > MAX_LOAD) size *= 2;
    sortBySlot(keys, ids, count, size - 1);
    let distinct = 0;
    for (let i = 0; i < count; i++) if (i === 0 || keys[i] !== keys[i - 1]) distinct++;
    // The table holds the distinct keys; when that is smaller, filing in the larger table's
    // slot order sweeps it front to back a few times.
    let fit = this.slotCount;
    while ((this.slotsUsed + distinct) / fit > MAX_LOAD) fit *= 2;
    if (fit > this.slotCount) this.rebuildSlots(fit);
    if (this.slotsUsed === 0) this.fillEmpty(keys, ids, count, distinct);
    else for (let i = 0; i < count; i++) this.insert(keys[i] as number, ids[i] as number, false);
  }

  /** {@link addAllNew} into an empty table: pairs sorted by slot, `distinct` keys. */
  private fillEmpty(keys: Int32Array, ids: Int32Array, count: number, distinct: number): void {
    // Each key's first pair, then the keys holding several ids (their blocks) by lowest id.
    const starts = new Int32Array(distinct + 1);
    let g = 0;
    for (let i = 0; i < count; i++) if (i === 0 || keys[i] !== keys[i - 1]) starts[g++] = i;
    starts[distinct] = count;
    let shared = 0;
    for (let k = 0; k < distinct; k++) if ((starts[k + 1] as number) - (starts[k] as number) > 1) shared++;
    const blockKeys = new Int32Array(shared);
    const lowest = new Int32Array(shared);
    let poolNeed = 0;
    for (let k = 0, j = 0; k < distinct; k++) {
      const from = starts[k] as number;
      const to = starts[k + 1] as number;
      if (to - from < 2) continue;
      let low = ids[from] as number;
      for (let i = from + 1; i < to; i++) if ((ids[i] as number) < low) low = ids[i] as number;
      blockKeys[j] = k;
      lowest[j++] = low;
      poolNeed += BLOCK_HEADER + blockCapacity(to - from);
    }
    sortByValue(blockKeys, lowest, shared);
    if (this.poolUsed + poolNeed > this.pool.length) {
      const grown = new Int32Array(this.poolUsed + poolNeed);
      grown.set(this.pool.subarray(0, this.poolUsed));
      this.pool = grown;
    }
    const pool = this.pool;
    const blockOf = new Int32Array(distinct).fill(-1);
    for (let j = 0; j < shared; j++) {
      const k = blockKeys[j] as number;
      const b = this.poolUsed;
      blockOf[k] = b;
      const capacity = blockCapacity((starts[k + 1] as number) - (starts[k] as number));
      pool[b + 1] = capacity;
      this.poolUsed = b + BLOCK_HEADER + capacity;
    }
    for (let k = 0; k < distinct; k++) {
      const from = starts[k] as number;
      const to = starts[k + 1] as number;
      const slot = this.insertSlot(keys[from] as number);
      const b = blockOf[k] as number;
      if (b < 0) {
        this.slots[2 * slot + 1] = -((ids[from] as number) + 3);
      } else {
        pool[b] = to - from;
        for (let i = from, at = b + BLOCK_HEADER; i < to; i++, at++) pool[at] = ids[i] as number;
        this.slots[2 * slot + 1] = b;
      }
    }
    this.liveKeys += distinct;
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
      const other = -3 - head;
      if (other === id) return;
      const b = this.allocBlock(FIRST_CAPACITY);
      const pool = this.pool;
      pool[b] = 2;
      pool[b + BLOCK_HEADER] = other;
      pool[b + BLOCK_HEADER + 1] = id;
      slots[2 * slot + 1] = b;
      return;
    }
    let pool = this.pool;
    const count = pool[head] as number;
    if (checkDuplicate) {
      for (let i = head + BLOCK_HEADER; i < head + BLOCK_HEADER + count; i++) if (pool[i] === id) return;
    }
    let b = head;
    const capacity = pool[head + 1] as number;
    if (count === capacity) {
      b = this.allocBlock(capacity * 2);
      pool = this.pool;
      pool.copyWithin(b + BLOCK_HEADER, head + BLOCK_HEADER, head + BLOCK_HEADER + count);
      this.freeBlock(head, capacity);
      slots[2 * slot + 1] = b;
    }
    pool[b + BLOCK_HEADER + count] = id;
    pool[b] = count + 1;
  }

  /** Removes `id` from `key`; false when it was not there. */
  remove(key: number, id: number): boolean {
    const slot = this.find(key);
    if (slot < 0) return false;
    const slots = this.slots;
    const head = slots[2 * slot + 1] as number;
    if (head === EMPTIED) return false;
    if (head < 0) {
      if (-3 - head !== id) return false;
      slots[2 * slot + 1] = EMPTIED;
      this.liveKeys--;
      return true;
    }
    const pool = this.pool;
    const count = pool[head] as number;
    const start = head + BLOCK_HEADER;
    for (let i = start; i < start + count; i++) {
      if (pool[i] !== id) continue;
      // Keep filing order: shift the later ids down.
      pool.copyWithin(i, i + 1, start + count);
      const left = count - 1;
      pool[head] = left;
      if (left === 1) {
        // Back to one id: keep it in the slot and free the block.
        slots[2 * slot + 1] = -((pool[start] as number) + 3);
        this.freeBlock(head, pool[head + 1] as number);
      }
      return true;
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
    if (head >= 0) return this.pool[head] as number;
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
      fn(-3 - head, arg);
      return;
    }
    const pool = this.pool;
    const start = head + BLOCK_HEADER;
    const count = pool[head] as number;
    const stop = Math.max(start, start + count - limit);
    for (let i = start + count - 1; i >= stop; i--) fn(pool[i] as number, arg);
  }

  /**
   * Replaces every id filed by `map[id]` (a record store's rows put in another order), each
   * key keeping its ids in filing order. One pass over the slots and one over the pool.
   */
  relabel(map: Int32Array): void {
    const slots = this.slots;
    for (let s = 1; s < slots.length; s += 2) {
      const head = slots[s] as number;
      if (head <= -3) slots[s] = -((map[-3 - head] as number) + 3);
    }
    // The pool is a run of blocks, each [count, capacity, ids...]; a free block holds the next
    // free block where its count was. Free blocks are marked (capacity negated) to be skipped.
    const pool = this.pool;
    for (let k = 0; k < this.freeBlocks.length; k++) {
      // A size class that never had a free block is a hole of the array.
      for (let b = this.freeBlocks[k] ?? -1; b >= 0; b = pool[b] as number) pool[b + 1] = -(pool[b + 1] as number);
    }
    for (let b = 0; b < this.poolUsed;) {
      const capacity = pool[b + 1] as number;
      if (capacity < 0) {
        pool[b + 1] = -capacity;
        b += BLOCK_HEADER - capacity;
        continue;
      }
      const start = b + BLOCK_HEADER;
      const end = start + (pool[b] as number);
      for (let i = start; i < end; i++) pool[i] = map[pool[i] as number] as number;
      b = start + capacity;
    }
  }

  /** The table's data, for {@link importState} in another thread (structured-clonable). */
  exportState(): PostingTableState {
    return {
      slots: this.slots,
      slotCount: this.slotCount,
      slotsUsed: this.slotsUsed,
      liveKeys: this.liveKeys,
      pool: this.pool.subarray(0, this.poolUsed),
      freeBlocks: this.freeBlocks,
    };
  }

  /** Replaces this table's data with an exported state: a copy, or the state's own arrays when `adopt`. */
  importState(s: PostingTableState, adopt = false): void {
    this.slots = adopt ? s.slots : s.slots.slice();
    this.slotCount = s.slotCount;
    this.slotsUsed = s.slotsUsed;
    this.liveKeys = s.liveKeys;
    this.pool = adopt ? s.pool : s.pool.slice();
    this.poolUsed = s.pool.length;
    this.freeBlocks = s.freeBlocks.slice();
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

  /** A block of `capacity` ids (a power of two), its count 0. */
  private allocBlock(capacity: number): number {
    const k = Math.log2(capacity);
    const free = this.freeBlocks[k];
    if (free !== undefined && free >= 0) {
      this.freeBlocks[k] = this.pool[free] as number;
      this.pool[free] = 0;
      return free;
    }
    const b = this.poolUsed;
    const end = b + BLOCK_HEADER + capacity;
    if (end > this.pool.length) {
      const grown = new Int32Array(Math.max(end, Math.ceil(this.pool.length * 1.5)));
      grown.set(this.pool.subarray(0, this.poolUsed));
      this.pool = grown;
    }
    this.poolUsed = end;
    this.pool[b] = 0;
    this.pool[b + 1] = capacity;
    return b;
  }

  private freeBlock(b: number, capacity: number): void {
    const k = Math.log2(capacity);
    this.pool[b] = this.freeBlocks[k] ?? -1;
    this.freeBlocks[k] = b;
  }

  /**
   * Rebuilds the slot table, doubled unless emptied keys made the room (or at `size` slots, a
   * power of two that holds them): drops emptied slots.
   */
  private rebuildSlots(size?: number): void {
    const old = this.slots;
    const oldCount = this.slotCount;
    size ??= this.liveKeys / oldCount > MAX_LOAD / 2 ? oldCount * 2 : oldCount;
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

/** Capacity of the block of a key holding `n` >= 2 ids: what doubling from FIRST_CAPACITY reaches. */
function blockCapacity(n: number): number {
  let capacity = FIRST_CAPACITY;
  while (capacity < n) capacity *= 2;
  return capacity;
}

/**
 * Counts hits per record id during one lookup, without allocating: an open-addressing table
 * in typed arrays, reused across lookups (a generation number marks which slots are current,
 * so starting a lookup costs nothing). Replaces a `Map<number, number>` per lookup, which
 * allocated and hashed on every find.
 */
export class IdTally {
  /** Slot -> the id's position in `order` (valid when the slot's stamp is current). */
  private slots: Int32Array;
  private stamps: Uint32Array;
  private generation = 1;
  /** Distinct ids tallied in this generation, in first-seen order, and their tallies. */
  private order: Int32Array;
  private tallies: Int32Array;
  private distinct = 0;

  constructor(capacity = 1024) {
    const size = 1 << Math.ceil(Math.log2(Math.max(16, capacity * 2)));
    this.slots = new Int32Array(size);
    this.stamps = new Uint32Array(size);
    this.order = new Int32Array(size >> 1);
    this.tallies = new Int32Array(size >> 1);
  }

  /** Forgets every tally. */
  clear(): void {
    this.distinct = 0;
    this.generation++;
    if (this.generation === 0xffffffff) {
      this.stamps.fill(0);
      this.generation = 1;
    }
  }

  /** Number of distinct ids tallied. */
  get size(): number {
    return this.distinct;
  }

  /** The i-th distinct id (first-seen order). */
  idAt(i: number): number {
    return this.order[i] as number;
  }

  /** The tally of the i-th distinct id. */
  tallyAt(i: number): number {
    return this.tallies[i] as number;
  }

  /** Adds `n` to `id`'s tally. */
  add(id: number, n: number): void {
    const mask = this.slots.length - 1;
    for (let s = spread(id) & mask; ; s = (s + 1) & mask) {
      if (this.stamps[s] !== this.generation) {
        if (this.distinct === this.order.length) {
          this.grow();
          this.add(id, n);
          return;
        }
        const i = this.distinct++;
        this.stamps[s] = this.generation;
        this.slots[s] = i;
        this.order[i] = id;
        this.tallies[i] = n;
        return;
      }
      const i = this.slots[s] as number;
      if (this.order[i] === id) {
        this.tallies[i] = (this.tallies[i] as number) + n;
        return;
      }
    }
  }

  private grow(): void {
    const ids = this.order.slice(0, this.distinct);
    const tallies = this.tallies.slice(0, this.distinct);
    const size = this.slots.length * 2;
    this.slots = new Int32Array(size);
    this.stamps = new Uint32Array(size);
    this.order = new Int32Array(size >> 1);
    this.tallies = new Int32Array(size >> 1);
    this.generation = 1;
    this.distinct = 0;
    for (let i = 0; i < ids.length; i++) this.add(ids[i] as number, tallies[i] as number);
  }
}

function spread(id: number): number {
  const h = Math.imul(id ^ (id >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}

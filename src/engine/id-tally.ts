/**
 * Counts hits per record id during one lookup, without allocating: an open-addressing table
 * in typed arrays, reused across lookups (a generation number marks which slots are current,
 * so starting a lookup costs nothing). Replaces a `Map<number, number>` per lookup, which
 * allocated and hashed on every find.
 */
export class IdTally {
  private ids: Int32Array;
  private counts: Int32Array;
  private stamps: Uint32Array;
  private generation = 1;
  /** Distinct ids tallied in this generation, in first-seen order. */
  private order: Int32Array;
  private distinct = 0;

  constructor(capacity = 1024) {
    const size = 1 << Math.ceil(Math.log2(Math.max(16, capacity * 2)));
    this.ids = new Int32Array(size);
    this.counts = new Int32Array(size);
    this.stamps = new Uint32Array(size);
    this.order = new Int32Array(size >> 1);
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

  /** Adds `n` to `id`'s tally. */
  add(id: number, n: number): void {
    const mask = this.ids.length - 1;
    for (let s = spread(id) & mask; ; s = (s + 1) & mask) {
      if (this.stamps[s] !== this.generation) {
        if (this.distinct === this.order.length) {
          this.grow();
          this.add(id, n);
          return;
        }
        this.stamps[s] = this.generation;
        this.ids[s] = id;
        this.counts[s] = n;
        this.order[this.distinct++] = id;
        return;
      }
      if (this.ids[s] === id) {
        this.counts[s] = (this.counts[s] as number) + n;
        return;
      }
    }
  }

  /** `id`'s tally (0 when absent). */
  get(id: number): number {
    const mask = this.ids.length - 1;
    for (let s = spread(id) & mask; ; s = (s + 1) & mask) {
      if (this.stamps[s] !== this.generation) return 0;
      if (this.ids[s] === id) return this.counts[s] as number;
    }
  }

  private grow(): void {
    const old = { ids: this.order.subarray(0, this.distinct).slice(), counts: this.order.subarray(0, this.distinct).map((id) => this.get(id)) };
    const size = this.ids.length * 2;
    this.ids = new Int32Array(size);
    this.counts = new Int32Array(size);
    this.stamps = new Uint32Array(size);
    this.order = new Int32Array(size >> 1);
    this.generation = 1;
    this.distinct = 0;
    for (let i = 0; i < old.ids.length; i++) this.add(old.ids[i] as number, old.counts[i] as number);
  }
}

function spread(id: number): number {
  const h = Math.imul(id ^ (id >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}

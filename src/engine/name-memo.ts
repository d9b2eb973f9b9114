/**
 * A memo of small codes by pair of non-negative ints (two stored names' string ids): open
 * addressing with linear probing over typed arrays, no object per entry. Names repeat in a
 * file, and so do their pairs (70,440 distinct pairs of first names among the 317,699 pairs a
 * dedupe of 20,000 corpus rows scored); comparing two different names runs every similarity
 * test in turn (name-compare.ts). Bounded: once full it starts again empty, which changes no
 * answer, only what is remembered.
 */

/** Entries at most (a power of two, half the table's slots): 8 bytes and 1 a slot. */
const MAX_ENTRIES = 1 << 21;
const INITIAL_SLOTS = 1 << 12;

export class NameLevelMemo {
  /** `maxEntries`: how many it holds before it starts again empty. */
  constructor(private readonly maxEntries = MAX_ENTRIES) {}

  /**
   * Slot i's pair at [2i, 2i + 1] (a = -1: empty): the two ids of a probe share a cache line
   * (separate arrays cost a miss each in a table of millions of slots).
   */
  private keys = emptyKeys(INITIAL_SLOTS);
  private codes = new Uint8Array(INITIAL_SLOTS);
  private size = 0;

  /** The code remembered for the pair (a, b), else 0. */
  get(a: number, b: number): number {
    const keys = this.keys;
    const mask = this.codes.length - 1;
    for (let i = slotOf(a, b, mask); ; i = (i + 1) & mask) {
      const k = keys[2 * i] as number;
      if (k === -1) return 0;
      if (k === a && keys[2 * i + 1] === b) return this.codes[i] as number;
    }
  }

  /** Remembers `code` (1-255) for the pair (a, b), which has none yet. */
  set(a: number, b: number, code: number): void {
    if (this.size >= this.maxEntries) this.reset(INITIAL_SLOTS);
    else if ((this.size + 1) * 2 > this.codes.length) this.grow();
    this.put(a, b, code);
    this.size++;
  }

  private put(a: number, b: number, code: number): void {
    const keys = this.keys;
    const mask = this.codes.length - 1;
    let i = slotOf(a, b, mask);
    while (keys[2 * i] !== -1) i = (i + 1) & mask;
    keys[2 * i] = a;
    keys[2 * i + 1] = b;
    this.codes[i] = code;
  }

  private reset(slots: number): void {
    this.keys = emptyKeys(slots);
    this.codes = new Uint8Array(slots);
    this.size = 0;
  }

  private grow(): void {
    const { keys, codes } = this;
    this.reset(codes.length * 2);
    for (let i = 0; i < codes.length; i++) {
      const a = keys[2 * i] as number;
      if (a !== -1) {
        this.put(a, keys[2 * i + 1] as number, codes[i] as number);
        this.size++;
      }
    }
  }
}

/** Keys of `slots` empty slots. */
function emptyKeys(slots: number): Int32Array {
  const keys = new Int32Array(2 * slots);
  for (let i = 0; i < keys.length; i += 2) keys[i] = -1;
  return keys;
}

function slotOf(a: number, b: number, mask: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) & mask;
}

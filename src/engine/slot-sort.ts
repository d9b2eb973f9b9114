/**
 * The slot arithmetic of the posting table (posting-table.ts) and the sorts that file keys in
 * bulk (PostingTable.addAllNew): pairs put in the order of the slots their keys hash to, with
 * a radix sort, a few sequential passes over typed arrays whatever the count (tens of millions
 * of pairs at a million records).
 */

/** Spreads a hash's bits before masking (keys are FNV hashes already; this evens out runs). */
export function mix(key: number): number {
  let h = key ^ (key >>> 16);
  h = Math.imul(h, 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Digit width of the radix passes. */
const RADIX_BITS = 11;

/**
 * Sorts the pairs (a[i], b[i]), i < count, by a[i] as an unsigned 32-bit value, pairs of
 * equal values kept in their order: a least-significant-digit radix sort, three sequential
 * passes whatever the count.
 */
function radixSortPairs(a: Int32Array, b: Int32Array, count: number): void {
  let fromA: Int32Array = a;
  let fromB: Int32Array = b;
  let toA: Int32Array = new Int32Array(count);
  let toB: Int32Array = new Int32Array(count);
  const buckets = new Int32Array(1 << RADIX_BITS);
  const digitMask = (1 << RADIX_BITS) - 1;
  let passes = 0;
  for (let shift = 0; shift < 32; shift += RADIX_BITS, passes++) {
    buckets.fill(0);
    for (let i = 0; i < count; i++) {
      const d = ((fromA[i] as number) >>> shift) & digitMask;
      buckets[d] = (buckets[d] as number) + 1;
    }
    let at = 0;
    for (let d = 0; d <= digitMask; d++) {
      const n = buckets[d] as number;
      buckets[d] = at;
      at += n;
    }
    for (let i = 0; i < count; i++) {
      const x = fromA[i] as number;
      const d = (x >>> shift) & digitMask;
      const to = buckets[d] as number;
      buckets[d] = to + 1;
      toA[to] = x;
      toB[to] = fromB[i] as number;
    }
    const ta = fromA;
    fromA = toA;
    toA = ta;
    const tb = fromB;
    fromB = toB;
    toB = tb;
  }
  if (passes % 2 === 1) {
    for (let i = 0; i < count; i++) {
      a[i] = fromA[i] as number;
      b[i] = fromB[i] as number;
    }
  }
}

/**
 * Sorts the pairs (keys[i], ids[i]) by their key's slot `mix(key) & mask`, then by key, pairs
 * of the same key kept in their order. The sort runs on mix(key) turned so that its slot bits
 * come first, kept in `keys` meanwhile: mix is a bijection, so each key is recovered after.
 */
export function sortBySlot(keys: Int32Array, ids: Int32Array, count: number, mask: number): void {
  const bits = 32 - Math.clz32(mask);
  const rest = 32 - bits;
  for (let i = 0; i < count; i++) {
    const m = mix(keys[i] as number);
    keys[i] = rest === 0 ? m : ((m & mask) << rest) | (m >>> bits);
  }
  radixSortPairs(keys, ids, count);
  for (let i = 0; i < count; i++) {
    const r = keys[i] as number;
    keys[i] = unmix(rest === 0 ? r : (r >>> rest) | (r << bits));
  }
}

/** Sorts the pairs (items[i], values[i]) by value (non-negative), equal values kept in their order. */
export function sortByValue(items: Int32Array, values: Int32Array, count: number): void {
  radixSortPairs(values, items, count);
}

/** Multiplicative inverse of mix's multiplier modulo 2^32. */
const MIX_INVERSE = ((): number => {
  let x = 0x45d9f3b;
  // Newton's iteration: each step doubles the bits of the inverse that are right.
  for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(0x45d9f3b, x));
  return x;
})();

/** The key whose {@link mix} is `m` (as an unsigned or signed 32-bit value). */
function unmix(m: number): number {
  let h = m ^ (m >>> 16);
  h = Math.imul(h, MIX_INVERSE);
  return (h ^ (h >>> 16)) | 0;
}

/**
 * Seeded pseudo-random numbers for the benchmark corpus: deterministic on every platform,
 * no `Math.random`. sfc32 (Chris Doty-Humphrey's "small fast counting" generator, as in
 * PractRand) seeded through splitmix32, so that neighbouring seeds give unrelated streams.
 */

/** Mixes 32-bit integers into one well-spread 32-bit seed (splitmix32 finaliser per part). */
export function hashSeed(...parts: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h = (h + Math.imul((part | 0) ^ 0x85ebca6b, 0xc2b2ae35) + 0x6d2b79f5) | 0;
    h = Math.imul(h ^ (h >>> 16), 0x21f0aaad);
    h = Math.imul(h ^ (h >>> 15), 0x735a2d97);
    h ^= h >>> 15;
  }
  return h >>> 0;
}

/** A small seeded generator (sfc32). Cheap to construct: one per corpus record is fine. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    // splitmix32 to fill the four words of state from one seed.
    let s = seed | 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) | 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = 1;
    for (let i = 0; i < 8; i++) this.u32();
  }

  /** Next unsigned 32-bit integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [lo, hi] (both inclusive). */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** One element of a non-empty array, uniformly. */
  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new RangeError('pick from an empty array');
    return item;
  }
}

/**
 * Samples indexes 0..n-1 with given relative weights in O(log n) (cumulative table and
 * binary search).
 */
export class WeightedSampler {
  private readonly cumulative: Float64Array;

  constructor(weights: ArrayLike<number>) {
    if (weights.length === 0) throw new RangeError('no weights');
    this.cumulative = new Float64Array(weights.length);
    let total = 0;
    for (let i = 0; i < weights.length; i++) {
      total += weights[i] ?? 0;
      this.cumulative[i] = total;
    }
  }

  get length(): number {
    return this.cumulative.length;
  }

  /** Probability of index i (for tests and documentation). */
  probability(i: number): number {
    const total = this.cumulative[this.cumulative.length - 1] ?? 1;
    const upTo = this.cumulative[i] ?? 0;
    const before = i > 0 ? (this.cumulative[i - 1] ?? 0) : 0;
    return (upTo - before) / total;
  }

  sample(rng: Rng): number {
    const cum = this.cumulative;
    const target = rng.float() * (cum[cum.length - 1] ?? 0);
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cum[mid] ?? 0) > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/**
 * Zipf-Mandelbrot weights 1 / (rank + q)^s for ranks 1..n: s is the skew (1 is classic
 * Zipf), q flattens the head so that the top item is not absurdly dominant.
 */
export function zipfWeights(n: number, s: number, q = 0): Float64Array {
  const weights = new Float64Array(n);
  for (let r = 0; r < n; r++) weights[r] = 1 / Math.pow(r + 1 + q, s);
  return weights;
}

/**
 * A bijection of [0, modulus) that scatters consecutive integers: (i * multiplier + offset)
 * mod modulus. The multiplier must be coprime with the modulus. Used to hand out unique
 * phone numbers and email tokens without a global "already used" set.
 */
export function scatter(i: number, multiplier: number, offset: number, modulus: number): number {
  // Split the multiplication so the product stays well inside 2^53.
  const hi = Math.floor(multiplier / 65536);
  const lo = multiplier % 65536;
  const part = (((((i * hi) % modulus) * 65536) % modulus) + ((i * lo) % modulus)) % modulus;
  return (part + offset) % modulus;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/**
 * A multiplier for `scatter` that spreads neighbours far apart: the first integer at or
 * above modulus / golden ratio that is coprime with the modulus.
 */
export function goldenMultiplier(modulus: number): number {
  let m = Math.floor(modulus * 0.6180339887498949);
  while (gcd(m, modulus) !== 1) m++;
  return m;
}

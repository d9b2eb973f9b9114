/**
 * A seeded pseudo-random generator for estimation's sampling: the same seed gives the same
 * samples on every machine, so a model estimated twice from one file is the same model. Not
 * Math.random: the engine has no hidden randomness. sfc32 (Chris Doty-Humphrey's "small
 * fast counting" generator) seeded through splitmix32.
 */

/** A seeded generator of 32-bit integers and floats. */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d = 1;

  constructor(seed: number) {
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
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** An unsigned 32-bit integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** An integer in [0, n) (n >= 1). */
  below(n: number): number {
    return n <= 0x100000000 ? Math.floor((this.u32() / 0x100000000) * n) : Math.floor(this.float() * n);
  }

  /** A float in [0, 1). */
  float(): number {
    return (this.u32() * 0x200000 + (this.u32() >>> 11)) / 2 ** 53;
  }
}

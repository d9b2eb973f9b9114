/**
 * Error rates of the messy generators and the tally that counts how often each process was
 * considered and applied. Every random decision of a scenario that has a documented rate
 * goes through `Tally.roll`, so `stats.processes` measures each rate against its denominator
 * (the records where the process could apply) and the tests compare the two.
 */
import type { Rng } from '../prng.js';

export type Level = 'low' | 'medium' | 'high';
export const LEVELS: readonly Level[] = ['low', 'medium', 'high'];

/** One documented rate: the probability at each level, and what it is a share of. */
export interface RateSpec {
  readonly low: number;
  readonly medium: number;
  readonly high: number;
  /** What happens, and of which records (the denominator). */
  readonly doc: string;
  /** `record` rates mark the rows they hit (per-row tags); `entity` rates shape the people. */
  readonly per: 'record' | 'entity';
}

export type RateTable<K extends string> = Readonly<Record<K, RateSpec>>;

/** An error rate of records, by level. */
export function recordRate(low: number, medium: number, high: number, doc: string): RateSpec {
  return { low, medium, high, doc, per: 'record' };
}

/** A property of people, the same at every level. */
export function entityRate(p: number, doc: string): RateSpec {
  return { low: p, medium: p, high: p, doc, per: 'entity' };
}

/** How often one process was considered (eligible) and applied; `rate` is the documented one. */
export interface ProcessCount {
  eligible: number;
  applied: number;
  readonly rate: number;
}

/** 0.3 -> "0.30", 0.015 -> "0.015": two decimals unless the rate has a third. */
function fixed(x: number): string {
  return Math.abs(x * 100 - Math.round(x * 100)) < 1e-9 ? x.toFixed(2) : x.toFixed(3);
}

/**
 * The rates as a Markdown table, one line per rate (also the table at the top of each
 * scenario file and in bench/README.md; a test keeps them equal).
 */
export function ratesMarkdown(table: RateTable<string>): string[] {
  const lines = ['| rate | per | low | medium | high | what (of which records) |', '|---|---|---|---|---|---|'];
  for (const [key, spec] of Object.entries(table)) {
    lines.push(`| ${key} | ${spec.per} | ${fixed(spec.low)} | ${fixed(spec.medium)} | ${fixed(spec.high)} | ${spec.doc} |`);
  }
  return lines;
}

/**
 * Rolls documented rates and records what was applied: per process (eligible/applied) and
 * per record (the tags of the record being built, collected with `take`).
 */
export class Tally<K extends string> {
  readonly counts = new Map<string, ProcessCount>();
  private tags: string[] = [];

  constructor(
    private readonly table: RateTable<K>,
    readonly level: Level,
  ) {
    for (const key of Object.keys(table) as K[]) this.counts.set(key, { eligible: 0, applied: 0, rate: this.rate(key) });
  }

  /** The documented probability of `key` at this level. */
  rate(key: K): number {
    return this.table[key][this.level];
  }

  /**
   * True with the documented probability of `key`. Call it only where the process can
   * apply: the call is counted as one eligible case. A hit on a `record` rate tags the
   * current record with `tag` (default: the key).
   */
  roll(rng: Rng, key: K, tag?: string): boolean {
    const count = this.counts.get(key);
    if (count === undefined) throw new RangeError(`no rate ${key}`);
    count.eligible++;
    if (!rng.chance(count.rate)) return false;
    count.applied++;
    if (this.table[key].per === 'record') this.tags.push(tag ?? key);
    return true;
  }

  /**
   * Rolls `key` and, on a hit, corrupts `value` with `fn`. A hit whose `fn` finds nothing to
   * change (null) is taken back, so the counts hold only changes really made.
   */
  apply(rng: Rng, key: K, value: string, fn: (v: string) => string | null): string {
    if (!this.roll(rng, key)) return value;
    const out = fn(value);
    if (out === null) this.revoke(key);
    return out ?? value;
  }

  /** Takes back a hit whose corruption turned out impossible on this value. */
  revoke(key: K, tag?: string): void {
    const count = this.counts.get(key);
    if (count !== undefined) count.applied--;
    const at = this.tags.lastIndexOf(tag ?? key);
    if (at >= 0) this.tags.splice(at, 1);
  }

  /** Tags the current record with a detail that is not a rate of its own ("ocr:zip"). */
  note(tag: string): void {
    this.tags.push(tag);
  }

  /** The tags of the record just built; starts the next record. */
  take(): string[] {
    const out = this.tags;
    this.tags = [];
    return out;
  }

  /** Counts as a plain object, keys in table order. */
  snapshot(): Record<string, ProcessCount> {
    const out: Record<string, ProcessCount> = {};
    for (const [key, count] of this.counts) out[key] = { ...count };
    return out;
  }
}

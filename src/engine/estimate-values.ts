/**
 * The values estimation counts and groups records by (estimate.ts), read in one pass over the
 * records: each column (a field's values, such as the compact surname or each address's
 * postal code) holds, per record, the ids of its values, and the distinct values behind the
 * ids. A link's two files share each column's dictionary, so a value has one id on both sides.
 *
 * Why: value frequencies and the training rules' blocks were each computed in their own pass
 * over every record (two dozen passes, each building every record again from the index): at
 * a million records, most of the estimation's time.
 */
import { StringTable } from './string-table.js';
import type { NormalizedContact } from './types.js';

/** Records by position 0..size-1 (estimate.ts RecordSource). */
interface Records {
  readonly size: number;
  get(i: number): NormalizedContact;
}

/** A column's values of a record (in the record's order; a value may repeat). */
export type ValuesOf = (c: NormalizedContact) => readonly string[];

/** One column of one file: per record, the ids of its values (CSR: `items[offsets[i]..offsets[i+1])`). */
export interface ValueColumn {
  readonly offsets: Int32Array;
  readonly items: Int32Array;
}

/**
 * A column's dictionary, shared by the files of a link: the value of each id (ids dense from
 * 0, in order of first sight). A {@link StringTable}, not a Map: the values are fresh strings
 * (compact names, joined address parts), whose hash a Map computes and stores on every
 * lookup; half the reading's time went to a Map at 200,000 records.
 */
export class ValueDictionary {
  private readonly table = new StringTable();

  idOf(value: string): number {
    return this.table.id(value);
  }

  /** The value of each id. */
  get values(): readonly string[] {
    return this.table.values();
  }

  get size(): number {
    return this.table.size;
  }
}

/** Growable Int32 storage. */
class IntBuffer {
  data = new Int32Array(1024);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
}

/**
 * Reads every record of `src` once and fills one column per extractor (each with its
 * dictionary in `dictionaries`, the same index).
 */
export function readColumns(src: Records, extractors: readonly ValuesOf[], dictionaries: readonly ValueDictionary[]): ValueColumn[] {
  const n = src.size;
  const offsets = extractors.map(() => new Int32Array(n + 1));
  const items = extractors.map(() => new IntBuffer());
  for (let i = 0; i < n; i++) {
    const c = src.get(i);
    for (let k = 0; k < extractors.length; k++) {
      const buffer = items[k] as IntBuffer;
      const dictionary = dictionaries[k] as ValueDictionary;
      for (const v of (extractors[k] as ValuesOf)(c)) buffer.push(dictionary.idOf(v));
      (offsets[k] as Int32Array)[i + 1] = buffer.length;
    }
  }
  return extractors.map((_, k) => ({ offsets: offsets[k] as Int32Array, items: (items[k] as IntBuffer).data.slice(0, (items[k] as IntBuffer).length) }));
}

/**
 * How many times each value occurs in a column (every occurrence, repeats within a record
 * included) and how many records hold at least one value.
 */
export function valueCounts(column: ValueColumn, values: number): { counts: Float64Array; present: number } {
  const counts = new Float64Array(values);
  let present = 0;
  const { offsets, items } = column;
  for (let i = 0; i + 1 < offsets.length; i++) {
    const from = offsets[i] as number;
    const to = offsets[i + 1] as number;
    if (to > from) present++;
    for (let k = from; k < to; k++) {
      const v = items[k] as number;
      counts[v] = (counts[v] as number) + 1;
    }
  }
  return { counts, present };
}

/** True when record `i` holds a value in the column. */
export function holdsValue(column: ValueColumn, i: number): boolean {
  return (column.offsets[i + 1] as number) > (column.offsets[i] as number);
}

/**
 * The records holding each value, in record order, each record once per value: value `v`'s
 * records are `records[starts[v]..starts[v + 1])`.
 */
export function blocksOf(column: ValueColumn, values: number): { starts: Int32Array; records: Int32Array } {
  const { offsets, items } = column;
  const records = offsets.length - 1;
  // A record listing a value twice is filed once (its entries are adjacent in record order).
  const last = new Int32Array(values).fill(-1);
  const sizes = new Int32Array(values + 1);
  for (let i = 0; i < records; i++) {
    for (let k = offsets[i] as number; k < (offsets[i + 1] as number); k++) {
      const v = items[k] as number;
      if (last[v] === i) continue;
      last[v] = i;
      sizes[v + 1] = (sizes[v + 1] as number) + 1;
    }
  }
  const starts = new Int32Array(values + 1);
  for (let v = 0; v < values; v++) starts[v + 1] = (starts[v] as number) + (sizes[v + 1] as number);
  const out = new Int32Array(starts[values] as number);
  const fill = starts.slice(0, values);
  last.fill(-1);
  for (let i = 0; i < records; i++) {
    for (let k = offsets[i] as number; k < (offsets[i + 1] as number); k++) {
      const v = items[k] as number;
      if (last[v] === i) continue;
      last[v] = i;
      const at = fill[v] as number;
      out[at] = i;
      fill[v] = at + 1;
    }
  }
  return { starts, records: out };
}

/**
 * Each record's blocking keys as they were filed, kept by record id, for lookups of the indexed
 * records themselves (ContactIndex.deferKeys with `keep`, FindOptions.indexed): a dedupe looks
 * every record up, and computing its keys again (names' sounds, OCR folds, fragments, about 26
 * key hashes) was a tenth of each lookup's time.
 */

/** Each record's key hashes by id: `keys[offsets[id]..offsets[id + 1])`, in the order blockingHashes gave them. */
export interface FiledKeys {
  readonly offsets: Int32Array;
  readonly keys: Int32Array;
}

/**
 * The first `size` (key, row) pairs of deferred filing, by record id (`idOfRow`): a stable
 * counting sort, so each record's keys keep their order.
 */
export function keysByRecord(keys: Int32Array, rows: Int32Array, size: number, idOfRow: (row: number) => number): FiledKeys {
  const ids = new Int32Array(size);
  let records = 0;
  for (let i = 0; i < size; i++) {
    const id = idOfRow(rows[i] as number);
    ids[i] = id;
    if (id + 1 > records) records = id + 1;
  }
  const offsets = new Int32Array(records + 1);
  for (let i = 0; i < size; i++) {
    const k = (ids[i] as number) + 1;
    offsets[k] = (offsets[k] as number) + 1;
  }
  for (let id = 0; id < records; id++) offsets[id + 1] = (offsets[id + 1] as number) + (offsets[id] as number);
  const at = offsets.slice(0, records);
  const out = new Int32Array(size);
  for (let i = 0; i < size; i++) {
    const id = ids[i] as number;
    const to = at[id] as number;
    at[id] = to + 1;
    out[to] = keys[i] as number;
  }
  return { offsets, keys: out };
}

/** The key hashes of record `id`, or null when none were kept for it. */
export function filedKeysOf(filed: FiledKeys | null, id: number | undefined): Int32Array | null {
  if (filed === null || id === undefined || id < 0 || id + 1 >= filed.offsets.length) return null;
  return filed.keys.subarray(filed.offsets[id], filed.offsets[id + 1]);
}

import { describe, expect, it } from 'vitest';
import { blocksOf, holdsValue, readColumns, ValueDictionary, valueCounts, type ValuesOf } from '../../src/engine/estimate-values.js';
import type { NormalizedContact } from '../../src/engine/types.js';
import { samplePositions } from '../../src/linkage/learn.js';

const contact = (first: string | null, emails: string[]): NormalizedContact => ({
  first,
  middle: null,
  last: null,
  suffix: null,
  dob: null,
  emails,
  phones: [],
  addresses: [],
  identifiers: [],
  sex: null,
  attributes: [],
});
const source = (rows: NormalizedContact[]) => ({ size: rows.length, get: (i: number) => rows[i] as NormalizedContact });
const firstOf: ValuesOf = (c) => (c.first === null ? [] : [c.first]);
const emailsOf: ValuesOf = (c) => c.emails;

describe('estimation value columns', () => {
  const rows = [contact('ann', ['a@x', 'a@x']), contact(null, []), contact('bob', ['b@x']), contact('ann', ['a@x'])];

  it('counts every occurrence, a value repeated within a record included, and the records holding one', () => {
    const dictionaries = [new ValueDictionary(), new ValueDictionary()];
    const [first, emails] = readColumns(source(rows), [firstOf, emailsOf], dictionaries) as [
      ReturnType<typeof readColumns>[number],
      ReturnType<typeof readColumns>[number],
    ];
    const f = valueCounts(first, dictionaries[0]?.size ?? 0);
    expect(f.present).toBe(3);
    expect([...f.counts]).toEqual([2, 1]);
    const e = valueCounts(emails, dictionaries[1]?.size ?? 0);
    expect(e.present).toBe(3);
    expect([...e.counts]).toEqual([3, 1]);
    expect([0, 1, 2, 3].map((i) => holdsValue(first, i))).toEqual([true, false, true, true]);
  });

  it('files a record once per value, in record order', () => {
    const dictionary = new ValueDictionary();
    const [emails] = readColumns(source(rows), [emailsOf], [dictionary]);
    const blocks = blocksOf(emails as NonNullable<typeof emails>, dictionary.size);
    const block = (value: string): number[] => {
      const v = dictionary.idOf(value);
      return [...blocks.records.subarray(blocks.starts[v], blocks.starts[v + 1])];
    };
    expect(block('a@x')).toEqual([0, 3]);
    expect(block('b@x')).toEqual([2]);
  });

  it('gives a value one id in both files of a link', () => {
    const dictionary = new ValueDictionary();
    readColumns(source(rows), [firstOf], [dictionary]);
    const [right] = readColumns(source([contact('bob', []), contact('cy', [])]), [firstOf], [dictionary]);
    expect([...(right?.items ?? [])]).toEqual([dictionary.idOf('bob'), dictionary.idOf('cy')]);
    expect(dictionary.values).toEqual(['ann', 'bob', 'cy']);
  });
});

describe('the sample a large file is estimated on', () => {
  it('is distinct positions in ascending order, the same for the same seed', () => {
    const a = samplePositions(1000, 200, 42);
    expect(a.length).toBe(200);
    expect(new Set(a).size).toBe(200);
    expect([...a]).toEqual([...a].sort((x, y) => x - y));
    expect(a.every((p) => p >= 0 && p < 1000)).toBe(true);
    expect([...samplePositions(1000, 200, 42)]).toEqual([...a]);
    expect([...samplePositions(1000, 200, 43)]).not.toEqual([...a]);
  });

  it('takes every position when asked for all of them', () => {
    expect([...samplePositions(5, 5, 1)]).toEqual([0, 1, 2, 3, 4]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockingHashes, blockingKeys, ContactIndex, DEFAULT_NICKNAMES, hashKeyParts, MAX_RECORD_ID, PostingTable } from '../../src/engine/index.js';

describe('PostingTable', () => {
  it('behaves like a Map of Sets under any sequence of adds and removes (the oracle)', () => {
    const op = fc.record({ add: fc.boolean(), key: fc.integer({ min: -40, max: 40 }), id: fc.integer({ min: 0, max: 30 }) });
    fc.assert(fc.property(fc.array(op, { maxLength: 3000 }), (ops) => {
      const table = new PostingTable();
      const oracle = new Map<number, Set<number>>();
      for (const o of ops) {
        const set = oracle.get(o.key) ?? new Set<number>();
        if (o.add) {
          table.add(o.key, o.id);
          set.add(o.id);
          oracle.set(o.key, set);
        } else {
          expect(table.remove(o.key, o.id)).toBe(set.delete(o.id));
        }
      }
      for (let key = -40; key <= 40; key++) {
        const out: number[] = [];
        table.forEach(key, Infinity, null, (id) => out.push(id));
        expect(new Set(out)).toEqual(oracle.get(key) ?? new Set());
        expect(out.length).toBe(table.count(key));
      }
      expect(table.keys).toBe([...oracle.values()].filter((s) => s.size > 0).length);
    }), { numRuns: 100 });
  });

  it('reads the most recently filed ids first, up to a limit, in filing order after removals', () => {
    const op = fc.record({ add: fc.boolean(), key: fc.integer({ min: 0, max: 5 }), id: fc.integer({ min: 0, max: 80 }) });
    fc.assert(fc.property(fc.array(op, { maxLength: 2000 }), fc.integer({ min: 1, max: 40 }), (ops, limit) => {
      const table = new PostingTable();
      const model = new Map<number, number[]>();
      for (const o of ops) {
        const list = model.get(o.key) ?? [];
        model.set(o.key, list);
        if (o.add) {
          table.add(o.key, o.id);
          if (!list.includes(o.id)) list.push(o.id);
        } else if (list.includes(o.id)) {
          expect(table.remove(o.key, o.id)).toBe(true);
          list.splice(list.indexOf(o.id), 1);
        }
      }
      for (const [key, list] of model) {
        const out: number[] = [];
        table.forEach(key, limit, null, (id) => out.push(id));
        expect(out).toEqual(list.slice(-limit).reverse());
      }
    }), { numRuns: 200 });
  });

  it('keeps ids at both ends of the range, alone and in lists', () => {
    const table = new PostingTable();
    for (const id of [0, MAX_RECORD_ID]) {
      table.add(1, id);
      const out: number[] = [];
      table.forEach(1, Infinity, null, (id) => out.push(id));
      expect(out).toContain(id);
    }
    expect(table.count(1)).toBe(2);
    expect(table.remove(1, 0)).toBe(true);
    const out: number[] = [];
    table.forEach(1, Infinity, null, (id) => out.push(id));
    expect(out).toEqual([MAX_RECORD_ID]);
  });

  it('addNew files like add when the id is not there yet', () => {
    const a = new PostingTable();
    const b = new PostingTable();
    for (let id = 0; id < 500; id++) {
      a.add(id % 7, id);
      b.addNew(id % 7, id);
    }
    for (let key = 0; key < 7; key++) {
      const x: number[] = [];
      const y: number[] = [];
      a.forEach(key, Infinity, null, (id) => x.push(id));
      b.forEach(key, Infinity, null, (id) => y.push(id));
      expect(y).toEqual(x);
    }
  });

  it('grows past its initial size', () => {
    const table = new PostingTable();
    for (let i = 0; i < 50_000; i++) table.add(i * 7919, i);
    for (let i = 0; i < 50_000; i += 997) expect(table.count(i * 7919)).toBe(1);
    expect(table.keys).toBe(50_000);
  });
});

describe('blocking hashes', () => {
  it('equal the hashes of the key strings', () => {
    const word = fc.option(fc.stringMatching(/^[a-z ]{1,10}$/), { nil: null });
    fc.assert(fc.property(word, word, fc.option(fc.constantFrom('1975-09-18', '2001-01-02'), { nil: null }), fc.option(fc.constantFrom('20500', '4011'), { nil: null }), (first, last, dob, zip) => {
      const index = new ContactIndex();
      const c = index.normalize({ firstName: first, lastName: last, dateOfBirth: dob, addresses: zip ? [{ addressLine1: '12 Main St', zipOrPostalCode: zip }] : [], emails: ['a@b.co'] });
      // Key strings are "prefix:a" or "prefix:a:b"; no part of these contacts holds a colon.
      const fromStrings = blockingKeys(c, DEFAULT_NICKNAMES).map((k) => {
        const [prefix, a, b] = k.split(':') as [string, string, string | undefined];
        return hashKeyParts(prefix, a, b);
      });
      expect(blockingHashes(c, DEFAULT_NICKNAMES)).toEqual(fromStrings);
    }));
  });
});

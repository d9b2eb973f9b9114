import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockingHashes, blockingKeys, ContactIndex, DEFAULT_NICKNAMES, hashKeyParts, MAX_RECORD_ID, PostingTable } from '../../src/engine/index.js';

describe('PostingTable', () => {
  it('behaves like a Map of Sets under any sequence of adds and removes (the oracle)', () => {
    const op = fc.record({ add: fc.boolean(), key: fc.integer({ min: -40, max: 40 }), id: fc.integer({ min: 0, max: 30 }) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 3000 }), (ops) => {
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
      }),
      { numRuns: 100 },
    );
  });

  it('reads the most recently filed ids first, up to a limit, in filing order after removals', () => {
    const op = fc.record({ add: fc.boolean(), key: fc.integer({ min: 0, max: 5 }), id: fc.integer({ min: 0, max: 80 }) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 2000 }), fc.integer({ min: 1, max: 40 }), (ops, limit) => {
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
      }),
      { numRuns: 200 },
    );
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

  it('addAllNew files like addNew one pair at a time, onto any table', () => {
    const pair = fc.record({ key: fc.integer({ min: -30, max: 30 }), id: fc.integer({ min: 0, max: 5000 }) });
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 300 }), fc.array(pair, { maxLength: 3000 }), (before, pairs) => {
        const one = new PostingTable();
        const all = new PostingTable();
        for (const p of before) {
          one.add(p.key, p.id);
          all.add(p.key, p.id);
        }
        // New ids only, as addNew requires: ids not filed under their key yet.
        const filed = new Set(before.map((p) => `${p.key}:${p.id}`));
        const fresh = pairs.filter((p) => !filed.has(`${p.key}:${p.id}`) && (filed.add(`${p.key}:${p.id}`), true));
        for (const p of fresh) one.addNew(p.key, p.id);
        all.addAllNew(Int32Array.from(fresh.map((p) => p.key)), Int32Array.from(fresh.map((p) => p.id)), fresh.length);
        for (let key = -30; key <= 30; key++) {
          const a: number[] = [];
          const b: number[] = [];
          one.forEach(key, Infinity, null, (id) => a.push(id));
          all.forEach(key, Infinity, null, (id) => b.push(id));
          expect(b).toEqual(a);
        }
        expect(all.keys).toBe(one.keys);
      }),
      { numRuns: 100 },
    );
  });

  it('addAllNew sizes the table for the distinct keys, at scale', () => {
    const n = 200_000;
    const keys = Int32Array.from({ length: n }, (_, i) => Math.imul(i % 50_000, 0x9e3779b1));
    const ids = Int32Array.from({ length: n }, (_, i) => i);
    const table = new PostingTable();
    table.addAllNew(keys, ids, n);
    expect(table.keys).toBe(50_000);
    for (let k = 0; k < 50_000; k += 997) {
      const out: number[] = [];
      table.forEach(Math.imul(k, 0x9e3779b1), Infinity, null, (id) => out.push(id));
      expect(out).toEqual([k + 150_000, k + 100_000, k + 50_000, k]);
    }
    const incremental = new PostingTable();
    for (let i = 0; i < n; i++) incremental.addNew(Math.imul(i % 50_000, 0x9e3779b1), i);
    expect(table.bytes).toBeLessThanOrEqual(incremental.bytes);
  });

  it('relabel replaces every id by its image, each key keeping its filing order', () => {
    const op = fc.record({ add: fc.boolean(), key: fc.integer({ min: 0, max: 12 }), id: fc.integer({ min: 0, max: 60 }) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 2000 }), fc.integer(), (ops, seed) => {
        const table = new PostingTable();
        for (const o of ops)
          if (o.add) table.add(o.key, o.id);
          else table.remove(o.key, o.id);
        const before = new Map<number, number[]>();
        for (let key = 0; key <= 12; key++) {
          const out: number[] = [];
          table.forEach(key, Infinity, null, (id) => out.push(id));
          before.set(key, out);
        }
        const map = Int32Array.from({ length: 61 }, (_, i) => (i * 37 + (seed & 0xffff)) % 61);
        table.relabel(map);
        for (let key = 0; key <= 12; key++) {
          const out: number[] = [];
          table.forEach(key, Infinity, null, (id) => out.push(id));
          expect(out).toEqual((before.get(key) ?? []).map((id) => map[id]));
        }
        // Still a working table: freed blocks are reused as before.
        for (const o of ops.slice(0, 50))
          if (o.add) table.add(o.key, o.id);
          else table.remove(o.key, o.id);
        for (let key = 0; key <= 12; key++) {
          const out: number[] = [];
          table.forEach(key, Infinity, null, (id) => out.push(id));
          expect(new Set(out).size).toBe(out.length);
          expect(out.length).toBe(table.count(key));
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('blocking hashes', () => {
  it('equal the hashes of the key strings', () => {
    const word = fc.option(fc.stringMatching(/^[a-z ]{1,10}$/), { nil: null });
    fc.assert(
      fc.property(
        word,
        word,
        fc.option(fc.constantFrom('1975-09-18', '2001-01-02'), { nil: null }),
        fc.option(fc.constantFrom('20500', '4011'), { nil: null }),
        (first, last, dob, zip) => {
          const index = new ContactIndex();
          const c = index.normalize({
            firstName: first,
            lastName: last,
            dateOfBirth: dob,
            addresses: zip ? [{ addressLine1: '12 Main St', zipOrPostalCode: zip }] : [],
            emails: ['a@b.co'],
          });
          // Key strings are "prefix:a" or "prefix:a:b"; no part of these contacts holds a colon.
          const fromStrings = blockingKeys(c, DEFAULT_NICKNAMES).map((k) => {
            const [prefix, a, b] = k.split(':') as [string, string, string | undefined];
            return hashKeyParts(prefix, a, b);
          });
          expect(blockingHashes(c, DEFAULT_NICKNAMES)).toEqual(fromStrings);
        },
      ),
    );
  });
});

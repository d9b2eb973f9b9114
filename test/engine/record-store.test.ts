import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { suppliedFields } from '../../src/engine/gates.js';
import { compareEmails, compareIdentifiers, comparePhones } from '../../src/engine/compare.js';
import { RecordStore, RecordView } from '../../src/engine/record-store.js';
import type { NormalizedContact } from '../../src/engine/types.js';
import { normalizedContact as contact, normalizedText as text } from './arbitraries.js';

/** Records of a store with two attribute columns. */
const withAttributes: fc.Arbitrary<NormalizedContact> = contact.chain((c) => fc.tuple(text, text).map((attributes) => ({ ...c, attributes })));

type Op = { kind: 'set'; id: number; c: NormalizedContact } | { kind: 'delete'; id: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('set' as const), id: fc.integer({ min: 0, max: 40 }), c: contact }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), id: fc.integer({ min: 0, max: 40 }) }) },
);

function check(store: RecordStore, model: Map<number, NormalizedContact>): void {
  for (const [id, c] of model) expect(store.suppliedOf(store.rowOf(id))).toBe(suppliedFields(c));
  expect(store.size).toBe(model.size);
  for (let id = 0; id <= 40; id++) {
    expect(store.has(id)).toBe(model.has(id));
    expect(store.get(id)).toEqual(model.get(id));
  }
}

describe('RecordStore', () => {
  it("a view compares a row's emails, phones and identifiers where they are stored as compare.ts does the record's lists", () => {
    fc.assert(
      fc.property(fc.array(contact, { minLength: 1, maxLength: 8 }), contact, (records, q) => {
        const store = new RecordStore();
        records.forEach((c, id) => store.set(id, c));
        const view = new RecordView(store);
        records.forEach((c, id) => {
          store.loadRow(store.rowOf(id), view);
          expect(view.emailLevel(q.emails, 0xffff)).toBe(compareEmails(q.emails, c.emails, 0xffff));
          expect(view.phoneLevel(q.phones, 0xffff)).toBe(comparePhones(q.phones, c.phones, 0xffff));
          // A lookup's identifier list against the record's, and one of the record's own (exact).
          expect(view.identifierLevel(q.identifiers, 0xffff)).toBe(compareIdentifiers(q.identifiers, c.identifiers, 0xffff));
          expect(view.identifierLevel(c.identifiers, 0xffff)).toBe(compareIdentifiers(c.identifiers, c.identifiers, 0xffff));
        });
      }),
      { numRuns: 300, seed: 20261128 },
    );
  });

  it('behaves as a Map of records under any sequence of sets and deletes', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const store = new RecordStore();
        const model = new Map<number, NormalizedContact>();
        for (const o of ops) {
          if (o.kind === 'set') {
            store.set(o.id, o.c);
            model.set(o.id, o.c);
          } else {
            expect(store.delete(o.id)).toBe(model.delete(o.id));
          }
        }
        check(store, model);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps attributes beside every record, through sets and deletes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), withAttributes, fc.boolean()), { maxLength: 40 }), (ops) => {
        const store = new RecordStore(2);
        const model = new Map<number, NormalizedContact>();
        for (const [id, c, del] of ops) {
          if (del) expect(store.delete(id)).toBe(model.delete(id));
          else {
            store.set(id, c);
            model.set(id, c);
          }
        }
        for (const [id, c] of model) expect(store.get(id)).toEqual(c);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps values of any length', () => {
    const store = new RecordStore();
    const long = 'x'.repeat(100_000) + '\ud800' + 'é'.repeat(5000);
    const c: NormalizedContact = {
      first: null,
      middle: null,
      last: null,
      suffix: null,
      dob: null,
      emails: [],
      phones: [],
      addresses: [],
      identifiers: [long, 'a:1'],
      sex: 'f',
      attributes: [],
      written: '伟|王',
    };
    store.set(7, c);
    expect(store.get(7)).toEqual(c);
  });

  it('keeps every record through compactions, with ids anywhere in int32 range', () => {
    const store = new RecordStore();
    const model = new Map<number, NormalizedContact>();
    const some = (i: number): NormalizedContact => ({
      first: `f${i % 7}`,
      middle: null,
      last: `l${i}`,
      suffix: i % 5 === 0 ? 'jr' : null,
      dob: null,
      emails: [`e${i}@x.org`],
      phones: i % 2 ? [`+1555${i}`] : [],
      identifiers: [],
      addresses: [{ number: String(i), street: 'main st', unit: null, building: null, city: 'x', state: 'pa', zip: '19104', country: 'US' }],
      sex: i % 3 === 0 ? null : i % 3 === 1 ? 'm' : 'f',
      attributes: [],
      written: i % 4 === 0 ? `${i}|` : null,
    });
    const ids = Array.from({ length: 2000 }, (_, i) => (i * 1_000_003) % 2_147_483_000);
    for (let round = 0; round < 20; round++) {
      for (let k = 0; k < ids.length; k++) {
        const id = ids[k] as number;
        if ((k + round) % 3 === 0) {
          store.delete(id);
          model.delete(id);
        } else {
          const c = some(k * 31 + round);
          store.set(id, c);
          model.set(id, c);
        }
      }
    }
    expect(store.size).toBe(model.size);
    for (const id of ids) expect(store.get(id)).toEqual(model.get(id));
    // Dead space was reclaimed: about what a store built from the live records alone holds.
    const fresh = new RecordStore();
    for (const [id, c] of model) fresh.set(id, c);
    expect(store.bytes).toBeLessThan(fresh.bytes * 2);
  });
});

describe('RecordStore.reorder', () => {
  it('puts the rows in any order without changing a record, and stays usable', () => {
    const sets = fc.array(fc.record({ id: fc.integer({ min: 0, max: 40 }), c: withAttributes }), { maxLength: 60 });
    fc.assert(
      fc.property(sets, fc.integer(), withAttributes, (ops, seed, later) => {
        const store = new RecordStore(2);
        const model = new Map<number, NormalizedContact>();
        for (const o of ops) {
          store.set(o.id, o.c);
          model.set(o.id, o.c);
        }
        const n = store.rowCount;
        // A seeded permutation of the rows.
        const order = Int32Array.from({ length: n }, (_, i) => i);
        let s = seed | 0;
        for (let i = n - 1; i > 0; i--) {
          s = (Math.imul(s, 1103515245) + 12345) | 0;
          const j = (s >>> 8) % (i + 1);
          [order[i], order[j]] = [order[j] as number, order[i] as number];
        }
        const rowsBefore = new Map([...model.keys()].map((id) => [id, store.rowOf(id)]));
        const newRow = store.reorder(order);
        for (const [id, c] of model) {
          expect(store.get(id)).toEqual(c);
          expect(store.rowOf(id)).toBe(newRow[rowsBefore.get(id) as number]);
          expect(store.idOfRow(store.rowOf(id))).toBe(id);
        }
        store.set(41, later);
        store.delete(ops[0]?.id ?? 0);
        model.set(41, later);
        model.delete(ops[0]?.id ?? 0);
        for (let id = 0; id <= 41; id++) expect(store.get(id)).toEqual(model.get(id));
      }),
      { numRuns: 150 },
    );
  });

  it('refuses an order that is not a permutation of the rows, or a store with removed rows', () => {
    const store = new RecordStore();
    const c: NormalizedContact = {
      first: 'a',
      middle: null,
      last: 'b',
      suffix: null,
      dob: null,
      emails: [],
      phones: [],
      addresses: [],
      identifiers: [],
      sex: null,
      attributes: [],
    };
    store.set(1, c);
    store.set(2, c);
    expect(() => store.reorder(Int32Array.from([0, 0]))).toThrow(/twice/);
    expect(() => store.reorder(Int32Array.from([0]))).toThrow(/rows/);
    store.delete(1);
    expect(() => store.reorder(Int32Array.from([1, 0]))).toThrow(/free/);
  });
});

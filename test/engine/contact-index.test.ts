import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockingHashes, blockingKeys, ContactIndex, DEFAULT_NICKNAMES, FILE_KEYS, KEY_KINDS, type ContactInput } from '../../src/engine/index.js';
import { townPostalHashes, unnamedHashes } from '../../src/engine/blocking.js';

/** The file keys but the name-alone ones (blocking.ts KEY_KINDS.nameAlone). */
const WITHOUT_NAME_ALONE = FILE_KEYS & ~KEY_KINDS.nameAlone;

const robert: ContactInput = {
  firstName: 'Robert',
  lastName: 'Pérez',
  dateOfBirth: '1975-09-18',
  emails: ['robert.perez@example.com'],
  phones: ['(202) 555-0143'],
  addresses: [{ addressLine1: '1600 Pennsylvania Ave NW', city: 'Washington', stateOrProvince: 'DC', zipOrPostalCode: '20500-0003' }],
};

function indexOf(...people: ContactInput[]): ContactIndex {
  const index = new ContactIndex();
  people.forEach((p, i) => index.upsert(i + 1, p));
  return index;
}

describe('find: the contract rules', () => {
  it('matches nickname, case and accent variants with an agreeing email', () => {
    const r = indexOf(robert).find({ firstName: 'BOB', lastName: 'perez', emails: ['Robert.Perez@Example.com'] }, { explain: true });
    expect(r).toMatchObject({ decision: 'Matched', id: 1, reason: 'score' });
    expect(r.gates).toContain('firstName+lastName+email');
    expect(r.explanation.find((f) => f.field === 'firstName')?.level).toBe('nickname');
  });

  it('matches on first, last, zip5 and date of birth', () => {
    const r = indexOf(robert).find({ firstName: 'Robert', lastName: 'Perez', dateOfBirth: '09/18/1975', addresses: [{ zipOrPostalCode: '20500' }] });
    expect(r).toMatchObject({ decision: 'Matched', id: 1, gate: 'firstName+lastName+zip5+dateOfBirth' });
  });

  it('below the minimum combinations: no match, ever', () => {
    const r = indexOf(robert).find({ firstName: 'Robert', lastName: 'Perez', addresses: [{ zipOrPostalCode: '20500' }] });
    expect(r).toMatchObject({ decision: 'Unmatched', reason: 'below-minimum', gates: [] });
  });

  it('email alone is a minimum and can match', () => {
    expect(indexOf(robert).find({ emails: ['robert.perez@example.com'] })).toMatchObject({ decision: 'Matched', id: 1 });
  });

  it('household members sharing phone, email and address with different first names do not match', () => {
    const spouse: ContactInput = { ...robert, firstName: 'Maria', dateOfBirth: '1977-02-03' };
    const index = indexOf(robert);
    const r = index.find(spouse);
    expect(r.decision).toBe('Unmatched');
    expect(r.reason).toBe('criterion-disagrees');
    expect(index.find({ firstName: 'Maria', lastName: 'Perez', emails: ['robert.perez@example.com'] }).decision).toBe('Unmatched');
    expect(index.find({ firstName: 'Maria', lastName: 'Perez', phones: ['202-555-0143'] }).decision).toBe('Unmatched');
  });

  it('the same name with a different date of birth is not a match', () => {
    const r = indexOf(robert).find({ ...robert, dateOfBirth: '1948-01-30' });
    expect(r).toMatchObject({ decision: 'Unmatched', reason: 'criterion-disagrees' });
  });

  it('Jr and Sr are different people', () => {
    const index = indexOf({ ...robert, suffix: 'Sr' });
    expect(index.find({ ...robert, suffix: 'Jr.' }).decision).toBe('Unmatched');
    expect(index.find({ ...robert, lastName: 'Perez Jr' }).decision).toBe('Unmatched');
    expect(index.find({ ...robert, suffix: 'SR' }).decision).toBe('Matched');
  });

  it('external identifiers decide alone, case-insensitively', () => {
    const index = indexOf(
      { ...robert, identifiers: [{ type: 'dwid', externalId: 'AbC-123' }] },
      { firstName: 'Ann', lastName: 'Lee', emails: ['ann@lee.org'] },
    );
    expect(index.find({ identifiers: [{ type: 'DWID', externalId: 'abc-123' }] })).toMatchObject({ decision: 'Matched', id: 1, reason: 'identifier' });
    expect(index.find({ firstName: 'Ann', identifiers: [{ type: 'dwid', externalId: 'ABC-123' }] })).toMatchObject({ id: 1 });
  });

  it('a known record id decides alone; an unknown one is ignored', () => {
    const index = indexOf(robert, { firstName: 'Ann', lastName: 'Lee', emails: ['ann@lee.org'] });
    expect(index.find({ firstName: 'Zed' }, { id: 2 })).toMatchObject({ decision: 'Matched', id: 2, reason: 'id' });
    expect(index.find({ emails: ['ann@lee.org'] }, { id: 99 })).toMatchObject({ decision: 'Matched', id: 2, reason: 'score' });
  });

  it('Disable Partial Matching: nicknames do not count, folding still does', () => {
    const index = indexOf(robert);
    const bob = { firstName: 'Bob', lastName: 'Perez', emails: ['robert.perez@example.com'] };
    expect(index.find(bob, { strict: true }).decision).toBe('Unmatched');
    expect(index.find({ ...bob, firstName: 'ROBERT', lastName: 'PÉREZ' }, { strict: true }).decision).toBe('Matched');
    expect(new ContactIndex({ strict: true }).find(bob).decision).toBe('Unmatched');
  });

  it('ties go to the oldest (lowest) id, whatever the insertion order', () => {
    const index = new ContactIndex();
    index.upsert(7, robert);
    index.upsert(3, robert);
    index.upsert(5, robert);
    expect(index.find(robert).id).toBe(3);
  });

  it('explains every field when asked, and says which gate passed', () => {
    const r = indexOf(robert).find(robert, { explain: true });
    expect(r.gate).not.toBeNull();
    const total = r.explanation.reduce((s, f) => s + f.weight, 0);
    expect(total).toBeCloseTo(r.score, 6);
    for (const f of r.explanation) expect(f.label.length).toBeGreaterThan(0);
  });

  it('builds the explanation only when asked for: the same decision without it', () => {
    const index = indexOf(robert, { ...robert, firstName: 'Roberta', emails: [] });
    for (const q of [robert, { ...robert, firstName: 'Bob' }, { firstName: 'Robert', lastName: 'Perez' }, { ...robert, lastName: 'Smith' }] as ContactInput[]) {
      const { explanation, ...decided } = index.find(q, { explain: true });
      expect(index.find(q)).toEqual({ ...decided, explanation: [] });
      expect(index.find(q, { explain: false })).toEqual({ ...decided, explanation: [] });
      if (decided.explainedId !== null) expect(explanation.length).toBeGreaterThan(0);
    }
    expect(index.find(robert, { id: 2 }).explanation).toEqual([]);
    expect(index.find(robert, { id: 2, explain: true }).explanation.length).toBeGreaterThan(0);
  });

  it('updates and removes incrementally', () => {
    const index = indexOf(robert);
    index.upsert(1, { ...robert, emails: ['new@example.com'] });
    expect(index.find({ emails: ['robert.perez@example.com'] }).decision).toBe('Unmatched');
    expect(index.find({ emails: ['new@example.com'] }).id).toBe(1);
    expect(index.remove(1)).toBe(true);
    expect(index.size).toBe(0);
    expect(index.find({ emails: ['new@example.com'] }).reason).toBe('no-candidates');
  });

  it('a very common key does not make a lookup scan thousands of records', () => {
    const index = new ContactIndex({ maxBlockSize: 50 });
    for (let i = 1; i <= 3000; i++) index.upsert(i, { firstName: `Person${i}`, lastName: 'Smith', phones: ['202-555-0100'] });
    index.upsert(5000, { firstName: 'Robert', lastName: 'Smith', phones: ['202-555-0100'], emails: ['rs@example.com'] });
    const r = index.find({ firstName: 'Robert', lastName: 'Smith', phones: ['202-555-0100'], emails: ['rs@example.com'] });
    expect(r).toMatchObject({ decision: 'Matched', id: 5000 });
    expect(r.candidates).toBeLessThanOrEqual(50);
  });

  it('with the file keys, a row without a surname finds the records at its postal code; a named row looks up by its names', () => {
    // Without the name-alone keys, which find every Taylor of a small file whatever the postal code (below).
    const index = new ContactIndex({ keys: WITHOUT_NAME_ALONE });
    index.upsert(1, { firstName: 'Euphemia', lastName: 'Taylor', addresses: [{ zipOrPostalCode: 'OL9 7JU' }] });
    index.upsert(2, { firstName: 'John', lastName: 'Moss', addresses: [{ zipOrPostalCode: 'OL9 7JU' }] });
    index.upsert(3, { firstName: 'Ann', lastName: 'Taylor', addresses: [{ zipOrPostalCode: 'LS1 4AP' }] });
    const unnamed = index.normalize({ firstName: 'Mrs', lastName: 'Taylor', addresses: [{ zipOrPostalCode: 'OL9 7JU' }] });
    expect(index.candidateIds(unnamed).sort()).toEqual([1, 2]);
    const named = index.normalize({ firstName: 'Mary', lastName: 'Wood', addresses: [{ zipOrPostalCode: 'OL9 7JU' }] });
    expect(index.candidateIds(named)).toEqual([]);
    expect(blockingKeys(named, DEFAULT_NICKNAMES, undefined, FILE_KEYS)).toContain('z:ol97ju');
    // With them, the surname alone finds the other Taylor too (three records under it: selective).
    const all = new ContactIndex({ keys: FILE_KEYS });
    all.upsert(1, { firstName: 'Euphemia', lastName: 'Taylor', addresses: [{ zipOrPostalCode: 'OL9 7JU' }] });
    all.upsert(2, { firstName: 'John', lastName: 'Moss', addresses: [{ zipOrPostalCode: 'OL9 7JU' }] });
    all.upsert(3, { firstName: 'Ann', lastName: 'Taylor', addresses: [{ zipOrPostalCode: 'LS1 4AP' }] });
    expect(all.candidateIds(all.normalize({ firstName: 'Mrs', lastName: 'Taylor', addresses: [{ zipOrPostalCode: 'OL9 7JU' }] })).sort()).toEqual([1, 2, 3]);
  });

  it('with the file keys, a row with one name finds that name a year of birth either side; a named row does not', () => {
    const index = new ContactIndex({ keys: WITHOUT_NAME_ALONE });
    index.upsert(1, { firstName: 'Austin', lastName: 'Wright', dateOfBirth: '1993-03-27' });
    index.upsert(2, { firstName: 'Ann', lastName: 'Wright', dateOfBirth: '1995-01-02' });
    index.upsert(3, { firstName: 'Eve', lastName: 'Wright', dateOfBirth: '1994-12-30' });
    expect(index.candidateIds(index.normalize({ lastName: 'Wright', dateOfBirth: '1994-03-28' })).sort()).toEqual([1, 2, 3]);
    expect(index.candidateIds(index.normalize({ firstName: 'Zoe', lastName: 'Wright', dateOfBirth: '1994-03-28' }))).toEqual([3]);
  });

  it('with the file keys, a row that lost its postal code finds by its initials and town a record that kept one; rows with one do not look up by the town', () => {
    // Carol Owens shares only the initials and the town with the misread row (Christine's
    // record its city keys find too, through the names as OCR folds them).
    const index = new ContactIndex({ keys: WITHOUT_NAME_ALONE });
    index.upsert(1, { firstName: 'Christine', lastName: 'Olowson', addresses: [{ city: 'Washington', zipOrPostalCode: '20025' }] });
    index.upsert(2, { firstName: 'Carol', lastName: 'Owens', addresses: [{ city: 'Washington', zipOrPostalCode: '20011' }] });
    const lost = index.normalize({ firstName: 'Chr1stihe', lastName: 'Ol0wssom', addresses: [{ city: 'Washington' }] });
    expect(index.candidateIds(lost).sort()).toEqual([1, 2]);
    // Swapped names keep their sorted initials.
    expect(index.candidateIds(index.normalize({ firstName: 'Ol0wssom', lastName: 'Chr1stihe', addresses: [{ city: 'Washington' }] })).sort()).toEqual([1, 2]);
    // With a postal code of its own (here another one), the town is not looked up: a town holds many postal codes' people.
    const kept = index.normalize({ firstName: 'Chr1stihe', lastName: 'Ol0wssom', addresses: [{ city: 'Washington', zipOrPostalCode: '98101' }] });
    expect(index.candidateIds(kept)).not.toContain(2);
    const town = townPostalHashes(kept);
    expect(town).toHaveLength(1);
    expect(index.keyHashes(kept)).toContain(town[0]);
    expect(townPostalHashes(lost)).toEqual([]);
  });

  it('with the file keys, a row without a surname finds by its first initial and the start of its postal code a record whose postal code was mistyped; a named row does not', () => {
    const index = new ContactIndex({ keys: WITHOUT_NAME_ALONE });
    index.upsert(1, { firstName: 'Samuel', lastName: 'Doile', addresses: [{ zipOrPostalCode: 'E20 8Z', countryCode: 'GB' }] });
    index.upsert(2, { firstName: 'Sarah', lastName: 'Moss', addresses: [{ zipOrPostalCode: 'E20 1AA', countryCode: 'GB' }] });
    index.upsert(3, { firstName: 'Samuel', lastName: 'Reed', addresses: [{ zipOrPostalCode: 'LS1 4AP', countryCode: 'GB' }] });
    const noSurname = index.normalize({ firstName: 'Samuel', addresses: [{ zipOrPostalCode: 'E20 8EZ', countryCode: 'GB' }] });
    expect(index.candidateIds(noSurname)).toEqual(expect.arrayContaining([1, 2]));
    expect(index.candidateIds(noSurname)).not.toContain(3);
    const named = index.normalize({ firstName: 'Susan', lastName: 'Wood', addresses: [{ zipOrPostalCode: 'E20 8EZ', countryCode: 'GB' }] });
    expect(index.candidateIds(named)).toEqual([]);
  });

  it('the keys a named row does not look up by are filed keys of the record', () => {
    const index = new ContactIndex({ keys: FILE_KEYS });
    const c = index.normalize({ firstName: 'Ann', lastName: 'Lee', dateOfBirth: '1975-05-01', addresses: [{ zipOrPostalCode: 'LS1 4AP' }] });
    const filed = index.keyHashes(c);
    const skipped = unnamedHashes(c);
    expect(skipped).toHaveLength(6);
    for (const h of skipped) expect(filed).toContain(h);
  });
});

// Small random people over small value pools, so that blocking keys collide often.
const FIRST = ['Robert', 'Bob', 'Maria', 'María', 'John', 'Jon', 'Liz', 'Elizabeth', 'Ann'];
const LAST = ['Pérez', 'Perez', 'Smith', 'Smyth', 'Lee', "O'Brien", 'García-López'];
const DOB = ['1975-09-18', '1975-09-19', '1980-01-02', '2001-12-31'];
const ZIP = ['20500', '20500-1234', '10001', '94110'];
const EMAIL = ['a@x.com', 'b@y.org', 'bob.perez@gmail.com'];
const PHONE = ['202-555-0143', '(212) 555-0199'];
const opt = <T>(xs: readonly T[]) => fc.option(fc.constantFrom(...xs), { nil: undefined });
const person = fc.record({
  firstName: opt(FIRST),
  lastName: opt(LAST),
  dateOfBirth: opt(DOB),
  emails: fc.subarray(EMAIL, { maxLength: 2 }),
  phones: fc.subarray(PHONE, { maxLength: 1 }),
  addresses: fc.option(
    fc.constantFrom(...ZIP).map((zip) => [{ addressLine1: '12 Main Street', zipOrPostalCode: zip }]),
    { nil: [] },
  ),
}) as fc.Arbitrary<ContactInput>;

describe('index properties', () => {
  it('candidate retrieval agrees with a brute-force scan (the oracle)', () => {
    fc.assert(
      fc.property(fc.array(person, { maxLength: 30 }), person, (people, query) => {
        const index = new ContactIndex({ maxBlockSize: 10_000, maxCandidates: 10_000, selectiveBlockSize: Infinity });
        people.forEach((p, i) => index.upsert(i, p));
        const q = index.normalize(query);
        const qKeys = new Set(blockingKeys(q, DEFAULT_NICKNAMES));
        const expected = people.map((_, i) => i).filter((i) => blockingKeys(index.get(i)!, DEFAULT_NICKNAMES).some((k) => qKeys.has(k)));
        expect(new Set(index.candidateIds(q))).toEqual(new Set(expected));
      }),
      { numRuns: 200 },
    );
  });

  it('count filtering keeps every record under a selective key or under two keys (the oracle)', () => {
    fc.assert(
      fc.property(fc.array(person, { maxLength: 40 }), person, fc.integer({ min: 1, max: 6 }), (people, query, selective) => {
        const index = new ContactIndex({ maxBlockSize: 10_000, maxCandidates: 10_000, selectiveBlockSize: selective });
        people.forEach((p, i) => index.upsert(i, p));
        const q = index.normalize(query);
        const qKeys = blockingKeys(q, DEFAULT_NICKNAMES);
        const filed = (key: string) => people.filter((_, i) => blockingKeys(index.get(i)!, DEFAULT_NICKNAMES).includes(key)).length;
        const hits = people.map((_, i) => {
          const keys = blockingKeys(index.get(i)!, DEFAULT_NICKNAMES).filter((k) => qKeys.includes(k));
          return keys.reduce((n, k) => n + (filed(k) <= selective ? 2 : 1), 0);
        });
        const strong = hits.map((n, i) => (n >= 2 ? i : -1)).filter((i) => i >= 0);
        const any = hits.map((n, i) => (n >= 1 ? i : -1)).filter((i) => i >= 0);
        expect(new Set(index.candidateIds(q))).toEqual(new Set(strong.length > 0 ? strong : any));
      }),
      { numRuns: 200 },
    );
  });

  it("unordered selection (a dedupe's first pass) gives the ordered selection's ids, under and over maxCandidates", () => {
    fc.assert(
      fc.property(fc.array(person, { maxLength: 40 }), person, fc.integer({ min: 1, max: 12 }), (people, query, cap) => {
        const index = new ContactIndex({ maxCandidates: cap, selectiveBlockSize: 3 });
        people.forEach((p, i) => index.upsert(i, p));
        const q = index.normalize(query);
        const ordered = index.candidateIds(q);
        expect([...index.candidateIds(q, undefined, false, false)].sort((a, b) => a - b)).toEqual([...ordered].sort((a, b) => a - b));
      }),
      { numRuns: 200 },
    );
  });

  it('incremental updates give the same answers as a fresh build', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('upsert' as const), id: fc.integer({ min: 0, max: 9 }), p: person }),
      fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 0, max: 9 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), person, (ops, query) => {
        const live = new ContactIndex();
        const state = new Map<number, ContactInput>();
        for (const o of ops) {
          if (o.kind === 'upsert') {
            live.upsert(o.id, o.p);
            state.set(o.id, o.p);
          } else {
            live.remove(o.id);
            state.delete(o.id);
          }
        }
        const fresh = new ContactIndex();
        for (const [id, p] of [...state].sort((a, b) => a[0] - b[0])) fresh.upsert(id, p);
        const a = live.find(query);
        const b = fresh.find(query);
        expect({ d: a.decision, id: a.id, s: a.score }).toEqual({ d: b.decision, id: b.id, s: b.score });
      }),
      { numRuns: 200 },
    );
  });

  it('an index rebuilt from its exported state (structured clone) answers the same, and stays updatable', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('upsert' as const), id: fc.integer({ min: 0, max: 9 }), p: person }),
      fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 0, max: 9 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.array(person, { minLength: 1, maxLength: 5 }), person, (ops, queries, later) => {
        const original = new ContactIndex();
        for (const o of ops)
          if (o.kind === 'upsert') original.upsert(o.id, o.p);
          else original.remove(o.id);
        const copy = new ContactIndex();
        copy.importState(structuredClone(original.exportState()));
        // A received state (the structured clone is the receiver's own) can be taken as it is.
        const adopted = new ContactIndex();
        adopted.importState(structuredClone(original.exportState()), true);
        for (const c of [copy, adopted]) {
          expect(c.size).toBe(original.size);
          for (let id = 0; id <= 9; id++) expect(c.get(id)).toEqual(original.get(id));
          for (const q of queries) expect(c.find(q)).toEqual(original.find(q));
        }
        // All go on independently.
        for (const c of [original, copy, adopted]) {
          c.upsert(3, later);
          c.remove(5);
        }
        for (const q of queries) {
          expect(copy.find(q)).toEqual(original.find(q));
          expect(adopted.find(q)).toEqual(original.find(q));
        }
      }),
      { numRuns: 150 },
    );
    expect(() => new ContactIndex().importState({ ...new ContactIndex().exportState(), version: 99 })).toThrow(/version/);
  });

  it('find is invariant under case and accent changes of the candidate', () => {
    const accent: Record<string, string> = { a: 'á', e: 'é', o: 'ö', u: 'ü', n: 'ñ', c: 'ç' };
    const mangle = (s: string | null | undefined, seed: number): string | null | undefined =>
      s == null
        ? s
        : Array.from(s)
            .map((ch, i) => ((seed >> (i % 16)) & 1 ? (accent[ch] ?? ch).toUpperCase() : ch))
            .join('');
    fc.assert(
      fc.property(fc.array(person, { minLength: 1, maxLength: 20 }), person, fc.integer(), (people, query, seed) => {
        const index = new ContactIndex();
        people.forEach((p, i) => index.upsert(i, p));
        const changed = { ...query, firstName: mangle(query.firstName, seed), lastName: mangle(query.lastName, seed >> 3) };
        const a = index.find(query);
        const b = index.find(changed);
        expect({ d: b.decision, id: b.id }).toEqual({ d: a.decision, id: a.id });
        expect(b.score).toBeCloseTo(a.score, 9);
      }),
      { numRuns: 200 },
    );
  });

  it('identifier matching is case-insensitive', () => {
    const id = fc.string({ unit: fc.constantFrom(...'abcXYZ019-_É'.split('')), minLength: 1, maxLength: 12 }).filter((x) => x.trim().length > 0);
    const flip = (x: string, mask: number) =>
      Array.from(x)
        .map((ch, i) => ((mask >> (i % 20)) & 1 ? ch.toUpperCase() : ch.toLowerCase()))
        .join('');
    fc.assert(
      fc.property(id, fc.constantFrom('dwid', 'votercrmid', 'Vendor'), fc.integer(), fc.integer(), (externalId, type, m1, m2) => {
        const index = new ContactIndex();
        index.upsert(42, { identifiers: [{ type: flip(type, m1), externalId: flip(externalId, m1) }] });
        index.upsert(7, { firstName: 'Other', lastName: 'Person', emails: ['other@example.com'] });
        const r = index.find({ identifiers: [{ type: flip(type, m2), externalId: flip(externalId, m2) }] });
        expect(r).toMatchObject({ decision: 'Matched', id: 42, reason: 'identifier' });
      }),
      { numRuns: 300 },
    );
  });

  it('scores are symmetric without term frequencies, and find is deterministic', () => {
    fc.assert(
      fc.property(person, person, (x, y) => {
        const ix = new ContactIndex({ termFrequencies: false });
        ix.upsert(1, x);
        const iy = new ContactIndex({ termFrequencies: false });
        iy.upsert(1, y);
        const sx = ix.explain(iy.get(1)!, 1).reduce((s, f) => s + f.weight, 0);
        const sy = iy.explain(ix.get(1)!, 1).reduce((s, f) => s + f.weight, 0);
        expect(sx).toBeCloseTo(sy, 9);
      }),
      { numRuns: 300 },
    );
  });
});

describe('ContactIndex.relayoutForLookups', () => {
  const options = [{}, { keys: FILE_KEYS, termFrequencies: 'all' as const, maxBlockSize: 4, selectiveBlockSize: 2, maxCandidates: 6 }];

  it('answers every lookup as before, and lists every record once, by sound of the surname', () => {
    fc.assert(
      fc.property(fc.array(person, { maxLength: 40 }), fc.array(person, { maxLength: 8 }), fc.constantFrom(...options), (people, replaced, opts) => {
        const index = new ContactIndex(opts);
        const plain = new ContactIndex(opts);
        for (const i of [index, plain]) {
          people.forEach((p, k) => i.upsert(k, p));
          replaced.forEach((p, k) => k < people.length && i.upsert(k, p));
        }
        const ids = index.relayoutForLookups();
        expect([...ids].sort((a, b) => a - b)).toEqual(people.map((_, k) => k));
        // Records with the same surname are side by side.
        const lasts = [...ids].map((id) => index.get(id)?.last ?? null);
        expect(lasts.filter((x, k) => k > 0 && x !== lasts[k - 1]).length).toBe(Math.max(0, new Set(lasts).size - 1));
        for (let id = 0; id < people.length; id++) {
          const q = plain.get(id)!;
          expect(index.get(id)).toEqual(q);
          expect(index.candidateIds(q, id)).toEqual(plain.candidateIds(q, id));
          expect(index.findAll(q, { excludeId: id })).toEqual(plain.findAll(q, { excludeId: id }));
          expect(index.findNormalized(q)).toEqual(plain.findNormalized(q));
        }
        // Updates go on as before.
        for (const i of [index, plain]) {
          i.upsert(people.length, replaced[0] ?? robert);
          i.remove(0);
        }
        for (const p of replaced) expect(index.find(p)).toEqual(plain.find(p));
      }),
      { numRuns: 150 },
    );
  });

  it('deferred keys (deferKeys, then fileDeferredKeys) give the same index; meanwhile lookups and removals refuse', () => {
    fc.assert(
      fc.property(fc.array(person, { maxLength: 40 }), fc.array(person, { maxLength: 5 }), fc.constantFrom(...options), (people, queries, opts) => {
        const deferred = new ContactIndex(opts);
        const plain = new ContactIndex(opts);
        deferred.deferKeys();
        people.forEach((p, k) => {
          deferred.upsert(k, p);
          plain.upsert(k, p);
        });
        if (people.length > 0) {
          expect(() => deferred.candidateIds(deferred.normalize(people[0]!))).toThrow(/deferred/);
          expect(() => deferred.remove(0)).toThrow(/deferred/);
          expect(() => deferred.upsert(0, people[0]!)).toThrow(/deferred/);
          expect(() => deferred.exportState()).toThrow(/deferred/);
        }
        deferred.fileDeferredKeys();
        for (const q of [...people, ...queries]) expect(deferred.find(q)).toEqual(plain.find(q));
        for (let id = 0; id < people.length; id++) {
          const q = plain.get(id)!;
          expect(deferred.findAll(q, { excludeId: id })).toEqual(plain.findAll(q, { excludeId: id }));
        }
        expect(deferred.exportState().postings.liveKeys).toBe(plain.exportState().postings.liveKeys);
      }),
      { numRuns: 150 },
    );
  });

  it('kept keys (deferKeys(true)) give indexed lookups the same answers, in a relaid index, its copy, and after changes', () => {
    fc.assert(
      fc.property(fc.array(person, { maxLength: 40 }), fc.array(person, { maxLength: 4 }), fc.constantFrom(...options), (people, changes, opts) => {
        const kept = new ContactIndex(opts);
        const plain = new ContactIndex(opts);
        kept.deferKeys(true);
        plain.deferKeys();
        people.forEach((p, k) => {
          kept.upsert(k, p);
          plain.upsert(k, p);
        });
        kept.relayoutForLookups();
        plain.relayoutForLookups();
        expect(kept.exportState().filedKeys?.keys.length).toBe(people.reduce((n, _, k) => n + kept.keyHashes(kept.get(k)!).length, 0));
        const copy = new ContactIndex(opts);
        copy.importState(kept.exportState());
        const same = (): void => {
          for (let id = 0; id < people.length; id++) {
            const q = plain.get(id);
            if (q === undefined) continue;
            const expected = plain.findAll(q, { excludeId: id });
            expect(kept.findAll(q, { excludeId: id, indexed: true })).toEqual(expected);
            expect(copy.findAll(q, { excludeId: id, indexed: true })).toEqual(expected);
          }
        };
        same();
        // A replaced or removed record drops the kept keys: lookups compute them again.
        changes.forEach((p, k) => {
          for (const i of [kept, copy, plain]) {
            if (k % 2 === 0) i.upsert(k, p);
            else i.remove(k);
          }
        });
        same();
      }),
      { numRuns: 100 },
    );
  });

  it('sent in two parts (records before their keys are filed, then the keys), gives the same index: lookups, order and answers', () => {
    fc.assert(
      fc.property(fc.array(person, { maxLength: 40 }), fc.constantFrom(...options), (people, opts) => {
        const builder = new ContactIndex(opts);
        builder.deferKeys(true);
        people.forEach((p, k) => builder.upsert(k, p));
        // The records can be sent while the keys are deferred; the receiver lays them out itself.
        const records = structuredClone(builder.exportRecords());
        const order = builder.relayoutForLookups();
        const copy = new ContactIndex(opts);
        copy.importState(records, true);
        for (let id = 0; id < people.length; id++) expect(copy.get(id)).toEqual(builder.get(id));
        expect(copy.relayoutForLookups()).toEqual(order);
        copy.importKeys(structuredClone(builder.exportKeys()), true);
        if (builder.exportKeys().postings.liveKeys > 0) expect(() => copy.importKeys(builder.exportKeys())).toThrow(/no keys/);
        for (let id = 0; id < people.length; id++) {
          const q = builder.get(id)!;
          expect(copy.findAll(q, { excludeId: id, indexed: true })).toEqual(builder.findAll(q, { excludeId: id, indexed: true }));
          expect(copy.indexedCandidateIds(id, false)).toEqual(builder.indexedCandidateIds(id, false));
        }
      }),
      { numRuns: 100 },
    );
  });

  it('refuses an index records were removed from', () => {
    const index = indexOf(robert, { ...robert, firstName: 'Maria' });
    index.remove(1);
    expect(() => index.relayoutForLookups()).toThrow(/free/);
  });
});

describe('ContactIndex memory', () => {
  it('lookups do not grow the index (names never indexed are not cached)', () => {
    const index = new ContactIndex();
    index.upsert(1, { firstName: 'Robert', lastName: 'Pérez', emails: ['bob@example.com'] });
    const before = index.exportState().sounds.size;
    for (let i = 0; i < 500; i++) index.find({ firstName: `Zq${i}x`, lastName: `Wv${i}k`, emails: ['bob@example.com'] });
    expect(index.exportState().sounds.size).toBe(before);
    expect(index.find({ firstName: 'Bob', lastName: 'PEREZ', emails: ['Bob@Example.com'] }).id).toBe(1);
  });
});

describe('ContactIndex.firstNameCount and peek', () => {
  it('counts a first name by its compact form, and peek reads a record as get does', () => {
    const index = new ContactIndex();
    index.upsert(1, {
      firstName: 'Mary Ann',
      lastName: 'Lee',
      emails: ['ma@example.com'],
      addresses: [{ addressLine1: '1 Main St', zipOrPostalCode: '20500' }],
    });
    index.upsert(2, { firstName: 'Mary-Ann', lastName: 'Leigh' });
    index.upsert(3, { firstName: 'Ann', lastName: 'Lee' });
    const stored = index.get(1);
    expect(stored?.first).toBe('mary ann');
    expect(index.firstNameCount('mary ann')).toBe(2);
    expect(index.firstNameCount('ann')).toBe(1);
    expect(index.firstNameCount('zoe')).toBe(0);
    const peeked = index.peek(1);
    expect({
      ...peeked,
      emails: peeked?.emails,
      phones: peeked?.phones,
      addresses: peeked?.addresses,
      identifiers: peeked?.identifiers,
      attributes: peeked?.attributes,
    }).toMatchObject(stored as object);
    expect(index.peek(3)?.first).toBe('ann');
    expect(index.peek(99)).toBeUndefined();
  });
});

describe('hooks for a store that holds the keys (database retrieval)', () => {
  it('find with the candidates it would select gives the same answer; keyHashes are the hashes it looks up by', () => {
    fc.assert(
      fc.property(fc.array(person, { maxLength: 30 }), person, fc.boolean(), (people, query, strict) => {
        const index = new ContactIndex({ maxBlockSize: 4, selectiveBlockSize: 2, maxCandidates: 6 });
        people.forEach((p, i) => index.upsert(i + 1, p));
        const q = index.normalize(query);
        const ids = index.candidateIds(q);
        expect(index.findNormalized(q, { strict, candidates: ids })).toEqual(index.findNormalized(q, { strict }));
        expect(index.keyHashes(q)).toEqual(blockingHashes(q, DEFAULT_NICKNAMES));
        expect(index.selectionLimits).toEqual({ maxBlockSize: 4, selectiveBlockSize: 2, maxCandidates: 6 });
      }),
      { numRuns: 150 },
    );
  });

  it("candidates not indexed are skipped; termCounts replace the index's own name counts", () => {
    const counts = { total: 1_000_000, firstNameCount: () => 0, lastNameCount: () => 0 };
    const rare = new ContactIndex({ termCounts: counts });
    const own = new ContactIndex();
    for (const index of [rare, own]) index.upsert(1, robert);
    const q = rare.normalize(robert);
    expect(rare.findNormalized(q, { candidates: [99, 1] }).id).toBe(1);
    expect(rare.findNormalized(q, { candidates: [99] })).toMatchObject({ decision: 'Unmatched', reason: 'no-candidates' });
    // A name nobody else has among a million weighs more than the same name as 1 of 1.
    const weight = (index: ContactIndex) => index.findNormalized(q, { explain: true }).explanation.find((f) => f.field === 'lastName')?.weight ?? 0;
    expect(weight(rare)).toBeGreaterThan(weight(own));
  });

  it('with the counts of files (termFrequencies all), names and their variants weigh against the records the index holds', () => {
    const names = new ContactIndex({ termFrequencies: true });
    const all = new ContactIndex({ termFrequencies: 'all' });
    for (const index of [names, all]) {
      index.upsert(1, robert);
      for (let i = 2; i <= 3000; i++) index.upsert(i, { firstName: `Ann${i % 50}`, lastName: 'Smith', dateOfBirth: '1970-01-01' });
    }
    const lastNameWeight = (index: ContactIndex, query: ContactInput, id: number) =>
      index.explain(index.normalize(query), id).find((f) => f.field === 'lastName')?.weight ?? NaN;
    const smith = { firstName: 'Ann7', lastName: 'Smith', dateOfBirth: '1970-01-01' };
    expect(lastNameWeight(all, robert, 1)).toBe(lastNameWeight(names, robert, 1));
    // Counting every name, the index adjusts the typo and swapped levels too, so they no longer
    // floor exact agreement: a surname held by 2999 of 3000 weighs less than with names alone.
    expect(lastNameWeight(all, smith, 7)).toBeLessThan(lastNameWeight(names, smith, 7) - 3);
    // Held by one record of 3000, Pérez weighs more than Smith, held by 2999.
    expect(lastNameWeight(all, robert, 1)).toBeGreaterThan(lastNameWeight(all, smith, 7));
  });
});

describe("ContactIndex.setPairHolders (files: a phone held by the pair's person's own rows)", () => {
  it('a phone held by three rows weighs, once a person counts three rows, as one nobody else holds', () => {
    const phone = '312-939-5063';
    const index = new ContactIndex({ termFrequencies: 'all' });
    const alone = new ContactIndex({ termFrequencies: 'all' });
    for (const i of [index, alone]) i.setPairHolders(2);
    for (const i of [index, alone])
      for (let k = 10; k < 3000; k++) i.upsert(k, { firstName: `Ann${k % 50}`, lastName: `Smith${k}`, phones: [`312-939-${String(1000 + k).slice(-4)}`] });
    // The pair (rows 1 and 2) and a third row of the same person hold the phone in `index`; only the pair in `alone`.
    for (const i of [index, alone]) {
      i.upsert(1, { firstName: 'Ada', lastName: 'Byron', phones: [phone] });
      i.upsert(2, { phones: [phone] });
    }
    index.upsert(3, { firstName: 'Ada', lastName: 'Byron', emails: ['ada@example.org'], phones: [phone] });
    alone.upsert(3, { firstName: 'Ada', lastName: 'Byron', emails: ['ada@example.org'], phones: ['312-939-0999'] });
    const phoneWeight = (i: ContactIndex): number => i.explain(i.get(2)!, 1).find((f) => f.field === 'phone')?.weight ?? NaN;
    const before = phoneWeight(index);
    expect(before).toBeLessThan(phoneWeight(alone));
    index.setPairHolders(3);
    expect(phoneWeight(index)).toBeGreaterThan(before);
    expect(phoneWeight(index)).toBeCloseTo(phoneWeight(alone), 9);
  });
});

describe('find: name counts kept by the names forms', () => {
  it('scores after writes as an index built with those writes does (no stale counts)', () => {
    const namesake = (i: number): ContactInput => ({ firstName: 'Robert', lastName: 'Pérez', emails: [`r${i}@example.org`] });
    const query: ContactInput = { firstName: 'Robert', lastName: 'Perez', emails: ['robert.perez@example.com'] };
    const index = indexOf(robert);
    const before = index.find(query).score;
    for (let i = 0; i < 50; i++) index.upsert(100 + i, namesake(i));
    const after = index.find(query).score;
    const fresh = indexOf(robert);
    for (let i = 0; i < 50; i++) fresh.upsert(100 + i, namesake(i));
    expect(after).toBe(fresh.find(query).score);
    expect(after).toBeLessThan(before);
    for (let i = 0; i < 50; i++) index.remove(100 + i);
    expect(index.find(query).score).toBe(before);
  });
});

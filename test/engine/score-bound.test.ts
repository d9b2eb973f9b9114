/**
 * Scoring with a floor (score-bound.ts): a pair is dropped only when its full score is below
 * the floor, and a pair that is not dropped gets exactly its full score.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileModel,
  DEFAULT_MODEL,
  DEFAULT_NICKNAMES,
  FILE_MODEL,
  makeScoreContext,
  normalizeContact,
  scorePair,
  type ContactInput,
  type MatchModel,
  type NormalizedContact,
  type TermFrequencies,
} from '../../src/engine/index.js';

const NORMALIZE = { years: { min: 1000, max: 2100 }, yearOnlyDates: true, localPhones: true } as const;
const norm = (c: ContactInput): NormalizedContact => normalizeContact(c, NORMALIZE);

const first = fc.constantFrom('Robert', 'Bob', 'Roberta', 'Mary', 'Maria', 'Jon', 'J', null);
const last = fc.constantFrom('Smith', 'Smyth', 'Jones', 'Garcia Lopez', null);
const dob = fc.constantFrom('1970-03-04', '1970-04-03', '1971-03-04', '1970', '1990-01-01', null);
const email = fc.constantFrom('bob@example.com', 'bob@example.co', 'rs@example.org', 'info@acme.com');
const phone = fc.constantFrom('202-555-0143', '202-555-0144', '555-0143');
const line = fc.constantFrom('12 Main St', '14 Main St', '12 Main Street', '9 Oak Ave', 'GENERAL DELIVERY');
const zip = fc.constantFrom('20500', '20501', '90210');
const contact: fc.Arbitrary<ContactInput> = fc.record({
  firstName: first,
  middleName: fc.constantFrom('Ann', 'A', null),
  lastName: last,
  dateOfBirth: dob,
  sex: fc.constantFrom('M', 'F', null),
  emails: fc.array(email, { maxLength: 2 }),
  phones: fc.array(phone, { maxLength: 2 }),
  addresses: fc.array(fc.record({ addressLine1: line, zipOrPostalCode: zip, city: fc.constantFrom('Springfield', 'Salem', 'Salam') }), { maxLength: 2 }),
  identifiers: fc.array(fc.record({ type: fc.constant('ssn'), externalId: fc.constantFrom('123456781', '123456782', '987654300') }), { maxLength: 1 }),
  attributes: fc.array(fc.constantFrom('Acme', 'Acme Inc', 'Zenith', null), { minLength: 1, maxLength: 1 }),
});

/** Every value is rare: exact agreement gets the most term frequencies can give. */
const rare: TermFrequencies = {
  total: 1_000_000,
  firstNameCount: () => 0,
  lastNameCount: () => 0,
  cityCount: () => 0,
  attributeCount: () => 0,
  emailCount: () => 0,
  phoneCount: () => 1,
};
/** Some values are common. */
const mixed: TermFrequencies = {
  total: 1000,
  firstNameCount: (name) => (name === 'robert' ? 300 : 2),
  lastNameCount: (name) => (name === 'smith' ? 400 : 3),
  cityCount: () => 500,
  attributeCount: () => 40,
  emailCount: (e) => (e.startsWith('info@') ? 200 : 2),
  phoneCount: () => 2,
};

const WITH_ATTRIBUTE = (model: MatchModel): MatchModel => ({
  ...model,
  prior: 0.0001,
  attributes: [{ name: 'employer', levels: { exact: { m: 0.6, u: 0.01 }, 'fuzzy-high': { m: 0.1, u: 0.02 }, disagree: { m: 0.3, u: 0.97 } } }],
});

describe('scoring with a floor', () => {
  it.each([
    ['the file model (household group, whole addresses)', WITH_ATTRIBUTE(FILE_MODEL), rare],
    ['the file model, mixed term frequencies', WITH_ATTRIBUTE(FILE_MODEL), mixed],
    ["the file model, mixed term frequencies without the pair's own holders", WITH_ATTRIBUTE(FILE_MODEL), { ...mixed, pairHolders: 2 }],
    ['the CRM model (address parts, vetoes)', WITH_ATTRIBUTE(DEFAULT_MODEL), mixed],
    ['the file model without term frequencies', WITH_ATTRIBUTE(FILE_MODEL), null],
  ] as const)('%s: drops a pair only below the floor, and scores the rest in full', (_, model, tf) => {
    const base = makeScoreContext({ compiled: compileModel(model), nicknames: DEFAULT_NICKNAMES, strict: false, tf });
    // Floors anywhere, and floors just around the pair's own score (where a bound too low shows).
    const offset = fc.oneof(
      fc.double({ min: -40, max: 60, noNaN: true }).map((x) => ({ at: x, near: false })),
      fc.double({ min: -0.5, max: 0.5, noNaN: true }).map((x) => ({ at: x, near: true })),
    );
    fc.assert(
      fc.property(contact, contact, offset, (q, r, o) => {
        const a = norm(q);
        const b = norm(r);
        const full = scorePair(a, b, base);
        const floor = o.near ? full.score + o.at : o.at;
        const floored = scorePair(a, b, { ...base, floor });
        if (floored.belowFloor) expect(full.score).toBeLessThan(floor);
        else {
          expect(floored.score).toBe(full.score);
          expect(floored.agreeMask).toBe(full.agreeMask);
          expect(floored.cappedBy).toBe(full.cappedBy);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('stops at the floor for a namesake that differs on everything the record has', () => {
    const base = makeScoreContext({ compiled: compileModel({ ...FILE_MODEL, prior: 1e-6 }), nicknames: DEFAULT_NICKNAMES, strict: false, tf: null });
    const a = norm({ firstName: 'Mary', lastName: 'Jones', dateOfBirth: '1970-03-04', middleName: 'Ann' });
    const b = norm({ firstName: 'Robert', lastName: 'Jones', dateOfBirth: '1991-11-30', middleName: 'Lee' });
    const s = scorePair(a, b, { ...base, floor: -4 });
    expect(s.belowFloor).toBe(true);
    expect(scorePair(a, b, base).score).toBeLessThan(-4);
  });
});

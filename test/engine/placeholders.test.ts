/**
 * Placeholders ("Unknown", "Baby Boy", "John Doe", none@none.com, 000-00-0000, GENERAL
 * DELIVERY) are read as missing: two records that share nothing but placeholders are never
 * linked, and adding a placeholder to a pair never changes its score. A value many people
 * share (an office's info@) cannot link two records on its own. The generated table matches
 * data/placeholders/placeholders.csv.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PLACEHOLDERS_PATH, readPlaceholderSource, renderPlaceholderModule } from '../../data/build-placeholders.js';
import {
  compileModel,
  DEFAULT_MODEL,
  DEFAULT_NICKNAMES,
  DEFAULT_PLACEHOLDERS,
  DEFAULT_THRESHOLDS,
  FILE_MODEL,
  isPlaceholderEmail,
  isSharedEmail,
  makeScoreContext,
  normalizeContact,
  scorePair,
  type ContactInput,
  type MatchModel,
  type NormalizedContact,
  type TermFrequencies,
} from '../../src/engine/index.js';
import { PLACEHOLDER_VALUES } from '../../src/engine/generated/placeholders.js';

const NORMALIZE = { years: { min: 1000, max: 2100 }, yearOnlyDates: true, localPhones: true } as const;
const norm = (c: ContactInput): NormalizedContact => normalizeContact(c, NORMALIZE);
const FILE: MatchModel = { ...FILE_MODEL, prior: 0.001 };
const score = (model: MatchModel, a: ContactInput, b: ContactInput, tf: TermFrequencies | null = null): number =>
  scorePair(norm(a), norm(b), makeScoreContext({ compiled: compileModel(model), nicknames: DEFAULT_NICKNAMES, strict: false, tf })).score;

const values = (kind: string): readonly string[] => PLACEHOLDER_VALUES[kind] ?? [];

/** Placeholder values as a form would hold them, drawn from the shipped list. */
const placeholderFirst = fc.constantFrom(...values('first'));
const placeholderLast = fc.constantFrom(...values('last'));
const placeholderName = fc.constantFrom(...values('name')).map((n) => {
  const space = n.indexOf(' ');
  return { firstName: n.slice(0, space), lastName: n.slice(space + 1) };
});
const placeholderEmail = fc.oneof(
  fc
    .constantFrom(...values('email-local'))
    .filter((l) => !l.includes(' '))
    .map((l) => `${l}@gmail.com`),
  fc.constantFrom(...values('email-domain')).map((d) => `someone@${d}`),
);
const placeholderPhone = fc.constantFrom(...values('phone').filter((p) => p.length === 10)).map((p) => `${p.slice(0, 3)}-${p.slice(3, 6)}-${p.slice(6)}`);
const placeholderSsn = fc.constantFrom(...values('identifier').filter((v) => v.length === 9));
const placeholderStreet = fc.constantFrom(...values('address'));
const placeholderDate = fc.constantFrom(...values('date'));

/** A real person's fields, from small sets so that pairs often agree. */
const real: fc.Arbitrary<ContactInput> = fc.record({
  firstName: fc.constantFrom('Robert', 'Mary', 'Ann', null),
  lastName: fc.constantFrom('Smith', 'Okafor', null),
  dateOfBirth: fc.constantFrom('1970-03-04', '1988-11-02', null),
  emails: fc.array(fc.constantFrom('mary@example.com', 'rs@example.org'), { maxLength: 1 }),
  phones: fc.array(fc.constantFrom('202-555-0143', '415-555-0199'), { maxLength: 1 }),
  addresses: fc.array(fc.record({ addressLine1: fc.constantFrom('12 Main St', '9 Oak Ave'), zipOrPostalCode: fc.constantFrom('20500', '90210') }), {
    maxLength: 1,
  }),
});

/** Placeholders put into a contact's empty fields (a name only where it has none). */
interface Filler {
  readonly name: { firstName?: string; lastName?: string };
  readonly email: string | null;
  readonly phone: string | null;
  readonly ssn: string | null;
  readonly street: string | null;
  readonly dob: string | null;
}
const filler: fc.Arbitrary<Filler> = fc.record({
  name: fc.oneof(
    placeholderName,
    placeholderFirst.map((firstName) => ({ firstName })),
    placeholderLast.map((lastName) => ({ lastName })),
    fc.constant({}),
  ),
  email: fc.option(placeholderEmail, { nil: null }),
  phone: fc.option(placeholderPhone, { nil: null }),
  ssn: fc.option(placeholderSsn, { nil: null }),
  street: fc.option(placeholderStreet, { nil: null }),
  dob: fc.option(placeholderDate, { nil: null }),
});

function fill(c: ContactInput, f: Filler): ContactInput {
  const named = c.firstName != null || c.lastName != null;
  return {
    ...c,
    ...(named ? {} : f.name),
    ...(c.dateOfBirth == null && f.dob !== null ? { dateOfBirth: f.dob } : {}),
    emails: [...(c.emails ?? []), ...(f.email === null ? [] : [f.email])],
    phones: [...(c.phones ?? []), ...(f.phone === null ? [] : [f.phone])],
    identifiers: f.ssn === null ? [] : [{ type: 'ssn', externalId: f.ssn }],
    addresses: f.street === null ? (c.addresses ?? []) : [...(c.addresses ?? []), { addressLine1: f.street, city: 'Springfield', zipOrPostalCode: '20500' }],
  };
}

/** The same contact without what `fill` added as placeholders, but with the locality of a placeholder street kept. */
function withoutFill(c: ContactInput, f: Filler): ContactInput {
  return {
    ...c,
    identifiers: [],
    addresses: f.street === null ? (c.addresses ?? []) : [...(c.addresses ?? []), { city: 'Springfield', zipOrPostalCode: '20500' }],
  };
}

describe('placeholders', () => {
  it('the generated table matches data/placeholders/placeholders.csv (run `npm run gen:tables` after editing it)', () => {
    expect(readFileSync(PLACEHOLDERS_PATH, 'utf8')).toBe(renderPlaceholderModule(readPlaceholderSource()));
  });

  it('are read as missing: a record of placeholders alone has no name, date of birth, email, phone, identifier or street', () => {
    fc.assert(
      fc.property(filler, (f) => {
        const n = norm(fill({}, f));
        expect(n.first).toBeNull();
        expect(n.last).toBeNull();
        expect(n.dob).toBeNull();
        expect(n.emails).toEqual([]);
        expect(n.phones).toEqual([]);
        expect(n.identifiers).toEqual([]);
        expect(n.addresses.every((a) => a.street === null && a.number === null)).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(DEFAULT_PLACEHOLDERS.addresses.has('general delivery')).toBe(true);
  });

  it.each([
    ['the CRM model', DEFAULT_MODEL],
    ['the file model', FILE],
  ] as const)('%s: the same placeholders added to both records of a pair never change its score', (_, model) => {
    fc.assert(
      fc.property(real, real, filler, filler, fc.boolean(), (a, b, fa, fb, same) => {
        const fb2 = same ? fa : fb;
        const withPlaceholders = score(model, fill(a, fa), fill(b, fb2));
        const without = score(model, withoutFill(a, fa), withoutFill(b, fb2));
        expect(withPlaceholders).toBeCloseTo(without, 9);
      }),
      { numRuns: 400 },
    );
  });

  it('two records that share only placeholders are never a match, in either model', () => {
    fc.assert(
      fc.property(filler, (f) => {
        const a = fill({}, f);
        // The CRM model's match threshold (18 bits); the file model's (its prior in the score, 0 bits).
        expect(score(DEFAULT_MODEL, a, a)).toBeLessThan(DEFAULT_THRESHOLDS.match);
        expect(score(FILE, a, a)).toBeLessThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it('reads the junk a form gets typed into a required field as missing (an adversarial probe of the API)', () => {
    for (const email of ['test@gmail.com', 'no@email.com', 'nobody@yahoo.com', 'asdf@asdf.com'])
      expect(isPlaceholderEmail(DEFAULT_PLACEHOLDERS, email), email).toBe(true);
    for (const email of ['mainoffice@acmeclinic.org', 'customerservice@shop.com', 'donations@food.org'])
      expect(isSharedEmail(DEFAULT_PLACEHOLDERS, email), email).toBe(true);
    for (const email of ['tess@gmail.com', 'noah@email.com', 'maria.garcia@gmail.com'])
      expect(isPlaceholderEmail(DEFAULT_PLACEHOLDERS, email), email).toBe(false);
    // The Unix epoch is a system's zero date: it neither supports nor rules out a match.
    const a = { firstName: 'John', lastName: 'Smith', dateOfBirth: '1970-01-01', addresses: [{ zipOrPostalCode: '60610' }] };
    expect(norm(a).dob).toBeNull();
    // Two Maria Garcias whose one shared value is a typed-in test@ address are not one person.
    const m1 = { firstName: 'Maria', lastName: 'Garcia', emails: ['test@gmail.com'] };
    expect(score(FILE, m1, m1)).toBeLessThan(
      score(
        FILE,
        { firstName: 'Maria', lastName: 'Garcia', emails: ['maria.g@gmail.com'] },
        { firstName: 'Maria', lastName: 'Garcia', emails: ['maria.g@gmail.com'] },
      ),
    );
  });

  it("a value many people share (an office's info@, a shelter's phone) cannot link two people on its own", () => {
    const tf: TermFrequencies = {
      total: 5000,
      firstNameCount: () => 5,
      lastNameCount: () => 5,
      cityCount: () => 100,
      emailCount: (e) => (e === 'info@acme.com' ? 60 : 1),
      phoneCount: (p) => (p.endsWith('2025550100') ? 60 : 1),
    };
    const a = { firstName: 'Ann', lastName: 'Lee', emails: ['info@acme.com'], phones: ['202-555-0100'] };
    const b = { firstName: 'Raj', lastName: 'Patel', emails: ['info@acme.com'], phones: ['202-555-0100'] };
    expect(score(FILE, a, b, tf)).toBeLessThan(0);
    // The same two values held by these two records alone are strong evidence.
    const rare: TermFrequencies = { ...tf, emailCount: () => 1, phoneCount: () => 1 };
    expect(score(FILE, a, b, rare)).toBeGreaterThan(score(FILE, a, b, tf) + 5);
  });
});

/**
 * Scoring: weights add up to the score (the prior included), adding agreement to a pair never
 * lowers its score, scores are symmetric without term frequencies, a household's shared
 * surname, address, phone and email count once, and the level vector records each field.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COMPARISON_FIELDS,
  compileModel,
  DEFAULT_MODEL,
  DEFAULT_NICKNAMES,
  FIELD_SLOT,
  FILE_MODEL,
  LEVEL_CODE,
  levelVectorLength,
  makeScoreContext,
  normalizeContact,
  scorePair,
  type ContactInput,
  type FieldOutcome,
  type MatchModel,
  type NormalizedContact,
  type ScoreContext,
  type TermFrequencies,
} from '../../src/engine/index.js';
import type { NameForms } from '../../src/engine/name-compare.js';

const NORMALIZE = { years: { min: 1000, max: 2100 }, yearOnlyDates: true, localPhones: true } as const;
const norm = (c: ContactInput): NormalizedContact => normalizeContact(c, NORMALIZE);
const context = (model: MatchModel, tf: TermFrequencies | null = null): ScoreContext =>
  makeScoreContext({ compiled: compileModel(model), nicknames: DEFAULT_NICKNAMES, strict: false, tf });
const FILE_WITH_PRIOR: MatchModel = { ...FILE_MODEL, prior: 0.001 };

/** Values each field draws from: small sets, so that pairs agree often. */
const first = fc.constantFrom('Robert', 'Bob', 'Roberta', 'Mary', 'Maria', 'Jon', null);
const last = fc.constantFrom('Smith', 'Smyth', 'Jones', 'Garcia Lopez', null);
const dob = fc.constantFrom('1970-03-04', '1970-04-03', '1971-03-04', '1970', '1990-01-01', null);
const email = fc.constantFrom('bob@example.com', 'rs@example.org', 'info@acme.com', 'lees77@family.net', 'lees77@mail.com', 'info@other.org');
const phone = fc.constantFrom('202-555-0143', '202-555-0144', '555-0143');
const line = fc.constantFrom('12 Main St', '14 Main St', '9 Oak Ave', 'GENERAL DELIVERY');
const zip = fc.constantFrom('20500', '20501', '90210');
const contact: fc.Arbitrary<ContactInput> = fc.record({
  firstName: first,
  lastName: last,
  dateOfBirth: dob,
  sex: fc.constantFrom('M', 'F', null),
  emails: fc.array(email, { maxLength: 2 }),
  phones: fc.array(phone, { maxLength: 1 }),
  addresses: fc.array(fc.record({ addressLine1: line, zipOrPostalCode: zip, city: fc.constantFrom('Springfield', 'Salem') }), { maxLength: 1 }),
  identifiers: fc.array(fc.record({ type: fc.constant('ssn'), externalId: fc.constantFrom('123456781', '123456782', '987654300') }), { maxLength: 1 }),
});

/** `r` made to agree with `q` on one more field (copying it over). */
const AGREE: readonly ((q: ContactInput, r: ContactInput) => ContactInput)[] = [
  (q, r) => ({ ...r, firstName: q.firstName }),
  (q, r) => ({ ...r, lastName: q.lastName }),
  (q, r) => ({ ...r, dateOfBirth: q.dateOfBirth }),
  (q, r) => ({ ...r, sex: q.sex }),
  (q, r) => ({ ...r, emails: q.emails }),
  (q, r) => ({ ...r, phones: q.phones }),
  (q, r) => ({ ...r, addresses: q.addresses }),
  (q, r) => ({ ...r, identifiers: q.identifiers }),
];

const tf: TermFrequencies = {
  total: 1000,
  firstNameCount: (name) => (name === 'robert' ? 300 : 2),
  lastNameCount: (name) => (name === 'smith' ? 400 : 3),
  cityCount: () => 500,
  emailCount: (e) => (e.startsWith('info@') ? 200 : e.startsWith('lees77@') ? 60 : 2),
  phoneCount: () => 2,
};

/** Full names counted in `tf`'s 1,000 records: Robert Smith shared by many people, Mary Jones by a few. */
const fullNames = ({ compact: first }: NameForms, { compact: last }: NameForms): number =>
  first === 'robert' && last === 'smith' ? 250 : first === 'mary' && last === 'jones' ? 40 : 1;

describe('scorePair', () => {
  it.each([
    ['the CRM model', DEFAULT_MODEL],
    ['the file model', FILE_WITH_PRIOR],
  ] as const)('%s: adding agreement on a field never lowers the score (with and without term frequencies)', (_, model) => {
    for (const frequencies of [
      null,
      tf,
      { ...tf, nameVariants: true },
      { ...tf, nameVariants: true, fullNameCount: fullNames },
      { ...tf, nameVariants: true, pairHolders: 2 },
    ]) {
      const ctx = context(model, frequencies);
      fc.assert(
        fc.property(contact, contact, fc.nat(AGREE.length - 1), (q, r, k) => {
          const agreeing = (AGREE[k] as (typeof AGREE)[number])(q, r);
          const before = scorePair(norm(q), norm(r), ctx).score;
          const after = scorePair(norm(q), norm(agreeing), ctx).score;
          expect(after).toBeGreaterThanOrEqual(before - 1e-9);
        }),
        { numRuns: 400 },
      );
    }
  });

  it('two names weigh at most what the full name shared by other records allows, never less than the stronger name alone', () => {
    const names = (ctx: ScoreContext, a: ContactInput, b: ContactInput): number => {
      const out: FieldOutcome[] = [];
      scorePair(norm(a), norm(b), ctx, out);
      return out.filter((o) => o.field === 'firstName' || o.field === 'lastName').reduce((sum, o) => sum + o.weight, 0);
    };
    const rare = { firstName: 'Zbigniew', lastName: 'Wolanski' };
    const common = { firstName: 'Mary', lastName: 'Jones' };
    const plain = context(FILE_WITH_PRIOR, { ...tf, nameVariants: true });
    const counted = context(FILE_WITH_PRIOR, { ...tf, nameVariants: true, fullNameCount: fullNames });
    // A full name one person holds (count 1, under the rows a person has): the sum of the two.
    expect(names(counted, rare, rare)).toBeCloseTo(names(plain, rare, rare), 9);
    // Mary Jones: each name rare (2 and 3 records), together 40 records: far less than the sum.
    const sum = names(plain, common, common);
    const capped = names(counted, common, common);
    expect(capped).toBeLessThan(sum - 3);
    // The explanation says why the surname weighs less than usual.
    const said: FieldOutcome[] = [];
    scorePair(norm(common), norm(common), counted, said);
    expect(said.find((o) => o.field === 'lastName')?.label).toMatch(/full name's frequency/);
    const alone = Math.max(names(counted, common, { firstName: 'Mary' }), names(counted, common, { lastName: 'Jones' }));
    expect(capped).toBeGreaterThanOrEqual(alone);
    // Without a prior there is no count of a person's own rows to take off: no cap.
    const noPrior = context({ ...FILE_MODEL }, { ...tf, nameVariants: true, fullNameCount: fullNames });
    expect(names(noPrior, common, common)).toBeCloseTo(sum, 9);
  });

  it("the file model weighs one town with different postal codes by the town's size, never above the level nor below disagreement", () => {
    const weightOf = (cityCount: number): number => {
      const out: FieldOutcome[] = [];
      const ctx = context(FILE_WITH_PRIOR, { ...tf, cityCount: () => cityCount });
      scorePair(
        norm({ firstName: 'Ann', lastName: 'Lee', addresses: [{ city: 'New York', zipOrPostalCode: '10415' }] }),
        norm({ firstName: 'Ann', lastName: 'Lee', addresses: [{ city: 'New York', zipOrPostalCode: '11230' }] }),
        ctx,
        out,
      );
      return out.find((o) => o.field === 'address')?.weight ?? NaN;
    };
    const partial = FILE_MODEL.fields.address?.partial;
    const disagree = FILE_MODEL.fields.address?.disagree;
    if (partial === undefined || disagree === undefined) throw new Error('the file model has no partial address level');
    const level = Math.log2(partial.m / partial.u);
    expect(weightOf(1)).toBeCloseTo(level, 6);
    expect(weightOf(300)).toBeLessThan(level - 1);
    expect(weightOf(1000)).toBeGreaterThanOrEqual(Math.log2(disagree.m / disagree.u) - 1e-9);
  });

  it("term frequencies weigh a common name's typos and swaps as its exact agreement, even where a typo weighs as much as exact agreement", () => {
    // An estimated model of a file full of typos: the typo and swapped levels weigh as much as
    // exact agreement (EM's estimate, capped at exact). They no longer floor exact agreement.
    const exact = FILE_MODEL.fields.lastName?.exact ?? { m: 0.8, u: 0.002 };
    const typoHeavy: MatchModel = {
      ...FILE_WITH_PRIOR,
      fields: { ...FILE_WITH_PRIOR.fields, lastName: { ...FILE_WITH_PRIOR.fields.lastName, typo: { ...exact }, swapped: { ...exact } } },
    };
    const ctx = context(typoHeavy, { ...tf, nameVariants: true });
    const weightOf = (a: string, b: string): number => {
      const out: FieldOutcome[] = [];
      scorePair(norm({ firstName: 'Ann', lastName: a }), norm({ firstName: 'Ann', lastName: b }), ctx, out);
      return out.find((o) => o.field === 'lastName')?.weight ?? NaN;
    };
    const base = Math.log2(exact.m / exact.u);
    // smith: 400 records in 1,000; jones: 3.
    expect(weightOf('Smith', 'Smith')).toBeLessThan(base - 2);
    expect(weightOf('Smith', 'Smitn')).toBeLessThan(base - 2);
    expect(weightOf('Jones', 'Jomes')).toBeGreaterThan(weightOf('Smith', 'Smitn') + 3);
    expect(weightOf('Smith', 'Smitn')).toBeLessThanOrEqual(weightOf('Smith', 'Smith') + 1e-9);
    expect(weightOf('Jones', 'Jomes')).toBeLessThanOrEqual(weightOf('Jones', 'Jones') + 1e-9);
    // Counts of the lookup's own names only (database retrieval): exact agreement alone is adjusted, floored by the typo level.
    const lookupOnly = context(typoHeavy, tf);
    const out: FieldOutcome[] = [];
    scorePair(norm({ firstName: 'Ann', lastName: 'Smith' }), norm({ firstName: 'Ann', lastName: 'Smitn' }), lookupOnly, out);
    expect(out.find((o) => o.field === 'lastName')?.weight).toBeCloseTo(base, 6);
  });

  it("with a file's name counts, a weaker name level never holds a common name's exact agreement up, nor weighs more than it", () => {
    // An estimate from a file that holds almost no initials: "initial" at 7 bits, as much as
    // exact agreement on the average first name. Robert: 300 records in 1,000.
    const exact = FILE_MODEL.fields.firstName?.exact ?? { m: 0.8, u: 0.01 };
    const base = Math.log2(exact.m / exact.u);
    const noisy: MatchModel = {
      ...FILE_WITH_PRIOR,
      fields: {
        ...FILE_WITH_PRIOR.fields,
        firstName: { ...FILE_WITH_PRIOR.fields.firstName, initial: { m: exact.m / 2 ** base / 4, u: exact.u / 2 ** base / 4 } },
      },
    };
    const weightOf = (frequencies: TermFrequencies, a: string, b: string): number => {
      const out: FieldOutcome[] = [];
      scorePair(norm({ firstName: a, lastName: 'Lee' }), norm({ firstName: b, lastName: 'Lee' }), context(noisy, frequencies), out);
      return out.find((o) => o.field === 'firstName')?.weight ?? NaN;
    };
    const variants = { ...tf, nameVariants: true };
    expect(weightOf(variants, 'Robert', 'Robert')).toBeLessThan(base - 2);
    expect(weightOf(variants, 'R', 'Robert')).toBeLessThanOrEqual(weightOf(variants, 'Robert', 'Robert') + 1e-9);
    expect(weightOf(variants, 'Ann', 'Ann')).toBeGreaterThan(base);
    // Counts of the lookup's own names only: exact agreement keeps the other levels as its floor.
    expect(weightOf(tf, 'Robert', 'Robert')).toBeGreaterThanOrEqual(base - 1e-9);
  });

  it('the explanation adds up to the score, the prior first', () => {
    const ctx = context(FILE_WITH_PRIOR);
    fc.assert(
      fc.property(contact, contact, (q, r) => {
        const out: FieldOutcome[] = [];
        const s = scorePair(norm(q), norm(r), ctx, out);
        expect(out[0]?.field).toBe('prior');
        expect(out.reduce((sum, o) => sum + o.weight, 0)).toBeCloseTo(s.score, 9);
      }),
      { numRuns: 300 },
    );
  });

  it('is symmetric without term frequencies, and finite', () => {
    for (const model of [DEFAULT_MODEL, FILE_WITH_PRIOR]) {
      const ctx = context(model);
      fc.assert(
        fc.property(contact, contact, (q, r) => {
          const a = scorePair(norm(q), norm(r), ctx).score;
          const b = scorePair(norm(r), norm(q), ctx).score;
          expect(Number.isFinite(a)).toBe(true);
          expect(a).toBeCloseTo(b, 9);
        }),
        { numRuns: 300 },
      );
    }
  });

  it('a household (same surname, address, landline, family email) counts its agreement once', () => {
    const ctx = context(FILE_MODEL);
    const a = norm({
      firstName: 'Ann',
      lastName: 'Lee',
      emails: ['lees@example.com'],
      phones: ['202-555-0143'],
      addresses: [{ addressLine1: '12 Main St', zipOrPostalCode: '20500' }],
    });
    const b = norm({
      firstName: 'Bob',
      lastName: 'Lee',
      emails: ['lees@example.com'],
      phones: ['202-555-0143'],
      addresses: [{ addressLine1: '12 Main St', zipOrPostalCode: '20500' }],
    });
    const out: FieldOutcome[] = [];
    scorePair(a, b, ctx, out);
    const household = out.filter((o) => ['lastName', 'address', 'phone', 'email'].includes(o.field));
    expect(household.filter((o) => o.weight > 0)).toHaveLength(1);
    expect(household.filter((o) => o.weight === 0 && /counted once with the household/.test(o.label))).toHaveLength(3);
    // The same town is not household evidence: it adds to the surname (up to what the whole
    // address would add over it, so that agreeing on the address never lowers the score).
    const estimated: MatchModel = {
      ...FILE_MODEL,
      fields: { ...FILE_MODEL.fields, address: { ...FILE_MODEL.fields.address, exact: { m: 0.6, u: 1e-6 }, typo: { m: 0.1, u: 1e-6 } } },
    };
    const c = norm({ firstName: 'Bob', lastName: 'Lee', addresses: [{ addressLine1: '9 Oak Ave', zipOrPostalCode: '20500' }] });
    const townOut: FieldOutcome[] = [];
    scorePair(a, c, context(estimated), townOut);
    expect(townOut.filter((o) => (o.field === 'lastName' || o.field === 'address') && o.weight > 0)).toHaveLength(2);
  });

  it("records each field's level code in the level vector, and the same score", () => {
    const ctx = context(FILE_WITH_PRIOR);
    const q = norm({ firstName: 'Robert', lastName: 'Smith', dateOfBirth: '1970-03-04', sex: 'M', emails: ['bob@example.com'] });
    const r = norm({ firstName: 'Bob', lastName: 'Smyth', dateOfBirth: '1970-04-03', sex: 'F' });
    const vector = new Uint8Array(levelVectorLength(0));
    const withVector = scorePair(q, r, ctx, undefined, vector);
    expect(withVector.score).toBeCloseTo(scorePair(q, r, ctx).score, 9);
    expect(vector[FIELD_SLOT.firstName]).toBe(LEVEL_CODE.nickname);
    expect(vector[FIELD_SLOT.lastName]).toBe(LEVEL_CODE.typo);
    expect(vector[FIELD_SLOT.dateOfBirth]).toBe(LEVEL_CODE.transposed);
    expect(vector[FIELD_SLOT.sex]).toBe(LEVEL_CODE.disagree);
    expect(vector[FIELD_SLOT.email]).toBe(LEVEL_CODE.missing);
    expect(vector).toHaveLength(COMPARISON_FIELDS.length);
  });

  it("a value shared by many records (an office's info@) weighs less than a personal one", () => {
    const ctx = context(FILE_WITH_PRIOR, tf);
    const q = norm({ firstName: 'Ann', emails: ['info@acme.com', 'ann@acme.com'] });
    const office = scorePair(q, norm({ firstName: 'Zoe', emails: ['info@acme.com'] }), ctx);
    const personal = scorePair(q, norm({ firstName: 'Zoe', emails: ['ann@acme.com'] }), ctx);
    expect(personal.score - office.score).toBeGreaterThan(3);
  });

  it("a phone or an email only the pair's own rows hold weighs as one nobody else holds (TermFrequencies.pairHolders)", () => {
    const weightOf = (frequencies: TermFrequencies, field: 'email' | 'phone'): number => {
      const out: FieldOutcome[] = [];
      // One of the two at a time: the file model counts agreeing contacts as one group.
      const q = field === 'email' ? { firstName: 'Ann', emails: ['ann.lee1987@gmail.com'] } : { firstName: 'Ann', phones: ['312-939-5063'] };
      scorePair(norm(q), norm({ ...q, firstName: 'Zoe' }), context(FILE_WITH_PRIOR, frequencies), out);
      return out.find((o) => o.field === field)?.weight ?? NaN;
    };
    // tf: this email and every phone are held by 2 of 1,000 records.
    const nobodyElse: TermFrequencies = { ...tf, emailCount: () => 0, phoneCount: () => 0 };
    for (const field of ['email', 'phone'] as const) {
      // A dedupe's counts hold both rows of the pair: no one else holds the value.
      expect(weightOf({ ...tf, pairHolders: 2 }, field)).toBeCloseTo(weightOf(nobodyElse, field), 9);
      expect(weightOf({ ...tf, pairHolders: 2 }, field)).toBeGreaterThan(weightOf(tf, field) + 0.5);
      // A link's counts hold the candidate only: one other record holds it.
      expect(weightOf({ ...tf, pairHolders: 1 }, field)).toBeCloseTo(weightOf({ ...tf, emailCount: () => 1, phoneCount: () => 1 }, field), 9);
    }
    // An office's info@ (200 records) stays shared with the pair taken out.
    const office = (frequencies: TermFrequencies): number => {
      const out: FieldOutcome[] = [];
      scorePair(
        norm({ firstName: 'Ann', emails: ['info@acme.com'] }),
        norm({ firstName: 'Zoe', emails: ['info@acme.com'] }),
        context(FILE_WITH_PRIOR, frequencies),
        out,
      );
      return out.find((o) => o.field === 'email')?.weight ?? NaN;
    };
    expect(office({ ...tf, pairHolders: 2 }) - office(tf)).toBeLessThan(0.1);
  });

  it('the same mailbox name at another domain weighs at most what the address itself would', () => {
    const ctx = context(FILE_WITH_PRIOR, tf);
    const weightOf = (a: string, b: string): number => {
      const out: FieldOutcome[] = [];
      scorePair(norm({ firstName: 'Ann', emails: [a] }), norm({ firstName: 'Zoe', emails: [b] }), ctx, out);
      return out.find((o) => o.field === 'email')?.weight ?? NaN;
    };
    // lees77@family.net: 60 records in 1,000 (a family's mailbox).
    expect(weightOf('lees77@family.net', 'lees77@mail.com')).toBeLessThanOrEqual(weightOf('lees77@family.net', 'lees77@family.net') + 1e-9);
    expect(weightOf('ann.lee1987@gmail.com', 'ann.lee1987@yahoo.com')).toBeGreaterThan(weightOf('lees77@family.net', 'lees77@mail.com') + 2);
    // A role account's name at another domain is no evidence.
    const shared = makeScoreContext({
      compiled: compileModel(FILE_WITH_PRIOR),
      nicknames: DEFAULT_NICKNAMES,
      strict: false,
      tf,
      sharedEmail: (e) => e.startsWith('info@'),
    });
    const out: FieldOutcome[] = [];
    scorePair(norm({ firstName: 'Ann', emails: ['info@acme.com'] }), norm({ firstName: 'Zoe', emails: ['info@other.org'] }), shared, out);
    expect(out.find((o) => o.field === 'email')?.level).toBe('disagree');
  });

  it('a veto stops a pair in the CRM model; Jr against Sr vetoes in the file model too', () => {
    const crm = scorePair(norm({ firstName: 'Ann', lastName: 'Lee' }), norm({ firstName: 'Zoe', lastName: 'Lee' }), context(DEFAULT_MODEL));
    expect(crm.vetoedBy).toBe('firstName');
    const file = scorePair(norm({ firstName: 'Ann', lastName: 'Lee' }), norm({ firstName: 'Zoe', lastName: 'Lee' }), context(FILE_MODEL));
    expect(file.vetoedBy).toBeNull();
    const suffix = scorePair(norm({ firstName: 'Al', lastName: 'Lee Jr' }), norm({ firstName: 'Al', lastName: 'Lee Sr' }), context(FILE_MODEL));
    expect(suffix.vetoedBy).toBe('suffix');
  });
});

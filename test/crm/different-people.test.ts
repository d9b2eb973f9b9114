/**
 * Two different people a CRM sees side by side, stored one after the other by findOrCreate:
 * the second must not be merged into the first (a wrong person writes one person's data onto
 * another). Each case here was merged before its fix (the precision probe,
 * `npx tsx bench/probe-recall.ts --precision`); beside each, the same person written another
 * way that must still match.
 */
import { describe, expect, it } from 'vitest';
import { pairProbe, type Body } from './pair-probe.js';

const { crm, ctx, secondMatches, reopen } = pairProbe();

const home: Body = {
  addresses: [{ addressLine1: '412 Maple Avenue', city: 'Springfield', stateOrProvince: 'IL', zipOrPostalCode: '62704' }],
  phones: [{ phoneNumber: '2175550148' }],
};
const zipOnly: Body = { addresses: [{ city: 'Springfield', stateOrProvince: 'IL', zipOrPostalCode: '62704' }] };
const sharedEmail: Body = { emails: [{ email: 'hollisters@example.net' }] };

describe('twins: one surname, date of birth, address and landline, first names one edit apart', () => {
  const twin = (firstName: string, key: Body): Body => ({ firstName, lastName: 'Hollister', dateOfBirth: '1996-08-21', ...key });
  it.each([
    ['Jean', 'Joan'],
    ['Lena', 'Lina'],
    ['Ava', 'Eva'],
    ['Kristen', 'Kirsten'],
    ['Dean', 'Sean'],
    ['Darla', 'Carla'],
  ])('%s / %s are two people', async (a, b) => {
    expect(await secondMatches(twin(a, home), twin(b, home))).toBe(false);
    await reopen();
    expect(await secondMatches(twin(a, zipOnly), twin(b, zipOnly))).toBe(false);
    await reopen();
    expect(await secondMatches(twin(a, sharedEmail), twin(b, sharedEmail))).toBe(false);
  });

  it.each([
    ['Kristin', 'Kristen'],
    ['Michael', 'Micheal'],
    ['Margaret', 'Magaret'],
    ['Matthew', 'Mathew'],
    ['Brian', 'Brain'],
    ['Cathy', 'Kathy'],
  ])('%s / %s: one name written another way still matches', async (a, b) => {
    expect(await secondMatches(twin(a, home), twin(b, home))).toBe(true);
  });
});

describe("an email typed to get past a required field is no one's", () => {
  it.each(['no.email@gmail.com', 'notprovided@gmail.com', 'no_email@yahoo.com', 'email@email.com', 'x@x.com', 'a@a.com', 'abc@abc.com'])(
    '%s alone matches no one, beside another name neither',
    async (address) => {
      const stored = { firstName: 'Alan', lastName: 'Porter', emails: [{ email: address }] };
      expect(await secondMatches(stored, { emails: [{ email: address }] })).toBe(false);
      expect((await crm().findOrCreate(ctx(), { firstName: 'Grace', lastName: 'Porter', emails: [{ email: address }] })).status).toBe('UnmatchedStored');
    },
  );

  it("a real address at a one-letter domain name or a person's own name stays the person's", async () => {
    expect(
      await secondMatches({ firstName: 'Alan', lastName: 'Porter', emails: [{ email: 'alan@porter.com' }] }, { emails: [{ email: 'alan@porter.com' }] }),
    ).toBe(true);
    expect(await secondMatches({ firstName: 'Ann', lastName: 'Lee', emails: [{ email: 'ann@x.com' }] }, { emails: [{ email: 'ann@x.com' }] })).toBe(true);
  });
});

describe('a year of birth alone (yearOfBirth) still tells a father from his son', () => {
  const sam = { firstName: 'Sam', lastName: 'Ortiz', phones: [{ phoneNumber: '2175550148' }] };
  it('years decades apart at one landline: two people', async () => {
    expect(await secondMatches({ ...sam, yearOfBirth: 1950 }, { ...sam, yearOfBirth: 1985 })).toBe(false);
  });
  it('a date of birth against a year decades later: two people', async () => {
    expect(await secondMatches({ ...sam, dateOfBirth: '1950-04-02' }, { ...sam, yearOfBirth: 1985 })).toBe(false);
  });
  it('the same year, or a year off (a year from an age), beside the phone: the same person', async () => {
    expect(await secondMatches({ ...sam, dateOfBirth: '1985-04-02' }, { ...sam, yearOfBirth: 1985 })).toBe(true);
    const lin = { firstName: 'Mei', lastName: 'Lin', phones: [{ phoneNumber: '2175550177' }] };
    expect(await secondMatches({ ...lin, yearOfBirth: 1985 }, { ...lin, yearOfBirth: 1986 })).toBe(true);
  });
  it('a year is no date of birth: name, ZIP and year never match', async () => {
    const z = { firstName: 'Sam', lastName: 'Ortiz', yearOfBirth: 1985, addresses: [{ zipOrPostalCode: '62704' }] };
    await crm().findOrCreate(ctx(), z);
    expect((await crm().findOrCreate(ctx(), z)).status).toBe('UnmatchedStored');
  });
});

describe('a title says the sex: spouses of one unisex name at one landline', () => {
  const pat = (more: Body): Body => ({ firstName: 'Pat', lastName: 'Donnelly', ...home, ...more });
  it.each([
    [{ title: 'Mr' }, { title: 'Mrs' }],
    [{ title: 'Mr.' }, { title: 'Ms.' }],
    [{ firstName: 'Mr. Pat' }, { firstName: 'Mrs. Pat' }],
    [{ sex: 'M' }, { title: 'Miss' }],
  ])('%o / %o are two people', async (a, b) => {
    expect(await secondMatches(pat(a), pat(b))).toBe(false);
  });
  it('a title beside the same sex, or a title that says none, is the same person', async () => {
    expect(await secondMatches(pat({ title: 'Mrs' }), pat({ sex: 'F' }))).toBe(true);
    expect(await secondMatches({ ...pat({ title: 'Dr' }), firstName: 'Jordan' }, { ...pat({}), firstName: 'Jordan' })).toBe(true);
  });
});

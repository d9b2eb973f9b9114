/**
 * One person stored by findOrCreate, then the same person sent again as another source writes
 * them: the second request must find the first (interface.md 1: the minimum combinations agree;
 * matching ignores case and accents). Each case here was a duplicate before its fix (the recall
 * probe, bench/probe-recall.ts); the pairs below them are the precision side that must stay apart.
 */
import { describe, expect, it } from 'vitest';
import { pairProbe, type Body } from './pair-probe.js';

const { secondMatches } = pairProbe();

const at = (line1: string, zip: string): Body => ({ addresses: [{ addressLine1: line1, city: 'New York', stateOrProvince: 'NY', zipOrPostalCode: zip }] });
const phone: Body = { phones: [{ phoneNumber: '3055550123' }] };
const email: Body = { emails: [{ email: 'person@example.org' }] };

describe('the same person at an address written another way', () => {
  it.each([
    ['300 West Twenty-Third Street', '300 W 23rd St'],
    ['300 West Twenty Third Street', '300 W 23rd St'],
    ['9 Twenty-First Avenue', '9 21st Ave'],
    ['12 A Elm Street', '12A Elm St'],
    ['45-12 Queens Boulevard', '4512 Queens Blvd'],
  ])('%s / %s: the address combination agrees', async (x, y) => {
    const person = { firstName: 'Margaret', lastName: 'Sullivan' };
    expect(await secondMatches({ ...person, ...at(x, '11104') }, { ...person, ...at(y, '11104') })).toBe(true);
  });

  it('another house number or another flat stays another person', async () => {
    const person = { firstName: 'Margaret', lastName: 'Sullivan' };
    expect(await secondMatches({ ...person, ...at('12 A Elm Street', '11104') }, { ...person, ...at('12 B Elm Street', '11104') })).toBe(false);
    expect(await secondMatches({ ...person, ...at('45-12 Queens Blvd', '11104') }, { ...person, ...at('4513 Queens Blvd', '11104') })).toBe(false);
  });
});

describe('the same person, a Cyrillic name romanized by another source', () => {
  it.each([
    [{ firstName: 'Дмитрий', lastName: 'Иванов' }, { firstName: 'Dmitry', lastName: 'Ivanov' }, phone],
    [{ firstName: 'Александр', lastName: 'Смирнов' }, { firstName: 'Alexander', lastName: 'Smirnov' }, email],
    [{ firstName: 'Юлия', lastName: 'Кузнецова' }, { firstName: 'Julia', lastName: 'Kuznetsova' }, email],
    [{ firstName: 'Евгений', lastName: 'Попов' }, { firstName: 'Yevgeniy', lastName: 'Popov' }, email],
    [{ firstName: 'Dmitriy', lastName: 'Ivanov' }, { firstName: 'Dmitry', lastName: 'Ivanov' }, phone],
  ])('%o / %o', async (a, b, key) => {
    expect(await secondMatches({ ...a, ...key }, { ...b, ...key })).toBe(true);
  });

  it('Muhammad romanized from Arabic another way (Mohammed), with the phone', async () => {
    expect(await secondMatches({ firstName: 'Mohammed', lastName: 'Khan', ...phone }, { firstName: 'Muhammad', lastName: 'Khan', ...phone })).toBe(true);
  });

  it('a brother and a sister (Aleksandr / Alexandra) with one email stay two people', async () => {
    const a = { firstName: 'Aleksandr', lastName: 'Volkov', sex: 'M', ...email };
    const b = { firstName: 'Alexandra', lastName: 'Volkov', sex: 'F', ...email };
    expect(await secondMatches(a, b)).toBe(false);
  });
});

describe('the same person under a nickname of another language', () => {
  it.each([
    ['José', 'Pepe', 'Hernández', phone],
    ['Francisco', 'Paco', 'Ruiz', email],
    ['Giuseppe', 'Beppe', 'Rossi', email],
    ['Johann', 'Hans', 'Weber', email],
    ['Aleksandr', 'Sasha', 'Orlov', email],
  ])('%s / %s %s', async (a, b, last, key) => {
    expect(await secondMatches({ firstName: a, lastName: last, ...key }, { firstName: b, lastName: last, ...key })).toBe(true);
  });

  it('a nickname beside the household landline at the same address still waits for more (Pepe / José)', async () => {
    const home = { ...phone, ...at('9 Elm St', '33101') };
    expect(await secondMatches({ firstName: 'José', lastName: 'Hernández', ...home }, { firstName: 'Pepe', lastName: 'Hernández', ...home })).toBe(false);
  });
});

describe('the same person whose name is also a placeholder word', () => {
  it.each([
    ['Jiwoo', 'Na'],
    ['Christopher', 'Guest'],
    ['Jennifer', 'Null'],
    ['Nil', 'Yilmaz'],
  ])('%s %s sent twice with one phone: the first-last-phone combination is supplied and agrees', async (first, last) => {
    const body = { firstName: first, lastName: last, ...phone };
    expect(await secondMatches(body, body)).toBe(true);
  });

  it('a placeholder is still read as missing (Unknown Smith sent twice with one phone: no minimum combination)', async () => {
    const body = { firstName: 'Unknown', lastName: 'Smith', ...phone };
    expect(await secondMatches(body, body)).toBe(false);
  });
});

/**
 * Given names of opposite sexes (data/names/ssa-given-names.csv): the generated lists match the
 * data, and nearly equal first names of a brother and a sister are never one name mistyped,
 * while a short form a woman goes by ("Sam" of "Samantha") stays her nickname.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NAME_SEX_PATH, NAME_SEX_SOURCE, namesBySex, renderNameSexModule } from '../../data/build-name-sex.js';
import { compareFirstNameForms, NameForms } from '../../src/engine/name-compare.js';
import { oppositeSexNames, sexOfName } from '../../src/engine/name-sex.js';
import { DEFAULT_NICKNAMES, normalizeName, phoneticKey } from '../../src/engine/index.js';

const OPTIONS = { nicknames: DEFAULT_NICKNAMES, strict: false, fuzzyHigh: 0.92, fuzzyLow: 0.88, soundOf: phoneticKey, sexedNames: true };
const level = (a: string, b: string): string => compareFirstNameForms(new NameForms(a), new NameForms(b), OPTIONS);

describe('given names by sex', () => {
  it('the generated lists match data/names/ssa-given-names.csv (run `npm run gen:tables` after editing it)', () => {
    const csv = readFileSync(NAME_SEX_SOURCE, 'utf8');
    expect(readFileSync(NAME_SEX_PATH, 'utf8')).toBe(renderNameSexModule(csv));
    const { female, male } = namesBySex(csv);
    expect(female.filter((n) => male.includes(n))).toEqual([]);
    expect(female.length).toBeGreaterThan(3000);
    expect(male.length).toBeGreaterThan(2000);
  });

  it('reads the sex of names given almost only to one sex, and none of names given to both', () => {
    expect(['louise', 'antonia', 'frances', 'patricia', 'joan'].map(sexOfName)).toEqual(['F', 'F', 'F', 'F', 'F']);
    expect(['louis', 'antonio', 'francis', 'patrick', 'jon'].map(sexOfName)).toEqual(['M', 'M', 'M', 'M', 'M']);
    expect(['chris', 'terry', 'jessie', 'robin', 'xqzv'].map(sexOfName)).toEqual([null, null, null, null, null]);
  });

  it('a brother and a sister are another given name at every level that would read one name', () => {
    for (const [a, b] of [
      ['antonio', 'antonia'], // typo
      ['patrick', 'patricia'], // nearly equal
      ['alexander', 'alexandra'], // variants in the nickname tables
      ['louis', 'louise'],
      ['jon', 'joan'],
      ['aaron', 'erin'],
    ]) {
      expect([level(a as string, b as string), level(b as string, a as string)], `${a}/${b}`).toEqual(['fuzzy-low', 'fuzzy-low']);
    }
  });

  it('a man\'s name and its feminine form in "a" are two people where the birth records do not know them', () => {
    // Eastern European names, in Latin and Cyrillic script (folded by any-ascii first).
    for (const [a, b] of [
      ['evgeniy', 'evgeniya'],
      ['evgenii', 'evgeniia'],
      ['aleksandr', 'aleksandra'],
      ['vladislav', 'vladislava'],
      ['bogdan', 'bogdana'],
      ['jan', 'jana'],
    ]) {
      expect(sexOfName(a as string), a).toBeNull();
      expect([level(a as string, b as string), level(b as string, a as string)], `${a}/${b}`).toEqual(['fuzzy-low', 'fuzzy-low']);
    }
    const fromCyrillic = (name: string): NameForms => new NameForms(normalizeName({ firstName: name }).first as string);
    expect(compareFirstNameForms(fromCyrillic('Евгений'), fromCyrillic('Евгения'), OPTIONS)).toBe('fuzzy-low');
    // Й folds to и (evgenii): one letter from the romanization, a typo, not another name.
    expect(compareFirstNameForms(fromCyrillic('Евгений'), fromCyrillic('Evgeniy'), OPTIONS)).toBe('typo');
    // Not when the shorter is a woman's name, the longer a man's, the shorter ends in a vowel,
    // or the tables hold them as one name's variants.
    expect(level('ann', 'anna')).not.toBe('fuzzy-low');
    expect(level('joann', 'joanna')).not.toBe('fuzzy-low');
    expect(level('luc', 'luca')).not.toBe('fuzzy-low');
    expect(level('eli', 'elia')).not.toBe('fuzzy-low');
    expect(level('angel', 'angela')).toBe('nickname');
    // A woman's name cut short by a field's length (FEBRL: Kayl, Sar, Melind) is her name.
    expect(level('kayl', 'kayla')).toBe('typo');
    expect(level('sar', 'sara')).toBe('typo');
    expect(level('melind', 'melinda')).toBe('typo');
    expect(level('henry', 'henrya')).toBe('typo');
  });

  it('keeps nicknames, short forms and typos of one name', () => {
    expect(level('sam', 'samantha')).toBe('nickname');
    expect(level('alex', 'alexandra')).toBe('nickname');
    expect(level('bob', 'robert')).toBe('nickname');
    expect(level('micheal', 'michael')).toBe('typo');
    expect(level('antonoi', 'antonio')).toBe('typo');
  });

  it('files compare the spelling alone (sexedNames off): OCR reads Patricia as Patricio', () => {
    const files = { ...OPTIONS, sexedNames: false };
    expect(compareFirstNameForms(new NameForms('patricia'), new NameForms('patricio'), files)).toBe('typo');
    expect(compareFirstNameForms(new NameForms('alexander'), new NameForms('alexandra'), files)).toBe('nickname');
  });

  it('opposite sexes is symmetric, never holds for one name or one sex, and spares a truncated short form', () => {
    const names = fc.constantFrom(
      'louis',
      'louise',
      'antonio',
      'antonia',
      'sam',
      'samantha',
      'max',
      'maxine',
      'chris',
      'christina',
      'jo',
      'joe',
      'terry',
      'teri',
      'evgeniy',
      'evgeniya',
      'ann',
      'anna',
      'luc',
      'luca',
    );
    fc.assert(
      fc.property(names, names, (a, b) => {
        const ab = oppositeSexNames(a, b, sexOfName(a), sexOfName(b));
        expect(ab).toBe(oppositeSexNames(b, a, sexOfName(b), sexOfName(a)));
        if (a === b || sexOfName(a) === null || sexOfName(a) === sexOfName(b)) expect(ab).toBe(false);
        const [short, long] = a.length < b.length ? [a, b] : [b, a];
        if (long.length >= short.length + 2 && long.startsWith(short)) expect(ab).toBe(false);
      }),
      { seed: 20261129, numRuns: 300 },
    );
  });
});

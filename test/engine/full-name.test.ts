import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { formatFullName, parseFullName, type FullNameParts } from '../../src/engine/full-name.js';
import { foldCompact, GENERATIONAL_SUFFIXES, HONORIFICS, PROFESSIONAL_SUFFIXES, normalizeName } from '../../src/engine/index.js';

const P = (firstName: string | null, middleName: string | null, lastName: string | null, suffix: string | null = null): FullNameParts => ({
  firstName,
  middleName,
  lastName,
  suffix,
});

describe('parseFullName', () => {
  it.each<[string, FullNameParts]>([
    ['Smith, Robert J.', P('Robert', 'J.', 'Smith')],
    ['Dr. Robert J Smith Jr', P('Robert', 'J', 'Smith', 'Jr')],
    ['Robert Smith', P('Robert', null, 'Smith')],
    ['ROBERT J. SMITH, JR., M.D.', P('ROBERT', 'J.', 'SMITH', 'JR')],
    ['Smith, Robert, Jr.', P('Robert', null, 'Smith', 'Jr')],
    ['Smith Jr., Robert', P('Robert', null, 'Smith', 'Jr')],
    ['Smith, Robert J. Jr.', P('Robert', 'J.', 'Smith', 'Jr')],
    ['Smith, Dr. Robert', P('Robert', null, 'Smith')],
    ['Robert Smith, Jr.', P('Robert', null, 'Smith', 'Jr')],
    ['John Smith III', P('John', null, 'Smith', 'III')],
    ['John Smith V', P('John', null, 'Smith', 'V')],
    ['John V Smith', P('John', 'V', 'Smith')],
    ['Smith, John V', P('John', 'V', 'Smith')],
    ['Jane Doe MD', P('Jane', null, 'Doe')],
    ['Jane Doe, PhD', P('Jane', null, 'Doe')],
    ['Ludwig van Beethoven', P('Ludwig', null, 'van Beethoven')],
    ['Juan Carlos de la Cruz', P('Juan', 'Carlos', 'de la Cruz')],
    ['Juan De La Cruz', P('Juan', null, 'De La Cruz')],
    ['de la Cruz, Maria', P('Maria', null, 'de la Cruz')],
    ['Ana y Lopez', P('Ana', null, 'y Lopez')],
    ['Robert E. Lee', P('Robert', 'E.', 'Lee')],
    ['Joseph Ben Smith', P('Joseph', 'Ben', 'Smith')],
    ['Mary St. John', P('Mary', null, 'St. John')],
    ['Robert "Bob" Smith', P('Robert', null, 'Smith')],
    ['Robert (Bob) Smith', P('Robert', null, 'Smith')],
    ["Seán O'Brien-Murphy", P('Seán', null, "O'Brien-Murphy")],
    ['Cher', P('Cher', null, null)],
    ['Dr. Smith', P(null, null, 'Smith')],
    ['Smith Jr', P(null, null, 'Smith', 'Jr')],
    ['Smith,', P(null, null, 'Smith')],
    [', Robert J', P('Robert', 'J', null)],
    ['Mr. & Mrs. John Smith', P('John', null, 'Smith')],
    ['Dr.', P(null, null, null)],
    ['  Robert   Smith  ', P('Robert', null, 'Smith')],
    ['', P(null, null, null)],
    [' , , ', P(null, null, null)],
    ['Jr.', P('Jr.', null, null)],
  ])('%j', (text, expected) => {
    expect(parseFullName(text)).toEqual(expected);
  });

  it('gives the engine the same name as separate columns would', () => {
    const split = normalizeName(parseFullName('Dr. Robert J Smith Jr'));
    expect(split).toEqual(normalizeName({ firstName: 'Robert', middleName: 'J', lastName: 'Smith', suffix: 'Jr' }));
    expect(split.suffix).toBe('jr');
  });

  it('accepts non-strings', () => {
    expect(parseFullName(null)).toEqual(P(null, null, null));
    expect(parseFullName(undefined)).toEqual(P(null, null, null));
  });
});

// Name-like words, including every kind of word the parser treats specially.
const special = [...HONORIFICS, ...GENERATIONAL_SUFFIXES.keys(), ...PROFESSIONAL_SUFFIXES].flatMap((w) => [w, `${w.toUpperCase()}.`]);
const word = fc.oneof(
  fc.constantFrom('Robert', 'smith', 'J.', 'de', 'La', 'van', 'y', 'Ben', 'St.', "O'Brien", 'García-López', 'Łukasz', '&', '-', ...special),
  fc.string({ minLength: 1, maxLength: 6 }),
);
const separator = fc.constantFrom(' ', '  ', ', ', ',', ' (', ') ', ' "', '" ', '\t');
const nameText = fc.array(fc.tuple(word, separator), { maxLength: 8 }).map((parts) => parts.map(([w, s]) => w + s).join(''));

/** Words the parser would read as a suffix when they end the given names (see formatFullName). */
function givenEndsInSuffixWord(parts: FullNameParts): boolean {
  const given = [parts.firstName, parts.middleName]
    .filter((p) => p !== null)
    .join(' ')
    .split(' ');
  const tail = foldCompact(given[given.length - 1] ?? '');
  return GENERATIONAL_SUFFIXES.has(tail) || PROFESSIONAL_SUFFIXES.has(tail);
}

describe('parseFullName properties', () => {
  it('is total: any string gives four string-or-null parts', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), nameText), (text) => {
        const parts = parseFullName(text);
        return (['firstName', 'middleName', 'lastName', 'suffix'] as const).every((key) => {
          const v = parts[key];
          return v === null || (typeof v === 'string' && v.length > 0);
        });
      }),
      { numRuns: 2000 },
    );
  });

  it('is idempotent: parsing the parts written back gives the same parts', () => {
    fc.assert(
      fc.property(fc.oneof(nameText, fc.string({ unit: 'grapheme' })), (text) => {
        const once = parseFullName(text);
        fc.pre(!givenEndsInSuffixWord(once));
        return isDeepStrictEqual(parseFullName(formatFullName(once)), once);
      }),
      { numRuns: 3000 },
    );
  });

  it('never invents text: every part comes from the input', () => {
    fc.assert(
      fc.property(nameText, (text) => {
        const parts = parseFullName(text);
        for (const part of [parts.firstName, parts.middleName, parts.lastName, parts.suffix]) {
          if (part === null) continue;
          if (!part.split(' ').every((token) => text.includes(token))) return false;
        }
        return true;
      }),
      { numRuns: 1000 },
    );
  });
});

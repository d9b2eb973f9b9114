import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeName, parseSuffix, surnameParts } from '../../src/engine/name.js';

describe('normalizeName', () => {
  it.each([
    [
      { firstName: 'Pérez', lastName: 'PEREZ' },
      { first: 'perez', last: 'perez', middle: null, suffix: null },
    ],
    [
      { firstName: 'Robert', lastName: "O'Brien" },
      { first: 'robert', last: 'o brien', middle: null, suffix: null },
    ],
    [
      { firstName: 'Ana', lastName: 'de la Cruz' },
      { first: 'ana', last: 'de la cruz', middle: null, suffix: null },
    ],
    [
      { firstName: 'Luis', lastName: 'García-López' },
      { first: 'luis', last: 'garcia lopez', middle: null, suffix: null },
    ],
    [
      { firstName: 'John', lastName: 'Smith Jr.' },
      { first: 'john', last: 'smith', middle: null, suffix: 'jr' },
    ],
    [
      { firstName: 'John', lastName: 'Smith', suffix: 'III' },
      { first: 'john', last: 'smith', middle: null, suffix: 'iii' },
    ],
    [
      { firstName: 'Dr. Jane', lastName: 'Doe MD' },
      { first: 'jane', last: 'doe', middle: null, suffix: null },
    ],
    // A couple's joint record is filed under the first name after both honorifics.
    [
      { firstName: 'Mr. & Mrs. John', lastName: 'Doe' },
      { first: 'john', last: 'doe', middle: null, suffix: null },
    ],
    [
      { firstName: 'Dr. and Mrs. Jane', lastName: 'Doe' },
      { first: 'jane', last: 'doe', middle: null, suffix: null },
    ],
    [
      { firstName: 'Mr. and Mrs.', lastName: 'Doe' },
      { first: null, last: 'doe', middle: null, suffix: null },
    ],
    [
      { firstName: 'Andrew', lastName: 'Doe' },
      { first: 'andrew', last: 'doe', middle: null, suffix: null },
    ],
    [
      { firstName: '  ', lastName: null, middleName: 'Q.' },
      { first: null, last: null, middle: 'q', suffix: null },
    ],
    [{ lastName: 'V' }, { first: null, last: 'v', middle: null, suffix: null }],
    // A clerk's abbreviation of a given name is the name.
    [
      { firstName: 'Wm.', lastName: 'Lumb' },
      { first: 'william', last: 'lumb', middle: null, suffix: null },
    ],
    [
      { firstName: 'Thos Henry', lastName: 'Bell' },
      { first: 'thomas henry', last: 'bell', middle: null, suffix: null },
    ],
    [
      { firstName: 'Xpher', lastName: 'Wren' },
      { first: 'christopher', last: 'wren', middle: null, suffix: null },
    ],
    [
      { firstName: 'Jn.', lastName: 'Smith' },
      { first: 'john', last: 'smith', middle: null, suffix: null },
    ],
  ])('%j', (input, expected) => {
    expect(normalizeName(input)).toEqual(expected);
  });

  it.each([
    ['Jr.', 'jr'],
    ['junior', 'jr'],
    ['SR', 'sr'],
    ['2nd', 'ii'],
    ['IV', 'iv'],
    ['PhD', null],
    ['', null],
  ])('suffix %s -> %s', (input, expected) => expect(parseSuffix(input)).toBe(expected));

  it('splits compound surnames into significant parts', () => {
    expect(surnameParts('garcia lopez')).toEqual(['garcia', 'lopez']);
    expect(surnameParts('de la cruz')).toEqual(['cruz']);
    expect(surnameParts('smith')).toEqual(['smith']);
  });

  it('is total and idempotent', () => {
    const part = fc.option(fc.string({ unit: 'binary' }), { nil: undefined });
    fc.assert(
      fc.property(part, part, part, part, (firstName, middleName, lastName, suffix) => {
        const once = normalizeName({ firstName, middleName, lastName, suffix });
        const twice = normalizeName({ firstName: once.first, middleName: once.middle, lastName: once.last, suffix: once.suffix });
        expect(twice).toEqual(once);
      }),
    );
  });
});

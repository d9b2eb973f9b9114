import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { levelBit, type LevelName } from '../../src/engine/comparisons.js';
import { compareCode, compareText, compareUnit } from '../../src/engine/compare.js';
import type { NormalizedAddress } from '../../src/engine/types.js';
import { compareAddressLists, compareWholeAddress } from '../../src/engine/whole-address.js';

const B_TYPO_ONLY = levelBit('exact') | levelBit('typo') | levelBit('disagree');
const ALL = 0xffff;

/** The comparison as it was before it read the street and city lazily: every part compared, then the rules. */
function eagerWholeAddress(a: NormalizedAddress, b: NormalizedAddress): LevelName {
  const p = {
    zip5: compareCode(a.zip, b.zip),
    streetNumber: compareCode(a.number, b.number, B_TYPO_ONLY),
    streetName: compareText(a.street, b.street, 0.92, 0.92, ALL),
    unit: compareUnit(a.unit, b.unit),
    city: compareText(a.city, b.city, 0.92, 0.92, ALL),
  };
  const digits = (text: string | null): string => (text ?? '').replace(/\D/g, '');
  const otherNumbers = digits(a.street) !== '' && digits(b.street) !== '' && digits(a.street) !== digits(b.street);
  const street = p.streetName === 'exact' || (p.streetName === 'fuzzy-high' && !otherNumbers);
  const hasStreet = p.streetName !== 'missing' && p.streetNumber !== 'missing';
  const zipKnown = p.zip5 !== 'missing';
  const cityKnown = p.city !== 'missing';
  const localityExact = p.zip5 === 'exact' || (!zipKnown && p.city === 'exact') || (p.zip5 === 'typo' && p.city === 'exact');
  const localityNear = p.zip5 === 'typo' || p.zip5 === 'prefix' || p.city === 'fuzzy-high' || (zipKnown && p.zip5 !== 'exact' && p.city === 'exact');
  const localityOk = localityExact || (!zipKnown && !cityKnown);
  const unitOk = p.unit !== 'disagree';
  if (hasStreet && p.streetNumber === 'exact' && street && localityOk && unitOk) return 'exact';
  if (hasStreet && street && unitOk && ((p.streetNumber === 'exact' && localityNear) || (p.streetNumber === 'typo' && localityOk))) return 'typo';
  if (street && localityOk && (zipKnown || cityKnown)) return 'part';
  if (localityExact) return 'prefix';
  if (p.zip5 === 'typo') return 'fuzzy-high';
  if (localityNear) return 'partial';
  if (!zipKnown && !cityKnown && p.streetName === 'missing') return 'missing';
  return 'disagree';
}

/** Parts drawn from near variants of each other (equal, one letter or a space off, far apart), so every rule is reached. */
const part = (values: readonly string[]): fc.Arbitrary<string | null> =>
  fc.oneof({ weight: 6, arbitrary: fc.constantFrom<string | null>(null, ...values) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) });
const address: fc.Arbitrary<NormalizedAddress> = fc.record({
  number: part(['12', '13', '21', '120']),
  street: part([
    'main street',
    'main stret',
    'mainstreet',
    'mian street',
    'maine st',
    'oak road',
    'oakroad',
    'o a k road',
    'county rd 5',
    'county rd 7',
    'county rd',
  ]),
  unit: part(['apt 4', '# 4', 'unit 5', '5']),
  building: part(['the towers']),
  city: part(['springfield', 'springfeld', 'spring field', 'shelbyville', 'shelby']),
  state: part(['il', 'ny']),
  zip: part(['2000', '2001', '2010', '3000', '20000']),
  country: fc.constant(null),
});

describe('compareWholeAddress', () => {
  it('gives the level of comparing every part first (it reads the street and city only where they count)', () => {
    fc.assert(
      fc.property(address, address, (a, b) => {
        expect(compareWholeAddress(a, b)).toBe(eagerWholeAddress(a, b));
      }),
      { numRuns: 20000, seed: 20261128 },
    );
  });

  it('reaches every level on these addresses', () => {
    const seen = new Set<LevelName>();
    fc.assert(
      fc.property(address, address, (a, b) => {
        seen.add(compareWholeAddress(a, b));
      }),
      { numRuns: 5000, seed: 20261129 },
    );
    expect([...seen].sort()).toEqual(['disagree', 'exact', 'fuzzy-high', 'missing', 'part', 'partial', 'prefix', 'typo']);
  });

  it('reads streets with other numbers as other streets, however near their letters; symmetric', () => {
    const at = (street: string, unit: string | null = null): NormalizedAddress => ({
      number: '12',
      street,
      unit,
      building: null,
      city: 'springfield',
      state: 'ma',
      zip: '01101',
      country: null,
    });
    for (const [a, b, level] of [
      ['county rd 5', 'county rd 7', 'prefix'],
      ['hwy 101', 'hwy 102', 'prefix'],
      ['w 35th st', 'w 36th st', 'prefix'],
      ['rte 9', 'rte 9', 'exact'],
      ['hwy 1', 'hwy', 'exact'],
      ['main st', 'mian st', 'exact'],
    ] as const) {
      expect(compareWholeAddress(at(a), at(b))).toBe(level);
      expect(compareWholeAddress(at(b), at(a))).toBe(level);
    }
  });

  it('takes the best pair of two lists', () => {
    const x: NormalizedAddress = {
      number: '12',
      street: 'main street',
      unit: null,
      building: null,
      city: 'springfield',
      state: null,
      zip: '2000',
      country: null,
    };
    const y: NormalizedAddress = { ...x, number: '99', zip: '4100', city: 'shelbyville' };
    expect(compareAddressLists([y], [x])).toBe('disagree');
    expect(compareAddressLists([y, x], [x])).toBe('exact');
    expect(compareAddressLists([], [x])).toBe('missing');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeAddress } from '../../src/engine/address.js';
import { compareAddress } from '../../src/engine/compare.js';
import { directionalMoved, directionalsDiffer, numbersDiffer, standardRoad } from '../../src/engine/street-forms.js';
import { compareWholeAddress } from '../../src/engine/whole-address.js';

const at = (line: string) => normalizeAddress({ addressLine1: line, city: 'Springfield', stateOrProvince: 'OH', zipOrPostalCode: '45502' });
const whole = (x: string, y: string) => compareWholeAddress(at(x), at(y));
const street = (x: string, y: string) => compareAddress(at(x), at(y)).streetName;

describe('numbered roads and rural routes written one way', () => {
  it.each([
    ['12 CR 5', '12 County Road 5'],
    ['12 Co Rd 5', '12 County Road 5'],
    ['12 County Hwy 5', '12 County Road 5'],
    ['12 SR 9', '12 State Route 9'],
    ['12 St Rt 9', '12 State Route 9'],
    ['12 State Road 9', '12 SR 9'],
    ['12 SH 71', '12 State Highway 71'],
    ['12 US-1', '12 US Highway 1'],
    ['12 US Rte 1', '12 US Hwy 1'],
    ['12 I-95', '12 Interstate 95'],
    ['12 FM 1960', '12 Farm to Market Road 1960'],
    ['12 N CR 5', '12 North County Road 5'],
    ['12 Rt 9', '12 Route 9'],
  ])('%s is %s: the same street (files: the same address; the CRM: exact)', (x, y) => {
    expect(at(x).street).toBe(at(y).street);
    expect(whole(x, y)).toBe('exact');
    expect(street(x, y)).toBe('exact');
  });

  it('rural routes: RR, Rural Route and RFD are one route', () => {
    expect(at('RR 2 Box 5').street).toBe('rr 2 box 5');
    expect(at('Rural Route 2 Box 5').street).toBe('rr 2 box 5');
    expect(at('RFD 2 Box 5').street).toBe('rr 2 box 5');
  });

  it.each([
    ['12 CR 5', '12 SR 5'],
    ['12 County Road 5', '12 County Road 7'],
    ['12 US Hwy 1', '12 Interstate 1'],
  ])('%s and %s stay two roads', (x, y) => {
    expect(at(x).street).not.toBe(at(y).street);
    expect(whole(x, y)).not.toBe('exact');
  });

  it('leaves names alone: no number after the words', () => {
    expect(at('12 State St').street).toBe('state st');
    expect(at('12 County Line Rd').street).toBe('county line rd');
    expect(standardRoad('us bank plz')).toBe('us bank plz');
    expect(standardRoad('i st')).toBe('i st');
  });

  it('is idempotent (property)', () => {
    const word = fc.constantFrom(
      'cr',
      'county',
      'co',
      'rd',
      'hwy',
      'state',
      'st',
      'sr',
      'us',
      'i',
      'rr',
      'rural',
      'rte',
      'route',
      'rfd',
      'fm',
      'box',
      'main',
      '5',
      '12b',
      '1960',
    );
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), (words) => {
        const once = standardRoad(words.join(' '));
        expect(standardRoad(once)).toBe(once);
      }),
    );
  });

  it('normalizing a normalized line changes nothing', () => {
    for (const line of ['12 CR 5', '12 St Rt 9 N', 'RFD 2 Box 5', '12 Farm to Market Road 1960', '12 I-95']) {
      const once = at(line);
      const again = at(`${once.number ?? ''} ${once.street ?? ''}`.trim());
      expect(again.street).toBe(once.street);
    }
  });
});

describe('directionals', () => {
  it('one written before the street and the other after it: one street', () => {
    expect(directionalMoved('n main st', 'main st n')).toBe(true);
    expect(directionalMoved('main st nw', 'nw main st')).toBe(true);
    expect(directionalMoved('n main st', 'main st s')).toBe(false);
    expect(directionalMoved('n main st', 'n main st')).toBe(false);
    expect(whole('123 Main St N', '123 N Main St')).toBe('exact');
    expect(whole('123 Main St North', '123 N Main St')).toBe('exact');
    expect(street('123 Main St N', '123 N Main St')).toBe('fuzzy-high');
  });

  it.each([
    ['12 N Main St', '12 S Main St'],
    ['12 Main St N', '12 Main St S'],
    ['12 1st St N', '12 1st St S'],
    ['12 NE Oak Ave', '12 NW Oak Ave'],
    ['12 N Main St', '12 Main St S'],
    ['12 E 5th St', '12 W 5th St'],
  ])('%s and %s: two streets (another directional), whatever their letters', (x, y) => {
    expect(whole(x, y)).not.toBe('exact');
    expect(whole(x, y)).not.toBe('typo');
    expect(street(x, y)).toBe('disagree');
  });

  it('a directional on one side only is no difference', () => {
    expect(directionalsDiffer('n main st', 'main st')).toBe(false);
    expect(directionalsDiffer('w 100 s', 'w 100 s')).toBe(false);
    expect(whole('12 N Main St', '12 Main St')).toBe('exact');
    expect(street('12 Main St', '12 Main St NW')).toBe('fuzzy-high');
  });

  it('both tests are symmetric (property)', () => {
    const word = fc.constantFrom('n', 's', 'e', 'w', 'ne', 'nw', 'main', 'st', 'oak', 'ave', '1st');
    const streetOf = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(streetOf, streetOf, (a, b) => {
        expect(directionalsDiffer(a, b)).toBe(directionalsDiffer(b, a));
        expect(directionalMoved(a, b)).toBe(directionalMoved(b, a));
        if (directionalMoved(a, b)) expect(directionalsDiffer(a, b)).toBe(false);
      }),
    );
  });
});

describe('numbers in streets', () => {
  it('"PO Box #12" is box 12, not a box without a number and a unit', () => {
    expect(at('PO Box #12').street).toBe('po box 12');
    expect(at('PO Box # 12').street).toBe('po box 12');
    expect(at('PO Box #12').unit).toBeNull();
    expect(street('PO Box #12', 'PO Box #99')).toBe('disagree');
    expect(whole('PO Box #12', 'PO Box #99')).not.toBe('part');
    expect(street('PO Box #12', 'P.O. Box 12')).toBe('exact');
  });

  it('"Box #12" and a rural route\'s "Box #5" are numbered boxes too, not one box and a unit', () => {
    expect(at('Box #12').street).toBe(at('Box 12').street);
    expect(at('Box #12').unit).toBeNull();
    expect(at('RR 2 Box #5').street).toBe('rr 2 box 5');
    expect(at('Rural Route 2 Box # 5').street).toBe('rr 2 box 5');
    expect(at('HC 1 Box #5').street).toBe('hc 1 box 5');
    expect(whole('RR 2 Box #5', 'RR 2 Box #9')).not.toBe('part');
    expect(whole('Box #12', 'Box #99')).not.toBe('part');
    expect(whole('RR 2 Box #5', 'RR 2 Box 5')).toBe('part');
    // A unit after a house number stays a unit.
    expect(at('12 Main St #5').unit).toBe('# 5');
  });

  it.each([
    ['PO Box 12', 'PO Box 99'],
    ['12 W 35th St', '12 W 47th St'],
    ['12 County Road 5', '12 County Road 17'],
  ])('the CRM reads %s and %s as two streets (other numbers), as files do', (x, y) => {
    expect(street(x, y)).toBe('disagree');
    expect(whole(x, y)).not.toBe('exact');
  });

  it.each([
    ['PO Box 12', 'PO Box 13'],
    ['12 W 35th St', '12 W 36th St'],
    ['3 12th St', '3 72th St'],
    ['12 County Road 5', '12 County Road 7'],
  ])('numbers one slip apart (%s, %s): the CRM keeps what the letters say (a typo), files read two streets', (x, y) => {
    expect(street(x, y)).not.toBe('disagree');
    expect(whole(x, y)).not.toBe('exact');
  });

  it("a number's leading zeros are no other number", () => {
    expect(numbersDiffer('po box 0012', 'po box 12')).toBe(false);
    expect(numbersDiffer('po box 0', 'po box 00')).toBe(false);
    expect(numbersDiffer('po box 102', 'po box 12')).toBe(true);
    expect(street('PO Box 0012', 'PO Box 12')).toBe('fuzzy-high');
    expect(whole('PO Box 0012', 'PO Box 12')).toBe('part');
  });

  it('numbers are read one by one, not as one run of digits: "RR 1 Box 23" is not "RR 12 Box 3"', () => {
    expect(numbersDiffer('rr 1 box 23', 'rr 12 box 3')).toBe(true);
    expect(numbersDiffer('rr 12 box 3', 'rr 123')).toBe(true);
    expect(numbersDiffer('rr 2 box 05', 'rr 2 box 5')).toBe(false);
    expect(whole('RR 1 Box 23', 'Rural Route 12 Box 3')).not.toBe('part');
    expect(street('RR 1 Box 23', 'RR 12 Box 3')).toBe('disagree');
    // One slip in one of the numbers is still a typo to the CRM.
    expect(street('RR 2 Box 5', 'RR 2 Box 6')).not.toBe('disagree');
  });

  it.each([
    ['12 Rte 9', '12 Rte 9W'],
    ['12 US 9W', '12 US Hwy 9E'],
    ['12 CR 5', '12 County Road 5A'],
    ['PO Box 12', 'PO Box 12A'],
  ])("a letter written after a road's or a box's number is another road or box: %s, %s", (x, y) => {
    expect(whole(x, y)).not.toBe('exact');
    expect(whole(x, y)).not.toBe('part');
    expect(street(x, y)).toBe('disagree');
  });

  it("an ordinal's letters, or the same letter, are no other number", () => {
    expect(numbersDiffer('w 35th st', 'w 35t st')).toBe(false);
    expect(numbersDiffer('w 1st st', 'w 1s st')).toBe(false);
    expect(numbersDiffer('rte 9w', 'rte 9w n')).toBe(false);
    expect(numbersDiffer('rr 2 box 5-b', 'rr 2 box 5b')).toBe(false);
    expect(whole('12 Rte 9W', '12 Rte 9 W')).toBe('exact');
  });

  it('numbersDiffer is symmetric (property)', () => {
    const text = fc.stringMatching(/^[a-z0-9 ]{0,10}$/);
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(numbersDiffer(a, b)).toBe(numbersDiffer(b, a));
      }),
    );
  });
});

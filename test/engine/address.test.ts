import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ADDRESS_TABLES, normalizeAddress, UNIT_DESIGNATORS, USPS_STREET_SUFFIXES, type AddressTables } from '../../src/engine/address.js';
import { splitTokens } from '../../src/engine/address-street.js';
import type { AddressInput, NormalizedAddress } from '../../src/engine/types.js';

const EMPTY: NormalizedAddress = {
  number: null,
  street: null,
  unit: null,
  building: null,
  city: null,
  state: null,
  zip: null,
  country: null,
};

type Row = [input: AddressInput, expected: Partial<NormalizedAddress>, defaultCountry?: string];

const PAIRS: Row[] = [
  // Street lines: number, directionals, suffix (USPS Pub 28 C1), unit (C2).
  [{ addressLine1: '1600 Pennsylvania Avenue NW' }, { number: '1600', street: 'pennsylvania ave nw' }],
  [{ addressLine1: '1600 Pennsylvania Ave. N.W.' }, { number: '1600', street: 'pennsylvania ave nw' }],
  [{ addressLine1: '1600 pennsylvania av northwest' }, { number: '1600', street: 'pennsylvania ave nw' }],
  [{ addressLine1: '900 N Washtenaw Ave' }, { number: '900', street: 'n washtenaw ave' }],
  [{ addressLine1: '900 North Washtenaw Avenue' }, { number: '900', street: 'n washtenaw ave' }],
  [{ addressLine1: '900 Nth. Washtenaw Av' }, { number: '900', street: 'n washtenaw ave' }],
  [{ addressLine1: '10 Northeast Oak Blvd' }, { number: '10', street: 'ne oak blvd' }],
  [{ addressLine1: '10 N.E. Oak Boulevard' }, { number: '10', street: 'ne oak blvd' }],
  [{ addressLine1: '10 North East Oak Boul' }, { number: '10', street: 'ne oak blvd' }],
  [{ addressLine1: '5 Main Street South' }, { number: '5', street: 'main st s' }],
  [{ addressLine1: '5 Main St S.W.' }, { number: '5', street: 'main st sw' }],
  [{ addressLine1: '7 E St NW' }, { number: '7', street: 'e st nw' }],
  [{ addressLine1: '7 East Street' }, { number: '7', street: 'e st' }],
  [{ addressLine1: '1 Park Avenue' }, { number: '1', street: 'park ave' }],
  [{ addressLine1: '1 Lake Shore Drive' }, { number: '1', street: 'lake shore dr' }],
  [{ addressLine1: '12 Goldfinch Circuit' }, { number: '12', street: 'goldfinch cct' }],
  [{ addressLine1: '3 Sunset Crescent' }, { number: '3', street: 'sunset cres' }],
  [{ addressLine1: '3 Sunset Cres.' }, { number: '3', street: 'sunset cres' }],
  [{ addressLine1: '4 Oak Cir' }, { number: '4', street: 'oak cir' }],
  [{ addressLine1: '4 Oak Circle' }, { number: '4', street: 'oak cir' }],
  [{ addressLine1: '4 Oak Crcl' }, { number: '4', street: 'oak cir' }],
  [{ addressLine1: '100 Highway 101' }, { number: '100', street: 'hwy 101' }],
  [{ addressLine1: '100 Hiway 101 N' }, { number: '100', street: 'hwy 101 n' }],
  [{ addressLine1: '5 Avenue B' }, { number: '5', street: 'ave b' }],
  [{ addressLine1: '350 Fifth Avenue' }, { number: '350', street: '5th ave' }],
  [{ addressLine1: '350 5th Ave' }, { number: '350', street: '5th ave' }],
  // Compound ordinal words, hyphenated or not, are one numbered street (probe-recall).
  [{ addressLine1: '300 West Twenty-Third Street' }, { number: '300', street: 'w 23rd st' }],
  [{ addressLine1: '300 W Twenty Third St' }, { number: '300', street: 'w 23rd st' }],
  [{ addressLine1: '9 Twenty-First Avenue' }, { number: '9', street: '21st ave' }],
  [{ addressLine1: '5 East Forty-Second Street' }, { number: '5', street: 'e 42nd st' }],
  [{ addressLine1: '100 Thirtieth St' }, { number: '100', street: '30th st' }],
  [{ addressLine1: '12 Twenty St' }, { number: '12', street: 'twenty st' }],
  // A long suffix word with one slip after the street's name is that suffix; a street named like one is not.
  [{ addressLine1: '145 West 5th Streeet' }, { number: '145', street: 'w 5th st' }],
  [{ addressLine1: '12 Main Stret' }, { number: '12', street: 'main st' }],
  [{ addressLine1: '9 Park Aveune' }, { number: '9', street: 'park ave' }],
  [{ addressLine1: '1 Sunset Boulevrd' }, { number: '1', street: 'sunset blvd' }],
  [{ addressLine1: '8 Streed' }, { number: '8', street: 'streed' }],
  [{ addressLine1: '5 Circe St' }, { number: '5', street: 'circe st' }],
  [{ addressLine1: '40 Lake Terrance' }, { number: '40', street: 'lake terrance' }],
  [{ addressLine1: '1 Saint Charles Ave' }, { number: '1', street: 'st charles ave' }],
  [{ addressLine1: '1 St. Charles Ave' }, { number: '1', street: 'st charles ave' }],
  [{ addressLine1: '9 Mount Vernon Pl' }, { number: '9', street: 'mt vernon pl' }],
  [{ addressLine1: '20 Wilkes-Barre Blvd' }, { number: '20', street: 'wilkes barre blvd' }],
  [{ addressLine1: "20 O'Farrell St" }, { number: '20', street: 'o farrell st' }],
  [{ addressLine1: '742 Évergreen Terrace' }, { number: '742', street: 'evergreen ter' }],
  [{ addressLine1: 'Straße 5' }, { street: 'strasse 5' }],
  // House numbers.
  [{ addressLine1: '12B Main St' }, { number: '12b', street: 'main st' }],
  [{ addressLine1: '12-B Main St' }, { number: '12b', street: 'main st' }],
  // The letter written apart (probe-recall); not a directional, a street's own letter or initials.
  [{ addressLine1: '12 B Main St' }, { number: '12b', street: 'main st' }],
  [{ addressLine1: '12 B Main St Apt 4' }, { number: '12b', street: 'main st', unit: 'apt 4' }],
  [{ addressLine1: '12 N Main St' }, { number: '12', street: 'n main st' }],
  [{ addressLine1: '12 A Street' }, { number: '12', street: 'a st' }],
  [{ addressLine1: '100 B Avenue North' }, { number: '100', street: 'b ave n' }],
  [{ addressLine1: '12 J F Kennedy Blvd' }, { number: '12', street: 'j f kennedy blvd' }],
  [{ addressLine1: '12-14 Main St' }, { number: '12-14', street: 'main st' }],
  [{ addressLine1: '12 1/2 Main St' }, { number: '12 1/2', street: 'main st' }],
  [{ addressLine1: '0012 Main St' }, { number: '12', street: 'main st' }],
  [{ addressLine1: 'Main Street' }, { number: null, street: 'main st' }],
  // Units in line 1, in line 2, before the number, written number first.
  [{ addressLine1: '123 Main St Apt 4B' }, { number: '123', street: 'main st', unit: 'apt 4b' }],
  [{ addressLine1: '123 Main St, Apartment 4-B' }, { number: '123', street: 'main st', unit: 'apt 4b' }],
  [{ addressLine1: '123 Main St Apt. #4B' }, { number: '123', street: 'main st', unit: 'apt 4b' }],
  [{ addressLine1: '123 Main St apt4b' }, { number: '123', street: 'main st', unit: 'apt 4b' }],
  [{ addressLine1: '123 Main St #4B' }, { number: '123', street: 'main st', unit: '# 4b' }],
  [{ addressLine1: '123 Main St # 4B' }, { number: '123', street: 'main st', unit: '# 4b' }],
  [{ addressLine1: '123 Main St Suite 200' }, { number: '123', street: 'main st', unit: 'ste 200' }],
  [{ addressLine1: '123 Main St Ste 200' }, { number: '123', street: 'main st', unit: 'ste 200' }],
  [{ addressLine1: '123 Main St Unit B' }, { number: '123', street: 'main st', unit: 'unit b' }],
  [{ addressLine1: '123 Main St Rear' }, { number: '123', street: 'main st', unit: 'rear' }],
  [{ addressLine1: '123 Main St Bldg 5 Rm 12' }, { number: '123', street: 'main st', unit: 'bldg 5 rm 12' }],
  [{ addressLine1: '123 Main St 2nd Floor' }, { number: '123', street: 'main st', unit: 'fl 2' }],
  [{ addressLine1: 'Apt 4, 123 Main St' }, { number: '123', street: 'main st', unit: 'apt 4' }],
  [
    { addressLine1: '123 Main St', addressLine2: 'Apt 3' },
    { number: '123', street: 'main st', unit: 'apt 3' },
  ],
  [
    { addressLine1: '123 Main St', addressLine2: 'Suite 101', addressLine3: 'Marketing Department' },
    { number: '123', street: 'main st', unit: 'ste 101', building: 'marketing department' },
  ],
  [{ addressLine1: '123 Main St', addressLine2: '34th Floor' }, { unit: 'fl 34' }],
  [
    { streetNumber: '7', streetName: 'stenhouse close', addressLine2: 'flr 5 john flynn medical centre' },
    { number: '7', street: 'stenhouse cl', unit: 'fl 5', building: 'john flynn medical centre' },
  ],
  [
    { addressLine1: '14 Kirkwood Crescent', addressLine2: 'Apt 16, The Village' },
    { unit: 'apt 16', building: 'the village' },
  ],
  [
    { addressLine1: '1 Main St', addressLine2: 'Apt 4 B' },
    { unit: 'apt 4b', building: null },
  ],
  [{ addressLine1: '123 Main St', addressLine2: 'Floor 34' }, { unit: 'fl 34' }],
  // Words that are designators but not units here.
  [{ addressLine1: '12 Front St' }, { number: '12', street: 'front st', unit: null }],
  [{ addressLine1: '12 Key West Dr' }, { number: '12', street: 'key west dr', unit: null }],
  [{ addressLine1: '12 Upper Ridge Rd' }, { number: '12', street: 'upper ridge rd', unit: null }],
  [{ addressLine1: '12 Suite Rd' }, { number: '12', street: 'suite rd', unit: null }],
  // Other lines: attention dropped, buildings kept, street found on line 2.
  [
    { addressLine1: '123 Main St', addressLine2: 'Apt 3', addressLine3: 'c/o Jane Smith' },
    { unit: 'apt 3', building: null },
  ],
  [
    { addressLine1: 'Attn: Billing', addressLine2: '123 Main St' },
    { number: '123', street: 'main st', building: null },
  ],
  [
    { addressLine1: 'Sunset Towers', addressLine2: '77 Ocean Dr #12' },
    { number: '77', street: 'ocean dr', unit: '# 12', building: 'sunset towers' },
  ],
  [
    { addressLine1: '6 Tullaroop Street', addressLine2: 'Willaroo' },
    { number: '6', street: 'tullaroop st', building: 'willaroo' },
  ],
  // A missing street stays missing: a later line without a number is a building.
  [
    { streetNumber: '1', streetName: '', addressLine2: 'rosetta village' },
    { number: '1', street: null, building: 'rosetta village' },
  ],
  [{ addressLine2: 'Main Street' }, { street: null, building: 'main street' }],
  [
    { addressLine1: 'Apt 4', addressLine2: 'Sunset Towers' },
    { street: null, unit: 'apt 4', building: 'sunset towers' },
  ],
  [{ addressLine1: 'P.O. Box 123' }, { number: null, street: 'po box 123' }],
  [{ addressLine1: 'PO BOX 123' }, { number: null, street: 'po box 123' }],
  [{ addressLine1: 'Post Office Box 123' }, { number: null, street: 'po box 123' }],
  [{ addressLine1: 'POB 123' }, { number: null, street: 'po box 123' }],
  [{ streetName: 'P.O. Box 123' }, { number: null, street: 'po box 123' }],
  [{ addressLine1: '12 Pobst Rd' }, { number: '12', street: 'pobst rd' }],
  // Separate street fields (FEBRL: street_number, address_1, address_2).
  [
    { streetNumber: '48', streetName: 'goldfinch circuit', addressLine2: 'kooltuo' },
    { number: '48', street: 'goldfinch cct', building: 'kooltuo' },
  ],
  [
    { streetNumber: '48', streetName: 'Goldfinch Cct' },
    { number: '48', street: 'goldfinch cct' },
  ],
  [{ streetName: '48 goldfinch circuit' }, { number: '48', street: 'goldfinch cct' }],
  [
    { streetNumber: '1', streetName: '17 Mile Drive' },
    { number: '1', street: '17 mile dr' },
  ],
  [
    { streetNumber: '12 1/2', streetName: 'Main' },
    { number: '12 1/2', street: 'main' },
  ],
  [
    { streetNumber: '', streetName: '', addressLine1: '9 Elm St' },
    { number: '9', street: 'elm st' },
  ],
  [
    { streetNumber: '5', addressLine1: 'Elm St' },
    { number: '5', street: 'elm st' },
  ],
  [
    { streetNumber: '5', streetName: 'Elm St', addressLine1: '5 Elm Street' },
    { number: '5', street: 'elm st', building: null },
  ],
  // City, state, ZIP, country.
  [
    { city: 'Saint Louis', stateOrProvince: 'Missouri' },
    { city: 'st louis', state: 'mo' },
  ],
  [
    { city: 'St. Louis', stateOrProvince: 'MO' },
    { city: 'st louis', state: 'mo' },
  ],
  [
    { city: 'SAN JOSÉ', stateOrProvince: 'California' },
    { city: 'san jose', state: 'ca' },
  ],
  [
    { city: 'Montréal', stateOrProvince: 'Québec' },
    { city: 'montreal', state: 'qc' },
  ],
  [{ stateOrProvince: 'N.Y.' }, { state: 'ny' }],
  [{ stateOrProvince: 'New York' }, { state: 'ny' }],
  [{ stateOrProvince: 'Calif.' }, { state: 'ca' }],
  [{ stateOrProvince: 'District of Columbia' }, { state: 'dc' }],
  [{ stateOrProvince: 'British Columbia' }, { state: 'bc' }],
  [{ stateOrProvince: 'New South Wales' }, { state: 'nsw' }],
  [{ stateOrProvince: 'qld' }, { state: 'qld' }],
  [{ stateOrProvince: 'Bavaria' }, { state: 'bavaria' }],
  [{ zipOrPostalCode: '20009' }, { zip: '20009', country: null }],
  [{ zipOrPostalCode: '20009-1234' }, { zip: '20009' }],
  [{ zipOrPostalCode: '20009 1234' }, { zip: '20009' }],
  [{ zipOrPostalCode: '200091234' }, { zip: '20009' }],
  [
    { zipOrPostalCode: '20009-1234', countryCode: 'US' },
    { zip: '20009', country: 'US' },
  ],
  [{ zipOrPostalCode: '2134', countryCode: 'US' }, { zip: '2134' }],
  // A US ZIP with one digit read by OCR as a letter; not two, nor a British postal code, nor
  // where the country is unknown (Luxembourg's L-1234, Argentina's B1636).
  [{ zipOrPostalCode: 'l7298' }, { zip: '17298' }, 'US'],
  [{ zipOrPostalCode: '9O21O-1234' }, { zip: '9o21o1234' }, 'US'],
  [{ zipOrPostalCode: '6O614' }, { zip: '60614' }, 'US'],
  [{ zipOrPostalCode: '20O09 1234' }, { zip: '20009' }, 'US'],
  [{ zipOrPostalCode: '46 4LL' }, { zip: '464ll' }, 'US'],
  [{ zipOrPostalCode: 'S1 2BZ' }, { zip: 's12bz' }, 'US'],
  [{ zipOrPostalCode: 'L-1234' }, { zip: 'l1234' }],
  [{ zipOrPostalCode: 'B1636' }, { zip: 'b1636' }],
  [{ zipOrPostalCode: '2134' }, { zip: '2134' }, 'US'],
  [{ zipOrPostalCode: '4011' }, { zip: '4011' }],
  [
    { zipOrPostalCode: '4011', countryCode: 'AU' },
    { zip: '4011', country: 'AU' },
  ],
  [
    { zipOrPostalCode: 'SW1A 1AA', countryCode: 'GB' },
    { zip: 'sw1a1aa', country: 'GB' },
  ],
  [
    { zipOrPostalCode: 'sw1a-1aa', countryCode: 'UK' },
    { zip: 'sw1a1aa', country: 'GB' },
  ],
  [
    { zipOrPostalCode: 'K1A 0B6', countryCode: 'Canada' },
    { zip: 'k1a0b6', country: 'CA' },
  ],
  [
    { zipOrPostalCode: '75008', countryCode: 'FR' },
    { zip: '75008', country: 'FR' },
  ],
  [{ countryCode: 'United States' }, { country: 'US' }],
  [{ countryCode: 'U.S.A.' }, { country: 'US' }],
  [{ countryCode: 'U.S.' }, { country: 'US' }],
  [{ countryCode: 'usa' }, { country: 'US' }],
  [{ countryCode: 'United Kingdom' }, { country: 'GB' }],
  [{ countryCode: 'Australia' }, { country: 'AU' }],
  [{ countryCode: 'ca' }, { country: 'CA' }],
  [{ countryCode: 'Narnia' }, { country: 'CA' }, 'ca'],
  [{ countryCode: 'Narnia' }, { country: null }],
  [{}, { country: 'US' }, 'US'],
  [{ countryCode: 'GB' }, { country: 'GB' }, 'US'],
];

describe('normalizeAddress pairs', () => {
  for (const [input, expected, defaultCountry] of PAIRS) {
    it(`${JSON.stringify(input)}${defaultCountry ? ` (${defaultCountry})` : ''}`, () => {
      const result = normalizeAddress(input, defaultCountry === undefined ? undefined : { defaultCountry });
      expect(result).toMatchObject(expected);
    });
  }

  it('gives a full address every part', () => {
    expect(
      normalizeAddress({
        addressLine1: '900 N Washtenaw Ave',
        city: 'Chicago',
        stateOrProvince: 'IL',
        zipOrPostalCode: '60622-4455',
        countryCode: 'US',
      }),
    ).toEqual({
      number: '900',
      street: 'n washtenaw ave',
      unit: null,
      building: null,
      city: 'chicago',
      state: 'il',
      zip: '60622',
      country: 'US',
    });
  });

  it('reads the street behind a firm or care-of prefix on the same line', () => {
    expect(normalizeAddress({ addressLine1: 'Acme Store, 12 Main St', zipOrPostalCode: '53703' })).toMatchObject({
      number: '12',
      street: 'main st',
      zip: '53703',
    });
    expect(normalizeAddress({ addressLine1: 'c/o Dana Park, 9 Elm Rd' })).toMatchObject({ number: '9', street: 'elm rd' });
    expect(normalizeAddress({ addressLine1: 'Riverside Clinic, PO Box 14' })).toMatchObject({ number: null });
    // A comma inside an ordinary street line changes nothing.
    expect(normalizeAddress({ addressLine1: '12 Main St, Apt 4' })).toMatchObject({ number: '12', street: 'main st', unit: 'apt 4' });
  });

  it('returns nulls for absent parts and for junk', () => {
    expect(normalizeAddress({})).toEqual(EMPTY);
    expect(normalizeAddress({ addressLine1: '   ', city: '', stateOrProvince: null, zipOrPostalCode: undefined })).toEqual(EMPTY);
    expect(normalizeAddress({ addressLine1: '!!! --- ///' })).toEqual(EMPTY);
    expect(normalizeAddress(null)).toEqual(EMPTY);
    expect(normalizeAddress({ addressLine1: 42 as unknown as string })).toMatchObject({ number: null, street: '42' });
  });

  it('standardizes every USPS Pub 28 C1 form to its abbreviation', () => {
    expect(USPS_STREET_SUFFIXES.size).toBeGreaterThan(480);
    for (const [form, abbreviation] of USPS_STREET_SUFFIXES) {
      expect(normalizeAddress({ addressLine1: `10 Quincy ${form}` }).street).toBe(`quincy ${abbreviation}`);
    }
  });

  it('reads its tables from the options', () => {
    const tables: AddressTables = { ...DEFAULT_ADDRESS_TABLES, suffixes: new Map([['strasse', 'str']]) };
    expect(normalizeAddress({ addressLine1: '5 Hauptstrasse' }, { tables }).street).toBe('hauptstrasse');
    expect(normalizeAddress({ addressLine1: '5 Haupt Strasse' }, { tables }).street).toBe('haupt str');
    expect(normalizeAddress({ addressLine1: '5 Haupt Street' }, { tables }).street).toBe('haupt street');
  });
});

/** Writes a normalized address back as an address: number and street on line 1. */
function asLines(a: NormalizedAddress): AddressInput {
  return {
    addressLine1: [a.number, a.street].filter((p) => p !== null).join(' '),
    addressLine2: a.unit,
    addressLine3: a.building,
    city: a.city,
    stateOrProvince: a.state,
    zipOrPostalCode: a.zip,
    countryCode: a.country,
  };
}

/** Writes a normalized address back as separate street fields (a CSV file). */
function asFields(a: NormalizedAddress): AddressInput {
  return { ...asLines(a), addressLine1: null, streetNumber: a.number, streetName: a.street };
}

const word = fc.constantFrom(
  'main',
  'oak',
  'north',
  'n',
  'east',
  'street',
  'st',
  'avenue',
  'ave',
  'apt',
  'suite',
  '#',
  'unit',
  'rear',
  'saint',
  'first',
  'highway',
  'park',
  'circle',
  'po',
  'box',
  'c/o',
  'floor',
  '3rd',
  'b',
  'x',
  'nw',
  'lake',
  'shore',
  '12',
  '4b',
  '12-14',
  '1/2',
  'é',
  'Straße',
  'front',
  'key',
  'west',
  '0',
  '-',
  ',',
  '.',
);
const line = fc.array(word, { maxLength: 8 }).map((ws) => ws.join(' '));
const addressInput = fc.record(
  {
    addressLine1: fc.oneof(line, fc.string()),
    addressLine2: fc.oneof(line, fc.string()),
    addressLine3: line,
    streetNumber: fc.oneof(fc.constantFrom('12', '12b', '12 1/2', '12-14', ''), fc.string({ maxLength: 4 })),
    streetName: line,
    city: fc.oneof(fc.constantFrom('Saint Louis', 'Montréal', 'new york'), fc.string()),
    stateOrProvince: fc.oneof(fc.constantFrom('California', 'IL', 'n.y.', 'Bavaria'), fc.string({ maxLength: 6 })),
    zipOrPostalCode: fc.oneof(fc.constantFrom('20009-1234', '2134', 'SW1A 1AA', '4011', '200091234'), fc.string({ maxLength: 10 })),
    countryCode: fc.oneof(fc.constantFrom('US', 'usa', 'United Kingdom', 'ca', 'AU', 'Narnia'), fc.string({ maxLength: 4 })),
  },
  { requiredKeys: [] },
);

// Forms that are also unit designators ("trailer 5", "key 3") are ambiguous by nature: left out.
const SUFFIX_FORMS = [...USPS_STREET_SUFFIXES].filter(
  ([form, abbreviation]) => form.length > 2 && !UNIT_DESIGNATORS.has(form) && !UNIT_DESIGNATORS.has(abbreviation),
);
/** A US-style address as people write it: [input, expected number, a name word, the standard suffix]. */
const realisticAddress = fc
  .tuple(
    fc.integer({ min: 1, max: 99999 }),
    fc.constantFrom('', 'B', '-A', ' 1/2'),
    fc.constantFrom('', 'N ', 'North ', 'S.W. ', 'Southwest '),
    fc.constantFrom('Main', 'Oak', 'Martin Luther King', 'Pennsylvania', 'Elm', "O'Farrell", 'Évergreen'),
    fc.constantFrom(...SUFFIX_FORMS),
    fc.constantFrom('', ' NW', ' East', ' S'),
    fc.constantFrom('', ', Apt 4B', ' #12', ' Suite 200', ' Ste. 3', ' Unit C', ' 2nd Floor'),
    fc.constantFrom(null, 'Apt 7', 'Sunset Towers', 'c/o Jane Doe'),
  )
  .map(([n, extra, pre, name, [form, suffix], post, unit, line2]): [AddressInput, string, string, string] => {
    const number = `${n}${extra}`;
    const input: AddressInput = {
      addressLine1: `${number} ${pre}${name} ${form.toUpperCase()}${post}${unit}`,
      addressLine2: line2,
      city: 'Springfield',
      stateOrProvince: 'Illinois',
      zipOrPostalCode: '62701-1234',
    };
    const expected = `${n}${extra.replace('-', '').toLowerCase()}`;
    return [input, expected, name.toLowerCase().replace(/é/g, 'e').replace(/'/g, ' ').split(' ')[0] as string, suffix];
  });

const streetLine = realisticAddress.map(([input]) => input.addressLine1 as string);
const UNIT_LINES = [
  'Apt 4B',
  'Apt. #4-B',
  'Suite 200',
  '#12',
  'Unit C',
  '2nd Floor',
  'Floor 3',
  'Rear',
  'Bldg 5 Rm 12',
  'Flr 5 John Flynn Medical Centre',
  'apt 27',
  'Lot 12',
  'PH',
  'Ste 3 Upper',
];
const OTHER_LINES = [
  'Sunset Towers',
  'Willaroo',
  'The Village',
  'Marketing Department',
  'c/o Jane Doe',
  'Attn: Billing',
  'P.O. Box 123',
  'PO BOX 5',
  'Belmont Park Belted Galloway Stud',
  'Allandale Aged Care Facility',
  '',
];
/** Addresses whose lines are each plausible, in any arrangement (street on line 2, unit on line 1...). */
const arrangedAddress = fc.record(
  {
    addressLine1: fc.oneof(streetLine, fc.constantFrom(...UNIT_LINES, ...OTHER_LINES)),
    addressLine2: fc.oneof(streetLine, fc.constantFrom(...UNIT_LINES, ...OTHER_LINES)),
    addressLine3: fc.constantFrom(...UNIT_LINES, ...OTHER_LINES),
    streetNumber: fc.constantFrom('12', '12b', '12 1/2', '12-14', '48', ''),
    streetName: fc.constantFrom('goldfinch circuit', 'Tullaroop Street', 'N Main St', 'Highway 101', 'PO Box 9', ''),
  },
  { requiredKeys: [] },
);

describe('normalizeAddress properties', { timeout: 60_000 }, () => {
  it('is total on any strings, including huge ones and lone surrogates', () => {
    fc.assert(
      fc.property(addressInput, fc.string({ unit: 'binary' }), (input, junk) => {
        normalizeAddress(input);
        normalizeAddress({
          addressLine1: junk,
          addressLine2: junk,
          city: junk,
          stateOrProvince: junk,
          zipOrPostalCode: junk,
          countryCode: junk,
          streetNumber: junk,
          streetName: junk,
        });
      }),
      { numRuns: 1000 },
    );
    const huge = `1 Main St ${'x '.repeat(50_000)}`;
    expect(normalizeAddress({ addressLine1: huge, city: huge, zipOrPostalCode: huge }).number).toBe('1');
    expect(normalizeAddress({ addressLine1: '1 '.repeat(50_000) }).number).toBeNull();
    expect(normalizeAddress({ addressLine1: '#'.repeat(100_000) }).street).toBeNull();
    expect(normalizeAddress({ addressLine1: '\ud800 12 Main St \udfff' })).toMatchObject({ number: '12', street: 'main st' });
  });

  it('is idempotent: its output written back as fields normalizes to itself', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          arrangedAddress,
          realisticAddress.map(([input]) => input),
        ),
        fc.constantFrom(undefined, 'US', 'GB'),
        (input, defaultCountry) => {
          const once = normalizeAddress(input, { defaultCountry });
          expect(normalizeAddress(asFields(once), { defaultCountry })).toEqual(once);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('is idempotent on realistic addresses written back as lines, and reads their parts', () => {
    fc.assert(
      fc.property(realisticAddress, ([input, number, name, suffix]) => {
        const once = normalizeAddress(input);
        expect(once.number).toBe(number);
        expect(once.street).toContain(name);
        expect(once.street).toContain(suffix);
        expect(normalizeAddress(asLines(once))).toEqual(once);
        expect(normalizeAddress(asFields(once))).toEqual(once);
      }),
      { numRuns: 3000 },
    );
  });

  it('ignores case and accents', () => {
    fc.assert(
      fc.property(addressInput, fc.boolean(), (input, upper) => {
        const change = (s: string | null | undefined): string | null | undefined => (typeof s === 'string' ? (upper ? s.toUpperCase() : s.toLowerCase()) : s);
        const variant: AddressInput = {
          addressLine1: change(input.addressLine1),
          addressLine2: change(input.addressLine2),
          city: change(input.city),
          stateOrProvince: change(input.stateOrProvince),
          zipOrPostalCode: change(input.zipOrPostalCode),
          countryCode: change(input.countryCode),
          streetNumber: change(input.streetNumber),
          streetName: change(input.streetName),
          addressLine3: change(input.addressLine3),
        };
        const plain = { ...input };
        expect(normalizeAddress(variant)).toEqual(normalizeAddress(plain));
      }),
      { numRuns: 1000 },
    );
    expect(normalizeAddress({ addressLine1: '742 ÉVERGREEN TERRACE', city: 'MONTRÉAL' })).toEqual(
      normalizeAddress({ addressLine1: '742 evergreen terrace', city: 'montreal' }),
    );
  });

  it('reduces every ZIP+4 to its ZIP5', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{5}$/),
        fc.stringMatching(/^\d{4}$/),
        fc.constantFrom('-', ' ', ''),
        fc.constantFrom(undefined, 'US', 'usa'),
        (zip, plus4, sep, countryCode) => {
          expect(normalizeAddress({ zipOrPostalCode: `${zip}${sep}${plus4}`, countryCode }).zip).toBe(zip);
          expect(normalizeAddress({ zipOrPostalCode: ` ${zip} `, countryCode }).zip).toBe(zip);
        },
      ),
    );
  });
});

describe('splitTokens', () => {
  it('gives the pieces the Unicode separator expression gives', () => {
    const pieces = (s: string): string[] => s.split(/[^\p{L}\p{N}#/-]+/u).filter((t) => t.length > 0);
    const ascii = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '9', ' ', ',', '.', '#', '-', '/', "'", '_', '\t'), maxLength: 16 });
    fc.assert(
      fc.property(fc.oneof(ascii, fc.string({ unit: 'binary', maxLength: 16 })), (s) => {
        expect(splitTokens(s).filter((t) => t.length > 0)).toEqual(pieces(s));
      }),
      { numRuns: 3000 },
    );
  });
});

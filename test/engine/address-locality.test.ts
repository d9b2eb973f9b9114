import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitLocality } from '../../src/engine/address-locality.js';
import { compareUnit } from '../../src/engine/compare.js';
import { DEFAULT_ADDRESS_TABLES } from '../../src/engine/address-tables.js';
import { normalizeAddress } from '../../src/engine/address.js';

const split = (line: string): ReturnType<typeof splitLocality> => splitLocality(line, DEFAULT_ADDRESS_TABLES);

describe('splitLocality', () => {
  it.each([
    ['12 Main St, Springfield, MA 01101', { line: '12 Main St', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    ['12 Main St Springfield MA 01101', { line: '12 Main St', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    ['12 Main St NW Springfield 01101', { line: '12 Main St NW', city: 'Springfield', state: null, zip: '01101', country: null }],
    ['714 Canada St, New York 11329', { line: '714 Canada St', city: 'New York', state: null, zip: '11329', country: null }],
    ['5 Main St, New York, NY 10001-1234', { line: '5 Main St', city: 'New York', state: 'ny', zip: '10001-1234', country: null }],
    ['12 Main St, Springfield, Massachusetts 01101', { line: '12 Main St', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    ['12 Main St, Springfield, MA', { line: '12 Main St', city: 'Springfield', state: 'ma', zip: null, country: null }],
    ['77 Ocean Dr, Miami Beach, FL 33139, USA', { line: '77 Ocean Dr', city: 'Miami Beach', state: 'fl', zip: '33139', country: 'US' }],
    ['Flat 2, 10 High Street, Leeds LS1 4AB', { line: 'Flat 2, 10 High Street', city: 'Leeds', state: null, zip: 'LS1 4AB', country: null }],
    ['10 High Street, Leeds, West Yorkshire, LS1 4AB, UK', { line: '10 High Street', city: 'Leeds', state: null, zip: 'LS1 4AB', country: 'GB' }],
    ['Acme Store, 12 Main St, Toronto, ON M5V 2T6', { line: 'Acme Store, 12 Main St', city: 'Toronto', state: 'on', zip: 'M5V 2T6', country: null }],
    // Units stay with the street; towns beginning like a suffix; suffixes and directionals that are state codes.
    ['5 Elm St, Apt 4, Springfield, MA 01101', { line: '5 Elm St, Apt 4', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    ['12 Main St Apt 4 Springfield MA 01101', { line: '12 Main St Apt 4', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    ['12 Main St #4 Springfield MA 01101', { line: '12 Main St #4', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    ['12 Oak Ave St Paul MN 55101', { line: '12 Oak Ave', city: 'St Paul', state: 'mn', zip: '55101', country: null }],
    ['12 Main St Fort Worth TX 76101', { line: '12 Main St', city: 'Fort Worth', state: 'tx', zip: '76101', country: null }],
    ['123 OAK ST NE 20002', { line: '123 OAK ST NE', city: null, state: null, zip: '20002', country: null }],
    ['12 OAK CT 06101', { line: '12 OAK CT', city: null, state: null, zip: '06101', country: null }],
    ['12 Main St, Springfield MA, 01101', { line: '12 Main St', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    // A state code that is also a country's ("IL": Israel); a county after the town; a PO box before the town.
    ['12 Main St, Springfield, IL', { line: '12 Main St', city: 'Springfield', state: 'il', zip: null, country: null }],
    // A state's code after the town with no postal code: the street's comma before them is enough.
    ['12 Main St, Springfield MA', { line: '12 Main St', city: 'Springfield', state: 'ma', zip: null, country: null }],
    ['12 MAIN ST, WEST HARTFORD CT', { line: '12 MAIN ST', city: 'WEST HARTFORD', state: 'ct', zip: null, country: null }],
    ['PO Box 5, Springfield IL', { line: 'PO Box 5', city: 'Springfield', state: 'il', zip: null, country: null }],
    ['Flat 3, 5 Park Rd, Bromley, Kent BR1 1AA', { line: 'Flat 3, 5 Park Rd', city: 'Bromley', state: null, zip: 'BR1 1AA', country: null }],
    ['PO Box 123 Springfield IL 62701', { line: 'PO Box 123', city: 'Springfield', state: 'il', zip: '62701', country: null }],
    // Australian postcodes after the state's code.
    ['12 Smith St, Sydney NSW 2000', { line: '12 Smith St', city: 'Sydney', state: 'nsw', zip: '2000', country: null }],
    ['12 Smith St Perth WA 6000', { line: '12 Smith St', city: 'Perth', state: 'wa', zip: '6000', country: null }],
    ['12 Smith St Melbourne Vic 3000', { line: '12 Smith St', city: 'Melbourne', state: 'vic', zip: '3000', country: null }],
    ['12 Smith St, Melbourne, Vic 3000', { line: '12 Smith St', city: 'Melbourne', state: 'vic', zip: '3000', country: null }],
    ['12 Smith St Perth wa 6000', { line: '12 Smith St', city: 'Perth', state: 'wa', zip: '6000', country: null }],
    // A numbered road's number is the road's, not the town's.
    ['12 Route 9 Springfield MA 01101', { line: '12 Route 9', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    ['12 County Road 5 Springfield MA 01101', { line: '12 County Road 5', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    ['12 Highway 101 Springfield MA 01101', { line: '12 Highway 101', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    ['12 State Route 17 Springfield MA 01101', { line: '12 State Route 17', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    ['12 US Hwy 1 Springfield MA 01101', { line: '12 US Hwy 1', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    ['12 Old Route 9W N Springfield MA 01101', { line: '12 Old Route 9W N', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    ['12 FM 1960 Houston TX 77001', { line: '12 FM 1960', city: 'Houston', state: 'tx', zip: '77001', country: null }],
    ['12 Route 9 St Paul MN 55101', { line: '12 Route 9', city: 'St Paul', state: 'mn', zip: '55101', country: null }],
    ['12 FM 1960 Fort Worth TX 76101', { line: '12 FM 1960', city: 'Fort Worth', state: 'tx', zip: '76101', country: null }],
    ['12 Avenue B New York NY 10009', { line: '12 Avenue B', city: 'New York', state: 'ny', zip: '10009', country: null }],
    ['12 Route 9 MA 01101', { line: '12 Route 9', city: null, state: 'ma', zip: '01101', country: null }],
    // A unit's number after the suffix with no designator, or a floor: the street's unit, written with "#".
    ['12 Main St 4B Springfield MA 01101', { line: '12 Main St #4B', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    ['12 Main St 4 Springfield MA 01101', { line: '12 Main St #4', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    ['12 Main St B Springfield MA 01101', { line: '12 Main St #B', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    ['12 Main St NW 4B Springfield MA 01101', { line: '12 Main St NW #4B', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    ['12 Route 9 4B Springfield MA 01101', { line: '12 Route 9 #4B', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    ['12 Main St 2nd Floor Springfield MA 01101', { line: '12 Main St 2nd Floor', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    ['12 Main St 4B MA 01101', { line: '12 Main St #4B', city: null, state: 'ma', zip: '01101', country: null }],
    ['12 Main St 4B, Springfield, MA 01101', { line: '12 Main St #4B', city: 'Springfield', state: 'ma', zip: '01101', country: null }],
    // A directional spelled out before further words begins the town; abbreviated, last, or before a unit, it is the street's.
    ['20 Oak St West Hartford CT 06107', { line: '20 Oak St', city: 'West Hartford', state: 'ct', zip: '06107', country: null }],
    ['20 Oak St West Hartford 06107', { line: '20 Oak St', city: 'West Hartford', state: null, zip: '06107', country: null }],
    ['20 Oak St West Hartford, CT', { line: '20 Oak St', city: 'West Hartford', state: 'ct', zip: null, country: null }],
    ['5 Palm Ave West Palm Beach FL 33401', { line: '5 Palm Ave', city: 'West Palm Beach', state: 'fl', zip: '33401', country: null }],
    ['5 Main St North Las Vegas NV 89030', { line: '5 Main St', city: 'North Las Vegas', state: 'nv', zip: '89030', country: null }],
    ['5 Main St Southwest Harbor ME 04679', { line: '5 Main St', city: 'Southwest Harbor', state: 'me', zip: '04679', country: null }],
    ['20 Oak St W Hartford CT 06107', { line: '20 Oak St W', city: 'Hartford', state: 'ct', zip: '06107', country: null }],
    ['20 Oak St West Apt 4 Hartford CT 06107', { line: '20 Oak St West Apt 4', city: 'Hartford', state: 'ct', zip: '06107', country: null }],
    ['20 Oak St West CT 06107', { line: '20 Oak St West', city: null, state: 'ct', zip: '06107', country: null }],
    ['20 Oak St West 06107', { line: '20 Oak St West', city: null, state: null, zip: '06107', country: null }],
    ['12 Main St N 01101', { line: '12 Main St N', city: null, state: null, zip: '01101', country: null }],
    ['12 Main St N CT 06101', { line: '12 Main St N', city: null, state: 'ct', zip: '06101', country: null }],
    // A grid street: a directional, a number, a directional.
    ['100 W 100 S Salt Lake City UT 84101', { line: '100 W 100 S', city: 'Salt Lake City', state: 'ut', zip: '84101', country: null }],
    ['100 West 100 South Salt Lake City UT 84101', { line: '100 West 100 South', city: 'Salt Lake City', state: 'ut', zip: '84101', country: null }],
    ['1234 E 3300 S Apt 5 Salt Lake City UT 84106', { line: '1234 E 3300 S Apt 5', city: 'Salt Lake City', state: 'ut', zip: '84106', country: null }],
  ])('%j', (line, parts) => expect(split(line)).toEqual(parts));

  it('a town beginning with a directional keeps it: West Hartford is not Hartford', () => {
    const read = (line: string) => normalizeAddress({ addressLine1: line }, { oneLine: true });
    const west = read('20 Oak St West Hartford CT 06107');
    const hartford = read('20 Oak St, Hartford, CT 06103');
    expect([west.street, west.city, hartford.street, hartford.city]).toEqual(['oak st', 'west hartford', 'oak st', 'hartford']);
    expect(read('20 Oak St, West Hartford, CT 06107')).toEqual(west);
  });

  it('a unit written without its designator is the unit: two flats stay two addresses, the same flat one', () => {
    const read = (line: string) => normalizeAddress({ addressLine1: line }, { oneLine: true });
    const [a, b] = [read('12 Main St 4B Springfield MA 01101'), read('12 Main St 7C Springfield MA 01101')];
    expect([a.street, a.unit, a.city, b.street, b.unit, b.city]).toEqual(['main st', '# 4b', 'springfield', 'main st', '# 7c', 'springfield']);
    expect(compareUnit(a.unit, read('12 Main St Apt 4B Springfield MA 01101').unit)).toBe('exact');
    expect(compareUnit(a.unit, b.unit)).toBe('disagree');
    expect(compareUnit(read('12 Main St 4B, Springfield, MA 01101').unit, b.unit)).toBe('disagree');
    const floor = read('12 Main St 2nd Floor Springfield MA 01101');
    expect([floor.street, floor.unit, floor.city]).toEqual(['main st', 'fl 2', 'springfield']);
  });

  it('two numbered roads of one town stay two streets', () => {
    const read = (line: string) => normalizeAddress({ addressLine1: line }, { oneLine: true });
    for (const [a, b] of [
      ['12 Route 9 Springfield MA 01101', '12 Route 20 Springfield MA 01101'],
      ['12 FM 1960 Houston TX 77001', '12 FM 2920 Houston TX 77001'],
    ] as const) {
      const [x, y] = [read(a), read(b)];
      expect(x.city).toBe(y.city);
      expect(x.street).not.toBe(y.street);
    }
    expect(read('12 Route 9 Springfield MA 01101')).toEqual(read('12 Route 9, Springfield, MA 01101'));
  });

  it('two apartments of one building stay two addresses', () => {
    const a = normalizeAddress({ addressLine1: '5 Elm St, Apt 4, Springfield, MA 01101' }, { oneLine: true });
    const b = normalizeAddress({ addressLine1: '5 Elm St Apt 7 Springfield MA 01101' }, { oneLine: true });
    expect([a.unit, b.unit, a.city, b.city]).toEqual(['apt 4', 'apt 7', 'springfield', 'springfield']);
  });

  it.each([
    '12 Smith St 2000',
    'Unit 4 1234',
    '12 Main St Suite 20000',
    '1234 Main St Apt 10001',
    '12 Main St',
    '126 W 1st Rd Apt 35',
    'PO Box 12345',
    'Hauptstr. 5, 10115 Berlin',
    '12345',
    '',
    'Sunset Towers',
    '5 Maine Ave',
    '5 Main St in',
    '12 Main St Springfield MA',
    '12 Main St, Apt 4 MA',
    'Acme Inc, 12 Oak CT',
    'Acme Inc, Suite 4 CT',
    '12 Main St, Springfield Ma',
  ])('%j: no locality, left whole', (line) => expect(split(line)).toBeNull());

  it('normalizeAddress reads a one-line address as its parts where the address has no city, state or postal code of its own (oneLine)', () => {
    const whole = normalizeAddress({ addressLine1: '12 Main St, Springfield, MA 01101' }, { oneLine: true });
    expect(whole).toEqual(normalizeAddress({ addressLine1: '12 Main St', city: 'Springfield', stateOrProvince: 'MA', zipOrPostalCode: '01101' }));
    const twoLines = normalizeAddress({ addressLine1: '12 Main St', addressLine2: 'Apt 4', addressLine3: 'Springfield MA 01101' }, { oneLine: true });
    expect(twoLines).toEqual(normalizeAddress({ addressLine1: '12 Main St Apt 4', city: 'Springfield', stateOrProvince: 'MA', zipOrPostalCode: '01101' }));
    // Fields of its own win: the line is left as it is; without oneLine (the API) too.
    const fielded = normalizeAddress({ addressLine1: '12 Main St, Springfield, MA 01101', zipOrPostalCode: '01102' }, { oneLine: true });
    expect(fielded.zip).toBe('01102');
    expect(fielded.city).toBeNull();
    expect(normalizeAddress({ addressLine1: '12 Main St, Springfield, MA 01101' }).zip).toBeNull();
  });

  it('keeps the street number, the street and the unit, and finds the town, whatever the street holds (property)', () => {
    // Not "Oak St West" before a town: the town begins with "West".
    const street = fc.constantFrom('Main St', 'Route 9', 'County Road 5', 'US Hwy 1', 'FM 1960', 'Oak St W', 'W 100 S', 'Avenue B', 'Main St NW');
    const unit = fc.constantFrom('', ' Apt 4', ' 4B', ' #4', ' 2nd Floor', ' B');
    const town = fc.constantFrom('Springfield', 'West Hartford', 'North Las Vegas', 'Salt Lake City', 'St Paul', 'Fort Worth');
    const read = (line: string) => normalizeAddress({ addressLine1: line }, { oneLine: true });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), street, unit, town, fc.boolean(), (n, st, u, city, commas) => {
        const line = commas ? `${n} ${st}${u}, ${city}, MA 01101` : `${n} ${st}${u} ${city} MA 01101`;
        const got = read(line);
        const alone = read(`${n} ${st}`);
        expect([got.number, got.street, got.unit !== null, got.city]).toEqual([String(n), alone.street, u !== '', normalizeAddress({ city }).city]);
      }),
      { seed: 20261130, numRuns: 500 },
    );
  });

  it('recovers the parts of any US address written on one line, with or without commas (property)', () => {
    const word = fc.constantFrom('Main', 'Oak', 'Maple', 'Canada', 'Grand', 'Willow', 'Sunset', 'Lake');
    const suffix = fc.constantFrom('St', 'Ave', 'Rd', 'Blvd', 'Dr', 'Ln', 'Ct');
    const town = fc.constantFrom('Springfield', 'New York', 'Los Angeles', 'San José', 'Fort Worth', 'Boise');
    const state = fc.constantFrom('MA', 'NY', 'CA', 'TX', 'ID');
    const zip = fc.integer({ min: 1000, max: 99999 }).map((n) => String(n).padStart(5, '0'));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), word, suffix, town, state, zip, fc.boolean(), (n, w, sfx, city, st, z, commas) => {
        const street = `${n} ${w} ${sfx}`;
        const line = commas ? `${street}, ${city}, ${st} ${z}` : `${street} ${city} ${st} ${z}`;
        expect(split(line)).toEqual({ line: street, city, state: st.toLowerCase(), zip: z, country: null });
      }),
      { seed: 20261129, numRuns: 300 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONTACT_FIELDS,
  describePlan,
  fieldForHeader,
  headerKey,
  identifierTypeOf,
  IGNORE,
  mapHeaders,
  MULTI_VALUE_FIELDS,
  parseMapOption,
  type ContactField,
  type HeaderPlan,
} from '../../src/files/header-map.js';
import { everySeparator, type FileDateOrder } from '../../src/files/date-order.js';
import { compileRowLayout, dateFromParts, excelDate, rowId, rowToContact } from '../../src/files/row-contact.js';
import { detectDelimiter, detectEncoding, detectNewline, parseDelimiter, parseEncodingChoice } from '../../src/files/sniff.js';

function plan(headers: string[], options: Parameters<typeof mapHeaders>[1] = {}): HeaderPlan {
  const p = mapHeaders(headers, options);
  if ('error' in p) throw new Error(p.error);
  return p;
}

describe('fieldForHeader', () => {
  it.each<[string, ContactField | null]>([
    ['firstName', 'firstName'],
    ['first_name', 'firstName'],
    ['FIRST', 'firstName'],
    ['Given Name', 'firstName'],
    ['given_name', 'firstName'],
    ['Forename', 'firstName'],
    ['surname', 'lastName'],
    ['last_name', 'lastName'],
    ['LAST NAME', 'lastName'],
    ['middleName', 'middleName'],
    ['MI', 'middleName'],
    ['suffix', 'suffix'],
    ['name', 'fullName'],
    ['Full Name', 'fullName'],
    ['fullName', 'fullName'],
    ['email', 'email'],
    ['E-mail', 'email'],
    ['email2', 'email'],
    ['Work Email', 'email'],
    ['emails', 'email'],
    ['phone', 'phone'],
    ['Phone Number', 'phone'],
    ['mobile', 'phone'],
    ['home_phone', 'phone'],
    ['phone_1', 'phone'],
    ['dob', 'dateOfBirth'],
    ['BIRTHDATE', 'dateOfBirth'],
    ['date_of_birth', 'dateOfBirth'],
    ['Date of Birth', 'dateOfBirth'],
    ['address', 'addressLine1'],
    ['address_1', 'addressLine1'],
    ['Address Line 2', 'addressLine2'],
    ['addressLine3', 'addressLine3'],
    ['street_number', 'streetNumber'],
    ['streetName', 'streetName'],
    ['city', 'city'],
    ['suburb', 'city'],
    ['Town', 'city'],
    ['state', 'stateOrProvince'],
    ['Province', 'stateOrProvince'],
    ['zip', 'zipOrPostalCode'],
    ['postcode', 'zipOrPostalCode'],
    ['Postal Code', 'zipOrPostalCode'],
    ['ZIP5', 'zipOrPostalCode'],
    ['country', 'countryCode'],
    ['countryCode', 'countryCode'],
    ['voter_first_name', 'firstName'],
    ['full_phone_number', 'phone'],
    ['Full Address', 'addressLine1'],
    ['landline', 'phone'],
    ['home_address', 'addressLine1'],
    ['mailing_zip', 'zipOrPostalCode'],
    ['Prénom', null],
    ['rec_id', null],
    ['soc_sec_id', 'identifier'],
    ['postcode_fake', 'zipOrPostalCode'],
    ['gender', 'sex'],
    ['birth_place', 'attribute'],
    ['cluster', null],
    ['first_name_2', null],
    ['home_address2', 'addressLine2'],
    ['', null],
    ['!!!', null],
    ['county', 'attribute'],
    ['company name', null],
    // Abbreviated and code-list headers (voter and registry exports).
    ['midl_name', 'middleName'],
    ['middle_name', 'middleName'],
    ['name_sufx_cd', 'suffix'],
    ['name_suffix_lbl', 'suffix'],
    ['res_city_desc', 'city'],
    ['state_cd', 'stateOrProvince'],
    ['county_desc', 'attribute'],
    ['status_cd', null],
    // A county's registration number: a voter who moves gets another (ncid is the state's).
    ['voter_reg_num', null],
    ['birth_age', 'attribute'],
    ['Age', 'attribute'],
    // What a header adds in brackets, a date format, a number word; one field named two ways.
    ['DOB (mm/dd/yyyy)', 'dateOfBirth'],
    ['Date of birth (DD/MM/YYYY)', 'dateOfBirth'],
    ['Birth date DD.MM.YYYY', 'dateOfBirth'],
    ['Zip Code (5 digit)', 'zipOrPostalCode'],
    ['Sex (M/F)', 'sex'],
    ['First name(s)', 'firstName'],
    ['Last Name (Surname)', 'lastName'],
    ['Email (Personal)', 'email'],
    ['Phone Number (Mobile)', 'phone'],
    ['Name (Last, First)', 'fullName'],
    ['Zip/Postal Code', 'zipOrPostalCode'],
    ['Postal/Zip', 'zipOrPostalCode'],
    ['Surname/Family name', 'lastName'],
    ['Surname or family name', 'lastName'],
    ['Apt/Unit', 'addressLine2'],
    ['Province/State', 'stateOrProvince'],
    ['Email/Phone', null],
    ['Donor', null],
    ['Telephone No.', 'phone'],
    ['Mobile Phone Number', 'phone'],
    ['Driver License Number', 'identifier'],
    ['DL #', 'identifier'],
    ['NHS No.', 'identifier'],
    ['Gender Identity', 'sex'],
    ['Street Address Line 1', 'addressLine1'],
    ['Residence City', 'city'],
    ['County of Residence', 'attribute'],
    ['Postal Town', 'city'],
    ['dob_year', 'yearOfBirth'],
    // A number word only after a phone's or an identifier's name; brackets naming another person or thing.
    ['Family No', null],
    ['Birth Number', null],
    ['Mail No', null],
    ['State No', null],
    ['Name (Mother)', null],
    ['Phone (Emergency Contact)', null],
    ['Email (Parent)', null],
    ['DOB (Spouse)', null],
    ['Driver License (State)', null],
    ['Passport (Expiry)', null],
    ['Address (City)', null],
    ['Address (Street)', 'addressLine1'],
    ['Phone (Home)', 'phone'],
    ['SSN (last 4)', 'identifier'],
    // Every alternative must name the field; a bracket may name a full name's part; kinds of a contact are not a name's.
    ['Emergency Contact Name/Phone', null],
    ["Child's Name / DOB", null],
    ['Spouse First Name/Initial', null],
    ['Middle Name/Initial', 'middleName'],
    ['Name (Given)', 'firstName'],
    ['Name (Surname)', 'lastName'],
    ['First Name (Preferred)', null],
    ['Phone (Preferred)', 'phone'],
    ['Phone (xxx-xxx-xxxx)', 'phone'],
    ['Email (Secondary)', 'email'],
    ['Address (Mailing)', 'addressLine1'],
    ['Year of Birth (YYYY)', 'yearOfBirth'],
    ['Suffix (Jr/Sr)', 'suffix'],
    ['State (2 letter)', 'stateOrProvince'],
    // A name after a prefix is the person's only when the prefix (or the rest) names the person.
    ['Business Name', null],
    ['business_name', null],
    ['Work Name', null],
    ['Home Name', null],
    ['Other Display Name', null],
    ['Business Name (Legal)', null],
    ['business_name_clean', null],
    ['Contact Name', 'fullName'],
    ['voter_name', 'fullName'],
    ['Client Name', 'fullName'],
    ['Patient Name', 'fullName'],
    ['Business Contact Name', 'fullName'],
    ['Business First Name', 'firstName'],
  ])('%j -> %s', (header, field) => expect(fieldForHeader(header)).toBe(field));

  it('an identifier column names its type without a number word, so two files compare', () => {
    expect(identifierTypeOf('NHS No.')).toBe(identifierTypeOf('NHS number'));
    expect(identifierTypeOf('Driver License Number')).toBe('driverslicense');
    expect(identifierTypeOf('SSN (last 4)')).toBe('ssn');
  });
});

describe('mapHeaders', () => {
  it('maps FEBRL headers; a separate street number turns line 1 into the street name', () => {
    const p = plan(
      ['rec_id', 'given_name', 'surname', 'street_number', 'address_1', 'address_2', 'suburb', 'postcode', 'state', 'date_of_birth', 'soc_sec_id'],
      { idColumn: 'rec_id' },
    );
    expect(p.columns).toEqual([
      null,
      'firstName',
      'lastName',
      'streetNumber',
      'streetName',
      'addressLine2',
      'city',
      'zipOrPostalCode',
      'stateOrProvince',
      'dateOfBirth',
      'identifier',
    ]);
    expect(p.idColumn).toBe(0);
    expect(p.notes.join(' ')).toMatch(/address_1.*street name/);
    expect(p.identifierTypes[10]).toBe('ssn');
    expect(describePlan(p).ignored).toEqual([]);
    expect(describePlan(p).mapped).toContain('soc_sec_id -> identifier (ssn)');
  });

  it('finds the id column by its name unless --id names one; identifiers and attributes by name or option', () => {
    const p = plan(['unique_id', 'first_name', 'surname', 'passport_no', 'occupation', 'notes'], {
      detectId: true,
      identifiers: [{ type: 'member', header: 'notes' }],
    });
    expect(p.idColumn).toBe(0);
    expect(p.idDetected).toBe(true);
    expect(p.columns).toEqual([null, 'firstName', 'lastName', 'identifier', 'attribute', 'identifier']);
    expect(p.identifierTypes).toEqual([null, null, null, 'passport', null, 'member']);
    expect(p.attributes).toEqual([4]);
    expect(plan(['id', 'first_name'], {}).idColumn).toBeNull();
  });

  it('overrides win; ignore leaves a column out; several email columns all count', () => {
    const p = plan(['Vorname', 'Nachname', 'email', 'email2', 'name'], {
      overrides: [
        { header: 'vorname', field: 'firstName' },
        { header: 'Nachname', field: 'lastName' },
        { header: 'name', field: 'ignore' },
      ],
    });
    expect(p.columns).toEqual(['firstName', 'lastName', 'email', 'email', null]);
  });

  it('a second column for a single-valued field is noted and left out', () => {
    const p = plan(['first_name', 'FirstName', 'surname']);
    expect(p.columns).toEqual(['firstName', null, 'lastName']);
    expect(p.notes.join(' ')).toMatch(/FirstName.*only the first/);
  });

  it('errors: no name column, unknown --id or --map column, ambiguous column', () => {
    const none = mapHeaders(['email', 'phone']);
    expect('error' in none && none.error).toMatch(/no column holds a name.*"email", "phone".*--map/);
    expect(mapHeaders(['email'], { requireName: false })).not.toHaveProperty('error');
    const id = mapHeaders(['first', 'last'], { idColumn: 'key' });
    expect('error' in id && id.error).toMatch(/--id "key": no such column; columns: "first", "last"/);
    const map = mapHeaders(['first', 'last'], { overrides: [{ header: 'x', field: 'email' }] });
    expect('error' in map && map.error).toMatch(/--map "x": no such column/);
    const amb = mapHeaders(['Name', 'NAME'], { idColumn: 'name' });
    expect('error' in amb && amb.error).toMatch(/several columns match/);
  });

  it('reads a date of birth over year, month and day columns as one; "birthday" alone stays the whole date', () => {
    const p = plan(['id', 'name', 'birth_year', 'birth_month', 'birth_day', 'zip']);
    expect(p.columns).toEqual([null, 'fullName', 'yearOfBirth', 'monthOfBirth', 'dayOfBirth', 'zipOrPostalCode']);
    expect(p.notes.join(' ')).toMatch(/"birth_year", "birth_month", "birth_day" are read as one date of birth/);
    expect(plan(['name', 'Day of Birth', 'Month of Birth', 'Year of Birth']).columns).toEqual(['fullName', 'dayOfBirth', 'monthOfBirth', 'yearOfBirth']);
    expect(plan(['name', 'dob_dd', 'dob_mm', 'dob_yyyy']).columns).toEqual(['fullName', 'dayOfBirth', 'monthOfBirth', 'yearOfBirth']);
    expect(plan(['name', 'birthday']).columns).toEqual(['fullName', 'dateOfBirth']);
    expect(plan(['name', 'birth_year', 'birthday']).columns).toEqual(['fullName', 'yearOfBirth', 'dateOfBirth']);
    // A column the user mapped stays as mapped.
    expect(plan(['name', 'birth_year', 'birth_month'], { overrides: [{ header: 'birth_month', field: IGNORE }] }).columns).toEqual([
      'fullName',
      'yearOfBirth',
      null,
    ]);
  });

  it("another person's column does not take the row's own field", () => {
    expect(plan(['Name (Mother)', 'Name', 'DOB']).columns).toEqual([null, 'fullName', 'dateOfBirth']);
    expect(plan(['Dwelling No', 'Family No', 'Last Name', 'First Name']).columns).toEqual([null, null, 'lastName', 'firstName']);
  });

  it("a business name is not the person's name and leaves the contact name in use", () => {
    const p = plan(['Business Name', 'Contact Name', 'Phone', 'Address', 'City', 'State', 'Zip']);
    expect(p.columns).toEqual([null, 'fullName', 'phone', 'addressLine1', 'city', 'stateOrProvince', 'zipOrPostalCode']);
    expect(p.notes.join(' ')).not.toMatch(/also looks like/);
  });

  it("reads Google Contacts' numbered groups: each email and phone value, the first address's parts, no labels", () => {
    const google = plan([
      'First Name',
      'Additional Name',
      'Last Name',
      'Phonetic First Name',
      'E-mail 1 - Label',
      'E-mail 1 - Value',
      'E-mail 2 - Value',
      'Phone 1 - Type',
      'Phone 1 - Value',
      'Address 1 - Formatted',
      'Address 1 - Street',
      'Address 1 - City',
      'Address 1 - PO Box',
      'Address 1 - Region',
      'Address 1 - Postal Code',
      'Address 1 - Country',
      'Website 1 - Value',
    ]);
    expect(google.columns).toEqual([
      'firstName',
      'middleName',
      'lastName',
      null,
      null,
      'email',
      'email',
      null,
      'phone',
      null,
      'addressLine1',
      'city',
      null,
      'stateOrProvince',
      'zipOrPostalCode',
      'countryCode',
      null,
    ]);
  });

  it("reads the person's own address, all its parts from one group; Outlook's Business columns come first", () => {
    const outlook = plan([
      'First Name',
      'Last Name',
      'Business Street',
      'Business City',
      'Business State',
      'Business Postal Code',
      'Home Street',
      'Home City',
      'Home State',
      'Home Postal Code',
      'Other Street',
      'Other City',
      'Business Phone',
      'Home Phone',
    ]);
    expect(outlook.columns).toEqual([
      'firstName',
      'lastName',
      null,
      null,
      null,
      null,
      'addressLine1',
      'city',
      'stateOrProvince',
      'zipOrPostalCode',
      null,
      null,
      'phone',
      'phone',
    ]);
    expect(outlook.notes.join(' ')).toMatch(/"Business Street" is part of another address \(business\); the address is read from the home columns/);
    expect(outlook.notes.join(' ')).toMatch(/"Other City" is part of another address \(other\)/);
    // Home street and city with no home state or zip: the work state and zip are another address's.
    const mixed = plan(['First Name', 'Last Name', 'Home Address', 'Home City', 'Work Address', 'Work City', 'Work State', 'Work Zip']);
    expect(mixed.columns).toEqual(['firstName', 'lastName', 'addressLine1', 'city', null, null, null, null]);
    expect(mixed.notes.join(' ')).toMatch(/"Work Zip" is part of another address \(work\)/);
    // Unprefixed columns are the person's; a work address alone is still read; brackets name a use too.
    expect(plan(['name', 'Work Address', 'Address', 'City']).columns).toEqual(['fullName', null, 'addressLine1', 'city']);
    expect(plan(['name', 'Work Address', 'Work City']).columns).toEqual(['fullName', 'addressLine1', 'city']);
    expect(plan(['name', 'Address (Work)', 'City (Work)', 'Address (Home)', 'City (Home)']).columns).toEqual(['fullName', null, null, 'addressLine1', 'city']);
    expect(plan(['name', 'Primary Address', 'Alt Address', 'Mailing Address']).columns).toEqual(['fullName', null, null, 'addressLine1']);
    // Phones and emails of every use stay the person's.
    expect(plan(['name', 'Work Email', 'Home Email']).columns).toEqual(['fullName', 'email', 'email']);
  });

  it("notes say which column is used when the person's own comes later", () => {
    const p = plan(['name', 'Work DOB', 'DOB']);
    expect(p.columns).toEqual(['fullName', null, 'dateOfBirth']);
    expect(p.notes.join(' ')).toMatch(/"Work DOB" also looks like dateOfBirth; column "DOB" is used/);
  });

  it("takes the file's date order from the date column's header", () => {
    expect(plan(['name', 'DOB (DD/MM/YYYY)']).dateOrder?.orders).toEqual({ '/': 'dmy', '.': 'dmy', '-': 'dmy' });
    expect(plan(['name', 'Birth date mm-dd-yy']).dateOrder?.orders['-']).toBe('mdy');
    // Year first says nothing of how the file's other dates put day and month: its dates tell.
    expect(plan(['name', 'dob (yyyymmdd)']).dateOrder).toBeNull();
    expect(plan(['name', 'dob']).dateOrder).toBeNull();
    expect(plan(['name (dd/mm/yyyy)', 'dob']).dateOrder).toBeNull();
  });

  it('parseMapOption', () => {
    expect(parseMapOption('Given Name=firstName')).toEqual({ header: 'Given Name', field: 'firstName' });
    expect(parseMapOption('a=b=surname')).toEqual({ header: 'a=b', field: 'lastName' });
    expect(parseMapOption('x=-')).toEqual({ header: 'x', field: 'ignore' });
    expect(parseMapOption('x=DOB')).toEqual({ header: 'x', field: 'dateOfBirth' });
    expect(parseMapOption('x')).toHaveProperty('error');
    expect(parseMapOption('x=shoeSize')).toMatchObject({ error: expect.stringMatching(/unknown field "shoeSize"/) });
  });
});

describe('mapHeaders properties', () => {
  const header = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom(
      ...CONTACT_FIELDS,
      'first_name',
      'SURNAME',
      'e-mail',
      'Phone 2',
      'dob',
      'zip',
      'name',
      'city',
      'id',
      'E-mail 1 - Value',
      'Address 2 - City',
      'Phone 1 - Label',
    ),
    // Numbered groups as Google Contacts writes them, with any group and part.
    fc.tuple(fc.string({ maxLength: 8 }), fc.nat(12), fc.string({ maxLength: 8 })).map(([g, n, p]) => `${g} ${n} - ${p}`),
  );
  const headers = fc.array(header, { maxLength: 10 });

  it('is total and maps every column to at most one field, single-valued fields once', () => {
    fc.assert(
      fc.property(headers, (hs) => {
        const p = mapHeaders(hs, { requireName: false });
        if ('error' in p) return false;
        if (p.columns.length !== hs.length) return false;
        const singles = p.columns.filter((f): f is ContactField => f !== null && !MULTI_VALUE_FIELDS.has(f));
        return new Set(singles).size === singles.length;
      }),
      { numRuns: 500 },
    );
  });

  it('ignores case, spaces, underscores and hyphens in headers', () => {
    const variant = (h: string, style: number): string =>
      style === 0 ? h.toUpperCase() : style === 1 ? h.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase() : ` ${h.replace(/([a-z])([A-Z])/g, '$1-$2')} `;
    fc.assert(
      fc.property(headers, fc.integer({ min: 0, max: 2 }), (hs, style) => {
        const a = mapHeaders(hs, { requireName: false });
        const b = mapHeaders(
          hs.map((h) => variant(h, style)),
          { requireName: false },
        );
        return !('error' in a) && !('error' in b) && JSON.stringify(a.columns) === JSON.stringify(b.columns);
      }),
      { numRuns: 500 },
    );
  });

  it('an override always wins over the aliases', () => {
    fc.assert(
      fc.property(
        headers.filter((hs) => hs.length > 0),
        fc.nat(),
        fc.constantFrom(...CONTACT_FIELDS),
        (hs, n, field) => {
          const named = hs.map((h, i) => `${headerKey(h) || 'x'}${i}`);
          const at = n % named.length;
          const p = mapHeaders(named, { requireName: false, overrides: [{ header: named[at] as string, field }] });
          return !('error' in p) && p.columns[at] === field;
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('rowToContact', () => {
  it('builds a contact: trims, splits a full name, several emails and phones, one address', () => {
    const p = plan(['id', 'name', 'email', 'email2', 'phone', 'dob', 'address', 'city', 'zip', 'country'], { idColumn: 'id' });
    const layout = compileRowLayout(p);
    const row = ['  7 ', 'Dr. Robert J Smith Jr', 'a@x.com; b@y.com', '', '0412 345 678 | 02 9999 0000', '1970-01-02', '1 Main St', 'Sydney', '2000', 'au'];
    expect(rowToContact(row, layout)).toEqual({
      firstName: 'Robert',
      middleName: 'J',
      lastName: 'Smith',
      suffix: 'Jr',
      dateOfBirth: '1970-01-02',
      emails: ['a@x.com', 'b@y.com'],
      phones: [
        { phoneNumber: '0412 345 678', countryCode: 'AU' },
        { phoneNumber: '02 9999 0000', countryCode: 'AU' },
      ],
      addresses: [{ addressLine1: '1 Main St', city: 'Sydney', zipOrPostalCode: '2000', countryCode: 'au' }],
      identifiers: [],
      sex: null,
      attributes: [],
    });
    expect(rowId(row, layout, 1)).toBe('7');
  });

  it('builds the date of birth from year, month and day columns, or the year alone', () => {
    const layout = compileRowLayout(plan(['name', 'birth_year', 'birth_month', 'birth_day']));
    const dob = (y: string, m: string, d: string): string | null | undefined => rowToContact(['Ada Lovelace', y, m, d], layout).dateOfBirth;
    const cases: [string, string, string, string | null][] = [
      ['1815', '12', '10', '1815-12-10'],
      ['1815', '2', '1', '1815-02-01'],
      ['1815', 'Dec', '10', '10 Dec 1815'],
      ['1815', 'December', '10', '10 December 1815'],
      ['1815', '', '10', '1815'],
      ['1815', '13', '10', '1815'],
      ['1815', '12', '', '1815'],
      ['', '12', '10', null],
      // Two-digit years as the engine reads them; days past the month's end are no date.
      ['80', '2', '1', '1 Feb 80'],
      ['1815', '2', '30', '1815'],
      ['1900', '2', '29', '1900'],
      ['2000', '2', '29', '2000-02-29'],
      ['1815', '4', '31', '1815'],
      // Whole numbers written as floats (pandas, a column with gaps).
      ['1965.0', '5.0', '13.0', '1965-05-13'],
    ];
    for (const [y, m, d, want] of cases) {
      expect(dob(y, m, d)).toBe(want);
      expect(dateFromParts(y === '' ? null : y, m === '' ? null : m, d === '' ? null : d)).toBe(want);
    }
    // A "Birthday" column beside month and year columns may hold the whole date.
    const birthday = compileRowLayout(plan(['name', 'Birthday', 'Birth Month', 'Birth Year']));
    expect(rowToContact(['Ada Lovelace', '1815-12-10', '12', '1815'], birthday).dateOfBirth).toBe('1815-12-10');
    expect(rowToContact(['Ada Lovelace', '10', '12', '1815'], birthday).dateOfBirth).toBe('1815-12-10');
  });

  it("swaps day and month of numeric dates written in the other order than the engine's", () => {
    const p = plan(['name', 'dob']);
    const file = (orders: FileDateOrder['orders']): FileDateOrder => ({ orders, how: '' });
    const swapped = compileRowLayout(p, { engine: 'mdy', file: file(everySeparator('dmy')) });
    const dob = (layout: ReturnType<typeof compileRowLayout>, v: string): string | null | undefined => rowToContact(['Ada Lovelace', v], layout).dateOfBirth;
    expect(dob(swapped, '07/03/1843')).toBe('03/07/1843');
    expect(dob(swapped, '7.3.43')).toBe('3.7.43');
    expect(dob(swapped, '1843-03-07')).toBe('1843-03-07');
    expect(dob(swapped, '7 Mar 1843')).toBe('7 Mar 1843');
    expect(dob(swapped, '07/03/1985 00:00')).toBe('03/07/1985 00:00');
    expect(dob(swapped, '07/03/1985 12:30:00 PM')).toBe('03/07/1985 12:30:00 PM');
    // By separator: a file of US slashes and European dots.
    const mixed = compileRowLayout(p, { engine: 'mdy', file: file({ '/': 'mdy', '.': 'dmy' }) });
    expect(dob(mixed, '05/08/1964')).toBe('05/08/1964');
    expect(dob(mixed, '05.08.1964')).toBe('08.05.1964');
    expect(dob(mixed, '05-08-1964')).toBe('05-08-1964');
    for (const dates of [
      null,
      { engine: 'dmy' as const, file: file(everySeparator('dmy')) },
      { engine: 'mdy' as const, file: null },
      { engine: 'ymd' as const, file: file(everySeparator('dmy')) },
    ])
      expect(dob(compileRowLayout(p, dates), '07/03/1843')).toBe('07/03/1843');
  });

  it("reads a spreadsheet's date serial as its date (a date column exported as numbers)", () => {
    const layout = compileRowLayout(plan(['name', 'dob']));
    const dob = (v: string): string | null | undefined => rowToContact(['Ada Lovelace', v], layout).dateOfBirth;
    expect(dob('23875')).toBe('1965-05-13');
    expect(dob('10000')).toBe('1927-05-18');
    expect(dob('60000')).toBe('2064-04-08');
    expect(excelDate(1)).toBe('1899-12-31');
    for (const v of ['1965', '9999', '60001', '19650513', '123456', '05/13/1965']) expect(dob(v)).toBe(v);
  });

  it('reads "Name <email>" cells: the address, and the name when the row has none', () => {
    const layout = compileRowLayout(plan(['first', 'last', 'email']));
    expect(rowToContact(['', '', 'Ada Lovelace <ada@x.org>'], layout)).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', emails: ['ada@x.org'] });
    expect(rowToContact(['Bob', 'Smith', '"B. Smith" <bs@x.org>; other@y.org'], layout)).toMatchObject({
      firstName: 'Bob',
      lastName: 'Smith',
      emails: ['bs@x.org', 'other@y.org'],
    });
  });

  it('takes a display name for names that are placeholders only, and keeps real names', () => {
    const layout = compileRowLayout(plan(['first', 'last', 'email']));
    expect(rowToContact(['Test', 'Patient', 'Åsa Andersson <asa@x.org>'], layout)).toMatchObject({ firstName: 'Åsa', lastName: 'Andersson' });
    expect(rowToContact(['UNKNOWN', 'UNKNOWN', 'Gabriel Green <gg@x.org>'], layout)).toMatchObject({ firstName: 'Gabriel', lastName: 'Green' });
    expect(rowToContact(['Unknown', 'Smith', 'Ann Jones <aj@x.org>'], layout)).toMatchObject({ firstName: 'Unknown', lastName: 'Smith' });
    expect(rowToContact(['Test', 'Patient', 'tp@x.org'], layout)).toMatchObject({ firstName: 'Test', lastName: 'Patient' });
  });

  it("reads the name a nameless row's email spells (first.last, or a known first name run into a surname)", () => {
    const layout = compileRowLayout(plan(['first', 'last', 'email']));
    expect(rowToContact(['', '', 'ali.nasser1800353@gmail.com'], layout)).toMatchObject({ firstName: 'ali', lastName: 'nasser' });
    expect(rowToContact(['', '', 'christopherburinley121699@gmail.com'], layout)).toMatchObject({ firstName: 'christopher', lastName: 'burinley' });
    expect(rowToContact(['', '', 'jsalenez8006469@outlook.com'], layout)).toMatchObject({ firstName: null, lastName: null });
    expect(rowToContact(['Bob', '', 'ali.nasser@gmail.com'], layout)).toMatchObject({ firstName: 'Bob', lastName: null });
    expect(rowToContact(['Test', 'Test', 'andrey.fyodorov391541@gmail.com'], layout)).toMatchObject({ firstName: 'andrey', lastName: 'fyodorov' });
  });

  it('reads long email cells (no regex backtracks over them: lint guards that): no @, many @, far-apart name and address', () => {
    const layout = compileRowLayout(plan(['first', 'last', 'email']));
    expect(rowToContact(['', '', 'a'.repeat(100_000)], layout).emails).toEqual([]);
    const ats = '@'.repeat(50_000);
    expect(rowToContact(['', '', `Ada <${ats}`], layout)).toMatchObject({ firstName: null, emails: [ats] });
    expect(rowToContact(['', '', `Ada Lovelace${' '.repeat(100_000)}<ada@x.org>`], layout)).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      emails: ['ada@x.org'],
    });
  });

  it('a full name without a surname does not fill an empty surname column; a title is no first name', () => {
    const layout = compileRowLayout(plan(['full_name', 'first_name', 'surname']));
    expect(rowToContact(['Alfred Enoch', 'Alfred', ''], layout)).toMatchObject({ firstName: 'Alfred', lastName: null });
    expect(rowToContact(['Walter Raleigh', 'Sir', 'Raleigh'], layout)).toMatchObject({ firstName: 'Walter', lastName: 'Raleigh' });
    // Register spellings of titles: Revd, Missus, Maj.; a widow so called.
    expect(rowToContact(['Revd John Keble', 'Revd', 'Keble'], layout)).toMatchObject({ firstName: 'John', lastName: 'Keble' });
    expect(rowToContact(['Davies, Missus', 'Missus', 'Davies'], layout)).toMatchObject({ firstName: null, lastName: 'Davies' });
    expect(rowToContact(['', 'Widow', 'Pratt'], layout)).toMatchObject({ firstName: null, lastName: 'Pratt' });
  });

  it('separate name columns win over the full name; short rows read missing cells as empty', () => {
    const layout = compileRowLayout(plan(['first', 'name', 'city']));
    expect(rowToContact(['Bob', 'Smith, Robert'], layout)).toMatchObject({ firstName: 'Bob', lastName: 'Smith', addresses: [] });
    expect(rowId([], layout, 12)).toBe('12');
  });

  it('is total on any cells', () => {
    const layout = compileRowLayout(plan(['name', 'first', 'email', 'phone', 'dob', 'zip', 'country']));
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 9 }), (cells) => {
        const c = rowToContact(cells, layout);
        return Array.isArray(c.emails) && Array.isArray(c.phones);
      }),
      { numRuns: 500 },
    );
  });
});

describe('sniffing', () => {
  it('detectDelimiter', () => {
    expect(detectDelimiter('a,b,c\n1,2,3\n')).toBe(',');
    expect(detectDelimiter('a;b;c\n1;2,5;3\n')).toBe(';');
    expect(detectDelimiter('a\tb\n"x\ty"\t2\n')).toBe('\t');
    expect(detectDelimiter('a|b\n1|2\n')).toBe('|');
    expect(detectDelimiter('name\nSmith, John\n')).toBe(',');
    expect(detectDelimiter('')).toBe(',');
  });

  it('detectNewline', () => {
    expect(detectNewline('a\r\nb')).toBe('\r\n');
    expect(detectNewline('"x\r\ny"\nb')).toBe('\n');
    expect(detectNewline('a\rb')).toBe('\r');
    expect(detectNewline('a')).toBe('\n');
  });

  it('detectEncoding and the option parsers', () => {
    expect(detectEncoding(Buffer.from('héllo', 'utf8')).encoding).toBe('utf8');
    expect(detectEncoding(Buffer.from('h\xe9llo', 'latin1')).encoding).toBe('latin1');
    expect(detectEncoding(Buffer.from('hello there', 'utf16le')).encoding).toBe('utf16le');
    // A multi-byte character cut at the end of the sample is still UTF-8.
    expect(detectEncoding(Buffer.from('hé', 'utf8').subarray(0, 2)).encoding).toBe('utf8');
    expect(parseEncodingChoice('UTF-8')).toBe('utf8');
    expect(parseEncodingChoice('ISO-8859-1')).toBe('latin1');
    expect(parseEncodingChoice('ebcdic')).toBeNull();
    expect(parseDelimiter('tab')).toBe('\t');
    expect(parseDelimiter(';')).toBe(';');
    expect(parseDelimiter('ab')).toBeNull();
  });
});

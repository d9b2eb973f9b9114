/**
 * A generated file as another export writes the same records (`npm run eval -- --exports`):
 * headers as forms and spreadsheets name them ("First name(s)", "Zip/Postal Code", "Date of
 * birth (DD/MM/YYYY)", "Sex (M/F)", "Telephone No."), month-first dates written day first (the
 * header says so), and, in the mixed-source file, its CRM source's addresses in one cell
 * ("714 Canada St, New York, 11329"). The people and their errors are the same, so a matcher
 * that reads inputs as files write them scores exactly the original's figures.
 */
import type { MessyFile } from './messy/index.js';

/** Header renames per scenario: only what an export writes differently. */
export const EXPORT_HEADERS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  historical: {
    full_name: 'Full Name',
    given_name: 'First name(s)',
    surname: 'Last Name (Surname)',
    birth_date: 'Date of birth (DD/MM/YYYY)',
    birth_place: 'Place of Birth',
    postcode: 'Post Code',
    gender: 'Sex (M/F)',
    occupation: 'Occupation',
  },
  ocr: {
    'FIRST NAME': 'Given Name(s)',
    'MIDDLE NAME': 'Middle Name(s)',
    'LAST NAME': 'Surname/Family name',
    'STREET ADDRESS': 'Street Address Line 1',
    CITY: 'Town/City',
    ZIP: 'Zip/Postal Code',
    'BIRTH YEAR': 'Year of Birth',
  },
  mixed: {
    first_name: 'First name(s)',
    last_name: 'Last Name (Surname)',
    name: 'Full Name',
    email: 'E-mail Address',
    phone: 'Telephone No.',
    dob: 'Date of birth (DD/MM/YYYY)',
    address: 'Street Address Line 1',
    city: 'Town/City',
    zip: 'Zip/Postal Code',
    sex: 'Sex (M/F)',
    passport: 'Passport Number',
    drivers_license: 'Driver License Number',
  },
};

/** "05/13/1965" -> "13/05/1965": a month-first date with slashes written day first; anything else as it is. */
export function dayFirst(cell: string): string {
  return cell.replace(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, '$2/$1/$3');
}

/** The source whose addresses the mixed export writes in one cell. */
export const ONE_LINE_SOURCE = 'crm';

/** `file` (of `scenario`) as another export writes it: the header row and the rows. */
export function asExported(scenario: string, file: Pick<MessyFile, 'header' | 'rows'>): { header: string[]; rows: string[][] } {
  const renames = EXPORT_HEADERS[scenario] ?? {};
  const at = (name: string): number => file.header.indexOf(name);
  // The mixed file writes its slashed dates month first (the historical one already day first).
  const [date, source, address, city, zip] = [scenario === 'mixed' ? at('dob') : -1, at('source'), at('address'), at('city'), at('zip')];
  const rows = file.rows.map((row) => {
    let out = row.map((cell, i) => (i === date ? dayFirst(cell) : cell));
    if (scenario === 'mixed' && out[source] === ONE_LINE_SOURCE && (out[address] ?? '') !== '') {
      const cell = [out[address], out[city], out[zip]].filter((v) => v !== undefined && v !== '').join(', ');
      out = out.map((c, i) => (i === address ? cell : i === city || i === zip ? '' : c));
    }
    return out;
  });
  return { header: file.header.map((h) => renames[h] ?? h), rows };
}

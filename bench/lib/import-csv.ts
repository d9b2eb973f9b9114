/**
 * Corpus contacts as the CSV a bulk import job reads (bench/import.bench.ts,
 * bench/import-profile.ts): one row per contact, its first email, phone and address.
 */
import type { ContactInput } from '../../src/engine/types.js';
import { formatCsvRow } from '../../src/files/csv-writer.js';
import { toCandidate } from '../api.bench.js';

/** The file's header, mapped by name by the CreateOrUpdateContact job. */
export const COLUMNS = ['FirstName', 'MiddleName', 'LastName', 'Suffix', 'DOB', 'Email', 'Phone', 'AddressLine1', 'City', 'State', 'Zip5'];

/** The fields of toCandidate's body that a row holds. */
interface CandidateFields {
  firstName?: string;
  middleName?: string;
  lastName?: string;
  suffix?: string;
  dateOfBirth?: string;
  emails?: { email: string }[];
  phones?: { phoneNumber: string }[];
  addresses?: Record<string, string | undefined>[];
}

/** One CSV line of a corpus contact, in COLUMNS order. */
export function csvRow(c: ContactInput): string {
  const b = toCandidate(c) as CandidateFields;
  const a = b.addresses?.[0] ?? {};
  return formatCsvRow(
    [
      b.firstName ?? '',
      b.middleName ?? '',
      b.lastName ?? '',
      b.suffix ?? '',
      b.dateOfBirth ?? '',
      b.emails?.[0]?.email ?? '',
      b.phones?.[0]?.phoneNumber ?? '',
      a['addressLine1'] ?? '',
      a['city'] ?? '',
      a['stateOrProvince'] ?? '',
      a['zipOrPostalCode'] ?? '',
    ],
    ',',
    { neutralize: false },
  ); // an import's input, read back as data: cells as they are
}

/** The whole file: header and one line per contact. */
export function csvOf(contacts: Iterable<ContactInput>): string {
  const lines = [COLUMNS.join(',')];
  for (const c of contacts) lines.push(csvRow(c));
  return `${lines.join('\n')}\n`;
}

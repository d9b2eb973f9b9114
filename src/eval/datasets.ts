/**
 * Loaders of the labelled public data sets in data/ (see data/README.md), as contact inputs
 * with their truth labels. Reading files is the caller's: these parse text.
 */
import type { ContactInput } from '../engine/index.js';

/** A labelled record: its id, the id of the true entity, and the contact. */
export interface LabelledRecord {
  readonly id: string;
  readonly entity: string;
  readonly contact: ContactInput;
}

function splitCsvLine(line: string): string[] {
  // FEBRL and fake_1000 have no quoted fields; a comma always separates.
  return line.split(',').map((f) => f.trim());
}

/**
 * Parses a FEBRL file (header `rec_id, given_name, surname, ...`). `soc_sec_id` is dropped
 * (the benchmark is run without it). The entity is N of `rec-N-org` / `rec-N-dup-K`.
 */
export function parseFebrl(text: string): LabelledRecord[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim().length > 0);
  const header = splitCsvLine(lines[0] ?? '');
  const col = (name: string): number => {
    const at = header.indexOf(name);
    if (at === -1) throw new Error(`FEBRL file lacks column ${name}`);
    return at;
  };
  const c = {
    id: col('rec_id'), first: col('given_name'), last: col('surname'), number: col('street_number'),
    street: col('address_1'), line2: col('address_2'), suburb: col('suburb'), postcode: col('postcode'),
    state: col('state'), dob: col('date_of_birth'),
  };
  return lines.slice(1).map((line) => {
    const f = splitCsvLine(line);
    const get = (i: number): string | null => {
      const v = f[i] ?? '';
      return v.length > 0 ? v : null;
    };
    const id = get(c.id) ?? '';
    const entity = /^rec-(\d+)-/.exec(id)?.[1] ?? id;
    return {
      id,
      entity,
      contact: {
        firstName: get(c.first),
        lastName: get(c.last),
        dateOfBirth: get(c.dob),
        addresses: [{
          streetNumber: get(c.number),
          streetName: get(c.street),
          addressLine2: get(c.line2),
          city: get(c.suburb),
          zipOrPostalCode: get(c.postcode),
          stateOrProvince: get(c.state),
          countryCode: 'AU',
        }],
      },
    };
  });
}

/** Parses Splink's fake_1000.csv (`unique_id,first_name,surname,dob,city,email,cluster`). */
export function parseFake1000(text: string): LabelledRecord[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim().length > 0);
  const header = splitCsvLine(lines[0] ?? '');
  const at = (name: string): number => header.indexOf(name);
  return lines.slice(1).map((line) => {
    const f = splitCsvLine(line);
    const get = (name: string): string | null => {
      const v = f[at(name)] ?? '';
      return v.length > 0 ? v : null;
    };
    const email = get('email');
    const city = get('city');
    return {
      id: get('unique_id') ?? '',
      entity: get('cluster') ?? '',
      contact: {
        firstName: get('first_name'),
        lastName: get('surname'),
        dateOfBirth: get('dob'),
        emails: email ? [email] : [],
        addresses: city ? [{ city, countryCode: 'GB' }] : [],
      },
    };
  });
}

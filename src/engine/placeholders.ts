/**
 * Placeholders: values that stand for "no value" ("Unknown", "Baby Boy", "John Doe",
 * none@none.com, 000-00-0000, GENERAL DELIVERY, a date of birth of 1900-01-01). Normalization
 * reads them as missing, so they can neither link two people nor speak against a match. The
 * shipped list is data/placeholders/placeholders.csv (generated into generated/placeholders.ts);
 * a caller may pass its own table.
 */
import { PLACEHOLDER_VALUES } from './generated/placeholders.js';

/** Placeholder values by kind, in the forms normalization compares them in. */
export interface PlaceholderTable {
  /** Compact folded first names read as missing ("unknown", "baby", "fnu"). */
  readonly first: ReadonlySet<string>;
  /** Compact folded surnames read as missing ("unknown", "boy", "lnu"). */
  readonly last: ReadonlySet<string>;
  /** Folded "first last" pairs read as missing together ("john doe", "test test"). */
  readonly names: ReadonlySet<string>;
  /** Email local parts read as missing ("noemail", "none"). */
  readonly emailLocals: ReadonlySet<string>;
  /** Email domains read as missing ("noemail.com", "test.com"). */
  readonly emailDomains: ReadonlySet<string>;
  /**
   * Local parts of shared mailboxes ("info", "office", "frontdesk"): not read as missing (they
   * are real addresses), but the same one on two records is not the person's own (isSharedEmail).
   */
  readonly sharedEmailLocals: ReadonlySet<string>;
  /** Words that make a local part a household's mailbox wherever they stand ("smithfamily"). */
  readonly sharedEmailWords: readonly string[];
  /** Phone digits read as missing (national ten digits or local seven). */
  readonly phones: ReadonlySet<string>;
  /** Identifier values (letters and digits only) read as missing ("000000000"), for {@link identifierTypes}. */
  readonly identifiers: ReadonlySet<string>;
  /**
   * Identifier types (letters and digits only) whose placeholder values are read as missing:
   * personal identity numbers (ssn, passport, drivers license), not a CRM's own ids.
   */
  readonly identifierTypes: ReadonlySet<string>;
  /** Folded street lines that are no address ("general delivery", "homeless"). */
  readonly addresses: ReadonlySet<string>;
  /** ISO dates of birth that stand for an unknown one ("1900-01-01", spreadsheet day zero). */
  readonly dates: ReadonlySet<string>;
}

/** Builds a table from values per kind (the form of generated/placeholders.ts). */
export function buildPlaceholderTable(values: Readonly<Record<string, readonly string[]>>): PlaceholderTable {
  const set = (kind: string): ReadonlySet<string> => new Set(values[kind] ?? []);
  return {
    first: set('first'),
    last: set('last'),
    names: set('name'),
    emailLocals: set('email-local'),
    emailDomains: set('email-domain'),
    sharedEmailLocals: set('email-shared'),
    sharedEmailWords: [...(values['email-shared-word'] ?? [])],
    phones: set('phone'),
    identifiers: set('identifier'),
    identifierTypes: set('identifier-type'),
    addresses: set('address'),
    dates: set('date'),
  };
}

/** The shipped table (data/placeholders/placeholders.csv). */
export const DEFAULT_PLACEHOLDERS: PlaceholderTable = buildPlaceholderTable(PLACEHOLDER_VALUES);

/** A table with no placeholders: every value is taken as given. */
export const NO_PLACEHOLDERS: PlaceholderTable = buildPlaceholderTable({});

/**
 * Which of a folded first and last name are placeholders: each one alone ("Unknown Smith":
 * the first), or the two together ("John Doe": both).
 */
export function placeholderNames(table: PlaceholderTable, first: string | null, last: string | null): { first: boolean; last: boolean } {
  const f = first !== null && table.first.has(withoutSpaces(first));
  const l = last !== null && table.last.has(withoutSpaces(last));
  if (first !== null && last !== null && table.names.has(`${first} ${last}`)) return { first: true, last: true };
  return { first: f, last: l };
}

function withoutSpaces(text: string): string {
  return text.indexOf(' ') === -1 ? text : text.replace(/ /g, '');
}

/**
 * True when a normalized email address is a placeholder: a listed local part or domain, or a
 * local part of at most three characters repeated as the domain's name ("x@x.com",
 * "abc@abc.com": keyboard filler; "ann@x.com" is someone's).
 */
export function isPlaceholderEmail(table: PlaceholderTable, email: string): boolean {
  const at = email.lastIndexOf('@');
  if (at < 0) return false;
  const local = email.slice(0, at);
  if (table.emailLocals.has(local) || table.emailDomains.has(email.slice(at + 1))) return true;
  return local.length <= 3 && email.startsWith(`${local}.`, at + 1);
}

/**
 * True when a normalized email address is a shared mailbox: an office's or a service's (its
 * local part is listed: info@, frontdesk@) or a household's (its local part holds a listed
 * word: smithfamily@). Many people give such an address, so agreeing on it is weak evidence
 * and never the person's own.
 */
export function isSharedEmail(table: PlaceholderTable, email: string): boolean {
  const at = email.lastIndexOf('@');
  if (at < 0) return false;
  const local = email.slice(0, at);
  if (table.sharedEmailLocals.has(local)) return true;
  for (const word of table.sharedEmailWords) if (local.includes(word)) return true;
  return false;
}

/** True when a phone's national digits (the last ten, or a local seven) are a placeholder. */
export function isPlaceholderPhone(table: PlaceholderTable, digits: string): boolean {
  if (table.phones.size === 0) return false;
  return table.phones.has(digits.length > 10 ? digits.slice(-10) : digits);
}

/** True when an identifier of a personal type (any case and punctuation) has a placeholder value. */
export function isPlaceholderIdentifier(table: PlaceholderTable, type: string, value: string): boolean {
  if (table.identifiers.size === 0 || !table.identifierTypes.has(type.toLowerCase().replace(/[^a-z0-9]/g, ''))) return false;
  return table.identifiers.has(value.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

/** True when an ISO date of birth is a placeholder ("1900-01-01"). */
export function isPlaceholderDate(table: PlaceholderTable, iso: string): boolean {
  return table.dates.has(iso);
}

/** True when a folded street line is no address ("general delivery"). */
export function isPlaceholderAddress(table: PlaceholderTable, line: string): boolean {
  return table.addresses.has(line);
}

/**
 * Public data shapes of the matching engine.
 *
 * Input shapes use the contract's field names (interface.md 2.1-2.5) so that the CRM
 * layer can pass a validated Match Candidate through with little mapping. Normalized
 * shapes are what the index stores and the comparators read.
 */

/** A phone as supplied (interface.md 2.3). Only the fields matching needs. */
export interface PhoneInput {
  readonly phoneNumber: string;
  /** ISO 3166-1 alpha-2 country of the number, if the caller knows it. */
  readonly countryCode?: string | null | undefined;
  /** 1-3 digit international dialing prefix, e.g. "1", "44". */
  readonly dialingPrefix?: string | null | undefined;
  readonly ext?: string | null | undefined;
}

/** An address as supplied (interface.md 2.4), plus separate street parts for CSV files. */
export interface AddressInput {
  readonly addressLine1?: string | null | undefined;
  readonly addressLine2?: string | null | undefined;
  readonly addressLine3?: string | null | undefined;
  /** When a file has the street number in its own column. */
  readonly streetNumber?: string | null | undefined;
  /** When a file has the street name in its own column. */
  readonly streetName?: string | null | undefined;
  readonly city?: string | null | undefined;
  readonly stateOrProvince?: string | null | undefined;
  readonly zipOrPostalCode?: string | null | undefined;
  readonly countryCode?: string | null | undefined;
}

/** An external identifier (interface.md 2.5). */
export interface IdentifierInput {
  readonly type: string;
  readonly externalId: string;
}

/** A description of a person, as a Match Candidate carries it. Every field optional. */
export interface ContactInput {
  readonly firstName?: string | null | undefined;
  readonly middleName?: string | null | undefined;
  readonly lastName?: string | null | undefined;
  readonly suffix?: string | null | undefined;
  /** A date in any common form; ISO 8601 preferred. */
  readonly dateOfBirth?: string | null | undefined;
  readonly emails?: readonly string[] | undefined;
  readonly phones?: readonly (PhoneInput | string)[] | undefined;
  readonly addresses?: readonly AddressInput[] | undefined;
  readonly identifiers?: readonly IdentifierInput[] | undefined;
  /** "M"/"F" (any case), or a word ("male", "female", "man", "woman"). */
  readonly sex?: string | null | undefined;
  /** An honorific ("Mr", "Mrs", "Dr"): without `sex`, a gendered one gives the sex (sex.ts sexOfTitle). */
  readonly title?: string | null | undefined;
  /**
   * Free-text attributes compared as they are (a file's occupation or birth place column),
   * in the order the model's `attributes` name them.
   */
  readonly attributes?: readonly (string | null | undefined)[] | undefined;
}

/** Why a normalizer could not produce a value. */
export type NormalizeFailure = 'empty' | 'invalid' | 'out-of-range' | 'too-long';

/** Result of normalizing one value: the value, or why there is none. */
export type Normalized<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: NormalizeFailure; readonly input: string };

/** A phone in E.164 with its extension kept apart. */
export interface NormalizedPhone {
  /** E.164, e.g. "+12024291000". */
  readonly e164: string;
  /** ISO alpha-2 country the number belongs to, when known. */
  readonly country: string | null;
  /** Extension digits, or null. */
  readonly ext: string | null;
}

/** A calendar date. */
export interface NormalizedDate {
  /** "YYYY-MM-DD". */
  readonly iso: string;
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

/** An email address, lower-cased and trimmed; `local`/`domain` split for comparison. */
export interface NormalizedEmail {
  readonly email: string;
  readonly local: string;
  readonly domain: string;
  /**
   * The mailbox the address delivers to, for matching: provider aliases removed where the
   * provider documents them (Gmail ignores dots and "+tag" in the local part;
   * googlemail.com = gmail.com). Equals `email` for other providers.
   */
  readonly mailbox: string;
}

/**
 * A postal address in comparable parts. Every part is folded (lower case, no accents,
 * no punctuation) or null when absent.
 */
export interface NormalizedAddress {
  /** Street (house) number, e.g. "1600", "12b". */
  readonly number: string | null;
  /** Street name with USPS suffix and directionals standardized, e.g. "n main st". */
  readonly street: string | null;
  /** Unit designator and number, e.g. "apt 4b". */
  readonly unit: string | null;
  /** A second line that is not a unit: building, complex or locality name, folded. */
  readonly building: string | null;
  readonly city: string | null;
  /** State or province code, lower case. */
  readonly state: string | null;
  /** US ZIP5 (from ZIP or ZIP+4) or a folded postal code elsewhere. */
  readonly zip: string | null;
  /** ISO alpha-2 country, upper case, when known. */
  readonly country: string | null;
}

/** Generational suffixes kept apart from the surname. Jr and Sr are different people. */
export type NameSuffix = 'jr' | 'sr' | 'ii' | 'iii' | 'iv' | 'v';

/** A person's name in comparable parts. */
export interface NormalizedName {
  /** Folded first name, punctuation removed ("mary ann" keeps its space). */
  readonly first: string | null;
  readonly middle: string | null;
  /** Folded surname; particles and hyphen parts joined with one space ("de la cruz"). */
  readonly last: string | null;
  readonly suffix: NameSuffix | null;
}

/** A contact as the index stores it and the comparators read it. */
export interface NormalizedContact {
  readonly first: string | null;
  readonly middle: string | null;
  readonly last: string | null;
  readonly suffix: NameSuffix | null;
  /** Date of birth as "YYYY-MM-DD", or the year alone ("1875") when only the year is known. */
  readonly dob: string | null;
  /** Normalized email addresses. */
  readonly emails: readonly string[];
  /** E.164 phones; a local number without its area code as "L" and its seven digits. */
  readonly phones: readonly string[];
  readonly addresses: readonly NormalizedAddress[];
  /** External identifiers as "type:externalid", folded to lower case. */
  readonly identifiers: readonly string[];
  /** "m" or "f". */
  readonly sex: Sex | null;
  /** Folded attribute values (see ContactInput.attributes); empty when the model has none. */
  readonly attributes: readonly (string | null)[];
  /**
   * First and last name as written, when either is in Chinese characters or kana, whose
   * romanizations collide (written-names.ts); null or absent otherwise.
   */
  readonly written?: string | null;
}

/** A person's sex as the contract codes it (interface.md 2.1), lower case. */
export type Sex = 'm' | 'f';

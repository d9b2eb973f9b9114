/**
 * Gate sets for labelled files that lack the contract's fields. The contract's gates need an
 * email, a phone, or a name with a date of birth and postal code or street address: FEBRL
 * has no emails or phones and leaves names out of about 7% of its records, so under the
 * contract's gates alone those records can never match. The evaluation reports both.
 */
import { CONTRACT_GATES, defineGate, type Gate } from '../engine/index.js';

/** Person files with names, date of birth and a postal address but no email or phone (FEBRL). */
export const ADDRESS_FILE_GATES: readonly Gate[] = [
  ...CONTRACT_GATES,
  defineGate(['firstName', 'lastName', 'dateOfBirth']),
  defineGate(['lastName', 'dateOfBirth', 'zip5']),
  defineGate(['firstName', 'dateOfBirth', 'zip5']),
  defineGate(['firstName', 'lastName', 'streetName', 'zip5']),
  defineGate(['lastName', 'streetNumber', 'streetName', 'zip5']),
];

/** Files with names, date of birth, city and email (Splink's fake_1000). */
export const CITY_FILE_GATES: readonly Gate[] = [
  ...CONTRACT_GATES,
  defineGate(['firstName', 'lastName', 'dateOfBirth']),
  defineGate(['firstName', 'lastName', 'city']),
];

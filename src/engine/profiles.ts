/**
 * Ready-made option sets.
 *
 * The default (CRM) profile is the contract's: its five minimum combinations, a match must
 * agree on one of them, and a clearly different first name, surname or date of birth, or
 * Jr against Sr, rules a match out (twins and households share everything else).
 *
 * The linkage profile is for linking or deduplicating whole files whose errors replace
 * whole values (the FEBRL generator does: a duplicate may carry another first name): pure
 * Fellegi-Sunter, where such a disagreement only lowers the score. Never use it for a CRM.
 */
import { CONTRACT_GATES, defineGate, type Gate } from './gates.js';
import { DEFAULT_MODEL, withoutVetoes, type MatchModel, type Thresholds } from './model.js';

/** Options a profile sets (a subset of the index's options). */
export interface MatchProfile {
  readonly model: MatchModel;
  readonly thresholds: Thresholds;
  readonly requireGateAgreement: boolean;
}

/** Thresholds of the linkage profile: chosen on FEBRL4 by `npm run eval`, precision 1.0 there. */
export const LINKAGE_THRESHOLDS: Thresholds = { match: 10, possible: 6 };

/** Pure Fellegi-Sunter for file linkage (see the file comment). */
export const LINKAGE_PROFILE: MatchProfile = {
  model: withoutVetoes(DEFAULT_MODEL),
  thresholds: LINKAGE_THRESHOLDS,
  requireGateAgreement: false,
};

/**
 * Gates for person files with names, date of birth and postal address but no email or
 * phone (FEBRL): the contract's, plus combinations that such files can hold. Under the
 * contract's alone, a record without a first name could never match.
 */
export const ADDRESS_FILE_GATES: readonly Gate[] = [
  ...CONTRACT_GATES,
  defineGate(['firstName', 'lastName', 'dateOfBirth']),
  defineGate(['lastName', 'dateOfBirth', 'zip5']),
  defineGate(['firstName', 'dateOfBirth', 'zip5']),
  defineGate(['firstName', 'lastName', 'streetName', 'zip5']),
  defineGate(['firstName', 'lastName', 'streetNumber', 'zip5']),
  defineGate(['lastName', 'streetNumber', 'streetName', 'zip5']),
];

/** Gates for files with names, date of birth, city and email (Splink's fake_1000). */
export const CITY_FILE_GATES: readonly Gate[] = [
  ...CONTRACT_GATES,
  defineGate(['firstName', 'lastName', 'dateOfBirth']),
  defineGate(['firstName', 'lastName', 'city']),
];

/**
 * Code lists of the contract (interface.md 2.1-2.4) and the lookup lists clients rely on
 * (compatibility.md). Each `*_CODES` maps an upper-cased spelling to the canonical code, so a
 * code is accepted in any case (compatibility.md), but a name is not a code ("Male" for sex,
 * "Phone" for contactMethodPreferenceCode are 400s). Address types are words, and their
 * initials are accepted because a captured client sends "H" and "W".
 */
import type { AddressType, DeviceType, EmailType, PhoneOptInStatus, PhoneType, SubscriptionStatus } from '../store/index.js';

type CodeMap<T extends string> = Readonly<Record<string, T>>;

function codes<T extends string>(entries: Record<T, readonly string[]>): CodeMap<T> {
  const out: Record<string, T> = {};
  for (const [code, names] of Object.entries(entries) as [T, readonly string[]][]) {
    out[code.toUpperCase()] = code;
    for (const name of names) out[name.toUpperCase()] = code;
  }
  return Object.freeze(out);
}

/** contactMethodPreferenceCode: phone, email, mail, fax, SMS (the letters only; "Phone" is not a code). */
export const CONTACT_METHOD_CODES = codes({ P: [], E: [], M: [], F: [], S: [] });
/** sex: M or F ("Male" is not a code). */
export const SEX_CODES = codes({ M: [], F: [] });
/** electionType (interface.md 2.1): the codes, not their names. */
export const ELECTION_TYPE_CODES = codes({
  G: [],
  P: [],
  R: [],
  PP: [],
  SP: [],
  SG: [],
  MP: [],
  MG: [],
  C: [],
  O: [],
});
export const CONTACT_MODE_CODES = codes({ Person: [], Organization: ['Organisation'] });
export const EMAIL_TYPE_CODES = codes<EmailType>({ P: [], W: [], O: [] });
export const SUBSCRIPTION_CODES = codes<SubscriptionStatus>({ U: [], N: [], S: [] });
/** phoneType: C is the alias of mobile. */
export const PHONE_TYPE_CODES = codes<PhoneType>({ H: [], W: [], C: [], M: [], F: [] });
export const DEVICE_TYPE_CODES = codes<DeviceType>({ C: [], L: [], U: [], F: [], V: [] });
export const OPT_IN_CODES = codes<PhoneOptInStatus>({ I: [], U: [], O: [] });
/** Address types; the initials are accepted too (one client sends "H" and "W"). */
export const ADDRESS_TYPE_CODES = codes<AddressType>({ Mailing: ['M'], Home: ['H'], Voting: ['V'], Work: ['W'], Custom: ['C'] });

/** Phone cell-status values (GET /phones/isCellStatuses; compatibility.md keeps these ids). */
export const CELL_STATUSES: readonly { readonly statusId: number; readonly statusName: string }[] = Object.freeze([
  { statusId: 1, statusName: 'Verified Cell' },
  { statusId: 2, statusName: 'Likely Cell' },
  { statusId: 3, statusName: 'Likely Not a Cell' },
  { statusId: 4, statusName: 'Not a Cell' },
]);

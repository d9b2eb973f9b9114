/**
 * Code lists of the contract (interface.md 2.1-2.4) and the lookup lists clients rely on
 * (compatibility.md). Each `*_CODES` maps an upper-cased spelling to the canonical code, so a
 * code is accepted in any case, and where obvious also by its name ("Cell" for C).
 */
import type {
  AddressType, DeviceType, EmailType, PhoneOptInStatus, PhoneType, SubscriptionStatus,
} from '../store/index.js';

type CodeMap<T extends string> = Readonly<Record<string, T>>;

function codes<T extends string>(entries: Record<T, readonly string[]>): CodeMap<T> {
  const out: Record<string, T> = {};
  for (const [code, names] of Object.entries(entries) as [T, readonly string[]][]) {
    out[code.toUpperCase()] = code;
    for (const name of names) out[name.toUpperCase()] = code;
  }
  return Object.freeze(out);
}

/** contactMethodPreferenceCode: phone, email, mail, fax, SMS. */
export const CONTACT_METHOD_CODES = codes({ P: ['Phone'], E: ['Email'], M: ['Mail'], F: ['Fax'], S: ['SMS'] });
export const SEX_CODES = codes({ M: ['Male'], F: ['Female'] });
/** electionType (interface.md 2.1). */
export const ELECTION_TYPE_CODES = codes({
  G: ['General'], P: ['Primary'], R: ['Run-off', 'Runoff'], PP: ['Presidential Primary'],
  SP: ['Special Primary'], SG: ['Special General'], MP: ['Municipal Primary'],
  MG: ['Municipal General'], C: ['Caucus'], O: ['Other'],
});
export const CONTACT_MODE_CODES = codes({ Person: [], Organization: ['Organisation'] });
export const EMAIL_TYPE_CODES = codes<EmailType>({ P: ['Personal'], W: ['Work'], O: ['Other'] });
export const SUBSCRIPTION_CODES = codes<SubscriptionStatus>({ U: ['Unsubscribed'], N: ['Neutral'], S: ['Subscribed'] });
/** phoneType: C is the alias of mobile. */
export const PHONE_TYPE_CODES = codes<PhoneType>({ H: ['Home'], W: ['Work'], C: ['Cell', 'Mobile'], M: ['Main'], F: ['Fax'] });
export const DEVICE_TYPE_CODES = codes<DeviceType>({ C: ['Cell'], L: ['Landline'], U: ['Unknown'], F: ['Fax'], V: ['VoIP'] });
export const OPT_IN_CODES = codes<PhoneOptInStatus>({ I: ['Opt In', 'OptIn', 'Opt-In'], U: ['Unknown'], O: ['Opt Out', 'OptOut', 'Opt-Out'] });
/** Address types; the initials are accepted too (one client sends "H" and "W"). */
export const ADDRESS_TYPE_CODES = codes<AddressType>({ Mailing: ['M'], Home: ['H'], Voting: ['V'], Work: ['W'], Custom: ['C'] });

/** Phone cell-status values (GET /phones/isCellStatuses; compatibility.md keeps these ids). */
export const CELL_STATUSES: readonly { readonly statusId: number; readonly statusName: string }[] = Object.freeze([
  { statusId: 1, statusName: 'Verified Cell' },
  { statusId: 2, statusName: 'Likely Cell' },
  { statusId: 3, statusName: 'Likely Not a Cell' },
  { statusId: 4, statusName: 'Not a Cell' },
]);

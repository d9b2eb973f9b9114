/**
 * Validation of the contact channels of a Match Candidate: emails (interface.md 2.2), phones
 * (2.3) and addresses (2.4). Read-only properties (`phoneId`, `addressId`, `isBest`, an
 * address's `isPreferred`) are ignored when sent.
 */
import { CELL_STATUSES, ADDRESS_TYPE_CODES, DEVICE_TYPE_CODES, EMAIL_TYPE_CODES, OPT_IN_CODES, PHONE_TYPE_CODES, SUBSCRIPTION_CODES } from './codes.js';
import { MAX_ITEMS, type ValidAddress, type ValidEmail, type ValidPhone, type ValidationContext } from './candidate.js';
import { isKnownCountry } from './settings.js';
import { checkPhone, dialingPrefixMatchesCountry } from '../engine/index.js';
import { isValidEmail } from './values.js';
import {
  Issues, UNSPECIFIED_MAX_LENGTH, clip, isBlank, isObject, own, pathOf, readArray, readBoolean, readCode,
  readInteger, readObject, readString, readText, type JsonObject,
} from './validate-util.js';

/** Each object of an array property, with its path; non-objects are issues. */
export function eachObject(issues: Issues, body: JsonObject, property: string, what: string, visit: (item: JsonObject, path: string) => void): void {
  const items = readArray(issues, own(body, property), property);
  if (items === undefined) return;
  if (items.length > MAX_ITEMS) {
    issues.add(property, `${property} has ${items.length} items; at most ${MAX_ITEMS} are accepted.`);
    return;
  }
  items.forEach((item, i) => {
    const path = pathOf(property, i);
    if (item === null || item === undefined) return;
    if (!isObject(item)) issues.add(path, `${path} must be ${what}.`);
    else visit(item, path);
  });
}

export function readEmails(issues: Issues, body: JsonObject, vc: ValidationContext): ValidEmail[] {
  const out: ValidEmail[] = [];
  eachObject(issues, body, 'emails', 'an email object with an "email" property', (item, path) => {
    const p = (k: string): string => pathOf(path, k);
    const email = readText(issues, own(item, 'email'), p('email'), 320);
    if (email === undefined) {
      if (isBlank(own(item, 'email'))) issues.add(p('email'), `${p('email')} is required.`);
    } else if (!isValidEmail(email)) {
      issues.add(p('email'), `${p('email')} "${clip(email)}" is not a valid email address.`);
    }
    const type = readCode(issues, own(item, 'type'), p('type'), EMAIL_TYPE_CODES, 'P (personal), W (work), O (other)');
    const isPreferred = readBoolean(issues, own(item, 'isPreferred'), p('isPreferred'));
    const isSubscribed = readBoolean(issues, own(item, 'isSubscribed'), p('isSubscribed'));
    const status = readCode(issues, own(item, 'subscriptionStatus'), p('subscriptionStatus'), SUBSCRIPTION_CODES, 'U (unsubscribed), N (neutral), S (subscribed)');
    if (status !== undefined && !vc.settings.targetedEmail) {
      issues.add(p('subscriptionStatus'), `${p('subscriptionStatus')} is only available where targeted email is enabled.`, 'Use isSubscribed in this context.');
    } else if (status !== undefined && isSubscribed !== undefined) {
      issues.add(p('subscriptionStatus'), `Setting both isSubscribed and subscriptionStatus in ${path} is not valid.`, 'Send subscriptionStatus only.');
    }
    if (email === undefined || !isValidEmail(email)) return;
    const key = email.toLowerCase();
    if (out.some((e) => e.key === key)) return;
    out.push({
      email, key,
      ...(type !== undefined && { type }),
      ...(isPreferred !== undefined && { isPreferred }),
      ...(isSubscribed !== undefined && { isSubscribed }),
      ...(status !== undefined && { subscriptionStatus: status }),
    });
  });
  return out;
}

function readCellStatus(issues: Issues, value: unknown, path: string): number | undefined {
  const obj = readObject(issues, value, path);
  if (obj === undefined) return undefined;
  const idValue = own(obj, 'statusId');
  const nameValue = own(obj, 'statusName');
  const probe = new Issues();
  const id = readInteger(probe, idValue, pathOf(path, 'statusId'));
  const byId = CELL_STATUSES.find((s) => s.statusId === id);
  const name = readText(probe, nameValue, pathOf(path, 'statusName'), 50);
  const byName = CELL_STATUSES.find((s) => s.statusName.toLowerCase() === name?.toLowerCase());
  if (byId !== undefined && byName !== undefined && byId !== byName) {
    issues.add(path, `${path} statusId ${byId.statusId} and statusName "${clip(name ?? '')}" disagree.`, 'Send one of them.');
    return undefined;
  }
  const status = byId ?? byName;
  if (status === undefined) {
    if (idValue == null && nameValue == null) return undefined;
    issues.add(path, `${path} needs a valid statusId or statusName.`,
      `Valid: ${CELL_STATUSES.map((s) => `${s.statusId} (${s.statusName})`).join(', ')}.`);
    return undefined;
  }
  return status.statusId;
}

export function readPhones(issues: Issues, body: JsonObject, vc: ValidationContext): ValidPhone[] {
  const out: ValidPhone[] = [];
  eachObject(issues, body, 'phones', 'a phone object with a "phoneNumber" property', (item, path) => {
    const p = (k: string): string => pathOf(path, k);
    // A JSON number is tolerated here (compatibility.md), so readString, not readText.
    const number = readString(issues, own(item, 'phoneNumber'), p('phoneNumber'), 50);
    if (number === undefined && isBlank(own(item, 'phoneNumber'))) issues.add(p('phoneNumber'), `${p('phoneNumber')} is required.`);
    let countryCode = readText(issues, own(item, 'countryCode'), p('countryCode'), 2)?.toUpperCase();
    if (countryCode !== undefined && !isKnownCountry(countryCode)) {
      issues.add(p('countryCode'), `${p('countryCode')} "${countryCode}" is not an ISO 3166-1 alpha-2 country code.`);
      countryCode = undefined;
    }
    let dialingPrefix = readText(issues, own(item, 'dialingPrefix'), p('dialingPrefix'), 10)?.replace(/^\+/, '');
    if (dialingPrefix !== undefined && !/^\d{1,3}$/.test(dialingPrefix)) {
      issues.add(p('dialingPrefix'), `${p('dialingPrefix')} must be 1 to 3 digits, such as "1" or "44".`);
      dialingPrefix = undefined;
    }
    let consistent = true;
    if (countryCode !== undefined && dialingPrefix !== undefined && !dialingPrefixMatchesCountry(dialingPrefix, countryCode)) {
      issues.add(p('dialingPrefix'), `${p('dialingPrefix')} ${dialingPrefix} and countryCode ${countryCode} denote different countries.`, 'Send matching values, or only one of them.');
      consistent = false;
    }
    // A JSON number is tolerated (ngp_van-ruby's match candidate sends "ext": 999).
    const ext = readString(issues, own(item, 'ext'), p('ext'), 20);
    if (ext !== undefined && !/^\d{1,6}$/.test(ext)) {
      issues.add(p('ext'), `${p('ext')} must be at most six digits.`);
    }
    const phoneType = readCode(issues, own(item, 'phoneType'), p('phoneType'), PHONE_TYPE_CODES, 'H (home), W (work), C (cell), M (main), F (fax)');
    const deviceType = readCode(issues, own(item, 'deviceType'), p('deviceType'), DEVICE_TYPE_CODES, 'C (cell), L (landline), U (unknown), F (fax), V (VoIP)');
    const isPreferred = readBoolean(issues, own(item, 'isPreferred'), p('isPreferred'));
    const optIn = readCode(issues, own(item, 'phoneOptInStatus'), p('phoneOptInStatus'), OPT_IN_CODES, 'I (opt in), U (unknown), O (opt out)');
    const cell = readCellStatus(issues, own(item, 'isCellStatus'), p('isCellStatus'));
    if (number === undefined || !consistent) return;
    const options: { countryCode?: string; dialingPrefix?: string; defaultCountry: string } = { defaultCountry: vc.settings.defaultCountry };
    if (countryCode !== undefined) options.countryCode = countryCode;
    if (dialingPrefix !== undefined) options.dialingPrefix = dialingPrefix;
    const checked = checkPhone(number, options);
    if (!checked.ok) {
      const country = countryCode ?? (dialingPrefix !== undefined ? `dialing prefix +${dialingPrefix}` : vc.settings.defaultCountry);
      issues.add(p('phoneNumber'), `${p('phoneNumber')} "${clip(number)}" is not a valid phone number for ${country}.`,
        'Send the number with its area code; for another country add countryCode or dialingPrefix.');
      return;
    }
    const v = checked.value;
    const extValue = ext !== undefined && /^\d{1,6}$/.test(ext) ? ext : null;
    if (out.some((q) => q.e164 === v.e164 && q.ext === extValue)) return;
    out.push({
      phoneNumber: v.national, e164: v.e164, countryCode: v.country, dialingPrefix: v.dialingPrefix, ext: extValue,
      ...(phoneType !== undefined && { phoneType }),
      ...(deviceType !== undefined && { deviceType }),
      ...(isPreferred !== undefined && { isPreferred }),
      ...(optIn !== undefined && { phoneOptInStatus: optIn }),
      ...(cell !== undefined && { isCellStatusId: cell }),
    });
  });
  return out;
}

const US_ZIP = /^(\d{5})(?:[- ]?(\d{4}))?$/;
const POSTAL_CODE = /^[A-Za-z0-9](?:[A-Za-z0-9 -]{0,10}[A-Za-z0-9])?$/;

function readZip(issues: Issues, value: unknown, path: string, country: string): string | null {
  const zip = readText(issues, value, path, 12);
  if (zip === undefined) return null;
  if (country === 'US') {
    const m = US_ZIP.exec(zip);
    if (m === null) {
      issues.add(path, `${path} "${clip(zip)}" is not a US ZIP code.`, 'Use 5 digits or ZIP+4, such as 20009 or 20009-1234.');
      return null;
    }
    return m[2] === undefined ? (m[1] as string) : `${m[1]}-${m[2]}`;
  }
  if (!POSTAL_CODE.test(zip)) {
    issues.add(path, `${path} "${clip(zip)}" is not a postal code.`);
    return null;
  }
  return zip.toUpperCase();
}

export function readAddresses(issues: Issues, body: JsonObject, vc: ValidationContext): ValidAddress[] {
  const out: ValidAddress[] = [];
  eachObject(issues, body, 'addresses', 'an address object', (item, path) => {
    const p = (k: string): string => pathOf(path, k);
    const text = (k: string): string | null => readText(issues, own(item, k), p(k), UNSPECIFIED_MAX_LENGTH) ?? null;
    let countryCode = readText(issues, own(item, 'countryCode'), p('countryCode'), 2)?.toUpperCase();
    if (countryCode !== undefined) {
      const allowed = vc.settings.countryCodes;
      if (!isKnownCountry(countryCode)) {
        issues.add(p('countryCode'), `${p('countryCode')} "${countryCode}" is not an ISO 3166-1 alpha-2 country code.`);
        countryCode = undefined;
      } else if (allowed !== null && !allowed.includes(countryCode)) {
        issues.add(p('countryCode'), `${p('countryCode')} ${countryCode} is not supported in this context.`, `Supported: ${allowed.join(', ')}.`);
        countryCode = undefined;
      }
    }
    const country = countryCode ?? vc.settings.defaultCountry;
    let state = readText(issues, own(item, 'stateOrProvince'), p('stateOrProvince'), 3);
    if (state !== undefined && !/^[A-Za-z0-9]{2,3}$/.test(state)) {
      issues.add(p('stateOrProvince'), `${p('stateOrProvince')} must be a two or three character code, such as "IL".`);
      state = undefined;
    }
    const type = readCode(issues, own(item, 'type'), p('type'), ADDRESS_TYPE_CODES, vc.settings.addressTypes.join(', ')) ?? 'Home';
    if (!vc.settings.addressTypes.includes(type)) {
      issues.add(p('type'), `${p('type')} ${type} is not available in this context.`, `Available: ${vc.settings.addressTypes.join(', ')}.`);
    }
    const address: ValidAddress = {
      addressLine1: text('addressLine1'),
      addressLine2: text('addressLine2'),
      addressLine3: text('addressLine3'),
      city: text('city'),
      stateOrProvince: state?.toUpperCase() ?? null,
      zipOrPostalCode: readZip(issues, own(item, 'zipOrPostalCode'), p('zipOrPostalCode'), country),
      countryCode: country,
      type,
    };
    const empty = address.addressLine1 === null && address.addressLine2 === null && address.addressLine3 === null &&
      address.city === null && address.stateOrProvince === null && address.zipOrPostalCode === null;
    if (!empty) out.push(address);
  });
  return out;
}

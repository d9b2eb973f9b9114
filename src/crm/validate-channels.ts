/**
 * The code on top of the Match Candidate schema for the contact channels: emails (interface.md
 * 2.2), phones (2.3) and addresses (2.4). The schema has checked the shapes, lengths and codes;
 * here: required values that are blank, valid addresses and numbers (outside rules), the
 * settings of the context, the cross-field rules (dialingPrefix against countryCode,
 * isSubscribed against subscriptionStatus), and one of each value sent twice. Read-only
 * properties (`phoneId`, `addressId`, `isBest`) are ignored when sent.
 */
import type { ValidAddress, ValidEmail, ValidPhone, ValidationContext } from './candidate.js';
import { ADDRESS_TYPE_CODES, CELL_STATUSES, DEVICE_TYPE_CODES, EMAIL_TYPE_CODES, OPT_IN_CODES, PHONE_TYPE_CODES, SUBSCRIPTION_CODES } from './codes.js';
import { clip } from './schemas/kit.js';
import { isBlank, own, pathOf, type JsonObject, type Reader } from './schemas/reader.js';
import { isKnownCountry } from './settings.js';
import { checkPhone, dialingPrefixMatchesCountry } from '../engine/index.js';
import { isValidEmail } from './values.js';

export function readEmails(r: Reader, body: JsonObject, vc: ValidationContext): ValidEmail[] {
  const out: ValidEmail[] = [];
  for (const { item, path } of r.each(own(body, 'emails'), 'emails')) {
    const p = (k: string): string => pathOf(path, k);
    const email = r.text(own(item, 'email'), p('email'));
    if (email === undefined) {
      if (isBlank(own(item, 'email'))) r.add(p('email'), `${p('email')} is required.`);
    } else if (!isValidEmail(email)) {
      r.add(p('email'), `${p('email')} "${clip(email)}" is not a valid email address.`);
    }
    const type = r.code(own(item, 'type'), p('type'), EMAIL_TYPE_CODES);
    const isPreferred = r.bool(own(item, 'isPreferred'), p('isPreferred'));
    const isSubscribed = r.bool(own(item, 'isSubscribed'), p('isSubscribed'));
    const status = r.code(own(item, 'subscriptionStatus'), p('subscriptionStatus'), SUBSCRIPTION_CODES);
    if (status !== undefined && !vc.settings.targetedEmail) {
      r.add(p('subscriptionStatus'), `${p('subscriptionStatus')} is only available where targeted email is enabled.`, 'Use isSubscribed in this context.');
    } else if (status !== undefined && isSubscribed !== undefined) {
      r.add(p('subscriptionStatus'), `Setting both isSubscribed and subscriptionStatus in ${path} is not valid.`, 'Send subscriptionStatus only.');
    }
    if (email === undefined || !isValidEmail(email)) continue;
    const key = email.toLowerCase();
    if (out.some((e) => e.key === key)) continue;
    out.push({
      email,
      key,
      ...(type !== undefined && { type }),
      ...(isPreferred !== undefined && { isPreferred }),
      ...(isSubscribed !== undefined && { isSubscribed }),
      ...(status !== undefined && { subscriptionStatus: status }),
    });
  }
  return out;
}

/** The cell status named by `statusId` or `statusName` (which must agree). */
function readCellStatus(r: Reader, value: unknown, path: string): number | undefined {
  const obj = r.obj(value, path);
  if (obj === undefined) return undefined;
  const idValue = own(obj, 'statusId');
  const nameValue = own(obj, 'statusName');
  const id = r.int(idValue, pathOf(path, 'statusId'));
  const byId = CELL_STATUSES.find((s) => s.statusId === id);
  const name = r.text(nameValue, pathOf(path, 'statusName'));
  const byName = CELL_STATUSES.find((s) => s.statusName.toLowerCase() === name?.toLowerCase());
  if (byId !== undefined && byName !== undefined && byId !== byName) {
    r.add(path, `${path} statusId ${byId.statusId} and statusName "${clip(name ?? '')}" disagree.`, 'Send one of them.');
    return undefined;
  }
  const status = byId ?? byName;
  if (status === undefined) {
    if (idValue == null && nameValue == null) return undefined;
    r.add(path, `${path} needs a valid statusId or statusName.`, `Valid: ${CELL_STATUSES.map((s) => `${s.statusId} (${s.statusName})`).join(', ')}.`);
    return undefined;
  }
  return status.statusId;
}

export function readPhones(r: Reader, body: JsonObject, vc: ValidationContext): ValidPhone[] {
  const out: ValidPhone[] = [];
  for (const { item, path } of r.each(own(body, 'phones'), 'phones')) {
    const p = (k: string): string => pathOf(path, k);
    const number = r.text(own(item, 'phoneNumber'), p('phoneNumber'));
    if (number === undefined && isBlank(own(item, 'phoneNumber'))) r.add(p('phoneNumber'), `${p('phoneNumber')} is required.`);
    let countryCode = r.text(own(item, 'countryCode'), p('countryCode'))?.toUpperCase();
    if (countryCode !== undefined && !isKnownCountry(countryCode)) {
      r.add(p('countryCode'), `${p('countryCode')} "${clip(countryCode)}" is not an ISO 3166-1 alpha-2 country code.`);
      countryCode = undefined;
    }
    const dialingPrefix = r.text(own(item, 'dialingPrefix'), p('dialingPrefix'))?.replace(/^\+/, '');
    let consistent = true;
    if (countryCode !== undefined && dialingPrefix !== undefined && !dialingPrefixMatchesCountry(dialingPrefix, countryCode)) {
      r.add(
        p('dialingPrefix'),
        `${p('dialingPrefix')} ${dialingPrefix} and countryCode ${countryCode} denote different countries.`,
        'Send matching values, or only one of them.',
      );
      consistent = false;
    }
    // A JSON number is accepted (ngp_van-ruby's match candidate sends "ext": 999); digits only.
    const ext = r.text(own(item, 'ext'), p('ext'));
    const extOk = ext !== undefined && /^\d{1,6}$/.test(ext);
    if (ext !== undefined && !extOk) r.add(p('ext'), `${p('ext')} must be at most six digits.`);
    const phoneType = r.code(own(item, 'phoneType'), p('phoneType'), PHONE_TYPE_CODES);
    const deviceType = r.code(own(item, 'deviceType'), p('deviceType'), DEVICE_TYPE_CODES);
    const isPreferred = r.bool(own(item, 'isPreferred'), p('isPreferred'));
    const optIn = r.code(own(item, 'phoneOptInStatus'), p('phoneOptInStatus'), OPT_IN_CODES);
    const cell = readCellStatus(r, own(item, 'isCellStatus'), p('isCellStatus'));
    if (number === undefined || !consistent) continue;
    const options: { countryCode?: string; dialingPrefix?: string; defaultCountry: string } = { defaultCountry: vc.settings.defaultCountry };
    if (countryCode !== undefined) options.countryCode = countryCode;
    if (dialingPrefix !== undefined) options.dialingPrefix = dialingPrefix;
    const checked = checkPhone(number, options);
    if (!checked.ok) {
      const country = countryCode ?? (dialingPrefix !== undefined ? `dialing prefix +${dialingPrefix}` : vc.settings.defaultCountry);
      r.add(
        p('phoneNumber'),
        `${p('phoneNumber')} "${clip(number)}" is not a valid phone number for ${country}.`,
        'Send the number with its area code; for another country add countryCode or dialingPrefix.',
      );
      continue;
    }
    const v = checked.value;
    const extValue = extOk ? ext : null;
    if (out.some((q) => q.e164 === v.e164 && q.ext === extValue)) continue;
    out.push({
      phoneNumber: v.national,
      e164: v.e164,
      countryCode: v.country,
      dialingPrefix: v.dialingPrefix,
      ext: extValue,
      ...(phoneType !== undefined && { phoneType }),
      ...(deviceType !== undefined && { deviceType }),
      ...(isPreferred !== undefined && { isPreferred }),
      ...(optIn !== undefined && { phoneOptInStatus: optIn }),
      ...(cell !== undefined && { isCellStatusId: cell }),
    });
  }
  return out;
}

const US_ZIP = /^(\d{5})(?:[- ]?(\d{4}))?$/;
const POSTAL_CODE = /^[A-Z0-9](?:[A-Z0-9 -]{0,10}[A-Z0-9])?$/i;

function readZip(r: Reader, value: unknown, path: string, country: string): string | null {
  const zip = r.text(value, path);
  if (zip === undefined) return null;
  if (country === 'US') {
    const m = US_ZIP.exec(zip);
    if (m === null) {
      r.add(path, `${path} "${clip(zip)}" is not a US ZIP code.`, 'Use 5 digits or ZIP+4, such as 20009 or 20009-1234.');
      return null;
    }
    return m[2] === undefined ? (m[1] as string) : `${m[1]}-${m[2]}`;
  }
  if (!POSTAL_CODE.test(zip)) {
    r.add(path, `${path} "${clip(zip)}" is not a postal code.`);
    return null;
  }
  return zip.toUpperCase();
}

export function readAddresses(r: Reader, body: JsonObject, vc: ValidationContext): ValidAddress[] {
  const out: ValidAddress[] = [];
  for (const { item, path } of r.each(own(body, 'addresses'), 'addresses')) {
    const p = (k: string): string => pathOf(path, k);
    const text = (k: string): string | null => r.text(own(item, k), p(k)) ?? null;
    let countryCode = r.text(own(item, 'countryCode'), p('countryCode'))?.toUpperCase();
    if (countryCode !== undefined) {
      const allowed = vc.settings.countryCodes;
      if (!isKnownCountry(countryCode)) {
        r.add(p('countryCode'), `${p('countryCode')} "${clip(countryCode)}" is not an ISO 3166-1 alpha-2 country code.`);
        countryCode = undefined;
      } else if (allowed !== null && !allowed.includes(countryCode)) {
        r.add(p('countryCode'), `${p('countryCode')} ${countryCode} is not supported in this context.`, `Supported: ${allowed.join(', ')}.`);
        countryCode = undefined;
      }
    }
    const country = countryCode ?? vc.settings.defaultCountry;
    const state = r.text(own(item, 'stateOrProvince'), p('stateOrProvince'));
    const type = r.code(own(item, 'type'), p('type'), ADDRESS_TYPE_CODES) ?? 'Home';
    if (!vc.settings.addressTypes.includes(type)) {
      r.add(p('type'), `${p('type')} ${type} is not available in this context.`, `Available: ${vc.settings.addressTypes.join(', ')}.`);
    }
    const address: ValidAddress = {
      addressLine1: text('addressLine1'),
      addressLine2: text('addressLine2'),
      addressLine3: text('addressLine3'),
      city: text('city'),
      stateOrProvince: state?.toUpperCase() ?? null,
      zipOrPostalCode: readZip(r, own(item, 'zipOrPostalCode'), p('zipOrPostalCode'), country),
      countryCode: country,
      type,
    };
    const empty =
      address.addressLine1 === null &&
      address.addressLine2 === null &&
      address.addressLine3 === null &&
      address.city === null &&
      address.stateOrProvince === null &&
      address.zipOrPostalCode === null;
    if (!empty) out.push(address);
  }
  return out;
}

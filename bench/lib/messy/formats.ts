/**
 * How addresses and phone numbers are written, shared by the scenarios: the usual form and
 * the variants a clerk or a form produces.
 */
import { DIRECTIONALS, STREET_SUFFIXES } from '../corpus-data.js';
import type { AddressModel } from '../corpus-model.js';
import { stripAccents } from '../corpus-model.js';
import type { Rng } from '../prng.js';

/** Share of a variant's directionals written after the street ("Main St N" for "N Main St"). */
const DIRECTIONAL_AFTER = 0.25;

/**
 * "123 N Main St Apt 4B". With `variant`, the direction and suffix take another of their
 * forms (N/North/N., St/Street/Str), the direction is written after the street a quarter
 * of the time ("Main St North": a clerk, a form, a GIS export) and the unit is left off
 * half the time. The direction's form and place come from one draw (the form as before),
 * so the files' other values are those of the generator without that place.
 */
export function streetLine(a: AddressModel, rng: Rng, variant: boolean): string {
  const dir = a.predir >= 0 ? DIRECTIONALS[a.predir] : undefined;
  const suffix = a.suffix >= 0 ? STREET_SUFFIXES[a.suffix] : undefined;
  const form = (forms: readonly string[] | undefined): string | null =>
    forms === undefined ? null : variant ? (forms[1 + rng.int(forms.length - 1)] ?? forms[0] ?? null) : (forms[0] ?? null);
  let dirText: string | null;
  let after = false;
  if (dir !== undefined && variant) {
    const places = 1 / DIRECTIONAL_AFTER;
    const v = rng.int((dir.length - 1) * places);
    dirText = dir[1 + Math.floor(v / places)] ?? dir[0] ?? null;
    after = v % places === 0;
  } else dirText = form(dir);
  const unit = a.unit !== null && !(variant && rng.chance(0.5)) ? `Apt ${a.unit}` : null;
  const street = stripAccents(a.street);
  const words = after ? [a.number, street, form(suffix), dirText, unit] : [a.number, dirText, street, form(suffix), unit];
  return words.filter((x) => x !== null).join(' ');
}

export type PhoneStyle = 'paren' | 'dash' | 'dot' | 'plain' | 'intl';

/** A 10-digit North American number written in a style: (212) 555-0134, +1 212 555 0134... */
export function formatPhone(digits: string, style: PhoneStyle): string {
  const a = digits.slice(0, 3);
  const b = digits.slice(3, 6);
  const c = digits.slice(6, 10);
  switch (style) {
    case 'paren':
      return `(${a}) ${b}-${c}`;
    case 'dash':
      return `${a}-${b}-${c}`;
    case 'dot':
      return `${a}.${b}.${c}`;
    case 'plain':
      return `${a}${b}${c}`;
    case 'intl':
      return `+1 ${a} ${b} ${c}`;
  }
}

/** The local 7-digit form, without the area code: 555-0134. */
export function localPhone(digits: string): string {
  return `${digits.slice(3, 6)}-${digits.slice(6, 10)}`;
}

/**
 * Minimum combinations ("gates", interface.md 1.1): a match is attempted only when the
 * submitted data holds at least one of them, and (our stricter reading) a match is accepted
 * only when the record agrees on every field of at least one gate the candidate met.
 *
 * Gates are data: a list of field combinations evaluated by {@link evaluateGates}. Files
 * that lack the contract's fields (a voter list with no dates of birth) can pass their own
 * (`matchbook dedupe --gate firstName+lastName+zip5+city`).
 */
import type { NormalizedContact } from './types.js';

/** Fields a gate can require. `zip5` is the postal code: ZIP5 in the US, the postcode elsewhere. */
export type GateField =
  'firstName' | 'lastName' | 'middleName' | 'email' | 'phone' | 'zip5' | 'dateOfBirth' | 'streetNumber' | 'streetName' | 'city' | 'state' | 'identifier';

/** Bit of each gate field in a field mask. */
export const GATE_FIELD_BITS: Readonly<Record<GateField, number>> = {
  firstName: 1 << 0,
  lastName: 1 << 1,
  middleName: 1 << 2,
  email: 1 << 3,
  phone: 1 << 4,
  zip5: 1 << 5,
  dateOfBirth: 1 << 6,
  streetNumber: 1 << 7,
  streetName: 1 << 8,
  city: 1 << 9,
  state: 1 << 10,
  identifier: 1 << 11,
};

/** A minimum combination: every listed field must be supplied (and, to match, agree). */
export interface Gate {
  /** Name shown in explanations, e.g. "firstName+lastName+email". */
  readonly name: string;
  readonly fields: readonly GateField[];
  /** OR of the fields' bits. */
  readonly mask: number;
}

/** Builds a gate from its fields; its name is the fields joined with "+". */
export function defineGate(fields: readonly GateField[]): Gate {
  let mask = 0;
  for (const field of fields) mask |= GATE_FIELD_BITS[field];
  return { name: fields.join('+'), fields: [...fields], mask };
}

/** The contract's five minimum combinations (interface.md 1.1). */
export const CONTRACT_GATES: readonly Gate[] = Object.freeze([
  defineGate(['firstName', 'lastName', 'email']),
  defineGate(['firstName', 'lastName', 'phone']),
  defineGate(['firstName', 'lastName', 'zip5', 'dateOfBirth']),
  defineGate(['firstName', 'lastName', 'streetNumber', 'streetName', 'zip5']),
  defineGate(['email']),
]);

/** The default gates: the contract's. */
export const DEFAULT_GATES: readonly Gate[] = CONTRACT_GATES;

const FIELD_NAMES = Object.keys(GATE_FIELD_BITS) as GateField[];

/** Parses "firstName+lastName+zip5"; returns an error text naming the bad field. */
export function parseGate(text: string): Gate | { error: string } {
  const parts = text
    .split('+')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts.length === 0) return { error: `empty gate "${text}"` };
  const fields: GateField[] = [];
  for (const part of parts) {
    const field = FIELD_NAMES.find((f) => f.toLowerCase() === part.toLowerCase());
    if (!field) return { error: `unknown gate field "${part}"; valid: ${FIELD_NAMES.join(', ')}` };
    fields.push(field);
  }
  return defineGate(fields);
}

/** Mask of the gate fields a normalized contact supplies. */
export function suppliedFields(contact: NormalizedContact): number {
  let mask = 0;
  if (contact.first !== null) mask |= GATE_FIELD_BITS.firstName;
  if (contact.last !== null) mask |= GATE_FIELD_BITS.lastName;
  if (contact.middle !== null) mask |= GATE_FIELD_BITS.middleName;
  if (contact.emails.length > 0) mask |= GATE_FIELD_BITS.email;
  if (contact.phones.length > 0) mask |= GATE_FIELD_BITS.phone;
  if (contact.dob !== null) mask |= GATE_FIELD_BITS.dateOfBirth;
  if (contact.identifiers.length > 0) mask |= GATE_FIELD_BITS.identifier;
  for (const a of contact.addresses) {
    if (a.zip !== null) mask |= GATE_FIELD_BITS.zip5;
    if (a.number !== null) mask |= GATE_FIELD_BITS.streetNumber;
    if (a.street !== null) mask |= GATE_FIELD_BITS.streetName;
    if (a.city !== null) mask |= GATE_FIELD_BITS.city;
    if (a.state !== null) mask |= GATE_FIELD_BITS.state;
  }
  return mask;
}

/** The gates whose fields are all in `mask`. Adding a field to the mask never removes one. */
export function evaluateGates(gates: readonly Gate[], mask: number): readonly Gate[] {
  // A loop, not filter and a closure: every lookup runs this.
  const met: Gate[] = [];
  for (const gate of gates) if ((mask & gate.mask) === gate.mask) met.push(gate);
  return met;
}

/** A minimum combination a candidate supplies that a record does not agree on, and on which fields. */
export interface GateShortfall {
  /** The gate's name, e.g. "firstName+lastName+email". */
  readonly gate: string;
  /** Fields both hold that do not agree. */
  readonly differs: readonly GateField[];
  /** Fields the record does not hold. */
  readonly missing: readonly GateField[];
}

/**
 * Why no minimum combination agrees between a candidate and a record: for each gate the
 * candidate supplies (`supplied`, a {@link suppliedFields} mask), its fields outside `agreed`
 * (the pair's agreement mask), split by whether the record holds them (`held`). Empty when a
 * supplied gate agrees on every field, or when the candidate supplies none.
 */
export function gateShortfalls(gates: readonly Gate[], supplied: number, held: number, agreed: number): GateShortfall[] {
  const met = evaluateGates(gates, supplied);
  if (met.some((g) => (agreed & g.mask) === g.mask)) return [];
  return met.map((g) => {
    const short = g.fields.filter((f) => (agreed & GATE_FIELD_BITS[f]) === 0);
    return { gate: g.name, differs: short.filter((f) => (held & GATE_FIELD_BITS[f]) !== 0), missing: short.filter((f) => (held & GATE_FIELD_BITS[f]) === 0) };
  });
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTRACT_GATES, evaluateGates, GATE_FIELD_BITS, gateShortfalls, parseGate, type GateField } from '../../src/engine/gates.js';

const FIELDS = Object.keys(GATE_FIELD_BITS) as GateField[];
const mask = (...fields: GateField[]): number => fields.reduce((m, f) => m | GATE_FIELD_BITS[f], 0);
const names = (m: number): string[] => evaluateGates(CONTRACT_GATES, m).map((g) => g.name);

describe('contract gates', () => {
  it.each([
    [
      ['firstName', 'lastName', 'email'],
      ['firstName+lastName+email', 'email'],
    ],
    [['firstName', 'lastName', 'phone'], ['firstName+lastName+phone']],
    [['firstName', 'lastName', 'zip5', 'dateOfBirth'], ['firstName+lastName+zip5+dateOfBirth']],
    [['firstName', 'lastName', 'streetNumber', 'streetName', 'zip5'], ['firstName+lastName+streetNumber+streetName+zip5']],
    [['email'], ['email']],
    [['firstName', 'lastName', 'zip5'], []],
    [['firstName', 'phone'], []],
    [['lastName', 'dateOfBirth', 'zip5', 'streetName'], []],
  ] as [GateField[], string[]][])('%j meets %j', (fields, expected) => {
    expect(names(mask(...fields))).toEqual(expected);
  });

  it('adding a field never un-passes a gate', () => {
    const field = fc.constantFrom(...FIELDS);
    fc.assert(
      fc.property(fc.array(field), field, (fields, extra) => {
        const before = names(mask(...fields));
        const after = names(mask(...fields, extra));
        for (const g of before) expect(after).toContain(g);
      }),
    );
  });

  it('parses gates from text and names bad fields', () => {
    const g = parseGate('firstName+LASTNAME+zip5+city');
    expect('error' in g ? g.error : g.name).toBe('firstName+lastName+zip5+city');
    const bad = parseGate('firstName+shoeSize');
    expect('error' in bad && bad.error).toMatch(/shoeSize/);
  });
});

describe('gateShortfalls', () => {
  const all = mask('firstName', 'lastName', 'email', 'phone');

  it('names, for each gate the candidate supplies, the fields that differ and those the record lacks', () => {
    // The candidate gives name, email and phone; the record has the name, another email, no phone.
    const held = mask('firstName', 'lastName', 'email');
    const agreed = mask('firstName', 'lastName');
    expect(gateShortfalls(CONTRACT_GATES, all, held, agreed)).toEqual([
      { gate: 'firstName+lastName+email', differs: ['email'], missing: [] },
      { gate: 'firstName+lastName+phone', differs: [], missing: ['phone'] },
      { gate: 'email', differs: ['email'], missing: [] },
    ]);
  });

  it('is empty when a supplied gate agrees, or when none is supplied', () => {
    expect(gateShortfalls(CONTRACT_GATES, all, all, mask('firstName', 'lastName', 'phone'))).toEqual([]);
    expect(gateShortfalls(CONTRACT_GATES, mask('firstName', 'lastName'), all, 0)).toEqual([]);
  });

  it("is empty exactly when some supplied gate agrees on every field, and names only supplied gates' fields", () => {
    const field = fc.constantFrom(...FIELDS);
    fc.assert(
      fc.property(fc.array(field), fc.array(field), fc.array(field), (s, h, a) => {
        const supplied = mask(...s);
        const out = gateShortfalls(CONTRACT_GATES, supplied, mask(...h), mask(...a));
        const agrees = evaluateGates(CONTRACT_GATES, supplied).some((g) => (mask(...a) & g.mask) === g.mask);
        expect(out.length === 0).toBe(agrees || evaluateGates(CONTRACT_GATES, supplied).length === 0);
        for (const g of out) {
          expect(names(supplied)).toContain(g.gate);
          for (const f of [...g.differs, ...g.missing]) expect(g.gate.split('+')).toContain(f);
          expect(g.differs.length + g.missing.length).toBeGreaterThan(0);
        }
      }),
    );
  });
});

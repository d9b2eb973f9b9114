import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTRACT_GATES, evaluateGates, GATE_FIELD_BITS, parseGate, type GateField } from '../../src/engine/gates.js';

const FIELDS = Object.keys(GATE_FIELD_BITS) as GateField[];
const mask = (...fields: GateField[]): number => fields.reduce((m, f) => m | GATE_FIELD_BITS[f], 0);
const names = (m: number): string[] => evaluateGates(CONTRACT_GATES, m).map((g) => g.name);

describe('contract gates', () => {
  it.each([
    [['firstName', 'lastName', 'email'], ['firstName+lastName+email', 'email']],
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
    fc.assert(fc.property(fc.array(field), field, (fields, extra) => {
      const before = names(mask(...fields));
      const after = names(mask(...fields, extra));
      for (const g of before) expect(after).toContain(g);
    }));
  });

  it('parses gates from text and names bad fields', () => {
    const g = parseGate('firstName+LASTNAME+zip5+city');
    expect('error' in g ? g.error : g.name).toBe('firstName+lastName+zip5+city');
    const bad = parseGate('firstName+shoeSize');
    expect('error' in bad && bad.error).toMatch(/shoeSize/);
  });
});

/** Which model a context scores with (src/crm/tenant-model.ts). */
import { describe, expect, it } from 'vitest';
import { contextModelOf, SHIPPED_CRM_MODEL, withTrainedWeights } from '../../src/crm/tenant-model.js';
import { parseModel, serializeModel, type MatchModel } from '../../src/engine/index.js';

/** A "trained" model: every level's m and u changed, a veto dropped, other thresholds, a level the shipped model lacks. */
const trained: MatchModel = {
  ...SHIPPED_CRM_MODEL,
  thresholds: { match: 5, possible: 1 },
  fields: {
    firstName: { exact: { m: 0.5, u: 0.25 }, disagree: { m: 0.2, u: 0.4 }, phonetic: { m: 0.1, u: 0.01 } },
    zip5: { exact: { m: 0.9, u: 0.9 } },
  },
};

describe('tenant model', () => {
  it('a trained model changes only m and u of the levels the shipped model has', () => {
    const merged = withTrainedWeights(SHIPPED_CRM_MODEL, trained);
    expect(merged.thresholds).toBe(SHIPPED_CRM_MODEL.thresholds);
    expect(merged.fields.firstName?.exact).toEqual({ ...SHIPPED_CRM_MODEL.fields.firstName?.exact, m: 0.5, u: 0.25 });
    expect(merged.fields.firstName?.disagree).toEqual({ ...SHIPPED_CRM_MODEL.fields.firstName?.disagree, m: 0.2, u: 0.4 });
    expect(merged.fields.firstName?.disagree?.veto).toBe(SHIPPED_CRM_MODEL.fields.firstName?.disagree?.veto);
    expect(merged.fields.firstName?.phonetic).toBe(SHIPPED_CRM_MODEL.fields.firstName?.phonetic);
    expect(merged.fields.firstName?.nickname).toBe(SHIPPED_CRM_MODEL.fields.firstName?.nickname);
    expect(merged.fields.zip5?.exact).toEqual({ ...SHIPPED_CRM_MODEL.fields.zip5?.exact, m: 0.9, u: 0.9 });
    expect(merged.fields.lastName).toEqual(SHIPPED_CRM_MODEL.fields.lastName);
    expect(Object.keys(merged.fields)).toEqual(Object.keys(SHIPPED_CRM_MODEL.fields));
  });

  it('the model of a stored version: none, a reset, a trained document, a document that no longer parses', () => {
    expect(contextModelOf(null)).toEqual({ model: SHIPPED_CRM_MODEL, inForce: { source: 'shipped', version: null, since: null } });
    expect(contextModelOf({ version: 2, json: null, createdAt: 't' })).toEqual({
      model: SHIPPED_CRM_MODEL,
      inForce: { source: 'shipped', version: 2, since: 't' },
    });
    const stored = contextModelOf({ version: 3, json: serializeModel(trained), createdAt: 't3' });
    expect(stored.inForce).toEqual({ source: 'trained', version: 3, since: 't3' });
    expect(stored.model).toEqual(withTrainedWeights(SHIPPED_CRM_MODEL, trained));
    expect(contextModelOf({ version: 4, json: '{"format":"matchbook-model"', createdAt: 't4' })).toEqual({
      model: SHIPPED_CRM_MODEL,
      inForce: { source: 'shipped', version: 4, since: 't4' },
    });
  });

  it('a model document keeps the rules of each level: veto, the exception of the surname veto (vetoUnless), the second way to support a swap (supportAll)', () => {
    const parsed = parseModel(serializeModel(SHIPPED_CRM_MODEL));
    if ('error' in parsed) throw new Error(parsed.error);
    expect(parsed.fields.lastName?.disagree).toEqual(SHIPPED_CRM_MODEL.fields.lastName?.disagree);
    expect(parsed.fields.firstName?.swapped).toEqual(SHIPPED_CRM_MODEL.fields.firstName?.swapped);
    expect(SHIPPED_CRM_MODEL.fields.firstName?.swapped?.supportAll).toEqual(['dateOfBirth', 'streetNumber', 'streetName', 'zip5']);
    expect(SHIPPED_CRM_MODEL.fields.lastName?.disagree?.vetoUnless).toEqual({ all: ['firstName', 'dateOfBirth'], any: ['email', 'phone'] });
    const doc = JSON.parse(serializeModel(SHIPPED_CRM_MODEL)) as { fields: { lastName: { disagree: { vetoUnless: { all: string[] } } } } };
    doc.fields.lastName.disagree.vetoUnless.all = ['birthday'];
    expect(parseModel(JSON.stringify(doc))).toEqual({ error: expect.stringMatching(/^fields\.lastName\.disagree\.vetoUnless: expected/) as unknown });
  });
});

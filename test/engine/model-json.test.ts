/**
 * Model files: an attribute column's levels, the part level ("share a word") included, read
 * back as written.
 */
import { describe, expect, it } from 'vitest';
import { ATTRIBUTE_PRIOR, FILE_MODEL, parseModel, serializeModel, type MatchModel } from '../../src/engine/index.js';

describe('model files', () => {
  it("an attribute's levels, part included, survive a save and a load", () => {
    const model: MatchModel = { ...FILE_MODEL, attributes: [{ name: 'birth_place', levels: ATTRIBUTE_PRIOR }] };
    expect(ATTRIBUTE_PRIOR.part).toBeDefined();
    const back = parseModel(serializeModel(model));
    if ('error' in back) throw new Error(back.error);
    expect(back.attributes?.[0]?.levels).toEqual(ATTRIBUTE_PRIOR);
  });

  it('an attribute level that attributes do not have is refused, naming it', () => {
    const doc = JSON.parse(serializeModel({ ...FILE_MODEL, attributes: [{ name: 'occupation', levels: ATTRIBUTE_PRIOR }] })) as Record<string, unknown>;
    const attributes = doc['attributes'] as { levels: Record<string, unknown> }[];
    (attributes[0] as { levels: Record<string, unknown> }).levels['typo'] = { m: 0.1, u: 0.01 };
    const back = parseModel(JSON.stringify(doc));
    expect('error' in back && back.error).toMatch(/attributes\[0\]\.levels/);
  });
});

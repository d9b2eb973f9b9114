/**
 * withMonotoneWeights: an estimated model's weights put in agreement order. Levels that
 * outweigh exact agreement are pooled with it (the weights of summed m over summed u), so a
 * level few matches reach cannot pull down one most matches reach.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILE_MODEL, levelWeight, withMonotoneWeights, type FieldModel, type LevelName, type LevelSpec, type MatchModel } from '../../src/engine/index.js';

const LEVELS: readonly LevelName[] = ['exact', 'typo', 'fuzzy-high', 'prefix', 'partial', 'disagree'];

const probability = fc.double({ min: 1e-7, max: 1, noNaN: true });
const spec: fc.Arbitrary<LevelSpec> = fc.record({ m: probability, u: probability });
const fieldModel: fc.Arbitrary<FieldModel> = fc
  .tuple(...LEVELS.map(() => fc.option(spec, { nil: undefined })))
  .map((specs) => {
    const out: Partial<Record<LevelName, LevelSpec>> = {};
    specs.forEach((s, i) => {
      if (s !== undefined) out[LEVELS[i] as LevelName] = s;
    });
    return out;
  })
  .filter((f) => f.exact !== undefined);

const modelOf = (f: FieldModel): MatchModel => ({ ...FILE_MODEL, groups: [], attributes: [], fields: { address: f } });
const fixed = (f: FieldModel): FieldModel => withMonotoneWeights(modelOf(f)).fields.address as FieldModel;
const weights = (f: FieldModel): Partial<Record<LevelName, number>> => Object.fromEntries(Object.entries(f).map(([l, s]) => [l, levelWeight(s)]));
const CLOSE = 1e-9;

describe('withMonotoneWeights', () => {
  it('leaves no level above exact agreement, none below disagreement, exact >= 0 and disagreement <= 0 bits', () => {
    fc.assert(
      fc.property(fieldModel, (f) => {
        const w = weights(fixed(f));
        const top = w.exact as number;
        expect(top).toBeGreaterThanOrEqual(-CLOSE);
        for (const [level, x] of Object.entries(w) as [LevelName, number][]) {
          if (level !== 'exact') expect(x).toBeLessThanOrEqual(top + CLOSE);
          if (w.disagree !== undefined && level !== 'disagree') expect(x).toBeGreaterThanOrEqual(w.disagree - CLOSE);
        }
        if (w.disagree !== undefined) expect(w.disagree).toBeLessThanOrEqual(CLOSE);
      }),
    );
  });

  it('pools the levels above exact agreement with it: every one of them, and exact, weighs log2 of their summed m over summed u', () => {
    fc.assert(
      fc.property(fieldModel, (f) => {
        // Exact kept at or above 0 bits first, as withMonotoneWeights does.
        const exact = f.exact as LevelSpec;
        const start: Partial<Record<LevelName, LevelSpec>> = { ...f, exact: exact.u > exact.m ? { ...exact, u: exact.m } : exact };
        const before = weights(start);
        const after = weights(fixed(f));
        const above = (Object.keys(before) as LevelName[]).filter((l) => l !== 'exact' && l !== 'disagree' && (before[l] as number) > (before.exact as number));
        if (above.length === 0) {
          expect(after.exact).toBeCloseTo(before.exact as number, 9);
          return;
        }
        // The pool's weight lies between exact's own and the largest pooled level's.
        const pooledWeight = after.exact as number;
        expect(pooledWeight).toBeGreaterThanOrEqual((before.exact as number) - CLOSE);
        expect(pooledWeight).toBeLessThanOrEqual(Math.max(...above.map((l) => before[l] as number)) + CLOSE);
        // The level that outweighed exact most is in the pool (it cannot stay above it).
        const highest = above.reduce((a, b) => ((before[a] as number) >= (before[b] as number) ? a : b));
        if (Number.isFinite(pooledWeight) && pooledWeight > 0) expect(after[highest]).toBeCloseTo(pooledWeight, 6);
      }),
    );
  });

  it('changes nothing in a model already in order (idempotent)', () => {
    fc.assert(
      fc.property(fieldModel, (f) => {
        const once = fixed(f);
        const twice = fixed(once);
        for (const level of Object.keys(once) as LevelName[])
          expect(levelWeight(twice[level] as LevelSpec)).toBeCloseTo(levelWeight(once[level] as LevelSpec), 6);
      }),
    );
  });

  it('gives a postcode-only file the same postcode at the weight most matches show, not at a rare whole address', () => {
    // Whole addresses (number and street) almost never agree in a file of postcodes: m 0.0012.
    // The same postcode: m 0.91 against u 0.00004 (14.5 bits). Capped at exact's 8.5 bits before.
    const f: FieldModel = { exact: { m: 0.0012, u: 0.0000034 }, prefix: { m: 0.91, u: 0.00004 }, disagree: { m: 0.0034, u: 0.99 } };
    const w = weights(fixed(f));
    const pooled = Math.log2((0.0012 + 0.91) / (0.0000034 + 0.00004));
    expect(w.prefix).toBeCloseTo(pooled, 6);
    expect(w.exact).toBeCloseTo(pooled, 6);
    expect(w.prefix).toBeGreaterThan(14);
  });
});

/**
 * The store folds identifiers itself (it imports no engine code): its fold must stay the
 * engine's, or an identifier the engine matches would not be found by the store's lookup.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldIdentifier as engineFold } from '../../src/engine/index.js';
import { foldIdentifier as storeFold } from '../../src/store/identifier-fold.js';

describe('foldIdentifier', () => {
  it('the store folds identifiers exactly as the engine does', () => {
    for (const text of [' DWID ', 'StateFileID', 'İstanbul', 'ÆØÅ\u00a0', '\t\nx\u2003', '']) expect(storeFold(text)).toBe(engineFold(text));
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => storeFold(text) === engineFold(text)),
      { seed: 20261125 },
    );
  });
});

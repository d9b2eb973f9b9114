/** fast-check arbitraries of the engine's normalized records, shared by the tests that store or send them. */
import fc from 'fast-check';
import type { NameSuffix, NormalizedAddress, NormalizedContact, Sex } from '../../src/engine/types.js';

export const normalizedText = fc.option(fc.string({ maxLength: 6, unit: 'binary' }), { nil: null });
export const normalizedAddress: fc.Arbitrary<NormalizedAddress> = fc.record({
  number: normalizedText,
  street: normalizedText,
  unit: normalizedText,
  building: normalizedText,
  city: normalizedText,
  state: normalizedText,
  zip: normalizedText,
  country: normalizedText,
});
const list = fc.array(fc.string({ maxLength: 8, unit: 'binary' }), { maxLength: 3 });
/** A normalized contact without attributes (a model with no attribute columns). */
export const normalizedContact: fc.Arbitrary<NormalizedContact> = fc.record({
  first: normalizedText,
  middle: normalizedText,
  last: normalizedText,
  suffix: fc.constantFrom<NameSuffix | null>(null, 'jr', 'sr', 'ii', 'iii', 'iv', 'v'),
  dob: normalizedText,
  emails: list,
  phones: list,
  addresses: fc.array(normalizedAddress, { maxLength: 2 }),
  identifiers: list,
  sex: fc.constantFrom<Sex | null>(null, 'm', 'f'),
  attributes: fc.constant([]),
  written: normalizedText,
});

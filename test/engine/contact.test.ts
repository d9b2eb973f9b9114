/**
 * normalizeContact with an AddressMemo gives exactly what it gives without one, whatever the
 * inputs (repeated, near-identical, with any characters, with the memo starting over).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AddressMemo, normalizeContact } from '../../src/engine/contact.js';
import { normalizeAddress } from '../../src/engine/address.js';
import type { AddressInput, ContactInput } from '../../src/engine/types.js';

const text = fc.oneof(
  fc.constantFrom('', '12 Main St', '12 Main St Apt 4', 'Apt 4', 'Springfield', 'IL', '62701', 'US', 'GB', '-', '1:x', '\u0000', ':'),
  fc.string({ unit: 'binary', maxLength: 12 }),
);
const field = fc.option(text, { nil: undefined });
const address: fc.Arbitrary<AddressInput> = fc.record(
  {
    addressLine1: field,
    addressLine2: field,
    addressLine3: field,
    streetNumber: field,
    streetName: field,
    city: field,
    stateOrProvince: field,
    zipOrPostalCode: field,
    countryCode: field,
  },
  { requiredKeys: [] },
);

describe('AddressMemo', () => {
  it('changes no result: a sequence of contacts sharing a small memo normalizes as without it', () => {
    fc.assert(
      fc.property(
        fc.array(address, { minLength: 1, maxLength: 6 }),
        fc.array(fc.array(fc.nat(5), { maxLength: 3 }), { minLength: 1, maxLength: 12 }),
        fc.constantFrom('US', 'GB'),
        fc.integer({ min: 1, max: 4 }),
        (pool, picks, country, capacity) => {
          const memo = new AddressMemo(capacity);
          for (const pick of picks) {
            const contact: ContactInput = { firstName: 'Ada', lastName: 'Lovelace', addresses: pick.map((i) => pool[i % pool.length] as AddressInput) };
            expect(normalizeContact(contact, { defaultCountry: country, addressMemo: memo })).toEqual(normalizeContact(contact, { defaultCountry: country }));
          }
        },
      ),
    );
  });

  it('tells apart inputs whose fields only concatenate alike', () => {
    const memo = new AddressMemo();
    const a: AddressInput = { addressLine1: '12 Main St', city: 'Springfield' };
    const b: AddressInput = { addressLine1: '12 Main St', addressLine2: 'Springfield' };
    const c: AddressInput = { addressLine1: '12 Main', addressLine2: ' St', city: 'Springfield' };
    for (const input of [a, b, c, a, b, c]) expect(memo.normalize(input, 'US')).toEqual(normalizeAddress(input, { defaultCountry: 'US' }));
    expect(memo.normalize(a, 'US')).not.toEqual(memo.normalize(b, 'US'));
  });

  it('keys by country too', () => {
    const memo = new AddressMemo();
    const input: AddressInput = { addressLine1: '10 Downing Street', city: 'London', zipOrPostalCode: 'SW1A 2AA' };
    expect(memo.normalize(input, 'GB')).toEqual(normalizeAddress(input, { defaultCountry: 'GB' }));
    expect(memo.normalize(input, 'US')).toEqual(normalizeAddress(input, { defaultCountry: 'US' }));
  });
});

/**
 * A batch of normalized contacts packed in columns for another thread (contact-batch.ts) comes
 * back equal, through a structured clone as between threads, whatever its lists and nulls.
 */
import { deserialize, serialize } from 'node:v8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeContact, type NormalizedAddress, type NormalizedContact } from '../../src/engine/index.js';
import { packContacts, unpackContacts } from '../../src/linkage/contact-batch.js';
import { normalizedContact, normalizedText } from '../engine/arbitraries.js';

/** Records with any number of attributes, some null (the batch keeps whatever the model's columns give). */
const contact: fc.Arbitrary<NormalizedContact> = normalizedContact.chain((c) =>
  fc.array(normalizedText, { maxLength: 3 }).map((attributes) => ({ ...c, attributes })),
);

/** Through a structured clone, as postMessage sends it. */
const cloned = <T>(value: T): T => deserialize(serialize(value)) as T;

describe('packed contact batches', () => {
  it('unpack(pack(batch)) equals the batch, cloned in between', () => {
    fc.assert(
      fc.property(fc.array(contact, { maxLength: 20 }), (batch) => {
        expect(unpackContacts(cloned(packContacts(batch)))).toEqual(batch);
      }),
    );
  });

  it('keeps normalizeContact key order (one hidden class for stored and sent records)', () => {
    const c = normalizeContact({
      firstName: 'Ada',
      lastName: 'Lovelace',
      emails: ['ada@example.org'],
      phones: ['+1 202 555 0143'],
      addresses: [{ addressLine1: '12 Main St', city: 'Springfield', stateOrProvince: 'IL', zipOrPostalCode: '62701' }],
    });
    const [back] = unpackContacts(cloned(packContacts([c])));
    expect(Object.keys(back as NormalizedContact)).toEqual(Object.keys(c));
    expect(Object.keys((back as NormalizedContact).addresses[0] as NormalizedAddress)).toEqual(Object.keys(c.addresses[0] as NormalizedAddress));
    expect(back).toEqual(c);
  });
});

/** Pure parsing pieces of the HTTP layer: credentials, $expand, person refs, JSON depth, 405 table. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { basicPassword, parseSecret, readCredentials } from '../../src/server/credentials.js';
import { jsonDepthExceeds } from '../../src/server/json-body.js';
import { MethodTable } from '../../src/server/method-table.js';
import { parseExpand, parsePersonRef } from '../../src/server/query.js';

const GUID = '0F8FAD5B-D9CB-469F-A165-70867728950E';

describe('credentials', () => {
  it.each([
    [GUID, { kind: 'key', guid: GUID.toLowerCase(), context: null }],
    [`${GUID}|0`, { kind: 'key', guid: GUID.toLowerCase(), context: 'voterfile' }],
    [` ${GUID} | 1 `, { kind: 'key', guid: GUID.toLowerCase(), context: 'campaign' }],
    [`${GUID}|2`, { kind: 'bad-mode' }],
    [`${GUID}|`, { kind: 'bad-mode' }],
    [`${GUID}|0|1`, { kind: 'bad-mode' }],
    [`{${GUID}}`, { kind: 'malformed' }],
    ['', { kind: 'malformed' }],
    ['x'.repeat(10_000), { kind: 'malformed' }],
  ])('parseSecret(%j)', (secret, expected) => {
    expect(parseSecret(secret)).toEqual(expected);
  });

  it('Basic: any username, password may contain colons, scheme in any case', () => {
    const enc = (s: string) => Buffer.from(s).toString('base64');
    expect(basicPassword(`Basic ${enc(`apiuser:${GUID}|1`)}`)).toBe(`${GUID}|1`);
    expect(basicPassword(`basic ${enc(`:${GUID}`)}`)).toBe(GUID);
    expect(basicPassword(`BASIC ${enc('a:b:c')}`)).toBe('b:c');
    expect(basicPassword(`Bearer ${GUID}`)).toBeNull();
    expect(basicPassword(`  Basic   ${enc(`u:${GUID}`)} \t`)).toBe(GUID);
    expect(basicPassword('Basic ')).toBe('');
    expect(basicPassword(`Basic${' '.repeat(16_000)}!`)).toBeNull();
  });

  it('prefers Basic, falls back to apiKey, reports missing', () => {
    expect(readCredentials({})).toEqual({ kind: 'missing' });
    expect(readCredentials({ apikey: GUID })).toMatchObject({ kind: 'key' });
    expect(readCredentials({ authorization: `Bearer x`, apikey: `${GUID}|0` })).toMatchObject({ kind: 'key', context: 'voterfile' });
    expect(readCredentials({ authorization: `Bearer x` })).toEqual({ kind: 'malformed' });
  });

  it('is total on any header values', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 300 }), (a, k) => {
        const r = readCredentials({ authorization: a, apikey: k });
        expect(['key', 'missing', 'bad-mode', 'malformed']).toContain(r.kind);
      }),
    );
  });
});

describe('$expand', () => {
  const valid = ['phones', 'emails', 'recordedAddresses'];
  it('canonicalises, splits, merges repeated keys, skips blanks', () => {
    const r = parseExpand(['PHONES, emails', ',recordedaddresses,'], valid);
    expect(r.ok && [...r.expand]).toEqual(['phones', 'emails', 'recordedAddresses']);
    const none = parseExpand(undefined, valid);
    expect(none.ok && none.expand.size).toBe(0);
  });
  it('rejects unknown names with a hint listing the valid ones', () => {
    const r = parseExpand('phones,nope', valid);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.status).toBe(400);
      expect(r.error.items[0]).toMatchObject({ code: 'INVALID_PARAMETER', properties: ['$expand'], hint: 'Valid values: phones, emails, recordedAddresses.' });
    }
  });
});

describe('person refs', () => {
  it.each([
    ['123', { kind: 'crmId', crmId: 123 }],
    ['0', null],
    ['1234567890123456', null],
    ['dwid:ABC', { kind: 'external', type: 'dwid', id: 'ABC' }],
    ['votercrmid:12:34', { kind: 'external', type: 'votercrmid', id: '12:34' }],
    [':1', null],
    ['dwid:', null],
    ['find', null],
  ])('parsePersonRef(%j)', (segment, expected) => {
    expect(parsePersonRef(segment)).toEqual(expected);
  });
});

describe('JSON depth guard', () => {
  const depthOf = (v: unknown): number => (typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0);
  it('agrees with the real nesting depth of any JSON value (oracle)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (value, limit) => {
        const bytes = Buffer.from(JSON.stringify(value));
        expect(jsonDepthExceeds(bytes, limit)).toBe(depthOf(value) > limit);
      }),
      { numRuns: 500 },
    );
  });
});

describe('method table', () => {
  it('answers the methods of the most specific matching pattern', () => {
    const t = new MethodTable();
    t.add('POST', '/v4/people/find');
    t.add('GET', '/v4/people/:ref');
    t.add('POST', '/v4/people/:ref/canvassResponses');
    expect(t.allowedMethods('/v4/people/find')).toEqual(['POST']);
    expect(t.allowedMethods('/v4/people/12')).toEqual(['GET']);
    expect(t.allowedMethods('/v4/people/12/canvassResponses')).toEqual(['POST']);
    expect(t.allowedMethods('/v4/people/')).toEqual([]);
    expect(t.allowedMethods('/v4/other')).toEqual([]);
  });
});

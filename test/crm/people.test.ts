import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Crm, CrmError, EXPANDABLE, type CallContext, type Person } from '../../src/crm/index.js';
import { RICH_SETTINGS_FILE, vanBody, vanFiles } from './fixtures.js';

const ALL = new Set(EXPANDABLE);

let crm: Crm;
let vf: CallContext;
let cp: CallContext;
let clock = 0;

beforeEach(async () => {
  clock = Date.UTC(2024, 0, 1);
  // Each call to the clock advances one second, so "most recently updated" is observable.
  crm = await Crm.open({ db: ':memory:', now: () => new Date((clock += 1000)) });
  const t = await crm.createTenant('acme');
  await crm.configureTenant('acme', RICH_SETTINGS_FILE);
  vf = { tenantId: t.id, context: 'voterfile' };
  cp = { tenantId: t.id, context: 'campaign' };
});
afterEach(async () => crm.close());

async function get(ctx: CallContext, crmId: number | null, expand: ReadonlySet<string> = ALL): Promise<Person> {
  const p = await crm.getPerson(ctx, crmId ?? -1, expand);
  if (p === null) throw new Error(`no person ${crmId}`);
  return p;
}

const arr = (p: Person, key: string): Record<string, unknown>[] => p[key] as Record<string, unknown>[];

describe('captured client bodies', () => {
  for (const file of vanFiles('parsons-sent-findOrCreate-')) {
    it(`${file}: 201 UnmatchedStored, then 302 Matched on the same body`, async () => {
      const first = await crm.findOrCreate(cp, vanBody(file));
      expect(first).toMatchObject({ status: 'UnmatchedStored', crmId: expect.any(Number) as number });
      const second = await crm.findOrCreate(cp, vanBody(file));
      expect(second).toMatchObject({ status: 'Matched', crmId: first.crmId, reason: null, updated: false });
    });
  }

  for (const file of vanFiles('parsons-sent-find-')) {
    it(`${file}: accepted; Unmatched on an empty database`, async () => {
      expect(await crm.find(vf, vanBody(file))).toMatchObject({ status: 'Unmatched', crmId: null });
    });
  }

  it('find by email alone matches the person upsert_person-full created', async () => {
    const created = await crm.findOrCreate(vf, vanBody('parsons-sent-findOrCreate-request-upsert_person-full.json'));
    expect(await crm.find(vf, vanBody('parsons-sent-find-request-email-only.json'))).toMatchObject({
      status: 'Matched',
      crmId: created.crmId,
      matchedBy: 'score',
    });
  });

  it('find by name and a numeric phone matches', async () => {
    const created = await crm.findOrCreate(vf, { firstName: 'Bob', lastName: 'Smith', phones: [{ phoneNumber: '(414) 202-0792' }] });
    expect(await crm.find(vf, vanBody('parsons-sent-find-request-find_person-phone.json'))).toMatchObject({ status: 'Matched', crmId: created.crmId });
  });

  it('the GET Person has every property of the captured response (vanId as crmId)', async () => {
    const created = await crm.findOrCreate(vf, vanBody('parsons-sent-findOrCreate-request-upsert_person-full.json'));
    const person = await get(vf, created.crmId);
    const sample = vanBody('parsons-get-person-response.json') as Record<string, unknown>;
    const expected = Object.keys(sample).map((k) => (k === 'vanId' ? 'crmId' : k));
    expect(Object.keys(person)).toEqual(expect.arrayContaining(expected));
    const phoneKeys = Object.keys((sample['phones'] as Record<string, unknown>[])[0] ?? {}).filter((k) => k !== 'smsOptInStatus');
    expect(Object.keys(arr(person, 'phones')[0] ?? {})).toEqual(expect.arrayContaining(phoneKeys));
    const addressKeys = Object.keys((sample['addresses'] as Record<string, unknown>[])[0] ?? {});
    expect(Object.keys(arr(person, 'addresses')[0] ?? {})).toEqual(expect.arrayContaining(addressKeys));
  });
});

describe('minimum combinations', () => {
  it('find below the minimum is Unmatched with reason below-minimum, even when a record would fit', async () => {
    await crm.findOrCreate(vf, { firstName: 'Ada', lastName: 'Lovelace', emails: [{ email: 'ada@example.org' }] });
    const r = await crm.find(vf, { firstName: 'Ada', lastName: 'Lovelace' });
    expect(r).toMatchObject({ status: 'Unmatched', crmId: null, reason: 'below-minimum' });
    expect(r.reasonText).toMatch(/minimum combinations/);
  });

  it('findOrCreate below the minimum always creates, and says why', async () => {
    const a = await crm.findOrCreate(vf, { firstName: 'Ada', lastName: 'Lovelace' });
    const b = await crm.findOrCreate(vf, { firstName: 'Ada', lastName: 'Lovelace' });
    expect(a).toMatchObject({ status: 'UnmatchedStored', reason: 'below-minimum' });
    expect(b).toMatchObject({ status: 'UnmatchedStored', reason: 'below-minimum' });
    expect(b.crmId).not.toBe(a.crmId);
  });

  it('an empty body creates an empty record', async () => {
    expect(await crm.findOrCreate(vf, {})).toMatchObject({ status: 'UnmatchedStored', reason: 'below-minimum' });
  });

  it('validation errors carry every issue and write nothing', async () => {
    const error = await crm.findOrCreate(vf, { firstName: 'x'.repeat(80), phones: [{ phoneNumber: '1' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrmError);
    expect((error as CrmError).status).toBe(400);
    expect((error as CrmError).issues.map((i) => i.property)).toEqual(['firstName', 'phones[0].phoneNumber']);
    expect((await crm.listTenants())[0]?.people.voterfile).toBe(0);
  });
});

describe('crmId and identifiers decide', () => {
  it('a crmId that exists wins over every other criterion', async () => {
    const ada = await crm.findOrCreate(vf, { firstName: 'Ada', lastName: 'Lovelace', emails: [{ email: 'ada@example.org' }] });
    const bob = await crm.findOrCreate(vf, { firstName: 'Bob', lastName: 'Smith', emails: [{ email: 'bob@example.org' }] });
    const r = await crm.find(vf, { crmId: String(ada.crmId), firstName: 'Bob', lastName: 'Smith', emails: [{ email: 'bob@example.org' }] });
    expect(r).toMatchObject({ status: 'Matched', crmId: ada.crmId, matchedBy: 'crmId' });
    expect(bob.crmId).not.toBe(ada.crmId);
    expect(await crm.find(vf, { crmId: ada.crmId })).toMatchObject({ status: 'Matched', crmId: ada.crmId });
  });

  it('an unknown crmId is ignored and matching runs on the rest', async () => {
    const bob = await crm.findOrCreate(vf, { firstName: 'Bob', lastName: 'Smith', emails: [{ email: 'bob@example.org' }] });
    expect(await crm.find(vf, { crmId: 999999, firstName: 'Bob', lastName: 'Smith', emails: [{ email: 'bob@example.org' }] })).toMatchObject({
      status: 'Matched',
      crmId: bob.crmId,
      matchedBy: 'score',
    });
    expect(await crm.find(vf, { crmId: 999999 })).toMatchObject({ status: 'Unmatched', reason: 'below-minimum' });
  });

  it('a crmId of another context or tenant is unknown here', async () => {
    const other = await crm.createTenant('other');
    const theirs = await crm.findOrCreate({ tenantId: other.id, context: 'voterfile' }, { firstName: 'Eve', lastName: 'X' });
    const campaignOnes = await crm.findOrCreate(cp, { firstName: 'Eve', lastName: 'X' });
    expect(await crm.find(vf, { crmId: theirs.crmId })).toMatchObject({ status: 'Unmatched' });
    expect(await crm.find(vf, { crmId: campaignOnes.crmId })).toMatchObject({ status: 'Unmatched' });
    const created = await crm.findOrCreate(vf, { crmId: theirs.crmId, firstName: 'Eve', lastName: 'X' });
    expect(created.status).toBe('UnmatchedStored');
    expect(created.crmId).not.toBe(theirs.crmId);
    expect(await crm.getPerson(vf, theirs.crmId ?? 0, ALL)).toBeNull();
  });

  it('external identifiers match case-insensitively, also in GET /people/{type}:{id}', async () => {
    const a = await crm.findOrCreate(cp, { firstName: 'Ada', lastName: 'L', identifiers: [{ type: 'dwid', externalId: 'AbC-123' }] });
    expect(await crm.find(cp, { identifiers: [{ type: 'DWID', externalId: 'abc-123' }] })).toMatchObject({
      status: 'Matched',
      crmId: a.crmId,
      matchedBy: 'identifier',
    });
    expect(await crm.findOrCreate(cp, { firstName: 'Ada', lastName: 'L', identifiers: [{ type: 'Dwid', externalId: 'ABC-123' }] })).toMatchObject({
      status: 'Matched',
      crmId: a.crmId,
    });
    expect((await crm.getPersonByExternalId(cp, 'DWID', 'aBc-123', ALL))?.crmId).toBe(a.crmId);
    expect(await crm.getPersonByExternalId(cp, 'dwid', 'abc-124', ALL)).toBeNull();
    expect(await crm.getPersonByExternalId(cp, 'ssn', 'abc-123', ALL)).toBeNull();
    expect(await crm.getPersonByExternalId(vf, 'dwid', 'abc-123', ALL)).toBeNull();
    expect(arr(await get(cp, a.crmId), 'identifiers')).toEqual([{ type: 'dwid', externalId: 'AbC-123' }]);
  });

  it('votercrmid identifiers in the campaign context', async () => {
    const voter = await crm.findOrCreate(vf, { firstName: 'Ada', lastName: 'L' });
    const c = await crm.findOrCreate(cp, { firstName: 'Ada', lastName: 'L', identifiers: [{ type: 'votercrmid', externalId: String(voter.crmId) }] });
    expect((await crm.getPersonByExternalId(cp, 'VoterCrmId', String(voter.crmId), ALL))?.crmId).toBe(c.crmId);
  });

  it('a votercrmid must name a voter-file record of the same tenant (400 naming identifiers[i].externalId)', async () => {
    const voter = await crm.findOrCreate(vf, { firstName: 'Ada', lastName: 'L' });
    const other = await crm.createTenant('other');
    const foreign = await crm.findOrCreate({ tenantId: other.id, context: 'voterfile' }, { firstName: 'Eve', lastName: 'X' });
    const campaignOnly = await crm.findOrCreate(cp, { firstName: 'Cam', lastName: 'Paign' });
    const refused = async (call: Promise<unknown>): Promise<string[]> => {
      try {
        await call;
      } catch (error) {
        if (error instanceof CrmError) {
          expect(error.status).toBe(400);
          return error.issues.map((i) => i.property);
        }
        throw error;
      }
      throw new Error('expected a 400');
    };
    const body = (...ids: string[]) => ({
      firstName: 'Ada',
      lastName: 'L',
      identifiers: [{ type: 'dwid', externalId: 'd1' }, ...ids.map((externalId) => ({ type: 'VOTERCRMID', externalId }))],
    });
    // Unknown, another tenant's voter-file record, and a campaign record are all "no voter here".
    expect(await refused(crm.findOrCreate(cp, body('999999')))).toEqual(['identifiers[1].externalId']);
    expect(await refused(crm.findOrCreate(cp, body(String(foreign.crmId))))).toEqual(['identifiers[1].externalId']);
    expect(await refused(crm.find(cp, body(String(campaignOnly.crmId))))).toEqual(['identifiers[1].externalId']);
    expect(await refused(crm.find(cp, body(String(voter.crmId), '0', String(foreign.crmId))))).toEqual([
      'identifiers[2].externalId',
      'identifiers[3].externalId',
    ]);
    // The same text for a foreign record as for a missing one: nothing leaks.
    const texts = await Promise.all(
      [String(foreign.crmId), '999999'].map(async (id) => {
        try {
          await crm.find(cp, body(id));
        } catch (error) {
          return (error as CrmError).issues[0]?.text.replace(id, 'N');
        }
        return null;
      }),
    );
    expect(texts[0]).toBe(texts[1]);
    // The body is validated first; its voters are looked up once it is valid (the validated candidate).
    expect(await refused(crm.findOrCreate(cp, { sex: 'male', identifiers: [{ type: 'votercrmid', externalId: '999999' }] }))).toEqual(['sex']);
    expect(await refused(crm.findOrCreate(cp, { sex: 'M', identifiers: [{ type: 'votercrmid', externalId: '999999' }] }))).toEqual([
      'identifiers[0].externalId',
    ]);
    // Nothing was created by the refused calls.
    expect(await crm.getPersonByExternalId(cp, 'dwid', 'd1', ALL)).toBeNull();
    // In the voter-file context votercrmid is not a type at all.
    expect(await refused(crm.findOrCreate(vf, body(String(voter.crmId))))).toEqual(['identifiers[1].type']);
  });

  it('an existing votercrmid is stored (canonical), matches case-insensitively, and GET votercrmid:N finds the campaign person', async () => {
    const voter = await crm.findOrCreate(vf, { firstName: 'Ada', lastName: 'L' });
    const n = String(voter.crmId);
    const c = await crm.findOrCreate(cp, { firstName: 'Ada', lastName: 'Lovelace', identifiers: [{ type: 'VoterCrmId', externalId: `00${n}` }] });
    expect(c.status).toBe('UnmatchedStored');
    expect(arr(await get(cp, c.crmId), 'identifiers')).toEqual([{ type: 'votercrmid', externalId: n }]);
    expect(await crm.find(cp, { identifiers: [{ type: 'VOTERCRMID', externalId: n }] })).toMatchObject({
      status: 'Matched',
      crmId: c.crmId,
      matchedBy: 'identifier',
    });
    expect(await crm.findOrCreate(cp, { firstName: 'Ada', lastName: 'Lovelace', identifiers: [{ type: 'votercrmid', externalId: ` ${n} ` }] })).toMatchObject({
      status: 'Matched',
      crmId: c.crmId,
    });
    for (const [type, id] of [
      ['votercrmid', n],
      ['VOTERCRMID', n],
      ['VoterCrmId', `0${n}`],
    ] as const) {
      expect((await crm.getPersonByExternalId(cp, type, id, ALL))?.crmId, `${type}:${id}`).toBe(c.crmId);
    }
    // Not in the voter-file context, and not the voter record itself.
    expect(await crm.getPersonByExternalId(vf, 'votercrmid', n, ALL)).toBeNull();
    expect(await crm.getPersonByExternalId(cp, 'votercrmid', 'abc', ALL)).toBeNull();
  });
});

describe('findOrCreate updates a match', () => {
  const base = { firstName: 'Ada', lastName: 'Lovelace', party: 'D', emails: [{ email: 'ada@example.org' }] };

  it('supplied scalars replace, absent ones are kept', async () => {
    const a = await crm.findOrCreate(vf, { ...base, title: 'Dr', sex: 'F' });
    const r = await crm.findOrCreate(vf, { ...base, party: 'r', middleName: 'King' });
    expect(r).toMatchObject({ status: 'Matched', crmId: a.crmId, updated: true });
    expect(await get(vf, a.crmId)).toMatchObject({ party: 'R', middleName: 'King', title: 'Dr', sex: 'F', sourceFileMiddleName: null });
  });

  it('new emails, phones, addresses and identifiers are appended; known values are not added twice', async () => {
    const a = await crm.findOrCreate(vf, {
      ...base,
      phones: [{ phoneNumber: '2024291000' }],
      addresses: [{ addressLine1: '1600 Pennsylvania Avenue NW', zipOrPostalCode: '20500' }],
      identifiers: [{ type: 'dwid', externalId: 'x1' }],
    });
    await crm.findOrCreate(vf, {
      ...base,
      emails: [{ email: 'ADA@example.org' }, { email: 'ada@work.example' }],
      phones: [{ phoneNumber: '+1 (202) 429-1000' }, { phoneNumber: '4142020792' }],
      addresses: [
        { addressLine1: '1600 Pennsylvania Ave NW', zipOrPostalCode: '20500-0001' },
        { addressLine1: '1 Main St', zipOrPostalCode: '60622' },
      ],
      identifiers: [
        { type: 'DWID', externalId: 'X1' },
        { type: 'statefileid', externalId: 'K9' },
      ],
    });
    const p = await get(vf, a.crmId);
    expect(arr(p, 'emails').map((e) => e['email'])).toEqual(['ada@example.org', 'ada@work.example']);
    expect(arr(p, 'phones').map((e) => e['phoneNumber'])).toEqual(['2024291000', '4142020792']);
    expect(arr(p, 'recordedAddresses').map((e) => e['addressLine1'])).toEqual(['1600 Pennsylvania Avenue NW', '1 Main St']);
    expect(arr(p, 'recordedAddresses')[0]?.['zipOrPostalCode']).toBe('20500-0001');
    expect(arr(p, 'identifiers')).toEqual([
      { type: 'dwid', externalId: 'x1' },
      { type: 'StateFileID', externalId: 'K9' },
    ]);
  });

  it('a match that adds nothing does not write', async () => {
    const a = await crm.findOrCreate(vf, base);
    const before = await get(vf, a.crmId);
    expect(await crm.findOrCreate(vf, { ...base, emails: [{ email: 'Ada@Example.org' }] })).toMatchObject({ status: 'Matched', updated: false });
    expect((await get(vf, a.crmId))['dateModified']).toBe(before['dateModified']);
  });

  it('custom field values replace per field; null removes; self-reported lists replace', async () => {
    const a = await crm.findOrCreate(cp, {
      ...base,
      customFieldValues: [
        { customFieldId: 11, customFieldGroupId: 1, assignedValue: 's' },
        { customFieldId: 21, customFieldGroupId: 2, assignedValue: 'web' },
      ],
      selfReportedRaces: [{ reportedRaceId: 1 }],
      selfReportedLanguagePreference: { reportedLanguagePreferenceId: 2 },
    });
    await crm.findOrCreate(cp, {
      ...base,
      customFieldValues: [
        { customFieldId: 11, customFieldGroupId: 1, assignedValue: 'L' },
        { customFieldId: 21, customFieldGroupId: 2, assignedValue: null },
      ],
      selfReportedRaces: [{ reportedRaceId: 2 }],
    });
    const p = await get(cp, a.crmId);
    expect(p['customFields']).toEqual([{ customFieldId: 11, customFieldGroupId: 1, assignedValue: 'L' }]);
    expect(p['selfReportedRaces']).toEqual([{ reportedRaceId: 2, reportedRaceName: 'Black' }]);
    expect(p['selfReportedLanguagePreference']).toEqual({ reportedLanguagePreferenceId: 2, reportedLanguagePreferenceName: 'Spanish' });
  });
});

describe('email subscription (interface.md section 3)', () => {
  const person = { firstName: 'Ada', lastName: 'Lovelace' };
  const status = async (ctx: CallContext, id: number | null): Promise<unknown[]> =>
    arr(await get(ctx, id), 'emails').map((e) => [e['subscriptionStatus'], e['isSubscribed']]);

  it('defaults to S', async () => {
    const a = await crm.findOrCreate(vf, { ...person, emails: [{ email: 'a@x.org' }] });
    expect(await status(vf, a.crmId)).toEqual([['S', true]]);
  });

  it('isSubscribed:false is a permanent opt-out (later true does not resubscribe)', async () => {
    const a = await crm.findOrCreate(vf, { ...person, emails: [{ email: 'a@x.org', isSubscribed: false }] });
    expect(await status(vf, a.crmId)).toEqual([['U', false]]);
    await crm.findOrCreate(vf, { ...person, emails: [{ email: 'A@X.org', isSubscribed: true }] });
    expect(await status(vf, a.crmId)).toEqual([['U', false]]);
  });

  it('an opt-out on an existing address sticks', async () => {
    const a = await crm.findOrCreate(vf, { ...person, emails: [{ email: 'a@x.org', isSubscribed: true }] });
    await crm.findOrCreate(vf, { ...person, emails: [{ email: 'a@x.org', isSubscribed: false }] });
    await crm.findOrCreate(vf, { ...person, emails: [{ email: 'a@x.org' }] });
    expect(await status(vf, a.crmId)).toEqual([['U', false]]);
  });

  it('U is terminal with targeted email: a later S or N leaves U', async () => {
    const a = await crm.findOrCreate(cp, { ...person, emails: [{ email: 'a@x.org', subscriptionStatus: 'U' }] });
    await crm.findOrCreate(cp, { ...person, emails: [{ email: 'a@x.org', subscriptionStatus: 'S' }] });
    expect(await status(cp, a.crmId)).toEqual([['U', false]]);
    await crm.findOrCreate(cp, { ...person, emails: [{ email: 'a@x.org', subscriptionStatus: 'N' }] });
    expect(await status(cp, a.crmId)).toEqual([['U', false]]);
  });

  it('N and S move freely; an opt-out via isSubscribed also ends targeted email', async () => {
    const a = await crm.findOrCreate(cp, { ...person, emails: [{ email: 'a@x.org', subscriptionStatus: 'N' }] });
    expect(await status(cp, a.crmId)).toEqual([['N', false]]);
    await crm.findOrCreate(cp, { ...person, emails: [{ email: 'a@x.org', subscriptionStatus: 'S' }] });
    expect(await status(cp, a.crmId)).toEqual([['S', true]]);
    await crm.findOrCreate(cp, { ...person, emails: [{ email: 'a@x.org', isSubscribed: false }] });
    await crm.findOrCreate(cp, { ...person, emails: [{ email: 'a@x.org', subscriptionStatus: 'S' }] });
    expect(await status(cp, a.crmId)).toEqual([['U', false]]);
  });

  it('one preferred email: a new preferred one takes it', async () => {
    const a = await crm.findOrCreate(vf, { ...person, emails: [{ email: 'a@x.org', isPreferred: true }, { email: 'b@x.org' }] });
    await crm.findOrCreate(vf, { ...person, emails: [{ email: 'a@x.org' }, { email: 'c@x.org', isPreferred: true }] });
    expect(arr(await get(vf, a.crmId), 'emails').map((e) => e['isPreferred'])).toEqual([false, false, true]);
  });
});

describe('phones', () => {
  const person = { firstName: 'Bob', lastName: 'Smith' };

  it('assigns phoneIds, defaults opt-in U, stores deviceType and codes', async () => {
    const a = await crm.findOrCreate(vf, {
      ...person,
      phones: [{ phoneNumber: '4142020792', phoneType: 'c', deviceType: 'C', ext: 12 }, { phoneNumber: '2024291000' }],
    });
    const phones = arr(await get(vf, a.crmId), 'phones');
    expect(phones[0]).toMatchObject({
      phoneNumber: '4142020792',
      phoneType: 'C',
      deviceType: 'C',
      ext: '12',
      phoneOptInStatus: 'U',
      isCellStatus: null,
      isPreferred: false,
      dialingPrefix: '1',
      countryCode: 'US',
    });
    expect(new Set(phones.map((p) => p['phoneId'])).size).toBe(2);
  });

  it('isCellStatus is kept when omitted and replaced when given; other fields update', async () => {
    const a = await crm.findOrCreate(vf, { ...person, phones: [{ phoneNumber: '4142020792', isCellStatus: { statusName: 'Verified Cell' } }] });
    const phoneId = arr(await get(vf, a.crmId), 'phones')[0]?.['phoneId'];
    await crm.findOrCreate(vf, { ...person, phones: [{ phoneNumber: '414-202-0792', phoneOptInStatus: 'O' }] });
    let phones = arr(await get(vf, a.crmId), 'phones');
    expect(phones).toHaveLength(1);
    expect(phones[0]).toMatchObject({ phoneId, phoneOptInStatus: 'O', isCellStatus: { statusId: 1, statusName: 'Verified Cell' } });
    await crm.findOrCreate(vf, { ...person, phones: [{ phoneNumber: 4142020792, isCellStatus: { statusId: 4 } }] });
    phones = arr(await get(vf, a.crmId), 'phones');
    expect(phones[0]).toMatchObject({ phoneId, phoneOptInStatus: 'O', isCellStatus: { statusId: 4, statusName: 'Not a Cell' } });
  });

  it('one preferred phone', async () => {
    const a = await crm.findOrCreate(vf, { ...person, phones: [{ phoneNumber: '4142020792', isPreferred: true }] });
    await crm.findOrCreate(vf, { ...person, phones: [{ phoneNumber: '4142020792' }, { phoneNumber: '2024291000', isPreferred: true }] });
    expect(arr(await get(vf, a.crmId), 'phones').map((p) => p['isPreferred'])).toEqual([false, true]);
  });
});

describe('addresses: preferred, best, GET addresses', () => {
  const person = { firstName: 'Ada', lastName: 'Lovelace', emails: [{ email: 'ada@example.org' }] };
  const home = { addressLine1: '900 N Washtenaw Ave', city: 'Chicago', stateOrProvince: 'IL', zipOrPostalCode: '60622', type: 'Home' };

  it('the first address is preferred; lines concatenate in GET; Home doubles as Mailing', async () => {
    const a = await crm.findOrCreate(vf, { ...person, addresses: [{ ...home, addressLine2: ' Apt  2 ' }] });
    const p = await get(vf, a.crmId);
    const current = arr(p, 'addresses');
    expect(current.map((x) => [x['type'], x['isPreferred'], x['isBest'], x['addressLine1']])).toEqual([
      ['Home', true, true, '900 N Washtenaw Ave Apt 2'],
      ['Mailing', true, true, '900 N Washtenaw Ave Apt 2'],
    ]);
    expect(current[0]?.['addressLine2']).toBeNull();
    expect(current[0]?.['addressId']).toEqual(expect.any(Number));
    expect(arr(p, 'recordedAddresses')).toHaveLength(1);
  });

  it('isBest is the most recently updated of its type; Home and Voting are one type; isPreferred stays', async () => {
    const a = await crm.findOrCreate(vf, { ...person, addresses: [home] });
    await crm.findOrCreate(vf, { ...person, addresses: [{ addressLine1: '1 Main St', zipOrPostalCode: '20009', type: 'Voting' }] });
    await crm.findOrCreate(vf, {
      ...person,
      addresses: [{ addressLine1: 'PO Box 5', city: 'Chicago', stateOrProvince: 'IL', zipOrPostalCode: '60601', type: 'Mailing' }],
    });
    let p = await get(vf, a.crmId);
    expect(arr(p, 'recordedAddresses').map((x) => [x['type'], x['isPreferred'], x['isBest']])).toEqual([
      ['Home', true, false],
      ['Voting', false, true],
      ['Mailing', false, true],
    ]);
    expect(arr(p, 'addresses').map((x) => [x['type'], x['addressLine1']])).toEqual([
      ['Voting', '1 Main St'],
      ['Mailing', 'PO Box 5'],
    ]);
    // Re-supplying the first home address makes it the best again.
    await crm.findOrCreate(vf, { ...person, addresses: [{ ...home, addressLine1: '900 North Washtenaw Avenue' }] });
    p = await get(vf, a.crmId);
    expect(arr(p, 'recordedAddresses').map((x) => x['isBest'])).toEqual([true, false, true]);
    expect(arr(p, 'recordedAddresses')).toHaveLength(3);
    expect(arr(p, 'addresses').map((x) => x['addressLine1'])).toEqual(['900 N Washtenaw Ave', 'PO Box 5']);
  });

  it('a Mailing address alone is shown once', async () => {
    const a = await crm.findOrCreate(vf, { ...person, addresses: [{ ...home, type: 'Mailing' }] });
    expect(arr(await get(vf, a.crmId), 'addresses').map((x) => x['type'])).toEqual(['Mailing']);
  });

  it('the same place as Home and as Mailing is two addresses', async () => {
    const a = await crm.findOrCreate(vf, { ...person, addresses: [home, { ...home, type: 'Mailing' }] });
    expect(arr(await get(vf, a.crmId), 'recordedAddresses').map((x) => x['type'])).toEqual(['Home', 'Mailing']);
  });
});

describe('GET Person', () => {
  it('collections not expanded are null, expanded but empty are []', async () => {
    const a = await crm.findOrCreate(vf, { firstName: 'Ada', lastName: 'Lovelace' });
    const none = await get(vf, a.crmId, new Set());
    for (const key of [
      'emails',
      'phones',
      'addresses',
      'recordedAddresses',
      'identifiers',
      'codes',
      'customFields',
      'suppressions',
      'notes',
      'districts',
      'selfReportedRaces',
    ]) {
      expect(none[key]).toBeNull();
    }
    const all = await get(vf, a.crmId, ALL);
    for (const key of [
      'emails',
      'phones',
      'addresses',
      'recordedAddresses',
      'identifiers',
      'codes',
      'customFields',
      'suppressions',
      'notes',
      'districts',
      'selfReportedRaces',
      'caseworkCases',
      'scores',
    ]) {
      expect(all[key]).toEqual([]);
    }
  });

  it('accepts every $expand value in any case and refuses unknown ones naming $expand', async () => {
    const a = await crm.findOrCreate(vf, { firstName: 'Ada', lastName: 'Lovelace', emails: [{ email: 'a@x.org' }] });
    expect((await get(vf, a.crmId, new Set(['EMAILS'])))['emails']).toHaveLength(1);
    await expect(crm.getPerson(vf, a.crmId ?? 0, new Set(['emails', 'friends']))).rejects.toMatchObject({
      code: 'INVALID_PARAMETER',
      issues: [{ property: '$expand' }],
    });
  });

  it('derives salutations and envelope names', async () => {
    const a = await crm.findOrCreate(vf, {
      firstName: 'James',
      middleName: 'worthington',
      lastName: 'Gordon',
      title: 'Mr.',
      suffix: 'Jr.',
      dateOfBirth: '1975-09-18',
    });
    expect(await get(vf, a.crmId)).toMatchObject({
      salutation: 'James',
      formalSalutation: 'Mr. Gordon',
      envelopeName: 'James W. Gordon',
      formalEnvelopeName: 'Mr. James W. Gordon Jr.',
      additionalSalutation: null,
      dateOfBirth: '1975-09-18T00:00:00Z',
    });
    const b = await crm.findOrCreate(vf, { firstName: 'Bob', lastName: 'Smith', salutation: 'Bobby', envelopeName: 'The Smiths' });
    expect(await get(vf, b.crmId)).toMatchObject({
      salutation: 'Bobby',
      formalSalutation: 'Bob Smith',
      envelopeName: 'The Smiths',
      formalEnvelopeName: 'Bob Smith',
    });
  });

  it('organizations: defaults from the organization names, and a person never matches one by score', async () => {
    const org = await crm.findOrCreate(
      cp,
      {
        contactMode: 'Organization',
        organizationContactCommonName: 'Acme',
        organizationContactOfficialName: 'Acme Widgets LLC',
        emails: [{ email: 'info@acme.example' }],
      },
      { contacts: true },
    );
    expect(await get(cp, org.crmId)).toMatchObject({
      contactMode: 'Organization',
      salutation: 'Acme',
      formalSalutation: 'Friends',
      additionalSalutation: 'Acme',
      envelopeName: 'Acme',
      formalEnvelopeName: 'Acme Widgets LLC',
    });
    // A person giving an organization's info@ is not the organization (and info@ is a shared
    // mailbox, no person's own: it meets no minimum combination for a person).
    const person = await crm.find(cp, { emails: [{ email: 'info@acme.example' }] });
    expect(person).toMatchObject({ status: 'Unmatched', crmId: null });
    const personal = await crm.findOrCreate(
      cp,
      { contactMode: 'Organization', organizationContactCommonName: 'Bolt', emails: [{ email: 'ann@bolt.example' }] },
      { contacts: true },
    );
    expect(await crm.find(cp, { emails: [{ email: 'ann@bolt.example' }] })).toMatchObject({ status: 'Unmatched', reason: 'criterion-disagrees' });
    expect(personal.crmId).not.toBe(org.crmId);
    expect(await crm.find(cp, { contactMode: 'organization', emails: [{ email: 'info@acme.example' }] })).toMatchObject({
      status: 'Matched',
      crmId: org.crmId,
    });
  });

  it('null for an unknown, foreign or malformed crmId', async () => {
    expect(await crm.getPerson(vf, 12345, ALL)).toBeNull();
    expect(await crm.getPerson(vf, -1, ALL)).toBeNull();
    expect(await crm.getPerson(vf, 1.5, ALL)).toBeNull();
  });
});

describe('matching rules of the context', () => {
  it('Disable Partial Matching requires full names where nicknames matched before', async () => {
    await crm.configureTenant('acme', { voterfile: { disablePartialMatching: true }, campaign: {} });
    const body = { firstName: 'Robert', lastName: 'Smith', emails: [{ email: 'rs@example.org' }], dateOfBirth: '1970-01-01' };
    const nick = { firstName: 'Bob', lastName: 'Smith', emails: [{ email: 'rs@example.org' }], dateOfBirth: '1970-01-01' };
    const c = await crm.findOrCreate(cp, body);
    const v = await crm.findOrCreate(vf, body);
    expect(await crm.find(cp, nick)).toMatchObject({ status: 'Matched', crmId: c.crmId });
    expect(await crm.find(vf, nick)).toMatchObject({ status: 'Unmatched' });
    expect(await crm.find(vf, body)).toMatchObject({ status: 'Matched', crmId: v.crmId });
  });

  it('names in Chinese characters that read alike (王伟 / 王薇) are two people, also under Disable Partial Matching', async () => {
    await crm.configureTenant('acme', { voterfile: { disablePartialMatching: true }, campaign: {} });
    const wei = { firstName: '伟', lastName: '王', dateOfBirth: '1990-03-08', phones: [{ phoneNumber: '(415) 555-0142' }] };
    const sister = { ...wei, firstName: '薇' };
    for (const ctx of [cp, vf]) {
      const stored = await crm.findOrCreate(ctx, wei);
      expect(await crm.find(ctx, wei)).toMatchObject({ status: 'Matched', crmId: stored.crmId });
      const other = await crm.findOrCreate(ctx, sister);
      expect(other.status).not.toBe('Matched');
      expect(other.crmId).not.toBe(stored.crmId);
    }
    // A romanized request still finds the name written in characters where partial matching is allowed.
    expect(await crm.find(cp, { ...wei, firstName: 'Wei', lastName: 'Wang' })).toMatchObject({ status: 'Matched' });
  });

  it('the sister written with her columns swapped (王 / 薇 against 伟 / 王) is no swap of one name; さくら finds サクラ', async () => {
    const wei = { firstName: '伟', lastName: '王', dateOfBirth: '1990-03-08', phones: [{ phoneNumber: '(415) 555-0142' }] };
    const stored = await crm.findOrCreate(cp, wei);
    expect(await crm.find(cp, { ...wei, firstName: '王', lastName: '伟' })).toMatchObject({ status: 'Matched', crmId: stored.crmId });
    expect(await crm.find(cp, { ...wei, firstName: '王', lastName: '薇' })).not.toMatchObject({ status: 'Matched' });
    const sakura = await crm.findOrCreate(cp, { firstName: 'さくら', lastName: '佐藤', emails: [{ email: 'sakura@example.jp' }] });
    expect(await crm.find(cp, { firstName: 'サクラ', lastName: '佐藤', emails: [{ email: 'sakura@example.jp' }] })).toMatchObject({
      status: 'Matched',
      crmId: sakura.crmId,
    });
  });

  it('a right email with a clearly different first name is not a match', async () => {
    await crm.findOrCreate(vf, { firstName: 'Barack', lastName: 'Obama', emails: [{ email: 'family@example.org' }] });
    expect(await crm.find(vf, { firstName: 'Michelle', lastName: 'Obama', emails: [{ email: 'family@example.org' }] })).toMatchObject({
      status: 'Unmatched',
      reason: 'criterion-disagrees',
    });
  });

  it('matching ignores case and accents', async () => {
    const a = await crm.findOrCreate(vf, { firstName: 'José', lastName: 'Pérez', phones: [{ phoneNumber: '2024291000' }] });
    expect(await crm.find(vf, { firstName: 'JOSE', lastName: 'perez', phones: [{ phoneNumber: '202.429.1000' }] })).toMatchObject({
      status: 'Matched',
      crmId: a.crmId,
    });
  });

  it('a changed default country rebuilds the index without losing records', async () => {
    const body = { firstName: 'Ada', lastName: 'Lovelace', phones: [{ phoneNumber: '020 7946 0000', countryCode: 'GB' }] };
    const a = await crm.findOrCreate(vf, body);
    await crm.configureTenant('acme', { voterfile: { defaultCountry: 'GB' } });
    expect(await crm.find(vf, { firstName: 'Ada', lastName: 'Lovelace', phones: [{ phoneNumber: '020 7946 0000' }] })).toMatchObject({
      status: 'Matched',
      crmId: a.crmId,
    });
  });
});

describe('concurrency', () => {
  it('concurrent findOrCreate of the same new person creates one record', async () => {
    const body = { firstName: 'Grace', lastName: 'Hopper', emails: [{ email: 'grace@navy.example' }], phones: [{ phoneNumber: '2024291000' }] };
    const outcomes = await Promise.all(Array.from({ length: 25 }, () => crm.findOrCreate(vf, body)));
    const ids = new Set(outcomes.map((o) => o.crmId));
    expect(ids.size).toBe(1);
    expect(outcomes.filter((o) => o.status === 'UnmatchedStored')).toHaveLength(1);
    expect((await crm.listTenants())[0]?.people.voterfile).toBe(1);
  });

  it('different contexts do not wait for each other and stay separate', async () => {
    const body = { firstName: 'Grace', lastName: 'Hopper', emails: [{ email: 'grace@navy.example' }] };
    const [a, b] = await Promise.all([crm.findOrCreate(vf, body), crm.findOrCreate(cp, body)]);
    expect(a.status).toBe('UnmatchedStored');
    expect(b.status).toBe('UnmatchedStored');
    expect(a.crmId).not.toBe(b.crmId);
  });
});

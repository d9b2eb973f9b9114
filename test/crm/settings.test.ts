import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CrmError } from '../../src/crm/errors.js';
import { DEFAULT_CONTEXT_SETTINGS, identifierTypesOf, parseStoredContextSettings, parseTenantSettings } from '../../src/crm/settings.js';

function problems(input: unknown): string[] {
  try {
    parseTenantSettings(input);
    return [];
  } catch (error) {
    if (!(error instanceof CrmError)) throw error;
    expect(error.code).toBe('INVALID_PARAMETER');
    return error.issues.map((i) => i.property);
  }
}

describe('tenant settings file', () => {
  it('the example file is valid and round-trips through storage', () => {
    const example = JSON.parse(readFileSync(new URL('../../data/examples/tenant-settings.example.json', import.meta.url), 'utf8')) as unknown;
    const parsed = parseTenantSettings(example);
    expect(parsed.campaign?.customFieldGroups).toHaveLength(2);
    expect(parsed.voterfile?.disablePartialMatching).toBe(true);
    expect(parseStoredContextSettings('campaign', JSON.stringify(parsed.campaign))).toEqual(parsed.campaign);
  });

  it('applies defaults to every key left out, and only sets contexts present', () => {
    expect(parseTenantSettings({ campaign: {} })).toEqual({ campaign: DEFAULT_CONTEXT_SETTINGS });
    expect(parseTenantSettings({})).toEqual({});
  });

  it('normalizes codes: country upper case, address types canonical, identifier types deduplicated', () => {
    const s = parseTenantSettings({ campaign: { defaultCountry: 'ca', addressTypes: ['home', 'MAILING'], identifierTypes: ['bsdid', 'BSDID'] } }).campaign;
    expect(s).toMatchObject({ defaultCountry: 'CA', addressTypes: ['Home', 'Mailing'], identifierTypes: ['bsdid'] });
  });

  it('dwid is built in everywhere, votercrmid in campaign only', () => {
    expect(identifierTypesOf('voterfile', DEFAULT_CONTEXT_SETTINGS)).toEqual(['dwid']);
    expect(identifierTypesOf('campaign', DEFAULT_CONTEXT_SETTINGS)).toEqual(['dwid', 'votercrmid']);
  });

  const BAD: { input: unknown; paths: string[] }[] = [
    { input: [], paths: [''] },
    { input: { voterfile: 3 }, paths: ['voterfile'] },
    { input: { sandbox: {} }, paths: ['sandbox'] },
    { input: { campaign: { defaultCountry: 'USA' } }, paths: ['campaign.defaultCountry'] },
    { input: { campaign: { defaultCountry: 'XX' } }, paths: ['campaign.defaultCountry'] },
    { input: { campaign: { targetedEmail: 'yes' } }, paths: ['campaign.targetedEmail'] },
    { input: { campaign: { typo: true } }, paths: ['campaign.typo'] },
    { input: { voterfile: { organizationsAsContacts: true } }, paths: ['voterfile.organizationsAsContacts'] },
    { input: { voterfile: { identifierTypes: ['votercrmid'] } }, paths: ['voterfile.identifierTypes[0]'] },
    { input: { campaign: { identifierTypes: ['has space'] } }, paths: ['campaign.identifierTypes[0]'] },
    { input: { campaign: { addressTypes: ['Boat'] } }, paths: ['campaign.addressTypes[0]'] },
    { input: { campaign: { countryCodes: ['US', 'ZZ'] } }, paths: ['campaign.countryCodes[1]'] },
    { input: { campaign: { customFieldGroups: [{ name: 'g', customFields: [] }] } }, paths: ['campaign.customFieldGroups[0].id'] },
    {
      input: { campaign: { customFieldGroups: [{ id: 1, customFields: [{ id: 1, name: 'a', type: 'color' }] }] } },
      paths: ['campaign.customFieldGroups[0].customFields[0].type'],
    },
    {
      input: { campaign: { customFieldGroups: [{ id: 1, customFields: [{ id: 1, name: 'a', type: 'choice' }] }] } },
      paths: ['campaign.customFieldGroups[0].customFields[0].values'],
    },
    {
      input: {
        campaign: {
          customFieldGroups: [
            { id: 1, customFields: [{ id: 5 }] },
            { id: 2, customFields: [{ id: 5 }] },
          ],
        },
      },
      paths: ['campaign.customFieldGroups[1].customFields[0].id'],
    },
    { input: { campaign: { customFieldGroups: [{ id: 1 }, { id: 1 }] } }, paths: ['campaign.customFieldGroups[1].id'] },
    {
      input: {
        campaign: {
          selfReported: {
            races: [
              { id: 1, name: 'a' },
              { id: 1, name: 'b' },
            ],
          },
        },
      },
      paths: ['campaign.selfReported.races[1].id'],
    },
    { input: { campaign: { selfReported: { races: [{ name: 'a' }] } } }, paths: ['campaign.selfReported.races[0].id'] },
    { input: { campaign: { selfReported: { colors: [] } } }, paths: ['campaign.selfReported.colors'] },
  ];
  for (const { input, paths } of BAD) {
    it(`refuses ${JSON.stringify(input)} naming ${paths.join(', ')}`, () => {
      expect(problems(input)).toEqual(paths);
    });
  }

  it('reports every problem of a file at once', () => {
    expect(problems({ voterfile: { defaultCountry: 'Q', organizationsAsContacts: true }, campaign: { targetedEmail: 1, addressTypes: ['x'] } })).toHaveLength(
      4,
    );
  });
});

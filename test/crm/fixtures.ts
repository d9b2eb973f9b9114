/** Shared settings and helpers of the CRM tests. */
import { readFileSync, readdirSync } from 'node:fs';
import type { Crm } from '../../src/crm/index.js';
import { parseTenantSettings, type ContextSettings } from '../../src/crm/settings.js';
import { SqliteStore } from '../../src/store/index.js';

/** A fully featured tenant: targeted email, organizations, custom fields, value lists. */
export const RICH_SETTINGS_FILE = {
  voterfile: {
    defaultCountry: 'US',
    identifierTypes: ['StateFileID'],
    addressTypes: ['Home', 'Voting', 'Mailing'],
    professionalFields: false,
  },
  campaign: {
    defaultCountry: 'US',
    organizationsAsContacts: true,
    targetedEmail: true,
    identifierTypes: ['StateFileID', 'bsdid'],
    countryCodes: ['US', 'CA', 'GB'],
    customFieldGroups: [
      {
        id: 1,
        name: 'Volunteer',
        customFields: [
          { id: 11, name: 'Shirt size', type: 'choice', values: ['S', 'M', 'L'] },
          { id: 12, name: 'Notes', type: 'text', maxLength: 10 },
          { id: 13, name: 'Hours', type: 'number' },
          { id: 14, name: 'Trained on', type: 'date' },
          { id: 15, name: 'Has car', type: 'boolean' },
        ],
      },
      { id: 2, name: 'Donor', customFields: [{ id: 21, name: 'Source', type: 'text' }] },
    ],
    selfReported: {
      races: [
        { id: 1, name: 'Asian' },
        { id: 2, name: 'Black' },
      ],
      ethnicities: [{ id: 1, name: 'Hispanic' }],
      genders: [{ id: 1, name: 'Woman' }],
      sexualOrientations: [{ id: 1, name: 'Bisexual' }],
      languagePreferences: [
        { id: 1, name: 'English' },
        { id: 2, name: 'Spanish' },
      ],
    },
  },
};

const parsed = parseTenantSettings(RICH_SETTINGS_FILE);
export const RICH_CAMPAIGN: ContextSettings = parsed.campaign as ContextSettings;
export const RICH_VOTERFILE: ContextSettings = parsed.voterfile as ContextSettings;

/** A captured client body from data/van-clients. */
export function vanBody(file: string): unknown {
  return JSON.parse(readFileSync(new URL(`../../data/van-clients/${file}`, import.meta.url), 'utf8')) as unknown;
}

/** data/van-clients files starting with a prefix. */
export function vanFiles(prefix: string): string[] {
  return readdirSync(new URL('../../data/van-clients/', import.meta.url))
    .filter((f) => f.startsWith(prefix) && f.endsWith('.json'))
    .sort();
}

/** The SQLite store of a CRM the test opened on a file (any other store fails the test). */
export function sqliteStoreOf(crm: Crm): SqliteStore {
  const store = crm.store;
  if (!(store instanceof SqliteStore)) throw new Error('this test needs the SQLite store');
  return store;
}

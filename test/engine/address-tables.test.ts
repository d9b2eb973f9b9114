import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ADDRESS_TABLES_PATH, readAddressSources, renderAddressTablesModule } from '../../data/build-address-tables.js';
import { DIRECTIONALS, UNIT_DESIGNATORS, USPS_STREET_SUFFIXES } from '../../src/engine/address-tables.js';

describe('USPS address tables', () => {
  it('the generated module matches data/usps (run `npm run gen:tables` after editing it)', () => {
    expect(readFileSync(ADDRESS_TABLES_PATH, 'utf8')).toBe(renderAddressTablesModule(readAddressSources()));
  });

  it('maps written forms and the standard itself to the standard', () => {
    expect(USPS_STREET_SUFFIXES.get('avenue')).toBe('ave');
    expect(USPS_STREET_SUFFIXES.get('ave')).toBe('ave');
    expect(USPS_STREET_SUFFIXES.get('fall')).toBe('fall');
    expect(DIRECTIONALS.get('northeast')).toBe('ne');
    expect(UNIT_DESIGNATORS.get('suite')).toMatchObject({ abbreviation: 'ste', needsNumber: true });
    expect(UNIT_DESIGNATORS.get('basement')).toMatchObject({ abbreviation: 'bsmt', needsNumber: false });
  });

  it('refuses a malformed source, naming the file and line', () => {
    const good = readAddressSources();
    const render = (change: Partial<typeof good>): string => renderAddressTablesModule({ ...good, ...change });
    expect(() => render({ suffixes: 'standard;forms\n' })).toThrow(/street-suffixes\.csv: the header/);
    expect(() => render({ directionals: 'standard,forms\nn,north\nn,nth\n' })).toThrow(/directionals\.csv line 3: standard "n" is listed twice/);
    expect(() => render({ suffixes: 'standard,forms\nave,Avenue\n' })).toThrow(/line 2: form "Avenue"/);
    expect(() => render({ unitDesignators: 'standard,needs_number,forms\napt,maybe,apartment\n' })).toThrow(/needs_number of "apt"/);
    expect(() => render({ unitDesignators: 'standard,needs_number,forms\napt,yes\n' })).toThrow(/expected 3 cells/);
  });
});

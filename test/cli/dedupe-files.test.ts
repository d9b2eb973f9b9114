/**
 * `matchbook dedupe` on files whose headers or line endings were misread (reviewer's defects
 * at main: a business name read as the person's, line endings mixed in one file), end to end.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { parseCsv, Scratch } from './dedupe-helpers.js';

const s = new Scratch();
afterAll(() => s.remove());

describe('dedupe: headers', () => {
  it('a business name is not the person: two contacts of one business stay apart', async () => {
    const input = s.file('business.csv', [
      'Business Name,Contact Name,Phone,Address,City,State,Zip',
      'Acme Plumbing,John Smith,555-201-3344,12 Main St,Springfield,IL,62701',
      'Acme Plumbing,Mary Jones,555-201-3344,12 Main St,Springfield,IL,62701',
    ]);
    const run = await s.cli(['dedupe', input, '-o', 'business-out.csv', '--progress', 'none']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Contact Name -> fullName/);
    expect(run.stderr).toMatch(/not used: Business Name/);
    expect(parseCsv(s.read('business-out.csv')).map((r) => r['match_decision'])).toEqual(['Unmatched', 'Unmatched']);
  });
});

/** `matchbook link` on small files, in-process. */
import { afterAll, describe, expect, it } from 'vitest';
import { isOneLineError, parseCsv, Scratch } from './dedupe-helpers.js';

const s = new Scratch();
afterAll(() => s.remove());

const LEFT = [
  'crm_id,first_name,last_name,email,dob,zip',
  'A1,Robert,Smith,bob@example.com,1970-03-04,12345',
  'A2,Mary,Jones,mary@example.org,1980-01-02,54321',
  'A3,Ann,Lee,ann@example.net,1990-05-06,11111',
];

const RIGHT = [
  'ref,Given,Family,Mail',
  'B1,Bob,Smith,bob@example.com',
  'B2,Mary,Jones,mary@example.org',
  'B3,Zed,Zulu,zed@example.com',
  'B4,Robert,Smith,bob@example.com',
  'B5,Ann,,',
];

describe('link', () => {
  it('links each right row to its best left row: left_id,right_id,score', async () => {
    const run = await s.cli([
      'link',
      s.file('left.csv', LEFT),
      s.file('right.csv', RIGHT),
      '-o',
      'links.csv',
      '--left-id',
      'crm_id',
      '--right-id',
      'ref',
      '--progress',
      'none',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const rows = parseCsv(s.read('links.csv'));
    expect(Object.keys(rows[0] ?? {})).toEqual(['left_id', 'right_id', 'score']);
    expect(rows.map((r) => [r['left_id'], r['right_id']])).toEqual([
      ['A1', 'B1'],
      ['A2', 'B2'],
      ['A1', 'B4'],
    ]);
    expect(rows.every((r) => Number(r['score']) > 0)).toBe(true);
    expect(run.stderr).toMatch(
      /right rows 5: linked 3; possible \(for review, not linked\) 0; no match 1; cannot be matched \(none of the \d+ minimum combinations \(from the columns\)\) 1/,
    );
    expect(run.stderr).toMatch(/model: estimated from the file/);
    const crm = await s.cli([
      'link',
      s.file('left-crm.csv', LEFT),
      s.file('right-crm.csv', RIGHT),
      '--rules',
      'crm',
      '--left-id',
      'crm_id',
      '--right-id',
      'ref',
      '--progress',
      'none',
    ]);
    expect(crm.code, crm.stderr).toBe(0);
    expect(parseCsv(crm.stdout).every((r) => Number(r['score']) >= 18)).toBe(true);
    expect(crm.stderr).toMatch(/cannot be matched \(none of the 5 minimum combinations \(--gates contract\)\) 1/);
    expect(run.stderr).toMatch(/columns: ref -> id, Given -> firstName, Family -> lastName, Mail -> email/);
  }, 120_000);

  it('--one-to-one: each left row at most once, best score first', async () => {
    const run = await s.cli([
      'link',
      s.file('left2.csv', LEFT),
      s.file('right2.csv', RIGHT),
      '--one-to-one',
      '--left-id',
      'crm_id',
      '--right-id',
      'ref',
      '--progress',
      'none',
    ]);
    expect(run.code).toBe(0);
    const rows = parseCsv(run.stdout);
    // B4 (Robert, exact) beats B1 (Bob, a nickname) for A1.
    expect(rows.map((r) => [r['left_id'], r['right_id']])).toEqual([
      ['A2', 'B2'],
      ['A1', 'B4'],
    ]);
    expect(run.stderr).toMatch(/matched but their left row went to a better-scoring right row 1/);
  }, 120_000);

  it('--all-rows writes every right row; --explain adds the explanation; row numbers without ids', async () => {
    const run = await s.cli(['link', s.file('left3.csv', LEFT), s.file('right3.csv', RIGHT), '--all-rows', '--explain', '--progress', 'none']);
    expect(run.code).toBe(0);
    const rows = parseCsv(run.stdout);
    expect(rows.map((r) => r['right_id'])).toEqual(['1', '2', '3', '4', '5']);
    expect(rows.map((r) => r['left_id'])).toEqual(['1', '2', '', '1', '']);
    expect(rows[0]?.['explanation']).toMatch(/email \+[\d.]+ \(an email address agrees\)/);
    expect(rows[2]?.['explanation']).toBe('');
  }, 120_000);

  it('--map applies to the file that has the column; --id to both', async () => {
    const left = s.file('l4.csv', ['id,Vorname,Nachname,email', 'x,Anna,Schmidt,anna@example.de']);
    const right = s.file('r4.csv', ['id,first,last,email', 'y,Anna,Schmidt,anna@example.de']);
    const run = await s.cli(['link', left, right, '--id', 'id', '--map', 'Vorname=firstName', '--map', 'Nachname=lastName', '--progress', 'none']);
    expect(run.code, run.stderr).toBe(0);
    expect(parseCsv(run.stdout)).toEqual([{ left_id: 'x', right_id: 'y', score: expect.any(String) }]);
    const neither = await s.cli(['link', left, right, '--map', 'Nope=firstName']);
    expect(isOneLineError(neither)).toBe(true);
    expect(neither.stderr).toMatch(/--map "Nope=firstName": neither file has a column "Nope"/);
  }, 120_000);

  it('bad input in either file: one clear line', async () => {
    const left = s.file('l5.csv', LEFT);
    const missing = await s.cli(['link', left, 'nope.csv']);
    expect(isOneLineError(missing)).toBe(true);
    expect(missing.stderr).toMatch(/nope\.csv: no such file/);
    const noName = await s.cli(['link', left, s.file('r5.csv', ['email', 'a@b.c'])]);
    expect(isOneLineError(noName)).toBe(true);
    expect(noName.stderr).toMatch(/r5\.csv: no column holds a name/);
  }, 120_000);

  it('the same links on 1 and 2 threads', async () => {
    const left = s.file('l6.csv', LEFT);
    const right = s.file('r6.csv', RIGHT);
    const one = await s.cli(['link', left, right, '--threads', '1', '-q']);
    const two = await s.cli(['link', left, right, '--threads', '2', '-q']);
    expect(two.code, two.stderr).toBe(0);
    expect(two.stdout).toBe(one.stdout);
  }, 120_000);
});

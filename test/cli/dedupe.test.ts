/**
 * `matchbook dedupe` on small files, one behaviour or option per test, in-process.
 */
import { existsSync, readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { isOneLineError, parseCsv, parseRows, Scratch } from './dedupe-helpers.js';

const s = new Scratch();
afterAll(() => s.remove());

const PEOPLE = [
  'id,first_name,last_name,email,phone,dob,zip',
  '1,Robert,Smith,bob@example.com,,1970-03-04,12345',
  '2,Bob,Smith,bob@example.com,,,',
  '3,Mary,Jones,mary@example.org,,1980-01-02,54321',
  '4,Robert,Smith,,,1970-03-04,12345',
  '5,Ann,Lee,,,,',
  '6,Zoe,Quinn,zoe@example.net,,,',
];

describe('dedupe', () => {
  it('clusters duplicates and writes every row with its cluster, decision, score and match first', async () => {
    const input = s.file('people.csv', PEOPLE);
    const run = await s.cli(['dedupe', input, '-o', 'out.csv', '--id', 'id', '--progress', 'none']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    const rows = parseCsv(s.read('out.csv'));
    expect(rows.map((r) => r['id'])).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'cluster_id',
      'cluster_size',
      'match_decision',
      'match_score',
      'matched_id',
      'match_note',
      'id',
      'first_name',
      'last_name',
      'email',
      'phone',
      'dob',
      'zip',
    ]);
    const byId = new Map(rows.map((r) => [r['id'], r]));
    for (const id of ['1', '2', '4']) {
      expect(byId.get(id)?.['cluster_id']).toBe('1');
      expect(byId.get(id)?.['cluster_size']).toBe('3');
      expect(byId.get(id)?.['match_decision']).toBe('Matched');
      expect(Number(byId.get(id)?.['match_score'])).toBeGreaterThan(0);
    }
    expect(byId.get('2')?.['matched_id']).toBe('1');
    expect(byId.get('3')).toMatchObject({ cluster_id: '3', cluster_size: '1', match_decision: 'Unmatched', match_score: '', matched_id: '', match_note: '' });
    // Under learned rules a first and last name make a row matchable.
    expect(byId.get('5')?.['match_decision']).toBe('Unmatched');
    expect(run.stderr).toMatch(/records 6; clusters 4 \(1 with 2\+ rows, largest 3\); duplicates 2 rows/);
    expect(run.stderr).toMatch(/rules learned; gates from the columns/);
    expect(run.stderr).toMatch(/model: estimated from the file: u from \d+ random pairs/);
    expect(run.stderr).toMatch(/wrote 6 rows \(every row read\) to out\.csv/);
    expect(run.stderr).toMatch(
      /^cpu by phase \(every thread\): read and index [\d.]+ s, estimate [\d.]+ s, match [\d.]+ s, cluster [\d.]+ s, write [\d.]+ s$/m,
    );
    expect(run.stderr).toMatch(
      /columns: id -> id, first_name -> firstName, last_name -> lastName, email -> email, phone -> phone, dob -> dateOfBirth, zip -> zipOrPostalCode/,
    );
  });

  it("--rules crm: the contract's minimum combinations; a row below them cannot be matched, and says so", async () => {
    const input = s.file('people-crm.csv', PEOPLE);
    const run = await s.cli(['dedupe', input, '-o', 'out-crm.csv', '--rules', 'crm', '--progress', 'none']);
    expect(run.code, run.stderr).toBe(0);
    const byId = new Map(parseCsv(s.read('out-crm.csv')).map((r) => [r['id'], r]));
    for (const id of ['1', '2', '4']) expect(Number(byId.get(id)?.['match_score'])).toBeGreaterThanOrEqual(18);
    expect(byId.get('5')?.['match_decision']).toBe('Unmatchable');
    expect(run.stderr).toMatch(/cannot be matched on their own: 1 row supplies none of the 5 minimum combinations \(--gates contract\)/);
    expect(run.stderr).toMatch(/^cpu by phase \(every thread\): read and index [\d.]+ s, match [\d.]+ s, cluster [\d.]+ s, write [\d.]+ s$/m);
  });

  it('writes to standard output without -o; ids are row numbers without an id column', async () => {
    const input = s.file(
      'people2.csv',
      PEOPLE.map((line) => line.slice(line.indexOf(',') + 1)),
    );
    const run = await s.cli(['dedupe', input, '--progress', 'none']);
    expect(run.code).toBe(0);
    const rows = parseCsv(run.stdout);
    expect(rows).toHaveLength(6);
    expect(rows[1]?.['matched_id']).toBe('1');
    expect(rows[3]?.['cluster_id']).toBe('1');
    expect(run.stderr).toMatch(/ids: row numbers/);
  });

  it('--quiet prints nothing on stderr', async () => {
    const run = await s.cli(['dedupe', s.file('q.csv', PEOPLE), '-o', 'q-out.csv', '-q']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
  });

  it('splits a full-name column and matches it with separate-name rows', async () => {
    const input = s.file('names.csv', [
      'name,email',
      '"Smith, Robert J.",rs@example.com',
      'Dr. Robert J Smith Jr,rs@example.com',
      'Robert Smith Sr,rs@example.com',
    ]);
    const run = await s.cli(['dedupe', input, '-o', 'names-out.csv', '--rules', 'crm', '--progress', 'none']);
    expect(run.code, run.stderr).toBe(0);
    const rows = parseCsv(s.read('names-out.csv'));
    // "Smith, Robert J." (no suffix) could be either: a suffix on one record only is the father or
    // the son as often as a dropped suffix, so each pair is left for review (no date of birth).
    expect(rows.map((r) => r['cluster_id'])).toEqual(['1', '2', '3']);
    expect(rows.map((r) => r['match_decision'])).toEqual(['Possible', 'Possible', 'Possible']);
    expect(rows[0]?.['match_note']).toMatch(/generational suffix on one record only/);
    expect(run.stderr).toMatch(/name -> fullName/);
    const juniors = s.file('jr.csv', ['name,email', 'Dr. Robert J Smith Jr,rs@example.com', 'Robert Smith Sr,rs@example.com']);
    const apart = await s.cli(['dedupe', juniors, '-o', 'jr-out.csv', '--rules', 'crm', '--progress', 'none']);
    expect(apart.code).toBe(0);
    expect(parseCsv(s.read('jr-out.csv')).map((r) => r['cluster_size'])).toEqual(['1', '1']);
    // Learned rules: Jr against Sr weighs heavily against, whatever else agrees; no cluster joins them.
    const learned = await s.cli(['dedupe', juniors, '-o', 'jr-learned.csv', '--progress', 'none']);
    expect(learned.code).toBe(0);
    expect(parseCsv(s.read('jr-learned.csv')).map((r) => r['cluster_size'])).toEqual(['1', '1']);
  });

  it('--map names columns the aliases miss; --map HEADER=ignore leaves one out', async () => {
    const input = s.file('german.csv', ['Vorname,Nachname,E-Post', 'Anna,Schmidt,anna@example.de', 'Anna,Schmidt,anna@example.de']);
    const none = await s.cli(['dedupe', input, '--progress', 'none']);
    expect(isOneLineError(none)).toBe(true);
    expect(none.stderr).toMatch(/no column holds a name .*"Vorname", "Nachname", "E-Post".*--map/);
    const run = await s.cli([
      'dedupe',
      input,
      '-o',
      'german-out.csv',
      '--map',
      'Vorname=firstName',
      '--map',
      'Nachname=lastName',
      '--map',
      'E-Post=email',
      '--progress',
      'none',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(parseCsv(s.read('german-out.csv')).map((r) => r['cluster_id'])).toEqual(['1', '1']);
    const ignored = await s.cli([
      'dedupe',
      input,
      '-o',
      'german-out2.csv',
      '--rules',
      'crm',
      '--map',
      'Vorname=firstName',
      '--map',
      'Nachname=lastName',
      '--map',
      'E-Post=ignore',
      '--progress',
      'none',
    ]);
    expect(ignored.code).toBe(0);
    expect(parseCsv(s.read('german-out2.csv')).map((r) => r['match_decision'])).toEqual(['Unmatchable', 'Unmatchable']);
    expect(ignored.stderr).toMatch(/not used: E-Post/);
  });

  it('--date-format settles day/month order', async () => {
    const input = s.file('dates.csv', ['first,last,dob,zip', 'Ann,Lee,03/04/1975,90210', 'Ann,Lee,1975-04-03,90210']);
    // Month first, 03/04 is 4 March: the pair agrees only as "day and month swapped".
    const mdy = await s.cli(['dedupe', input, '-o', 'd1.csv', '--explain', '--rules', 'crm', '--progress', 'none']);
    expect(mdy.code).toBe(0);
    expect(parseCsv(s.read('d1.csv'))[0]?.['match_explanation']).toMatch(/dateOfBirth \+[\d.]+ \(day and month swapped\)/);
    const dmy = await s.cli(['dedupe', input, '-o', 'd2.csv', '--explain', '--rules', 'crm', '--date-format', 'DD/MM/YYYY', '--progress', 'none']);
    expect(dmy.code).toBe(0);
    expect(parseCsv(s.read('d2.csv'))[0]?.['match_explanation']).toMatch(/dateOfBirth \+[\d.]+ \(dates of birth equal\)/);
    expect(dmy.stderr).toMatch(/dates dmy/);
  });

  it("without --date-format, the file's own dates settle the order, and the summary says how", async () => {
    const input = s.file('dates-own.csv', [
      'first,last,dob,zip',
      'Ann,Lee,03/04/1975,90210',
      'Ann,Lee,1975-04-03,90210',
      'Bo,Ng,18/02/1960,10001',
      'Cy,Oz,25/12/1961,10002',
      'Di,Po,30/01/1962,10003',
    ]);
    const run = await s.cli(['dedupe', input, '-o', 'd3.csv', '--explain', '--rules', 'crm', '--progress', 'none']);
    expect(run.code).toBe(0);
    expect(parseCsv(s.read('d3.csv'))[0]?.['match_explanation']).toMatch(/dateOfBirth \+[\d.]+ \(dates of birth equal\)/);
    expect(run.stderr).toMatch(/dates are read day first: 3 dates such as "18\/02\/1960" can only be day first, none month first/);
    expect(run.stderr).toMatch(/dates mdy unless a file shows its own/);
  });

  it('reads dates as files hold them: YYYYMMDD, M/D/YYYY, D-Mon-YY', async () => {
    const input = s.file('dates2.csv', [
      'first,last,dob,zip',
      'Ann,Lee,19750403,90210',
      'Ann,Lee,4/3/1975,90210',
      'Ann,Lee,3-Apr-75,90210',
      'Ann,Lee,31/31/1975,90210',
    ]);
    const run = await s.cli(['dedupe', input, '-o', 'd3.csv', '--rules', 'crm', '--progress', 'none']);
    expect(run.code).toBe(0);
    expect(parseCsv(s.read('d3.csv')).map((r) => r['cluster_size'])).toEqual(['3', '3', '3', '1']);
    expect(run.stderr).toMatch(/1 date of birth that is not a date.*line 5: "31\/31\/1975"/);
  });

  it('--country reads phones and postcodes of that country', async () => {
    const input = s.file('uk.csv', ['first,last,phone', 'Olivia,Brown,020 7946 0018', 'Olivia,Brown,+44 20 7946 0018']);
    const us = await s.cli(['dedupe', input, '-o', 'uk1.csv', '--rules', 'crm', '--progress', 'none']);
    expect(us.code).toBe(0);
    // With US numbers, the first phone is unreadable; the second (+44) alone gives a possible match only.
    expect(parseCsv(s.read('uk1.csv')).map((r) => r['match_decision'])).toEqual(['Unmatchable', 'Possible']);
    expect(us.stderr).toMatch(/1 phone cell with no valid number, not used for matching \(line 2: "020 7946 0018"\)/);
    const gb = await s.cli(['dedupe', input, '-o', 'uk2.csv', '--rules', 'crm', '--country', 'UK', '--progress', 'none']);
    expect(gb.code).toBe(0);
    expect(parseCsv(s.read('uk2.csv')).map((r) => r['cluster_size'])).toEqual(['2', '2']);
    expect(gb.stderr).toMatch(/country GB/);
  });

  it('--strict (Disable Partial Matching): a nickname no longer agrees', async () => {
    const input = s.file('strict.csv', ['first,last,email', 'Robert,Smith,rs@example.com', 'Bob,Smith,rs@example.com']);
    const loose = await s.cli(['dedupe', input, '-o', 's1.csv', '--rules', 'crm', '--progress', 'none']);
    expect(parseCsv(s.read('s1.csv')).map((r) => r['cluster_size'])).toEqual(['2', '2']);
    expect(loose.code).toBe(0);
    const strict = await s.cli(['dedupe', input, '-o', 's2.csv', '--rules', 'crm', '--strict', '--progress', 'none']);
    expect(strict.code).toBe(0);
    expect(parseCsv(s.read('s2.csv')).map((r) => r['cluster_size'])).toEqual(['1', '1']);
    expect(strict.stderr).toMatch(/rules crm \(strict\)/);
  });

  it('--threshold and --possible move the decisions', async () => {
    const input = s.file('thr.csv', PEOPLE);
    const high = await s.cli(['dedupe', input, '-o', 't1.csv', '--threshold', '500', '--possible', '5', '--progress', 'none']);
    expect(high.code).toBe(0);
    const rows = parseCsv(s.read('t1.csv'));
    expect(rows.every((r) => r['cluster_size'] === '1')).toBe(true);
    expect(rows.filter((r) => r['match_decision'] === 'Possible').length).toBeGreaterThanOrEqual(3);
    expect(high.stderr).toMatch(/match >= 500(\.00)? bits, review >= 5(\.00)?/);
  });

  it('a Possible row says why it is not Matched, in match_note, the summary and the report', async () => {
    // Under the CRM rules (the contract's gates): same name and birthday, another email, no ZIP
    // on the second row: a high score, but no minimum combination the rows agree on (a parent
    // and a child share all of that).
    const input = s.file('why.csv', [
      'id,first,last,email,dob,zip',
      '1,Robert,Smith,bob@example.com,1970-03-04,12345',
      '2,Robert,Smith,robert.smith@work.example.org,1970-03-04,',
      '3,Mary,Jones,mary@example.org,1980-01-02,54321',
    ]);
    const run = await s.cli(['dedupe', input, '-o', 'why-out.csv', '--id', 'id', '--rules', 'crm', '--report', 'why.html', '--progress', 'none']);
    expect(run.code, run.stderr).toBe(0);
    const rows = parseCsv(s.read('why-out.csv'));
    expect(rows.map((r) => r['match_decision'])).toEqual(['Possible', 'Possible', 'Unmatched']);
    expect(Number(rows[0]?.['match_score'])).toBeGreaterThanOrEqual(18);
    expect(rows[0]?.['match_note']).toBe(
      'above the match threshold, but no minimum combination agrees: ' +
        'firstName+lastName+email (email differs); firstName+lastName+zip5+dateOfBirth (no zip5 on the other row); email (email differs)',
    );
    expect(rows[1]?.['match_note']).toBe(
      'above the match threshold, but no minimum combination agrees: firstName+lastName+email (email differs); email (email differs)',
    );
    expect(rows[2]?.['match_note']).toBe('');
    expect(run.stderr).toContain(
      '2 rows score above the match threshold but agree on no minimum combination (match_note says which): ' +
        '1 x firstName+lastName+email (email differs); email (email differs) | 1 x firstName+lastName+email (email differs); firstName+lastName+zip5+dateOfBirth (no zip5 on the other row); email (email differs)',
    );
    const html = s.read('why.html');
    expect(html).toContain('<p class="note">above the match threshold, but no minimum combination agrees: firstName+lastName+email (email differs)');
    expect(html).toContain('2 rows score above the match threshold');
  });

  it('a Possible row below the threshold says so', async () => {
    const input = s.file('below.csv', PEOPLE);
    await s.cli(['dedupe', input, '-o', 'below-out.csv', '--threshold', '500', '--possible', '5', '--progress', 'none']);
    const possible = parseCsv(s.read('below-out.csv')).filter((r) => r['match_decision'] === 'Possible');
    expect(possible.length).toBeGreaterThan(0);
    for (const r of possible) expect(r['match_note']).toMatch(/^below the match threshold \(500 bits\)/);
  });

  it("--gate replaces the contract's minimum combinations (a voter list without dates of birth)", async () => {
    const input = s.file('voters.csv', ['first,last,zip,city', 'Maria,Garcia,78701,Austin', 'Maria,Garcia,78701,Austin', 'Maria,Garcia,10001,New York']);
    const contract = await s.cli(['dedupe', input, '-o', 'v1.csv', '--rules', 'crm', '--progress', 'none']);
    expect(parseCsv(s.read('v1.csv')).map((r) => r['match_decision'])).toEqual(['Unmatchable', 'Unmatchable', 'Unmatchable']);
    expect(contract.code).toBe(0);
    const gated = await s.cli(['dedupe', input, '-o', 'v2.csv', '--rules', 'crm', '--gate', 'firstName+lastName+zip5+city', '--progress', 'none']);
    expect(gated.code, gated.stderr).toBe(0);
    expect(parseCsv(s.read('v2.csv')).map((r) => r['cluster_size'])).toEqual(['2', '2', '1']);
  });

  it("--explain adds each field's contribution to the best match", async () => {
    const input = s.file('explain.csv', PEOPLE);
    const run = await s.cli(['dedupe', input, '-o', 'e.csv', '--explain', '--progress', 'none']);
    expect(run.code).toBe(0);
    const rows = parseCsv(s.read('e.csv'));
    expect(Object.keys(rows[0] ?? {})).toContain('match_explanation');
    expect(rows[1]?.['match_explanation']).toMatch(
      /^prior -[\d.]+ .*firstName [+-][\d.]+ \(first names are nickname variants\).*email \+[\d.]+ \(an email address agrees\)/,
    );
    expect(rows[2]?.['match_explanation']).toBe('');
  });

  it('detects a ; delimiter, and takes --delimiter', async () => {
    const semi = s.file('semi.csv', ['first;last;email', 'Ann;Lee;ann@example.com', 'Ann;Lee;ann@example.com']);
    const run = await s.cli(['dedupe', semi, '-o', 'semi-out.csv', '--progress', 'none']);
    expect(run.code).toBe(0);
    expect(s.read('semi-out.csv').split('\n')[0]).toBe('cluster_id;cluster_size;match_decision;match_score;matched_id;match_note;first;last;email');
    expect(run.stderr).toMatch(/semicolon-delimited/);
    const pipe = s.file('pipe.txt', ['first|last|email', 'Ann|Lee|ann@example.com', 'Ann|Lee|ann@example.com']);
    const forced = await s.cli(['dedupe', pipe, '-o', 'pipe-out.csv', '--delimiter', '|', '--progress', 'none']);
    expect(forced.code).toBe(0);
    expect(
      parseRows(s.read('pipe-out.csv').replace(/\|/g, ','))
        .slice(1)
        .map((r) => r[1]),
    ).toEqual(['2', '2']);
  });

  it('reads Latin-1 files (detected or --encoding), writes UTF-8', async () => {
    const bytes = Buffer.from('first,last,email\nJosé,Muñoz,jm@example.com\nJose,Munoz,jm@example.com\n', 'latin1');
    const input = s.file('latin1.csv', bytes);
    const run = await s.cli(['dedupe', input, '-o', 'l1.csv', '--progress', 'none']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/Latin-1 \(not valid UTF-8/);
    const rows = parseCsv(s.read('l1.csv'));
    expect(rows[0]?.['first']).toBe('José');
    expect(rows.map((r) => r['cluster_size'])).toEqual(['2', '2']);
    const forced = await s.cli(['dedupe', input, '-o', 'l2.csv', '--encoding', 'ISO-8859-1', '--progress', 'none']);
    expect(forced.code).toBe(0);
    const asUtf8 = await s.cli(['dedupe', input, '-o', 'l3.csv', '--encoding', 'utf8', '--progress', 'none']);
    expect(asUtf8.code).toBe(0);
    expect(asUtf8.stderr).toMatch(/1 row with bytes that are not valid in the file's encoding .*--encoding latin1.*line 2/);
  });

  it('ragged rows and blank lines are counted and reported; every row is written', async () => {
    const input = s.file('ragged.csv', [
      'first,last,email',
      'Ann,Lee,ann@example.com',
      '',
      'Ann,Lee',
      'Ann,Lee,ann@example.com,EXTRA,MORE',
      '',
      'Bo,Ek,bo@example.com',
    ]);
    const run = await s.cli(['dedupe', input, '-o', 'r.csv', '--progress', 'none']);
    expect(run.code, run.stderr).toBe(0);
    const rows = parseRows(s.read('r.csv'));
    expect(rows).toHaveLength(5);
    expect(rows[2]?.slice(6)).toEqual(['Ann', 'Lee']);
    expect(rows[3]?.slice(6)).toEqual(['Ann', 'Lee', 'ann@example.com', 'EXTRA', 'MORE']);
    expect(rows[3]?.[0]).toBe('1');
    expect(run.stderr).toMatch(/2 blank lines ignored \(lines 3, 6\)/);
    expect(run.stderr).toMatch(/1 row with fewer fields than the header: missing fields read as empty \(line 4\)/);
    expect(run.stderr).toMatch(/1 row with more fields than the header: extra fields kept in the output, not matched on \(line 5\)/);
    expect(run.stderr).toMatch(/wrote 4 rows \(every row read\)/);
  });

  it('a file that already has our columns gets prefixed ones', async () => {
    const input = s.file('again.csv', ['cluster_id,first,last,email', 'x,Ann,Lee,ann@example.com', 'y,Ann,Lee,ann@example.com']);
    const run = await s.cli(['dedupe', input, '-o', 'again-out.csv', '--progress', 'none']);
    expect(run.code).toBe(0);
    expect(s.read('again-out.csv').split('\n')[0]).toBe(
      'matchbook_cluster_id,matchbook_cluster_size,matchbook_match_decision,matchbook_match_score,matchbook_matched_id,matchbook_match_note,cluster_id,first,last,email',
    );
  });

  it('bad input: one clear line, no stack trace, no output file left behind', async () => {
    expect(isOneLineError(await s.cli(['dedupe', 'missing.csv']))).toBe(true);
    expect((await s.cli(['dedupe', 'missing.csv'])).stderr).toMatch(/missing\.csv: no such file/);
    expect(isOneLineError(await s.cli(['dedupe', s.dir]))).toBe(true);
    expect((await s.cli(['dedupe', '-'])).stderr).toMatch(/reading standard input is not supported/);
    const empty = await s.cli(['dedupe', s.file('empty.csv', '')]);
    expect(isOneLineError(empty)).toBe(true);
    expect(empty.stderr).toMatch(/empty \(no header line\)/);
    const dup = await s.cli(['dedupe', s.file('dupid.csv', ['id,first,last', '7,Ann,Lee', '8,Bo,Ek', '7,Cy,Fu']), '--id', 'id', '-o', 'dup-out.csv']);
    expect(isOneLineError(dup)).toBe(true);
    expect(dup.stderr).toMatch(/line 4: id "7" repeats line 2/);
    expect(existsSync(s.path('dup-out.csv'))).toBe(false);
    expect(readdirSync(s.dir).some((f) => f.endsWith('.partial'))).toBe(false);
    const noId = await s.cli(['dedupe', s.file('noid.csv', ['id,first,last', ',Ann,Lee']), '--id', 'id']);
    expect(noId.stderr).toMatch(/line 2: the id column "id" is empty/);
    const badId = await s.cli(['dedupe', s.file('badid.csv', ['first,last']), '--id', 'key']);
    expect(isOneLineError(badId)).toBe(true);
    expect(badId.stderr).toMatch(/--id "key": no such column; columns: "first", "last"/);
    const badOut = await s.cli(['dedupe', s.file('ok.csv', PEOPLE), '-o', 'no/such/dir/out.csv']);
    expect(isOneLineError(badOut)).toBe(true);
    expect(badOut.stderr).toMatch(/no\/such\/dir\/out\.csv: cannot write \(no such directory\)/);
    const quote = await s.cli([
      'dedupe',
      s.file('quote.csv', ['first,last', 'Ann,"Lee', ...Array.from({ length: 10 }, () => 'x,y')]),
      '-o',
      'quote-out.csv',
      '--progress',
      'none',
    ]);
    expect(quote.code).toBe(0);
    expect(quote.stderr).toMatch(/1 row with a malformed quoted field.*line 2/);
    expect(quote.stderr).toMatch(/10 lines read into those malformed quoted fields instead of as rows of their own \(in the rows starting on line 2\)/);
  });

  it('bad options: one clear line each', async () => {
    const input = s.file('opts.csv', PEOPLE);
    for (const [args, pattern] of [
      [['--gate', 'firstName+shoeSize'], /--gate "firstName\+shoeSize": unknown gate field "shoeSize"/],
      [['--country', '12'], /--country "12": expected a two-letter ISO country code/],
      [['--date-format', 'sometimes'], /--date-format "sometimes": expected mdy, dmy, ymd/],
      [['--threshold', 'high'], /--threshold "high": expected a number of bits/],
      [['--threshold', '5', '--possible', '9'], /--possible 9 is above --threshold 5/],
      [['--map', 'first_name'], /--map "first_name": expected HEADER=field/],
      [['--map', 'first_name=shoeSize'], /unknown field "shoeSize"/],
      [['--map', 'nope=firstName'], /--map "nope": no such column/],
      [['--encoding', 'ebcdic'], /--encoding "ebcdic": expected one of/],
      [['--delimiter', 'ab'], /--delimiter "ab": expected one character/],
      [['--threads', '0'], /--threads "0": expected a whole number/],
      [['--gates', 'address-file', '--gate', 'email'], /give --gate or --gates, not both/],
      [['--match-probability', '2'], /--match-probability "2": expected a probability between 0 and 1/],
      [['--rules', 'crm', '--match-probability', '0.9'], /apply to --rules learned/],
      [['--model', 'nope.json'], /--model nope\.json: cannot read it/],
      [['--identifier', 'ssn'], /--identifier "ssn": expected TYPE=COLUMN/],
      [['--area-code', 'x'], /--area-code "x": expected the digits of an area code/],
    ] as const) {
      const run = await s.cli(['dedupe', input, ...args]);
      expect(isOneLineError(run), `${args.join(' ')}: ${run.stderr}`).toBe(true);
      expect(run.stderr).toMatch(pattern);
    }
    const choice = await s.cli(['dedupe', input, '--rules', 'fuzzy']);
    expect(choice.code).not.toBe(0);
    expect(choice.stderr).toMatch(/Allowed choices are learned, crm, linkage/);
    expect(choice.stderr).not.toMatch(/\n\s+at /);
  });
});

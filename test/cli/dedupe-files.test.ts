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

describe('dedupe: line ends and quotes', () => {
  it('LF, CRLF and bare CR lines mixed, whichever comes first: every row is read and written as it was, none merged, without a CR', async () => {
    const people = ['John,Smith,1970-01-02', 'Mary,Jones,1980-01-02', 'Peter,Brown,1990-01-02', 'Ann,Lee,1991-01-01', 'John,Smith,1970-01-02'];
    for (const [name, breaks] of [
      ['crlf-first.csv', ['\r\n', '\n', '\n', '\r\n', '\n', '\r\n']],
      ['lf-first.csv', ['\n', '\r\n', '\r\n', '\n', '\r\n', '\n']],
      ['cr-then-lf.csv', ['\r', '\r', '\n', '\n', '\n', '\n']],
      ['cr-then-crlf.csv', ['\r', '\r', '\r\n', '\r\n', '\r\n', '\r\n']],
    ] as const) {
      const text = ['first_name,last_name,dob', ...people].map((line, i) => line + (breaks[i] ?? '\n')).join('');
      const input = s.file(name, text);
      const run = await s.cli(['dedupe', input, '-o', `out-${name}`, '--progress', 'none']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/wrote 5 rows \(every row read\)/);
      const out = s.read(`out-${name}`);
      expect(out).not.toMatch(/\r/);
      const rows = parseCsv(out);
      expect(rows.map((r) => `${r['first_name']},${r['last_name']},${r['dob']}`)).toEqual(people);
      // The two John Smiths, one on a CRLF line and one on an LF line, are one person.
      expect(rows[0]?.['cluster_id']).toBe(rows[4]?.['cluster_id']);
      expect(rows[0]?.['match_decision']).toBe('Matched');
    }
  });

  it('one stray quote keeps its row and the 5,000 rows after it', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `P${i},Q${i},C${i}`);
    const input = s.file('stray.csv', ['first_name,last_name,company', 'John,Smith,"Acme" Inc', ...rows]);
    const run = await s.cli(['dedupe', input, '-o', 'stray-out.csv', '--progress', 'none']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/5,001 rows/);
    expect(run.stderr).toMatch(/1 row with a malformed quoted field.*\(line 2\)/);
    expect(run.stderr).not.toMatch(/read into those malformed quoted fields/);
    const out = parseCsv(s.read('stray-out.csv'));
    expect(out.length).toBe(5001);
    expect(out[0]).toMatchObject({ first_name: 'John', last_name: 'Smith', company: 'Acme Inc' });
    expect(out[5000]).toMatchObject({ first_name: 'P4999', company: 'C4999' });
  });
});

describe('dedupe: a quote never closed', () => {
  it('does not say every row was read when lines went into the open quoted field', async () => {
    const input = s.file('open.csv', ['first_name,last_name,company', 'John,Smith,"Acme', 'Mary,Jones,Beta', 'Ann,Lee,Gamma']);
    const run = await s.cli(['dedupe', input, '-o', 'open-out.csv', '--progress', 'none']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/2 lines read into those malformed quoted fields/);
    expect(run.stderr).toMatch(/wrote 1 row \(not every line a row: 2 lines read into a quoted field never closed, see above\)/);
  });
});

describe('dedupe: addresses', () => {
  it("Outlook's export: the home address is read, not the business one listed first", async () => {
    const input = s.file('outlook.csv', [
      'First Name,Last Name,Business Street,Business City,Business State,Business Postal Code,Home Street,Home City,Home State,Home Postal Code,Business Phone',
      'John,Smith,1 Office Park,Chicago,IL,60601,12 Elm St,Springfield,IL,62701,555-201-3344',
      'Jon,Smith,1 Office Park,Chicago,IL,60601,99 Oak Ave,Peoria,IL,61602,555-201-3344',
    ]);
    const run = await s.cli(['dedupe', input, '-o', 'outlook-out.csv', '--progress', 'none']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Home Street -> addressLine1, Home City -> city, Home State -> stateOrProvince, Home Postal Code -> zipOrPostalCode/);
    expect(run.stderr).toMatch(/not used: Business Street, Business City, Business State, Business Postal Code/);
    expect(run.stderr).toMatch(/note: column "Business Street" is part of another address \(business\)/);
  });
});

describe('dedupe: what exports write before the header and at line ends', () => {
  it("Excel's sep= first line: its delimiter is used, the next line is the header, the duplicates are found", async () => {
    const lines = [
      'First Name;Last Name;Email;Phone',
      'Robert;Smith;bob@example.com;555-201-3344',
      'Bob;Smith;BOB@EXAMPLE.COM;(555) 201 3344',
      'Alice;Jones;alice@example.org;555-777-0000',
    ];
    for (const [name, first] of [
      ['sep-plain.csv', 'sep=;'],
      ['sep-bom.csv', '\uFEFFsep=;'],
      ['sep-quoted.csv', '"sep=;"'],
    ] as const) {
      const input = s.file(name, `${[first, ...lines].join('\r\n')}\r\n`);
      const run = await s.cli(['dedupe', input, '-o', `out-${name}`, '--progress', 'none']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/3 rows; UTF-8 \([^)]*\), semicolon-delimited \(its first line "sep=" is not the header\)/);
      expect(run.stderr).toMatch(/First Name -> firstName, Last Name -> lastName, Email -> email, Phone -> phone/);
      const out = s.read(`out-${name}`);
      expect(out).not.toMatch(/sep=/);
      const rows = parseCsv(out.replace(/;/g, ','));
      expect(rows.map((r) => r['First Name'])).toEqual(['Robert', 'Bob', 'Alice']);
      expect(rows[0]?.['cluster_id']).toBe(rows[1]?.['cluster_id']);
      expect(rows[2]?.['cluster_id']).not.toBe(rows[0]?.['cluster_id']);
    }
  });

  it('a quote never closed in a file of CR lines: the summary does not say every row was read', async () => {
    const input = s.file('cr-open.csv', 'first_name,last_name,company\rJohn,Smith,"Acme\rMary,Jones,Beta\rAnn,Lee,Gamma\r');
    const run = await s.cli(['dedupe', input, '-o', 'cr-open-out.csv', '--progress', 'none']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/wrote 1 row \(not every line a row: 2 lines read into a quoted field never closed/);
  });
});

describe('dedupe: notes before the header', () => {
  it("LinkedIn's Connections.csv: the notes are skipped and said so, the connections are read and their duplicates found", async () => {
    const input = s.file(
      'Connections.csv',
      'Notes:\r\n"When exporting your connection data, you may notice that some of the email addresses are missing."\r\n\r\n' +
        'First Name,Last Name,URL,Email Address,Company,Position,Connected On\r\n' +
        'Robert,Smith,https://www.linkedin.com/in/bobsmith,bob.smith@example.com,Acme,Engineer,15 Oct 2023\r\n' +
        'Bob,Smith,https://www.linkedin.com/in/bobsmith,Bob.Smith@Example.com,Acme Corp,Engineer,15 Oct 2023\r\n' +
        'Alice,Jones,https://www.linkedin.com/in/alicej,,Beta,CEO,03 Jan 2022\r\n',
    );
    const run = await s.cli(['dedupe', input, '-o', 'connections-out.csv', '--progress', 'none']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/First Name -> firstName, Last Name -> lastName, Email Address -> email/);
    expect(run.stderr).toMatch(/2 lines of notes before the header skipped \(lines 1, 2\)/);
    const rows = parseCsv(s.read('connections-out.csv'));
    expect(rows.map((r) => r['First Name'])).toEqual(['Robert', 'Bob', 'Alice']);
    expect(rows[0]?.['cluster_id']).toBe(rows[1]?.['cluster_id']);
    expect(rows[2]?.['match_decision']).toBe('Unmatched');
  });
});

describe('dedupe: a database export writing NULL in each empty cell', () => {
  it('NULL is no surname: two Marias without one are not matched on it, and a Jennifer Null keeps hers', async () => {
    const input = s.file('nulls.csv', [
      'first_name,last_name,email,dob,city,state,zip',
      'Maria,NULL,maria.g@example.com,NULL,Boston,MA,02110',
      'Maria,NULL,mk1990@example.org,NULL,Boston,MA,02110',
      'Jennifer,Null,jn@example.com,NULL,Boston,MA,02110',
      'Jennifer,Null,NULL,\\N,Boston,MA,02110',
    ]);
    const crm = await s.cli(['dedupe', input, '--rules', 'crm', '--gates', 'city-file', '-o', 'nulls-crm.csv', '--progress', 'none']);
    expect(crm.code, crm.stderr).toBe(0);
    expect(crm.stderr).not.toMatch(/dates of birth that are not dates/);
    const rows = parseCsv(s.read('nulls-crm.csv'));
    expect(rows.map((r) => r['match_decision'])).toEqual(['Possible', 'Possible', 'Matched', 'Matched']);
    const linkage = await s.cli(['dedupe', input, '--rules', 'linkage', '-o', 'nulls-linkage.csv', '--progress', 'none']);
    expect(linkage.code, linkage.stderr).toBe(0);
    const linked = parseCsv(s.read('nulls-linkage.csv'));
    // Maria and Jennifer were one cluster of four: both surnames read "null".
    expect(linked[0]?.['cluster_id']).not.toBe(linked[2]?.['cluster_id']);
    expect(linked[2]?.['cluster_id']).toBe(linked[3]?.['cluster_id']);
  });
});

/**
 * `matchbook dedupe` on small files with the header sets real contact exports write (ActBlue,
 * Shopify, Salesforce, NationBuilder, Action Network), each holding one person twice, written
 * differently (a nickname, an email's case, a phone's format), and other people: the person's
 * own columns are read, the duplicates found, nobody else joined.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { parseCsv, Scratch } from './dedupe-helpers.js';

const s = new Scratch();
afterAll(() => s.remove());

async function dedupe(name: string, lines: readonly string[]): Promise<{ stderr: string; clusters: string[] }> {
  const input = s.file(name, lines);
  const run = await s.cli(['dedupe', input, '-o', `out-${name}`, '--progress', 'none']);
  expect(run.code, run.stderr).toBe(0);
  return { stderr: run.stderr, clusters: parseCsv(s.read(`out-${name}`)).map((r) => r['cluster_id'] ?? '') };
}

describe('dedupe: contact exports', () => {
  it('ActBlue contributions: the donor is read and found twice; the fundraiser on every row joins nobody', async () => {
    const head =
      'Receipt ID,Date,Amount,Donor First Name,Donor Last Name,Donor Addr1,Donor City,Donor State,Donor ZIP,Donor Email,Donor Phone,Employer Addr1,Employer City,Fundraiser Contact Email,Fundraiser Contact First Name,Fundraiser Contact Last Name';
    const { stderr, clusters } = await dedupe('actblue.csv', [
      head,
      'AB1,2024-03-01,25,Robert,Smith,12 Elm St,Springfield,IL,62701,bob.smith@example.com,217-412-3344,1 School Rd,Springfield,karen@example.org,Karen,Miller',
      'AB2,2024-04-01,50,Bob,Smith,12 Elm Street,Springfield,IL,62701,BOB.SMITH@EXAMPLE.COM,(217) 412-3344,1 School Rd,Springfield,karen@example.org,Karen,Miller',
      'AB3,2024-04-02,10,Alice,Jones,99 Oak Ave,Peoria,IL,61602,alice.j@example.com,309-676-1212,1 Hospital Way,Peoria,karen@example.org,Karen,Miller',
      'AB4,2024-04-03,10,Carl,Brown,5 Pine Rd,Chicago,IL,60601,carl@example.net,312-781-0101,2 Diner St,Chicago,karen@example.org,Karen,Miller',
    ]);
    expect(stderr).toMatch(/columns: Donor First Name -> firstName, Donor Last Name -> lastName, Donor Addr1 -> addressLine1/);
    expect(stderr).toMatch(/not used: .*Fundraiser Contact Email, Fundraiser Contact First Name, Fundraiser Contact Last Name/);
    expect(clusters[0]).toBe(clusters[1]);
    expect(new Set(clusters).size).toBe(3);
  });

  it('Shopify customers: the default address is read; the duplicate is found', async () => {
    const head =
      'Customer ID,First Name,Last Name,Email,Default Address Address1,Default Address City,Default Address Province Code,Default Address Country Code,Default Address Zip,Default Address Phone,Phone';
    const { stderr, clusters } = await dedupe('shopify.csv', [
      head,
      '1001,Katherine,Lee,kate.lee@example.com,40 Lake Shore Dr,Chicago,IL,US,60601,,+13125550148',
      '1002,Kate,Lee,Kate.Lee@Example.com,40 Lake Shore Drive,Chicago,IL,US,60601,(312) 555-0148,',
      '1003,Dora,White,dora@example.net,7 Birch Ln,Urbana,IL,US,61801,,+12173330190',
    ]);
    expect(stderr).toMatch(/Default Address Address1 -> addressLine1, Default Address City -> city, Default Address Province Code -> stateOrProvince/);
    expect(clusters[0]).toBe(clusters[1]);
    expect(clusters[2]).not.toBe(clusters[0]);
  });

  it('Salesforce contacts: the mailing zip is read with its street; the contact owner joins nobody', async () => {
    const head =
      'Contact ID,First Name,Last Name,Mailing Street,Mailing City,Mailing State/Province,Mailing Zip/Postal Code,Mailing Country,Phone,Email,Birthdate,Contact Owner';
    const { stderr, clusters } = await dedupe('salesforce.csv', [
      head,
      '003A,William,Turner,8 Main St,Peoria,IL,61602,US,309-676-4410,wturner@example.com,1970-02-03,Sam Owner',
      '003B,Bill,Turner,8 Main Street,Peoria,IL,61602,US,3096764410,WTurner@example.com,1970-02-03,Sam Owner',
      '003C,Nora,Quinn,3 Elm Ct,Peoria,IL,61604,US,309-676-9999,nquinn@example.com,1982-05-06,Sam Owner',
    ]);
    expect(stderr).toMatch(/Mailing Zip\/Postal Code -> zipOrPostalCode/);
    expect(stderr).toMatch(/not used: .*Contact Owner/);
    expect(clusters[0]).toBe(clusters[1]);
    expect(clusters[2]).not.toBe(clusters[0]);
  });

  it('NationBuilder people: a row without a mailing address is read from its primary address', async () => {
    const head =
      'nationbuilder_id,first_name,last_name,email,born_at,primary_address1,primary_city,primary_state,primary_zip,mailing_address1,mailing_city,mailing_state,mailing_zip,recruiter_name_or_email';
    const { stderr, clusters } = await dedupe('nationbuilder.csv', [
      head,
      '1,Margaret,Olsen,,1961-07-08,12 Elm St,Springfield,IL,62701,12 Elm St,Springfield,IL,62701,rec@example.org',
      '2,Peggy,Olsen,,1961-07-08,12 Elm Street,Springfield,IL,62701,,,,,rec@example.org',
      '3,Margaret,Olsen,,1961-07-08,400 Pine Ave,Rockford,IL,61101,,,,,rec@example.org',
    ]);
    expect(stderr).toMatch(/born_at -> dateOfBirth/);
    expect(stderr).toMatch(/primary_address1 -> addressLine1 \(where the row's first address is empty\)/);
    expect(clusters[0]).toBe(clusters[1]);
  });
});

/**
 * The header sets real contact exports write (ActBlue, Shopify, NationBuilder, Mailchimp...),
 * as their public documentation and the code that reads them name the columns: the person's
 * own name, email, phone, address and date columns are read, another person's or another
 * thing's are not.
 */
import { describe, expect, it } from 'vitest';
import { describePlan, mapHeaders, type HeaderPlan } from '../../src/files/header-map.js';
import { compileRowLayout, rowToContact, spacedAddress } from '../../src/files/row-contact.js';

function plan(header: string): HeaderPlan {
  const p = mapHeaders(header.split(','));
  if ('error' in p) throw new Error(p.error);
  return p;
}

/** "header -> field" of every column read. */
function mapped(header: string): string[] {
  return describePlan(plan(header)).mapped;
}

const ACTBLUE =
  'Receipt ID,Date,Amount,Recurring Total Months,Recurrence Number,Recipient,Fundraising Page,Fundraising Partner,Reference Code 2,Reference Code,' +
  'Donor First Name,Donor Last Name,Donor Addr1,Donor Addr2,Donor City,Donor State,Donor ZIP,Donor Country,Donor Occupation,Donor Employer,Donor Email,Donor Phone,' +
  'New Express Signup,Comments,Check Number,Check Date,Employer Addr1,Employer Addr2,Employer City,Employer State,Employer ZIP,Employer Country,Donor ID,' +
  'Fundraiser ID,Fundraiser Recipient ID,Fundraiser Contact Email,Fundraiser Contact First Name,Fundraiser Contact Last Name,Partner ID,Partner Contact Email,' +
  'Partner Contact First Name,Partner Contact Last Name';

const SHOPIFY =
  'Customer ID,First Name,Last Name,Email,Accepts Email Marketing,Default Address Company,Default Address Address1,Default Address Address2,' +
  'Default Address City,Default Address Province Code,Default Address Country Code,Default Address Zip,Default Address Phone,Phone,Accepts SMS Marketing,' +
  'Total Spent,Total Orders,Note,Tax Exempt,Tags';

const MAILCHIMP =
  'Email Address,First Name,Last Name,Address,Phone Number,Birthday,MEMBER_RATING,OPTIN_TIME,OPTIN_IP,CONFIRM_TIME,CONFIRM_IP,LATITUDE,LONGITUDE,' +
  'GMTOFF,DSTOFF,TIMEZONE,CC,REGION,LAST_CHANGED,LEID,EUID,NOTES,TAGS';

const NATIONBUILDER =
  'nationbuilder_id,prefix,first_name,middle_name,last_name,suffix,full_name,legal_name,employer,occupation,sex,born_at,email1,email2,phone_number,' +
  'work_phone_number,mobile_number,parent_id,point_person_name_or_email,recruiter_id,recruiter_name_or_email,tag_list,email';

describe('contact exports: the columns read', () => {
  it("ActBlue contributions: the donor's columns, not the employer's, the fundraiser's or the partner's", () => {
    expect(mapped(ACTBLUE)).toEqual([
      'Donor First Name -> firstName',
      'Donor Last Name -> lastName',
      'Donor Addr1 -> addressLine1',
      'Donor Addr2 -> addressLine2',
      'Donor City -> city',
      'Donor State -> stateOrProvince',
      'Donor ZIP -> zipOrPostalCode',
      'Donor Country -> countryCode',
      'Donor Occupation -> attribute',
      'Donor Employer -> attribute',
      'Donor Email -> email',
      'Donor Phone -> phone',
    ]);
  });

  it("Shopify customers: the default address's columns", () => {
    expect(mapped(SHOPIFY)).toEqual([
      'First Name -> firstName',
      'Last Name -> lastName',
      'Email -> email',
      'Default Address Company -> attribute',
      'Default Address Address1 -> addressLine1',
      'Default Address Address2 -> addressLine2',
      'Default Address City -> city',
      'Default Address Province Code -> stateOrProvince',
      'Default Address Country Code -> countryCode',
      'Default Address Zip -> zipOrPostalCode',
      'Default Address Phone -> phone',
      'Phone -> phone',
    ]);
  });

  it("NationBuilder people: born_at is the date of birth; the point person's and the recruiter's are not the person's", () => {
    const read = mapped(NATIONBUILDER);
    expect(read).toContain('born_at -> dateOfBirth');
    expect(read.filter((m) => /recruiter|point_person|parent/.test(m))).toEqual([]);
  });

  it("Mailchimp audience: REGION and CC locate the sign-up's IP address, not the person's address", () => {
    const p = plan(MAILCHIMP);
    expect(describePlan(p).mapped).toEqual([
      'Email Address -> email',
      'First Name -> firstName',
      'Last Name -> lastName',
      'Address -> addressLine1',
      'Phone Number -> phone',
      'Birthday -> dateOfBirth',
    ]);
    expect(p.notes.join('\n')).toMatch(/column "REGION" is where the IP address of the sign-up was located/);
    // Without Mailchimp's IP columns a region is a state or province, as before.
    expect(mapped('First Name,Last Name,City,Region')).toContain('Region -> stateOrProvince');
  });

  it("Mailchimp's one-cell address, its parts two spaces apart, is read as a one-line address", () => {
    expect(spacedAddress('12 Elm St  Apt 4  Springfield  IL  62701  US')).toBe('12 Elm St, Apt 4, Springfield, IL 62701, US');
    expect(spacedAddress('99 Oak Ave    Peoria  IL  61602-1234  US')).toBe('99 Oak Ave, Peoria, IL 61602-1234, US');
    expect(spacedAddress('12  Elm St')).toBe('12  Elm St');
    const p = plan(MAILCHIMP);
    const cells = MAILCHIMP.split(',').map(() => '');
    cells[1] = 'Ann';
    cells[3] = '12 Elm St  Apt 4  Springfield  IL  62701  US';
    expect(rowToContact(cells, compileRowLayout(p)).addresses).toEqual([{ addressLine1: '12 Elm St, Apt 4, Springfield, IL 62701, US' }]);
  });

  it("Salesforce contacts: the mailing address's Zip/Postal Code is read with its street, the other address is noted", () => {
    const p = plan(
      'Contact ID,Salutation,First Name,Last Name,Title,Account Name,Mailing Street,Mailing City,Mailing State/Province,Mailing Zip/Postal Code,' +
        'Mailing Country,Other Street,Other City,Other State/Province,Other Zip/Postal Code,Phone,Mobile,Home Phone,Email,Birthdate,Contact Owner,Created By',
    );
    expect(describePlan(p).mapped).toEqual([
      'First Name -> firstName',
      'Last Name -> lastName',
      'Mailing Street -> addressLine1',
      'Mailing City -> city',
      'Mailing State/Province -> stateOrProvince',
      'Mailing Zip/Postal Code -> zipOrPostalCode',
      'Mailing Country -> countryCode',
      'Phone -> phone',
      'Mobile -> phone',
      'Home Phone -> phone',
      'Email -> email',
      'Birthdate -> dateOfBirth',
    ]);
    expect(p.notes.join('\n')).toMatch(/"Other Zip\/Postal Code" is part of another address \(other\)/);
  });

  it('HubSpot contacts: Country/Region is the country; the contact owner is not the person', () => {
    const read = mapped(
      'Record ID,First Name,Last Name,Email,Phone Number,Mobile Phone Number,Street Address,City,State/Region,Postal Code,Country/Region,Contact owner,Company Name,Job Title',
    );
    expect(read).toContain('Country/Region -> countryCode');
    expect(read).toContain('State/Region -> stateOrProvince');
    expect(read.filter((m) => m.startsWith('Contact owner'))).toEqual([]);
  });

  it("Action Network activists: the can2_ columns are the activist's own address and phone, one address with zip_code", () => {
    expect(
      mapped(
        'uuid,first_name,last_name,email,zip_code,can2_country,can2_state_abbreviated,can2_user_address,can2_user_city,can2_phone,can2_sms_status,can2_subscription_status',
      ),
    ).toEqual([
      'first_name -> firstName',
      'last_name -> lastName',
      'email -> email',
      'zip_code -> zipOrPostalCode',
      'can2_country -> countryCode',
      'can2_state_abbreviated -> stateOrProvince',
      'can2_user_address -> addressLine1',
      'can2_user_city -> city',
      'can2_phone -> phone',
    ]);
  });

  it("Eventbrite attendees: the attendee's columns, not the buyer's", () => {
    const read = mapped(
      'Order #,Order Date,First Name,Last Name,Email,Quantity,Ticket Type,Attendee #,Barcode #,Buyer Last Name,Buyer First Name,Buyer Email,' +
        'Home Address 1,Home Address 2,Home City,Home State,Home Zip,Home Country,Cell Phone,Work Phone,Job Title,Company,Attendee Status',
    );
    expect(read.slice(0, 3)).toEqual(['First Name -> firstName', 'Last Name -> lastName', 'Email -> email']);
    expect(read.filter((m) => m.startsWith('Buyer'))).toEqual([]);
    expect(read).toContain('Home Zip -> zipOrPostalCode');
  });

  it('NationBuilder people: where a row leaves the mailing address empty, its primary address is read, never its work address', () => {
    const header =
      'nationbuilder_id,first_name,last_name,email,born_at,primary_address1,primary_city,primary_state,primary_zip,' +
      'work_address1,work_city,work_state,work_zip,mailing_address1,mailing_city,mailing_state,mailing_zip';
    const p = plan(header);
    expect(describePlan(p).mapped).toContain("primary_address1 -> addressLine1 (where the row's first address is empty)");
    expect(describePlan(p).mapped).toContain('mailing_address1 -> addressLine1');
    expect(describePlan(p).ignored).toContain('work_address1');
    const layout = compileRowLayout(p);
    const row = (...cells: string[]): string[] => cells;
    const bothEmpty = row('1', 'Ann', 'Lee', '', '', '', '', '', '', '1 Office Park', 'Chicago', 'IL', '60601', '', '', '', '');
    expect(rowToContact(bothEmpty, layout).addresses).toEqual([]);
    const primaryOnly = row('2', 'Ann', 'Lee', '', '', '12 Elm St', 'Springfield', 'IL', '62701', '1 Office Park', 'Chicago', 'IL', '60601', '', '', '', '');
    expect(rowToContact(primaryOnly, layout).addresses).toEqual([
      { addressLine1: '12 Elm St', city: 'Springfield', stateOrProvince: 'IL', zipOrPostalCode: '62701' },
    ]);
    const mailing = row('3', 'Ann', 'Lee', '', '', '12 Elm St', 'Springfield', 'IL', '62701', '', '', '', '', 'PO Box 9', 'Springfield', 'IL', '62705');
    expect(rowToContact(mailing, layout).addresses).toEqual([
      { addressLine1: 'PO Box 9', city: 'Springfield', stateOrProvince: 'IL', zipOrPostalCode: '62705' },
    ]);
  });
});

/**
 * Scenarios of bench/probe-recall.ts: one person stored by findOrCreate, then the same person
 * (or, for `new`, a request the contract says must not match) sent again as another source
 * writes it. `expect`: `match` (302, the first record), `new` (201, a second record), or
 * `either` (the contract is silent and a precision rule decides: recorded, not scored).
 */

type Body = Record<string, unknown>;

export interface Scenario {
  readonly name: string;
  readonly group: string;
  /** Requests sent first (each findOrCreate); the first creates the person. */
  readonly before: readonly Body[];
  readonly request: Body;
  readonly expect: 'match' | 'new' | 'either';
  /** Tenant settings (configureTenant), e.g. Disable Partial Matching. */
  readonly settings?: Record<string, unknown>;
  /** Why: the contract's words or what a user expects. */
  readonly why: string;
}

const email = (e: string): Body => ({ emails: [{ email: e }] });
const phone = (p: string | number, extra: Body = {}): Body => ({ phones: [{ phoneNumber: p, ...extra }] });
const addr = (line1: string, zip: string, extra: Body = {}): Body => ({
  addresses: [{ ...(line1 === '' ? {} : { addressLine1: line1 }), city: 'New York', stateOrProvince: 'NY', zipOrPostalCode: zip, ...extra }],
});
const nm = (firstName: string, lastName: string, extra: Body = {}): Body => ({ firstName, lastName, ...extra });

const MEG = nm('Margaret', 'Sullivan');
const MEG_EMAIL = 'margaret.sullivan@example.com';
const MEG_PHONE = '2125550143';
const MEG_ADDR = addr('145 West 5th Street Apt 3B', '10011');
const MEG_DOB = { dateOfBirth: '1984-03-12' };
const FULL_MEG: Body = { ...MEG, ...email(MEG_EMAIL), ...phone(MEG_PHONE), ...MEG_ADDR, ...MEG_DOB, sex: 'F' };

const s: Scenario[] = [];
const add = (group: string, name: string, before: Body | Body[], request: Body, expect: Scenario['expect'], why: string): void => {
  s.push({ group, name, before: Array.isArray(before) ? before : [before], request, expect, why });
};

// --- Email ---
add('email', 'email upper case', { ...MEG, ...email(MEG_EMAIL) }, { ...MEG, ...email('Margaret.Sullivan@EXAMPLE.COM') }, 'match', 'ignores case');
add('email', 'email alone', { ...MEG, ...email(MEG_EMAIL) }, email(MEG_EMAIL), 'match', 'email alone is a minimum');
add('email', 'email alone, upper case', { ...MEG, ...email(MEG_EMAIL) }, email(MEG_EMAIL.toUpperCase()), 'match', 'email alone, case');
add('email', 'last name + email', { ...MEG, ...email(MEG_EMAIL) }, { lastName: 'Sullivan', ...email(MEG_EMAIL) }, 'match', 'email alone is a minimum');
add('email', 'names upper case', { ...MEG, ...email(MEG_EMAIL) }, { ...nm('MARGARET', 'SULLIVAN'), ...email(MEG_EMAIL) }, 'match', 'ignores case');
add('email', 'names padded with spaces', { ...MEG, ...email(MEG_EMAIL) }, { ...nm(' Margaret ', 'Sullivan  '), ...email(MEG_EMAIL) }, 'match', 'same name');
add(
  'email',
  'gmail dots',
  { ...MEG, ...email('margaret.sullivan@gmail.com') },
  { ...MEG, ...email('margaretsullivan@gmail.com') },
  'either',
  'contract silent',
);
add(
  'email',
  'gmail plus tag',
  { ...MEG, ...email('margaret.sullivan@gmail.com') },
  { ...MEG, ...email('margaret.sullivan+news@gmail.com') },
  'either',
  'contract silent',
);
add('email', 'googlemail domain', { ...MEG, ...email('msullivan@gmail.com') }, { ...MEG, ...email('msullivan@googlemail.com') }, 'either', 'contract silent');
add(
  'email',
  'new email, same phone',
  { ...MEG, ...email(MEG_EMAIL), ...phone(MEG_PHONE) },
  { ...MEG, ...email('meg@work.example.org'), ...phone(MEG_PHONE) },
  'match',
  'people have several emails; phone combo agrees',
);
add(
  'email',
  'same email, new phone and address',
  FULL_MEG,
  { ...MEG, ...email(MEG_EMAIL), ...phone('6465550199'), ...addr('9 Elm Rd', '11201') },
  'match',
  'moved: email combo agrees',
);
add(
  'email',
  'same email, different first name',
  { ...MEG, ...email(MEG_EMAIL) },
  { ...nm('Robert', 'Sullivan'), ...email(MEG_EMAIL) },
  'new',
  'compat: right email, clearly different first name',
);

// --- Phone ---
const phoneCases: [string, string | number, Body?][] = [
  ['+1 (212) 555-0143', '+1 (212) 555-0143'],
  ['(212) 555-0143', '(212) 555-0143'],
  ['212.555.0143', '212.555.0143'],
  ['1-212-555-0143', '1-212-555-0143'],
  ['12125550143', '12125550143'],
  ['as JSON number', 2125550143],
  ['ext field', '212-555-0143', { ext: '12' }],
  ['dialingPrefix 1', '2125550143', { dialingPrefix: '1' }],
  ['countryCode US', '2125550143', { countryCode: 'US' }],
  ['+1 212 555 0143', '+1 212 555 0143'],
];
for (const [label, p, extra] of phoneCases) {
  add('phone', `phone ${label}`, { ...MEG, ...phone(MEG_PHONE) }, { ...MEG, ...phone(p, extra ?? {}) }, 'match', 'non-numeric removed, validated');
}
add('phone', 'stored +1, sent bare', { ...MEG, ...phone('+1 212 555 0143') }, { ...MEG, ...phone('212 555 0143') }, 'match', 'same number');
add('phone', 'phone 00 1 international prefix', { ...MEG, ...phone(MEG_PHONE) }, { ...MEG, ...phone('001 212 555 0143') }, 'either', 'US dials 011, not 00');
add(
  'phone',
  'phone 011 1 international prefix',
  { ...MEG, ...phone(MEG_PHONE) },
  { ...MEG, ...phone('011 1 212 555 0143') },
  'either',
  'US international prefix',
);
add('phone', 'phone ext in string x12', { ...MEG, ...phone(MEG_PHONE) }, { ...MEG, ...phone('212-555-0143 x12') }, 'either', 'ext belongs in ext');
add('phone', 'phone ext in string "ext. 12"', { ...MEG, ...phone(MEG_PHONE) }, { ...MEG, ...phone('(212) 555-0143 ext. 12') }, 'either', 'ext belongs in ext');
add(
  'phone',
  'UK national vs +44',
  { ...MEG, ...phone('+44 20 7946 0958') },
  { ...MEG, ...phone('020 7946 0958', { countryCode: 'GB' }) },
  'match',
  'country rules with countryCode',
);
add(
  'phone',
  'UK +44 vs 0044',
  { ...MEG, ...phone('+44 20 7946 0958') },
  { ...MEG, ...phone('0044 20 7946 0958', { countryCode: 'GB' }) },
  'match',
  'GB international prefix 00',
);
add(
  'phone',
  'UK dialingPrefix 44',
  { ...MEG, ...phone('+44 20 7946 0958') },
  { ...MEG, ...phone('20 7946 0958', { dialingPrefix: '44' }) },
  'match',
  'dialingPrefix gives the country',
);
add('phone', 'phone alone (no names)', { ...MEG, ...phone(MEG_PHONE) }, phone(MEG_PHONE), 'new', 'phone alone is no minimum');
add('phone', 'first name + phone (no last)', { ...MEG, ...phone(MEG_PHONE) }, { firstName: 'Margaret', ...phone(MEG_PHONE) }, 'new', 'no minimum');
add(
  'phone',
  'phone added by update, then matched',
  [
    { ...MEG, ...email(MEG_EMAIL) },
    { ...MEG, ...email(MEG_EMAIL), ...phone(MEG_PHONE) },
  ],
  { ...MEG, ...phone('(212) 555-0143') },
  'match',
  'appended phone is on the record',
);

// --- Nicknames ---
const nick = (stored: string, sent: string, last: string, via: 'email' | 'phone' | 'dob', sex?: string, expect: Scenario['expect'] = 'match'): void => {
  const key: Body =
    via === 'email'
      ? email(`${stored.toLowerCase()}.${last.toLowerCase()}@example.net`)
      : via === 'phone'
        ? phone('3125550177')
        : { ...MEG_DOB, ...addr('1 Main St', '60601') };
  const sx = sex === undefined ? {} : { sex };
  add(
    'nickname',
    `${stored} / ${sent} via ${via}${sex === undefined ? '' : ` sex ${sex}`}`,
    { ...nm(stored, last), ...key, ...sx },
    { ...nm(sent, last), ...key, ...sx },
    expect,
    'nicknames allowed (no Disable Partial Matching)',
  );
};
nick('William', 'Bill', 'Turner', 'phone');
nick('William', 'Bill', 'Turner', 'email');
nick('William', 'Billy', 'Turner', 'email');
nick('Margaret', 'Peggy', 'Walsh', 'email');
nick('Margaret', 'Maggie', 'Walsh', 'phone');
nick('Margaret', 'Meg', 'Walsh', 'dob');
nick('Elizabeth', 'Liz', 'Baker', 'email');
nick('Elizabeth', 'Beth', 'Baker', 'phone');
nick('Elizabeth', 'Betsy', 'Baker', 'dob');
nick('Alexander', 'Sasha', 'Volkov', 'email', 'M');
nick('Alexander', 'Alex', 'Volkov', 'phone', 'M');
nick('Robert', 'Bob', 'King', 'email');
nick('Richard', 'Dick', 'King', 'phone');
nick('James', 'Jim', 'King', 'dob');
nick('Katherine', 'Kate', 'King', 'email');
nick('Patricia', 'Trish', 'King', 'email');
nick('Jennifer', 'Jen', 'Lopez', 'phone');
nick('Anthony', 'Tony', 'Russo', 'email');
nick('Bill', 'William', 'Turner', 'email');
nick('Peggy', 'Margaret', 'Walsh', 'phone');
// a woman who goes by a man's nickname
nick('Alexandra', 'Alex', 'Petrova', 'email', 'F');
nick('Samantha', 'Sam', 'Reed', 'phone', 'F');
nick('Josephine', 'Jo', 'March', 'email', 'F');
nick('Christina', 'Chris', 'Evans', 'phone', 'F');
nick('Wilhelmina', 'Billie', 'Holt', 'email', 'F');
nick('Frances', 'Frankie', 'Holt', 'email', 'F');
nick('Roberta', 'Bobbie', 'Holt', 'phone', 'F');
nick('Alexandra', 'Alex', 'Petrova', 'email');
nick('Samantha', 'Sam', 'Reed', 'phone');
nick('Christina', 'Chris', 'Evans', 'email');
nick('Stephanie', 'Steph', 'Curry', 'email', 'F');
nick('Antonia', 'Toni', 'Russo', 'email', 'F');
// a man with a name given to both sexes
add(
  'sex-names',
  'Andrea (M) exact + email',
  { ...nm('Andrea', 'Rossi'), sex: 'M', ...email('andrea.rossi@example.it') },
  { ...nm('Andrea', 'Rossi'), sex: 'M', ...email('andrea.rossi@example.it') },
  'match',
  'same person',
);
add(
  'sex-names',
  'Andrea (M) stored, sent no sex + phone',
  { ...nm('Andrea', 'Rossi'), sex: 'M', ...phone(MEG_PHONE) },
  { ...nm('Andrea', 'Rossi'), ...phone(MEG_PHONE) },
  'match',
  'same name and phone',
);
add(
  'sex-names',
  'Andrea no sex stored, sent M + email',
  { ...nm('Andrea', 'Rossi'), ...email('andrea.rossi@example.it') },
  { ...nm('Andrea', 'Rossi'), sex: 'M', ...email('andrea.rossi@example.it') },
  'match',
  'same',
);
add(
  'sex-names',
  'Jean (M) exact + phone',
  { ...nm('Jean', 'Dupont'), sex: 'M', ...phone(MEG_PHONE) },
  { ...nm('Jean', 'Dupont'), sex: 'M', ...phone(MEG_PHONE) },
  'match',
  'same',
);
add(
  'sex-names',
  'Jean (M) address gate',
  { ...nm('Jean', 'Dupont'), sex: 'M', ...MEG_ADDR },
  { ...nm('Jean', 'Dupont'), sex: 'M', ...addr('145 W 5th St Apt 3B', '10011') },
  'match',
  'same',
);
add(
  'sex-names',
  'Marian (M) exact + email',
  { ...nm('Marian', 'Kowalski'), sex: 'M', ...email('mk@example.pl') },
  { ...nm('Marian', 'Kowalski'), sex: 'M', ...email('mk@example.pl') },
  'match',
  'same',
);
add(
  'sex-names',
  'Marian (M) dob gate',
  { ...nm('Marian', 'Kowalski'), sex: 'M', ...MEG_DOB, ...addr('1 Main St', '60601') },
  { ...nm('Marian', 'Kowalski'), ...MEG_DOB, ...addr('', '60601') },
  'match',
  'same',
);
add(
  'sex-names',
  'Nicola (M) exact + email',
  { ...nm('Nicola', 'Bruno'), sex: 'M', ...email('nb@example.it') },
  { ...nm('Nicola', 'Bruno'), ...email('nb@example.it') },
  'match',
  'same',
);
add(
  'sex-names',
  'Kim (M) + phone',
  { ...nm('Kim', 'Larsen'), sex: 'M', ...phone(MEG_PHONE) },
  { ...nm('Kim', 'Larsen'), sex: 'M', ...phone(MEG_PHONE) },
  'match',
  'same',
);
add(
  'sex-names',
  'Antonio stored, Antonia typo, sex M both + email + dob',
  { ...nm('Antonio', 'Russo'), sex: 'M', ...email('ar@example.com'), ...MEG_DOB },
  { ...nm('Antonia', 'Russo'), sex: 'M', ...email('ar@example.com'), ...MEG_DOB },
  'match',
  'README: same sex given, spelling decides',
);
add(
  'sex-names',
  'Antonia typo stored (sex M), Antonio sex M + phone',
  { ...nm('Antonia', 'Russo'), sex: 'M', ...phone(MEG_PHONE) },
  { ...nm('Antonio', 'Russo'), sex: 'M', ...phone(MEG_PHONE) },
  'match',
  'README: same sex given, spelling decides',
);
add(
  'sex-names',
  'Daniel / Danielle no sex + email',
  { ...nm('Daniel', 'Brooks'), ...email('db@example.com') },
  { ...nm('Danielle', 'Brooks'), ...email('db@example.com') },
  'either',
  'README precision rule',
);
add(
  'sex-names',
  'Antonio / Antonia no sex + email',
  { ...nm('Antonio', 'Russo'), ...email('ar@example.com') },
  { ...nm('Antonia', 'Russo'), ...email('ar@example.com') },
  'either',
  'README precision rule: twins',
);
add(
  'sex-names',
  'Antonio sex M exact repeat + email',
  { ...nm('Antonio', 'Russo'), sex: 'M', ...email('ar@example.com') },
  { ...nm('Antonio', 'Russo'), ...email('ar@example.com') },
  'match',
  'exact',
);
add(
  'sex-names',
  'stored sex F, sent lowercase f',
  { ...MEG, sex: 'F', ...email(MEG_EMAIL) },
  { ...MEG, sex: 'f', ...email(MEG_EMAIL) },
  'match',
  'codes in any case',
);

// --- Accents and script ---
const same = (group: string, a: Body, b: Body, key: Body, expect: Scenario['expect'], why: string): void => {
  add(group, `${String(a.firstName)} ${String(a.lastName)} / ${String(b.firstName)} ${String(b.lastName)}`, { ...a, ...key }, { ...b, ...key }, expect, why);
};
const E = email('person@example.org');
const P = phone('3055550123');
same('accents', nm('José', 'García'), nm('Jose', 'Garcia'), E, 'match', 'ignores accents');
same('accents', nm('JOSÉ', 'GARCÍA'), nm('josé', 'garcía'), P, 'match', 'ignores case');
same('accents', nm('Jose', 'Garcia'), nm('José', 'García'), P, 'match', 'ignores accents');
same('accents', nm('Jürgen', 'Müller'), nm('Jurgen', 'Muller'), E, 'match', 'ignores accents');
same('accents', nm('Jürgen', 'Müller'), nm('Juergen', 'Mueller'), E, 'match', 'German transliteration');
same('accents', nm('Jürgen', 'Müller'), nm('Juergen', 'Mueller'), P, 'match', 'German transliteration');
same('accents', nm('Hans', 'Strauß'), nm('Hans', 'Strauss'), E, 'match', 'ß = ss');
same('accents', nm('Seán', 'Ó Briain'), nm('Sean', 'O Briain'), E, 'match', 'accents');
same('accents', nm('Seán', 'Ó Briain'), nm('Sean', "O'Briain"), P, 'match', 'apostrophe');
same('accents', nm('Seán', 'Ó Briain'), nm('Sean', 'OBriain'), E, 'match', 'space dropped');
same('accents', nm('Siobhán', "O'Neill"), nm('Siobhan', 'ONeill'), P, 'match', 'apostrophe');
same('accents', nm('Thi', 'Nguyễn'), nm('Thi', 'Nguyen'), E, 'match', 'accents');
same('accents', nm('Ayşe', 'Işık'), nm('Ayse', 'Isik'), E, 'match', 'Turkish letters');
same('accents', nm('Zoë', 'Brontë'), nm('Zoe', 'Bronte'), P, 'match', 'diaeresis');
same('accents', nm('Łukasz', 'Wałęsa'), nm('Lukasz', 'Walesa'), E, 'match', 'Polish letters');
same('accents', nm('François', 'Lefèvre'), nm('Francois', 'Lefevre'), P, 'match', 'accents');
same('script', nm('Дмитрий', 'Иванов'), nm('Dmitriy', 'Ivanov'), E, 'match', 'transliterated source');
same('script', nm('Дмитрий', 'Иванов'), nm('Dmitry', 'Ivanov'), P, 'match', 'transliterated source');
same('script', nm('Γιώργος', 'Παπαδόπουλος'), nm('Giorgos', 'Papadopoulos'), E, 'match', 'transliterated source');
same('script', nm('Дмитрий', 'Иванов'), nm('Дмитрий', 'Иванов'), P, 'match', 'same script exact');
same('script', nm('伟', '张'), nm('Wei', 'Zhang'), E, 'either', 'romanization');
same('script', nm('Wei', 'Zhang'), nm('Zhang', 'Wei'), P, 'match', 'README: swapped beside phone');
// --- Surnames ---
same('surname', nm('María', 'García López'), nm('Maria', 'Garcia'), E, 'match', 'double surname, first only');
same('surname', nm('María', 'García López'), nm('Maria', 'García-López'), P, 'match', 'hyphen');
same('surname', nm('María', 'García-López'), nm('Maria', 'Garcia Lopez'), E, 'match', 'hyphen vs space');
same('surname', nm('María', 'García-López'), nm('Maria', 'Garcia'), P, 'match', 'double surname, first only');
same('surname', nm('Ana', 'de la Cruz'), nm('Ana', 'Dela Cruz'), E, 'match', 'particle spacing');
same('surname', nm('Ana', 'de la Cruz'), nm('Ana', 'Delacruz'), P, 'match', 'particle spacing');
same('surname', nm('Pieter', 'van der Berg'), nm('Pieter', 'Vanderberg'), E, 'match', 'particle spacing');
same('surname', nm('Ryan', 'McDonald'), nm('Ryan', 'Mc Donald'), P, 'match', 'Mc spacing');
same('surname', nm('Mary', 'St. John'), nm('Mary', 'Saint John'), E, 'match', 'Saint/St');
same('surname', nm('Anne', 'Smith-Jones'), nm('Anne', 'Jones'), E, 'either', 'second part only');
same('surname', nm('Margaret', 'Sullivan'), nm('Margaret', 'Sulivan'), E, 'match', 'surname typo beside email');
add(
  'surname',
  'maiden -> married, same email+phone+dob',
  { ...MEG, ...email(MEG_EMAIL), ...phone(MEG_PHONE), ...MEG_DOB },
  { ...nm('Margaret', "O'Connor"), ...email(MEG_EMAIL), ...phone(MEG_PHONE), ...MEG_DOB },
  'match',
  'README: changed name through the email',
);
add(
  'surname',
  'maiden -> married, same email+phone',
  { ...MEG, ...email(MEG_EMAIL), ...phone(MEG_PHONE) },
  { ...nm('Margaret', "O'Connor"), ...email(MEG_EMAIL), ...phone(MEG_PHONE) },
  'either',
  'README: needs dob',
);
add(
  'surname',
  'maiden -> hyphenated married, email',
  { ...MEG, ...email(MEG_EMAIL) },
  { ...nm('Margaret', "Sullivan-O'Connor"), ...email(MEG_EMAIL) },
  'match',
  'maiden kept in a double name',
);
// --- Name order, middle names, suffixes ---
add(
  'order',
  'swapped + email',
  { ...MEG, ...email(MEG_EMAIL) },
  { ...nm('Sullivan', 'Margaret'), ...email(MEG_EMAIL) },
  'match',
  'README: swapped beside email',
);
add(
  'order',
  'swapped + phone',
  { ...MEG, ...phone(MEG_PHONE) },
  { ...nm('Sullivan', 'Margaret'), ...phone(MEG_PHONE) },
  'match',
  'README: swapped beside phone',
);
add(
  'order',
  'swapped + dob + street + zip',
  { ...MEG, ...MEG_ADDR, ...MEG_DOB },
  { ...nm('Sullivan', 'Margaret'), ...MEG_ADDR, ...MEG_DOB },
  'match',
  'README: swapped beside dob and street',
);
add('middle', 'middle name on one only', { ...MEG, middleName: 'Ann', ...email(MEG_EMAIL) }, { ...MEG, ...email(MEG_EMAIL) }, 'match', 'more data');
add(
  'middle',
  'middle initial vs full',
  { ...MEG, middleName: 'Ann', ...phone(MEG_PHONE) },
  { ...MEG, middleName: 'A.', ...phone(MEG_PHONE) },
  'match',
  'initial',
);
add(
  'middle',
  'middle name in first name field',
  { ...MEG, middleName: 'Ann', ...phone(MEG_PHONE) },
  { ...nm('Margaret Ann', 'Sullivan'), ...phone(MEG_PHONE) },
  'match',
  'same name',
);
add(
  'middle',
  'middle initial in first name field',
  { ...MEG, ...email(MEG_EMAIL) },
  { ...nm('Margaret A.', 'Sullivan'), ...email(MEG_EMAIL) },
  'match',
  'same name',
);
add(
  'middle',
  'goes by middle name',
  { ...nm('James', 'Carter', { middleName: 'Earl' }), ...email('jec@example.com'), ...MEG_DOB },
  { ...nm('Earl', 'Carter'), ...email('jec@example.com'), ...MEG_DOB },
  'either',
  'README: at most possible',
);
add(
  'middle',
  'first initial + middle name',
  { ...nm('John', 'Hancock', { middleName: 'Paul' }), ...email('jph@example.com') },
  { ...nm('J. Paul', 'Hancock'), ...email('jph@example.com') },
  'either',
  'initial',
);
add(
  'middle',
  'Mary Ann / Maryann',
  { ...nm('Mary Ann', 'Lee'), ...email('mal@example.com') },
  { ...nm('Maryann', 'Lee'), ...email('mal@example.com') },
  'match',
  'spacing',
);
add('middle', 'Mary-Ann / Mary Ann', { ...nm('Mary-Ann', 'Lee'), ...phone(MEG_PHONE) }, { ...nm('Mary Ann', 'Lee'), ...phone(MEG_PHONE) }, 'match', 'hyphen');
add(
  'middle',
  'Jean-Pierre / Jean Pierre',
  { ...nm('Jean-Pierre', 'Roux'), ...phone(MEG_PHONE) },
  { ...nm('Jean Pierre', 'Roux'), ...phone(MEG_PHONE) },
  'match',
  'hyphen',
);
add(
  'suffix',
  'suffix on one only + email',
  { ...nm('Gregory', 'Olerton'), suffix: 'Jr', ...email('golerton@example.com') },
  { ...nm('Gregory', 'Olerton'), ...email('golerton@example.com') },
  'either',
  'README: at most possible w/o dob',
);
add(
  'suffix',
  'suffix on one only + email + dob',
  { ...nm('Gregory', 'Olerton'), suffix: 'Jr', ...email('golerton@example.com'), ...MEG_DOB },
  { ...nm('Gregory', 'Olerton'), ...email('golerton@example.com'), ...MEG_DOB },
  'match',
  'README: dob agrees',
);
add(
  'suffix',
  'Jr / Jr.',
  { ...nm('Gregory', 'Olerton'), suffix: 'Jr', ...email('golerton@example.com') },
  { ...nm('Gregory', 'Olerton'), suffix: 'Jr.', ...email('golerton@example.com') },
  'match',
  'same suffix',
);
add(
  'suffix',
  'Jr / Junior',
  { ...nm('Gregory', 'Olerton'), suffix: 'Jr', ...phone(MEG_PHONE) },
  { ...nm('Gregory', 'Olerton'), suffix: 'Junior', ...phone(MEG_PHONE) },
  'match',
  'same suffix',
);
add(
  'suffix',
  'III / 3rd',
  { ...nm('Gregory', 'Olerton'), suffix: 'III', ...email('golerton@example.com') },
  { ...nm('Gregory', 'Olerton'), suffix: '3rd', ...email('golerton@example.com') },
  'match',
  'same suffix',
);
add(
  'suffix',
  'suffix in last name field',
  { ...nm('Gregory', 'Olerton'), suffix: 'Jr', ...email('golerton@example.com') },
  { ...nm('Gregory', 'Olerton Jr.'), ...email('golerton@example.com') },
  'match',
  'same suffix elsewhere',
);
add(
  'suffix',
  'suffix in last name field, comma',
  { ...nm('Gregory', 'Olerton'), suffix: 'III', ...phone(MEG_PHONE) },
  { ...nm('Gregory', 'Olerton, III'), ...phone(MEG_PHONE) },
  'match',
  'same suffix elsewhere',
);
add(
  'suffix',
  'Jr vs Sr + email',
  { ...nm('Gregory', 'Olerton'), suffix: 'Jr', ...email('golerton@example.com') },
  { ...nm('Gregory', 'Olerton'), suffix: 'Sr', ...email('golerton@example.com') },
  'new',
  'README: Jr and Sr stay two people',
);
add('suffix', 'title Dr. in first name', { ...MEG, ...email(MEG_EMAIL) }, { ...nm('Dr. Margaret', 'Sullivan'), ...email(MEG_EMAIL) }, 'match', 'honorific');

// --- Addresses (gate first+last+street number+street name+zip5) ---
const A0 = addr('145 West 5th Street Apt 3B', '10011');
const addrCase = (label: string, a: Body, b: Body, expect: Scenario['expect'] = 'match', why = 'same address written another way'): void => {
  add('address', label, { ...MEG, ...a }, { ...MEG, ...b }, expect, why);
};
addrCase('St / Street, W / West, # / Apt', A0, addr('145 W 5th St #3B', '10011'));
addrCase('Fifth / 5th', A0, addr('145 West Fifth Street, Apt 3B', '10011'));
addrCase('Apartment / Apt', A0, addr('145 West 5th Street Apartment 3B', '10011'));
addrCase('Unit / Apt', A0, addr('145 West 5th Street Unit 3B', '10011'));
addrCase('unit in line 2', A0, addr('145 West 5th Street', '10011', { addressLine2: 'Apt 3B' }));
addrCase('unit missing on one', A0, addr('145 West 5th Street', '10011'));
addrCase('zip+4', A0, addr('145 West 5th Street Apt 3B', '10011-2345'));
addrCase('zip+4 no hyphen', A0, addr('145 West 5th Street Apt 3B', '100112345'));
addrCase('upper case, no punctuation', A0, addr('145 WEST 5TH ST APT 3B', '10011'));
addrCase('Avenue / Ave', addr('220 North Maple Avenue', '10011'), addr('220 N Maple Ave', '10011'));
addrCase('North / N, Boulevard / Blvd', addr('78 North Ocean Boulevard', '10011'), addr('78 N. Ocean Blvd.', '10011'));
addrCase('Road / Rd, Drive / Dr', addr('12 Copland Drive', '10011'), addr('12 Copland Dr', '10011'));
addrCase('Saint / St street name', addr('40 Saint Marks Place', '10011'), addr('40 St Marks Pl', '10011'));
addrCase('First / 1st', addr('10 First Avenue', '10011'), addr('10 1st Ave', '10011'));
addrCase('Twenty-Third / 23rd', addr('300 West Twenty-Third Street', '10011'), addr('300 W 23rd St', '10011'));
addrCase('One / 1 house number', addr('One Main Street', '10011'), addr('1 Main St', '10011'), 'either', 'spelled house number');
addrCase('Highway / Hwy', addr('4500 Pacific Coast Highway', '10011'), addr('4500 Pacific Coast Hwy', '10011'));
addrCase('Suite / Ste', addr('500 Park Avenue Suite 200', '10011'), addr('500 Park Ave Ste 200', '10011'));
addrCase('Floor / Fl', addr('500 Park Avenue 2nd Floor', '10011'), addr('500 Park Ave Fl 2', '10011'));
addrCase('half house number', addr('12 1/2 Elm Street', '10011'), addr('12½ Elm St', '10011'), 'either', 'fraction');
addrCase('house number with letter', addr('12A Elm Street', '10011'), addr('12 A Elm St', '10011'));
addrCase('zip lost leading zero', addr('9 Elm Street', '02134'), addr('9 Elm St', '2134'), 'either', 'spreadsheet-dropped zero');
addrCase('PO Box', addr('PO Box 123', '10011'), addr('P.O. Box 123', '10011'), 'either', 'a PO box is no street');
addrCase('different street number', A0, addr('147 West 5th Street Apt 3B', '10011'), 'new', 'street number disagrees: no minimum agrees');
addrCase(
  'street without zip',
  A0,
  { addresses: [{ addressLine1: '145 West 5th Street Apt 3B', city: 'New York', stateOrProvince: 'NY' }] },
  'new',
  'zip5 missing: no minimum',
);
addrCase('street, zip, no number', addr('West 5th Street', '10011'), addr('West 5th Street', '10011'), 'new', 'no street number: no minimum');
addrCase('different apt, same building', A0, addr('145 West 5th Street Apt 12', '10011'), 'new', 'README: another flat');

// --- Date of birth (gate first+last+zip5+dob) ---
const dobCase = (label: string, a: string, b: string, expect: Scenario['expect'] = 'match', why = 'ISO 8601'): void => {
  add('dob', label, { ...MEG, dateOfBirth: a, ...addr('', '10011') }, { ...MEG, dateOfBirth: b, ...addr('', '10011') }, expect, why);
};
dobCase('date vs datetime Z', '1984-03-12', '1984-03-12T00:00:00Z');
dobCase('date vs datetime no zone', '1984-03-12', '1984-03-12T00:00:00');
dobCase('date vs datetime ms Z', '1984-03-12', '1984-03-12T00:00:00.000Z');
dobCase('datetime -05:00', '1984-03-12', '1984-03-12T00:00:00-05:00');
dobCase('datetime +02:00', '1984-03-12', '1984-03-12T00:00:00+02:00', 'match', 'a birth date is a date, not an instant');
dobCase('datetime +14:00', '1984-03-12T00:00:00Z', '1984-03-12T00:00:00+14:00', 'match', 'a birth date is a date, not an instant');
dobCase('zip+4 with dob', '1984-03-12', '1984-03-12');
add('dob', 'dob + zip+4', { ...MEG, ...MEG_DOB, ...addr('', '10011') }, { ...MEG, ...MEG_DOB, ...addr('', '10011-4402') }, 'match', 'ZIP+4 holds zip5');
add(
  'dob',
  'dob gate, nickname',
  { ...MEG, ...MEG_DOB, ...addr('', '10011') },
  { ...nm('Peggy', 'Sullivan'), ...MEG_DOB, ...addr('', '10011') },
  'match',
  'README: nickname beside dob',
);
add(
  'dob',
  'dob gate, address written another way',
  { ...MEG, ...MEG_DOB, ...A0 },
  { ...MEG, ...MEG_DOB, ...addr('145 W 5th St', '10011') },
  'match',
  'dob gate',
);
add(
  'dob',
  'day and month swapped + email',
  { ...MEG, ...MEG_DOB, ...email(MEG_EMAIL) },
  { ...MEG, dateOfBirth: '1984-12-03', ...email(MEG_EMAIL) },
  'match',
  'README: swapped still match',
);
add('dob', 'dob without zip', { ...MEG, ...MEG_DOB }, { ...MEG, ...MEG_DOB }, 'new', 'no minimum');
add('dob', 'zip without dob', { ...MEG, ...addr('', '10011') }, { ...MEG, ...addr('', '10011') }, 'new', 'no minimum');
add(
  'dob',
  'different dob, zip',
  { ...MEG, ...MEG_DOB, ...addr('', '10011') },
  { ...MEG, dateOfBirth: '1962-07-30', ...addr('', '10011') },
  'new',
  'criterion disagrees',
);
add('dob', 'first+last only', MEG, MEG, 'new', 'below minimum');
add('dob', 'first+last only, stored full', FULL_MEG, MEG, 'new', 'below minimum');

// --- Full records, several differences at once ---
add(
  'mixed',
  'full record, every field rewritten',
  FULL_MEG,
  {
    ...nm('PEGGY', 'SULLIVAN'),
    ...email('Margaret.Sullivan@Example.com'),
    ...phone('+1 (212) 555-0143'),
    ...addr('145 W Fifth St #3B', '10011-2345'),
    dateOfBirth: '1984-03-12T00:00:00Z',
    sex: 'f',
  },
  'match',
  'every criterion agrees',
);
add(
  'mixed',
  'nickname + phone + same address',
  FULL_MEG,
  { ...nm('Peggy', 'Sullivan'), ...phone(MEG_PHONE), ...A0 },
  'either',
  'README: household landline needs more',
);
add(
  'mixed',
  'nickname + phone + same address + dob',
  FULL_MEG,
  { ...nm('Peggy', 'Sullivan'), ...phone(MEG_PHONE), ...A0, ...MEG_DOB },
  'match',
  'README: dob lets it through',
);
add(
  'mixed',
  'married name + new email + same phone + dob + address',
  FULL_MEG,
  { ...nm('Margaret', 'Reilly'), ...email('mreilly@example.com'), ...phone(MEG_PHONE), ...MEG_DOB, ...A0 },
  'either',
  'README: phone needs surname',
);
add(
  'mixed',
  'married name + same email + dob',
  FULL_MEG,
  { ...nm('Margaret', 'Reilly'), ...email(MEG_EMAIL), ...MEG_DOB },
  'match',
  'README: changed name through the email',
);
add(
  'mixed',
  'accent + nickname + phone format',
  { ...nm('José', 'Hernández'), ...phone('3055550123') },
  { ...nm('Pepe', 'Hernandez'), ...phone('(305) 555-0123') },
  'match',
  'Pepe is Jose',
);
add(
  'mixed',
  'swapped + accents + email',
  { ...nm('José', 'García'), ...E },
  { ...nm('GARCIA', 'JOSE'), ...email('PERSON@example.org') },
  'match',
  'swapped beside email',
);

// --- Round 2: more sex-coded nicknames and typos ---
nick('Samuel', 'Sam', 'Reed', 'email', 'M');
nick('Christopher', 'Chris', 'Evans', 'phone', 'M');
nick('Patrick', 'Pat', 'Quinn', 'email', 'M');
nick('Patricia', 'Pat', 'Quinn', 'email', 'F');
nick('Jacqueline', 'Jackie', 'Kerr', 'phone', 'F');
nick('Nicole', 'Nikki', 'Kerr', 'email', 'F');
nick('Veronica', 'Ronnie', 'Kerr', 'email', 'F');
nick('Gabrielle', 'Gabby', 'Kerr', 'phone', 'F');
nick('Alexandra', 'Sasha', 'Volkova', 'email', 'F');
nick('Alexandra', 'Sasha', 'Volkova', 'phone');
nick('Josephine', 'Jo', 'March', 'phone');
nick('Joanna', 'Jo', 'March', 'email', 'F');
nick('Frances', 'Fran', 'Holt', 'phone', 'F');
nick('Francis', 'Frank', 'Holt', 'phone', 'M');
nick('José', 'Pepe', 'Hernández', 'email');
nick('Francisco', 'Paco', 'Ruiz', 'email');
nick('Giuseppe', 'Beppe', 'Rossi', 'email');
nick('Aleksandr', 'Sasha', 'Orlov', 'email', 'M');
nick('Johann', 'Hans', 'Weber', 'email');
nick('Elizabeth', 'Betty', 'Baker', 'phone', 'F');
nick('Margaret', 'Greta', 'Walsh', 'email', 'F');
nick('Theodore', 'Ted', 'Fox', 'phone', 'M');
nick('Edward', 'Ted', 'Fox', 'email', 'M');
add(
  'sex-names',
  'Antonia typo, request sex M only, email + dob',
  { ...nm('Antonio', 'Russo'), ...email('ar@example.com'), ...MEG_DOB },
  { ...nm('Antonia', 'Russo'), sex: 'M', ...email('ar@example.com'), ...MEG_DOB },
  'either',
  'request says male: likely typo',
);
add(
  'sex-names',
  'Antonia typo, stored sex M, request no sex, email + dob',
  { ...nm('Antonio', 'Russo'), sex: 'M', ...email('ar@example.com'), ...MEG_DOB },
  { ...nm('Antonia', 'Russo'), ...email('ar@example.com'), ...MEG_DOB },
  'either',
  'README: twins',
);
add(
  'sex-names',
  'Jean (F) exact + email',
  { ...nm('Jean', 'Smith'), sex: 'F', ...email('js@example.com') },
  { ...nm('Jean', 'Smith'), sex: 'F', ...email('js@example.com') },
  'match',
  'same',
);
add(
  'sex-names',
  'Jean (M) exact, address gate, other sex-neutral',
  { ...nm('Jean', 'Smith'), sex: 'M', ...MEG_ADDR, ...MEG_DOB },
  { ...nm('Jean', 'Smith'), ...addr('145 W 5th St Apt 3B', '10011') },
  'match',
  'address gate',
);
add(
  'sex-names',
  'Andrea (M) nickname Andy + email',
  { ...nm('Andrea', 'Rossi'), sex: 'M', ...email('andrea.rossi@example.it') },
  { ...nm('Andy', 'Rossi'), sex: 'M', ...email('andrea.rossi@example.it') },
  'match',
  'nickname',
);
add(
  'sex-names',
  'Michele (M, Italian) exact + phone',
  { ...nm('Michele', 'Bianchi'), sex: 'M', ...phone(MEG_PHONE) },
  { ...nm('Michele', 'Bianchi'), sex: 'M', ...phone(MEG_PHONE) },
  'match',
  'same',
);
add(
  'sex-names',
  'Michele (M) vs Michael + email + dob',
  { ...nm('Michele', 'Bianchi'), sex: 'M', ...email('mb@example.it'), ...MEG_DOB },
  { ...nm('Michael', 'Bianchi'), sex: 'M', ...email('mb@example.it'), ...MEG_DOB },
  'either',
  'anglicized',
);
add(
  'sex-names',
  'Carl / Cari both sex M + phone',
  { ...nm('Carl', 'Olson'), sex: 'M', ...phone(MEG_PHONE) },
  { ...nm('Cari', 'Olson'), sex: 'M', ...phone(MEG_PHONE) },
  'match',
  'README: same sex, spelling decides',
);
add(
  'sex-names',
  'Jessie/Jesse same email, both sex M',
  { ...nm('Jesse', 'Lane'), sex: 'M', ...email('jl@example.com') },
  { ...nm('Jessie', 'Lane'), sex: 'M', ...email('jl@example.com') },
  'match',
  'spelling variant, same sex',
);
add(
  'sex-names',
  'Frances / Francis both sex F + email',
  { ...nm('Frances', 'Holt'), sex: 'F', ...email('fh@example.com') },
  { ...nm('Francis', 'Holt'), sex: 'F', ...email('fh@example.com') },
  'match',
  'README: same sex given, spelling decides',
);
// --- Round 2: names ---
same('names', nm('Anne-Marie', 'Dubois'), nm('Annemarie', 'Dubois'), E, 'match', 'spacing');
same('names', nm('Anne-Marie', 'Dubois'), nm('Anne Marie', 'Dubois'), P, 'match', 'hyphen');
same('names', nm('Anne-Marie', 'Dubois'), nm('Anne', 'Dubois'), E, 'match', 'first part');
same('names', nm('Juan Carlos', 'Pérez'), nm('Juan', 'Perez'), E, 'match', 'first part');
same('names', nm('Juan Carlos', 'Pérez'), nm('Juan-Carlos', 'Perez'), P, 'match', 'hyphen');
same('names', nm('Juan Carlos', 'Pérez'), nm('JuanCarlos', 'Perez'), P, 'match', 'space dropped');
same('names', nm('Margaret', 'Sullivan'), nm('Margaret.', 'Sullivan.'), E, 'match', 'punctuation');
same('names', nm('William', 'Turner'), nm('William "Bill"', 'Turner'), E, 'match', 'nickname in quotes');
same('names', nm('William', 'Turner'), nm('Bill (William)', 'Turner'), P, 'either', 'nickname in parentheses');
same('names', nm('Ryan', 'MC DONALD'), nm('Ryan', 'McDonald'), E, 'match', 'Mc spacing');
same('names', nm('Ryan', 'MacDonald'), nm('Ryan', 'McDonald'), P, 'match', 'Mac/Mc');
same('names', nm('Siobhán', 'Ó Briain'), nm('Siobhan', "O'Brien"), E, 'either', 'anglicized');
same('names', nm('Hans', 'Strauß'), nm('Hans', 'STRAUSS'), P, 'match', 'ß = ss');
same('names', nm('Søren', 'Kierkegaard'), nm('Soren', 'Kierkegaard'), P, 'match', 'ø');
same('names', nm('Søren', 'Kierkegaard'), nm('Soeren', 'Kierkegaard'), E, 'match', 'ø = oe');
same('names', nm('Björn', 'Ångström'), nm('Bjoern', 'Angstroem'), E, 'match', 'transliteration');
same('names', nm('Jürgen', 'Müller'), nm('Juergen', 'Müller'), P, 'match', 'mixed');
same('names', nm('Jürgen', 'Müller'), nm('Jurgen', 'Mueller'), P, 'match', 'mixed');
same('names', nm('Juergen', 'Mueller'), nm('Jürgen', 'Müller'), P, 'match', 'reverse direction');
same('names', nm('Александр', 'Смирнов'), nm('Aleksandr', 'Smirnov'), P, 'match', 'transliteration');
same('names', nm('Александр', 'Смирнов'), nm('Alexander', 'Smirnov'), E, 'match', 'transliteration');
same('names', nm('Юлия', 'Кузнецова'), nm('Yulia', 'Kuznetsova'), P, 'match', 'transliteration');
same('names', nm('Юлия', 'Кузнецова'), nm('Julia', 'Kuznetsova'), E, 'match', 'transliteration');
same('names', nm('Сергей', 'Соколов'), nm('Sergey', 'Sokolov'), P, 'match', 'transliteration');
same('names', nm('Сергей', 'Соколов'), nm('Sergei', 'Sokolov'), P, 'match', 'transliteration');
same('names', nm('Андрей', 'Попов'), nm('Andrei', 'Popov'), P, 'match', 'transliteration');
same('names', nm('Андрей', 'Попов'), nm('Andrey', 'Popov'), P, 'match', 'transliteration');
same('names', nm('Евгений', 'Попов'), nm('Evgeny', 'Popov'), P, 'match', 'transliteration');
same('names', nm('Евгений', 'Попов'), nm('Yevgeniy', 'Popov'), E, 'match', 'transliteration');
same('names', nm('Дмитрий', 'Иванов'), nm('Dmitri', 'Ivanov'), P, 'match', 'transliteration');
same('names', nm('Наталья', 'Волкова'), nm('Natalya', 'Volkova'), P, 'match', 'transliteration');
same('names', nm('Наталья', 'Волкова'), nm('Natalia', 'Volkova'), P, 'match', 'transliteration');
same('names', nm('Dmitry', 'Ivanov'), nm('Dmitriy', 'Ivanov'), P, 'match', 'transliteration');
same('names', nm('Dmitri', 'Ivanov'), nm('Dmitry', 'Ivanov'), P, 'match', 'transliteration');
same('names', nm('Mohammed', 'Khan'), nm('Muhammad', 'Khan'), P, 'match', 'transliteration');
same('names', nm('Mohammed', 'Khan'), nm('Mohamed', 'Khan'), E, 'match', 'transliteration');
same('names', nm('محمد', 'خان'), nm('Mohammed', 'Khan'), E, 'either', 'Arabic script');
same('names', nm('Nguyễn Văn', 'An'), nm('Nguyen Van', 'An'), P, 'match', 'accents');
same('names', nm('Thị Hương', 'Trần'), nm('Thi Huong', 'Tran'), P, 'match', 'accents');
// --- Round 2: addresses and phones ---
addrCase('post-directional', addr('145 5th Street West', '10011'), addr('145 W 5th St', '10011'), 'either', 'directional moved');
addrCase('no street type', addr('145 West 5th Street', '10011'), addr('145 West 5th', '10011'));
addrCase('Apt 3-B', A0, addr('145 West 5th Street Apt 3-B', '10011'));
addrCase('Apt #3B', A0, addr('145 West 5th Street Apt #3B', '10011'));
addrCase('unit alone in line 2', A0, addr('145 West 5th Street', '10011', { addressLine2: '3B' }));
addrCase('comma before unit', A0, addr('145 West 5th Street, Apt. 3B', '10011'));
addrCase('stored zip+4, sent zip5', addr('145 West 5th Street Apt 3B', '10011-2345'), A0);
addrCase('house number with hyphen letter', addr('12A Elm Street', '10011'), addr('12-A Elm St', '10011'));
addrCase('house number letter lower case', addr('12A Elm Street', '10011'), addr('12a Elm Street', '10011'));
addrCase('Queens hyphenated number', addr('45-12 Queens Boulevard', '11104'), addr('4512 Queens Blvd', '11104'));
addrCase('Twenty Third (no hyphen)', addr('300 West Twenty Third Street', '10011'), addr('300 W 23rd St', '10011'));
addrCase('Forty-Second / 42nd', addr('5 East Forty-Second Street', '10017'), addr('5 E 42nd St', '10017'));
addrCase('Hundredth / 100th', addr('5 West One Hundredth Street', '10025'), addr('5 W 100th St', '10025'), 'either', 'long ordinal');
addrCase('Twenty-First / 21st', addr('9 Twenty-First Avenue', '10011'), addr('9 21st Ave', '10011'));
addrCase('23 / 23rd', addr('300 West 23rd Street', '10011'), addr('300 West 23 Street', '10011'));
addrCase('Mount / Mt', addr('7 Mount Vernon Street', '10011'), addr('7 Mt Vernon St', '10011'));
addrCase('Fort / Ft', addr('7 Fort Washington Avenue', '10032'), addr('7 Ft Washington Ave', '10032'));
addrCase('Parkway / Pkwy', addr('7 Eastern Parkway', '11238'), addr('7 Eastern Pkwy', '11238'));
addrCase('Place / Pl, Court / Ct', addr('7 Hilton Court', '10011'), addr('7 Hilton Ct', '10011'));
addrCase('Lane / Ln', addr('7 Cherry Lane', '10011'), addr('7 Cherry Ln', '10011'));
addrCase('Terrace / Ter', addr('7 Cherry Terrace', '10011'), addr('7 Cherry Ter', '10011'));
addrCase('Northeast / NE', addr('7 Northeast Cherry Street', '10011'), addr('7 NE Cherry St', '10011'));
addrCase('Street typo', A0, addr('145 West 5th Streeet Apt 3B', '10011'));
addrCase('street name typo', addr('12 Copland Drive', '10011'), addr('12 Copeland Drive', '10011'));
add(
  'phone',
  'phoneType differs',
  { ...MEG, phones: [{ phoneNumber: MEG_PHONE, phoneType: 'C' }] },
  { ...MEG, phones: [{ phoneNumber: MEG_PHONE, phoneType: 'H' }] },
  'match',
  'same number',
);
add('phone', 'countryCode lower case', { ...MEG, ...phone(MEG_PHONE) }, { ...MEG, ...phone(MEG_PHONE, { countryCode: 'us' }) }, 'match', 'codes any case');
add(
  'phone',
  'dialingPrefix and countryCode',
  { ...MEG, ...phone(MEG_PHONE) },
  { ...MEG, ...phone('+1-212-555-0143', { countryCode: 'US', dialingPrefix: '1' }) },
  'match',
  'same',
);
add(
  'phone',
  'second phone on the stored record',
  { ...MEG, phones: [{ phoneNumber: '6465550199' }, { phoneNumber: MEG_PHONE }] },
  { ...MEG, ...phone(MEG_PHONE) },
  'match',
  'any stored phone',
);
add(
  'phone',
  'second phone on the request',
  { ...MEG, ...phone(MEG_PHONE) },
  { ...MEG, phones: [{ phoneNumber: '6465550199' }, { phoneNumber: MEG_PHONE }] },
  'match',
  'any sent phone',
);
add(
  'email',
  'second email on the request',
  { ...MEG, ...email(MEG_EMAIL) },
  { ...MEG, emails: [{ email: 'meg@work.example.org' }, { email: MEG_EMAIL }] },
  'match',
  'any sent email',
);
add(
  'email',
  'email alone, stored has second',
  { ...MEG, emails: [{ email: 'meg@work.example.org' }, { email: MEG_EMAIL }] },
  email(MEG_EMAIL),
  'match',
  'email alone',
);
add('email', 'email with spaces', { ...MEG, ...email(MEG_EMAIL) }, { ...MEG, ...email(` ${MEG_EMAIL} `) }, 'either', 'padded');
add('email', 'mailto: prefix', { ...MEG, ...email(MEG_EMAIL) }, { ...MEG, ...email(`mailto:${MEG_EMAIL}`) }, 'either', 'pasted link');
// --- Round 2: dates ---
dobCase('.NET 7-digit fraction', '1984-03-12', '1984-03-12T00:00:00.0000000');
dobCase('ISO basic format', '1984-03-12', '19840312', 'either', 'ISO 8601 basic');
dobCase('local midnight east of UTC as Z', '1984-03-12', '1984-03-11T22:00:00Z', 'either', 'converted instant');
dobCase('noon Z', '1984-03-12', '1984-03-12T12:00:00Z');
dobCase('stored datetime, sent date', '1984-03-12T00:00:00Z', '1984-03-12');
dobCase('one-digit month', '1984-03-12', '1984-3-12', 'either', 'not ISO');

// --- Disable Partial Matching (interface.md 1.5): full names only, but case and accents still ignored ---
const STRICT = { campaign: { disablePartialMatching: true }, voterfile: { disablePartialMatching: true } };
const strictCase = (name: string, a: Body, b: Body, expect: Scenario['expect'], why: string): void => {
  s.push({ group: 'strict', name, before: [a], request: b, expect, why, settings: STRICT });
};
strictCase('accents', { ...nm('José', 'García'), ...E }, { ...nm('JOSE', 'GARCIA'), ...E }, 'match', '1.4: every database');
strictCase('hyphen / space surname', { ...nm('María', 'García-López'), ...P }, { ...nm('Maria', 'Garcia Lopez'), ...P }, 'match', 'full name, punctuation');
strictCase('apostrophe', { ...nm('Siobhán', "O'Neill"), ...P }, { ...nm('Siobhan', 'ONeill'), ...P }, 'match', 'full name');
strictCase('exact + phone formats', { ...MEG, ...phone(MEG_PHONE) }, { ...MEG, ...phone('+1 (212) 555-0143') }, 'match', 'full name');
strictCase('address written another way', { ...MEG, ...A0 }, { ...MEG, ...addr('145 W Fifth St #3B', '10011-2345') }, 'match', 'full name');
strictCase('nickname', { ...nm('William', 'Turner'), ...E }, { ...nm('Bill', 'Turner'), ...E }, 'new', '1.5: no nicknames');
strictCase('swapped', { ...MEG, ...E }, { ...nm('Sullivan', 'Margaret'), ...E }, 'new', '1.5: no permutations');
strictCase('romanization', { ...nm('Дмитрий', 'Иванов'), ...P }, { ...nm('Dmitry', 'Ivanov'), ...P }, 'new', '1.5: full first name');
strictCase('email alone', { ...MEG, ...E }, E, 'match', 'email alone, no name to compare');

// --- Round 3: middle names spelled two ways, extensions, one-line addresses ---
const mid = (a: string, b: string, expect: Scenario['expect'] = 'match', why = 'the same middle name spelled another way'): void => {
  add(
    'middle',
    `middle ${a} / ${b}`,
    { ...nm('Robert', 'Kline', { middleName: a }), ...email('rk@example.com') },
    { ...nm('Robert', 'Kline', { middleName: b }), ...email('rk@example.com') },
    expect,
    why,
  );
};
mid('Ann', 'Anne');
mid('Lynn', 'Lynne');
mid('Marie', 'Maria', 'either', 'two given names');
mid('Jon', 'John');
mid('Allan', 'Alan');
mid('Stephen', 'Steven');
mid('Catherine', 'Katherine');
mid('Jeffrey', 'Geoffrey', 'either', 'sound-alike');
mid('Sean', 'Shawn');
mid('Ann', 'Anne Marie');
mid('James', 'Jim', 'match', 'nickname as middle');
mid('James', 'Michael', 'either', 'README: father and son');
add(
  'middle',
  'middle Ann/Anne + phone + address (household)',
  { ...nm('Mary', 'Kline', { middleName: 'Ann' }), ...phone(MEG_PHONE), ...A0 },
  { ...nm('Mary', 'Kline', { middleName: 'Anne' }), ...phone(MEG_PHONE), ...A0 },
  'match',
  'same names',
);
add(
  'middle',
  'first Anne / Ann + email',
  { ...nm('Anne', 'Kline'), ...email('ak@example.com') },
  { ...nm('Ann', 'Kline'), ...email('ak@example.com') },
  'match',
  'spelling',
);
add('middle', 'Juan Carlos / Juan C.', { ...nm('Juan Carlos', 'Pérez'), ...E }, { ...nm('Juan C.', 'Perez'), ...E }, 'match', 'initial of second name');
add('middle', 'Jean-Pierre / Pierre', { ...nm('Jean-Pierre', 'Roux'), ...E }, { ...nm('Pierre', 'Roux'), ...E }, 'either', 'goes by second name');
add('phone', 'stored ext, sent without', { ...MEG, ...phone(MEG_PHONE, { ext: '12' }) }, { ...MEG, ...phone(MEG_PHONE) }, 'match', 'same number');
add('phone', 'stored without ext, sent with', { ...MEG, ...phone(MEG_PHONE) }, { ...MEG, ...phone(MEG_PHONE, { ext: '345' }) }, 'match', 'same number');
add(
  'phone',
  'different ext, same number',
  { ...MEG, ...phone(MEG_PHONE, { ext: '12' }) },
  { ...MEG, ...phone(MEG_PHONE, { ext: '13' }) },
  'either',
  'office line',
);
add(
  'address',
  'whole address on line 1 + zip field',
  { ...MEG, ...A0 },
  { ...MEG, addresses: [{ addressLine1: '145 W 5th St Apt 3B, New York, NY 10011', zipOrPostalCode: '10011' }] },
  'match',
  'one-line',
);
add(
  'address',
  'city missing',
  { ...MEG, ...A0 },
  { ...MEG, addresses: [{ addressLine1: '145 W 5th St Apt 3B', zipOrPostalCode: '10011' }] },
  'match',
  'less data',
);
add('address', 'unit on line 1 before number', { ...MEG, ...A0 }, { ...MEG, ...addr('Apt 3B, 145 W 5th St', '10011') }, 'match', 'unit first');
add(
  'address',
  'state full name',
  { ...MEG, ...A0 },
  { ...MEG, addresses: [{ addressLine1: '145 W 5th St Apt 3B', city: 'NEW YORK', stateOrProvince: 'New York', zipOrPostalCode: '10011' }] },
  'either',
  'stateOrProvince is a 2-3 char code',
);
add('sex-names', 'sex F stored, M sent, all else equal', { ...FULL_MEG }, { ...FULL_MEG, sex: 'M' }, 'either', 'README: sex differs -> review');
add(
  'dob',
  'dob + zip, new address (moved in zip)',
  { ...MEG, ...MEG_DOB, ...A0 },
  { ...MEG, ...MEG_DOB, ...addr('9 Bank St', '10011') },
  'match',
  'dob gate agrees',
);
add(
  'dob',
  'dob + zip gate, middle initial added',
  { ...MEG, ...MEG_DOB, ...addr('', '10011') },
  { ...MEG, middleName: 'A', ...MEG_DOB, ...addr('', '10011') },
  'match',
  'more data',
);
add('email', 'email + typo first name', { ...MEG, ...email(MEG_EMAIL) }, { ...nm('Magaret', 'Sullivan'), ...email(MEG_EMAIL) }, 'match', 'typo beside email');
add(
  'phone',
  'phone + typo last name',
  { ...MEG, ...phone(MEG_PHONE) },
  { ...nm('Margaret', 'Sullvian'), ...phone(MEG_PHONE) },
  'match',
  'swap typo beside phone',
);

// --- Round 4: real names on the placeholder list; moved households ---
const realName = (first: string, last: string, key: Body, why: string, expect: Scenario['expect'] = 'match'): void => {
  add('placeholder-names', `${first} ${last} exact repeat`, { ...nm(first, last), ...key }, { ...nm(first, last), ...key }, expect, why);
};
realName('Christopher', 'Guest', phone('3105550111'), 'Guest is a surname');
realName('Christopher', 'Guest', { ...addr('12 Elm St', '90210') }, 'Guest is a surname');
realName('Jiwoo', 'Na', phone('2135550122'), 'Na is a Korean surname');
realName('Jiwoo', 'Na', email('jiwoo.na@example.kr'), 'Na is a Korean surname');
realName('Nil', 'Yilmaz', phone('2135550133'), 'Nil is a Turkish given name');
realName('Jennifer', 'Null', phone('2135550144'), 'Null is a surname');
realName('Baby', 'Jenkins', phone('2135550155'), 'Baby is a given name (Philippines), and the placeholder of newborns');
realName('Current', 'Jones', phone('2135550166'), '"Current Resident": no name', 'either');
add(
  'mixed',
  'nickname + phone, moved to a new address',
  FULL_MEG,
  { ...nm('Peggy', 'Sullivan'), ...phone(MEG_PHONE), ...addr('9 Bank St', '10014') },
  'match',
  'phone is her own: another address',
);
add(
  'mixed',
  'nickname + surname typo + email',
  { ...MEG, ...email(MEG_EMAIL) },
  { ...nm('Peggy', 'Sulivan'), ...email(MEG_EMAIL) },
  'either',
  'two approximations',
);
add(
  'mixed',
  'second stored address matched',
  {
    ...MEG,
    addresses: [
      { addressLine1: '9 Bank St', zipOrPostalCode: '10014' },
      { addressLine1: '145 W 5th St', zipOrPostalCode: '10011' },
    ],
  },
  { ...MEG, ...addr('145 West 5th Street', '10011') },
  'match',
  'any stored address',
);

export const SCENARIOS: readonly Scenario[] = s;

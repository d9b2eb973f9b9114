/**
 * Tables the synthetic corpus draws from. Names are listed roughly in order of US frequency
 * (SSA given-name and Census 2010 surname rankings, from memory: the order matters, the
 * exact ranks do not), with accented, particle, apostrophe and hyphenated names mixed in at
 * realistic ranks. Canonical spellings carry their accents; the generator drops them at
 * random. Nothing here is real personal data: combinations are random.
 */

export const MALE_FIRST: readonly string[] = [
  'James', 'John', 'Robert', 'Michael', 'William', 'David', 'Richard', 'Joseph', 'Thomas',
  'Charles', 'Christopher', 'Daniel', 'Matthew', 'Anthony', 'Mark', 'Donald', 'Steven',
  'Paul', 'Andrew', 'Joshua', 'Kenneth', 'Kevin', 'Brian', 'George', 'Timothy', 'Ronald',
  'Edward', 'Jason', 'Jeffrey', 'Ryan', 'Jacob', 'Gary', 'Nicholas', 'Eric', 'Jonathan',
  'Stephen', 'Larry', 'Justin', 'Scott', 'Brandon', 'Benjamin', 'Samuel', 'José', 'Gregory',
  'Alexander', 'Frank', 'Patrick', 'Raymond', 'Jack', 'Dennis', 'Jerry', 'Tyler', 'Aaron',
  'Adam', 'Nathan', 'Henry', 'Douglas', 'Zachary', 'Peter', 'Kyle', 'Ethan', 'Walter',
  'Noah', 'Jeremy', 'Christian', 'Keith', 'Roger', 'Terry', 'Gerald', 'Harold', 'Sean',
  'Austin', 'Carl', 'Arthur', 'Lawrence', 'Dylan', 'Jesse', 'Jordan', 'Bryan', 'Juan',
  'Joe', 'Bruce', 'Gabriel', 'Logan', 'Albert', 'Willie', 'Alan', 'Wayne', 'Elijah',
  'Randy', 'Roy', 'Vincent', 'Ralph', 'Eugene', 'Russell', 'Bobby', 'Mason', 'Philip',
  'Louis', 'Luis', 'Carlos', 'Miguel', 'Jesús', 'Mohammed', 'Ángel', 'Raúl', 'André',
  'Wei', 'Hiroshi', 'Łukasz', 'Søren', 'François', 'Jürgen', 'Björn', 'Zoltán',
  'Sebastián', 'Joaquín', 'Tomás', 'Rubén', 'Óscar', 'Dmitri', 'Andrzej', 'Rajesh',
];

export const FEMALE_FIRST: readonly string[] = [
  'Mary', 'Patricia', 'Jennifer', 'Linda', 'Elizabeth', 'Barbara', 'Susan', 'Jessica',
  'Sarah', 'Karen', 'Lisa', 'Nancy', 'Betty', 'Margaret', 'Sandra', 'Ashley', 'Kimberly',
  'Emily', 'Donna', 'Michelle', 'Carol', 'Amanda', 'Dorothy', 'Melissa', 'Deborah',
  'Stephanie', 'Rebecca', 'Sharon', 'Laura', 'Cynthia', 'Kathleen', 'Amy', 'Angela',
  'Shirley', 'Anna', 'Brenda', 'Pamela', 'Emma', 'Nicole', 'Helen', 'Samantha', 'Katherine',
  'Christine', 'Debra', 'Rachel', 'Carolyn', 'Janet', 'Catherine', 'María', 'Heather',
  'Diane', 'Ruth', 'Julie', 'Olivia', 'Joyce', 'Virginia', 'Victoria', 'Kelly', 'Lauren',
  'Christina', 'Joan', 'Evelyn', 'Judith', 'Megan', 'Andrea', 'Cheryl', 'Hannah',
  'Jacqueline', 'Martha', 'Gloria', 'Teresa', 'Ann', 'Sara', 'Madison', 'Frances', 'Kathryn',
  'Janice', 'Jean', 'Abigail', 'Alice', 'Judy', 'Sophia', 'Grace', 'Denise', 'Amber',
  'Doris', 'Marilyn', 'Danielle', 'Beverly', 'Isabella', 'Theresa', 'Diana', 'Natalie',
  'Brittany', 'Charlotte', 'Marie', 'Kayla', 'Alexis', 'Lori', 'Renée', 'Zoë', 'Chloé',
  'Inés', 'Siobhán', 'Małgorzata', 'Agnieszka', 'Sinéad', 'Ingrid', 'Åsa', 'Mónica',
  'Lucía', 'Sofía', 'Priya', 'Mei', 'Yuki', 'Fatima', 'Mary Ann', 'Anne-Marie',
];

/** Syllables for the long tail of given names (about 10% of people). */
export const FIRST_TAIL_HEADS: readonly string[] = [
  'Ja', 'Ka', 'Ma', 'Ta', 'Ra', 'Da', 'La', 'Na', 'Sha', 'Bri', 'Ky', 'Ry', 'Jo', 'Ze',
  'Ar', 'El', 'Ad', 'Av', 'Mi', 'Ne', 'Tre', 'Qui', 'Ca', 'De',
];
export const FIRST_TAIL_ENDS: readonly string[] = [
  'den', 'lyn', 'son', 'ley', 'ra', 'na', 'ron', 'ver', 'mari', 'lee', 'nah', 'rius', 'ton',
  'cia', 'vin', 'iel', 'isha', 'onda', 'lani', 'quan',
];

export const SURNAMES: readonly string[] = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'García', 'Miller', 'Davis', 'Rodríguez',
  'Martínez', 'Hernández', 'López', 'González', 'Wilson', 'Anderson', 'Thomas', 'Taylor',
  'Moore', 'Jackson', 'Martin', 'Lee', 'Pérez', 'Thompson', 'White', 'Harris', 'Sánchez',
  'Clark', 'Ramírez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright',
  'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall',
  'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Gómez', 'Phillips', 'Evans',
  'Turner', 'Díaz', 'Parker', 'Cruz', 'Edwards', 'Collins', 'Reyes', 'Stewart', 'Morris',
  'Morales', 'Murphy', 'Cook', 'Rogers', 'Gutiérrez', 'Ortiz', 'Morgan', 'Cooper',
  'Peterson', 'Bailey', 'Reed', 'Kelly', 'Howard', 'Ramos', 'Kim', 'Cox', 'Ward',
  'Richardson', 'Watson', 'Brooks', 'Chávez', 'Wood', 'James', 'Bennett', 'Gray', 'Mendoza',
  'Ruiz', 'Hughes', 'Price', 'Álvarez', 'Castillo', 'Sanders', 'Patel', 'Myers', 'Long',
  'Ross', 'Foster', 'Jiménez', "O'Brien", 'Powell', 'Jenkins', 'Perry', 'Russell', 'Sullivan',
  'Bell', 'Coleman', 'Butler', 'Henderson', 'Barnes', 'Gonzales', 'Fisher', 'Vásquez',
  'Simmons', 'Romero', 'Jordan', 'Patterson', 'Alexander', 'Hamilton', 'Graham', 'Reynolds',
  'de la Cruz', 'Griffin', 'Wallace', 'Moreno', 'West', 'Cole', 'Hayes', 'Bryant', 'Herrera',
  'Gibson', 'Ellis', 'Tran', 'Medina', 'Aguilar', 'Stevens', 'Murray', 'Ford', 'Castro',
  'Marshall', 'Owens', 'Harrison', 'Fernández', 'McDonald', 'Woods', 'Washington', 'Kennedy',
  'Wells', 'Vargas', 'Henry', 'Chen', 'Freeman', 'Webb', 'Tucker', 'Guzmán', 'Burns',
  "O'Connor", 'Crawford', 'Olson', 'Simpson', 'Porter', 'Hunter', 'Gordon', 'Méndez',
  'Silva', 'Shaw', 'Snyder', 'Mason', 'Dixon', 'Muñoz', 'Hunt', 'Hicks', 'Holmes', 'Palmer',
  'Wagner', 'Black', 'Robertson', 'Boyd', 'Rose', 'Stone', 'Salazar', 'Fox', 'Warren',
  'Mills', 'Meyer', 'Rice', 'Schmidt', 'Garza', 'Daniels', 'Ferguson', 'Nichols', 'Stephens',
  'Soto', 'Weaver', 'Ryan', 'Gardner', 'Payne', 'Grant', 'Dunn', 'Kelley', 'Spencer',
  'Hawkins', 'Arnold', 'Pierce', 'Vázquez', 'Hansen', 'Peters', 'Santos', 'Hart', 'Bradley',
  'Knight', 'Elliott', 'Cunningham', 'Duncan', 'Armstrong', 'Hudson', 'Carroll', 'Lane',
  'Riley', 'Andrews', 'Alvarado', 'Ray', 'Delgado', 'Berry', 'Perkins', 'Hoffman',
  'Johnston', 'Matthews', 'Peña', 'Richards', 'Contreras', 'Willis', 'Carpenter', 'Lawrence',
  'Sandoval', "O'Neill", 'McCarthy', 'MacDonald', 'De León', 'van der Berg', 'Van Buren',
  'St. John', 'Müller', 'Schröder', 'Łukaszewski', 'Nowak', 'Kowalski', 'Wiśniewski',
  'Søndergaard', 'Østergaard', 'Jørgensen', 'Andersson', 'Åkesson', 'Núñez', 'Ibáñez',
  'García-López', 'Smith-Jones', 'Rodríguez-Ortiz', 'Martín-Pérez', 'Lefèvre', 'Dubois',
  'Bélanger', 'Côté', 'Gagné', 'Fontaine', 'Nakamura', 'Tanaka', 'Yamamoto', 'Wang', 'Li',
  'Zhang', 'Liu', 'Singh', 'Kumar', 'Shah', 'Cohen', 'Levy', 'Friedman', 'Rossi', 'Russo',
  'Esposito', 'Bianchi', 'Romano', 'Costa', 'Ferreira', 'Gonçalves', 'Kovács', 'Horváth',
  'Novák', 'Dvořák', 'Popescu', 'Ivanov', 'Petrov', 'Papadopoulos', 'Yılmaz', 'Öztürk',
  'Şahin', 'Strauß', 'del Río', 'dos Santos', 'Van Dyke', "D'Angelo", 'McAllister',
];

/** Syllables for the long tail of surnames (about half of people): 60 x 12 x 30 forms. */
export const SURNAME_TAIL_HEADS: readonly string[] = [
  'Ab', 'Al', 'Ar', 'Bal', 'Bar', 'Bel', 'Ben', 'Bor', 'Bra', 'Bur', 'Cal', 'Car', 'Cas',
  'Cor', 'Dal', 'Dan', 'Del', 'Dor', 'Dun', 'El', 'Fal', 'Far', 'Fen', 'Gar', 'Gil', 'Gor',
  'Hal', 'Har', 'Hen', 'Hol', 'Kel', 'Ker', 'Kin', 'Lan', 'Lar', 'Lin', 'Mal', 'Mar', 'Mel',
  'Mor', 'Nor', 'Ol', 'Pal', 'Par', 'Pen', 'Ral', 'Ran', 'Ros', 'Sal', 'Sel', 'Sten', 'Tal',
  'Tor', 'Val', 'Ven', 'Wal', 'War', 'Wes', 'Wil', 'Yar',
];
export const SURNAME_TAIL_MIDS: readonly string[] = [
  '', 'a', 'e', 'i', 'o', 'er', 'an', 'en', 'in', 'ow', 'ing', 'el',
];
export const SURNAME_TAIL_ENDS: readonly string[] = [
  'son', 'sen', 'ton', 'ley', 'man', 'ford', 'field', 'berg', 'stein', 'ski', 'wicz', 'ez',
  'ini', 'ano', 'ov', 'enko', 'well', 'wood', 'worth', 'by', 'more', 'er', 'ham', 'dale',
  'ridge', 'ing', 'ard', 'ett', 'ow', 'ich',
];

/**
 * Formal given name (folded) -> nicknames people go by. Every pair here is in the engine's
 * shipped nickname table (test/bench/corpus.test.ts checks), so a miss on one is the
 * engine's, not a quirk of this generator.
 */
export const NICKNAMES: Readonly<Record<string, readonly string[]>> = {
  robert: ['Bob', 'Rob', 'Bobby', 'Robbie'],
  william: ['Bill', 'Will', 'Billy'],
  margaret: ['Peggy', 'Maggie', 'Meg', 'Marge'],
  elizabeth: ['Liz', 'Beth', 'Betsy', 'Lizzie', 'Eliza'],
  james: ['Jim', 'Jimmy', 'Jamie'],
  john: ['Jack', 'Johnny'],
  richard: ['Rick', 'Dick', 'Rich', 'Richie'],
  michael: ['Mike', 'Mikey'],
  joseph: ['Joe', 'Joey'],
  thomas: ['Tom', 'Tommy'],
  charles: ['Charlie', 'Chuck'],
  christopher: ['Chris'],
  daniel: ['Dan', 'Danny'],
  matthew: ['Matt'],
  anthony: ['Tony'],
  donald: ['Don', 'Donnie'],
  steven: ['Steve'],
  andrew: ['Andy', 'Drew'],
  kenneth: ['Ken', 'Kenny'],
  timothy: ['Tim'],
  ronald: ['Ron', 'Ronnie'],
  edward: ['Ed', 'Eddie', 'Ted', 'Ned'],
  jeffrey: ['Jeff'],
  nicholas: ['Nick'],
  jonathan: ['Jon'],
  gregory: ['Greg'],
  alexander: ['Alex'],
  benjamin: ['Ben'],
  samuel: ['Sam'],
  patrick: ['Pat'],
  raymond: ['Ray'],
  lawrence: ['Larry'],
  gerald: ['Jerry'],
  douglas: ['Doug'],
  zachary: ['Zach'],
  peter: ['Pete'],
  walter: ['Walt'],
  philip: ['Phil'],
  harold: ['Hal', 'Harry'],
  eugene: ['Gene'],
  vincent: ['Vince', 'Vinny'],
  albert: ['Al', 'Bert'],
  louis: ['Lou'],
  gabriel: ['Gabe'],
  joshua: ['Josh'],
  nathan: ['Nate'],
  jacob: ['Jake'],
  patricia: ['Pat', 'Patty', 'Trish'],
  jennifer: ['Jen', 'Jenny'],
  susan: ['Sue', 'Susie'],
  deborah: ['Deb', 'Debbie'],
  debra: ['Deb', 'Debbie'],
  rebecca: ['Becky', 'Becca'],
  katherine: ['Kate', 'Kathy'],
  kathleen: ['Kathy', 'Kate'],
  catherine: ['Cathy', 'Kate'],
  kimberly: ['Kim'],
  pamela: ['Pam'],
  samantha: ['Sam'],
  christine: ['Chris', 'Christy'],
  cynthia: ['Cindy'],
  dorothy: ['Dot', 'Dottie'],
  barbara: ['Barb', 'Barbie'],
  jessica: ['Jess', 'Jessie'],
  victoria: ['Vicky', 'Tori'],
  judith: ['Judy'],
  abigail: ['Abby'],
  stephanie: ['Steph'],
  theresa: ['Terry', 'Tess'],
  teresa: ['Terry', 'Tess'],
  virginia: ['Ginny'],
  frances: ['Fran', 'Frankie'],
  jacqueline: ['Jackie'],
  amanda: ['Mandy'],
  melissa: ['Missy'],
  sandra: ['Sandy'],
};

/** A city with its state, 3-digit ZIP prefixes and area codes (real, for realism only). */
export interface CityEntry {
  readonly city: string;
  readonly state: string;
  readonly zip3: readonly string[];
  readonly area: readonly string[];
}

/** Cities roughly in order of population; sampled with Zipf weights. */
export const CITIES: readonly CityEntry[] = [
  { city: 'New York', state: 'NY', zip3: ['100', '101', '112', '113', '104'], area: ['212', '718', '917', '646'] },
  { city: 'Los Angeles', state: 'CA', zip3: ['900', '910', '913'], area: ['213', '310', '323', '818'] },
  { city: 'Chicago', state: 'IL', zip3: ['606', '607'], area: ['312', '773', '872'] },
  { city: 'Houston', state: 'TX', zip3: ['770', '772'], area: ['713', '281', '832'] },
  { city: 'Phoenix', state: 'AZ', zip3: ['850'], area: ['602', '480', '623'] },
  { city: 'Philadelphia', state: 'PA', zip3: ['191'], area: ['215', '267'] },
  { city: 'San Antonio', state: 'TX', zip3: ['782'], area: ['210'] },
  { city: 'San Diego', state: 'CA', zip3: ['921'], area: ['619', '858'] },
  { city: 'Dallas', state: 'TX', zip3: ['752'], area: ['214', '972', '469'] },
  { city: 'San José', state: 'CA', zip3: ['951'], area: ['408', '669'] },
  { city: 'Austin', state: 'TX', zip3: ['787'], area: ['512', '737'] },
  { city: 'Jacksonville', state: 'FL', zip3: ['322'], area: ['904'] },
  { city: 'Columbus', state: 'OH', zip3: ['432'], area: ['614'] },
  { city: 'Charlotte', state: 'NC', zip3: ['282'], area: ['704', '980'] },
  { city: 'Indianapolis', state: 'IN', zip3: ['462'], area: ['317'] },
  { city: 'Seattle', state: 'WA', zip3: ['981'], area: ['206'] },
  { city: 'Denver', state: 'CO', zip3: ['802'], area: ['303', '720'] },
  { city: 'Washington', state: 'DC', zip3: ['200'], area: ['202'] },
  { city: 'Boston', state: 'MA', zip3: ['021', '022'], area: ['617', '857'] },
  { city: 'Nashville', state: 'TN', zip3: ['372'], area: ['615'] },
  { city: 'Detroit', state: 'MI', zip3: ['482'], area: ['313'] },
  { city: 'Portland', state: 'OR', zip3: ['972'], area: ['503', '971'] },
  { city: 'Las Vegas', state: 'NV', zip3: ['891'], area: ['702'] },
  { city: 'Memphis', state: 'TN', zip3: ['381'], area: ['901'] },
  { city: 'Louisville', state: 'KY', zip3: ['402'], area: ['502'] },
  { city: 'Baltimore', state: 'MD', zip3: ['212'], area: ['410', '443'] },
  { city: 'Milwaukee', state: 'WI', zip3: ['532'], area: ['414'] },
  { city: 'Albuquerque', state: 'NM', zip3: ['871'], area: ['505'] },
  { city: 'Tucson', state: 'AZ', zip3: ['857'], area: ['520'] },
  { city: 'Fresno', state: 'CA', zip3: ['937'], area: ['559'] },
  { city: 'Sacramento', state: 'CA', zip3: ['958'], area: ['916'] },
  { city: 'Kansas City', state: 'MO', zip3: ['641'], area: ['816'] },
  { city: 'Atlanta', state: 'GA', zip3: ['303'], area: ['404', '678', '470'] },
  { city: 'Miami', state: 'FL', zip3: ['331'], area: ['305', '786'] },
  { city: 'Raleigh', state: 'NC', zip3: ['276'], area: ['919'] },
  { city: 'Omaha', state: 'NE', zip3: ['681'], area: ['402'] },
  { city: 'Minneapolis', state: 'MN', zip3: ['554'], area: ['612'] },
  { city: 'Cleveland', state: 'OH', zip3: ['441'], area: ['216'] },
  { city: 'New Orleans', state: 'LA', zip3: ['701'], area: ['504'] },
  { city: 'Pittsburgh', state: 'PA', zip3: ['152'], area: ['412'] },
  { city: 'St. Louis', state: 'MO', zip3: ['631'], area: ['314'] },
  { city: 'Cincinnati', state: 'OH', zip3: ['452'], area: ['513'] },
  { city: 'Orlando', state: 'FL', zip3: ['328'], area: ['407'] },
  { city: 'Tampa', state: 'FL', zip3: ['336'], area: ['813'] },
  { city: 'Salt Lake City', state: 'UT', zip3: ['841'], area: ['801'] },
  { city: 'Richmond', state: 'VA', zip3: ['232'], area: ['804'] },
  { city: 'Buffalo', state: 'NY', zip3: ['142'], area: ['716'] },
  { city: 'Hartford', state: 'CT', zip3: ['061'], area: ['860'] },
  { city: 'Providence', state: 'RI', zip3: ['029'], area: ['401'] },
  { city: 'Birmingham', state: 'AL', zip3: ['352'], area: ['205'] },
  { city: 'Española', state: 'NM', zip3: ['875'], area: ['505'] },
  { city: 'Anchorage', state: 'AK', zip3: ['995'], area: ['907'] },
  { city: 'Honolulu', state: 'HI', zip3: ['968'], area: ['808'] },
];

export const STREET_NAMES: readonly string[] = [
  'Main', 'Oak', 'Pine', 'Maple', 'Cedar', 'Elm', 'Washington', 'Lake', 'Hill', 'Park',
  'Walnut', 'Sunset', 'Lincoln', 'Jackson', 'Church', 'Highland', 'River', 'Spring',
  'Madison', 'Ridge', 'Franklin', 'Jefferson', 'Center', 'Forest', 'Adams', 'Willow',
  'Meadow', 'Chestnut', 'Cherry', 'Spruce', 'Hickory', 'Birch', 'Dogwood', 'Magnolia',
  'Sycamore', 'Laurel', 'Valley', 'Mill', 'Union', 'Market', 'Broad', 'Water', 'Front',
  'Grand', 'Liberty', 'Prospect', 'Pleasant', 'Summit', 'Sunrise', 'Woodland', 'Orchard',
  'Harbor', 'Bay', 'Shore', 'Lakeview', 'Riverside', 'Fairview', 'Glenwood', 'Hillcrest',
  'Kingston', 'Lexington', 'Monroe', 'Wilson', 'Taylor', 'Martin Luther King Jr', 'Peachtree',
  'Alameda', 'Cañada', 'Green Valley', 'Old Mill', 'Country Club', 'Mountain View',
  '1st', '2nd', '3rd', '4th', '5th', '6th', '7th', '8th', '9th', '10th', '11th', '12th',
  '14th', '16th', '18th', '21st', '23rd', '42nd', '56th', '101st',
];

/**
 * USPS Publication 28 (Appendix C1) street suffixes: the standard abbreviation first, the
 * full word second, then common variants people type.
 */
export const STREET_SUFFIXES: readonly (readonly string[])[] = [
  ['St', 'Street', 'St.', 'Str', 'ST'],
  ['Ave', 'Avenue', 'Ave.', 'Av', 'AVE'],
  ['Rd', 'Road', 'Rd.', 'RD'],
  ['Dr', 'Drive', 'Dr.', 'DR'],
  ['Blvd', 'Boulevard', 'Blvd.'],
  ['Ln', 'Lane', 'Ln.'],
  ['Ct', 'Court', 'Ct.'],
  ['Pl', 'Place', 'Pl.'],
  ['Way', 'Way', 'Wy'],
  ['Ter', 'Terrace', 'Terr'],
  ['Cir', 'Circle', 'Cir.'],
  ['Pkwy', 'Parkway', 'Pky'],
  ['Hwy', 'Highway', 'Hwy.'],
];

/** Relative frequency of each STREET_SUFFIXES row. */
export const STREET_SUFFIX_WEIGHTS: readonly number[] = [30, 22, 14, 12, 4, 5, 4, 2, 2, 1, 1, 2, 1];

/** Pre-directionals: USPS abbreviation, full word, dotted. */
export const DIRECTIONALS: readonly (readonly string[])[] = [
  ['N', 'North', 'N.'],
  ['S', 'South', 'S.'],
  ['E', 'East', 'E.'],
  ['W', 'West', 'W.'],
  ['NE', 'Northeast', 'N.E.'],
  ['NW', 'Northwest', 'N.W.'],
];

export const EMAIL_DOMAINS: readonly string[] = [
  'gmail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'aol.com', 'icloud.com',
  'comcast.net', 'msn.com', 'live.com', 'att.net', 'verizon.net', 'protonmail.com', 'me.com',
  'sbcglobal.net',
];
export const EMAIL_DOMAIN_WEIGHTS: readonly number[] = [35, 14, 8, 6, 5, 6, 4, 2, 2, 2, 2, 1, 1, 1];

/** Employer domains for work emails and office phones. */
export const COMPANY_WORDS: readonly string[] = [
  'acme', 'globex', 'initech', 'umbrella', 'stark', 'wayne', 'hooli', 'vandelay', 'wonka',
  'cyberdyne', 'soylent', 'tyrell', 'massive', 'dunder', 'oceanic', 'aperture', 'gringotts',
  'pied', 'monarch', 'sterling',
];
export const COMPANY_TLDS: readonly string[] = ['com', 'org', 'net', 'gov', 'edu', 'co'];

/** Keys next to each other on a QWERTY keyboard, for realistic typos. */
export const KEYBOARD_NEIGHBOURS: Readonly<Record<string, string>> = {
  a: 'qwsz', b: 'vghn', c: 'xdfv', d: 'serfcx', e: 'wsdr', f: 'drtgvc', g: 'ftyhbv',
  h: 'gyujnb', i: 'ujko', j: 'huikmn', k: 'jiolm', l: 'kop', m: 'njk', n: 'bhjm',
  o: 'iklp', p: 'ol', q: 'wa', r: 'edft', s: 'awedxz', t: 'rfgy', u: 'yhji', v: 'cfgb',
  w: 'qase', x: 'zsdc', y: 'tghu', z: 'asx',
};

/** Vowels with an accented form, for "accent added by mistake" noise. */
export const ACCENTED_VOWELS: Readonly<Record<string, string>> = {
  a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú', n: 'ñ',
};

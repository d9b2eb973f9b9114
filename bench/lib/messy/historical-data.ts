/**
 * Tables for historical (1600-1950) British person records, written for this project:
 * given names roughly in order of frequency in old parish registers and censuses, the
 * abbreviations clerks wrote, titles, occupations with the ways one trade was written, and
 * places with their spellings, counties and neighbours (real places; the people are random).
 */

export const HIST_MALE: readonly string[] = [
  'John', 'William', 'Thomas', 'James', 'George', 'Joseph', 'Richard', 'Henry', 'Robert', 'Charles',
  'Samuel', 'Edward', 'Benjamin', 'Isaac', 'Peter', 'Daniel', 'David', 'Francis', 'Matthew', 'Stephen',
  'Edmund', 'Walter', 'Hugh', 'Nicholas', 'Ralph', 'Philip', 'Abraham', 'Jacob', 'Josiah', 'Nathaniel',
  'Jonathan', 'Frederick', 'Alfred', 'Arthur', 'Albert', 'Ernest', 'Harry', 'Herbert', 'Alexander',
  'Andrew', 'Patrick', 'Michael', 'Christopher', 'Humphrey', 'Roger', 'Simon', 'Timothy', 'Ebenezer',
  'Hezekiah', 'Zachariah', 'Obadiah', 'Silas', 'Enoch', 'Amos', 'Levi', 'Reuben', 'Elijah', 'Ezekiel',
  'Moses', 'Aaron', 'Adam', 'Gilbert', 'Lancelot', 'Jeremiah', 'Tobias', 'Ambrose', 'Bartholomew',
  'Cornelius', 'Horace', 'Septimus', 'Jabez', 'Caleb', 'Lemuel', 'Archibald', 'Duncan', 'Angus', 'Evan',
  'Owen', 'Griffith', 'Rhys', 'Llewellyn', 'Dafydd', 'Hamish', 'Alastair', 'Lachlan', 'Cuthbert',
];

export const HIST_FEMALE: readonly string[] = [
  'Mary', 'Elizabeth', 'Ann', 'Sarah', 'Jane', 'Margaret', 'Hannah', 'Catherine', 'Martha', 'Susannah',
  'Alice', 'Ellen', 'Eleanor', 'Emma', 'Harriet', 'Charlotte', 'Frances', 'Grace', 'Rebecca', 'Isabella',
  'Agnes', 'Dorothy', 'Esther', 'Betty', 'Rachel', 'Lydia', 'Ruth', 'Louisa', 'Emily', 'Caroline',
  'Sophia', 'Amelia', 'Eliza', 'Maria', 'Lucy', 'Phoebe', 'Priscilla', 'Prudence', 'Patience', 'Mercy',
  'Temperance', 'Dinah', 'Keziah', 'Tabitha', 'Bridget', 'Joan', 'Judith', 'Isabel', 'Cecily',
  'Winifred', 'Florence', 'Ada', 'Edith', 'Annie', 'Clara', 'Bertha', 'Matilda', 'Marion', 'Janet',
  'Christina', 'Jessie', 'Flora', 'Euphemia', 'Gwendolen', 'Myfanwy', 'Gwen', 'Honora', 'Nora',
  'Kathleen', 'Ethel', 'Mabel', 'Gladys', 'Beatrice', 'Violet', 'Lilian', 'Rose', 'Georgiana', 'Henrietta',
];

/** Surnames of the British Isles, including spellings that drift (Thomson, Philips, Reid). */
export const HIST_SURNAMES: readonly string[] = [
  'Smith', 'Jones', 'Williams', 'Taylor', 'Brown', 'Davies', 'Evans', 'Wilson', 'Thomas', 'Johnson',
  'Roberts', 'Robinson', 'Thompson', 'Wright', 'Walker', 'White', 'Edwards', 'Hughes', 'Green', 'Hall',
  'Lewis', 'Harris', 'Clarke', 'Jackson', 'Wood', 'Turner', 'Martin', 'Cooper', 'Hill',
  'Ward', 'Morris', 'Moore', 'Clark', 'Lee', 'King', 'Baker', 'Harrison', 'Morgan', 'Allen', 'James',
  'Scott', 'Phillips', 'Watson', 'Davis', 'Parker', 'Price', 'Bennett', 'Young', 'Griffiths', 'Mitchell',
  'Kelly', 'Cook', 'Carter', 'Richardson', 'Bailey', 'Collins', 'Bell', 'Shaw', 'Murphy', 'Miller',
  'Cox', 'Richards', 'Marshall', 'Anderson', 'Simpson', 'Ellis', 'Adams', 
  'Wilkinson', 'Foster', 'Chapman', 'Powell', 'Webb', 'Rogers', 'Gray', 'Mason', 'Hunt',
  'Campbell', 'Matthews', 'Owen', 'Palmer', 'Holmes', 'Mills', 'Barnes', 'Knight', 'Lloyd',
  'Butler', 'Russell', 'Barker', 'Fisher', 'Stevens', 'Jenkins', 'Murray', 'Dixon', 'Harvey', 'Graham',
  'Pearson', 'Fletcher', 'Walsh', 'Gibson', 'Howard', 'Andrews', 'Stewart', 'Elliott',
  'Reynolds', 'Saunders', 'Payne', 'Fox', 'Ford', 'Pearce', 'Day', 'Brooks', 'West', 'Lawrence', 'Cole',
  'Atkinson', 'Bradley', 'Spencer', 'Gill', 'Dawson', 'Ball', 'Burton', "O'Brien", 'Watts', 'Rose',
  'Booth', 'Perry', 'Ryan', 'Grant', 'Wells', 'Armstrong', 'Francis', 'Rees', 'Hayes', 'Hart', 'Hudson',
  'Newman', 'Barrett', 'Webster', 'Hunter', 'Gregory', 'Carr', 'Lowe', 'Page', 'Marsh', 'Riley',
  'Dunn', 'Woods', 'Parsons', 'Berry', 'Stone', 'Reid', 'Holland', 'Hawkins', 'Harding', 'Porter',
  'Robertson', 'Newton', 'Oliver', 'Reed', 'Kennedy', 'Williamson', 'Bird', 'Gardner', 'Dean',
  'Lane', 'Cooke', 'Bates', 'Henderson', 'Parry', 'Burgess', 'Bishop', 'Walton', 'Burns', 'Nicholson',
  'Shepherd', 'Ross', 'Cross', 'Long', 'Freeman', 'Warren', 'Nicholls', 'Hamilton', 'Byrne', 'Sutton',
  'McDonald', 'Yates', 'Hodgson', 'Robson', 'Curtis', 'Hopkins', "O'Connor", 'Harper', 'Coleman',
  'Watkins', 'Moss', 'McCarthy', 'Chambers', "O'Neill", 'Griffin', 'Sharp', 'Hardy', 'Wheeler', 'Potter',
  'Osborne', 'Johnston', 'Gordon', 'Doyle', 'Wallace', 'George', 'Jordan', 'Hutchinson', 'Rowe', 'Burke',
  'May', 'Pritchard', 'Gilbert', 'Willis', 'Higgins', 'Read', 'Whitehead', 'MacKenzie', 'Stephenson',
  'Ackroyd', 'Lumb', 'Sugden', 'Crabtree', 'Greenwood', 'Haigh', 'Priestley', 'Pickles', 'Thwaite',
];

/** Abbreviations of given names in old registers (folded name -> forms, with and without a dot). */
export const HIST_ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
  william: ['Wm', 'Wm.', 'Willm'], john: ['Jno', 'Jno.', 'Jn'], thomas: ['Thos', 'Thos.', 'Tho'],
  james: ['Jas', 'Jas.'], george: ['Geo', 'Geo.'], charles: ['Chas', 'Chas.'], joseph: ['Jos', 'Jos.'],
  richard: ['Richd', 'Rich.', 'Ric'], robert: ['Robt', 'Robt.'], samuel: ['Saml', 'Saml.', 'Sam.'],
  edward: ['Edwd', 'Edw.'], benjamin: ['Benj', 'Benjn', 'Benj.'], daniel: ['Danl', 'Danl.'],
  henry: ['Hy', 'Hen.', 'Henr'], frederick: ['Fredk', 'Fred.', 'Fredc'], alexander: ['Alexr', 'Alex.'],
  nathaniel: ['Nathl', 'Nath.'], jonathan: ['Jonth', 'Jona.'], christopher: ['Xpher', 'Chris.', 'Xtopher'],
  elizabeth: ['Eliz', 'Eliz.', 'Elizth'], margaret: ['Margt', 'Marg.', 'Mgt'], catherine: ['Cath', 'Cath.'],
  susannah: ['Susna', 'Sus.'], hannah: ['Hanh', 'Han.'], frances: ['Fras', 'Fran.'], isabella: ['Isab', 'Isab.'],
  matthew: ['Mattw', 'Matt.'], abraham: ['Abm', 'Abr.'], isaac: ['Isc', 'Is.'], jacob: ['Jac', 'Jacb'],
};

/** Familiar forms used in records (folded formal name -> forms). */
export const HIST_NICKNAMES: Readonly<Record<string, readonly string[]>> = {
  mary: ['Polly', 'Molly', 'May'], margaret: ['Peggy', 'Maggie', 'Meg', 'Margery'],
  elizabeth: ['Betsy', 'Betty', 'Eliza', 'Bess', 'Lizzie'], ann: ['Nancy', 'Annie', 'Anne'],
  martha: ['Patsy', 'Mattie'], sarah: ['Sally', 'Sara'], henry: ['Harry', 'Hal'], john: ['Jack'],
  edward: ['Ned', 'Ted'], richard: ['Dick'], william: ['Bill', 'Will'], catherine: ['Kitty', 'Kate', 'Katherine'],
  susannah: ['Susan', 'Sukey', 'Susanna'], dorothy: ['Dolly', 'Dot'], frances: ['Fanny'],
  eleanor: ['Nell', 'Nellie', 'Elinor'], ellen: ['Nell', 'Helen'], isabella: ['Bella', 'Isabel'],
  james: ['Jem', 'Jim'], robert: ['Bob', 'Robin'], jane: ['Jenny', 'Jean'], hannah: ['Anna'],
  alexander: ['Sandy', 'Alex'], christopher: ['Kit'], joseph: ['Joe'], thomas: ['Tom'],
};

/** Titles that end up in the first-name field, male and female, with their spellings. */
export const TITLES_MALE: readonly (readonly string[])[] = [
  ['Mr', 'Mr.', 'Mister'], ['Rev', 'Rev.', 'Revd', 'Reverend'], ['Dr', 'Dr.', 'Doctor'],
  ['Captain', 'Capt', 'Capt.'], ['Sir'], ['Lord'], ['Colonel', 'Col', 'Col.'], ['Major', 'Maj.'],
];
export const TITLE_MALE_WEIGHTS: readonly number[] = [6, 5, 3, 3, 3, 1, 1, 1];
export const TITLES_FEMALE: readonly (readonly string[])[] = [
  ['Mrs', 'Mrs.', 'Missus'], ['Miss'], ['Lady'], ['Dame'], ['Dr', 'Dr.'],
];
export const TITLE_FEMALE_WEIGHTS: readonly number[] = [7, 5, 2, 1, 0.5];

/**
 * Occupations: each group lists the ways one occupation was written (first is the usual),
 * with its relative weight among men and among women.
 */
export interface OccupationGroup {
  readonly forms: readonly string[];
  readonly male: number;
  readonly female: number;
}

export const OCCUPATIONS: readonly OccupationGroup[] = [
  { forms: ['farmer', 'Farmer', 'yeoman', 'husbandman', 'farming', 'farmer of 40 acres'], male: 12, female: 0.3 },
  { forms: ['agricultural labourer', 'ag lab', 'Ag Lab', 'farm labourer', 'agricultural laborer', 'labourer (agricultural)'], male: 16, female: 1 },
  { forms: ['labourer', 'general labourer', 'laborer', 'lab.'], male: 9, female: 0.2 },
  { forms: ['coal miner', 'collier', 'coal hewer', 'miner', 'pitman'], male: 7, female: 0.1 },
  { forms: ['cotton weaver', 'weaver', 'power loom weaver', 'cotton operative'], male: 3, female: 5 },
  { forms: ['blacksmith', 'smith', 'black smith', 'farrier'], male: 3, female: 0 },
  { forms: ['carpenter', 'joiner', 'carpenter and joiner', 'house carpenter', 'carpenter & joiner'], male: 3, female: 0 },
  { forms: ['shoemaker', 'cordwainer', 'boot maker', 'boot and shoe maker', 'cobbler'], male: 3, female: 0.3 },
  { forms: ['tailor', 'taylor', 'journeyman tailor', 'master tailor'], male: 2, female: 0.5 },
  { forms: ['mariner', 'seaman', 'sailor', 'merchant seaman'], male: 3, female: 0 },
  { forms: ['soldier', 'private', 'private soldier', 'soldier (infantry)'], male: 2, female: 0 },
  { forms: ['clergyman', 'clerk in holy orders', 'minister', 'vicar', 'curate'], male: 1, female: 0 },
  { forms: ['surgeon', 'physician', 'doctor of medicine', 'surgeon apothecary', 'M.D.'], male: 1, female: 0 },
  { forms: ['clerk', 'commercial clerk', 'book keeper', 'bookkeeper', 'clerk (commercial)'], male: 3, female: 0.5 },
  { forms: ['merchant', 'general merchant', 'dealer', 'trader'], male: 1.5, female: 0.1 },
  { forms: ['baker', 'master baker', 'baker and confectioner'], male: 1.5, female: 0.3 },
  { forms: ['butcher', 'master butcher', 'slaughterman'], male: 1.5, female: 0 },
  { forms: ['stonemason', 'mason', 'stone mason', 'builder'], male: 2, female: 0 },
  { forms: ['innkeeper', 'publican', 'licensed victualler', 'victualler', 'inn keeper'], male: 1.5, female: 0.5 },
  { forms: ['schoolmaster', 'school master', 'teacher', 'school teacher'], male: 1, female: 0 },
  { forms: ['gentleman', 'gent', 'gent.', 'independent means', 'living on own means', 'fundholder'], male: 1, female: 0.5 },
  { forms: ['domestic servant', 'servant', 'general servant', 'housemaid', 'general domestic servant', 'serv.'], male: 0.5, female: 18 },
  { forms: ['dressmaker', 'dress maker', 'seamstress', 'needlewoman', 'milliner'], male: 0, female: 7 },
  { forms: ['laundress', 'washerwoman', 'washer woman', 'laundry maid'], male: 0, female: 4 },
  { forms: ['housewife', 'wife', 'household duties', 'at home', 'home duties'], male: 0, female: 14 },
  { forms: ['schoolmistress', 'teacher', 'governess', 'school mistress'], male: 0, female: 2 },
  { forms: ['nurse', 'sick nurse', 'monthly nurse', 'hospital nurse'], male: 0, female: 2 },
  { forms: ['cook', 'cook (domestic)', 'kitchen maid'], male: 0.3, female: 3 },
];

/** What a record says when the person was not working at that time. */
export const LIFE_STAGE_OCCUPATIONS: readonly string[] = ['scholar', 'retired', 'pauper', 'annuitant', 'unemployed', 'invalid'];

/**
 * A place of birth: its spellings (first is usual), county forms, UK postcode area ('' for
 * places outside the UK postcode system: born there, never living there), neighbours.
 */
export interface Place {
  readonly forms: readonly string[];
  readonly county: readonly string[];
  readonly area: string;
  readonly near: readonly string[];
}

export const PLACES: readonly Place[] = [
  { forms: ['London', 'City of London', 'Londn'], county: ['Middlesex', 'Middx'], area: 'EC', near: ['Westminster', 'Southwark', 'Stepney'] },
  { forms: ['Westminster', 'St Margaret Westminster', 'Westminstr'], county: ['Middlesex', 'Middx'], area: 'SW', near: ['London', 'Chelsea'] },
  { forms: ['Southwark', 'Southwarke', 'Borough of Southwark'], county: ['Surrey', 'Sy'], area: 'SE', near: ['London', 'Lambeth'] },
  { forms: ['Stepney', 'Stepny', 'Mile End'], county: ['Middlesex', 'Middx'], area: 'E', near: ['London', 'Whitechapel'] },
  { forms: ['Whitechapel', 'White Chapel', 'Whitechappel'], county: ['Middlesex', 'Middx'], area: 'E', near: ['Stepney', 'London'] },
  { forms: ['Lambeth', 'Lambeth Marsh', 'Lambith'], county: ['Surrey', 'Sy'], area: 'SE', near: ['Southwark', 'Chelsea'] },
  { forms: ['Chelsea', 'Chelsey', 'Chelsea Village'], county: ['Middlesex', 'Middx'], area: 'SW', near: ['Westminster', 'Lambeth'] },
  { forms: ['York', 'Yorke', 'City of York'], county: ['Yorkshire', 'Yorks', 'YKS'], area: 'YO', near: ['Selby', 'Tadcaster'] },
  { forms: ['Selby', 'Selbie'], county: ['Yorkshire', 'Yorks', 'YKS'], area: 'YO', near: ['York', 'Tadcaster'] },
  { forms: ['Tadcaster', 'Tadcastr'], county: ['Yorkshire', 'Yorks', 'YKS'], area: 'LS', near: ['York', 'Leeds', 'Selby'] },
  { forms: ['Leeds', 'Leedes', 'Leeds Town'], county: ['Yorkshire', 'Yorks', 'West Riding'], area: 'LS', near: ['Bradford', 'Wakefield', 'Tadcaster'] },
  { forms: ['Bradford', 'Bradforth'], county: ['Yorkshire', 'Yorks', 'West Riding'], area: 'BD', near: ['Leeds', 'Halifax'] },
  { forms: ['Halifax', 'Hallifax'], county: ['Yorkshire', 'Yorks', 'West Riding'], area: 'HX', near: ['Bradford', 'Huddersfield'] },
  { forms: ['Huddersfield', 'Huddersfeild', 'Hudersfield'], county: ['Yorkshire', 'Yorks', 'West Riding'], area: 'HD', near: ['Halifax', 'Wakefield'] },
  { forms: ['Wakefield', 'Wakefeild'], county: ['Yorkshire', 'Yorks', 'West Riding'], area: 'WF', near: ['Leeds', 'Huddersfield'] },
  { forms: ['Sheffield', 'Sheffeild', 'Sheffld'], county: ['Yorkshire', 'Yorks', 'West Riding'], area: 'S', near: ['Rotherham'] },
  { forms: ['Rotherham', 'Rotheram'], county: ['Yorkshire', 'Yorks', 'West Riding'], area: 'S', near: ['Sheffield'] },
  { forms: ['Kingston upon Hull', 'Hull', 'Kingston-upon-Hull'], county: ['Yorkshire', 'Yorks', 'East Riding'], area: 'HU', near: ['Beverley'] },
  { forms: ['Beverley', 'Beverly'], county: ['Yorkshire', 'Yorks', 'East Riding'], area: 'HU', near: ['Kingston upon Hull'] },
  { forms: ['Manchester', 'Manchestr', 'Mancheser'], county: ['Lancashire', 'Lancs', 'LAN'], area: 'M', near: ['Salford', 'Oldham', 'Bolton'] },
  { forms: ['Salford', 'Salforde'], county: ['Lancashire', 'Lancs', 'LAN'], area: 'M', near: ['Manchester', 'Bolton'] },
  { forms: ['Oldham', 'Oldam'], county: ['Lancashire', 'Lancs', 'LAN'], area: 'OL', near: ['Manchester'] },
  { forms: ['Bolton', 'Bolton le Moors', 'Bolton-le-Moors'], county: ['Lancashire', 'Lancs', 'LAN'], area: 'BL', near: ['Salford', 'Wigan'] },
  { forms: ['Wigan', 'Wiggan'], county: ['Lancashire', 'Lancs', 'LAN'], area: 'WN', near: ['Bolton', 'Liverpool'] },
  { forms: ['Liverpool', 'Liverpoole', 'Leverpool'], county: ['Lancashire', 'Lancs', 'LAN'], area: 'L', near: ['Bootle', 'Wigan'] },
  { forms: ['Bootle', 'Bootle cum Linacre'], county: ['Lancashire', 'Lancs', 'LAN'], area: 'L', near: ['Liverpool'] },
  { forms: ['Preston', 'Prestn'], county: ['Lancashire', 'Lancs', 'LAN'], area: 'PR', near: ['Blackburn', 'Wigan'] },
  { forms: ['Blackburn', 'Blackbourne'], county: ['Lancashire', 'Lancs', 'LAN'], area: 'BB', near: ['Preston'] },
  { forms: ['Bristol', 'Bristoll', 'City of Bristol'], county: ['Gloucestershire', 'Glos', 'GLS'], area: 'BS', near: ['Bath'] },
  { forms: ['Bath', 'City of Bath'], county: ['Somerset', 'Som', 'SOM'], area: 'BA', near: ['Bristol'] },
  { forms: ['Norwich', 'Norwch', 'City of Norwich'], county: ['Norfolk', 'Norf', 'NFK'], area: 'NR', near: ['Great Yarmouth'] },
  { forms: ['Great Yarmouth', 'Yarmouth', 'Gt Yarmouth'], county: ['Norfolk', 'Norf', 'NFK'], area: 'NR', near: ['Norwich'] },
  { forms: ["King's Lynn", 'Kings Lynn', 'Lynn', 'Lynn Regis'], county: ['Norfolk', 'Norf', 'NFK'], area: 'PE', near: ['Norwich'] },
  { forms: ['Bury St Edmunds', 'Bury St. Edmunds', 'Bury'], county: ['Suffolk', 'Suff', 'SFK'], area: 'IP', near: ['Ipswich'] },
  { forms: ['Ipswich', 'Ipswitch', 'Gipping'], county: ['Suffolk', 'Suff', 'SFK'], area: 'IP', near: ['Bury St Edmunds', 'Colchester'] },
  { forms: ['Colchester', 'Colchestr'], county: ['Essex', 'Ess', 'ESS'], area: 'CO', near: ['Ipswich'] },
  { forms: ['Canterbury', 'Canterbery', 'City of Canterbury'], county: ['Kent', 'KEN'], area: 'CT', near: ['Dover'] },
  { forms: ['Dover', 'Dovor'], county: ['Kent', 'KEN'], area: 'CT', near: ['Canterbury'] },
  { forms: ['Shrewsbury', 'Shrewsberry', 'Shrowsbury'], county: ['Shropshire', 'Salop', 'SAL'], area: 'SY', near: ['Ludlow'] },
  { forms: ['Ludlow', 'Ludlowe'], county: ['Shropshire', 'Salop', 'SAL'], area: 'SY', near: ['Shrewsbury'] },
  { forms: ['Birmingham', 'Brummagem', 'Birmingam'], county: ['Warwickshire', 'Warks', 'WAR'], area: 'B', near: ['Wolverhampton', 'Coventry'] },
  { forms: ['Wolverhampton', 'Wolverhampon', 'Wolverhamton'], county: ['Staffordshire', 'Staffs', 'STS'], area: 'WV', near: ['Birmingham'] },
  { forms: ['Coventry', 'Coventrie', 'City of Coventry'], county: ['Warwickshire', 'Warks', 'WAR'], area: 'CV', near: ['Birmingham', 'Stratford-upon-Avon'] },
  { forms: ['Stratford-upon-Avon', 'Stratford on Avon', 'Stratford'], county: ['Warwickshire', 'Warks', 'WAR'], area: 'CV', near: ['Coventry'] },
  { forms: ['Ashby-de-la-Zouch', 'Ashby de la Zouch', 'Ashby'], county: ['Leicestershire', 'Leics', 'LEI'], area: 'LE', near: ['Leicester'] },
  { forms: ['Leicester', 'Leicestor', 'Lester'], county: ['Leicestershire', 'Leics', 'LEI'], area: 'LE', near: ['Ashby-de-la-Zouch'] },
  { forms: ['Newcastle upon Tyne', 'Newcastle', 'Newcastle-on-Tyne'], county: ['Northumberland', 'Northd', 'NBL'], area: 'NE', near: ['Gateshead', 'Sunderland'] },
  { forms: ['Gateshead', 'Gates Head', 'Gateside'], county: ['Durham', 'Dur', 'DUR'], area: 'NE', near: ['Newcastle upon Tyne', 'Sunderland'] },
  { forms: ['Sunderland', 'Bishopwearmouth', 'Sunderlnd'], county: ['Durham', 'Dur', 'DUR'], area: 'SR', near: ['Gateshead', 'Durham'] },
  { forms: ['Durham', 'City of Durham', 'Duresme'], county: ['Durham', 'Dur', 'DUR'], area: 'DH', near: ['Sunderland'] },
  { forms: ['St Ives', 'Saint Ives', 'St. Ives'], county: ['Cornwall', 'Corn', 'CON'], area: 'TR', near: ['Penzance'] },
  { forms: ['Penzance', 'Pensance'], county: ['Cornwall', 'Corn', 'CON'], area: 'TR', near: ['St Ives'] },
  { forms: ['Edinburgh', 'Edinburg', 'Edinbro', 'Edinboro'], county: ['Midlothian', 'Edinburghshire', 'MLN'], area: 'EH', near: ['Leith'] },
  { forms: ['Leith', 'South Leith', 'North Leith'], county: ['Midlothian', 'Edinburghshire', 'MLN'], area: 'EH', near: ['Edinburgh'] },
  { forms: ['Glasgow', 'Glasgo', 'City of Glasgow'], county: ['Lanarkshire', 'Lanark', 'LKS'], area: 'G', near: ['Paisley'] },
  { forms: ['Paisley', 'Paisly', 'Abbey Paisley'], county: ['Renfrewshire', 'Renfrew', 'RFW'], area: 'PA', near: ['Glasgow'] },
  { forms: ['Aberdeen', 'Aberdene', 'Old Aberdeen'], county: ['Aberdeenshire', 'Aberdeen', 'ABD'], area: 'AB', near: ['Dundee'] },
  { forms: ['Dundee', 'Dundie'], county: ['Angus', 'Forfarshire', 'ANS'], area: 'DD', near: ['Aberdeen'] },
  { forms: ['Cardiff', 'Caerdydd', 'Cardiffe'], county: ['Glamorgan', 'Glam', 'GLA'], area: 'CF', near: ['Merthyr Tydfil', 'Swansea'] },
  { forms: ['Merthyr Tydfil', 'Merthyr', 'Merthyr Tydvil'], county: ['Glamorgan', 'Glam', 'GLA'], area: 'CF', near: ['Cardiff'] },
  { forms: ['Swansea', 'Abertawe', 'Swanzey'], county: ['Glamorgan', 'Glam', 'GLA'], area: 'SA', near: ['Cardiff'] },
  { forms: ['Belfast', 'Belfaste'], county: ['Antrim', 'Co. Antrim', 'ANT'], area: 'BT', near: ['Carrickfergus'] },
  { forms: ['Carrickfergus', 'Carrickfergas', 'Knockfergus'], county: ['Antrim', 'Co. Antrim', 'ANT'], area: 'BT', near: ['Belfast'] },
  { forms: ['Dublin', 'Dublin City', 'Dublen'], county: ['Co. Dublin', 'Dublin', 'DUB'], area: '', near: ['Kingstown'] },
  { forms: ['Kingstown', 'Dun Laoghaire', 'Dunleary'], county: ['Co. Dublin', 'Dublin', 'DUB'], area: '', near: ['Dublin'] },
  { forms: ['Cork', 'Corke', 'City of Cork'], county: ['Co. Cork', 'Cork', 'COR'], area: '', near: ['Cobh'] },
  { forms: ['Cobh', 'Queenstown', 'Cove of Cork'], county: ['Co. Cork', 'Cork', 'COR'], area: '', near: ['Cork'] },
];

/** Letters allowed in the inward part of a UK postcode. */
export const POSTCODE_INWARD_LETTERS = 'ABDEFGHJLNPQRSTUWXYZ';

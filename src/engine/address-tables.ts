/**
 * Address standardization tables: data, passed to normalizeAddress as arguments so that a
 * test (or a country profile) can pass its own. Keys are folded (lower case, no accents) and
 * compact where noted; values are the folded standard forms.
 *
 * Sources: USPS Publication 28, Postal Addressing Standards (Appendix C1 street suffixes,
 * Appendix C2 secondary unit designators, section 233 directionals, Appendix B state
 * abbreviations); Canada Post Addressing Guidelines (province symbols); Australia Post /
 * AS/NZS 4819 (state and road-type abbreviations); ISO 3166-1 (country codes). The USPS
 * suffix, directional and unit tables are data files (data/usps/, generated into
 * generated/address-tables.ts by data/build-address-tables.ts).
 */
import { DIRECTIONAL_ROWS, STREET_SUFFIX_ROWS, UNIT_DESIGNATOR_ROWS } from './generated/address-tables.js';

/** A secondary unit designator (Pub 28 Appendix C2). */
export interface UnitDesignator {
  /** Standard abbreviation, folded: "apt", "ste". "#" when the designator is "#". */
  readonly abbreviation: string;
  /** Pub 28 C2 "requires secondary range": the designator is followed by a unit number. */
  readonly needsNumber: boolean;
  /** Also written after its number: "3rd Floor" = "Fl 3". */
  readonly numberFirst?: boolean | undefined;
}

/** All tables address normalization reads. */
export interface AddressTables {
  /** Street suffix, any written form -> standard abbreviation ("avenue", "av", "aven" -> "ave"). */
  readonly suffixes: ReadonlyMap<string, string>;
  /** Directional word -> abbreviation ("north", "nth", "n" -> "n"; "northeast" -> "ne"). */
  readonly directionals: ReadonlyMap<string, string>;
  /** Secondary unit designator, any written form -> designator ("suite", "ste" -> ste). */
  readonly unitDesignators: ReadonlyMap<string, UnitDesignator>;
  /** Name words with a standard short form in street and city names ("saint" -> "st"). */
  readonly nameWords: ReadonlyMap<string, string>;
  /** Ordinal words -> numeric ordinals ("first" -> "1st"), as USPS writes numbered streets. */
  readonly ordinals: ReadonlyMap<string, string>;
  /** State or province name, folded compact ("newyork") -> code ("ny"). */
  readonly states: ReadonlyMap<string, string>;
  /** Country name or code, folded compact ("unitedstates", "usa") -> ISO alpha-2 ("US"). */
  readonly countries: ReadonlyMap<string, string>;
}

function groups(rows: readonly (readonly [string, string])[]): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  for (const [standard, forms] of rows) {
    map.set(standard, standard);
    for (const form of forms.split(' ')) if (form.length > 0) map.set(form, standard);
  }
  return map;
}

/**
 * USPS Publication 28 Appendix C1, street suffixes: every primary suffix name and every
 * "commonly used street suffix or abbreviation" -> the "Postal Service standard suffix
 * abbreviation" (lower case). Data: data/usps/street-suffixes.csv.
 */
export const USPS_STREET_SUFFIXES: ReadonlyMap<string, string> = groups(STREET_SUFFIX_ROWS);

/**
 * Road types common outside the US that Pub 28 lacks (AS/NZS 4819 road-type abbreviations;
 * FEBRL's Australian records use "circuit" and "close"), plus the Australian spelling
 * "boulevarde".
 */
export const EXTRA_STREET_SUFFIXES: ReadonlyMap<string, string> = groups([
  ['cct', 'circuit'],
  ['cl', 'close'],
  ['pde', 'parade'],
  ['esp', 'esplanade'],
  ['prom', 'promenade'],
  ['qy', 'quay'],
  ['blvd', 'boulevarde'],
]);

/**
 * Directionals (Pub 28 section 233 and Appendix B): the eight compass points, with the
 * spellings "nth", "sth" and the hyphen-free compounds. Split compounds ("north east",
 * "n.e.") are joined by the normalizer. Data: data/usps/directionals.csv.
 */
export const DIRECTIONALS: ReadonlyMap<string, string> = groups(DIRECTIONAL_ROWS);

function designators(rows: readonly (readonly [abbreviation: string, needsNumber: boolean, forms: string])[]): ReadonlyMap<string, UnitDesignator> {
  const map = new Map<string, UnitDesignator>();
  for (const [abbreviation, needsNumber, forms] of rows) {
    const numberFirst = abbreviation === 'fl' || abbreviation === 'lvl';
    const designator: UnitDesignator = Object.freeze({ abbreviation, needsNumber, numberFirst });
    map.set(abbreviation, designator);
    for (const form of forms.split(' ')) if (form.length > 0) map.set(form, designator);
  }
  return map;
}

/**
 * Secondary unit designators, USPS Publication 28 Appendix C2 (name, abbreviation, whether
 * a range number follows), the common misspellings "appt", "flr", "bld", "suit", and "#"
 * (Pub 28 213: "#" when the designator is unknown). "flat" and "level" are the AS/NZS 4819
 * unit and level types. Floors and levels are also written number first ("3rd Floor").
 * Data: data/usps/unit-designators.csv.
 */
export const UNIT_DESIGNATORS: ReadonlyMap<string, UnitDesignator> = designators(UNIT_DESIGNATOR_ROWS);

/** Name words written either way in street and city names: "Saint Louis" = "St Louis". */
export const NAME_WORDS: ReadonlyMap<string, string> = new Map([
  ['saint', 'st'],
  ['sainte', 'ste'],
  ['mount', 'mt'],
  ['fort', 'ft'],
]);

/**
 * Ordinal words 1-20 and the tens -> numeric ordinals (Pub 28 235: numbered streets as in the
 * ZIP+4 file). Compound ordinals ("Twenty-Third") are joined by {@link pushStreetWord}.
 */
export const ORDINAL_WORDS: ReadonlyMap<string, string> = new Map([
  ['first', '1st'],
  ['second', '2nd'],
  ['third', '3rd'],
  ['fourth', '4th'],
  ['fifth', '5th'],
  ['sixth', '6th'],
  ['seventh', '7th'],
  ['eighth', '8th'],
  ['ninth', '9th'],
  ['tenth', '10th'],
  ['eleventh', '11th'],
  ['twelfth', '12th'],
  ['thirteenth', '13th'],
  ['fourteenth', '14th'],
  ['fifteenth', '15th'],
  ['sixteenth', '16th'],
  ['seventeenth', '17th'],
  ['eighteenth', '18th'],
  ['nineteenth', '19th'],
  ['twentieth', '20th'],
  ['thirtieth', '30th'],
  ['fortieth', '40th'],
  ['fiftieth', '50th'],
  ['sixtieth', '60th'],
  ['seventieth', '70th'],
  ['eightieth', '80th'],
  ['ninetieth', '90th'],
]);

/** Tens words that open a compound ordinal: "twenty" of "Twenty-Third" (23rd). */
const TENS_WORDS: ReadonlyMap<string, string> = new Map([
  ['twenty', '2'],
  ['thirty', '3'],
  ['forty', '4'],
  ['fifty', '5'],
  ['sixty', '6'],
  ['seventy', '7'],
  ['eighty', '8'],
  ['ninety', '9'],
]);
const UNIT_ORDINAL = /^[1-9](?:st|nd|rd|th)$/;

/**
 * Pushes a street-line word (ordinal words already made numbers) onto `out`, joining a tens
 * word and the ordinal after it into one number: "twenty", "3rd" -> "23rd" ("Twenty-Third
 * Street", "Twenty Third St" and "23rd St" are one street; the digit's own suffix is the
 * compound's: 21st, 22nd, 23rd).
 */
export function pushStreetWord(out: string[], word: string): void {
  const tens = UNIT_ORDINAL.test(word) && out.length > 0 ? TENS_WORDS.get(out[out.length - 1] as string) : undefined;
  if (tens === undefined) out.push(word);
  else out[out.length - 1] = `${tens}${word}`;
}

/**
 * State, territory and province names -> codes, keys folded compact. US: Pub 28 Appendix B
 * (states, DC, territories, armed forces) plus the older GPO abbreviations ("calif",
 * "mass"); Canada: Canada Post province symbols (English and French names); Australia:
 * Australia Post state abbreviations.
 */
export const STATE_NAMES: ReadonlyMap<string, string> = groups([
  ['al', 'alabama ala'],
  ['ak', 'alaska alas'],
  ['az', 'arizona ariz'],
  ['ar', 'arkansas ark'],
  ['ca', 'california calif cal'],
  ['co', 'colorado colo'],
  ['ct', 'connecticut conn'],
  ['de', 'delaware del'],
  ['dc', 'districtofcolumbia washingtondc'],
  ['fl', 'florida fla'],
  ['ga', 'georgia'],
  ['hi', 'hawaii'],
  ['id', 'idaho'],
  ['il', 'illinois ill'],
  ['in', 'indiana ind'],
  ['ia', 'iowa'],
  ['ks', 'kansas kans kan'],
  ['ky', 'kentucky'],
  ['la', 'louisiana'],
  ['me', 'maine'],
  ['md', 'maryland'],
  ['ma', 'massachusetts mass'],
  ['mi', 'michigan mich'],
  ['mn', 'minnesota minn'],
  ['ms', 'mississippi miss'],
  ['mo', 'missouri'],
  ['mt', 'montana mont'],
  ['ne', 'nebraska nebr neb'],
  ['nv', 'nevada nev'],
  ['nh', 'newhampshire'],
  ['nj', 'newjersey'],
  ['nm', 'newmexico nmex'],
  ['ny', 'newyork'],
  ['nc', 'northcarolina'],
  ['nd', 'northdakota ndak'],
  ['oh', 'ohio'],
  ['ok', 'oklahoma okla'],
  ['or', 'oregon oreg ore'],
  ['pa', 'pennsylvania penn penna'],
  ['ri', 'rhodeisland'],
  ['sc', 'southcarolina'],
  ['sd', 'southdakota sdak'],
  ['tn', 'tennessee tenn'],
  ['tx', 'texas tex'],
  ['ut', 'utah'],
  ['vt', 'vermont'],
  ['va', 'virginia'],
  ['wa', 'washington wash'],
  ['wv', 'westvirginia wva'],
  ['wi', 'wisconsin wis wisc'],
  ['wy', 'wyoming wyo'],
  ['as', 'americansamoa'],
  ['gu', 'guam'],
  ['mp', 'northernmarianaislands'],
  ['pr', 'puertorico'],
  ['vi', 'virginislands usvirginislands'],
  ['fm', 'federatedstatesofmicronesia'],
  ['mh', 'marshallislands'],
  ['pw', 'palau'],
  ['aa', 'armedforcesamericas'],
  ['ae', 'armedforceseurope'],
  ['ap', 'armedforcespacific'],
  ['ab', 'alberta'],
  ['bc', 'britishcolumbia colombiebritannique'],
  ['mb', 'manitoba'],
  ['nb', 'newbrunswick nouveaubrunswick'],
  ['nl', 'newfoundlandandlabrador newfoundland terreneuveetlabrador'],
  ['ns', 'novascotia nouvelleecosse'],
  ['nt', 'northwestterritories territoiresdunordouest'],
  ['nu', 'nunavut'],
  ['on', 'ontario'],
  ['pe', 'princeedwardisland ileduprinceedouard'],
  ['qc', 'quebec'],
  ['sk', 'saskatchewan'],
  ['yt', 'yukon'],
  ['nsw', 'newsouthwales'],
  ['vic', 'victoria'],
  ['qld', 'queensland'],
  ['sa', 'southaustralia'],
  ['wa', 'westernaustralia'],
  ['tas', 'tasmania'],
  ['act', 'australiancapitalterritory'],
  ['nt', 'northernterritory'],
]);

/**
 * Country names and codes -> ISO 3166-1 alpha-2, keys folded compact. Common English names
 * and alpha-3 codes of the countries campaign files most often carry; "UK" -> "GB".
 * Any other two-letter code is taken as alpha-2 as written.
 */
export const COUNTRY_NAMES: ReadonlyMap<string, string> = new Map(
  (
    [
      ['US', 'us usa unitedstates unitedstatesofamerica america'],
      ['CA', 'ca can canada'],
      ['GB', 'gb gbr uk unitedkingdom greatbritain britain england scotland wales northernireland'],
      ['AU', 'au aus australia'],
      ['NZ', 'nz nzl newzealand'],
      ['IE', 'ie irl ireland'],
      ['MX', 'mx mex mexico'],
      ['DE', 'de deu germany deutschland'],
      ['FR', 'fr fra france'],
      ['ES', 'es esp spain espana'],
      ['IT', 'it ita italy italia'],
      ['NL', 'nl nld netherlands holland'],
      ['IN', 'in ind india'],
      ['CN', 'cn chn china'],
      ['JP', 'jp jpn japan'],
      ['PH', 'ph phl philippines'],
      ['PR', 'pr pri puertorico'],
      ['BR', 'br bra brazil brasil'],
      ['ZA', 'za zaf southafrica'],
      ['IL', 'il isr israel'],
    ] as const
  ).flatMap(([code, names]) => names.split(' ').map((name) => [name, code] as [string, string])),
);

/** The default tables: Pub 28 suffixes plus the extra road types, and the tables above. */
export const DEFAULT_ADDRESS_TABLES: AddressTables = Object.freeze({
  suffixes: new Map([...USPS_STREET_SUFFIXES, ...EXTRA_STREET_SUFFIXES]),
  directionals: DIRECTIONALS,
  unitDesignators: UNIT_DESIGNATORS,
  nameWords: NAME_WORDS,
  ordinals: ORDINAL_WORDS,
  states: STATE_NAMES,
  countries: COUNTRY_NAMES,
});

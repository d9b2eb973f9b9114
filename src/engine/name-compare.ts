/**
 * Name comparators (first, middle and last names, and swapped first and last names) over
 * {@link NameForms}: a name with the forms the comparisons read of it (compact, OCR fold,
 * sound, nickname groups), each computed once. The index keeps the forms of every stored
 * name (by the record store's string id) and of each lookup's names, so comparing a record's
 * names with a hundred candidates' reads them instead of recomputing them (and looking them
 * up in memos) a hundred times. compare.ts's string comparators build the forms and call these.
 *
 * Past 400 lines because the first-name, surname and swap comparators read the same forms and
 * share their helpers (typo, OCR and swap tests, the memo's entry points): split, each file
 * would import the others' internals.
 */
import { LEVEL_CODE, LEVEL_NAMES, levelBit, type LevelName } from './comparisons.js';
import { NameLevelMemo } from './name-memo.js';
import { compactName, surnameParts } from './name.js';
import { feminineInA, oppositeSexNames, sexOfName, type NameSex } from './name-sex.js';
import { romanizationKey } from './romanize.js';
import { nicknameGroupsOf, variantIdOf, variantIds, type NicknameTable } from './nicknames.js';
import { jaroWinkler, jaroWinklerFrom, levenshtein, ocrConfusions, ocrFold, withinOneEdit, withinTwoEdits } from './similarity.js';

/** What first and last name comparators need beyond the two values. */
export interface NameCompareOptions {
  readonly nicknames: NicknameTable;
  /** Disable Partial Matching (interface.md 1.5): only equal (folded) names agree. */
  readonly strict: boolean;
  readonly fuzzyHigh: number;
  readonly fuzzyLow: number;
  /** Phonetic code of a compact name, for the 'phonetic' level (default: that level never holds). */
  readonly soundOf?: ((name: string) => string) | undefined;
  /** {@link ocrFold} of a compact name, memoized by the caller (default: computed each time). */
  readonly ocrOf?: ((name: string) => string) | undefined;
  /**
   * Levels already found for pairs of stored names (by {@link NameForms.id}), for these options
   * and one model's levels: an index's own, made with its score contexts (absent: none kept).
   */
  readonly memo?: NameLevelMemos | undefined;
  /**
   * Two nearly equal first names given to opposite sexes (name-sex.ts: "Antonio" / "Antonia")
   * are another given name: at most 'fuzzy-low', never 'nickname', 'typo', 'fuzzy-high' or
   * 'phonetic'. Default false.
   */
  readonly sexedNames?: boolean;
  /**
   * One name written another way is nearly equal ('fuzzy-high'): two romanizations of one
   * Cyrillic first name (romanize.ts: "Dmitrii" / "Dmitry", "Aleksandr" / "Alexander"), not two
   * typos apart; a middle name as a nickname, by its sound or as a word of a double middle name
   * (James / Jim, Stephen / Steven, Ann / Anne Marie), not another given name. Default false
   * (files learn their own levels; a CRM turns it on).
   */
  readonly nameVariants?: boolean;
}

const NO_GROUPS: readonly number[] = Object.freeze([]);

/** The name counts {@link NameForms.count} reads (score.ts TermFrequencies). */
export interface TermCounts {
  firstNameCount(name: string): number;
  lastNameCount(name: string): number;
  readonly version?: number;
}

/**
 * A (folded) name and the forms comparisons read of it. The lazily computed forms depend on
 * the options' nickname table and sound function: one NameForms serves one set of options
 * (an index's), never several.
 */
export class NameForms {
  /** The name without spaces, the form names are compared in ("de la cruz" -> "delacruz"). */
  readonly compact: string;
  private ocrForm: string | null = null;
  private soundForm: string | null = null;
  private groupIds: readonly number[] | null = null;
  /** variantId once read (-2: not yet). */
  private nicknameId = -2;
  private ocrNicknameId = -2;
  /** {@link consonants} once read (null: not yet), and whether the name reads as transliterated from Arabic (-1: not yet read). */
  private consonantForm: string | null = null;
  private arabicLike = -1;
  private romanForm: string | null = null;
  /** {@link sexOfName} of the compact name (undefined: not yet read). */
  private sexForm: NameSex | undefined = undefined;
  /** Counts of a stored name ({@link count}) as first name and as surname, the counts' version each was read at (-1: none), and whose. */
  private firstCount = 0;
  private lastCount = 0;
  private firstCountVersion = -1;
  private lastCountVersion = -1;
  private countsOf: TermCounts | null = null;

  /**
   * `id`: the string id of a stored name (the index's record store), by which comparisons of
   * two stored names are remembered (NameLevelMemo); -1 for any other name.
   */
  constructor(
    readonly name: string,
    readonly id = -1,
  ) {
    this.compact = compactName(name);
  }

  /**
   * The compact name's consonants as {@link sameSkeleton} compares them, and whether the name
   * reads as a transliteration from Arabic script ({@link transliterationLike}); each computed
   * once: most pairs compared reach the sound-alike level, and a name meets many.
   */
  consonants(): string {
    return (this.consonantForm ??= skeleton(this.compact));
  }

  /** {@link romanizationKey} of the compact name, read once. */
  romanized(): string {
    return (this.romanForm ??= romanizationKey(this.compact));
  }

  /** {@link transliterationLike} of the compact name, read once. */
  transliterated(): boolean {
    if (this.arabicLike === -1) this.arabicLike = transliterationLike(this.compact) ? 1 : 0;
    return this.arabicLike === 1;
  }

  /**
   * The compact name with OCR confusions undone ({@link ocrFold}; `ocrOf`: a memo of it, for a
   * lookup's own names). A stored name's forms fold it themselves: they keep the fold for the
   * index's life, and the memo (bounded, cleared when full) only cost its map operations.
   */
  ocr(ocrOf: ((name: string) => string) | undefined): string {
    return (this.ocrForm ??= (this.id >= 0 || ocrOf === undefined ? ocrFold : ocrOf)(this.compact));
  }

  /** The sex the compact name is given to, where birth records show one ({@link sexOfName}). */
  sex(): NameSex {
    if (this.sexForm === undefined) this.sexForm = sexOfName(this.compact);
    return this.sexForm;
  }

  /** The compact name's sound (the options' soundOf; defined when that is). */
  sound(soundOf: (name: string) => string): string {
    return (this.soundForm ??= soundOf(this.compact));
  }

  /** Ids of the nickname groups of the compact name. */
  groups(table: NicknameTable): readonly number[] {
    return (this.groupIds ??= table.groupsOf.get(this.compact) ?? NO_GROUPS);
  }

  /** Number of the compact name in the table's nickname relation (-1: none; nicknames.ts variantIdOf). */
  variantId(table: NicknameTable): number {
    if (this.nicknameId === -2) this.nicknameId = variantIdOf(table, this.compact);
    return this.nicknameId;
  }

  /**
   * Records holding the compact name as first name or surname (`tf`'s counts). A stored name's
   * forms keep the count while `tf.version` stays the same (a lookup reads the counts of the
   * same records' names again and again); any other name's is read each time.
   */
  count(tf: TermCounts, which: 'first' | 'last'): number {
    const version = tf.version;
    if (version === undefined || this.id < 0) return which === 'first' ? tf.firstNameCount(this.compact) : tf.lastNameCount(this.compact);
    if (this.countsOf !== tf) {
      this.countsOf = tf;
      this.firstCountVersion = -1;
      this.lastCountVersion = -1;
    }
    if (which === 'first') {
      if (this.firstCountVersion !== version) {
        this.firstCount = tf.firstNameCount(this.compact);
        this.firstCountVersion = version;
      }
      return this.firstCount;
    }
    if (this.lastCountVersion !== version) {
      this.lastCount = tf.lastNameCount(this.compact);
      this.lastCountVersion = version;
    }
    return this.lastCount;
  }

  /** {@link variantId} of the OCR fold, when it differs from the compact name (else -1). */
  ocrVariantId(table: NicknameTable, ocrOf: ((name: string) => string) | undefined): number {
    if (this.ocrNicknameId === -2) {
      const folded = this.ocr(ocrOf);
      this.ocrNicknameId = folded === this.compact ? -1 : variantIdOf(table, folded);
    }
    return this.ocrNicknameId;
  }
}

/** The forms of a name, or null. */
export function formsOf(name: string | null): NameForms | null {
  return name === null ? null : new NameForms(name);
}

/** The forms of a contact's names. */
export interface ContactNames {
  readonly first: NameForms | null;
  readonly middle: NameForms | null;
  readonly last: NameForms | null;
}

/**
 * A contact that carries its names' forms (a record view of the index, a prepared lookup):
 * scoring reads them instead of building them for every pair.
 */
export interface WithNameForms {
  readonly nameForms?: ContactNames | undefined;
}

/** The memos of an index's name comparisons: first names and last names (NameCompareOptions.memo). */
export interface NameLevelMemos {
  readonly first: NameLevelMemo;
  readonly last: NameLevelMemo;
}

/** Fresh memos, for one set of name options and one model's levels. */
export function nameLevelMemos(maxEntries?: number): NameLevelMemos {
  return { first: new NameLevelMemo(maxEntries), last: new NameLevelMemo(maxEntries) };
}

/** Longest first name read as a short prefix of another ("mi" for "minnie"): 2 letters. */
export const MAX_PREFIX_NAME = 2;
/**
 * Longest first name read as a cut of another that it begins ("sus" of "susannah", "nath" of
 * "nathaniel") when the nickname table does not know it as a name: 4 letters, two or more
 * short of the other.
 */
export const MAX_TRUNCATED_NAME = 4;

const B_NICKNAME = levelBit('nickname');
const B_TYPO = levelBit('typo');
const B_FUZZY_HIGH = levelBit('fuzzy-high');
const B_PART = levelBit('part');
const B_CROSS = levelBit('cross');
const B_INITIAL = levelBit('initial');
const B_FUZZY_LOW = levelBit('fuzzy-low');
const B_PHONETIC = levelBit('phonetic');
const B_PARTIAL = levelBit('partial');
/** Every level enabled. */
const ALL_LEVELS = 0xffff;

function tokensOverlap(a: string, b: string): boolean {
  if (a.indexOf(' ') === -1 && b.indexOf(' ') === -1) return false;
  const ta = a.split(' ');
  const tb = b.split(' ');
  for (const x of ta) if (x.length > 1 && tb.includes(x)) return true;
  return false;
}

/**
 * True when two first names of several words that share one ({@link tokensOverlap}) each hold
 * another word the other lacks, and no two such words are one edit apart: "juan carlos" /
 * "juan pablo", "mary kate" / "mary beth" (not "mary ann" / "mary", nor "mary ann" / "mary anne").
 */
function otherCompanions(a: string, b: string): boolean {
  const ta = a.split(' ');
  const tb = b.split(' ');
  const onlyA = ta.filter((x) => x.length > 1 && !tb.includes(x));
  const onlyB = tb.filter((x) => x.length > 1 && !ta.includes(x));
  return onlyA.length > 0 && onlyB.length > 0 && !onlyA.some((x) => onlyB.some((y) => withinOneEdit(x, y)));
}

/**
 * True when two compound surnames share a part and each holds another part the other lacks,
 * none of those misspelt for another ({@link misspeltPart}): two people's surnames, of parents
 * who differ ("garcia lopez" / "garcia perez", "garcia lopez" / "lopez hernandez"), not one
 * surname written in full and cut short ("garcia lopez" / "garcia") or mistyped ("garcia lopez"
 * / "garcia lopes").
 */
function otherCompoundSurnames(a: string, b: string): boolean {
  if (a.indexOf(' ') === -1 || b.indexOf(' ') === -1) return false;
  const pa = surnameParts(a);
  const pb = surnameParts(b);
  if (!pa.some((x) => pb.includes(x))) return false;
  const onlyA = pa.filter((x) => !pb.includes(x));
  const onlyB = pb.filter((x) => !pa.includes(x));
  return onlyA.length > 0 && onlyB.length > 0 && !onlyA.some((x) => onlyB.some((y) => misspeltPart(x, y)));
}

/**
 * One surname part misspelt for the other: one edit apart ("lopez" / "lopes"), or two with the
 * first letter kept in five or more ("jones" / "jcnew", OCR), not "lopez" / "perez".
 */
function misspeltPart(x: string, y: string): boolean {
  return withinOneEdit(x, y) || (x[0] === y[0] && x.length >= 5 && y.length >= 5 && withinTwoEdits(x, y));
}

/**
 * One edit apart, directly or once OCR confusions are undone ("rnary"/"mary", "dav9d"/"david"),
 * or one or two letters OCR confuses apart ("rcsc"/"rose").
 */
function isTypoForms(a: NameForms, b: NameForms, ocrOf: ((name: string) => string) | undefined): boolean {
  if (withinOneEdit(a.compact, b.compact)) return true;
  const ao = a.ocr(ocrOf);
  const bo = b.ocr(ocrOf);
  // Names that fold to themselves (most) were just compared as written.
  return ((ao !== a.compact || bo !== b.compact) && withinOneEdit(ao, bo)) || ocrConfusions(ao, bo);
}

/** {@link isTypoForms} for names at most two letters apart in length. */
function typoOf(a: NameForms, b: NameForms, o: NameCompareOptions): boolean {
  const d = a.compact.length - b.compact.length;
  if (d < -2 || d > 2) return false;
  return isTypoForms(a, b, o.ocrOf);
}

function soundsAlike(a: NameForms, b: NameForms, o: NameCompareOptions): boolean {
  const soundOf = o.soundOf;
  if (soundOf === undefined || a.compact.length < 2 || b.compact.length < 2) return false;
  return a.sound(soundOf) === b.sound(soundOf) || sameSkeleton(a, b);
}

/** Letters Arabic script leaves unwritten or writes as its long vowels (alif, waw, ya). */
const UNWRITTEN = /[aeiouwy]/g;
/** Letters a transliteration of Arabic script never holds (it writes short vowels not at all). */
const WRITTEN_VOWELS = /[eiou]/;
/** Signs of a transliteration from Arabic in a name without e, i, o or u: no vowel at all, a long vowel (w, y), or the feminine ending h. */
const ARABIC_SIGNS = /^[^a]*$|[wy]|[^aeiouy]h$/;

/**
 * True when a name transliterated from Arabic script and a romanization of it share their
 * consonants: Arabic writes no short vowels, and any-ascii gives its long ones as a, w and y
 * ("محمد" -> "mhmd" against "mohammed"; "الحسيني" -> "lhsyny" against "alhusseini"; "عثمان" ->
 * "thmn" against "uthman"). Read only where one of the two reads as such a transliteration
 * ({@link transliterationLike}; "mark" does not): the consonants alone, doubled letters once
 * and a final h (the feminine ending) dropped, equal and two letters or more.
 */
function sameSkeleton(a: NameForms, b: NameForms): boolean {
  if (!a.transliterated() && !b.transliterated()) return false;
  const sa = a.consonants();
  return sa.length >= 2 && sa === b.consonants();
}

/** True when a name could be a transliteration from Arabic script (no e, i, o or u, and {@link ARABIC_SIGNS}): "mhmd", "lyla", "fatmh"; not "mark". */
function transliterationLike(name: string): boolean {
  return !WRITTEN_VOWELS.test(name) && ARABIC_SIGNS.test(name);
}

function skeleton(name: string): string {
  const consonants = name.replace(UNWRITTEN, '').replace(/(.)\1+/g, '$1');
  return consonants.length > 2 && consonants.endsWith('h') ? consonants.slice(0, -1) : consonants;
}

/**
 * True when two different names are nickname variants (nicknames.ts variantIds), as written
 * or once OCR confusions are undone in one of them ("jim" / "jarnes": james).
 */
function nicknameVariants(a: NameForms, b: NameForms, table: NicknameTable, ocrOf: ((name: string) => string) | undefined): boolean {
  if (a.compact === b.compact) return false;
  const ia = a.variantId(table);
  const ib = b.variantId(table);
  if (variantIds(table, ia, ib)) return true;
  // The same name once OCR confusions are undone is a typo, not a nickname.
  if (a.ocr(ocrOf) === b.ocr(ocrOf)) return false;
  const oa = a.ocrVariantId(table, ocrOf);
  const ob = b.ocrVariantId(table, ocrOf);
  return variantIds(table, oa, ib) || variantIds(table, ia, ob) || variantIds(table, oa, ob);
}

/**
 * True when two first names one edit apart are two given names in their own right rather
 * than one name mistyped: both are in the nickname tables (names people are given), neither
 * is a nickname or variant of the other, and they sound different ("mary"/"mark",
 * "donald"/"ronald") or one is the other's feminine form ("paul"/"paula", "eric"/"erica").
 * Spelling variants that sound alike ("mathew", "jakob") and neighbouring letters swapped
 * ("micheal") stay typos. A household
 * holds such pairs; a random slip lands on another given name in about 0.4% of cases.
 * With `sexedNames` (a CRM), two given names (of the nickname tables or the birth lists,
 * name-sex.ts) whose first vowel differs ({@link otherFirstVowel}: "jean"/"joan",
 * "lena"/"lina", "ava"/"eva", "kristen"/"kirsten") are two names whatever their sound, and so
 * are two whose first letters differ and sound different ("dean"/"sean"): twins
 * share the surname, the date of birth, the address, the landline and often an email. (The
 * birth lists hold rarer names than the tables: for the other tests they would also part a
 * dropped letter, "joe"/"joel", "kye"/"kyle", which FEBRL's typos write for one person.)
 */
function anotherGivenName(a: NameForms, b: NameForms, o: NameCompareOptions): boolean {
  const ac = a.compact;
  const bc = b.compact;
  const listed = a.groups(o.nicknames).length !== 0 && b.groups(o.nicknames).length !== 0;
  const soundOf = o.soundOf;
  if (
    o.sexedNames === true &&
    (otherFirstVowel(ac, bc) || (soundOf !== undefined && otherInitial(ac, bc) && a.sound(soundOf) !== b.sound(soundOf))) &&
    (listed || ((a.sex() !== null || a.groups(o.nicknames).length !== 0) && (b.sex() !== null || b.groups(o.nicknames).length !== 0)))
  )
    return true;
  if (!listed) return false;
  if (ac.length === bc.length && adjacentSwap(ac, bc)) return false;
  const [short, long] = ac.length < bc.length ? [ac, bc] : [bc, ac];
  if (long.length === short.length + 1 && long.startsWith(short) && (long.endsWith('a') || long.endsWith('e'))) return true;
  return soundOf !== undefined && a.sound(soundOf) !== b.sound(soundOf);
}

const VOWEL = /[aeiou]/;

/** True when two names differ in their first letter only ("dean"/"sean"). */
function otherInitial(a: string, b: string): boolean {
  return a.length === b.length && a.length > 1 && a[0] !== b[0] && a.slice(1) === b.slice(1);
}

/** Index of the first vowel (a, e, i, o, u) of a compact name, or -1. */
function firstVowelAt(s: string): number {
  for (let i = 0; i < s.length; i++) if (VOWEL.test(s[i] as string)) return i;
  return -1;
}

/**
 * True when two names of one length differ in the vowels of their first syllable: one vowel
 * of the first run of vowels replaced by another ("jean"/"joan", "lena"/"lina", "ava"/"eva"),
 * or two neighbouring letters after the first swapped that move the first vowel
 * ("kristen"/"kirsten"). The
 * first syllable carries the name's sound; a slip in a later one ("kristin"/"kristen",
 * "micheal"/"michael") or a doubled or dropped letter ("mathew") is one name written another
 * way. (Vowels only: "y" is a spelling of "i" in "crystal", "jayden".)
 */
function otherFirstVowel(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  if (i === a.length) return false;
  const va = firstVowelAt(a);
  const vb = firstVowelAt(b);
  if (va < 0 || vb < 0) return false;
  if (a.slice(i + 1) === b.slice(i + 1)) {
    // One letter replaced: a vowel by a vowel, inside the first run of vowels.
    if (!VOWEL.test(a[i] as string) || !VOWEL.test(b[i] as string) || i < va) return false;
    let end = va;
    while (end < a.length && VOWEL.test(a[end] as string)) end++;
    return i < end;
  }
  // Not at the first letter: "lela"/"ella" is FEBRL's typo of one name.
  return i > 0 && va !== vb && adjacentSwap(a, b);
}

/**
 * True when two first names are given to opposite sexes ({@link oppositeSexNames}: "Antonio"
 * / "Antonia", "Francis" / "Frances", "Alexander" / "Alexandra", "Jon" / "Joan"): a brother
 * and a sister, or a couple, who share a household's phone, email and address (twins their
 * date of birth too), never one name mistyped or shortened.
 */
function ofOppositeSexes(a: NameForms, b: NameForms, o: NameCompareOptions): boolean {
  return o.sexedNames === true && namesOfOppositeSexes(a, b, o.nicknames);
}

/**
 * {@link oppositeSexNames} of two names' compact forms (whatever the options), and a man's name
 * and its feminine form in "a" that the birth lists do not both know ({@link feminineInA}).
 */
export function namesOfOppositeSexes(a: NameForms, b: NameForms, nicknames?: NicknameTable): boolean {
  if (!oppositeSexNames(a.compact, b.compact, a.sex(), b.sex())) return feminineFormUnlisted(a, b, nicknames);
  // A diminutive of a name of the other sex (Sammy for Samantha): nickname variants, one shorter by two letters or more.
  return nicknames === undefined || Math.abs(a.compact.length - b.compact.length) < 2 || !variantIds(nicknames, a.variantId(nicknames), b.variantId(nicknames));
}

/**
 * A man's name and its feminine form in "a" where the birth lists know at most the woman's:
 * both unknown to them (Evgeniy / Evgeniya, Vladislav / Vladislava), or the shorter a given
 * name of the nickname tables beside a woman's name (Aleksandr / Aleksandra, Jan / Jana), not
 * a woman's name cut short (Kayl / Kayla, Sar / Sara: truncated fields). Never one name's
 * variants in the tables (Angel / Angela).
 */
function feminineFormUnlisted(a: NameForms, b: NameForms, nicknames: NicknameTable | undefined): boolean {
  const [s, l] = a.compact.length < b.compact.length ? [a, b] : [b, a];
  if (s.sex() !== null || l.sex() === 'M' || !feminineInA(s.compact, l.compact)) return false;
  if (nicknames === undefined) return l.sex() === null;
  if (l.sex() !== null && s.groups(nicknames).length === 0) return false;
  return !variantIds(nicknames, s.variantId(nicknames), l.variantId(nicknames));
}

/** Endings that make a given name feminine (Daniel -> Danielle, Paul -> Pauline, Antoine -> Antoinette). */
const FEMININE_ENDINGS = ['le', 'ne', 'ine', 'ette', 'etta', 'ia', 'na'];

/**
 * True when two given names (both in the nickname tables) are a name and its feminine form
 * with a longer ending than {@link anotherGivenName} reads (one letter): "daniel"/"danielle",
 * "joseph"/"josephine", "paul"/"pauline". Nearly equal by Jaro-Winkler, they are two people.
 */
function feminineForm(a: NameForms, b: NameForms, o: NameCompareOptions): boolean {
  const ac = a.compact;
  const bc = b.compact;
  const [short, long] = ac.length < bc.length ? [ac, bc] : [bc, ac];
  if (!long.startsWith(short) || a.groups(o.nicknames).length === 0 || b.groups(o.nicknames).length === 0) return false;
  const ending = long.slice(short.length);
  return FEMININE_ENDINGS.includes(ending) || (short.endsWith('e') && FEMININE_ENDINGS.includes(`e${ending}`));
}

/**
 * True when two first names differ only by two neighbouring letters swapped ("micheal" /
 * "michael"): a typing slip, which two different given names seldom are.
 */
export function neighboursSwapped(a: NameForms, b: NameForms): boolean {
  return a.compact.length === b.compact.length && adjacentSwap(a.compact, b.compact);
}

/** True when equal-length `a` and `b` differ by exactly one swap of neighbouring letters. */
function adjacentSwap(a: string, b: string): boolean {
  let i = 0;
  while (i < a.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i + 1 < a.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

/** True when one compact name is an initial or a short prefix (<= 2 letters) of the other. */
function isShortPrefix(a: string, b: string, o: NameCompareOptions): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= long.length || !long.startsWith(short)) return false;
  if (short.length <= MAX_PREFIX_NAME) return true;
  // "Sus." for Susannah, "Nath" for Nathaniel: a clerk's or a narrow form field's cut, when
  // the short form is not a given name of its own ("Ann" of "Anna", "Jan" of "Janet").
  return short.length <= MAX_TRUNCATED_NAME && long.length >= short.length + 2 && nicknameGroupsOf(o.nicknames, short).length === 0;
}

/**
 * Two edits apart once OCR confusions are undone (Levenshtein), for names of five letters or
 * more: an OCR'd or twice mistyped name ("rtonda"/"ryanda").
 */
function twoTypos(a: NameForms, b: NameForms, o: NameCompareOptions): boolean {
  const ac = a.compact;
  const bc = b.compact;
  if (ac.length < 5 || bc.length < 5) return false;
  const d = ac.length - bc.length;
  if (d < -2 || d > 2) return false;
  return levenshtein(a.ocr(o.ocrOf), b.ocr(o.ocrOf)) <= 2;
}

/**
 * Two edits apart counting a swap of neighbouring letters as one edit, as written or once OCR
 * confusions are undone, for names of five letters or more: a slip beside a swap
 * ("nacnu"/"nancy", "ajs9n"/"jason"), which Levenshtein counts as three. Tested after the
 * sound, so that names which sound alike stay at that level (its estimate keeps its pairs).
 */
function twoSlips(a: NameForms, b: NameForms, o: NameCompareOptions): boolean {
  const ac = a.compact;
  const bc = b.compact;
  if (ac.length < 5 || bc.length < 5) return false;
  const d = ac.length - bc.length;
  if (d < -2 || d > 2) return false;
  const ao = a.ocr(o.ocrOf);
  const bo = b.ocr(o.ocrOf);
  // Names that fold to themselves (most): the folds are the names, compared once.
  return withinTwoEdits(ao, bo) || ((ao !== ac || bo !== bc) && withinTwoEdits(ac, bc));
}

/**
 * Compares first names: exact, nickname, typo, nearly equal, part ("mary ann"/"mary"), the
 * other's middle name (`middleA`/`middleB`), initial or short prefix, similar, sound-alike,
 * disagree.
 */
export function compareFirstNameForms(
  a: NameForms | null,
  b: NameForms | null,
  o: NameCompareOptions,
  levels = ALL_LEVELS,
  middleA: NameForms | null = null,
  middleB: NameForms | null = null,
): LevelName {
  if (a === null || b === null) return 'missing';
  if (a.name === b.name) return 'exact';
  const memo = o.memo;
  if (memo === undefined || a.id < 0 || b.id < 0) return firstLevel(a, b, o, levels, middleA, middleB, false);
  let code = memo.first.get(a.id, b.id);
  if (code === 0) {
    // The names' own level, flagged when 'cross' comes before it (read per pair below).
    const level = firstLevel(a, b, o, levels, null, null, true);
    code = (crossPending ? CROSS_FLAG : 0) | (LEVEL_CODE[level] + 1);
    memo.first.set(a.id, b.id, code);
  }
  if ((code & CROSS_FLAG) === 0) return LEVEL_NAMES[code - 1] as LevelName;
  // The names' own level is known; only the middle names, which vary with the pair, are read again.
  if ((levels & B_CROSS) !== 0 && ((middleB !== null && middleB.compact === a.compact) || (middleA !== null && middleA.compact === b.compact))) return 'cross';
  return LEVEL_NAMES[(code & ~CROSS_FLAG) - 1] as LevelName;
}

/** A memo entry's flag: the 'cross' level is checked before the remembered level (the names' own). */
const CROSS_FLAG = 0x80;

/**
 * Set by {@link firstLevel} with `pending`: true when its answer comes after the place where
 * 'cross' would have been checked (scoring is synchronous: read it right after the call).
 */
let crossPending = false;

/**
 * The first-name comparison. With `pending`, where 'cross' would be checked (the other's
 * middle name, which varies with the pair while the two first names stay the same) it sets
 * {@link crossPending} and goes on without the middle names (pass null), so the answer is
 * the names' own level below 'cross'; without it, the comparison in full.
 */
function firstLevel(
  a: NameForms,
  b: NameForms,
  o: NameCompareOptions,
  levels: number,
  middleA: NameForms | null,
  middleB: NameForms | null,
  pending: boolean,
): LevelName {
  crossPending = false;
  const ac = a.compact;
  const bc = b.compact;
  if (ac === bc) return 'exact';
  if (o.strict) return 'disagree';
  if ((levels & B_NICKNAME) !== 0 && nicknameVariants(a, b, o.nicknames, o.ocrOf)) {
    // The tables hold a few names of both sexes as variants (Alexander/Alexandra, Louis/Louise).
    if (!ofOppositeSexes(a, b, o)) return 'nickname';
    return (levels & B_FUZZY_LOW) !== 0 ? 'fuzzy-low' : 'disagree';
  }
  const short = ac.length === 1 || bc.length === 1;
  if ((levels & B_TYPO) !== 0 && !short && ac.length + bc.length > 4 && typoOf(a, b, o)) {
    if (!anotherGivenName(a, b, o) && !ofOppositeSexes(a, b, o)) return 'typo';
    // Another given name (Mark/Mary, Paul/Paula, Mario/Maria): at most similar, never the typo level.
    return (levels & B_FUZZY_LOW) !== 0 ? 'fuzzy-low' : 'disagree';
  }
  const jw = short ? 0 : jaroWinklerFrom(ac, bc, Math.min(o.fuzzyHigh, o.fuzzyLow));
  if ((levels & B_FUZZY_HIGH) !== 0 && jw >= o.fuzzyHigh) {
    if (!feminineForm(a, b, o) && !ofOppositeSexes(a, b, o)) return 'fuzzy-high';
    // A man's name and its feminine form (Daniel/Danielle, Joseph/Josephine, Patrick/Patricia): two people.
    return (levels & B_FUZZY_LOW) !== 0 ? 'fuzzy-low' : 'disagree';
  }
  if ((levels & B_PART) !== 0 && tokensOverlap(a.name, b.name)) {
    if (!otherCompanions(a.name, b.name)) return 'part';
    // Juan Carlos / Juan Pablo, Mary Kate / Mary Beth: two given names that share one part.
    return (levels & B_FUZZY_LOW) !== 0 ? 'fuzzy-low' : 'disagree';
  }
  // Pending: the names' own level below 'cross', computed once (it read the same checks above again).
  if (pending && (levels & B_CROSS) !== 0) crossPending = true;
  else if ((levels & B_CROSS) !== 0 && ((middleB !== null && middleB.compact === ac) || (middleA !== null && middleA.compact === bc))) return 'cross';
  if ((levels & B_INITIAL) !== 0 && isShortPrefix(ac, bc, o)) return 'initial';
  if (short) return 'disagree';
  // Two romanizations of one Cyrillic name (Dmitrii / Dmitry, Aleksandr / Alexander): nearly equal.
  if (o.nameVariants === true && (levels & B_FUZZY_HIGH) !== 0 && a.romanized() === b.romanized() && !ofOppositeSexes(a, b, o)) return 'fuzzy-high';
  if ((levels & B_FUZZY_LOW) !== 0 && (jw >= o.fuzzyLow || twoTypos(a, b, o))) return 'fuzzy-low';
  if ((levels & B_PHONETIC) !== 0 && soundsAlike(a, b, o)) {
    if (!ofOppositeSexes(a, b, o)) return 'phonetic';
    return (levels & B_FUZZY_LOW) !== 0 ? 'fuzzy-low' : 'disagree';
  }
  if ((levels & B_FUZZY_LOW) !== 0 && twoSlips(a, b, o)) return 'fuzzy-low';
  if ((levels & B_PARTIAL) !== 0 && alike(a, b, o, jw)) return 'partial';
  return 'disagree';
}

/** Compares surnames: exact (compact: "O'Brien" = "OBrien"), typo, nearly equal, compound part, similar (or two typos apart), sound-alike, disagree. */
export function compareLastNameForms(a: NameForms | null, b: NameForms | null, o: NameCompareOptions, levels = ALL_LEVELS): LevelName {
  if (a === null || b === null) return 'missing';
  if (a.name === b.name) return 'exact';
  const memo = o.memo;
  if (memo === undefined || a.id < 0 || b.id < 0) return lastLevel(a, b, o, levels);
  const code = memo.last.get(a.id, b.id);
  if (code !== 0) return LEVEL_NAMES[code - 1] as LevelName;
  const level = lastLevel(a, b, o, levels);
  memo.last.set(a.id, b.id, LEVEL_CODE[level] + 1);
  return level;
}

function lastLevel(a: NameForms, b: NameForms, o: NameCompareOptions, levels: number): LevelName {
  const ac = a.compact;
  const bc = b.compact;
  if (ac === bc) return 'exact';
  if (o.strict) return 'disagree';
  if ((levels & B_TYPO) !== 0 && ac.length + bc.length > 4 && typoOf(a, b, o)) return 'typo';
  // García López / García Pérez, García López / López Hernández: a cousin, or a mother and
  // daughter of one name, at one address; never 'part' or nearly equal.
  if ((levels & B_PART) !== 0 && otherCompoundSurnames(a.name, b.name)) return (levels & B_FUZZY_LOW) !== 0 ? 'fuzzy-low' : 'disagree';
  const jw = jaroWinklerFrom(ac, bc, Math.min(o.fuzzyHigh, o.fuzzyLow));
  // Jaro-Winkler is harsh on short names: "smith"/"smyth" is 0.89. One edit in five or more
  // letters is a typo too (for models without a 'typo' level).
  // (With the typo level on, names one edit apart were that level above: no Levenshtein here.)
  if ((levels & B_FUZZY_HIGH) !== 0 && (jw >= o.fuzzyHigh || ((levels & B_TYPO) === 0 && ac.length >= 5 && bc.length >= 5 && levenshtein(ac, bc) === 1)))
    return 'fuzzy-high';
  if ((levels & B_PART) !== 0 && (a.name.indexOf(' ') !== -1 || b.name.indexOf(' ') !== -1)) {
    const pb = surnameParts(b.name);
    for (const part of surnameParts(a.name)) if (pb.includes(part)) return 'part';
  }
  if ((levels & B_FUZZY_LOW) !== 0 && (jw >= o.fuzzyLow || twoTypos(a, b, o))) return 'fuzzy-low';
  if ((levels & B_PHONETIC) !== 0 && soundsAlike(a, b, o)) return 'phonetic';
  if ((levels & B_FUZZY_LOW) !== 0 && twoSlips(a, b, o)) return 'fuzzy-low';
  if ((levels & B_PARTIAL) !== 0 && alike(a, b, o, jw)) return 'partial';
  return 'disagree';
}

/**
 * Jaro-Winkler similarity (of the names, or of their OCR folds) from which two names that no
 * closer level holds are still alike: several misread letters ("jclin"/"john" 0.70,
 * "gcrgory"/"greqorv" 0.74, "nzry"/"mary" 0.67), or two related names of one family
 * ("david"/"daniel" 0.76); unrelated names score about 0.4-0.55 ("nicholas"/"elizabeth" 0.49,
 * "ashley"/"barbara" 0.44).
 */
export const ALIKE_NAMES = 0.65;

/** How far below {@link ALIKE_NAMES} (Jaro-Winkler, or its ceiling) names as written may be for their OCR folds to be compared. */
const OCR_FOLD_REACH = 0.15;

/**
 * True when two names are {@link ALIKE_NAMES} alike, as written or as OCR folds them (the
 * 'partial' level of names in file models): "Eva" and "Evangeline" too (0.86), a name and a
 * longer one it begins. Keeping to names within two letters of each other's length cost the
 * historical files up to 0.004 of clustered F1 (bench/README, seventh session).
 */
function alike(a: NameForms, b: NameForms, o: NameCompareOptions, jw: number): boolean {
  if (a.compact.length < 2 || b.compact.length < 2) return false;
  // `jw`: the names' Jaro-Winkler, or a ceiling of it (similarity.ts jaroWinklerFrom); below
  // ALIKE_NAMES either way, the names as written are not alike, and most pairs stop here.
  // At or above it, jaroWinklerFrom(..., ALIKE_NAMES) would find the same ceiling and compute
  // Jaro-Winkler itself: computed directly.
  if (jw >= ALIKE_NAMES && jaroWinkler(a.compact, b.compact) >= ALIKE_NAMES) return true;
  // OCR's folds change a few letters: names far below the mark as written stay below it.
  if (o.ocrOf === undefined || jw < ALIKE_NAMES - OCR_FOLD_REACH) return false;
  // The forms keep their folds (ocrOf's, or ocrFold's for a stored name: the same fold).
  const fa = a.ocr(o.ocrOf);
  const fb = b.ocr(o.ocrOf);
  return (fa !== a.compact || fb !== b.compact) && jaroWinklerFrom(fa, fb, ALIKE_NAMES) >= ALIKE_NAMES;
}

/**
 * True when first and last names are swapped between the two records ("Isla Hall" / "Hall
 * Isla"), each allowing one typo or OCR confusion ("braitwaite imogen" / "imogen braithwaite"),
 * or one of them two ("fdedrie bailey" / "bailey freddie"); or one crossed as written (three
 * letters or more) and the other garbled or cut short at any length ({@link crossedAlike}:
 * "Jones Mia" / "Mi Jones", "Harley Kr" / "Kaur Harley"; files only, `loose`).
 */
export function namesSwappedForms(
  aFirst: NameForms,
  aLast: NameForms,
  bFirst: NameForms,
  bLast: NameForms,
  ocrOf?: (name: string) => string,
  loose = false,
): boolean {
  const af = aFirst.compact;
  const al = aLast.compact;
  const bf = bFirst.compact;
  const bl = bLast.compact;
  if (af === bl && al === bf) return true;
  if (loose && af !== bf && al !== bl) {
    if (af === bl && af.length >= 3 && crossedAlike(aLast, bFirst, ocrOf)) return true;
    if (al === bf && al.length >= 3 && crossedAlike(aFirst, bLast, ocrOf)) return true;
  }
  if (af.length < 3 || al.length < 3 || bf.length < 3 || bl.length < 3) return false;
  if (af === bf && al === bl) return false;
  const firstCrossed = af === bl || isTypoForms(aFirst, bLast, ocrOf);
  const lastCrossed = al === bf || isTypoForms(aLast, bFirst, ocrOf);
  if (firstCrossed && lastCrossed) return true;
  // One name crossed as written or one slip off, the other two slips off ("fdedrie bailey" /
  // "bailey freddie"): the swap and the slips are each a common data-entry error.
  return (firstCrossed && twoSlipsApart(aLast, bFirst, ocrOf)) || (lastCrossed && twoSlipsApart(aFirst, bLast, ocrOf));
}

/**
 * Which names read as swapped between two records: 'both' when each record has both names
 * and they are swapped ({@link namesSwappedForms}); when one record has one name only,
 * 'first' or 'last' (the field that one name is in) when it agrees, as written or one slip
 * off, with the other record's name in the other column ("Hunter Noah" / surname "Hunte":
 * one record's columns swapped, the other's first name left blank); else null.
 */
export function nameCrossed(q: ContactNames, r: ContactNames, ocrOf?: (name: string) => string, loose = false): 'both' | 'first' | 'last' | null {
  const { first: qf, last: ql } = q;
  const { first: rf, last: rl } = r;
  if (qf !== null && ql !== null && rf !== null && rl !== null) return namesSwappedForms(qf, ql, rf, rl, ocrOf, loose) ? 'both' : null;
  const crossed = (one: NameForms, other: NameForms): boolean =>
    one.compact === other.compact || (one.compact.length >= 3 && other.compact.length >= 3 && isTypoForms(one, other, ocrOf));
  if (qf !== null && ql !== null) {
    if (rf !== null && rl === null) return crossed(rf, ql) ? 'first' : null;
    if (rl !== null && rf === null) return crossed(rl, qf) ? 'last' : null;
  } else if (rf !== null && rl !== null) {
    if (qf !== null && ql === null) return crossed(qf, rl) ? 'first' : null;
    if (ql !== null && qf === null) return crossed(ql, rf) ? 'last' : null;
  }
  return null;
}

/**
 * The other crossed name of a swap whose first crossed name agrees as written: two edits apart
 * (as written or once OCR confusions are undone) or one the start of the other (two letters or
 * more), at any length. In fake_1000, 32 true pairs read so (30 two edits apart, 2 cut short)
 * against 1 of 300,000 random pairs of different people: the exact crossing is the rare part.
 */
function crossedAlike(a: NameForms, b: NameForms, ocrOf: ((name: string) => string) | undefined): boolean {
  const ac = a.compact;
  const bc = b.compact;
  if (ac.length < 2 || bc.length < 2) return false;
  if (ac.startsWith(bc) || bc.startsWith(ac) || withinTwoEdits(ac, bc)) return true;
  const ao = a.ocr(ocrOf);
  const bo = b.ocr(ocrOf);
  return (ao !== ac || bo !== bc) && withinTwoEdits(ao, bo);
}

/** A name's vowels in order ("stephen" -> "ee"). */
const vowelsOf = (name: string): string => name.replace(/[^aeiouy]/g, '');

/**
 * {@link compareMiddleNameForms}: one middle name written another way (not across sexes): a
 * nickname or variant; a name that sounds alike with the same vowels, spelt with other
 * consonants (Stephen / Steven, Carl / Karl), not two names a vowel tells apart (Ray / Roy,
 * Dan / Don, Dean / Dawn: a father's and a son's); or a word of a double middle name within one
 * letter of a single one (Ann / Anne Marie). Two single names one letter apart are two names
 * (Don / Ron, Jim / Tim, Kyle / Lyle), as they were before name variants.
 */
function sameMiddleName(a: NameForms, b: NameForms, o: NameCompareOptions): boolean {
  if (o.strict || ofOppositeSexes(a, b, o)) return false;
  if (nicknameVariants(a, b, o.nicknames, o.ocrOf)) return true;
  if (soundsAlike(a, b, o) && vowelsOf(a.compact) === vowelsOf(b.compact)) return true;
  const [one, two] = a.name.includes(' ') ? [b.name, a.name] : [a.name, b.name];
  return !one.includes(' ') && two.includes(' ') && two.split(' ').some((word) => word.length > 1 && withinOneEdit(word, one));
}

/** Two edits apart (a swap of neighbours one edit), as written or once OCR confusions are undone, for names of five letters or more. */
function twoSlipsApart(a: NameForms, b: NameForms, ocrOf: ((name: string) => string) | undefined): boolean {
  if (a.compact.length < 5 || b.compact.length < 5) return false;
  if (withinTwoEdits(a.compact, b.compact)) return true;
  const ao = a.ocr(ocrOf);
  const bo = b.ocr(ocrOf);
  return (ao !== a.compact || bo !== b.compact) && withinTwoEdits(ao, bo);
}

/**
 * Compares middle names: exact, initial, nearly equal, disagree. With `o` (an index's name
 * options) asking for name variants, one middle name written another way is nearly equal too: a nickname or variant
 * (James / Jim), the same sound (Stephen / Steven), or a word of a double middle name within one
 * letter of the other (Ann / Anne Marie); never two names of opposite sexes.
 */
export function compareMiddleNameForms(a: NameForms | null, b: NameForms | null, levels = ALL_LEVELS, o?: NameCompareOptions): LevelName {
  if (a === null || b === null) return 'missing';
  const ac = a.compact;
  const bc = b.compact;
  if (ac === bc) return 'exact';
  if (ac.length === 1 || bc.length === 1) return (levels & B_INITIAL) !== 0 && ac[0] === bc[0] ? 'initial' : 'disagree';
  if ((levels & B_FUZZY_HIGH) !== 0 && jaroWinklerFrom(ac, bc, 0.92) >= 0.92) return 'fuzzy-high';
  if (o?.nameVariants === true && (levels & B_FUZZY_HIGH) !== 0 && sameMiddleName(a, b, o)) return 'fuzzy-high';
  // Where the model tells them apart (the CRM's): two given names (James / Michael) are two
  // people's, while a middle name that is no given name may be one misread ("Matfhcw").
  return (levels & B_FUZZY_LOW) === 0 || (a.sex() !== null && b.sex() !== null) ? 'disagree' : 'fuzzy-low';
}

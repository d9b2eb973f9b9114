/**
 * The in-memory contact index: records filed under several blocking keys, updated
 * incrementally (add, replace, remove by id; no rebuild), and `find`, which gates, blocks,
 * scores, decides and explains.
 *
 * Past 400 lines because it is one class whose private state (the record store, the key
 * postings, the term-frequency counts, the name memos) every write and every lookup updates or
 * reads together, and exportState/importState carry as one. The stages it runs live apart:
 * normalization (contact.ts), keys (blocking.ts), candidates (candidate-selection.ts), records
 * (record-store.ts), scoring (score.ts), deciding (decide.ts), explaining (explain.ts).
 */
import { blockingHashes, CRM_KEYS, KEY_KINDS, phoneticKey, townPostalHashes, unnamedHashes } from './blocking.js';
import { normalizeContact, type NormalizeOptions } from './contact.js';
import {
  compareCandidates,
  decidePair,
  possibleReason,
  unmatchedReason,
  type Decision,
  type DecisionPolicy,
  type MatchReason,
  type ScoredCandidate,
} from './decide.js';
import { explainPair } from './explain.js';
import { filedKeysOf, keysByRecord, type FiledKeys } from './filed-keys.js';
import { DEFAULT_GATES, evaluateGates, gateShortfalls, suppliedFields, type Gate, type GateShortfall } from './gates.js';
import { DEFAULT_MODEL, DEFAULT_THRESHOLDS, type MatchModel, type Thresholds } from './model.js';
import { compactName } from './name.js';
import { DEFAULT_NICKNAMES, type NicknameTable } from './nicknames.js';
import { PhoneMemo } from './phone.js';
import { DEFAULT_PLACEHOLDERS, isSharedEmail } from './placeholders.js';
import { MAX_RECORD_ID, PostingTable, type PostingTableState } from './posting-table.js';
import { CandidateSelector, type KeyPostings, type SelectionLimits } from './candidate-selection.js';
import { RecordStore, RecordView, type RecordStoreState } from './record-store.js';
import { sortRowsByKeys } from './lookup-order.js';
import { ocrFold } from './similarity.js';
import { LEVEL_CODE } from './comparisons.js';
import {
  compileModel,
  makeScoreContext,
  scorePair,
  withNameForms,
  type CompiledModel,
  type FieldOutcome,
  type ScoreContext,
  type TermFrequencies,
} from './score.js';
import { NameForms, nameLevelMemos, type ContactNames, type WithNameForms } from './name-compare.js';
import type { ContactInput, NormalizedContact } from './types.js';

export type { Decision, MatchReason, ScoredCandidate } from './decide.js';

/** Options of an index. Every option has a documented default. */
export interface IndexOptions extends NormalizeOptions {
  /** Remembers phone parses across the records it normalizes. Default: a memo of its own. */
  readonly phoneMemo?: PhoneMemo;
  readonly nicknames?: NicknameTable;
  readonly model?: MatchModel;
  readonly thresholds?: Thresholds;
  /** Minimum combinations; default the contract's five (gates.ts). */
  readonly gates?: readonly Gate[];
  /** Disable Partial Matching for every find on this index. Default false. */
  readonly strict?: boolean;
  /**
   * A blocking key filed under more records than this is too common to be useful ("john
   * smith", a shared office phone): lookups skip it while the candidate has a more selective
   * key, and take only this many of its records (the most recently filed) when it has none.
   * Default 100; range >= 1.
   */
  readonly maxBlockSize?: number;
  /** At most this many candidates are scored per lookup. Default 300; range >= 1. */
  readonly maxCandidates?: number;
  /**
   * A key filed under at most this many records is selective: every record under it is a
   * candidate. A record found only under less selective keys must share at least two keys
   * with the candidate (count filtering: a true match shares many keys, a namesake on the
   * same street one). Default 8; Infinity makes every record under any key a candidate.
   */
  readonly selectiveBlockSize?: number;
  /**
   * Adjust exact agreement by the value's frequency in the index: names (true, the default),
   * also cities and attributes (`'all'`, for files), or nothing (false).
   */
  readonly termFrequencies?: boolean | 'all';
  /**
   * Count names elsewhere: term frequencies (when on) read these counts instead of the
   * index's own, for an index that holds only some of the records (database retrieval loads
   * a lookup's candidates into one and counts names in the database).
   */
  readonly termCounts?: TermFrequencies;
  /** Kinds of blocking key (blocking.ts KEY_KINDS). Default CRM_KEYS; files use FILE_KEYS. */
  readonly keys?: number;
  /**
   * An external identifier the candidate shares with a record decides the match alone (the
   * contract's external ids). Default true; false compares identifiers as one more field
   * (files, whose identifier columns carry typos).
   */
  readonly identifiersDecide?: boolean;
  /**
   * A match must agree (not only be supplied) on every field of one minimum combination.
   * Default true, for a CRM; false for linking files whose errors replace whole values.
   */
  readonly requireGateAgreement?: boolean;
  /**
   * Pairs of stored names whose comparison each score context remembers, at most, before it
   * starts again empty (name-memo.ts: 9 bytes a slot, at most twice this many slots, four
   * memos an index). Default 2,097,152 (a file's dedupe or link: some 36 MB a memo once full);
   * a server holding many scopes' indexes gives each a smaller one.
   */
  readonly nameMemoEntries?: number;
  /**
   * Two nearly equal first names given to opposite sexes ("Antonio" / "Antonia", "Francis" /
   * "Frances": name-sex.ts) are another given name, never a typo, a nickname or a sound-alike:
   * a brother and a sister, or a couple, sharing a household's phone, email and address.
   * Default true (a CRM); files turn it off: on OCR'd and mistyped records "Patricia" read as
   * "Patricio" is the same person more often than a twin is (bench/README).
   */
  readonly sexedNames?: boolean;
  /**
   * One name written another way is nearly equal: two romanizations of one Cyrillic first name
   * ("Dmitrii" / "Dmitry", "Aleksandr" / "Alexander", "Yuliya" / "Julia": romanize.ts), which an
   * email, a phone or the date of birth lets through, and a middle name as a nickname, by its
   * sound or as a word of a double one (James / Jim, Stephen / Steven, Ann / Anne Marie), which
   * is no father's and son's two middle names. Default true (a CRM); files leave it off (they
   * learn their levels).
   */
  readonly nameVariants?: boolean;
}

/** Default of {@link IndexOptions.maxBlockSize}. */
export const DEFAULT_MAX_BLOCK_SIZE = 100;
/** No key hashes. */
const NO_HASHES: readonly number[] = Object.freeze([]);
/** Default of {@link IndexOptions.maxCandidates}. */
export const DEFAULT_MAX_CANDIDATES = 300;
/** Default of {@link IndexOptions.selectiveBlockSize}. */
export const DEFAULT_SELECTIVE_BLOCK_SIZE = 8;

/** Options of one lookup. */
export interface FindOptions {
  /** A record id the caller already knows (a crmId in the body): it decides alone if indexed. */
  readonly id?: number;
  /** Disable Partial Matching for this lookup (overrides the index's setting when given). */
  readonly strict?: boolean;
  /** Never return this record (deduplicating a file against itself). */
  readonly excludeId?: number;
  /**
   * The candidate is the indexed record `excludeId` itself (deduplicating a file): its keys
   * are read where {@link ContactIndex.deferKeys} kept them, instead of being computed again.
   * Ignored when they were not kept.
   */
  readonly indexed?: boolean;
  /**
   * Build the explanation (MatchResult.explanation: the best pair scored again, field by
   * field). Default false: built only when asked for (a find's answer without it costs about
   * a tenth less), empty otherwise.
   */
  readonly explain?: boolean;
  /**
   * Score these records (ids, best first), chosen elsewhere with this index's selection
   * (candidate-selection.ts), instead of selecting them by blocking keys; ids not indexed are
   * skipped.
   */
  readonly candidates?: readonly number[];
  /**
   * The request is an organization: a shared mailbox (info@, office@) is its own address and
   * agrees as any other; for a person it is only weak, shared evidence (placeholders.ts).
   */
  readonly organization?: boolean;
}

/** Score contexts of an index's lookups: Disable Partial Matching or not, and how far scoring goes. */
interface ScoreContexts {
  readonly loose: ScoreContext;
  readonly strict: ScoreContext;
  readonly looseFast: ScoreContext;
  readonly strictFast: ScoreContext;
  /** Fast, and stopping at a pair that cannot reach the review threshold (findAll keeps no other). */
  readonly looseFloor: ScoreContext;
  readonly strictFloor: ScoreContext;
}

/** The outcome of `find`. */
export interface MatchResult {
  readonly decision: Decision;
  /** The matched (or possible) record, else null. */
  readonly id: number | null;
  /** Total match weight in bits of the best record (0 when none was scored). */
  readonly score: number;
  readonly reason: MatchReason;
  /** Names of the minimum combinations the candidate supplies. */
  readonly gates: readonly string[];
  /** The minimum combination the chosen record agrees on, or null. */
  readonly gate: string | null;
  /** Each field's level, label and weight for the best record scored, when asked for (FindOptions.explain; else empty). */
  readonly explanation: readonly FieldOutcome[];
  /** The record the explanation is about (the best scored, even when unmatched). */
  readonly explainedId: number | null;
  /** How many records were scored. */
  readonly candidates: number;
  /** Why a score at or above the match threshold was only Possible, or null. */
  readonly heldBack: string | null;
}

type Posting = number | number[];

function postingAdd(map: Map<string, Posting>, key: string, id: number): void {
  const cur = map.get(key);
  if (cur === undefined) map.set(key, id);
  else if (typeof cur === 'number') {
    if (cur !== id) map.set(key, [cur, id]);
  } else if (!cur.includes(id)) cur.push(id);
}

function postingRemove(map: Map<string, Posting>, key: string, id: number): void {
  const cur = map.get(key);
  if (cur === undefined) return;
  if (typeof cur === 'number') {
    if (cur === id) map.delete(key);
    return;
  }
  const at = cur.indexOf(id);
  if (at === -1) return;
  cur.splice(at, 1);
  if (cur.length === 1) map.set(key, cur[0] as number);
}

function countAdd(map: Map<string, number>, value: string | null, delta: number): void {
  if (value === null) return;
  const key = compactName(value);
  const next = (map.get(key) ?? 0) + delta;
  if (next <= 0) map.delete(key);
  else map.set(key, next);
}

/** Two string ids below this (2^26) make one exact number (ContactIndex.fullNameCount). */
const FULL_NAME_ID_SPAN = 2 ** 26;

/** Version of {@link IndexState}'s layout. */
const INDEX_STATE_VERSION = 4;

/** The data of a {@link ContactIndex} ({@link ContactIndex.exportState}). */
export interface IndexState {
  readonly version: number;
  readonly records: RecordStoreState;
  readonly postings: PostingTableState;
  readonly identifiers: ReadonlyMap<string, number | number[]>;
  readonly sounds: ReadonlyMap<string, string>;
  readonly firstCounts: ReadonlyMap<string, number>;
  readonly lastCounts: ReadonlyMap<string, number>;
  readonly cityCounts: ReadonlyMap<string, number>;
  readonly emailCounts: ReadonlyMap<string, number>;
  readonly phoneCounts: ReadonlyMap<string, number>;
  /** Records by first name and surname together, keyed by their string ids (files only; ContactIndex.fullNameCount). */
  readonly fullNameCounts: ReadonlyMap<number, number>;
  readonly attributeCounts: readonly ReadonlyMap<string, number>[];
  readonly filedKeys: FiledKeys | null;
}

/** The keys of a {@link ContactIndex} ({@link ContactIndex.exportKeys}). */
export interface IndexKeys {
  readonly postings: PostingTableState;
  readonly filedKeys: FiledKeys | null;
}

/** An incremental in-memory index of normalized contacts, with explainable `find`. */
export class ContactIndex {
  private readonly records: RecordStore;
  /** The candidate being scored (reused: `rank` is synchronous and never nested). */
  private readonly view: RecordView;
  /** The owner of the pairs being scored (scoreOwnedPairs), for its names' forms. */
  private readonly ownerView: RecordView;
  /** The record {@link peek} last read (made on first use). */
  private peekView: RecordView | null = null;
  /** Chooses the candidates of a lookup from the keys' postings (its tally is reused, like `view`). */
  private readonly selector: CandidateSelector;
  /** The posting-table slot of each key of the lookup under way (reused). */
  private readonly lookupSlots: number[] = [];
  private readonly slotPostings: KeyPostings = {
    count: (i) => this.postings.countAt(this.lookupSlots[i] as number),
    read: (i, limit, weight, tally) => this.postings.forEachAt(this.lookupSlots[i] as number, limit, weight, tally),
    idOf: (row) => this.records.idOfRow(row),
  };
  private readonly postings = new PostingTable();
  /** Keys collected and not yet filed (deferKeys), or null. */
  private deferred: DeferredKeys | null = null;
  /** Keep the deferred keys by record once filed ({@link deferKeys}). */
  private keepFiled = false;
  /** The keys kept (deferKeys with `keep`), until a record is replaced or removed; else null. */
  private filed: FiledKeys | null = null;
  private identifiers = new Map<string, Posting>();
  /**
   * Phonetic code of each name indexed (names repeat; Double Metaphone costs about a
   * microsecond). Only indexing adds to it: lookups read it, so a server answering finds for
   * ever new (misspelled) names does not grow it without bound.
   */
  private sounds = new Map<string, string>();
  private readonly soundOf = (name: string): string => {
    let code = this.sounds.get(name);
    if (code === undefined) {
      code = phoneticKey(name);
      this.sounds.set(name, code);
    }
    return code;
  };
  private readonly soundOfQuery = (name: string): string => this.sounds.get(name) ?? this.querySound(name);
  /**
   * Sounds and OCR folds of names met in lookups (files: the same names are compared again
   * and again), bounded: cleared when full, so a server's stream of new names cannot grow it.
   */
  private readonly queryMemo = new Map<string, string>();
  private readonly ocrMemo = new Map<string, string>();
  private querySound(name: string): string {
    let code = this.queryMemo.get(name);
    if (code === undefined) {
      code = phoneticKey(name);
      if (this.queryMemo.size >= QUERY_MEMO_SIZE) this.queryMemo.clear();
      this.queryMemo.set(name, code);
    }
    return code;
  }
  /**
   * The forms of each stored name the index compared (name-compare.ts), by the record store's
   * string id: a name met in a hundred candidates is folded, sounded and looked up once.
   */
  private readonly nameForms: (NameForms | undefined)[] = [];
  private readonly nameMemoEntries: number | undefined;
  /** {@link IndexOptions.sexedNames}. */
  private readonly sexedNames: boolean;
  private readonly nameVariants: boolean;
  private readonly formsOfId = (id: number): NameForms => {
    const all = this.nameForms;
    let forms = all[id];
    if (forms === undefined) {
      while (all.length <= id) all.push(undefined);
      forms = new NameForms(this.records.text(id), id);
      all[id] = forms;
    }
    return forms;
  };
  /**
   * A lookup with its names' forms, the index's own where a stored record holds the same name:
   * their folds, sounds and nickname groups are computed already, and each context remembers
   * the levels of two stored names' ids (name-memo.ts), so a lookup's "jon" against a
   * candidate's "john" is compared once per index and model, not once per find.
   */
  private prepared(q: NormalizedContact): NormalizedContact {
    if ((q as WithNameForms).nameForms !== undefined) return q;
    return withNameForms(q, { first: this.storedForms(q.first), middle: this.storedForms(q.middle), last: this.storedForms(q.last) });
  }

  /**
   * The contact with its names' forms, the index's own where it holds the names
   * ({@link prepared}), for scoring it outside a find with {@link scoreContext}'s contexts:
   * estimation's pairs of records (linkage/learn.ts), which otherwise built, folded and sounded
   * six names per pair and compared every pair of names anew (FEBRL4: 37k pairs). The same
   * levels: the forms and the memo only remember what the comparisons compute.
   */
  prepare(q: NormalizedContact): NormalizedContact {
    return this.prepared(q);
  }

  /**
   * The names' forms of the lookup whose keys are being hashed ({@link lookupHashes}), or null:
   * {@link soundOfLookup} reads their sounds, which a stored name's forms keep across lookups.
   */
  private lookupNames: ContactNames | null = null;
  /** soundOfQuery, through the lookup's own names' forms where the name is one of them. */
  private readonly soundOfLookup = (name: string): string => {
    const names = this.lookupNames;
    if (names !== null) {
      if (names.first !== null && names.first.compact === name) return names.first.sound(this.soundOfQuery);
      if (names.last !== null && names.last.compact === name) return names.last.sound(this.soundOfQuery);
    }
    return this.soundOfQuery(name);
  };

  /**
   * {@link keyHashes} of a lookup; given its names' forms (`names`, from {@link prepared}) it
   * reads the sounds of its first name and surname from them, not from the map of a million
   * names' sounds (two lookups there cost about 4% of a find at 1M). The same sounds: every
   * sound here is phoneticKey's. The contact is the lookup as normalized, not the prepared
   * one: the keys' code then sees contacts of one shape, as when filing records (the prepared
   * shape deoptimized it once the first lookups came).
   */
  private lookupHashes(contact: NormalizedContact, names: ContactNames | undefined): number[] {
    if (names === undefined) return this.keyHashes(contact);
    this.lookupNames = names;
    try {
      return blockingHashes(contact, this.nicknames, this.keySound, this.keys, this.ocrOf);
    } finally {
      this.lookupNames = null;
    }
  }

  /** The keys a record is filed under (and removed from): its names' sounds join the index's map of them. */
  private filingHashes(contact: NormalizedContact): number[] {
    this.filing = true;
    try {
      return blockingHashes(contact, this.nicknames, this.keySound, this.keys, this.ocrOf);
    } finally {
      this.filing = false;
    }
  }

  /** True while {@link filingHashes} runs. */
  private filing = false;
  /**
   * The sound of a name for the keys, filing (soundOf: remembered in the map of the index's
   * names) or looking up (soundOfLookup): one function for both, so that the keys' code, made
   * hot by filing, is not deoptimized by the first lookups calling another.
   */
  private readonly keySound = (name: string): string => (this.filing ? this.soundOf(name) : this.soundOfLookup(name));

  private storedForms(name: string | null): NameForms | null {
    if (name === null) return null;
    const id = this.records.idOfText(name);
    return id < 0 ? new NameForms(name) : this.formsOfId(id);
  }

  private readonly ocrOf = (name: string): string => {
    let folded = this.ocrMemo.get(name);
    if (folded === undefined) {
      folded = ocrFold(name);
      if (this.ocrMemo.size >= QUERY_MEMO_SIZE) this.ocrMemo.clear();
      this.ocrMemo.set(name, folded);
    }
    return folded;
  };
  private contexts: ScoreContexts;
  /** The contexts of an organization's lookups (shared mailboxes are its own), made when first needed. */
  private organizationContexts: ScoreContexts | null = null;
  // Not readonly: importState can take a received state's maps (adopt).
  /** Changes with every write to the name counts (TermFrequencies.version: NameForms keep counts while it holds). */
  private countsVersion = 0;
  private firstCounts = new Map<string, number>();
  private lastCounts = new Map<string, number>();
  private cityCounts = new Map<string, number>();
  private emailCounts = new Map<string, number>();
  private phoneCounts = new Map<string, number>();
  private fullNameCounts = new Map<number, number>();
  private attributeCounts: Map<string, number>[];
  private compiled: CompiledModel;
  private readonly nicknames: NicknameTable;
  private policy: DecisionPolicy;
  private readonly gates: readonly Gate[];
  private readonly strict: boolean;
  private readonly normalizeOptions: NormalizeOptions;
  private readonly tf: TermFrequencies | null;
  private readonly countPlaces: boolean;
  /** TermFrequencies.pairHolders of the files' counts ({@link setPairHolders}; 0: none subtracted). */
  private pairHolderCount = 0;
  private readonly keys: number;
  private readonly identifiersDecide: boolean;

  constructor(options: IndexOptions = {}) {
    const model = options.model ?? DEFAULT_MODEL;
    this.compiled = compileModel(model);
    const attributeCount = model.attributes?.length ?? 0;
    this.records = new RecordStore(attributeCount);
    this.view = new RecordView(this.records, this.formsOfId);
    this.ownerView = new RecordView(this.records, this.formsOfId);
    this.attributeCounts = Array.from({ length: attributeCount }, () => new Map<string, number>());
    this.nicknames = options.nicknames ?? DEFAULT_NICKNAMES;
    this.policy = { thresholds: options.thresholds ?? model.thresholds ?? DEFAULT_THRESHOLDS, requireGateAgreement: options.requireGateAgreement ?? true };
    this.gates = options.gates ?? DEFAULT_GATES;
    this.strict = options.strict ?? false;
    this.keys = options.keys ?? CRM_KEYS;
    this.identifiersDecide = options.identifiersDecide ?? true;
    this.nameMemoEntries = options.nameMemoEntries;
    this.sexedNames = options.sexedNames ?? true;
    this.nameVariants = options.nameVariants ?? true;
    this.selector = new CandidateSelector({
      maxBlockSize: Math.max(1, options.maxBlockSize ?? DEFAULT_MAX_BLOCK_SIZE),
      maxCandidates: Math.max(1, options.maxCandidates ?? DEFAULT_MAX_CANDIDATES),
      selectiveBlockSize: Math.max(1, options.selectiveBlockSize ?? DEFAULT_SELECTIVE_BLOCK_SIZE),
    });
    const norm: { -readonly [K in keyof NormalizeOptions]: NormalizeOptions[K] } = {};
    for (const key of NORMALIZE_OPTION_KEYS) if (options[key] !== undefined) (norm as Record<string, unknown>)[key] = options[key];
    norm.phoneMemo = options.phoneMemo ?? new PhoneMemo();
    this.normalizeOptions = norm;
    const records = this.records;
    this.countPlaces = options.termFrequencies === 'all';
    const holders = (): number => this.pairHolderCount;
    const counts = (): number => this.countsVersion;
    const names: TermFrequencies = {
      get total() {
        return records.size;
      },
      get version() {
        return counts();
      },
      firstNameCount: (name) => this.firstCounts.get(name) ?? 0,
      lastNameCount: (name) => this.lastCounts.get(name) ?? 0,
    };
    this.tf =
      options.termFrequencies === false
        ? null
        : options.termCounts !== undefined
          ? options.termCounts
          : this.countPlaces
            ? {
                // A getter of its own: a spread would copy the count of the moment (0, at construction).
                get total() {
                  return records.size;
                },
                get version() {
                  return counts();
                },
                firstNameCount: (name) => this.firstCounts.get(name) ?? 0,
                lastNameCount: (name) => this.lastCounts.get(name) ?? 0,
                cityCount: (city) => this.cityCounts.get(city) ?? 0,
                attributeCount: (i, v) => this.attributeCounts[i]?.get(v) ?? 0,
                emailCount: (e) => this.emailCounts.get(e) ?? 0,
                phoneCount: (p) => this.phoneCounts.get(p) ?? 0,
                fullNameCount: (first, last) => this.fullNameCount(first, last),
                nameVariants: true,
                get pairHolders() {
                  return holders();
                },
              }
            : names;
    this.contexts = this.makeContexts();
  }

  /** The score contexts of a person's lookups, or (`organization`) of an organization's, whose info@ is its own. */
  private makeContexts(organization = false): ScoreContexts {
    const placeholders = this.normalizeOptions.placeholders ?? DEFAULT_PLACEHOLDERS;
    const sharedEmail = organization ? undefined : (email: string): boolean => isSharedEmail(placeholders, email);
    const base = {
      compiled: this.compiled,
      nicknames: this.nicknames,
      tf: this.tf,
      soundOf: this.soundOfQuery,
      ocrOf: this.ocrOf,
      sharedEmail,
      sexedNames: this.sexedNames,
      nameVariants: this.nameVariants,
    };
    // Each context remembers the levels of the pairs of stored names it compares (name-compare.ts).
    const loose = makeScoreContext({ ...base, strict: false, nameMemo: nameLevelMemos(this.nameMemoEntries) });
    const strict = makeScoreContext({ ...base, strict: true, nameMemo: nameLevelMemos(this.nameMemoEntries) });
    const floor = this.policy.thresholds.possible;
    return {
      loose,
      strict,
      looseFast: { ...loose, stopAtVeto: true },
      strictFast: { ...strict, stopAtVeto: true },
      looseFloor: { ...loose, stopAtVeto: true, floor },
      strictFloor: { ...strict, stopAtVeto: true, floor },
    };
  }

  /**
   * Term frequencies of files (`termFrequencies: 'all'`): how many records of a compared
   * pair's person the counts hold (TermFrequencies.pairHolders): 2 in a file deduplicated
   * against itself, raised to the person's expected rows, 1 + prior * (n - 1), once the
   * duplicate rate is learned; 1 for another file's rows looked up. Default 0: the counts as
   * they are.
   */
  setPairHolders(holders: number): void {
    this.pairHolderCount = holders;
  }

  /**
   * Scores with another model from now on (an estimated one), with its thresholds unless
   * `thresholds` is given. The records and keys stay; the model must have the same attribute
   * columns as the index was made with.
   */
  setModel(model: MatchModel, thresholds?: Thresholds): void {
    if ((model.attributes?.length ?? 0) !== this.records.attributeCount) {
      throw new Error(`the model has ${model.attributes?.length ?? 0} attribute columns, the index ${this.records.attributeCount}`);
    }
    this.compiled = compileModel(model);
    this.policy = { ...this.policy, thresholds: thresholds ?? model.thresholds ?? this.policy.thresholds };
    this.contexts = this.makeContexts();
    this.organizationContexts = null;
  }

  /** The thresholds this index decides with. */
  get thresholds(): Thresholds {
    return this.policy.thresholds;
  }

  /** Number of records indexed. */
  get size(): number {
    return this.records.size;
  }

  /** True when a record with this id is indexed. */
  has(id: number): boolean {
    return this.records.has(id);
  }

  /** The stored normalized record (a new object each call), or undefined. */
  get(id: number): NormalizedContact | undefined {
    return this.records.get(id);
  }

  /** How many indexed records have this first name (a normalized one; counted by its compact form, as term frequencies are). */
  firstNameCount(name: string): number {
    return this.firstCounts.get(compactName(name)) ?? 0;
  }

  /**
   * Records holding both names as their first name and surname (files: termFrequencies 'all'),
   * counted by the names' string ids in the record store: no key string is built per record or
   * per pair (1M-row dedupe 61.3 s with a string key per pair, against 52.6 s without the
   * count). A name the index does not hold is on no record: such a full name counts 0.
   */
  private fullNameCount(first: NameForms, last: NameForms): number {
    const key = this.fullNameKey(first.id >= 0 ? first.id : this.records.idOfText(first.name), last.id >= 0 ? last.id : this.records.idOfText(last.name));
    return key < 0 ? 0 : (this.fullNameCounts.get(key) ?? 0);
  }

  /** One number for two names' string ids, or -1 when either is not held (or past {@link FULL_NAME_ID_SPAN}: not counted). */
  private fullNameKey(first: number, last: number): number {
    return first < 0 || last < 0 || first >= FULL_NAME_ID_SPAN || last >= FULL_NAME_ID_SPAN ? -1 : first * FULL_NAME_ID_SPAN + last;
  }

  /**
   * The stored record as a view that the next call reuses (valid until then), or undefined:
   * its names, date of birth, suffix and sex are read at once, its lists and addresses only
   * when read. For callers that read a few fields of many records (a dedupe's clustering).
   */
  peek(id: number): NormalizedContact | undefined {
    const row = this.records.rowOf(id);
    if (row < 0) return undefined;
    this.peekView ??= new RecordView(this.records, this.formsOfId);
    this.records.loadRow(row, this.peekView);
    return this.peekView;
  }

  /** Normalizes a contact with this index's options (default country, date order, placeholders...). */
  normalize(contact: ContactInput): NormalizedContact {
    return normalizeContact(contact, this.normalizeOptions);
  }

  /** The model this index scores with. */
  get model(): MatchModel {
    return this.compiled.model;
  }

  /** Adds a record, or replaces the one with the same id. */
  upsert(id: number, contact: ContactInput): void {
    this.upsertNormalized(id, this.normalize(contact));
  }

  /**
   * Adds or replaces an already normalized record. Ids are integers in 0..2^31-1 (a
   * RangeError otherwise: that is a caller's bug).
   */
  upsertNormalized(id: number, contact: NormalizedContact): void {
    if (!Number.isInteger(id) || id < 0 || id > MAX_RECORD_ID) throw new RangeError(`record id must be an integer in 0..${MAX_RECORD_ID}, got ${id}`);
    const deferred = this.deferred;
    if (deferred !== null && this.records.has(id))
      throw new Error(`record ${id} is indexed already: keys are deferred (deferKeys), only new records can be added`);
    if (this.records.has(id)) this.remove(id);
    this.filed = null;
    // Keys file the record's row (the store's position of it), so a lookup reads candidates
    // without going through id -> row. The record was removed above and its hashes are
    // distinct: no list holds the row yet.
    const row = this.records.set(id, contact);
    const hashes = this.filingHashes(contact);
    if (deferred === null) for (const h of hashes) this.postings.addNew(h, row);
    else deferred.add(hashes, row);
    for (const key of contact.identifiers) postingAdd(this.identifiers, key, id);
    this.count(contact, 1);
  }

  /**
   * From now on, new records' blocking keys are collected instead of filed one at a time,
   * until {@link fileDeferredKeys} files them all at once (PostingTable.addAllNew: several
   * times faster at a million records, whose tens of millions of keys otherwise each cost a
   * wait for memory). Meanwhile only new records can be added: lookups, replacements,
   * removals and exportState throw. For building the index of a whole file.
   *
   * `keep`: the keys are also kept by record when filed, for lookups of the indexed records
   * themselves (FindOptions.indexed: a dedupe looks every record up, and computing its keys
   * again was a tenth of each lookup); 4 bytes per key, about 26 keys per record of a file.
   */
  deferKeys(keep = false): void {
    this.deferred ??= new DeferredKeys();
    if (keep) this.keepFiled = true;
  }

  /** Files the keys collected since {@link deferKeys}; the index is whole again. */
  fileDeferredKeys(): void {
    this.fileDeferred(null);
  }

  /** {@link fileDeferredKeys}; `filed`: the keys kept by record, when the caller has them already. */
  private fileDeferred(filed: FiledKeys | null): void {
    const deferred = this.deferred;
    if (deferred === null) return;
    this.deferred = null;
    if (this.keepFiled) this.filed = filed ?? keysByRecord(deferred.keys, deferred.rows, deferred.size, (row) => this.records.idOfRow(row));
    this.keepFiled = false;
    this.postings.addAllNew(deferred.keys, deferred.rows, deferred.size);
  }

  private whole(what: string): void {
    if (this.deferred !== null) throw new Error(`${what}: the index's keys are deferred (deferKeys); call fileDeferredKeys first`);
  }

  private count(contact: NormalizedContact, delta: number): void {
    this.countsVersion++;
    countAdd(this.firstCounts, contact.first, delta);
    countAdd(this.lastCounts, contact.last, delta);
    if (!this.countPlaces) return;
    const seen: string[] = [];
    for (const a of contact.addresses) {
      if (a.city === null || seen.includes(a.city)) continue;
      seen.push(a.city);
      countAdd(this.cityCounts, a.city, delta);
    }
    for (let i = 0; i < this.attributeCounts.length; i++) {
      const v = contact.attributes[i] ?? null;
      if (v !== null) countAddExact(this.attributeCounts[i] as Map<string, number>, v, delta);
    }
    for (const e of contact.emails) countAddExact(this.emailCounts, e, delta);
    for (const p of contact.phones) countAddExact(this.phoneCounts, p, delta);
    if (contact.first !== null && contact.last !== null) {
      const key = this.fullNameKey(this.records.idOfText(contact.first), this.records.idOfText(contact.last));
      if (key >= 0) countAddExact(this.fullNameCounts, key, delta);
    }
  }

  /**
   * The index's data, to build the same index in another thread without inserting every
   * record again: post it to the thread (it is structured-clonable; typed arrays are copied,
   * or pass their buffers in the transfer list to move them) and call {@link importState} on a
   * new, empty index made with the same options there.
   */
  exportState(): IndexState {
    this.whole('exportState');
    return this.stateWith(this.postings.exportState(), this.filed);
  }

  /**
   * {@link exportState} in two parts, for a dedupe's threads (linkage/worker.ts): this one as
   * soon as every record is inserted (while the keys are still deferred: deferKeys), the
   * records and counts, with no keys; then, once the keys are filed and the records laid out
   * for lookups, {@link exportKeys}. The receiver imports this part (importState), lays its
   * records out itself (relayoutForLookups: the same order from the same records), then
   * imports the keys (importKeys); in between it can read the records (estimation), while the
   * sender files the keys.
   */
  exportRecords(): IndexState {
    return this.stateWith(new PostingTable().exportState(), null);
  }

  /** The index's state with these keys (exportState: its own; exportRecords: none). */
  private stateWith(postings: PostingTableState, filedKeys: FiledKeys | null): IndexState {
    return {
      version: INDEX_STATE_VERSION,
      records: this.records.exportState(),
      postings,
      identifiers: this.identifiers,
      sounds: this.sounds,
      firstCounts: this.firstCounts,
      lastCounts: this.lastCounts,
      cityCounts: this.cityCounts,
      emailCounts: this.emailCounts,
      phoneCounts: this.phoneCounts,
      fullNameCounts: this.fullNameCounts,
      attributeCounts: this.attributeCounts,
      filedKeys,
    };
  }

  /** The second part of {@link exportRecords}: the filed keys (and those kept by record). */
  exportKeys(): IndexKeys {
    this.whole('exportKeys');
    return { postings: this.postings.exportState(), filedKeys: this.filed };
  }

  /**
   * Loads what {@link exportKeys} gave into an index that imported the same records'
   * {@link exportRecords} and laid them out as the sender did (relayoutForLookups); `adopt` as
   * in {@link importState}.
   */
  importKeys(keys: IndexKeys, adopt = false): void {
    if (this.deferred !== null || this.postings.keys > 0) throw new Error('importKeys needs an index with no keys');
    this.postings.importState(keys.postings, adopt);
    this.filed = keys.filedKeys === null ? null : adopt ? keys.filedKeys : { offsets: keys.filedKeys.offsets.slice(), keys: keys.filedKeys.keys.slice() };
  }

  /**
   * Loads what {@link exportState} gave, into this index, which must be empty and made with
   * the same options as the exporting one (the state holds records and keys, not options).
   * `adopt`: the index takes the state's arrays and maps as they are instead of copying them
   * (for a state received from another thread, which nothing else holds: at a million records
   * the copy took seconds); the caller must not use the state afterwards.
   */
  importState(state: IndexState, adopt = false): void {
    if (state.version !== INDEX_STATE_VERSION) throw new Error(`index state version ${String(state.version)} is not ${INDEX_STATE_VERSION}`);
    if (this.records.size > 0) throw new Error('importState needs an empty index');
    this.countsVersion++;
    this.records.importState(state.records, adopt);
    this.postings.importState(state.postings, adopt);
    this.filed = state.filedKeys === null ? null : adopt ? state.filedKeys : { offsets: state.filedKeys.offsets.slice(), keys: state.filedKeys.keys.slice() };
    if (adopt && state.attributeCounts.length === this.attributeCounts.length) {
      this.identifiers = state.identifiers as Map<string, Posting>;
      this.sounds = state.sounds as Map<string, string>;
      this.firstCounts = state.firstCounts as Map<string, number>;
      this.lastCounts = state.lastCounts as Map<string, number>;
      this.cityCounts = state.cityCounts as Map<string, number>;
      this.emailCounts = state.emailCounts as Map<string, number>;
      this.phoneCounts = state.phoneCounts as Map<string, number>;
      this.fullNameCounts = state.fullNameCounts as Map<number, number>;
      this.attributeCounts = state.attributeCounts as Map<string, number>[];
      return;
    }
    for (const [k, v] of state.identifiers) this.identifiers.set(k, typeof v === 'number' ? v : v.slice());
    for (const [k, v] of state.sounds) this.sounds.set(k, v);
    for (const [k, v] of state.firstCounts) this.firstCounts.set(k, v);
    for (const [k, v] of state.lastCounts) this.lastCounts.set(k, v);
    for (const [k, v] of state.cityCounts) this.cityCounts.set(k, v);
    for (const [k, v] of state.emailCounts) this.emailCounts.set(k, v);
    for (const [k, v] of state.phoneCounts) this.phoneCounts.set(k, v);
    for (const [k, v] of state.fullNameCounts) this.fullNameCounts.set(k, v);
    state.attributeCounts.forEach((counts, i) => {
      const into = this.attributeCounts[i];
      if (into !== undefined) for (const [k, v] of counts) into.set(k, v);
    });
  }

  /**
   * Puts the stored records in the order in which looking all of them up is fastest (see
   * lookup-order.ts): by the sound of the surname, the surname, then the first name, so that
   * records sharing blocking keys sit side by side in memory. Answers the record ids in that
   * order: look them up in it. Lookups decide exactly as before (each key keeps its records in
   * filing order; ties between candidates go by id, not by where a record is stored).
   * Files deferred keys (deferKeys). Throws when records were removed from the index (their
   * rows are reused first).
   */
  relayoutForLookups(): Int32Array {
    const n = this.records.rowCount;
    if (n !== this.records.size) throw new Error(`relayoutForLookups: ${n - this.records.size} rows are free (records were removed)`);
    const sound = new Int32Array(n);
    const last = new Int32Array(n);
    const first = new Int32Array(n);
    const names = new Int32Array(2);
    const soundCodes = new Map<string, number>();
    const soundOfLast = new Map<number, number>();
    for (let row = 0; row < n; row++) {
      this.records.namesOfRow(row, names);
      const lastId = names[1] as number;
      first[row] = (names[0] as number) + 1;
      last[row] = lastId + 1;
      if (lastId < 0) continue;
      let code = soundOfLast.get(lastId);
      if (code === undefined) {
        const text = this.soundOfQuery(compactName(this.records.text(lastId)));
        code = soundCodes.get(text);
        if (code === undefined) {
          code = soundCodes.size + 1;
          soundCodes.set(text, code);
        }
        soundOfLast.set(lastId, code);
      }
      sound[row] = code;
    }
    const order = sortRowsByKeys(sound, last, first);
    let moved = false;
    for (let k = 0; k < n && !moved; k++) moved = order[k] !== k;
    const deferred = this.deferred;
    // The keys kept by record are by id, whatever the rows: sorted while the deferred keys are
    // in filing order (a dedupe's rows in id order: reading ids and writing keys front to back;
    // after the reorder, every key's id was a random read, half a second at a million records).
    const filed = deferred !== null && this.keepFiled ? keysByRecord(deferred.keys, deferred.rows, deferred.size, (row) => this.records.idOfRow(row)) : null;
    if (moved) {
      const newRow = this.records.reorder(order);
      if (deferred !== null) for (let i = 0; i < deferred.size; i++) deferred.rows[i] = newRow[deferred.rows[i] as number] as number;
      else this.postings.relabel(newRow);
    }
    // Deferred keys are filed now, their blocks in the new row order (PostingTable.addAllNew).
    this.fileDeferred(filed);
    const ids = new Int32Array(n);
    for (let row = 0; row < n; row++) ids[row] = this.records.idOfRow(row);
    return ids;
  }

  /** Removes a record; false when it was not indexed. */
  remove(id: number): boolean {
    this.whole('remove');
    const contact = this.records.get(id);
    if (!contact) return false;
    const row = this.records.rowOf(id);
    this.filed = null;
    for (const h of this.filingHashes(contact)) this.postings.remove(h, row);
    for (const key of contact.identifiers) postingRemove(this.identifiers, key, id);
    this.count(contact, -1);
    this.records.delete(id);
    return true;
  }

  /**
   * Ids of the records that share a blocking key with the candidate. Keys are read most
   * selective first; a key filed under more than maxBlockSize records is skipped once
   * another key found records, and when every key is that common only maxBlockSize records
   * of the most selective one are read. A record counts when it was found under a selective
   * key (selectiveBlockSize) or under at least two keys. Records sharing more keys come
   * first, then lower ids; at most maxCandidates. Deterministic. `ordered` false: the same
   * ids in no particular order (a dedupe's first pass, which only needs the set).
   */
  candidateIds(candidate: NormalizedContact, excludeId?: number, indexed = false, ordered = true): number[] {
    return this.candidateRows(candidate, excludeId, indexed, ordered).map((row) => this.records.idOfRow(row));
  }

  /**
   * {@link candidateIds} of the indexed record `id`, looked up by the keys it was filed under
   * when they were kept (FindOptions.indexed), so the record is read only when they were not.
   */
  indexedCandidateIds(id: number, ordered = true): number[] {
    return this.candidateRows(() => this.records.get(id) as NormalizedContact, id, true, ordered).map((row) => this.records.idOfRow(row));
  }

  /** True when the indexed record `id` supplies one of the minimum combinations (else its lookup, findAll, finds nothing). */
  meetsGates(id: number): boolean {
    return evaluateGates(this.gates, this.records.suppliedOf(this.records.rowOf(id))).length > 0;
  }

  /** {@link candidateIds} as rows of the record store, in the same order; `indexed`: see FindOptions.indexed; `ordered` false: CandidateSelector.select's. */
  private candidateRows(
    candidate: NormalizedContact | (() => NormalizedContact),
    excludeId?: number,
    indexed = false,
    ordered = true,
    names?: ContactNames,
  ): number[] {
    this.whole('lookup');
    const excludeRow = excludeId === undefined ? -1 : this.records.rowOf(excludeId);
    const slots = this.lookupSlots;
    const filed = indexed ? filedKeysOf(this.filed, excludeId) : null;
    const unnamedKeys = (this.keys & KEY_KINDS.unnamed) !== 0;
    const townKeys = (this.keys & KEY_KINDS.fragments) !== 0;
    if (filed !== null && (!(unnamedKeys || townKeys) || !this.records.isNamed(excludeRow))) {
      slots.length = filed.length;
      for (let i = 0; i < filed.length; i++) slots[i] = this.postings.slotOf(filed[i] as number);
      return this.selector.select(filed.length, this.slotPostings, excludeRow, ordered);
    }
    const contact = typeof candidate === 'function' ? candidate() : candidate;
    const hashes = filed ?? this.lookupHashes(contact, names);
    // Keys only a row without a first name or a surname looks up by (blocking.ts KEY_KINDS.unnamed),
    // and the initials with a city, only an address without a postal code (townPostalHashes).
    const named = contact.first !== null && contact.last !== null;
    let skip = unnamedKeys && named ? unnamedHashes(contact, this.soundOfQuery) : NO_HASHES;
    if (townKeys && named) {
      const town = townPostalHashes(contact);
      if (town.length > 0) skip = skip.length === 0 ? town : [...skip, ...town];
    }
    slots.length = 0;
    for (let i = 0; i < hashes.length; i++) {
      const h = hashes[i] as number;
      if (skip.length === 0 || !skip.includes(h)) slots.push(this.postings.slotOf(h));
    }
    return this.selector.select(slots.length, this.slotPostings, excludeRow, ordered);
  }

  /**
   * The blocking key hashes this index files a record under and looks a candidate up by
   * (blocking.ts), for a store that keeps the keys itself (database retrieval). Adds nothing
   * to the index's memos.
   */
  keyHashes(contact: NormalizedContact): number[] {
    return blockingHashes(contact, this.nicknames, this.soundOfQuery, this.keys);
  }

  /** The limits this index selects candidates with (its options or their defaults). */
  get selectionLimits(): SelectionLimits {
    return this.selector.limits;
  }

  /** Finds the best matching record for a candidate (see {@link MatchResult}). */
  find(candidate: ContactInput, options: FindOptions = {}): MatchResult {
    return this.findNormalized(this.normalize(candidate), options);
  }

  /** `find` for an already normalized candidate. */
  findNormalized(q: NormalizedContact, options: FindOptions = {}): MatchResult {
    const met = evaluateGates(this.gates, suppliedFields(q));
    const gates = met.map((g) => g.name);
    const decided = this.decideById(q, options, gates);
    if (decided) return decided;
    if (gates.length === 0) return unmatched('below-minimum', gates, 0);
    const ranked = this.rank(q, options, met);
    const ctx = this.scoreContext(options);
    const best = ranked.eligible[0];
    if (best && best.decision !== 'Unmatched') {
      return {
        decision: best.decision,
        id: best.id,
        score: best.score,
        reason: best.decision === 'Matched' ? 'score' : possibleReason(best, this.policy.thresholds),
        gates,
        gate: best.gate,
        explanation: options.explain === true ? this.explain(q, best.id, ctx) : [],
        explainedId: best.id,
        candidates: ranked.scored,
        heldBack: best.heldBack,
      };
    }
    if (ranked.scored === 0) return unmatched('no-candidates', gates, 0);
    const top = ranked.top;
    return {
      ...unmatched(ranked.topReason, gates, ranked.scored),
      score: top?.score ?? 0,
      explanation: top && options.explain === true ? this.explain(q, top.id, ctx) : [],
      explainedId: top?.id ?? null,
    };
  }

  /**
   * Every record that matches or possibly matches the candidate, best first (score, then
   * lowest id). For deduplication and linkage of whole files.
   */
  findAll(candidate: NormalizedContact, options: FindOptions = {}): readonly ScoredCandidate[] {
    const met = evaluateGates(this.gates, suppliedFields(candidate));
    if (met.length === 0) return [];
    return this.rank(candidate, options, met, true).eligible;
  }

  /**
   * The score of every candidate of a record, whatever its decision: the candidate pairs a
   * model is estimated on, and the scores of all of them for the prior (estimate.ts). Vetoes
   * do not stop scoring here. `visit` receives each candidate's id and score.
   */
  scoreCandidates(
    candidate: NormalizedContact,
    visit: (id: number, score: number, levels: Uint8Array | undefined) => void,
    options: FindOptions & { levels?: Uint8Array } = {},
  ): void {
    const ctx = this.scoreContext(options);
    const q = this.prepared(candidate);
    for (const row of this.candidateRows(candidate, options.excludeId, options.indexed === true, true, (q as WithNameForms).nameForms)) {
      this.records.loadRow(row, this.view);
      options.levels?.fill(MISSING_LEVEL);
      visit(this.records.idOfRow(row), scorePair(q, this.view, ctx, undefined, options.levels).score, options.levels);
    }
  }

  /**
   * Deduplication with each unordered pair of indexed records scored once (linkage/pair-plan.ts):
   * the indexed record `id`, the pair's owner, against the records `others[from..to)`.
   * `flags[k]` says whose lookups have the pair: {@link OWNER_LOOKS} (`others[k]` is one of
   * `id`'s candidates, candidateIds with `indexed`), {@link OTHER_LOOKS} (`id` is one of
   * `others[k]`'s). The pair is scored once, the owner as the candidate and the other record as
   * the indexed one, and decided for each lookup that has it, as findAll decides: `visit(query,
   * other, candidate)` receives every direction whose query supplies a minimum combination and
   * finds the other Matched or Possible. Pair scores are symmetric but for ties between several
   * addresses, which this one canonical order settles: the owner is the lower id, so either
   * record's lookup sees the score it would have computed with the two in id order.
   * `collect` (evaluation) also receives each direction's score in full (scoreCandidates);
   * `near` receives each pair (owner, other) that scored at least the review threshold and
   * was not vetoed, once, whatever the gates decide (clustering weighs it: clusters.ts).
   */
  scoreOwnedPairs(
    id: number,
    others: Int32Array,
    flags: Uint8Array,
    from: number,
    to: number,
    visit: (query: number, other: number, candidate: ScoredCandidate) => void,
    collect?: (query: number, other: number, score: number) => void,
    near?: (owner: number, other: number, score: number) => void,
  ): void {
    this.whole('lookup');
    if (!this.records.has(id)) throw new Error(`record ${id} is not indexed`);
    const ownRow = this.records.rowOf(id);
    // The owner is read through a view of its own: its names' forms are the index's (by string
    // id), so the levels of its names against the others' are remembered (ScoreContext.nameMemo).
    const q = this.ownerView;
    this.records.loadRow(ownRow, q);
    const set = this.contexts;
    const fast = this.strict ? set.strictFloor : set.looseFloor;
    const full = this.strict ? set.strict : set.loose;
    const ownMet = evaluateGates(this.gates, this.records.suppliedOf(ownRow));
    const possible = this.policy.thresholds.possible;
    for (let k = from; k < to; k++) {
      const other = others[k] as number;
      const flag = flags[k] as number;
      const row = this.records.rowOf(other);
      this.records.loadRow(row, this.view);
      if (collect !== undefined) {
        const score = scorePair(q, this.view, full).score;
        if ((flag & OWNER_LOOKS) !== 0) collect(id, other, score);
        if ((flag & OTHER_LOOKS) !== 0) collect(other, id, score);
      }
      const s = scorePair(q, this.view, fast);
      if (s.belowFloor || s.vetoedBy !== null || s.score < possible) continue;
      near?.(id, other, s.score);
      if ((flag & OWNER_LOOKS) !== 0 && ownMet.length > 0) {
        const d = decidePair(s, ownMet, this.policy);
        if (d.decision !== 'Unmatched') visit(id, other, { id: other, score: s.score, decision: d.decision, gate: d.gate, heldBack: d.heldBack });
      }
      if ((flag & OTHER_LOOKS) !== 0) {
        const otherMet = evaluateGates(this.gates, this.records.suppliedOf(row));
        if (otherMet.length === 0) continue;
        const d = decidePair(s, otherMet, this.policy);
        if (d.decision !== 'Unmatched') visit(other, id, { id, score: s.score, decision: d.decision, gate: d.gate, heldBack: d.heldBack });
      }
    }
  }

  /** Ids of the candidates of a record (the pairs blocking gives), for estimation. */
  candidatesOf(candidate: NormalizedContact, excludeId?: number): number[] {
    return this.candidateIds(candidate, excludeId);
  }

  /** The field-by-field explanation of a candidate against one indexed record. */
  explain(q: NormalizedContact, id: number, ctx: ScoreContext = this.scoreContext({})): FieldOutcome[] {
    const r = this.records.get(id);
    return r ? explainPair(q, r, ctx) : [];
  }

  /**
   * Why no minimum combination agrees between a candidate and an indexed record (a Possible
   * that scored above the match threshold): see {@link gateShortfalls}. Empty when one agrees.
   */
  gateShortfalls(q: NormalizedContact, id: number): GateShortfall[] {
    const r = this.records.get(id);
    if (!r) return [];
    const s = scorePair(q, r, this.scoreContext({}));
    return gateShortfalls(this.gates, suppliedFields(q), suppliedFields(r), s.agreeMask);
  }

  /** Rows of the indexed ids among `ids`, in their order, without `excludeId`. */
  private rowsOf(ids: readonly number[], excludeId: number | undefined): number[] {
    const rows: number[] = [];
    for (const id of ids) if (id !== excludeId && this.records.has(id)) rows.push(this.records.rowOf(id));
    return rows;
  }

  /** The score context of this index (model, nicknames, term frequencies), for scoring pairs outside `find`. */
  scoreContext(options: FindOptions = {}): ScoreContext {
    const set = this.contextsFor(options);
    return (options.strict ?? this.strict) ? set.strict : set.loose;
  }

  private contextsFor(options: FindOptions): ScoreContexts {
    if (options.organization !== true) return this.contexts;
    this.organizationContexts ??= this.makeContexts(true);
    return this.organizationContexts;
  }

  private decideById(q: NormalizedContact, options: FindOptions, gates: readonly string[]): MatchResult | null {
    if (options.id !== undefined && this.records.has(options.id) && options.id !== options.excludeId) {
      return decisive(options.id, 'id', gates, options.explain === true ? this.explain(q, options.id) : []);
    }
    if (q.identifiers.length === 0 || !this.identifiersDecide) return null;
    // The record named by the most identifiers wins; ties go to the lowest id.
    const votes = new Map<number, number>();
    for (const key of q.identifiers) {
      const posting = this.identifiers.get(key);
      if (posting === undefined) continue;
      for (const id of typeof posting === 'number' ? [posting] : posting) {
        if (id !== options.excludeId) votes.set(id, (votes.get(id) ?? 0) + 1);
      }
    }
    let bestId: number | null = null;
    let bestVotes = 0;
    for (const [id, n] of votes) {
      if (n > bestVotes || (n === bestVotes && bestId !== null && id < bestId)) {
        bestId = id;
        bestVotes = n;
      }
    }
    if (bestId === null) return null;
    return decisive(bestId, 'identifier', gates, options.explain === true ? this.explain(q, bestId) : []);
  }

  /**
   * Scores the candidates of `q` and decides each. `eligibleOnly`: the caller reads only the
   * eligible (matched or possible) candidates, so a pair that cannot reach the review threshold
   * is dropped as soon as that is certain (and `top` says nothing).
   */
  private rank(
    q: NormalizedContact,
    options: FindOptions,
    met: readonly Gate[],
    eligibleOnly = false,
  ): {
    eligible: ScoredCandidate[];
    scored: number;
    top: { id: number; score: number } | null;
    topReason: MatchReason;
  } {
    const set = this.contextsFor(options);
    const strict = options.strict ?? this.strict;
    const ctx = strict ? set.strict : set.loose;
    const fast = eligibleOnly ? (strict ? set.strictFloor : set.looseFloor) : strict ? set.strictFast : set.looseFast;
    // The lookup's names' forms first: its keys read their sounds (lookupHashes).
    const prepared = this.prepared(q);
    const rows =
      options.candidates === undefined
        ? this.candidateRows(q, options.excludeId, options.indexed === true, true, (prepared as WithNameForms).nameForms)
        : this.rowsOf(options.candidates, options.excludeId);
    const eligible: ScoredCandidate[] = [];
    const vetoed: number[] = [];
    const thresholds = this.policy.thresholds;
    let top: { id: number; score: number } | null = null;
    let topReason: MatchReason = 'below-threshold';
    for (const row of rows) {
      this.records.loadRow(row, this.view);
      const id = this.records.idOfRow(row);
      const s = scorePair(prepared, this.view, fast);
      if (s.belowFloor) continue;
      if (s.vetoedBy !== null) {
        vetoed.push(id);
        continue;
      }
      const d = decidePair(s, met, this.policy);
      if (d.decision !== 'Unmatched') eligible.push({ id, score: s.score, decision: d.decision, gate: d.gate, heldBack: d.heldBack });
      if (top === null || s.score > top.score || (s.score === top.score && id < top.id)) {
        top = { id, score: s.score };
        topReason = unmatchedReason(s.score, d.gate, false, thresholds);
      }
    }
    if (!eligibleOnly && eligible.length === 0 && vetoed.length > 0) {
      // Nothing matched: say why by the best-scoring record, vetoed ones included (their
      // scores were cut short at the veto, so a few are scored in full here).
      for (const id of vetoed.slice(0, VETOED_EXPLAINED)) {
        // Through the view, as the loop above scored it: its names' forms and memos, its lists
        // where they are stored (a record built with records.get cost 3% of a find at 1M).
        this.records.loadRow(this.records.rowOf(id), this.view);
        const full = scorePair(prepared, this.view, ctx);
        if (top === null || full.score > top.score || (full.score === top.score && id < top.id)) {
          top = { id, score: full.score };
          topReason = 'criterion-disagrees';
        }
      }
    }
    eligible.sort(compareCandidates);
    return { eligible, scored: rows.length, top, topReason };
  }
}

/** {@link ContactIndex.scoreOwnedPairs}: the pair's owner looks the other record up (it is one of the owner's candidates). */
export const OWNER_LOOKS = 1;
/** {@link ContactIndex.scoreOwnedPairs}: the other record looks the owner up. */
export const OTHER_LOOKS = 2;

/** Blocking keys and the rows they file, collected for PostingTable.addAllNew. */
class DeferredKeys {
  keys = new Int32Array(1 << 16);
  rows = new Int32Array(1 << 16);
  size = 0;

  add(hashes: readonly number[], row: number): void {
    const need = this.size + hashes.length;
    if (need > this.keys.length) {
      const capacity = Math.max(need, Math.ceil(this.keys.length * 1.5));
      const keys = new Int32Array(capacity);
      keys.set(this.keys.subarray(0, this.size));
      const rows = new Int32Array(capacity);
      rows.set(this.rows.subarray(0, this.size));
      this.keys = keys;
      this.rows = rows;
    }
    for (const h of hashes) {
      this.keys[this.size] = h;
      this.rows[this.size++] = row;
    }
  }
}

/** The keys of NormalizeOptions an index passes on to normalization. */
const NORMALIZE_OPTION_KEYS = [
  'defaultCountry',
  'dateOrder',
  'addressMemo',
  'placeholders',
  'years',
  'yearOnlyDates',
  'localPhones',
  'areaCode',
  'oneLineAddresses',
] as const;

function countAddExact<K>(map: Map<K, number>, key: K, delta: number): void {
  const next = (map.get(key) ?? 0) + delta;
  if (next <= 0) map.delete(key);
  else map.set(key, next);
}

/** Code of the 'missing' level, which a level vector starts from. */
const MISSING_LEVEL = LEVEL_CODE.missing;

/** Entries of the index's memo of lookup names' sounds and OCR folds, at most. */
const QUERY_MEMO_SIZE = 100_000;

/** How many vetoed records are scored in full to explain an unmatched candidate. */
const VETOED_EXPLAINED = 5;

function unmatched(reason: MatchReason, gates: readonly string[], candidates: number): MatchResult {
  return { decision: 'Unmatched', id: null, score: 0, reason, gates, gate: null, explanation: [], explainedId: null, candidates, heldBack: null };
}

/** A match decided by id or identifier; its score is still the fields' sum, for the record. */
function decisive(id: number, reason: 'id' | 'identifier', gates: readonly string[], explanation: FieldOutcome[]): MatchResult {
  const score = explanation.reduce((sum, f) => sum + f.weight, 0);
  return { decision: 'Matched', id, score, reason, gates, gate: null, explanation, explainedId: id, candidates: 1, heldBack: null };
}

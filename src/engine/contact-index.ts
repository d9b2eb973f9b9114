/**
 * The in-memory contact index: records filed under several blocking keys, updated
 * incrementally (add, replace, remove by id; no rebuild), and `find`, which gates, blocks,
 * scores, decides and explains.
 */
import { blockingHashes, phoneticKey } from './blocking.js';
import { normalizeContact, type NormalizeOptions } from './contact.js';
import { DEFAULT_GATES, evaluateGates, gateShortfalls, suppliedFields, type Gate, type GateShortfall } from './gates.js';
import { DEFAULT_MODEL, DEFAULT_THRESHOLDS, type MatchModel, type Thresholds } from './model.js';
import { compactName } from './name.js';
import { DEFAULT_NICKNAMES, type NicknameTable } from './nicknames.js';
import { PhoneMemo } from './phone.js';
import { MAX_RECORD_ID, PostingTable, type PostingTableState } from './posting-table.js';
import { CandidateSelector, type KeyPostings, type SelectionLimits } from './candidate-selection.js';
import { RecordStore, RecordView, type RecordStoreState } from './record-store.js';
import { compileModel, makeScoreContext, scorePair, type CompiledModel, type FieldOutcome, type ScoreContext, type TermFrequencies } from './score.js';
import type { ContactInput, NormalizedContact } from './types.js';

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
  /** Adjust exact name agreement by the name's frequency in the index. Default true. */
  readonly termFrequencies?: boolean;
  /**
   * Count names elsewhere: term frequencies (when on) read these counts instead of the
   * index's own, for an index that holds only some of the records (database retrieval loads
   * a lookup's candidates into one and counts names in the database).
   */
  readonly termCounts?: TermFrequencies;
  /**
   * A match must agree (not only be supplied) on every field of one minimum combination.
   * Default true, for a CRM; false for linking files whose errors replace whole values.
   */
  readonly requireGateAgreement?: boolean;
}

/** Default of {@link IndexOptions.maxBlockSize}. */
export const DEFAULT_MAX_BLOCK_SIZE = 100;
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
  /** Build the explanation. Default true. */
  readonly explain?: boolean;
  /**
   * Score these records (ids, best first), chosen elsewhere with this index's selection
   * (candidate-selection.ts), instead of selecting them by blocking keys; ids not indexed are
   * skipped.
   */
  readonly candidates?: readonly number[];
}

/** The decision on a candidate. "Possible" is a match for review, never merged automatically. */
export type Decision = 'Matched' | 'Possible' | 'Unmatched';

/** Why the decision was reached. */
export type MatchReason =
  /** A known record id decided. */
  | 'id'
  /** An external identifier decided. */
  | 'identifier'
  /** The match weight reached the threshold and the record agrees on a minimum combination. */
  | 'score'
  /** The candidate does not hold any minimum combination: no match is attempted. */
  | 'below-minimum'
  /** No indexed record shares a blocking key with the candidate. */
  | 'no-candidates'
  /** The best-scoring record differs on a supplied criterion (a first name, a date of birth, Jr/Sr). */
  | 'criterion-disagrees'
  /** The best record scored high but agrees on no minimum combination. */
  | 'no-gate-agrees'
  /** No record scored high enough. */
  | 'below-threshold';

/** A scored record. */
export interface ScoredCandidate {
  readonly id: number;
  readonly score: number;
  readonly decision: Decision;
  /** The minimum combination the record agrees on, or null. */
  readonly gate: string | null;
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
  /** Each field's level, label and weight for the best record scored (empty when none). */
  readonly explanation: readonly FieldOutcome[];
  /** The record the explanation is about (the best scored, even when unmatched). */
  readonly explainedId: number | null;
  /** How many records were scored. */
  readonly candidates: number;
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

/** Version of {@link IndexState}'s layout. */
const INDEX_STATE_VERSION = 1;

/** The data of a {@link ContactIndex} ({@link ContactIndex.exportState}). */
export interface IndexState {
  readonly version: number;
  readonly records: RecordStoreState;
  readonly postings: PostingTableState;
  readonly identifiers: ReadonlyMap<string, number | number[]>;
  readonly sounds: ReadonlyMap<string, string>;
  readonly firstCounts: ReadonlyMap<string, number>;
  readonly lastCounts: ReadonlyMap<string, number>;
}

/** An incremental in-memory index of normalized contacts, with explainable `find`. */
export class ContactIndex {
  private readonly records = new RecordStore();
  /** The candidate being scored (reused: `rank` is synchronous and never nested). */
  private readonly view = new RecordView(this.records);
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
  private readonly identifiers = new Map<string, Posting>();
  /**
   * Phonetic code of each name indexed (names repeat; Double Metaphone costs about a
   * microsecond). Only indexing adds to it: lookups read it, so a server answering finds for
   * ever new (misspelled) names does not grow it without bound.
   */
  private readonly sounds = new Map<string, string>();
  private readonly soundOf = (name: string): string => {
    let code = this.sounds.get(name);
    if (code === undefined) {
      code = phoneticKey(name);
      this.sounds.set(name, code);
    }
    return code;
  };
  private readonly soundOfQuery = (name: string): string => this.sounds.get(name) ?? phoneticKey(name);
  private readonly contexts: { readonly loose: ScoreContext; readonly strict: ScoreContext; readonly looseFast: ScoreContext; readonly strictFast: ScoreContext };
  private readonly firstCounts = new Map<string, number>();
  private readonly lastCounts = new Map<string, number>();
  private readonly compiled: CompiledModel;
  private readonly nicknames: NicknameTable;
  private readonly thresholds: Thresholds;
  private readonly gates: readonly Gate[];
  private readonly strict: boolean;
  private readonly normalizeOptions: NormalizeOptions;
  private readonly tf: TermFrequencies | null;
  private readonly requireGateAgreement: boolean;

  constructor(options: IndexOptions = {}) {
    this.compiled = compileModel(options.model ?? DEFAULT_MODEL);
    this.nicknames = options.nicknames ?? DEFAULT_NICKNAMES;
    this.thresholds = options.thresholds ?? DEFAULT_THRESHOLDS;
    this.gates = options.gates ?? DEFAULT_GATES;
    this.strict = options.strict ?? false;
    this.requireGateAgreement = options.requireGateAgreement ?? true;
    this.selector = new CandidateSelector({
      maxBlockSize: Math.max(1, options.maxBlockSize ?? DEFAULT_MAX_BLOCK_SIZE),
      maxCandidates: Math.max(1, options.maxCandidates ?? DEFAULT_MAX_CANDIDATES),
      selectiveBlockSize: Math.max(1, options.selectiveBlockSize ?? DEFAULT_SELECTIVE_BLOCK_SIZE),
    });
    const norm: { -readonly [K in keyof NormalizeOptions]: NormalizeOptions[K] } = {};
    if (options.defaultCountry !== undefined) norm.defaultCountry = options.defaultCountry;
    if (options.dateOrder !== undefined) norm.dateOrder = options.dateOrder;
    if (options.addressMemo !== undefined) norm.addressMemo = options.addressMemo;
    norm.phoneMemo = options.phoneMemo ?? new PhoneMemo();
    this.normalizeOptions = norm;
    const firstCounts = this.firstCounts;
    const lastCounts = this.lastCounts;
    const records = this.records;
    this.tf =
      options.termFrequencies === false
        ? null
        : options.termCounts ?? {
            get total() {
              return records.size;
            },
            firstNameCount: (name) => firstCounts.get(name) ?? 0,
            lastNameCount: (name) => lastCounts.get(name) ?? 0,
          };
    const base = { compiled: this.compiled, nicknames: this.nicknames, tf: this.tf };
    const loose = makeScoreContext({ ...base, strict: false });
    const strict = makeScoreContext({ ...base, strict: true });
    this.contexts = { loose, strict, looseFast: { ...loose, stopAtVeto: true }, strictFast: { ...strict, stopAtVeto: true } };
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

  /** Normalizes a contact with this index's options (default country, date order). */
  normalize(contact: ContactInput): NormalizedContact {
    return normalizeContact(contact, this.normalizeOptions);
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
    if (this.records.has(id)) this.remove(id);
    // Keys file the record's row (the store's position of it), so a lookup reads candidates
    // without going through id -> row. The record was removed above and its hashes are
    // distinct: no list holds the row yet.
    const row = this.records.set(id, contact);
    for (const h of blockingHashes(contact, this.nicknames, this.soundOf)) this.postings.addNew(h, row);
    for (const key of contact.identifiers) postingAdd(this.identifiers, key, id);
    countAdd(this.firstCounts, contact.first, 1);
    countAdd(this.lastCounts, contact.last, 1);
  }

  /**
   * The index's data, to build the same index in another thread without inserting every
   * record again: post it to the thread (it is structured-clonable; typed arrays are copied,
   * or pass their buffers in the transfer list to move them) and call {@link importState} on a
   * new, empty index made with the same options there.
   */
  exportState(): IndexState {
    return {
      version: INDEX_STATE_VERSION,
      records: this.records.exportState(),
      postings: this.postings.exportState(),
      identifiers: this.identifiers,
      sounds: this.sounds,
      firstCounts: this.firstCounts,
      lastCounts: this.lastCounts,
    };
  }

  /**
   * Loads what {@link exportState} gave, into this index, which must be empty and made with
   * the same options as the exporting one (the state holds records and keys, not options).
   */
  importState(state: IndexState): void {
    if (state.version !== INDEX_STATE_VERSION) throw new Error(`index state version ${String(state.version)} is not ${INDEX_STATE_VERSION}`);
    if (this.records.size > 0) throw new Error('importState needs an empty index');
    this.records.importState(state.records);
    this.postings.importState(state.postings);
    for (const [k, v] of state.identifiers) this.identifiers.set(k, typeof v === 'number' ? v : v.slice());
    for (const [k, v] of state.sounds) this.sounds.set(k, v);
    for (const [k, v] of state.firstCounts) this.firstCounts.set(k, v);
    for (const [k, v] of state.lastCounts) this.lastCounts.set(k, v);
  }

  /** Removes a record; false when it was not indexed. */
  remove(id: number): boolean {
    const contact = this.records.get(id);
    if (!contact) return false;
    const row = this.records.rowOf(id);
    for (const h of blockingHashes(contact, this.nicknames, this.soundOf)) this.postings.remove(h, row);
    for (const key of contact.identifiers) postingRemove(this.identifiers, key, id);
    countAdd(this.firstCounts, contact.first, -1);
    countAdd(this.lastCounts, contact.last, -1);
    this.records.delete(id);
    return true;
  }

  /**
   * Ids of the records that share a blocking key with the candidate. Keys are read most
   * selective first; a key filed under more than maxBlockSize records is skipped once
   * another key found records, and when every key is that common only maxBlockSize records
   * of the most selective one are read. A record counts when it was found under a selective
   * key (selectiveBlockSize) or under at least two keys. Records sharing more keys come
   * first, then lower ids; at most maxCandidates. Deterministic.
   */
  candidateIds(candidate: NormalizedContact, excludeId?: number): number[] {
    return this.candidateRows(candidate, excludeId).map((row) => this.records.idOfRow(row));
  }

  /** {@link candidateIds} as rows of the record store, in the same order (candidate-selection.ts). */
  private candidateRows(candidate: NormalizedContact, excludeId?: number): number[] {
    const excludeRow = excludeId === undefined ? -1 : this.records.rowOf(excludeId);
    const hashes = this.keyHashes(candidate);
    const slots = this.lookupSlots;
    slots.length = hashes.length;
    for (let i = 0; i < hashes.length; i++) slots[i] = this.postings.slotOf(hashes[i] as number);
    return this.selector.select(hashes.length, this.slotPostings, excludeRow);
  }

  /**
   * The blocking key hashes this index files a record under and looks a candidate up by
   * (blocking.ts), for a store that keeps the keys itself (database retrieval). Adds nothing
   * to the index's memos.
   */
  keyHashes(contact: NormalizedContact): number[] {
    return blockingHashes(contact, this.nicknames, this.soundOfQuery);
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
        reason: best.decision === 'Matched' ? 'score' : 'below-threshold',
        gates,
        gate: best.gate,
        explanation: options.explain === false ? [] : this.explain(q, best.id, ctx),
        explainedId: best.id,
        candidates: ranked.scored,
      };
    }
    if (ranked.scored === 0) return unmatched('no-candidates', gates, 0);
    const top = ranked.top;
    return {
      ...unmatched(ranked.topReason, gates, ranked.scored),
      score: top?.score ?? 0,
      explanation: top && options.explain !== false ? this.explain(q, top.id, ctx) : [],
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
    return this.rank(candidate, options, met).eligible;
  }

  /** The field-by-field explanation of a candidate against one indexed record. */
  explain(q: NormalizedContact, id: number, ctx: ScoreContext = this.scoreContext({})): FieldOutcome[] {
    const r = this.records.get(id);
    if (!r) return [];
    const out: FieldOutcome[] = [];
    scorePair(q, r, ctx, out);
    return out;
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

  private scoreContext(options: FindOptions): ScoreContext {
    return options.strict ?? this.strict ? this.contexts.strict : this.contexts.loose;
  }

  private decideById(q: NormalizedContact, options: FindOptions, gates: readonly string[]): MatchResult | null {
    if (options.id !== undefined && this.records.has(options.id) && options.id !== options.excludeId) {
      return decisive(options.id, 'id', gates, this.explain(q, options.id));
    }
    if (q.identifiers.length === 0) return null;
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
    return decisive(bestId, 'identifier', gates, this.explain(q, bestId));
  }

  private rank(q: NormalizedContact, options: FindOptions, met: readonly Gate[]): {
    eligible: ScoredCandidate[];
    scored: number;
    top: { id: number; score: number } | null;
    topReason: MatchReason;
  } {
    const ctx = this.scoreContext(options);
    const fast = ctx === this.contexts.strict ? this.contexts.strictFast : this.contexts.looseFast;
    const rows = options.candidates === undefined ? this.candidateRows(q, options.excludeId) : this.rowsOf(options.candidates, options.excludeId);
    const eligible: ScoredCandidate[] = [];
    const vetoed: number[] = [];
    let top: { id: number; score: number } | null = null;
    let topReason: MatchReason = 'below-threshold';
    for (const row of rows) {
      this.records.loadRow(row, this.view);
      const id = this.records.idOfRow(row);
      const s = scorePair(q, this.view, fast);
      if (s.vetoedBy !== null) {
        vetoed.push(id);
        continue;
      }
      let gate: string | null = null;
      for (const g of met) {
        if ((s.agreeMask & g.mask) === g.mask) {
          gate = g.name;
          break;
        }
      }
      if (gate === null && !this.requireGateAgreement) gate = met[0]?.name ?? null;
      if (s.score >= this.thresholds.possible) {
        const decision: Decision = gate !== null && s.score >= this.thresholds.match ? 'Matched' : 'Possible';
        eligible.push({ id, score: s.score, decision, gate });
      }
      if (top === null || s.score > top.score || (s.score === top.score && id < top.id)) {
        top = { id, score: s.score };
        topReason = gate === null && s.score >= this.thresholds.match ? 'no-gate-agrees' : 'below-threshold';
      }
    }
    if (eligible.length === 0 && vetoed.length > 0) {
      // Nothing matched: say why by the best-scoring record, vetoed ones included (their
      // scores were cut short at the veto, so a few are scored in full here).
      for (const id of vetoed.slice(0, VETOED_EXPLAINED)) {
        const full = scorePair(q, this.records.get(id) as NormalizedContact, ctx);
        if (top === null || full.score > top.score || (full.score === top.score && id < top.id)) {
          top = { id, score: full.score };
          topReason = 'criterion-disagrees';
        }
      }
    }
    eligible.sort((a, b) => rankOf(b) - rankOf(a) || b.score - a.score || a.id - b.id);
    return { eligible, scored: rows.length, top, topReason };
  }
}

/** How many vetoed records are scored in full to explain an unmatched candidate. */
const VETOED_EXPLAINED = 5;

function rankOf(c: ScoredCandidate): number {
  return c.decision === 'Matched' ? 2 : c.decision === 'Possible' ? 1 : 0;
}

function unmatched(reason: MatchReason, gates: readonly string[], candidates: number): MatchResult {
  return { decision: 'Unmatched', id: null, score: 0, reason, gates, gate: null, explanation: [], explainedId: null, candidates };
}

/** A match decided by id or identifier; its score is still the fields' sum, for the record. */
function decisive(id: number, reason: 'id' | 'identifier', gates: readonly string[], explanation: FieldOutcome[]): MatchResult {
  const score = explanation.reduce((sum, f) => sum + f.weight, 0);
  return { decision: 'Matched', id, score, reason, gates, gate: null, explanation, explainedId: id, candidates: 1 };
}

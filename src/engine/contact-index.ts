/**
 * The in-memory contact index: records filed under several blocking keys, updated
 * incrementally (add, replace, remove by id; no rebuild), and `find`, which gates, blocks,
 * scores, decides and explains.
 */
import { blockingKeys } from './blocking.js';
import { normalizeContact, type NormalizeOptions } from './contact.js';
import { DEFAULT_GATES, evaluateGates, suppliedFields, type Gate } from './gates.js';
import { DEFAULT_MODEL, DEFAULT_THRESHOLDS, type MatchModel, type Thresholds } from './model.js';
import { compactName } from './name.js';
import { DEFAULT_NICKNAMES, type NicknameTable } from './nicknames.js';
import { compileModel, scorePair, type CompiledModel, type FieldOutcome, type ScoreContext, type TermFrequencies } from './score.js';
import type { ContactInput, NormalizedContact } from './types.js';

/** Options of an index. Every option has a documented default. */
export interface IndexOptions extends NormalizeOptions {
  readonly nicknames?: NicknameTable;
  readonly model?: MatchModel;
  readonly thresholds?: Thresholds;
  /** Minimum combinations; default the contract's five (gates.ts). */
  readonly gates?: readonly Gate[];
  /** Disable Partial Matching for every find on this index. Default false. */
  readonly strict?: boolean;
  /**
   * A blocking key filed under more records than this is too common to be useful ("john
   * smith", a shared office phone): lookups skip it while the candidate has other keys.
   * Default 200; range >= 1.
   */
  readonly maxBlockSize?: number;
  /** At most this many candidates are scored per lookup. Default 1000; range >= 1. */
  readonly maxCandidates?: number;
  /** Adjust exact name agreement by the name's frequency in the index. Default true. */
  readonly termFrequencies?: boolean;
  /**
   * A match must agree (not only be supplied) on every field of one minimum combination.
   * Default true, for a CRM; false for linking files whose errors replace whole values.
   */
  readonly requireGateAgreement?: boolean;
}

/** Default of {@link IndexOptions.maxBlockSize}. */
export const DEFAULT_MAX_BLOCK_SIZE = 200;
/** Default of {@link IndexOptions.maxCandidates}. */
export const DEFAULT_MAX_CANDIDATES = 1000;

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

/** 32-bit FNV-1a of a string: blocking keys are filed by hash; a collision only adds candidates. */
function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0; // a signed 32-bit integer stays a small integer (no heap number) in V8
}

function postingAdd<K>(map: Map<K, Posting>, key: K, id: number): void {
  const cur = map.get(key);
  if (cur === undefined) map.set(key, id);
  else if (typeof cur === 'number') {
    if (cur !== id) map.set(key, [cur, id]);
  } else if (!cur.includes(id)) cur.push(id);
}

function postingRemove<K>(map: Map<K, Posting>, key: K, id: number): void {
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

/** An incremental in-memory index of normalized contacts, with explainable `find`. */
export class ContactIndex {
  private readonly records = new Map<number, NormalizedContact>();
  private readonly postings = new Map<number, Posting>();
  private readonly identifiers = new Map<string, Posting>();
  private readonly firstCounts = new Map<string, number>();
  private readonly lastCounts = new Map<string, number>();
  private readonly compiled: CompiledModel;
  private readonly nicknames: NicknameTable;
  private readonly thresholds: Thresholds;
  private readonly gates: readonly Gate[];
  private readonly strict: boolean;
  private readonly maxBlockSize: number;
  private readonly maxCandidates: number;
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
    this.maxBlockSize = Math.max(1, options.maxBlockSize ?? DEFAULT_MAX_BLOCK_SIZE);
    this.maxCandidates = Math.max(1, options.maxCandidates ?? DEFAULT_MAX_CANDIDATES);
    const norm: { defaultCountry?: string; dateOrder?: 'mdy' | 'dmy' | 'ymd' } = {};
    if (options.defaultCountry !== undefined) norm.defaultCountry = options.defaultCountry;
    if (options.dateOrder !== undefined) norm.dateOrder = options.dateOrder;
    this.normalizeOptions = norm;
    const firstCounts = this.firstCounts;
    const lastCounts = this.lastCounts;
    const records = this.records;
    this.tf =
      options.termFrequencies === false
        ? null
        : {
            get total() {
              return records.size;
            },
            firstNameCount: (name) => firstCounts.get(name) ?? 0,
            lastNameCount: (name) => lastCounts.get(name) ?? 0,
          };
  }

  /** Number of records indexed. */
  get size(): number {
    return this.records.size;
  }

  /** True when a record with this id is indexed. */
  has(id: number): boolean {
    return this.records.has(id);
  }

  /** The stored normalized record, or undefined. */
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

  /** Adds or replaces an already normalized record. */
  upsertNormalized(id: number, contact: NormalizedContact): void {
    if (this.records.has(id)) this.remove(id);
    this.records.set(id, contact);
    for (const key of blockingKeys(contact, this.nicknames)) postingAdd(this.postings, hashKey(key), id);
    for (const key of contact.identifiers) postingAdd(this.identifiers, key, id);
    countAdd(this.firstCounts, contact.first, 1);
    countAdd(this.lastCounts, contact.last, 1);
  }

  /** Removes a record; false when it was not indexed. */
  remove(id: number): boolean {
    const contact = this.records.get(id);
    if (!contact) return false;
    for (const key of blockingKeys(contact, this.nicknames)) postingRemove(this.postings, hashKey(key), id);
    for (const key of contact.identifiers) postingRemove(this.identifiers, key, id);
    countAdd(this.firstCounts, contact.first, -1);
    countAdd(this.lastCounts, contact.last, -1);
    this.records.delete(id);
    return true;
  }

  /**
   * Ids of the records that share a blocking key with the candidate, common keys skipped
   * (see maxBlockSize), at most maxCandidates, in a deterministic order.
   */
  candidateIds(candidate: NormalizedContact, excludeId?: number): number[] {
    const lists: Posting[] = [];
    for (const key of blockingKeys(candidate, this.nicknames)) {
      const posting = this.postings.get(hashKey(key));
      if (posting !== undefined) lists.push(posting);
    }
    const size = (p: Posting): number => (typeof p === 'number' ? 1 : p.length);
    lists.sort((a, b) => size(a) - size(b));
    const out: number[] = [];
    const seen = new Set<number>();
    const take = (p: Posting, limit: number): void => {
      if (typeof p === 'number') {
        if (p !== excludeId && !seen.has(p)) {
          seen.add(p);
          out.push(p);
        }
        return;
      }
      for (const id of p) {
        if (out.length >= limit) return;
        if (id !== excludeId && !seen.has(id)) {
          seen.add(id);
          out.push(id);
        }
      }
    };
    for (const p of lists) {
      if (out.length >= this.maxCandidates) break;
      // Skip common keys unless nothing more selective was found.
      if (size(p) > this.maxBlockSize && (out.length > 0 || p !== lists[0])) continue;
      take(p, this.maxCandidates);
    }
    return out;
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

  private scoreContext(options: FindOptions): ScoreContext {
    return {
      compiled: this.compiled,
      nicknames: this.nicknames,
      strict: options.strict ?? this.strict,
      tf: this.tf,
    };
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
    const ids = this.candidateIds(q, options.excludeId);
    const eligible: ScoredCandidate[] = [];
    let top: { id: number; score: number } | null = null;
    let topReason: MatchReason = 'below-threshold';
    for (const id of ids) {
      const r = this.records.get(id);
      if (!r) continue;
      const s = scorePair(q, r, ctx);
      let reason: MatchReason = 'below-threshold';
      let gate: string | null = null;
      if (s.vetoedBy !== null) reason = 'criterion-disagrees';
      else {
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
        if (gate === null && s.score >= this.thresholds.match) reason = 'no-gate-agrees';
      }
      if (top === null || s.score > top.score || (s.score === top.score && id < top.id)) {
        top = { id, score: s.score };
        topReason = reason;
      }
    }
    eligible.sort((a, b) => rankOf(b) - rankOf(a) || b.score - a.score || a.id - b.id);
    return { eligible, scored: ids.length, top, topReason };
  }
}

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

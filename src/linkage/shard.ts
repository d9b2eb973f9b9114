/**
 * The matching work of one thread: normalizing rows, holding a full index of the indexed
 * file (records inserted in id order, so every thread's index is identical to a
 * single-threaded one), answering queries, and explaining pairs. Used in-process with one
 * thread and inside each worker with several (see pool.ts, worker.ts).
 */
import { ContactIndex, evaluateGates, suppliedFields, type FieldOutcome, type Gate, type MatchModel, type NormalizedContact } from '../engine/index.js';
import { compileRowLayout, rowToContact, type RowLayout } from '../files/row-contact.js';
import type { HeaderPlan } from '../files/header-map.js';
import { estimateModel, learnModel, type Estimated, type Learned } from './learn.js';
import { dateOrderOf, gatesOf, indexOptionsOf, type MatchSettings } from './settings.js';
import type { RowSignatures } from './conflicts.js';
import type { PairResult, PairWork, Selection } from './pair-plan.js';
import { formatShortfalls } from './notes.js';
import { scorePairWork, selectCandidates } from './pair-scoring.js';

/** Values supplied in a row that the engine could not read (so they count for nothing). */
export interface UnreadableValues {
  /** Per kind ("dateOfBirth", "email", "phone", "name"): how many rows, and a few examples. */
  readonly [kind: string]: { count: number; examples: { line: number; value: string }[] };
}

/** How many unreadable-value examples are kept per kind. */
export const UNREADABLE_EXAMPLES = 3;

/** A batch of rows to normalize: consecutive ids from `firstId`. */
export interface RowBatch {
  readonly seq: number;
  readonly firstId: number;
  readonly rows: readonly (readonly string[])[];
  readonly lines: readonly number[];
}

/** What a query batch found, per row (typed arrays: cheap to send between threads). */
export interface QueryResult {
  readonly seq: number;
  /** The id of each row queried, in the order of the per-row arrays below. */
  readonly ids: Int32Array;
  readonly count: number;
  /** Matched candidates of every row: from-id, to-id, score (flat, row order). */
  readonly matchFrom: Int32Array;
  readonly matchTo: Int32Array;
  readonly matchScore: Float64Array;
  /** Best "possible" candidate per row (-1 when none) and its score. */
  readonly possibleId: Int32Array;
  readonly possibleScore: Float64Array;
  /** Rows whose best Possible agrees on no minimum combination, and why ({@link formatShortfalls}). */
  readonly noteIds: Int32Array;
  readonly notes: readonly string[];
  /** 1 when the row supplies none of the minimum combinations (cannot be matched on its own). */
  readonly noGate: Uint8Array;
  /** For the report: rows with no candidate above the review threshold, with their best score. */
  readonly lowIds: Int32Array;
  readonly lowScores: Float64Array;
  /** Why each row's Possible candidate is not matched though it scored above the threshold, or null. */
  readonly possibleWhy: (string | null)[];
  /** Evaluation only (`collectCandidates`): every candidate pair compared (from, to) and its score. */
  readonly candFrom: Int32Array;
  readonly candTo: Int32Array;
  readonly candScore: Float64Array;
}

/** A pair to explain: query id (a row of the queried file) and record id (of the index). */
export interface PairRequest {
  readonly query: number;
  readonly record: number;
}

/** Counts unreadable values in `target`. */
function noteUnreadable(
  target: Record<string, { count: number; examples: { line: number; value: string }[] }>,
  kind: string,
  line: number,
  value: string,
): void {
  const entry = target[kind] ?? (target[kind] = { count: 0, examples: [] });
  entry.count++;
  if (entry.examples.length < UNREADABLE_EXAMPLES) entry.examples.push({ line, value: value.length > 60 ? `${value.slice(0, 57)}...` : value });
}

/** Merges unreadable-value counts. */
export function mergeUnreadable(into: Record<string, { count: number; examples: { line: number; value: string }[] }>, from: UnreadableValues): void {
  for (const [kind, entry] of Object.entries(from)) {
    const target = into[kind] ?? (into[kind] = { count: 0, examples: [] });
    target.count += entry.count;
    for (const e of entry.examples) if (target.examples.length < UNREADABLE_EXAMPLES) target.examples.push(e);
  }
}

/** Options of a shard. */
export interface ShardOptions {
  /** Dedupe: the queried rows are the indexed records. Link: another file's rows. */
  readonly mode: 'dedupe' | 'link';
  readonly settings: MatchSettings;
  /** Plan of the indexed file, and of the queried file (the same one for dedupe). */
  readonly indexPlan: HeaderPlan;
  readonly queryPlan: HeaderPlan;
  /** Sample one row in `lowSampleEvery` without candidates for the report's low scores (0 = none). */
  readonly lowSampleEvery: number;
  /** Evaluation: report every candidate pair and its score (pair completeness, thresholds). Default false. */
  readonly collectCandidates?: boolean;
}

/** One thread's index and work. */
export class MatchShard {
  readonly index: ContactIndex;
  private readonly indexLayout: RowLayout;
  private readonly queryLayout: RowLayout;
  /** Normalized query rows this shard answered (link), kept for explanations. */
  private readonly queried = new Map<number, NormalizedContact>();
  private readonly dedupe: boolean;
  private readonly gates: readonly Gate[];

  /** Link: the other file's rows read for estimation. */
  private readonly training: NormalizedContact[] = [];
  /**
   * Dedupe: the indexed records' ids in the order they are queried (the index's lookup
   * order, ContactIndex.relayoutForLookups), once the index is complete.
   */
  private lookupOrder: Int32Array | null = null;
  /** m and u estimated ahead of {@link learn} ({@link estimateEarly}), or null. */
  private estimated: Estimated | null = null;
  /**
   * Link: the batches read for estimation, normalized, until the same batch comes back to be
   * matched (the file is read twice; each row is normalized once on this thread).
   */
  private readonly trainedBatches = new Map<number, { firstId: number; contacts: NormalizedContact[]; unreadable: UnreadableValues }>();

  constructor(private readonly options: ShardOptions) {
    const plans = options.mode === 'dedupe' ? [options.indexPlan] : [options.indexPlan, options.queryPlan];
    this.index = new ContactIndex(indexOptionsOf(options.settings, plans));
    // Term counts hold both records of a dedupe's pairs, and a link's candidate only.
    this.index.setPairHolders(options.mode === 'dedupe' ? 2 : 1);
    this.gates = gatesOf(options.settings, plans);
    const engine = dateOrderOf(options.settings);
    this.indexLayout = compileRowLayout(options.indexPlan, { engine, file: options.indexPlan.dateOrder });
    this.queryLayout = compileRowLayout(options.queryPlan, { engine, file: options.queryPlan.dateOrder });
    this.dedupe = options.mode === 'dedupe';
  }

  /** Normalizes rows of the indexed (side 'index') or queried file, counting unreadable values. */
  normalize(
    batch: RowBatch,
    side: 'index' | 'query',
    unreadable: Record<string, { count: number; examples: { line: number; value: string }[] }>,
  ): NormalizedContact[] {
    const layout = side === 'index' ? this.indexLayout : this.queryLayout;
    const out = new Array<NormalizedContact>(batch.rows.length);
    for (let i = 0; i < batch.rows.length; i++) {
      const contact = rowToContact(batch.rows[i] as string[], layout);
      const n = this.index.normalize(contact);
      const line = batch.lines[i] ?? 0;
      if (contact.dateOfBirth && n.dob === null) noteUnreadable(unreadable, 'dateOfBirth', line, contact.dateOfBirth);
      if ((contact.emails?.length ?? 0) > 0 && n.emails.length === 0) noteUnreadable(unreadable, 'email', line, (contact.emails ?? []).join('; '));
      if ((contact.phones?.length ?? 0) > 0 && n.phones.length === 0) {
        noteUnreadable(unreadable, 'phone', line, (contact.phones ?? []).map((p) => (typeof p === 'string' ? p : p.phoneNumber)).join('; '));
      }
      if ((contact.firstName || contact.lastName) && n.first === null && n.last === null) {
        noteUnreadable(unreadable, 'name', line, [contact.firstName, contact.lastName].filter(Boolean).join(' '));
      }
      out[i] = n;
    }
    return out;
  }

  /** Link: normalizes a batch of the queried file and keeps its rows to estimate the model on. */
  train(batch: RowBatch): void {
    const unreadable = {};
    const contacts = this.normalize(batch, 'query', unreadable);
    for (const c of contacts) this.training.push(c);
    this.trainedBatches.set(batch.seq, { firstId: batch.firstId, contacts, unreadable });
  }

  /** Normalizes a batch of the queried file, or takes it from the training pass that already did. */
  normalizeQuery(batch: RowBatch, unreadable: Record<string, { count: number; examples: { line: number; value: string }[] }>): NormalizedContact[] {
    const trained = this.trainedBatches.get(batch.seq);
    if (trained === undefined || trained.firstId !== batch.firstId || trained.contacts.length !== batch.rows.length) {
      return this.normalize(batch, 'query', unreadable);
    }
    this.trainedBatches.delete(batch.seq);
    mergeUnreadable(unreadable, trained.unreadable);
    return trained.contacts;
  }

  /**
   * Dedupe, learned rules: estimates m and u from the indexed records before their keys are
   * filed (or received), for {@link learn} to use (worker.ts: a second thread does it while the
   * builder files the keys).
   */
  estimateEarly(): void {
    this.estimated = estimateModel(this.index, this.index.size, null, this.options.settings);
  }

  /** Learned rules: estimates the model from the index (and the training rows) and scores with it. */
  learn(): Learned {
    const right = this.dedupe ? null : this.training;
    const learned = learnModel(this.index, this.index.size, right, this.options.settings, this.estimated ?? undefined);
    this.estimated = null;
    this.training.length = 0;
    this.countOwnRows(learned.model);
    return learned;
  }

  /** Scores with `model` from now on (one learned by another thread). */
  setModel(model: MatchModel): void {
    this.index.setModel(model);
    this.countOwnRows(model);
  }

  /**
   * Dedupe: a phone or an email held by the pair's person's own rows is no one else's
   * (TermFrequencies.pairHolders); the person has 1 + prior * (n - 1) rows on average.
   */
  private countOwnRows(model: MatchModel): void {
    if (this.dedupe && model.prior !== undefined) this.index.setPairHolders(Math.max(2, 1 + model.prior * (this.index.size - 1)));
  }

  /** What clustering needs of some indexed rows: their names, dates of birth and identifiers. */
  signatures(rows: readonly number[]): RowSignatures {
    const out: RowSignatures = { rows: [...rows], first: [], firstCount: [], middle: [], last: [], dob: [], identifiers: [], suffix: [], sex: [] };
    for (const row of rows) {
      const c = this.index.peek(row);
      const first = c?.first ?? null;
      out.first.push(first);
      out.firstCount.push(first === null ? 0 : this.index.firstNameCount(first));
      out.middle.push(c?.middle ?? null);
      out.last.push(c?.last ?? null);
      out.dob.push(c?.dob ?? null);
      out.identifiers.push(c === undefined || c.identifiers.length === 0 ? null : c.identifiers.join('\u0001'));
      out.suffix.push(c?.suffix ?? null);
      out.sex.push(c?.sex ?? null);
    }
    return out;
  }

  /**
   * Adds normalized records with consecutive ids (new ones: a file's rows). Their blocking
   * keys are filed all at once by {@link finishIndex} (ContactIndex.deferKeys).
   */
  insert(firstId: number, contacts: readonly NormalizedContact[]): void {
    // A dedupe looks every indexed record up: its keys are kept for that (FindOptions.indexed).
    this.index.deferKeys(this.dedupe);
    for (let i = 0; i < contacts.length; i++) this.index.upsertNormalized(firstId + i, contacts[i] as NormalizedContact);
  }

  /**
   * Every record is inserted: files their keys, so the index answers lookups; a dedupe's
   * index is put in lookup order at the same time ({@link prepareLookups}).
   */
  finishIndex(): void {
    if (this.dedupe) this.prepareLookups();
    else this.index.fileDeferredKeys();
  }

  /**
   * Dedupe, once every record is indexed: stores the records in lookup order (see
   * ContactIndex.relayoutForLookups; the first call does it, later ones answer the same order).
   * Every thread computes the same order from the same index.
   */
  prepareLookups(): Int32Array {
    this.lookupOrder ??= this.index.relayoutForLookups();
    return this.lookupOrder;
  }

  /**
   * Deduplication, first pass: the candidates of the indexed records at positions
   * [from, from+count) of the lookup order ({@link prepareLookups}), as their lookups would
   * choose them (pair-plan.ts). A record that supplies no minimum combination finds nothing,
   * so it has none unless every candidate pair is collected (evaluation).
   */
  selectIndexed(seq: number, from: number, count: number): Selection {
    return selectCandidates(this.index, seq, this.prepareLookups().slice(from, from + count), this.options.collectCandidates === true);
  }

  /**
   * Deduplication, second pass: scores the pairs of a batch of owners once each, and decides
   * them for each lookup that has them (pair-scoring.ts).
   */
  scorePairs(work: PairWork): PairResult {
    return scorePairWork(this.index, work, this.options.collectCandidates === true);
  }

  /**
   * Deduplication, for the report: the best score of each of these indexed records' lookups
   * (rows that found no Matched or Possible candidate), NaN for a record with no candidate.
   */
  lowScores(rows: readonly number[]): Float64Array {
    const out = new Float64Array(rows.length).fill(Number.NaN);
    rows.forEach((id, i) => {
      const q = this.index.get(id);
      if (q === undefined) return;
      const r = this.index.findNormalized(q, { excludeId: id, indexed: true, explain: false });
      if (r.candidates > 0) out[i] = r.score;
    });
    return out;
  }

  /** Linkage: each row of the queried file against the index. */
  queryRows(seq: number, firstId: number, contacts: readonly NormalizedContact[], keep: boolean): QueryResult {
    if (keep) contacts.forEach((c, i) => this.queried.set(firstId + i, c));
    const ids = new Int32Array(contacts.length);
    for (let i = 0; i < ids.length; i++) ids[i] = firstId + i;
    return this.query(seq, ids, contacts);
  }

  private query(seq: number, ids: Int32Array, contacts: readonly NormalizedContact[]): QueryResult {
    const count = contacts.length;
    const from: number[] = [];
    const to: number[] = [];
    const scores: number[] = [];
    const possibleId = new Int32Array(count).fill(-1);
    const possibleScore = new Float64Array(count);
    const noGate = new Uint8Array(count);
    const noteIds: number[] = [];
    const notes: string[] = [];
    const lowIds: number[] = [];
    const lowScores: number[] = [];
    const possibleWhy: (string | null)[] = new Array<string | null>(count).fill(null);
    const candFrom: number[] = [];
    const candTo: number[] = [];
    const candScore: number[] = [];
    const every = this.options.lowSampleEvery;
    const collect = this.options.collectCandidates === true;
    for (let i = 0; i < count; i++) {
      const id = ids[i] as number;
      const q = contacts[i] as NormalizedContact;
      const found = this.index.findAll(q);
      let possible = false;
      for (const c of found) {
        if (c.decision === 'Matched') {
          from.push(id);
          to.push(c.id);
          scores.push(c.score);
        } else if (!possible && c.decision === 'Possible') {
          possibleId[i] = c.id;
          possibleScore[i] = c.score;
          possibleWhy[i] = c.heldBack;
          possible = true;
          if (c.gate === null) {
            noteIds.push(id);
            notes.push(formatShortfalls(this.index.gateShortfalls(q, c.id)));
          }
        }
      }
      if (collect) {
        this.index.scoreCandidates(q, (other, score) => {
          candFrom.push(id);
          candTo.push(other);
          candScore.push(score);
        });
      }
      if (found.length === 0) {
        if (evaluateGates(this.gates, suppliedFields(q)).length === 0) noGate[i] = 1;
        else if (every > 0 && id % every === 0) {
          const r = this.index.findNormalized(q, { explain: false });
          if (r.candidates > 0) {
            lowIds.push(id);
            lowScores.push(r.score);
          }
        }
      }
    }
    return {
      seq,
      ids,
      count,
      matchFrom: Int32Array.from(from),
      matchTo: Int32Array.from(to),
      matchScore: Float64Array.from(scores),
      possibleId,
      possibleScore,
      noteIds: Int32Array.from(noteIds),
      notes,
      noGate,
      lowIds: Int32Array.from(lowIds),
      lowScores: Float64Array.from(lowScores),
      possibleWhy,
      candFrom: Int32Array.from(candFrom),
      candTo: Int32Array.from(candTo),
      candScore: Float64Array.from(candScore),
    };
  }

  /** Field-by-field explanations of pairs (query row or indexed record, against a record). */
  explain(pairs: readonly PairRequest[]): FieldOutcome[][] {
    return pairs.map(({ query, record }) => {
      const q = this.dedupe ? this.index.get(query) : this.queried.get(query);
      return q === undefined ? [] : this.index.explain(q, record);
    });
  }
}

export { formatExplanation } from '../engine/index.js';
export { describeAboveThreshold, formatShortfalls, possibleNote } from './notes.js';

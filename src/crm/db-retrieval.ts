/**
 * Database retrieval (README "Tenants bigger than memory"): a scope whose blocking keys live
 * in the database (src/store/match-key-types.ts) instead of an in-memory index. A lookup
 * reads the candidate's keys (one query: up to maxBlockSize + 1 entries of each key, and the
 * name counts), runs the engine's own candidate selection on them (CandidateSelector; the
 * exact size of a common key is read only when every key is common), loads the chosen
 * people's stored normalizations and the people sharing an identifier (one query), and lets
 * the engine decide on an index holding just those people, with the database's name counts:
 * the same decision as the in-memory index over the whole scope (test/crm/db-retrieval.test.ts).
 *
 * Memory is flat in the tenant's size: nothing is loaded at start but a check that the keys
 * were filed by this engine (else they are built once, under a lock across processes), and a
 * small cache of hot keys (key-cache.ts).
 */
import {
  CandidateSelector,
  compactName,
  type ContactIndex,
  type ContactInput,
  type KeyPostings,
  type MatchResult,
  type NormalizedContact,
  type TermFrequencies,
  type MatchModel,
} from '../engine/index.js';
import type { KeyEntry, MatchKeyReader, MatchKeyStore, PersonChange, PersonKeys, PersonRecord, Scope, Store } from '../store/index.js';
import { judgeDifferent, type DifferentPairs } from './different-pairs.js';
import { explainPossible, type Explain } from './match-explanation.js';
import { KeyCache, type KeyCacheOptions } from './key-cache.js';
import { newScopeIndex } from './scope-index.js';
import { decodeNormalization, encodeNormalization, engineInput, FINGERPRINT_PROBES, normalizerFingerprint } from './stored-normalization.js';

/** Options of database retrieval (CrmOpenOptions.index). */
export interface RetrievalOptions {
  /** The cache of hot keys. */
  readonly cache?: KeyCacheOptions;
  /** Engine selection limits (tests use small ones); defaults the index's. */
  readonly maxBlockSize?: number;
  readonly selectiveBlockSize?: number;
  readonly maxCandidates?: number;
}

/** One lookup's answer: the engine's result and which of the people it names are organizations. */
export interface Retrieved {
  readonly result: MatchResult;
  readonly organizations: ReadonlySet<number>;
}

/** Name counts of the lookup under way (the engine reads them synchronously during find). */
class LookupCounts implements TermFrequencies {
  total = 0;
  first: string | null = null;
  last: string | null = null;
  firstCount = 0;
  lastCount = 0;
  firstNameCount(name: string): number {
    return name === this.first ? this.firstCount : 0;
  }
  lastNameCount(name: string): number {
    return name === this.last ? this.lastCount : 0;
  }
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Lookups between two renewals of the lookup index (its name memo stays small). */
const RENEW_AFTER = 50_000;

const byRecency = (x: KeyEntry, y: KeyEntry): number => y.seq - x.seq || y.crmId - x.crmId;

/** A scope's database retrieval; see the module comment. */
export class DatabaseRetrieval {
  /**
   * Holds one lookup's candidates while the engine decides (emptied after each); made anew
   * every {@link RENEW_AFTER} lookups, since it memoizes the phonetic code of every name it held.
   */
  private index: ContactIndex;
  private readonly makeIndex: () => ContactIndex;
  private lookups = 0;
  /** The model lookups score with (the context's trained one, or undefined: the engine's CRM model). */
  private model: MatchModel | undefined = undefined;
  private readonly counts = new LookupCounts();
  private readonly selector: CandidateSelector;
  readonly cache: KeyCache;
  /** Fingerprint of the normalizer (stored normalizations). */
  readonly fingerprint: number;
  /** Fingerprint of the filed keys: the normalizer and the blocking keys of the probes. */
  readonly keysFingerprint: number;

  constructor(
    private readonly scope: Scope,
    private readonly keys: MatchKeyStore,
    defaultCountry: string,
    options: RetrievalOptions = {},
  ) {
    const limits = {
      ...(options.maxBlockSize === undefined ? {} : { maxBlockSize: options.maxBlockSize }),
      ...(options.selectiveBlockSize === undefined ? {} : { selectiveBlockSize: options.selectiveBlockSize }),
      ...(options.maxCandidates === undefined ? {} : { maxCandidates: options.maxCandidates }),
    };
    this.makeIndex = () => newScopeIndex(defaultCountry, { ...limits, termCounts: this.counts, ...(this.model === undefined ? {} : { model: this.model }) });
    this.index = this.makeIndex();
    this.selector = new CandidateSelector(this.index.selectionLimits);
    this.cache = new KeyCache(options.cache);
    this.fingerprint = normalizerFingerprint(this.index);
    const probeKeys = FINGERPRINT_PROBES.map((p) => this.index.keyHashes(this.index.normalize(p)));
    this.keysFingerprint = fnv1a(JSON.stringify([this.fingerprint, probeKeys]));
  }

  /** Scores lookups with `model` from the next one on (a trained model stored or reset). */
  setModel(model: MatchModel): void {
    this.model = model;
    this.index.setModel(model);
  }

  /** Normalizes with the scope's normalizer. */
  normalize(input: ContactInput): NormalizedContact {
    return this.index.normalize(input);
  }

  /** What is filed for a person (StoredNormalization.keys). */
  keysOf(contact: NormalizedContact): PersonKeys {
    return {
      hashes: this.index.keyHashes(contact),
      first: contact.first === null ? null : compactName(contact.first),
      last: contact.last === null ? null : compactName(contact.last),
    };
  }

  /**
   * The engine's find over the scope's people in the database. `reader`: a unit's (reads in
   * its transaction, no cache), or null (the store's pool, hot keys from the cache).
   * `getPerson` reads a person whose stored normalization is missing or stale. `different`: the
   * scope's pairs decided different (a request matching both of one is not matched).
   */
  async find(
    q: NormalizedContact,
    options: { readonly strict: boolean; readonly id?: number; readonly explain?: Explain; readonly organization?: boolean },
    reader: MatchKeyReader | null,
    getPerson: (crmId: number) => Promise<PersonRecord | null>,
    different?: DifferentPairs,
  ): Promise<Retrieved> {
    const read = reader ?? this.keys;
    const cached = reader === null;
    const { maxBlockSize } = this.selector.limits;
    const hashes = this.index.keyHashes(q);
    const n = hashes.length;
    const counts = this.counts;
    const first = q.first === null ? null : compactName(q.first);
    const last = q.last === null ? null : compactName(q.last);

    // Entries of each key: from the cache, else from the database (with the name counts).
    const entries: (readonly KeyEntry[] | undefined)[] = hashes.map((h) => (cached ? this.cache.get(h) : undefined));
    const missing: number[] = [];
    for (let i = 0; i < n; i++) if (entries[i] === undefined) missing.push(i);
    const generation = this.cache.generation;
    const found = await read.lookupKeys(this.scope, { hashes: missing.map((i) => hashes[i] as number), perKey: maxBlockSize + 1, first, last });
    missing.forEach((i, k) => {
      const list = [...(found.entries[k] ?? [])].sort(byRecency);
      entries[i] = list;
      if (cached && list.length > this.selector.limits.selectiveBlockSize) this.cache.put(hashes[i] as number, list, generation);
    });

    // A key holding more than maxBlockSize is common: its exact size and most recent entries
    // are read only when the selection reaches it (no uncommon key found anyone).
    const common = (i: number): boolean => (entries[i] as readonly KeyEntry[]).length > maxBlockSize;
    const exact: number[] = hashes.map((_, i) => (entries[i] as readonly KeyEntry[]).length);
    const ordered: (readonly number[] | null)[] = hashes.map((_, i) => (common(i) ? null : (entries[i] as readonly KeyEntry[]).map((e) => e.crmId)));
    if (this.selector.readsCommonKey(n, common, (i) => ordered[i] as readonly number[])) {
      const commonKeys = hashes.map((_, i) => i).filter(common);
      const sizes = await read.countKeys(
        this.scope,
        commonKeys.map((i) => hashes[i] as number),
      );
      let least = -1;
      commonKeys.forEach((i, k) => {
        const size = sizes[k] as number;
        exact[i] = size;
        if (least === -1 || size < (exact[least] as number)) least = i;
      });
      if (least !== -1) ordered[least] = await read.readKey(this.scope, hashes[least] as number, maxBlockSize);
    }
    const postings: KeyPostings = {
      count: (i) => exact[i] as number,
      read: (i, limit, weight, tally) => {
        const list = ordered[i];
        if (list === null || list === undefined) throw new Error(`database retrieval read common key ${i} without its entries`);
        for (let k = 0; k < Math.min(limit, list.length); k++) tally(list[k] as number, weight);
      },
      idOf: (crmId) => crmId,
    };
    const chosen = this.selector.select(n, postings);

    // The chosen people, the one named by crmId, and everyone sharing an identifier.
    const ids = options.id === undefined ? chosen : [...chosen, options.id];
    const identifiers = q.identifiers.flatMap(splitIdentifierKey);
    const rows = await read.loadCandidates(this.scope, ids, identifiers, this.fingerprint);
    const loaded: [number, NormalizedContact][] = [];
    const organizations = new Set<number>();
    for (const row of rows) {
      let contact = row.json === null ? null : decodeNormalization(row.json);
      if (contact === null) {
        const p = await getPerson(row.crmId);
        if (p === null) continue;
        contact = this.index.normalize(engineInput(p));
      }
      loaded.push([row.crmId, contact]);
      if (row.organization) organizations.add(row.crmId);
    }

    // Synchronous from here: the engine decides over exactly these people.
    if (++this.lookups >= RENEW_AFTER) {
      this.lookups = 0;
      this.index = this.makeIndex();
    }
    try {
      for (const [crmId, contact] of loaded) this.index.upsertNormalized(crmId, contact);
      counts.total = found.total;
      counts.first = first;
      counts.last = last;
      counts.firstCount = found.firstCount;
      counts.lastCount = found.lastCount;
      const findOptions: { strict: boolean; candidates: readonly number[]; id?: number; explain?: boolean; organization?: boolean } = {
        strict: options.strict,
        candidates: chosen,
      };
      if (options.id !== undefined) findOptions.id = options.id;
      if (options.organization === true) findOptions.organization = true;
      if (options.explain === true) findOptions.explain = true;
      const decided = this.index.findNormalized(q, findOptions);
      const result = different === undefined ? decided : judgeDifferent(this.index, different, q, decided, findOptions);
      // Explained while the people are still in the lookup index.
      return { result: options.explain === 'possible' ? explainPossible(this.index, q, result, findOptions) : result, organizations };
    } finally {
      for (const [crmId] of loaded) this.index.remove(crmId);
    }
  }

  /** This process wrote a person: drops the cached keys it is or was filed under. */
  written(crmId: number, keys: PersonKeys): void {
    this.cache.drop(crmId, keys.hashes);
  }

  /** Other processes' changes (the catch-up): drops what they make stale in the cache. */
  changed(changes: readonly PersonChange[]): void {
    for (const c of changes) {
      const contact = c.json !== null && c.fingerprint === this.fingerprint ? decodeNormalization(c.json) : null;
      if (contact === null) this.cache.clear();
      else this.cache.drop(c.crmId, this.index.keyHashes(contact));
    }
  }

  /**
   * Makes sure the scope's keys are filed by this engine (one check); otherwise builds them
   * once, under the build lock across processes: the keys are cleared and every person filed
   * from its stored normalization (re-normalized and stored again when stale), `batchSize`
   * people per store call. A person written meanwhile keeps the keys its write filed.
   */
  async ensureKeys(store: Store, batchSize: number): Promise<void> {
    if ((await this.keys.keysFiledBy(this.scope)) === this.keysFingerprint) return;
    await this.keys.withBuildLock(this.scope, async () => {
      if ((await this.keys.keysFiledBy(this.scope)) === this.keysFingerprint) return;
      await this.keys.clearKeys(this.scope);
      let after = 0;
      for (;;) {
        const rows = await store.listNormalizations(this.scope, this.fingerprint, after, batchSize);
        const batch: { crmId: number; keys: PersonKeys }[] = [];
        for (const row of rows) {
          const contact = decodeNormalization(row.json) ?? (await this.renormalized(store, row.crmId));
          if (contact !== null) batch.push({ crmId: row.crmId, keys: this.keysOf(contact) });
          after = row.crmId;
        }
        await this.keys.fileMissing(this.scope, batch);
        if (rows.length < batchSize) break;
      }
      after = 0;
      for (;;) {
        const people = await store.listPeopleNotNormalizedBy(this.scope, this.fingerprint, after, batchSize);
        const fresh: { crmId: number; json: string }[] = [];
        const batch: { crmId: number; keys: PersonKeys }[] = [];
        for (const p of people) {
          const contact = this.index.normalize(engineInput(p));
          fresh.push({ crmId: p.crmId, json: encodeNormalization(contact) });
          batch.push({ crmId: p.crmId, keys: this.keysOf(contact) });
          after = p.crmId;
        }
        if (fresh.length > 0) await store.putNormalizations(this.scope, this.fingerprint, fresh);
        await this.keys.fileMissing(this.scope, batch);
        if (people.length < batchSize) break;
      }
      await this.keys.keysComplete(this.scope, this.keysFingerprint);
    });
  }

  private async renormalized(store: Store, crmId: number): Promise<NormalizedContact | null> {
    const p = await store.getPerson(this.scope, crmId);
    return p === null ? null : this.index.normalize(engineInput(p));
  }
}

/**
 * The (type, value) pairs an engine identifier key ("type:value", engine comparableIdentifier) can
 * stand for: the type has no known separator, so every split at a colon is asked for.
 */
function splitIdentifierKey(key: string): { type: string; value: string }[] {
  const out: { type: string; value: string }[] = [];
  for (let at = key.indexOf(':'); at !== -1; at = key.indexOf(':', at + 1)) out.push({ type: key.slice(0, at), value: key.slice(at + 1) });
  return out;
}

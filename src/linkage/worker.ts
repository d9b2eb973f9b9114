/**
 * A matching worker thread (started by worker-pool.ts). Each normalizes the batches it is
 * given. Worker 0, the builder, inserts every batch in id order (the others send it theirs);
 * when its index is complete it sends a copy of the index's state to the others
 * (ContactIndex.exportState), so the index is built once, not once per thread. A dedupe's
 * copy goes in two parts: the records as soon as they are inserted, from which worker 1
 * estimates the model while the builder files their keys (seconds at a million records),
 * then the keys. Then each worker answers its share of the queries.
 */
import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { IndexKeys, IndexState, NormalizedContact } from '../engine/index.js';
import type { FromWorker, PeerBatch, PeerMessage, ToWorker, WorkerSetup } from './messages.js';
import { packContacts, unpackContacts, type PackedContacts } from './contact-batch.js';
import { learnerOf } from './pool.js';
import { MatchShard, type QueryResult } from './shard.js';

if (isMainThread || parentPort === null) throw new Error('worker.ts runs as a worker thread');
const parent = parentPort;
const setup = workerData as WorkerSetup;
const shard = new MatchShard(setup.config);
/** Ports to the other workers, by worker number. */
const peers = new Map<number, MessagePort>();
const BUILDER = 0;
const builder = setup.worker === BUILDER;

/** A batch normalized here (the builder's own) or by another worker (packed). */
interface Normalized {
  readonly seq: number;
  readonly firstId: number;
  readonly contacts: NormalizedContact[] | PackedContacts;
}

/** Batches waiting for their turn to be inserted (ids must go in in order). */
const waiting = new Map<number, Normalized>();
let nextSeq = 0;
let totalBatches: number | null = null;
let completeSent = false;
/** Work that needs the whole index (queries), held until it is complete. */
const held: ToWorker[] = [];

function send(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  parent.postMessage(message, transfer);
}

function transferablesOf(r: QueryResult): ArrayBuffer[] {
  return [
    r.ids,
    r.matchFrom,
    r.matchTo,
    r.matchScore,
    r.possibleId,
    r.possibleScore,
    r.noteIds,
    r.noGate,
    r.lowIds,
    r.lowScores,
    r.candFrom,
    r.candTo,
    r.candScore,
  ].map((a) => a.buffer as ArrayBuffer);
}

/** The builder has inserted every batch; another worker has received the builder's index. */
let received = false;

function indexComplete(): boolean {
  return builder ? totalBatches !== null && nextSeq === totalBatches : received;
}

function insertReady(): void {
  const from = nextSeq;
  for (let b = waiting.get(nextSeq); b !== undefined; b = waiting.get(nextSeq)) {
    waiting.delete(nextSeq);
    shard.insert(b.firstId, Array.isArray(b.contacts) ? b.contacts : unpackContacts(b.contacts));
    nextSeq++;
  }
  if (nextSeq > from) send({ t: 'inserted', batches: nextSeq });
  if (indexComplete() && !completeSent) {
    if (peers.size > 0 && setup.config.mode === 'dedupe') {
      // In two parts: the records now, which the others load (and one estimates the model
      // from: learnerOf) while this thread files the keys; then the keys.
      const state = shard.index.exportRecords();
      for (const port of peers.values()) port.postMessage({ t: 'records', state } satisfies PeerMessage);
      shard.finishIndex();
      const keys = shard.index.exportKeys();
      for (const port of peers.values()) port.postMessage({ t: 'keys', keys } satisfies PeerMessage);
    } else {
      shard.finishIndex();
      if (peers.size > 0) {
        const state = shard.index.exportState();
        for (const port of peers.values()) port.postMessage({ t: 'state', state } satisfies PeerMessage);
      }
    }
    completed();
  }
}

function completed(): void {
  completeSent = true;
  send({ t: 'index-complete' });
  const work = held.splice(0);
  for (const m of work) handle(m);
}

function receiveState(state: IndexState): void {
  // The state is this thread's own copy (structured clone): the index takes it as it is.
  shard.index.importState(state, true);
  received = true;
  // A dedupe queries every record in the index's lookup order, which the builder's index is
  // in already: this finds it so (and the ids in it) while the builder estimates the model.
  if (setup.config.mode === 'dedupe') shard.prepareLookups();
  completed();
}

/**
 * A dedupe's records, before their keys: loaded, the model estimated from them by the
 * learner, and laid out for lookups as the builder's are (the same order from the same
 * records), which the keys' rows will refer to. The builder files the keys meanwhile.
 */
function receiveRecords(state: IndexState): void {
  shard.index.importState(state, true);
  const settings = setup.config.settings;
  if (setup.worker === learnerOf(setup.config, setup.workers) && settings.rules === 'learned' && settings.model === null) shard.estimateEarly();
  shard.prepareLookups();
}

/** The keys of the records received before: the index is complete. */
function receiveKeys(keys: IndexKeys): void {
  shard.index.importKeys(keys, true);
  received = true;
  completed();
}

function accept(batch: Normalized): void {
  waiting.set(batch.seq, batch);
  insertReady();
}

function handle(message: ToWorker): void {
  switch (message.t) {
    case 'index': {
      const unreadable = {};
      const contacts: NormalizedContact[] = shard.normalize(message.batch, 'index', unreadable);
      send({ t: 'indexed', seq: message.batch.seq, unreadable });
      const { seq, firstId } = message.batch;
      if (builder) accept({ seq, firstId, contacts });
      else {
        const packed = packContacts(contacts);
        peers
          .get(BUILDER)
          ?.postMessage({ t: 'batch', seq, firstId, contacts: packed } satisfies PeerBatch satisfies PeerMessage, [packed.lengths.buffer as ArrayBuffer]);
      }
      return;
    }
    case 'index-end':
      totalBatches = message.batches;
      if (builder) insertReady();
      return;
    case 'select': {
      if (!indexComplete()) {
        held.push(message);
        return;
      }
      const selection = shard.selectIndexed(message.seq, message.from, message.count);
      const s = selection;
      send(
        { t: 'selected', selection },
        [s.ids, s.noGate, s.offsets, s.candidates].map((a) => a.buffer as ArrayBuffer),
      );
      return;
    }
    case 'pairs': {
      if (!indexComplete()) {
        held.push(message);
        return;
      }
      const result = shard.scorePairs(message.work);
      const r = result;
      send(
        { t: 'scored', result },
        [
          r.matchFrom,
          r.matchTo,
          r.matchScore,
          r.possibleFrom,
          r.possibleTo,
          r.possibleScore,
          r.candFrom,
          r.candTo,
          r.candScore,
          r.nearFrom,
          r.nearTo,
          r.nearScore,
        ].map((a) => a.buffer as ArrayBuffer),
      );
      return;
    }
    case 'low': {
      if (!indexComplete()) {
        held.push(message);
        return;
      }
      const scores = shard.lowScores(message.rows);
      send({ t: 'low', id: message.id, scores }, [scores.buffer as ArrayBuffer]);
      return;
    }
    case 'query': {
      if (!indexComplete()) {
        held.push(message);
        return;
      }
      const unreadable = {};
      const contacts = shard.normalizeQuery(message.batch, unreadable);
      const result = shard.queryRows(message.batch.seq, message.batch.firstId, contacts, setup.config.keepQueries);
      send({ t: 'result', result, unreadable }, transferablesOf(result));
      return;
    }
    case 'explain':
      send({ t: 'explained', id: message.id, outcomes: shard.explain(message.pairs) });
      return;
    case 'train':
      shard.train(message.batch);
      send({ t: 'trained' });
      return;
    case 'learn':
      if (!indexComplete()) {
        held.push(message);
        return;
      }
      send({ t: 'learned', learned: shard.learn() });
      return;
    case 'model':
      if (!indexComplete()) {
        held.push(message);
        return;
      }
      shard.setModel(message.model);
      send({ t: 'model-set' });
      return;
    case 'signatures':
      send({ t: 'signatures', id: message.id, signatures: shard.signatures(message.rows) });
      return;
  }
}

function guarded(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    send({ t: 'error', message: err instanceof Error ? err.message : String(err) });
  }
}

parent.on('message', (message: ToWorker | { t: 'ports'; ports: MessagePort[]; workers: number[] }) => {
  if (message.t === 'ports') {
    message.ports.forEach((port, i) => {
      peers.set(message.workers[i] as number, port);
      port.on('message', (m: PeerMessage) =>
        guarded(() => {
          if (m.t === 'batch') accept(m);
          else if (m.t === 'records') receiveRecords(m.state);
          else if (m.t === 'keys') receiveKeys(m.keys);
          else receiveState(m.state);
        }),
      );
    });
    return;
  }
  guarded(() => handle(message));
});

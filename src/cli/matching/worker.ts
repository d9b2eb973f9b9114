/**
 * A matching worker thread (started by worker-pool.ts): holds a full index, normalizes the
 * batches it is given and shares them with its peers, inserts every batch in id order, and
 * answers its share of the queries.
 */
import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { NormalizedContact } from '../../engine/index.js';
import type { FromWorker, PeerBatch, ToWorker, WorkerSetup } from './messages.js';
import { MatchShard, type QueryResult } from './shard.js';

if (isMainThread || parentPort === null) throw new Error('worker.ts runs as a worker thread');
const parent = parentPort;
const setup = workerData as WorkerSetup;
const shard = new MatchShard(setup.config);
const peers: MessagePort[] = [];

/** Batches waiting for their turn to be inserted (ids must go in in order). */
const waiting = new Map<number, PeerBatch>();
let nextSeq = 0;
let insertedRows = 0;
let totalBatches: number | null = null;
let completeSent = false;
/** Work that needs the whole index (queries), held until it is complete. */
const held: ToWorker[] = [];

function send(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  parent.postMessage(message, transfer);
}

function transferablesOf(r: QueryResult): ArrayBuffer[] {
  return [r.matchFrom, r.matchTo, r.matchScore, r.possibleId, r.possibleScore, r.noGate, r.lowIds, r.lowScores].map((a) => a.buffer as ArrayBuffer);
}

function indexComplete(): boolean {
  return totalBatches !== null && nextSeq === totalBatches;
}

function insertReady(): void {
  for (let b = waiting.get(nextSeq); b !== undefined; b = waiting.get(nextSeq)) {
    waiting.delete(nextSeq);
    shard.insert(b.firstId, b.contacts);
    insertedRows = b.firstId + b.contacts.length;
    nextSeq++;
  }
  if (indexComplete() && !completeSent) {
    completeSent = true;
    send({ t: 'index-complete' });
    const work = held.splice(0);
    for (const m of work) handle(m);
  }
}

function accept(batch: PeerBatch): void {
  waiting.set(batch.seq, batch);
  insertReady();
}

function handle(message: ToWorker): void {
  switch (message.t) {
    case 'index': {
      const unreadable = {};
      const contacts: NormalizedContact[] = shard.normalize(message.batch, 'index', unreadable);
      const peerBatch: PeerBatch = { seq: message.batch.seq, firstId: message.batch.firstId, contacts };
      for (const port of peers) port.postMessage(peerBatch);
      send({ t: 'indexed', seq: message.batch.seq, unreadable });
      accept(peerBatch);
      return;
    }
    case 'index-end':
      totalBatches = message.batches;
      insertReady();
      return;
    case 'dedupe': {
      if (!indexComplete()) {
        held.push(message);
        return;
      }
      const step = message.queryBatchRows;
      let j = 0;
      for (let first = 0; first < insertedRows; first += step, j++) {
        if (j % setup.workers !== setup.worker) continue;
        const result = shard.queryIndexed(j, first, Math.min(step, insertedRows - first));
        send({ t: 'result', result, unreadable: null }, transferablesOf(result));
      }
      send({ t: 'dedupe-done' });
      return;
    }
    case 'query': {
      if (!indexComplete()) {
        held.push(message);
        return;
      }
      const unreadable = {};
      const contacts = shard.normalize(message.batch, 'query', unreadable);
      const result = shard.queryRows(message.batch.seq, message.batch.firstId, contacts, setup.config.keepQueries);
      send({ t: 'result', result, unreadable }, transferablesOf(result));
      return;
    }
    case 'explain':
      send({ t: 'explained', id: message.id, outcomes: shard.explain(message.pairs) });
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

parent.on('message', (message: ToWorker | { t: 'ports'; ports: MessagePort[] }) => {
  if (message.t === 'ports') {
    for (const port of message.ports) {
      peers.push(port);
      port.on('message', (batch: PeerBatch) => guarded(() => accept(batch)));
    }
    return;
  }
  guarded(() => handle(message));
});

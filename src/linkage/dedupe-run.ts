/**
 * Deduplication of one file, in phases: read and index every row (on every thread), choose
 * each row's candidates and score each pair of rows once (pair-plan.ts), cluster the Matched
 * pairs; then, for the output, read the file a second time and write each row with its
 * cluster and best match.
 */
import { LinkageInputError } from './errors.js';
import type { FieldOutcome } from '../engine/index.js';
import type { CsvLayout } from '../files/csv-reader.js';
import { openCsvRowTexts, type CsvRowTexts, type CsvTextBatch } from '../files/csv-row-text.js';
import { CsvWriter, formatCsvCell, type TextSink } from '../files/csv-writer.js';
import type { ProgressSink } from './progress.js';
import { DedupeResults } from './clusters.js';
import { conflictKindsOf, signatureMap } from './conflicts.js';
import type { Learned } from './learn.js';
import { idOf, openInput, readInput, type OpenedInput, type ReadInput } from './input.js';
import { threadsFor, type RunOptions } from './options.js';
import { LocalPool, type MatchPool, type PoolConfig } from './pool.js';
import { PairPlan } from './pair-plan.js';
import { possibleNote, type PairRequest, type UnreadableValues } from './shard.js';
import { thresholdsOf } from './settings.js';
import { WorkerPool } from './worker-pool.js';

/** Rows per batch read from the file (and sent to a thread). */
export const READ_BATCH_ROWS = 2048;
/** Rows per query batch (unit of progress and of work sharing between threads). */
export const QUERY_BATCH_ROWS = 1024;
/** For the report: about this many rows without a candidate are scored to show low scores. */
export const LOW_SCORE_SAMPLE = 20_000;

/** A matched file, its pool still open for explanations. */
export interface DedupeRun {
  readonly input: OpenedInput;
  readonly read: ReadInput;
  readonly results: DedupeResults;
  readonly pool: MatchPool;
  readonly unreadable: UnreadableValues;
  readonly threads: number;
  /** Milliseconds per phase. */
  readonly timings: { read: number; learn: number; match: number; cluster: number };
  /** CPU milliseconds per phase, of every thread of the process. */
  readonly cpu: { read: number; learn: number; match: number; cluster: number };
  readonly lowSampleEvery: number;
  /** The learned model and how it was obtained (learned rules), else null. */
  readonly learned: Learned | null;
  /** The match threshold, bits (what a Possible row's note compares its score with). */
  readonly match: number;
  /** The output's row texts, read again while the workers finished the index (options.readAhead), else null. */
  readonly ahead: Promise<RowTextsAhead> | null;
}

/** The file's rows read again for the output ({@link readAhead}), or why they could not be. */
type RowTextsAhead = { readonly batches: CompactBatch[] } | { readonly openError: unknown } | { readonly error: unknown };

/**
 * A batch's row texts as one string and where each ends: the rows are held from the end of
 * reading to the write, through the match phase, and a million strings (slices of the decoded
 * chunks) would be a million objects for the main thread's garbage collector to mark.
 */
interface CompactBatch {
  readonly text: string;
  readonly ends: Uint32Array;
}

function compact(batch: CsvTextBatch): CompactBatch {
  const ends = new Uint32Array(batch.texts.length);
  let at = 0;
  for (let i = 0; i < batch.texts.length; i++) ends[i] = at += (batch.texts[i] as string).length;
  return { text: batch.texts.join(''), ends };
}

/** A compact batch's rows again (their cells are not kept: a caller that needs them reads the file again). */
function expand(batch: CompactBatch): CsvTextBatch {
  const texts: string[] = [];
  let at = 0;
  for (const end of batch.ends) {
    texts.push(batch.text.slice(at, end));
    at = end;
  }
  return {
    texts,
    cells: () => {
      throw new Error('expand: cells not kept');
    },
  };
}

/**
 * Largest file whose rows are read ahead ({@link readAhead}): its text is held until the write
 * (up to about twice its size in memory), so a larger file is read again at the write instead,
 * as before, and its memory stays the index's.
 */
export const READ_AHEAD_MAX_BYTES = 512 * 1024 * 1024;

/**
 * Reads the file again for the output in the background: the main thread is idle while the
 * workers finish the index and estimate (one of the two cores too, at 1,000,000 rows), and the
 * output's reading and formatting of the rows' cells (csv-row-text.ts) is then done before the
 * write. Holds every row's text until the write (at 1,000,000 rows of the bench file about
 * 0.1-0.2 GB).
 */
function readAhead(layout: CsvLayout): Promise<RowTextsAhead> {
  return openCsvRowTexts(layout, READ_BATCH_ROWS).then(
    async (texts): Promise<RowTextsAhead> => {
      const batches: CompactBatch[] = [];
      try {
        for await (const batch of texts.batches()) batches.push(compact(batch));
        return { batches };
      } catch (error) {
        return { error };
      } finally {
        await texts.close();
      }
    },
    (openError: unknown) => ({ openError }),
  );
}

/** Creates the pool for a configuration: in-process for one thread, workers otherwise. */
export function createPool(threads: number, config: PoolConfig): MatchPool {
  return threads <= 1 ? new LocalPool(config) : new WorkerPool(threads, config);
}

/** Reads, indexes, queries and clusters a file. The caller closes `run.pool`. */
export async function matchDedupe(
  path: string,
  common: RunOptions,
  progress: ProgressSink,
  options: { keepEdges: boolean; sampleLowScores: boolean; collectCandidates?: boolean; readAhead?: boolean },
): Promise<DedupeRun> {
  const input = await openInput(path, {
    delimiter: common.delimiter,
    encoding: common.encoding,
    overrides: common.overrides,
    idColumn: common.idColumn,
    batchRows: READ_BATCH_ROWS,
    identifiers: common.identifiers,
    attributes: common.attributes,
    readDateOrder: common.settings.dateOrder === null,
  });
  const threads = threadsFor(common.threads, input.layout.size);
  // Sample about LOW_SCORE_SAMPLE rows, estimating the row count from the file size.
  const estimatedRows = Math.max(1, Math.round(input.layout.size / 80));
  const lowSampleEvery = options.sampleLowScores ? Math.max(1, Math.round(estimatedRows / LOW_SCORE_SAMPLE)) : 0;
  const config: PoolConfig = {
    mode: 'dedupe',
    settings: common.settings,
    indexPlan: input.plan,
    queryPlan: input.plan,
    lowSampleEvery,
    queryBatchRows: QUERY_BATCH_ROWS,
    keepQueries: false,
    collectCandidates: options.collectCandidates === true,
  };
  const pool = createPool(threads, config);
  const cpuMs = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  try {
    const t0 = performance.now();
    const c0 = cpuMs();
    const read = await readInput(input, (batch) => pool.index(batch), progress, 'reading');
    const ahead = options.readAhead === true && input.layout.size <= READ_AHEAD_MAX_BYTES ? readAhead(input.layout) : null;
    progress.start('indexing', null);
    const unreadable = await pool.finishIndex();
    progress.finish();
    const t1 = performance.now();
    const c1 = cpuMs();
    let tLearned = t1;
    let cLearned = c1;
    // Choosing candidates needs no model: it starts while the model is learned (on another
    // thread than the builder's, whose index is complete first: pool.ts learnerOf), and the
    // estimate's phase ends when the model is set.
    let learnt = common.settings.rules !== 'learned';
    let selected = 0;
    let learning: Promise<Learned> | null = null;
    if (common.settings.rules === 'learned') {
      progress.start(common.settings.model === null ? 'estimating the model' : 'estimating the prior', null);
      learning = pool.learn().then((l) => {
        learnt = true;
        tLearned = performance.now();
        cLearned = cpuMs();
        progress.finish();
        progress.start('choosing candidates', read.rows);
        progress.update(selected);
        return l;
      });
    } else progress.start('choosing candidates', read.rows);
    const results = new DedupeResults(read.rows, options.keepEdges);
    // Two passes, each pair scored once (pair-plan.ts): every record's candidates, then the pairs.
    const plan = new PairPlan(read.rows);
    const selecting = pool.selectIndexed(read.rows, (selection) => {
      plan.add(selection);
      results.addSelection(selection);
      selected += selection.ids.length;
      if (learnt) progress.update(selected);
    });
    // Awaited together: a failure of either rejects at once (the pool fails every waiter).
    const [learned] = await Promise.all([learning, selecting]);
    progress.finish();
    plan.build();
    progress.start('matching', read.rows);
    await pool.scorePairs(
      (function* () {
        for (const s of plan.batches()) yield plan.work(s.seq, s.ids);
      })(),
      (result) => {
        results.addPairs(result);
        progress.update(results.answered);
      },
    );
    progress.finish();
    const lowRows = results.lowScoreRows(lowSampleEvery);
    if (lowRows.length > 0) for (const score of await pool.lowScores(lowRows)) if (!Number.isNaN(score)) results.lowScores.push(score);
    const t2 = performance.now();
    const c2 = cpuMs();
    progress.start('clustering', null);
    results.cluster(
      common.settings.rules === 'learned' ? signatureMap(await pool.signatures(results.matchedRows())) : null,
      conflictKindsOf(learned?.model ?? null),
      (x, y) => plan.compared(x, y),
    );
    progress.finish();
    const t3 = performance.now();
    const c3 = cpuMs();
    return {
      input,
      read,
      results,
      pool,
      unreadable,
      threads,
      lowSampleEvery,
      learned,
      match: learned?.model.thresholds?.match ?? thresholdsOf(common.settings).match,
      ahead,
      timings: { read: t1 - t0, learn: tLearned - t1, match: t2 - tLearned, cluster: t3 - t2 },
      cpu: { read: c1 - c0, learn: cLearned - c1, match: c2 - cLearned, cluster: c3 - c2 },
    };
  } catch (err) {
    progress.finish();
    await pool.close();
    throw err;
  }
}

/** Explains pairs in chunks, with progress. */
export async function explainPairs(pool: MatchPool, pairs: readonly PairRequest[], progress: ProgressSink): Promise<FieldOutcome[][]> {
  const out: FieldOutcome[][] = [];
  const chunk = 4096;
  progress.start('explaining', pairs.length, 'pairs');
  for (let i = 0; i < pairs.length; i += chunk) {
    out.push(...(await pool.explain(pairs.slice(i, i + chunk))));
    progress.update(out.length);
  }
  progress.finish();
  return out;
}

/** Names of the columns dedupe adds (first, so that ragged rows keep them aligned). */
export const DEDUPE_COLUMNS = ['cluster_id', 'cluster_size', 'match_decision', 'match_score', 'matched_id', 'match_note'] as const;
/** `match_note` of an Unmatchable row (a Possible row's says why it is not Matched: shard.ts possibleNote). */
export const UNMATCHABLE_NOTE = 'supplies none of the minimum combinations: not matched on its own';
/** The column `--explain` adds. */
export const EXPLAIN_COLUMN = 'match_explanation';

/** The added columns' names: prefixed with "matchbook_" when the file already has one of them. */
export function addedColumns(header: readonly string[], explain: boolean): string[] {
  const names: string[] = [...DEDUPE_COLUMNS, ...(explain ? [EXPLAIN_COLUMN] : [])];
  const taken = new Set(header.map((h) => h.toLowerCase()));
  return names.some((n) => taken.has(n)) ? names.map((n) => `matchbook_${n}`) : names;
}

/** Formats a score for output: two decimals. */
export function formatScore(score: number): string {
  return score.toFixed(2);
}

/**
 * Writes every row of the input with its cluster and match columns first, then its own
 * cells as read (ragged rows keep their cells). `capture` receives the cells of the rows it
 * asks for (for the report). Returns the number of data rows written.
 */
export async function writeDedupe(
  run: DedupeRun,
  sink: TextSink,
  explanations: ReadonlyMap<number, string> | null,
  progress: ProgressSink,
  capture: { rows: ReadonlySet<number>; cells: Map<number, string[]> } | null,
): Promise<number> {
  const { input, read, results } = run;
  const layout = input.layout;
  const delimiter = layout.delimiter;
  // The rows' own cells come as output text (csv-row-text.ts: most lines as they are in the file),
  // read while the workers finished the index (readAhead), else now.
  const cannotRead = (err: unknown): LinkageInputError =>
    new LinkageInputError(`${layout.path}: cannot read it again to write the output (${err instanceof Error ? err.message : String(err)})`);
  let texts: CsvRowTexts | null = null;
  let batches: Iterable<CsvTextBatch> | AsyncIterable<CsvTextBatch>;
  // The report wants some rows' cells, which the rows read ahead do not keep.
  const ahead = run.ahead === null || capture !== null ? null : await run.ahead;
  if (ahead === null) {
    texts = await openCsvRowTexts(layout, READ_BATCH_ROWS).catch((err: unknown) => {
      throw cannotRead(err);
    });
    batches = texts.batches();
  } else if ('batches' in ahead) {
    const kept = ahead.batches;
    batches = (function* () {
      for (const batch of kept) yield expand(batch);
    })();
  } else if ('openError' in ahead) throw cannotRead(ahead.openError);
  else throw ahead.error;
  const writer = new CsvWriter(sink, delimiter);
  const added = addedColumns(layout.header, explanations !== null);
  const digitsPlain = !/\d/.test(delimiter);
  const numText = (n: number): string => (digitsPlain ? String(n) : formatCsvCell(String(n), delimiter));
  const ids = read.ids;
  const idText = (r: number): string => (ids === null ? numText(r + 1) : formatCsvCell(idOf(ids, r), delimiter));
  const decisions = new Map<string, string>();
  const decisionText = (d: string): string => {
    let text = decisions.get(d);
    if (text === undefined) decisions.set(d, (text = formatCsvCell(d, delimiter)));
    return text;
  };
  let row = 0;
  progress.start('writing', read.rows);
  try {
    await writer.writeRow([...added, ...layout.header]);
    for await (const batch of batches) {
      const n = batch.texts.length;
      for (let i = 0; i < n; i++) {
        if (row >= read.rows) throw new LinkageInputError(`${layout.path}: the file changed while it was being matched (more rows on the second read)`);
        const decision = results.decision(row);
        let other = -1;
        let score: number | null = null;
        let note = '';
        if (decision === 'Matched') {
          other = results.partner[row] as number;
          score = results.partnerScore[row] as number;
        } else if (decision === 'Possible') {
          other = results.possible[row] as number;
          score = results.possibleScore[row] as number;
          note = possibleNote(score, run.match, results.shortfalls.get(row), results.possibleWhy.get(row));
        } else if (decision === 'Unmatchable') note = UNMATCHABLE_NOTE;
        // The added cells formatted as formatCsvRow formats them; a number's digits need nothing
        // unless the delimiter is a digit.
        let line = `${idText(results.root(row))}${delimiter}${numText(results.clusterSize(row))}${delimiter}${decisionText(decision)}${delimiter}`;
        line += `${score === null ? '' : formatCsvCell(formatScore(score), delimiter)}${delimiter}${other === -1 ? '' : idText(other)}${delimiter}`;
        line += formatCsvCell(note, delimiter);
        if (explanations !== null) line += `${delimiter}${formatCsvCell(explanations.get(row) ?? '', delimiter)}`;
        if (capture?.rows.has(row)) capture.cells.set(row, batch.cells(i));
        if (writer.addLine(`${line}${delimiter}${batch.texts[i] as string}`)) await writer.flush();
        row++;
      }
      progress.update(row);
    }
    if (row !== read.rows)
      throw new LinkageInputError(`${layout.path}: the file changed while it was being matched (${row} rows on the second read, ${read.rows} on the first)`);
    await writer.flush();
  } finally {
    progress.finish();
    await texts?.close();
  }
  return row;
}

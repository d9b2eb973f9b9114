/**
 * The summary a matching command prints on stderr: what was read and how, what was matched,
 * what was skipped or could not be read and why, and how long it took. Plain text, one
 * item per line; also the source of the report's "input" section.
 */
import { ISSUE_EXAMPLES, type CsvIssues, type CsvLayout, type IssueCount, describePlan, type HeaderPlan } from '../../files/index.js';
import { formatCount } from '../progress.js';
import { probabilityOfBits } from '../../engine/index.js';
import { type Learned, type UnreadableValues } from '../../linkage/index.js';

const DELIMITER_NAMES: Readonly<Record<string, string>> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'pipe', ' ': 'space' };

const ENCODING_NAMES: Readonly<Record<string, string>> = { utf8: 'UTF-8', latin1: 'Latin-1', utf16le: 'UTF-16LE', utf16be: 'UTF-16BE' };

function lines(issue: IssueCount): string {
  const more = issue.count > issue.lines.length ? ', ...' : '';
  return issue.lines.length === 0 ? '' : ` (line${issue.lines.length > 1 ? 's' : ''} ${issue.lines.join(', ')}${more})`;
}

/** How a file was read: encoding, delimiter, columns used and left out, mapping notes. */
export function describeInput(label: string, path: string, layout: CsvLayout, plan: HeaderPlan, rows: number): string[] {
  const { mapped, ignored } = describePlan(plan);
  const out = [
    `${label}: ${path}: ${formatCount(rows)} ${plural(rows, 'row')}; ${ENCODING_NAMES[layout.encoding] ?? layout.encoding} (${layout.encodingReason}), ${DELIMITER_NAMES[layout.delimiter] ?? JSON.stringify(layout.delimiter)}-delimited${layout.sepLine ? ' (its first line "sep=" is not the header)' : ''}`,
    `  columns: ${mapped.join(', ')}`,
  ];
  if (ignored.length > 0) out.push(`  not used: ${ignored.join(', ')}`);
  if (plan.idColumn === null) out.push('  ids: row numbers (1 = first data row; --id COLUMN to use a column)');
  for (const note of plan.notes) out.push(`  note: ${note}`);
  return out;
}

/** Irregular rows met while reading; empty when none. */
export function describeIssues(issues: CsvIssues): string[] {
  const out: string[] = [];
  const n = (issue: IssueCount, word: string): string => `${formatCount(issue.count)} ${plural(issue.count, word)}`;
  if (issues.preamble.count > 0)
    out.push(`  ${n(issues.preamble, 'line')} of notes before the header skipped${lines(issues.preamble)}; the header is the first row of several columns`);
  if (issues.blankLines.count > 0) out.push(`  ${n(issues.blankLines, 'blank line')} ignored${lines(issues.blankLines)}`);
  if (issues.shortRows.count > 0)
    out.push(`  ${n(issues.shortRows, 'row')} with fewer fields than the header: missing fields read as empty${lines(issues.shortRows)}`);
  if (issues.longRows.count > 0)
    out.push(`  ${n(issues.longRows, 'row')} with more fields than the header: extra fields kept in the output, not matched on${lines(issues.longRows)}`);
  if (issues.badQuotes.count > 0) out.push(`  ${n(issues.badQuotes, 'row')} with a malformed quoted field, read as best possible${lines(issues.badQuotes)}`);
  if (issues.swallowedLines.count > 0) {
    const starts = issues.swallowedLines.lines;
    const more = starts.length >= ISSUE_EXAMPLES ? ', ...' : '';
    out.push(
      `  ${n(issues.swallowedLines, 'line')} read into those malformed quoted fields instead of as rows of their own (in the rows starting on line${starts.length > 1 ? 's' : ''} ${starts.join(', ')}${more})`,
    );
  }
  if (issues.badBytes.count > 0) {
    out.push(
      `  ${n(issues.badBytes, 'row')} with bytes that are not valid in the file's encoding (replaced by U+FFFD; try --encoding latin1)${lines(issues.badBytes)}`,
    );
  }
  return out;
}

const VALUE_NAMES: Readonly<Record<string, string>> = {
  dateOfBirth: 'dates of birth that are not dates',
  email: 'email cells with no valid address',
  phone: 'phone cells with no valid number',
  name: 'names that name no one (no letters or digits, or a placeholder such as "Unknown" or "Jane Doe")',
};

const SINGULAR_VALUE_NAMES: Readonly<Record<string, string>> = {
  dateOfBirth: 'date of birth that is not a date',
  email: 'email cell with no valid address',
  phone: 'phone cell with no valid number',
  name: 'name that names no one (no letters or digits, or a placeholder such as "Unknown" or "Jane Doe")',
};

/** Values supplied but unreadable (left out of matching); empty when none. */
export function describeUnreadable(unreadable: UnreadableValues): string[] {
  const out: string[] = [];
  for (const [kind, entry] of Object.entries(unreadable)) {
    if (entry.count === 0) continue;
    const examples = entry.examples.map((e) => `line ${e.line}: ${JSON.stringify(e.value)}`).join(', ');
    out.push(
      `  ${formatCount(entry.count)} ${entry.count === 1 ? (SINGULAR_VALUE_NAMES[kind] ?? kind) : (VALUE_NAMES[kind] ?? kind)}, not used for matching (${examples}${entry.count > entry.examples.length ? ', ...' : ''})`,
    );
  }
  return out;
}

/** "1 row", "2 rows". */
export function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}

/** "12.3 s". */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * "cpu 12.3 s, peak memory 1.2 GB": CPU of every thread of the process since `since`
 * (process.cpuUsage() taken at the start), and the process's peak RSS.
 */
export function describeResources(since: NodeJS.CpuUsage): string {
  const cpu = process.cpuUsage(since);
  const peakKb = process.resourceUsage().maxRSS;
  const mb = peakKb / 1024;
  const mem = mb >= 1024 ? `${(mb / 1024).toFixed(2)} GB` : `${Math.round(mb)} MB`;
  return `cpu ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, peak memory ${mem}`;
}

/** How an estimated prior was reached: the candidates' scores, blocking's estimated recall, the training sessions' prior. */
function priorHow(learned: Learned): string {
  const parts = [`estimated from ${formatCount(learned.scoredPairs)} candidate pairs`];
  if (learned.blockingRecall !== null && learned.blockingRecall < 0.995)
    parts.push(`blocking finds an estimated ${(learned.blockingRecall * 100).toFixed(0)}% of matches`);
  const session = learned.sessionPrior;
  if (session !== null && learned.model.prior !== undefined && session > learned.model.prior)
    parts.push(`met halfway with the training sessions' 1 in ${formatCount(1 / session)}`);
  return parts.join('; ');
}

/**
 * How the learned model was obtained, for the summary: where m and u came from, the prior,
 * the match threshold as a probability, and what estimation noticed.
 */
export function describeModel(learned: Learned | null): string[] {
  if (learned === null) return [];
  const m = learned.model;
  const out: string[] = [];
  const e = learned.estimation;
  const thresholds = m.thresholds;
  const threshold =
    thresholds === undefined
      ? ''
      : `; match at posterior >= ${probabilityOfBits(thresholds.match).toPrecision(2)} (${thresholds.match.toFixed(2)} bits), review >= ${probabilityOfBits(thresholds.possible).toPrecision(2)}`;
  const prior =
    m.prior === undefined
      ? 'no prior'
      : `prior 1 in ${formatCount(1 / m.prior)} pairs (${learned.priorSource === 'duplicate rate' ? 'from --duplicate-rate' : priorHow(learned)})`;
  if (e === null) out.push(`  model: --model (m and u as given); ${prior}${threshold}`);
  else {
    const used = e.sessions.filter((x) => x.discarded === null).map((x) => `${x.rule} (${formatCount(x.pairs)} pairs)`);
    out.push(
      `  model: estimated from the file: u from ${formatCount(e.uPairs)} random pairs and value frequencies; m by EM on pairs agreeing on ${used.length > 0 ? used.join(', ') : 'nothing (every session was discarded; shipped priors)'}; ${prior}${threshold}`,
    );
    const bySource = new Map<string, string[]>();
    for (const [field, source] of Object.entries(e.sources)) bySource.set(source, [...(bySource.get(source) ?? []), field]);
    out.push(`  comparisons: ${[...bySource.entries()].map(([source, fields]) => `${source}: ${fields.join(', ')}`).join('; ')}`);
    for (const note of e.notes) out.push(`  note: ${note}`);
  }
  return out;
}

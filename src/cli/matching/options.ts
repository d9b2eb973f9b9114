/**
 * Command-line options shared by `dedupe`, `link` and `eval`, declared once and parsed
 * into typed values with one-line errors.
 */
import { readFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { parseModel, type MatchModel } from '../../engine/index.js';
import { parseMapOption, type ColumnOverride, ENCODING_CHOICES, parseDelimiter, parseEncodingChoice } from '../../files/index.js';
import { autoProgressMode, type ProgressMode } from '../progress.js';
import { GATE_PRESETS, LinkageInputError, parseSettings, RULES, type RawMatchOptions, type RunOptions } from '../../linkage/index.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** Options as commander hands them over. */
export interface RawCommonOptions extends RawMatchOptions {
  readonly map?: string[];
  readonly id?: string;
  readonly delimiter?: string;
  readonly encoding?: string;
  readonly threads?: string;
  readonly progress?: string;
  readonly quiet?: boolean;
  readonly model?: string;
  readonly identifier?: string[];
  readonly attribute?: string[];
}

/** Adds the matching and file options to a command. */
export function addMatchingOptions(command: Command, { id = true }: { id?: boolean } = {}): Command {
  command
    .addOption(
      new Option(
        '--rules <rules>',
        "learned: a model estimated from the file (EM), the default; crm: the API's rules (the contract's minimum combinations; a clearly different first name, surname or date of birth rules a match out); linkage: pure Fellegi-Sunter with shipped weights",
      )
        .choices(RULES)
        .default('learned'),
    )
    .addOption(new Option('--gates <set>', 'ready-made minimum combinations (auto: from the rules and the columns)').choices(GATE_PRESETS))
    .option('--gate <FIELD+FIELD...>', 'a minimum combination, e.g. firstName+lastName+zip5+city (repeatable; replaces the others)', collect)
    .option('--model <file.json>', "use this model (from --save-model) instead of estimating one; the prior is still the file's")
    .option('--match-probability <p>', 'learned rules: posterior probability at which a pair matches (default 0.5)')
    .option('--duplicate-rate <share>', 'learned rules: expected share of rows that duplicate another (sets the prior instead of estimating it)')
    .option('--threshold <bits>', "match threshold in bits of total match weight (default: the rules')")
    .option('--possible <bits>', 'lower bound of the review band ("possible" matches) in bits')
    .option('--strict', 'Disable Partial Matching: only exact or equivalent values count as agreement')
    .option('--country <CC>', 'default country of phones and postal codes, and of the date order (ISO alpha-2)', 'US')
    .option('--date-format <order>', "day/month order of ambiguous dates: mdy, dmy, ymd or a pattern such as DD/MM/YYYY (default: the country's)")
    .option('--area-code <digits>', 'complete seven-digit local phone numbers with this area code (default: compare them as partial numbers)')
    .option('--seed <n>', "seed of the estimation's sampling (default 42)")
    .option('--map <HEADER=field>', 'read column HEADER as field (repeatable; field "ignore" leaves it out)', collect)
    .option('--identifier <TYPE=COLUMN>', 'compare COLUMN as an identifier of TYPE (ssn, passport...; repeatable; columns so named are found alone)', collect)
    .option('--attribute <COLUMN>', 'compare COLUMN as a free-text attribute (repeatable; occupation, birth place... are found alone)', collect)
    .option('--delimiter <char>', 'field delimiter (default: detected; "tab" for tabs)')
    .option('--encoding <name>', 'input encoding: auto (detect), utf8, latin1 (Windows-1252), utf16le, utf16be', 'auto')
    .option('--threads <n>', 'matching threads (default: up to 2 for large files)')
    .addOption(
      new Option('--progress <mode>', 'progress on stderr: a bar on a terminal, plain lines otherwise')
        .choices(['auto', 'tty', 'plain', 'none'])
        .default('auto'),
    )
    .option('-q, --quiet', 'no progress and no summary (errors only)');
  if (id) command.option('--id <column>', "column holding each row's id (default: row numbers)");
  return command;
}

/** Parsed common options: a linkage run's options, and how to show progress. */
export interface CommonOptions extends RunOptions {
  readonly progress: ProgressMode;
  readonly quiet: boolean;
}

/** Parses the common options; throws LinkageInputError with a one-line message. */
export function parseCommonOptions(raw: RawCommonOptions, stderrIsTTY: boolean | undefined): CommonOptions {
  const settings = parseSettings(raw, raw.model === undefined ? null : readModel(raw.model));
  if ('error' in settings) throw new LinkageInputError(settings.error);
  const identifiers = (raw.identifier ?? []).map((text) => {
    const at = text.indexOf('=');
    if (at <= 0 || at === text.length - 1) throw new LinkageInputError(`--identifier "${text}": expected TYPE=COLUMN, e.g. --identifier ssn=SocialSecurityNo`);
    return { type: text.slice(0, at).trim(), header: text.slice(at + 1).trim() };
  });
  const overrides: ColumnOverride[] = [];
  for (const text of raw.map ?? []) {
    const o = parseMapOption(text);
    if ('error' in o) throw new LinkageInputError(o.error);
    overrides.push(o);
  }
  let delimiter: string | undefined;
  if (raw.delimiter !== undefined) {
    const d = parseDelimiter(raw.delimiter);
    if (d === null) throw new LinkageInputError(`--delimiter "${raw.delimiter}": expected one character, or tab, comma, semicolon, pipe`);
    delimiter = d;
  }
  const encoding = parseEncodingChoice(raw.encoding ?? 'auto');
  if (encoding === null) throw new LinkageInputError(`--encoding "${raw.encoding}": expected one of ${ENCODING_CHOICES.join(', ')}`);
  let threads: number | null = null;
  if (raw.threads !== undefined) {
    const n = Number(raw.threads);
    if (!Number.isInteger(n) || n < 1 || n > 64) throw new LinkageInputError(`--threads "${raw.threads}": expected a whole number from 1 to 64`);
    threads = n;
  }
  const quiet = raw.quiet === true;
  const progressText = raw.progress ?? 'auto';
  const progress: ProgressMode = quiet ? 'none' : progressText === 'auto' ? autoProgressMode(stderrIsTTY) : (progressText as ProgressMode);
  return { settings, overrides, idColumn: raw.id, delimiter, encoding, threads, progress, quiet, identifiers, attributes: raw.attribute ?? [] };
}

/** Reads `--model`: a model document from --save-model. */
export function readModel(path: string): MatchModel {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new LinkageInputError(`--model ${path}: cannot read it (${err instanceof Error ? err.message : String(err)})`);
  }
  const model = parseModel(text);
  if ('error' in model) throw new LinkageInputError(`--model ${path}: ${model.error}`);
  return model;
}

/**
 * Guessing how a delimited text file is written, from its first bytes: character encoding,
 * field delimiter and line ending. Pure functions over a sample; the reader applies them.
 */
import { TextDecoder } from 'node:util';

/** Encodings the reader accepts (names as `--encoding` takes them). */
export type TextEncodingName = 'utf8' | 'latin1' | 'utf16le' | 'utf16be';

/** `--encoding` values: an encoding, or `auto` (detect). */
export const ENCODING_CHOICES = ['auto', 'utf8', 'latin1', 'utf16le', 'utf16be'] as const;
export type EncodingChoice = (typeof ENCODING_CHOICES)[number];

/** WHATWG label of each encoding, for TextDecoder. "latin1" is windows-1252 there, a superset. */
export const DECODER_LABELS: Readonly<Record<TextEncodingName, string>> = {
  utf8: 'utf-8',
  latin1: 'windows-1252',
  utf16le: 'utf-16le',
  utf16be: 'utf-16be',
};

/** Outcome of encoding detection. */
export interface EncodingGuess {
  readonly encoding: TextEncodingName;
  /** Why this encoding: shown in the summary. */
  readonly reason: string;
}

/**
 * Accepts user spellings of an encoding ("UTF-8", "iso-8859-1", "cp1252"...); null when unknown.
 */
export function parseEncodingChoice(text: string): EncodingChoice | null {
  const key = text
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  switch (key) {
    case 'auto':
      return 'auto';
    case 'utf8':
      return 'utf8';
    case 'latin1':
    case 'iso88591':
    case 'l1':
    case 'cp1252':
    case 'windows1252':
    case 'ansi':
      return 'latin1';
    case 'utf16le':
    case 'utf16':
    case 'ucs2':
      return 'utf16le';
    case 'utf16be':
      return 'utf16be';
    default:
      return null;
  }
}

/**
 * Detects the encoding of a file from its first bytes: a byte-order mark decides; else
 * NUL bytes in every other position mean UTF-16; else the sample is UTF-8 if it decodes as
 * UTF-8 (a multi-byte sequence cut at the sample's end is fine), and Latin-1 (Windows-1252)
 * otherwise. `complete` says the sample is the whole file.
 */
export function detectEncoding(sample: Uint8Array, complete = false): EncodingGuess {
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) return { encoding: 'utf8', reason: 'UTF-8 byte-order mark' };
  if (sample[0] === 0xff && sample[1] === 0xfe) return { encoding: 'utf16le', reason: 'UTF-16LE byte-order mark' };
  if (sample[0] === 0xfe && sample[1] === 0xff) return { encoding: 'utf16be', reason: 'UTF-16BE byte-order mark' };
  const n = Math.min(sample.length, 4096);
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i++) {
    if (sample[i] === 0) {
      if (i % 2 === 0) evenZeros++;
      else oddZeros++;
    }
  }
  if (n >= 4 && oddZeros > n / 4 && evenZeros === 0) return { encoding: 'utf16le', reason: 'NUL in every other byte (UTF-16LE without a byte-order mark)' };
  if (n >= 4 && evenZeros > n / 4 && oddZeros === 0) return { encoding: 'utf16be', reason: 'NUL in every other byte (UTF-16BE without a byte-order mark)' };
  try {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    decoder.decode(sample, { stream: !complete });
    return { encoding: 'utf8', reason: 'valid UTF-8' };
  } catch {
    return { encoding: 'latin1', reason: 'not valid UTF-8, read as Latin-1 (Windows-1252)' };
  }
}

/** Delimiters tried by {@link detectDelimiter}, in order of preference on a tie. */
export const DELIMITER_CANDIDATES: readonly string[] = [',', ';', '\t', '|'];

/** Delimiters in the user's words: "tab", "\\t", "semicolon"... Null when not one character. */
export function parseDelimiter(text: string): string | null {
  const named: Record<string, string> = {
    tab: '\t',
    '\\t': '\t',
    comma: ',',
    semicolon: ';',
    pipe: '|',
    space: ' ',
  };
  const lower = text.toLowerCase();
  if (named[lower] !== undefined) return named[lower];
  if (text.length === 1 && text !== '"' && text !== '\n' && text !== '\r') return text;
  return null;
}

/** Counts of each candidate delimiter outside double quotes, per line, for the first lines. */
function countPerLine(sample: string, candidates: readonly string[], maxLines: number): number[][] {
  const lines: number[][] = [];
  let counts = candidates.map(() => 0);
  let quoted = false;
  let empty = true;
  for (let i = 0; i < sample.length && lines.length < maxLines; i++) {
    const ch = sample[i] as string;
    if (ch === '"') {
      quoted = !quoted;
      empty = false;
    } else if (!quoted && (ch === '\n' || ch === '\r')) {
      if (!empty) lines.push(counts);
      counts = candidates.map(() => 0);
      empty = true;
      if (ch === '\r' && sample[i + 1] === '\n') i++;
    } else {
      empty = false;
      if (!quoted) {
        const at = candidates.indexOf(ch);
        if (at >= 0) counts[at] = (counts[at] ?? 0) + 1;
      }
    }
  }
  if (!empty && lines.length < maxLines) lines.push(counts);
  return lines;
}

/**
 * True when line `k` holds a delimiter that most lines after it (four in five) hold as many
 * times: the header of a table, not a value of a one-column file with a delimiter in it.
 */
function tableFollows(lines: readonly number[][], k: number): boolean {
  const header = lines[k] as number[];
  const rest = lines.slice(k + 1);
  return rest.length > 0 && header.some((n, c) => n > 0 && rest.filter((l) => l[c] === n).length * 5 >= rest.length * 4);
}

/**
 * Guesses the field delimiter from the start of a file: the candidate that appears on the
 * header line and the same number of times on the most following lines; ties go to more
 * fields, then to the order of DELIMITER_CANDIDATES. A file with one column gives ",".
 */
export function detectDelimiter(sample: string, candidates: readonly string[] = DELIMITER_CANDIDATES): string {
  const all = countPerLine(sample, candidates, 50);
  // Notes before the header (LinkedIn's "Notes:") hold no delimiter: the header is the first
  // line that does, when a table follows it. In a file of one column a value with a stray
  // ";" or "|" (an email "c@z.com; d@z.com") is no header: the lines after it have none.
  const k = all.findIndex((l) => l.some((n) => n > 0));
  const lines = k > 0 && tableFollows(all, k) ? all.slice(k) : all;
  const header = lines[0];
  if (header === undefined) return candidates[0] ?? ',';
  let best = candidates[0] ?? ',';
  let bestConsistency = -1;
  let bestFields = -1;
  candidates.forEach((candidate, c) => {
    const fields = header[c] ?? 0;
    if (fields === 0) return;
    const rest = lines.slice(1);
    const consistency = rest.length === 0 ? 1 : rest.filter((l) => l[c] === fields).length / rest.length;
    if (consistency > bestConsistency || (consistency === bestConsistency && fields > bestFields)) {
      best = candidate;
      bestConsistency = consistency;
      bestFields = fields;
    }
  });
  return best;
}

/** The line ending of a text: the first one outside double quotes; "\n" when there is none. */
export function detectNewline(sample: string): '\n' | '\r\n' | '\r' {
  let quoted = false;
  for (let i = 0; i < sample.length; i++) {
    const ch = sample[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === '\n') return '\n';
    else if (!quoted && ch === '\r') return sample[i + 1] === '\n' || i + 1 === sample.length ? '\r\n' : '\r';
  }
  return '\n';
}

/**
 * The character rows end at: LF, whatever the file's first line ends with. A CR before an
 * LF is part of the line end, and a bare CR outside quotes is turned into LF before rows are
 * split (line-ends.ts), so that LF, CRLF and CR lines may mix in one file (edited on two
 * systems, or written by an exporter that ends its first lines in CR).
 */
export const ROW_BREAK = '\n';

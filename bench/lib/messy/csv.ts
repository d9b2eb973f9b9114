/**
 * CSV text as RFC 4180 quotes it: a field is quoted when it holds a comma, a double quote,
 * a line break or leading/trailing space, and quotes inside are doubled. Lines end with
 * "\n"; the text is UTF-8 without a byte-order mark.
 */

/** One field, quoted when needed. */
export function csvField(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The whole file: header line, then one line per row. */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const lines = [header, ...rows].map((cells) => cells.map(csvField).join(','));
  return `${lines.join('\n')}\n`;
}

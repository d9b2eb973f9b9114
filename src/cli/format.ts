/** Plain-text tables for list commands: one header line, one line per row, aligned columns. */

function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.length === 0 ? '-' : value.map(cell).join(',');
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    return Object.entries(value)
      .map(([k, v]) => `${k}=${cell(v)}`)
      .join(' ');
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return typeof value; // a function or symbol: no row holds one
}

/** Render rows (objects with the same keys) as an aligned table; "(none)" when empty. */
export function formatTable(rows: readonly object[], columns?: readonly string[]): string {
  if (rows.length === 0) return '(none)\n';
  const cols = columns ?? Object.keys(rows[0] ?? {});
  const cells = rows.map((row) => cols.map((c) => cell((row as Record<string, unknown>)[c])));
  const widths = cols.map((c, i) => Math.max(c.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (values: readonly string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(cols), ...cells.map(line)].join('\n') + '\n';
}

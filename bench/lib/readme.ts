/**
 * Rewrites one "## " section of bench/README.md in place, leaving every other section (other
 * engineers' benchmarks) untouched. The file is re-read just before writing. Inside the
 * section, everything from the NOTES_MARKER line on is hand-written and kept.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const README_PATH = fileURLToPath(new URL('../README.md', import.meta.url));
export const NOTES_MARKER = '<!-- notes: kept when the numbers above are regenerated -->';

/** Replaces the section starting at `heading` (up to the next "## " line) with `content`. */
export function updateReadmeSection(heading: string, content: string, path = README_PATH): void {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === heading.trim());
  const body = content.replace(/\n+$/, '').split('\n');
  if (start === -1) {
    writeFileSync(path, `${text.replace(/\n+$/, '')}\n\n${body.join('\n')}\n`);
    return;
  }
  let end = start + 1;
  while (end < lines.length && !/^## /.test(lines[end] ?? '')) end++;
  const old = lines.slice(start, end);
  const marker = old.findIndex((l) => l.trim() === NOTES_MARKER);
  const notes = marker === -1 ? [] : ['', ...old.slice(marker)];
  while (notes.length > 0 && notes[notes.length - 1] === '') notes.pop();
  const section = [...body, ...notes];
  const next = [...lines.slice(0, start), ...section, ...(end < lines.length ? ['', ...lines.slice(end)] : [''])];
  writeFileSync(path, next.join('\n'));
}

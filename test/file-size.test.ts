/**
 * One concept per file (architecture.md, style): a file in src past 400 lines says why in its
 * opening comment, with the words "Past 400 lines because" (issue 12), or is split.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LIMIT = 400;
const REASON = 'Past 400 lines because';
const SRC = fileURLToPath(new URL('../src', import.meta.url));

/** The comment lines a file opens with, before its first import or declaration. */
function openingComment(text: string): string {
  const lines = text.split('\n');
  const end = lines.findIndex((line) => /^(?:import|export|const|let|function|class|interface|type|declare)\b/.test(line));
  return lines.slice(0, end === -1 ? lines.length : end).join('\n');
}

/** Why `text` breaks the rule, or null when it keeps it. */
function sizeProblem(text: string): string | null {
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines <= LIMIT) return null;
  return openingComment(text).includes(REASON) ? null : `${lines} lines, no "${REASON} ..." in its opening comment`;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('file size', () => {
  it('every file in src past 400 lines says why in its opening comment', () => {
    const problems = tsFiles(SRC).flatMap((path) => {
      const problem = sizeProblem(readFileSync(path, 'utf8'));
      return problem === null ? [] : [`src/${relative(SRC, path)}: ${problem}`];
    });
    expect(problems).toEqual([]);
  });

  it('finds a long file without a reason, and only in its opening comment', () => {
    const body = 'const x = 1;\n'.repeat(LIMIT);
    expect(sizeProblem(`/** A file. */\n${body}`)).toBe(`${LIMIT + 1} lines, no "${REASON} ..." in its opening comment`);
    expect(sizeProblem(`/** A file. ${REASON} it is one table. */\n${body}`)).toBeNull();
    expect(sizeProblem(`/** A file. */\n${body}// ${REASON} too late.\n`)).not.toBeNull();
    expect(sizeProblem(`/** A file. */\n${'const x = 1;\n'.repeat(LIMIT - 1)}`)).toBeNull();
  });
});

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOTES_MARKER, updateReadmeSection } from '../../bench/lib/readme.js';

describe('updateReadmeSection', () => {
  const file = (): string => join(mkdtempSync(join(tmpdir(), 'readme-')), 'README.md');

  it('replaces only its own section and keeps hand-written notes', () => {
    const path = file();
    writeFileSync(
      path,
      [
        '# Benchmarks',
        '',
        '## API (bench/api.bench.ts)',
        'theirs',
        '',
        '## Engine (x)',
        'old numbers',
        '',
        NOTES_MARKER,
        'my notes',
        '',
        '## Other',
        'more',
        '',
      ].join('\n'),
    );
    updateReadmeSection('## Engine (x)', '## Engine (x)\n\nnew numbers\n', path);
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('theirs');
    expect(text).toContain('new numbers');
    expect(text).not.toContain('old numbers');
    expect(text).toContain(`${NOTES_MARKER}\nmy notes\n\n## Other\nmore`);
  });

  it('appends a missing section', () => {
    const path = file();
    writeFileSync(path, '# Benchmarks\n\n## API\nx\n');
    updateReadmeSection('## Deps', '## Deps\ny', path);
    expect(readFileSync(path, 'utf8')).toBe('# Benchmarks\n\n## API\nx\n\n## Deps\ny\n');
  });
});

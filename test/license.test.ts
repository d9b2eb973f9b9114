/** The root LICENSE is the licence package.json declares (npm and GitHub read both). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (name: string): string => readFileSync(new URL(`../${name}`, import.meta.url), 'utf8');

describe('LICENSE', () => {
  it('is the Apache License 2.0 text, as package.json says', () => {
    expect((JSON.parse(read('package.json')) as { license: string }).license).toBe('Apache-2.0');
    const text = read('LICENSE');
    expect(text).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
    expect(text).toContain('TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION');
    expect(text).toContain('END OF TERMS AND CONDITIONS');
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_PATH, readSources, renderNicknameModule } from '../../data/build-nicknames.js';
import { areNicknameVariants, buildNicknameTable, DEFAULT_NICKNAMES, nicknameGroupsOf } from '../../src/engine/nicknames.js';

describe('nickname table', () => {
  it('the generated module matches its sources (run `npm run gen:tables` after editing data/nicknames)', () => {
    const [carlton, cdc, onyx] = readSources();
    expect(readFileSync(GENERATED_PATH, 'utf8')).toBe(renderNicknameModule(carlton, cdc, onyx));
  });

  it.each([
    ['bob', 'robert'],
    ['peggy', 'margaret'],
    ['bill', 'william'],
    ['liz', 'elizabeth'],
    ['bob', 'rob'],
    ['maggie', 'peggy'],
  ])('%s = %s in both directions', (a, b) => {
    expect(areNicknameVariants(DEFAULT_NICKNAMES, a, b)).toBe(true);
    expect(areNicknameVariants(DEFAULT_NICKNAMES, b, a)).toBe(true);
  });

  it('unrelated names and a name with itself are not variants', () => {
    expect(areNicknameVariants(DEFAULT_NICKNAMES, 'robert', 'susan')).toBe(false);
    expect(areNicknameVariants(DEFAULT_NICKNAMES, 'robert', 'robert')).toBe(false);
    expect(areNicknameVariants(DEFAULT_NICKNAMES, 'zzyzx', 'robert')).toBe(false);
  });

  it('works with a three-row table passed in', () => {
    const table = buildNicknameTable(['robert bob rob', 'william bill', 'margaret peggy']);
    expect(areNicknameVariants(table, 'bob', 'rob')).toBe(true);
    expect(areNicknameVariants(table, 'bill', 'bob')).toBe(false);
    expect(nicknameGroupsOf(table, 'peggy')).toEqual([2]);
  });
});

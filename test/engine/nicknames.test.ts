import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CDC_LEFT_OUT, GENERATED_PATH, readSources, renderNicknameModule } from '../../data/build-nicknames.js';
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
    ['kate', 'kathleen'],
    ['betsy', 'lizzie'],
    ['bill', 'will'],
  ])('%s = %s in both directions', (a, b) => {
    expect(areNicknameVariants(DEFAULT_NICKNAMES, a, b)).toBe(true);
    expect(areNicknameVariants(DEFAULT_NICKNAMES, b, a)).toBe(true);
  });

  it('two given names the CDC list joins by their first letters are two names (data/build-nicknames.ts CDC_LEFT_OUT)', () => {
    for (const pair of CDC_LEFT_OUT) {
      const [a, b] = pair.split(':') as [string, string];
      expect(areNicknameVariants(DEFAULT_NICKNAMES, a, b), pair).toBe(false);
    }
    // Its shorter forms still are: Kate, Beth, Will.
    expect(areNicknameVariants(DEFAULT_NICKNAMES, 'catherine', 'kate')).toBe(true);
    expect(areNicknameVariants(DEFAULT_NICKNAMES, 'bethany', 'beth')).toBe(true);
    expect(areNicknameVariants(DEFAULT_NICKNAMES, 'willard', 'will')).toBe(true);
    expect(areNicknameVariants(DEFAULT_NICKNAMES, 'christopher', 'chris')).toBe(true);
    expect(areNicknameVariants(DEFAULT_NICKNAMES, 'christian', 'chris')).toBe(true);
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

  // The merged lists hold reverse entries ("bill": Robert, William, Fred) and compound names
  // ("marianna": Maria, Ann); their members are different given names.
  it.each([
    ['robert', 'william'],
    ['robert', 'fred'],
    ['christina', 'hannah'],
    ['emily', 'mildred'],
    ['ann', 'maria'],
  ])('%s and %s, two names one list entry gives together, are not variants', (a, b) => {
    expect(areNicknameVariants(DEFAULT_NICKNAMES, a, b)).toBe(false);
    expect(areNicknameVariants(DEFAULT_NICKNAMES, b, a)).toBe(false);
  });

  it('relates a group name with every member, and members only as their shorter forms or plain nicknames', () => {
    const table = buildNicknameTable(['bill robert william will', 'robert bob', 'william', 'marianna maria ann mare', 'maria', 'ann']);
    expect(areNicknameVariants(table, 'bill', 'robert')).toBe(true);
    expect(areNicknameVariants(table, 'bill', 'will')).toBe(true);
    expect(areNicknameVariants(table, 'robert', 'william')).toBe(false);
    expect(areNicknameVariants(table, 'marianna', 'ann')).toBe(true);
    expect(areNicknameVariants(table, 'maria', 'ann')).toBe(false);
    expect(areNicknameVariants(table, 'mare', 'ann')).toBe(true);
  });

  it('is symmetric, never relates a name to itself, and always relates a group name with its members', () => {
    const name = fc.stringMatching(/^[a-e]{1,4}$/);
    fc.assert(
      fc.property(
        fc.array(fc.array(name, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(name, name), { maxLength: 20 }),
        (lines, pairs) => {
          const table = buildNicknameTable(lines.map((l) => l.join(' ')));
          for (const [a, b] of pairs) {
            expect(areNicknameVariants(table, a, b)).toBe(areNicknameVariants(table, b, a));
            if (a === b) expect(areNicknameVariants(table, a, b)).toBe(false);
          }
          for (const l of lines) for (const m of l.slice(1)) if (m !== l[0]) expect(areNicknameVariants(table, l[0] as string, m)).toBe(true);
        },
      ),
    );
  });
});

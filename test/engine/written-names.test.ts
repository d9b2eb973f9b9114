/**
 * Names written in Chinese characters or kana (written-names.ts): two names that read alike in
 * Latin letters but are written with other characters are names that sound alike, never one
 * name; a name in characters against its romanization still compares by its reading.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContactIndex, normalizeContact, type ContactInput } from '../../src/engine/index.js';
import { levelBit, type LevelName } from '../../src/engine/comparisons.js';
import { writtenLevel, writtenNames } from '../../src/engine/written-names.js';

const ALL = 0xffff;

describe('written names', () => {
  it('keeps the first and last name as written only when they hold Chinese characters or kana', () => {
    expect(writtenNames({ firstName: '伟', lastName: '王' })).toBe('伟|王');
    expect(writtenNames({ firstName: 'Wei', lastName: '王' })).toBe('|王');
    expect(writtenNames({ firstName: 'さくら', lastName: '佐藤' })).toBe('さくら|佐藤');
    expect(writtenNames({ firstName: ' 伟 ', lastName: '王.' })).toBe('伟|王');
    for (const latin of [{ firstName: 'Wei', lastName: 'Wang' }, { firstName: 'Евгений', lastName: 'Иванов' }, { firstName: '민준', lastName: '김' }, {}]) {
      expect(writtenNames(latin)).toBeNull();
    }
    expect(normalizeContact({ firstName: '伟', lastName: '王' })).toMatchObject({ first: 'wei', last: 'wang', written: '伟|王' });
    // One name in hiragana, katakana or half-width katakana is written alike.
    expect(writtenNames({ firstName: 'サクラ', lastName: '佐藤' })).toBe('さくら|佐藤');
    expect(writtenNames({ firstName: 'ｻｸﾗ', lastName: '佐藤' })).toBe('さくら|佐藤');
  });

  it('reads a name written with other characters as sounding alike, or differing under Disable Partial Matching', () => {
    expect(writtenLevel('exact', '伟|王', '薇|王', 0, ALL, false)).toBe('phonetic');
    expect(writtenLevel('exact', '伟|王', '薇|王', 1, ALL, false)).toBe('exact');
    expect(writtenLevel('typo', '伟|王', '维|汪', 1, ALL, false)).toBe('phonetic');
    expect(writtenLevel('exact', '伟|王', '薇|王', 0, ALL, true)).toBe('disagree');
    expect(writtenLevel('exact', '伟|王', '薇|王', 0, ALL & ~levelBit('phonetic'), false)).toBe('fuzzy-low');
    // Romanized on one record: the reading decides.
    expect(writtenLevel('exact', '伟|王', '|王', 0, ALL, false)).toBe('exact');
    expect(writtenLevel('exact', '伟|王', null, 0, ALL, true)).toBe('exact');
  });

  it('never raises a level, and changes none when both write the name alike', () => {
    const levels = fc.constantFrom<LevelName>('exact', 'nickname', 'typo', 'fuzzy-high', 'part', 'fuzzy-low', 'phonetic', 'disagree', 'missing', 'initial');
    const part = fc.constantFrom('', '伟', '薇', '王', 'さくら');
    const written = fc.option(
      fc.tuple(part, part).map(([f, l]) => `${f}|${l}`),
      { nil: null },
    );
    const order: readonly LevelName[] = ['exact', 'nickname', 'typo', 'fuzzy-high', 'part', 'initial', 'fuzzy-low', 'phonetic', 'disagree', 'missing'];
    fc.assert(
      fc.property(levels, written, written, fc.constantFrom<0 | 1>(0, 1), fc.boolean(), (level, q, r, k, strict) => {
        const out = writtenLevel(level, q, r, k, ALL, strict);
        if (out !== level) expect(order.indexOf(out)).toBeGreaterThan(order.indexOf(level));
        if (q === r) expect(out).toBe(level);
      }),
      { seed: 20261129, numRuns: 500 },
    );
  });
});

describe('written names through the CRM rules', () => {
  const wei: ContactInput = {
    firstName: '伟',
    lastName: '王',
    dateOfBirth: '1990-03-08',
    phones: ['(415) 555-0142'],
    addresses: [{ addressLine1: '88 Jackson St', city: 'San Francisco', stateOrProvince: 'CA', zipOrPostalCode: '94133' }],
  };

  it('王伟 and 王薇 (a brother and a sister) at one address and phone are not one person', () => {
    const index = new ContactIndex();
    index.upsert(1, wei);
    expect(index.find(wei).decision).toBe('Matched');
    const sister = index.find({ ...wei, firstName: '薇' }, { explain: true });
    expect(sister.decision).not.toBe('Matched');
    // The explanation says why two names that read alike count as two.
    expect(sister.explanation.find((f) => f.field === 'firstName')?.label).toMatch(/written with other characters/);
    expect(sister.explanation.find((f) => f.field === 'lastName')?.label).not.toMatch(/written with other characters/);
    expect(index.find({ ...wei, firstName: '薇' }, { strict: true }).decision).not.toBe('Matched');
  });

  it('a name in characters still finds its romanization, and the romanization finds it', () => {
    const index = new ContactIndex();
    index.upsert(1, wei);
    expect(index.find({ ...wei, firstName: 'Wei', lastName: 'Wang' }).decision).toBe('Matched');
    const latin = new ContactIndex();
    latin.upsert(1, { ...wei, firstName: 'Wei', lastName: 'Wang' });
    expect(latin.find(wei).decision).toBe('Matched');
  });

  it('さくら and サクラ (one name in hiragana and in katakana) are one name, also under Disable Partial Matching', () => {
    const index = new ContactIndex();
    const sakura = { ...wei, firstName: 'さくら', lastName: '佐藤' };
    index.upsert(1, sakura);
    expect(index.find({ ...sakura, firstName: 'サクラ' }).decision).toBe('Matched');
    expect(index.find({ ...sakura, firstName: 'サクラ' }, { strict: true }).decision).toBe('Matched');
  });

  it('王偉 and 王伟 (one name in traditional and in simplified characters) are one name, also under Disable Partial Matching', () => {
    expect(writtenNames({ firstName: '偉', lastName: '王' })).toBe('伟|王');
    expect(writtenNames({ firstName: '張偉', lastName: '陳' })).toBe('张伟|陈');
    const index = new ContactIndex();
    index.upsert(1, wei);
    const traditional = { ...wei, firstName: '偉' };
    expect(index.find(traditional, { explain: true }).explanation.find((f) => f.field === 'firstName')?.level).toBe('exact');
    expect(index.find(traditional, { strict: true }).decision).toBe('Matched');
    // The sister in traditional characters (薇 is both) is still another name.
    const other = new ContactIndex();
    other.upsert(1, traditional);
    expect(other.find({ ...wei, firstName: '薇' }).decision).not.toBe('Matched');
  });

  it('王伟 against first name 王 and last name 薇 (the sister, columns swapped) is no swap of one name', () => {
    const index = new ContactIndex();
    index.upsert(1, wei);
    expect(index.find({ ...wei, firstName: '王', lastName: '伟' }).decision).toBe('Matched');
    expect(index.find({ ...wei, firstName: '王', lastName: '薇' }).decision).not.toBe('Matched');
  });
});

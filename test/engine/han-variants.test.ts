/**
 * OpenCC's traditional -> simplified characters (data/han/ts-characters.txt): the generated
 * table matches the data, and names written in either form are written alike.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HAN_VARIANTS_PATH, HAN_VARIANTS_SOURCE, hanPairs, renderHanVariantsModule } from '../../data/build-han-variants.js';
import { writtenNames } from '../../src/engine/written-names.js';

describe('traditional and simplified Chinese characters', () => {
  it('the generated table matches data/han/ts-characters.txt (run `npm run gen:tables` after editing it)', () => {
    const text = readFileSync(HAN_VARIANTS_SOURCE, 'utf8');
    expect(readFileSync(HAN_VARIANTS_PATH, 'utf8')).toBe(renderHanVariantsModule(text));
    expect(hanPairs(text).length).toBeGreaterThan(3000);
  });

  it('rejects a line that is not one character each way, and a character listed twice', () => {
    expect(() => hanPairs('偉\t伟\n偉\t伟\n')).toThrow(/twice/);
    expect(() => hanPairs('偉伟\n')).toThrow(/one traditional and one simplified/);
  });

  it('leaves as written a character OpenCC also lists as its own simplified form: 於 and 于, 蘋 and 苹 are two names', () => {
    // In simplified text (mainland records) 於 and 乾 stay: the surnames 於 (Yū) and 于 (Yú) are two.
    for (const [kept, other] of [
      ['於', '于'],
      ['乾', '干'],
      ['蘋', '苹'],
      ['徵', '征'],
    ]) {
      expect(writtenNames({ firstName: '伟', lastName: kept })).not.toBe(writtenNames({ firstName: '伟', lastName: other }));
    }
  });

  it('writes a character in its last simplified form, so that normalizing twice changes nothing (薴 -> 苧 -> 苎)', () => {
    expect(writtenNames({ firstName: '薴', lastName: '王' })).toBe(writtenNames({ firstName: '苎', lastName: '王' }));
    for (const [traditional] of hanPairs(readFileSync(HAN_VARIANTS_SOURCE, 'utf8'))) {
      const once = writtenNames({ firstName: traditional, lastName: '王' }) as string;
      expect(writtenNames({ firstName: once.split('|')[0], lastName: '王' }), traditional).toBe(once);
    }
  });

  it('writes the common surnames and given names of both forms alike', () => {
    const pairs: [string, string][] = [
      ['陳', '陈'],
      ['張', '张'],
      ['劉', '刘'],
      ['黃', '黄'],
      ['趙', '赵'],
      ['偉', '伟'],
      ['麗', '丽'],
      ['華', '华'],
    ];
    for (const [traditional, simplified] of pairs) {
      expect(writtenNames({ firstName: traditional, lastName: traditional })).toBe(writtenNames({ firstName: simplified, lastName: simplified }));
    }
    // A name already simplified, or in kana, is left as it is.
    expect(writtenNames({ firstName: '伟', lastName: '王' })).toBe('伟|王');
    expect(writtenNames({ firstName: 'さくら', lastName: '佐藤' })).toBe('さくら|佐藤');
  });
});

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { distance } from 'fastest-levenshtein';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { main as messyCli } from '../../bench/messy.js';
import { csvField } from '../../bench/lib/messy/csv.js';
import { dateDigitTypo, formatDate, isValidDate, swapDayMonth } from '../../bench/lib/messy/dates.js';
import { LEVELS, SCENARIOS, SCENARIO_RATES, generateMessy, ratesMarkdown, samplesMarkdown, toCsv } from '../../bench/lib/messy/index.js';
import type { Level, MessyFile, Scenario } from '../../bench/lib/messy/index.js';
import { GENERIC_ORGS, NO_ADDRESS, PLACEHOLDER_NAMES, PLACEHOLDER_SSNS } from '../../bench/lib/messy/mixed-data.js';
import { HANDWRITING_PAIRS, confuse, digitSwap, digitTypo, keyboardTypo, ocrDigits, ocrName, phoneticVariant } from '../../bench/lib/messy/text-errors.js';
import { Rng } from '../../bench/lib/prng.js';

/** Seed of the property tests (fast-check prints it, with the failing case, on failure). */
const FC_SEED = Number(process.env.FC_SEED ?? 20261125);
const RUNS = { seed: FC_SEED, numRuns: 400 };

const HEADERS: Record<Scenario, string[]> = {
  historical: ['id', 'full_name', 'given_name', 'surname', 'birth_date', 'birth_place', 'postcode', 'gender', 'occupation', 'truth'],
  ocr: ['rec_id', 'FIRST NAME', 'MIDDLE NAME', 'LAST NAME', 'STREET ADDRESS', 'CITY', 'ZIP', 'BIRTH YEAR', 'true_id'],
  mixed: [
    'unique_id',
    'source',
    'first_name',
    'last_name',
    'name',
    'email',
    'phone',
    'dob',
    'address',
    'city',
    'zip',
    'sex',
    'ssn',
    'passport',
    'drivers_license',
    'cluster',
  ],
};

const cache = new Map<string, MessyFile>();
function file(scenario: Scenario, level: Level, seed = 1): MessyFile {
  const key = `${scenario}/${level}/${seed}`;
  let f = cache.get(key);
  if (f === undefined) {
    f = generateMessy({ scenario, level, seed });
    cache.set(key, f);
  }
  return f;
}

/** Rows of the file as objects keyed by column, each with its tags. */
function records(f: MessyFile): { cells: Record<string, string>; tags: string[] }[] {
  return f.rows.map((row, i) => ({ cells: Object.fromEntries(f.header.map((h, k) => [h, row[k] ?? ''])), tags: f.applied[i] ?? [] }));
}

function byTruth<T extends { cells: Record<string, string> }>(rows: T[], truth: string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = r.cells[truth] ?? '';
    out.set(k, [...(out.get(k) ?? []), r]);
  }
  return out;
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

describe('generateMessy: determinism', () => {
  it('gives the same rows for the same options and different rows for another seed', () => {
    for (const scenario of SCENARIOS) {
      const a = generateMessy({ scenario, level: 'medium', seed: 42, entities: 300 });
      const b = generateMessy({ scenario, level: 'medium', seed: 42, entities: 300 });
      const c = generateMessy({ scenario, level: 'medium', seed: 43, entities: 300 });
      expect(toCsv(b.header, b.rows)).toBe(toCsv(a.header, a.rows));
      expect(b.stats).toEqual(a.stats);
      expect(toCsv(c.header, c.rows)).not.toBe(toCsv(a.header, a.rows));
    }
  });

  it('gives the same bytes on every machine (fixed digests; update them when the model changes on purpose)', () => {
    const digests = Object.fromEntries(
      SCENARIOS.map((scenario) => {
        const f = generateMessy({ scenario, level: 'high', seed: 7, entities: 200 });
        return [scenario, sha(toCsv(f.header, f.rows))];
      }),
    );
    expect(digests).toEqual({ historical: '99c5a01d93d6d9e6', ocr: '0e3779d3c9af0107', mixed: 'b6e361cdc60ac34c' });
  });

  it('keeps the same people across levels (only the corruption changes)', () => {
    const low = records(file('ocr', 'low'));
    const high = records(file('ocr', 'high'));
    expect(new Set(high.map((r) => r.cells.true_id))).toEqual(new Set(low.map((r) => r.cells.true_id)));
    expect(high.length).toBe(low.length);
  });

  it('historical with manyRecords: the same people, 4-18 records each', () => {
    const few = generateMessy({ scenario: 'historical', level: 'medium', seed: 3, entities: 200 });
    const many = generateMessy({ scenario: 'historical', level: 'medium', seed: 3, entities: 200, manyRecords: true });
    const sizes = new Map<string, number>();
    const truth = many.header.indexOf(many.truthColumn);
    for (const row of many.rows) sizes.set(row[truth] as string, (sizes.get(row[truth] as string) ?? 0) + 1);
    expect(sizes.size).toBe(200);
    expect(Math.min(...sizes.values())).toBeGreaterThanOrEqual(4);
    expect(Math.max(...sizes.values())).toBeLessThanOrEqual(18);
    expect(many.rows.length).toBeGreaterThan(few.rows.length * 3);
  });

  it('refuses bad options naming the option', () => {
    expect(() => generateMessy({ scenario: 'nope' as Scenario, level: 'low', seed: 1 })).toThrow(/scenario/);
    expect(() => generateMessy({ scenario: 'ocr', level: 'extreme' as Level, seed: 1 })).toThrow(/level/);
    expect(() => generateMessy({ scenario: 'ocr', level: 'low', seed: 1.5 })).toThrow(/seed/);
    expect(() => generateMessy({ scenario: 'ocr', level: 'low', seed: 1, entities: 0 })).toThrow(/entities/);
  });
});

describe('generateMessy: shape and truth', () => {
  for (const scenario of SCENARIOS) {
    for (const level of LEVELS) {
      it(`${scenario}/${level}: documented columns, unique ids, 3,000-8,000 rows, consistent truth`, () => {
        const f = file(scenario, level);
        expect(f.header).toEqual(HEADERS[scenario]);
        expect(f.idColumn).toBe(f.header[0]);
        expect(f.truthColumn).toBe(f.header[f.header.length - 1]);
        expect(f.rows.length).toBeGreaterThanOrEqual(3000);
        expect(f.rows.length).toBeLessThanOrEqual(8000);
        for (const row of f.rows) expect(row).toHaveLength(f.header.length);
        expect(new Set(f.rows.map((r) => r[0])).size).toBe(f.rows.length);
        const groups = byTruth(records(f), f.truthColumn);
        expect(groups.size).toBe(f.stats.entities);
        let pairs = 0;
        const sizes: Record<string, number> = {};
        for (const g of groups.values()) {
          pairs += (g.length * (g.length - 1)) / 2;
          sizes[String(g.length)] = (sizes[String(g.length)] ?? 0) + 1;
        }
        expect(pairs).toBe(f.stats.truePairs);
        expect(sizes).toEqual(f.stats.clusterSizes);
        expect(f.applied).toHaveLength(f.rows.length);
        expect(sizes['1'] ?? 0).toBeGreaterThan(f.stats.entities * 0.2);
      });
    }
  }

  it('labels each row with the person it describes', () => {
    // Values the processes never change contradict nowhere inside one truth group.
    for (const g of byTruth(records(file('historical', 'high')), 'truth').values()) {
      expect(new Set(g.map((r) => r.cells.gender).filter((x) => x !== '')).size).toBeLessThanOrEqual(1);
    }
    for (const g of byTruth(records(file('ocr', 'high')), 'true_id').values()) {
      const years = g.map((r) => Number(r.cells['BIRTH YEAR'])).filter((y) => y > 0);
      if (years.length > 1) expect(Math.max(...years) - Math.min(...years)).toBeLessThanOrEqual(2);
    }
    for (const g of byTruth(records(file('mixed', 'high')), 'cluster').values()) {
      const ssns = g
        .map((r) => r.cells.ssn ?? '')
        .filter((s) => s !== '' && !PLACEHOLDER_SSNS.includes(s))
        .map((s) => s.replace(/-/g, ''));
      for (const s of ssns) expect(distance(s, ssns[0] ?? s)).toBeLessThanOrEqual(4);
      const passports = g.map((r) => r.cells.passport ?? '').filter((s) => s !== '');
      for (const s of passports) expect(distance(s, passports[0] ?? s)).toBeLessThanOrEqual(4);
    }
  });
});

describe('generateMessy: rates', () => {
  for (const scenario of SCENARIOS) {
    it(`${scenario}: every rate is measured where it applies and lands near its documented value`, () => {
      for (const level of LEVELS) {
        const f = file(scenario, level);
        const documented = SCENARIO_RATES[scenario];
        expect(Object.keys(f.stats.processes)).toEqual(Object.keys(documented));
        for (const [key, count] of Object.entries(f.stats.processes)) {
          expect(count.rate, key).toBe(documented[key]?.[level]);
          if (count.eligible < 100) continue;
          const observed = count.applied / count.eligible;
          const sd = Math.sqrt((count.rate * (1 - count.rate)) / count.eligible);
          expect(Math.abs(observed - count.rate), `${scenario}/${level} ${key}: ${observed} vs ${count.rate}`).toBeLessThanOrEqual(4 * sd + 0.02);
        }
        for (const [key, spec] of Object.entries(documented)) {
          if (spec.per === 'record' && spec[level] > 0) expect(f.stats.tags[key] ?? 0, key).toBeGreaterThan(0);
        }
      }
    });

    it(`${scenario}: the table at the top of the file and in bench/README.md is the rates object`, () => {
      const table = ratesMarkdown(SCENARIO_RATES[scenario]);
      const source = readFileSync(new URL(`../../bench/lib/messy/${scenario}.ts`, import.meta.url), 'utf8');
      const header = source.slice(0, source.indexOf('*/'));
      const inFile = header
        .split('\n')
        .map((l) => l.replace(/^ \* ?/, ''))
        .filter((l) => l.startsWith('| rate |') || /^\| \w+ \| (?:record|entity) \|/.test(l) || l === '|---|---|---|---|---|---|');
      expect(inFile).toEqual(table);
      const readme = readFileSync(new URL('../../bench/README.md', import.meta.url), 'utf8');
      expect(readme).toContain(table.join('\n'));
    });
  }

  it('bench/README.md gives the figures of the nine files of seed 1', () => {
    const readme = readFileSync(new URL('../../bench/README.md', import.meta.url), 'utf8');
    const table = samplesMarkdown(SCENARIOS.flatMap((scenario) => LEVELS.map((level) => file(scenario, level))));
    expect(readme).toContain(table.join('\n'));
  });

  it('more errors at higher levels', () => {
    for (const scenario of SCENARIOS) {
      const [low, medium, high] = LEVELS.map((level) => {
        const s = file(scenario, level).stats;
        return Object.entries(s.tags).reduce((n, [, c]) => n + c, 0) / s.rows;
      });
      expect(medium).toBeGreaterThan(low ?? 0);
      expect(high).toBeGreaterThan(medium ?? 0);
    }
  });
});

describe('scenario ocr', () => {
  const NAME_FIELDS: Record<string, { column: string; also: string[] }> = {
    first_name: { column: 'FIRST NAME', also: ['nickname', 'nameSwap'] },
    last_name: { column: 'LAST NAME', also: ['suffixShown', 'nameSwap'] },
    zip: { column: 'ZIP', also: ['moved', 'zipMissing'] },
  };

  for (const level of LEVELS) {
    it(`${level}: corrupts 1-2 characters of a field, against the person's clean value`, () => {
      const groups = byTruth(records(file('ocr', level)), 'true_id');
      let checked = 0;
      let small = 0;
      for (const [field, { column, also }] of Object.entries(NAME_FIELDS)) {
        const touches = (tags: string[]): boolean => tags.some((t) => t === `field:${field}` || also.includes(t));
        for (const g of groups.values()) {
          const clean = g.find((r) => !touches(r.tags))?.cells[column];
          if (clean === undefined || clean === '') continue;
          for (const r of g) {
            if (!r.tags.includes(`field:${field}`) || r.tags.some((t) => also.includes(t))) continue;
            const d = distance(clean, r.cells[column] ?? '');
            expect(d, `${clean} -> ${r.cells[column]}`).toBeGreaterThanOrEqual(1);
            expect(d, `${clean} -> ${r.cells[column]}`).toBeLessThanOrEqual(4);
            checked++;
            if (d <= 2) small++;
          }
        }
      }
      expect(checked).toBeGreaterThan(200);
      expect(small / checked).toBeGreaterThan(0.75);
    });
  }

  it('often corrupts two fields of one record, more often at higher levels', () => {
    const share = (level: Level): number => {
      const rows = records(file('ocr', level)).filter((r) => r.tags.includes('duplicateCorrupted'));
      const fields = rows.map((r) => r.tags.filter((t) => t.startsWith('field:')).length);
      for (const n of fields) expect(n).toBeLessThanOrEqual(3);
      return fields.filter((n) => n >= 2).length / rows.length;
    };
    expect(share('medium')).toBeGreaterThan(0.35);
    expect(share('high')).toBeGreaterThan(0.5);
    expect(share('high')).toBeGreaterThan(share('low'));
  });

  it('has OCR confusions with digits in names and letters in zips, households and common names', () => {
    const rows = records(file('ocr', 'high'));
    expect(rows.some((r) => /\d/.test(r.cells['FIRST NAME'] ?? '') || /\d/.test(r.cells['LAST NAME'] ?? ''))).toBe(true);
    expect(rows.some((r) => /[a-z]/i.test(r.cells.ZIP ?? ''))).toBe(true);
    const atAddress = new Map<string, Set<string>>();
    for (const r of rows) {
      if (r.cells['STREET ADDRESS'] === '') continue;
      const k = `${r.cells['STREET ADDRESS']}|${r.cells.ZIP}`;
      atAddress.set(k, (atAddress.get(k) ?? new Set()).add(r.cells.true_id ?? ''));
    }
    expect([...atAddress.values()].filter((s) => s.size >= 2).length).toBeGreaterThan(100);
    const names = new Map<string, Set<string>>();
    for (const r of rows) {
      const k = `${r.cells['FIRST NAME']} ${r.cells['LAST NAME']}|${r.cells.CITY}`.toLowerCase();
      names.set(k, (names.get(k) ?? new Set()).add(r.cells.true_id ?? ''));
    }
    expect(Math.max(...[...names.values()].map((s) => s.size))).toBeGreaterThanOrEqual(4);
  });
});

describe('scenario historical', () => {
  it('has missing and partial dates, pre-1900 years, titles, initials and missing surnames', () => {
    const rows = records(file('historical', 'medium'));
    const share = (pred: (c: Record<string, string>) => boolean): number => rows.filter((r) => pred(r.cells)).length / rows.length;
    expect(share((c) => c.birth_date === '')).toBeGreaterThan(0.3);
    expect(share((c) => /^\d{4}$/.test(c.birth_date ?? ''))).toBeGreaterThan(0.03);
    expect(share((c) => /1[67]\d\d/.test(c.birth_date ?? ''))).toBeGreaterThan(0.05);
    expect(share((c) => /^(?:Sir|Lord|Lady|Rev|Revd|Reverend|Dr|Captain|Capt|Mrs|Miss|Mr)\.?$/.test(c.given_name ?? ''))).toBeGreaterThan(0.01);
    expect(share((c) => /^\p{L}\.?$/u.test(c.given_name ?? ''))).toBeGreaterThan(0.02);
    expect(share((c) => c.surname === '')).toBeGreaterThan(0.1);
  });
});

describe('scenario mixed', () => {
  const rows = (): ReturnType<typeof records> => records(file('mixed', 'medium'));

  it('has placeholder names and identifiers on rows of different people', () => {
    const r = rows();
    const placeholder = new Set(PLACEHOLDER_NAMES.map((p) => p.first));
    const people = new Set(r.filter((x) => placeholder.has(x.cells.first_name ?? '') && x.tags.includes('placeholderName')).map((x) => x.cells.cluster));
    expect(people.size).toBeGreaterThanOrEqual(10);
    expect(new Set(r.filter((x) => PLACEHOLDER_SSNS.includes(x.cells.ssn ?? '')).map((x) => x.cells.cluster)).size).toBeGreaterThanOrEqual(10);
  });

  it('has generic values shared by many unrelated people', () => {
    const r = rows();
    for (const value of [
      (c: Record<string, string>) => GENERIC_ORGS.some((o) => (c.email ?? '').includes(o.email)),
      (c: Record<string, string>) => NO_ADDRESS.includes(c.address ?? ''),
    ]) {
      expect(new Set(r.filter((x) => value(x.cells)).map((x) => x.cells.cluster)).size).toBeGreaterThanOrEqual(5);
    }
    const emails = new Map<string, Set<string>>();
    for (const x of r) if (x.cells.email) emails.set(x.cells.email, (emails.get(x.cells.email) ?? new Set()).add(x.cells.cluster ?? ''));
    // Family emails: one address, two or more people of a household.
    expect([...emails].filter(([e, s]) => s.size >= 2 && !GENERIC_ORGS.some((o) => o.email === e)).length).toBeGreaterThan(10);
  });

  it('has Cyrillic, Greek and Arabic names, with Latin spellings of the same people', () => {
    const r = rows();
    for (const script of [/\p{Script=Cyrillic}/u, /\p{Script=Greek}/u, /\p{Script=Arabic}/u]) {
      const native = r.filter((x) => script.test(x.cells.name ?? ''));
      expect(native.length).toBeGreaterThan(3);
      const clusters = new Set(native.map((x) => x.cells.cluster));
      expect(
        r.some(
          (x) => clusters.has(x.cells.cluster) && /^[A-Z' -]+$/i.test(`${x.cells.first_name}${x.cells.name}`) && `${x.cells.first_name}${x.cells.name}` !== '',
        ),
      ).toBe(true);
    }
  });

  it('has the formats and rows real merged files have', () => {
    const r = rows();
    const some = (pred: (c: Record<string, string>) => boolean): number => r.filter((x) => pred(x.cells)).length;
    expect(some((c) => /^[^<]+ <[^>][^>@]*@[^>]+>$/.test(c.email ?? ''))).toBeGreaterThan(20);
    expect(some((c) => /^\d{3}-\d{4}$/.test(c.phone ?? ''))).toBeGreaterThan(20);
    expect(some((c) => /^\d{4}-\d\d-\d\d$/.test(c.dob ?? ''))).toBeGreaterThan(100);
    expect(some((c) => /^\d\d\/\d\d\/\d{4}$/.test(c.dob ?? ''))).toBeGreaterThan(100);
    expect(some((c) => /^\d\d\.\d\d\.\d{4}$/.test(c.dob ?? ''))).toBeGreaterThan(50);
    expect(some((c) => /^[A-Z' -]+, /.test(c.name ?? '') && c.email === '' && c.phone === '' && c.address === '' && c.dob !== '')).toBeGreaterThan(20);
    expect(some((c) => c.first_name === '' && c.last_name === '' && c.name === '' && (c.email !== '' || c.phone !== ''))).toBeGreaterThan(20);
    expect(new Set(r.map((x) => x.cells.sex))).toEqual(new Set(['', 'M', 'F', 'male', 'female', 'Male', 'Female']));
  });
});

describe('corruption functions (seeded properties)', () => {
  const text = fc.string({ unit: fc.constantFrom(..."abcdeghilmnorstuvwyzABDEGILMORSUVW0158 '-".split('')), minLength: 1, maxLength: 16 });
  const changes = (fn: (s: string, rng: Rng) => string | null) =>
    fc.property(text, fc.integer(), (s, seed) => {
      const out = fn(s, new Rng(seed));
      if (out === null) return;
      expect(out).not.toBe(s);
      expect(Math.abs(out.length - s.length)).toBeLessThanOrEqual(2);
    });

  it('change the value whenever they apply, by at most 2 in length', () => {
    fc.assert(changes(ocrName), RUNS);
    fc.assert(
      changes((s, rng) => confuse(s, HANDWRITING_PAIRS, rng)),
      RUNS,
    );
    fc.assert(changes(keyboardTypo), RUNS);
    fc.assert(
      changes((s, rng) => keyboardTypo(s, rng, true)),
      RUNS,
    );
    fc.assert(changes(phoneticVariant), RUNS);
    fc.assert(changes(digitTypo), RUNS);
    fc.assert(changes(digitSwap), RUNS);
    fc.assert(
      changes((s, rng) => ocrDigits(s, rng, rng.chance(0.5))),
      RUNS,
    );
  });

  it('apply to ordinary names and numbers', () => {
    fc.assert(
      fc.property(fc.constantFrom('Thompson', 'WILLIAMS', 'mary', 'Christopher', 'amy', 'david'), fc.integer(), (s, seed) => {
        expect(ocrName(s, new Rng(seed))).not.toBeNull();
        expect(keyboardTypo(s, new Rng(seed))).not.toBeNull();
        expect(phoneticVariant(s, new Rng(seed))).not.toBeNull();
        expect(ocrDigits('10583', new Rng(seed), true)).not.toBeNull();
      }),
      RUNS,
    );
  });

  it('dates: a digit typo or a swap gives another valid date', () => {
    const date = fc.record({ y: fc.integer({ min: 1600, max: 2020 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 28 }) });
    fc.assert(
      fc.property(date, fc.integer(), (d, seed) => {
        const typo = dateDigitTypo(d, new Rng(seed));
        expect(typo).not.toBeNull();
        if (typo === null) return;
        expect(isValidDate(typo)).toBe(true);
        const a = formatDate(d, 'iso').replace(/-/g, '');
        const b = formatDate(typo, 'iso').replace(/-/g, '');
        expect(a.split('').filter((ch, i) => ch !== b[i])).toHaveLength(1);
        const swapped = swapDayMonth(d);
        if (swapped !== null) expect(isValidDate(swapped) && (swapped.m !== d.m || swapped.d !== d.d)).toBe(true);
      }),
      RUNS,
    );
  });

  it('CSV: every cell reads back as written', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'Б', ',', '"', '\n', '\r\n', ' ', '<', '@', '1'), maxLength: 8 });
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 5 }), (rows) => {
        const header = ['a', 'b', 'c'];
        const parsed = Papa.parse<string[]>(toCsv(header, rows), { skipEmptyLines: false });
        expect(parsed.data.slice(0, rows.length + 1)).toEqual([header, ...rows]);
        for (const r of rows) for (const c of r) expect(csvField(c).startsWith('"')).toBe(/[",\r\n]|^\s|\s$/.test(c));
      }),
      RUNS,
    );
  });
});

describe('CLI (bench/messy.ts)', () => {
  it('writes the CSV of generateMessy', () => {
    const dir = mkdtempSync(join(tmpdir(), 'messy-'));
    const out = join(dir, 'ocr.csv');
    messyCli(['--scenario', 'ocr', '--level', 'low', '--seed', '5', '--entities', '120', '-o', out, '--stats', join(dir, 's.json')]);
    const f = generateMessy({ scenario: 'ocr', level: 'low', seed: 5, entities: 120 });
    expect(readFileSync(out, 'utf8')).toBe(toCsv(f.header, f.rows));
    expect(JSON.parse(readFileSync(join(dir, 's.json'), 'utf8')).truePairs).toBe(f.stats.truePairs);
    expect(() => messyCli(['--scenario', 'ocr', '--level', 'huge', '-o', out])).toThrow(/--level/);
  });
});

/**
 * Estimation: EM recovers the m probabilities that generated a set of level patterns (u held
 * at the truth); the prior solved from candidate scores recovers the share of matches;
 * u freed of the matches among random pairs; a household-shaped session is discarded.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileModel,
  ContactIndex,
  DEFAULT_NICKNAMES,
  estimateParameters,
  estimatePrior,
  FILE_MODEL,
  LEVEL_CODE,
  LEVEL_NAMES,
  makeScoreContext,
  normalizeContact,
  runEm,
  SeededRandom,
  withoutMatchesInU,
  type MatchModel,
  type NormalizedContact,
} from '../../src/engine/index.js';

const LEVELS = [LEVEL_CODE.exact, LEVEL_CODE.typo, LEVEL_CODE.disagree];

/** A distribution over the three levels, favouring agreement (m) or disagreement (u). */
function distribution(rng: SeededRandom, agree: boolean): Float64Array {
  const out = new Float64Array(LEVEL_NAMES.length);
  const a = agree ? 0.6 + 0.35 * rng.float() : 0.002 + 0.05 * rng.float();
  const t = agree ? (1 - a) * (0.3 + 0.5 * rng.float()) : 0.002 + 0.02 * rng.float();
  out[LEVEL_CODE.exact] = a;
  out[LEVEL_CODE.typo] = t;
  out[LEVEL_CODE.disagree] = 1 - a - t;
  return out;
}

function draw(rng: SeededRandom, p: Float64Array): number {
  let x = rng.float();
  for (const l of LEVELS) {
    x -= p[l] as number;
    if (x < 0) return l;
  }
  return LEVEL_CODE.disagree;
}

describe('runEm', () => {
  it('recovers the m probabilities patterns were drawn from, within 0.05 (u known)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.double({ min: 0.05, max: 0.4, noNaN: true }), (seed, lambda) => {
        const rng = new SeededRandom(seed);
        const slots = [0, 1, 2, 3];
        const m = slots.map(() => distribution(rng, true));
        const u = slots.map(() => distribution(rng, false));
        const counts = new Map<string, { vector: Uint8Array; count: number }>();
        for (let k = 0; k < 20_000; k++) {
          const match = rng.float() < lambda;
          const vector = new Uint8Array(slots.map((s) => draw(rng, (match ? m : u)[s] as Float64Array)));
          const key = vector.join(',');
          const known = counts.get(key);
          if (known) known.count++;
          else counts.set(key, { vector, count: 1 });
        }
        // Start from a flat guess that leans towards agreement, as the shipped priors do.
        const start = slots.map(() => {
          const p = new Float64Array(LEVEL_NAMES.length);
          p[LEVEL_CODE.exact] = 0.7;
          p[LEVEL_CODE.typo] = 0.15;
          p[LEVEL_CODE.disagree] = 0.15;
          return p;
        });
        const result = runEm([...counts.values()], slots, start, u, 200);
        expect(result.lambda).toBeCloseTo(lambda, 1);
        for (const s of slots)
          for (const l of LEVELS) expect(Math.abs(((result.m[s] as Float64Array)[l] as number) - ((m[s] as Float64Array)[l] as number))).toBeLessThan(0.05);
      }),
      { numRuns: 25 },
    );
  });
});

describe('estimatePrior', () => {
  it('recovers the share of matches from the scores of calibrated candidate pairs', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 50, max: 400 }), (seed, matches) => {
        const rng = new SeededRandom(seed);
        const total = 1_000_000;
        const prior = matches / total;
        const bias = Math.log2(prior / (1 - prior));
        // Candidates: the matches score high, non-matches low, each score the weight (prior excluded)
        // of a calibrated model, so that posterior = sigmoid(score + bias) is right on average.
        const scores: number[] = [];
        for (let i = 0; i < matches; i++) scores.push(-bias + 6 + 4 * rng.float());
        for (let i = 0; i < 40 * matches; i++) scores.push(-bias - 14 + 6 * rng.float());
        const estimated = estimatePrior(scores, { totalPairs: total, sampledShare: 1, countedTwice: false });
        expect(estimated / prior).toBeGreaterThan(0.85);
        expect(estimated / prior).toBeLessThan(1.2);
      }),
      { numRuns: 30 },
    );
  });

  it('scales a sample up, and halves pairs counted from both sides', () => {
    const scores = Array.from({ length: 100 }, () => 60);
    const whole = estimatePrior(scores, { totalPairs: 1e6, sampledShare: 1, countedTwice: false });
    expect(estimatePrior(scores, { totalPairs: 1e6, sampledShare: 0.5, countedTwice: false })).toBeCloseTo(2 * whole, 8);
    expect(estimatePrior(scores, { totalPairs: 1e6, sampledShare: 1, countedTwice: true })).toBeCloseTo(whole / 2, 8);
  });
});

describe('withoutMatchesInU', () => {
  it('takes the matches out of a u measured on all pairs, never raising a weight by more than 8 bits', () => {
    const model: MatchModel = { ...FILE_MODEL, fields: { dateOfBirth: { exact: { m: 0.9, u: 0.0004 }, disagree: { m: 0.1, u: 0.9996 } } } };
    const fixed = withoutMatchesInU(model, 0.0003);
    const exact = fixed.fields.dateOfBirth?.exact;
    expect(exact?.u).toBeCloseTo((0.0004 - 0.0003 * 0.9) / (1 - 0.0003), 6);
    const extreme = withoutMatchesInU(model, 0.0005);
    expect(extreme.fields.dateOfBirth?.exact?.u).toBeCloseTo(0.0004 / 256, 9);
  });
});

/** A score context of the file model's first name, surname, date of birth and address. */
function namesDateAddressContext(): ReturnType<typeof makeScoreContext> {
  return makeScoreContext({
    compiled: compileModel({
      ...FILE_MODEL,
      fields: Object.fromEntries((['firstName', 'lastName', 'dateOfBirth', 'address'] as const).map((f) => [f, FILE_MODEL.fields[f] ?? {}])),
    }),
    nicknames: DEFAULT_NICKNAMES,
    strict: false,
    tf: null,
  });
}

describe('estimateParameters', () => {
  const names = ['ann', 'bob', 'cy', 'dora', 'ed', 'fay', 'gus', 'hal', 'ida', 'jo', 'kim', 'lou', 'max', 'ned', 'olga', 'pat', 'quin', 'rose', 'sam', 'tia'];
  const surnames = ['lee', 'kim', 'ng', 'cruz', 'diaz', 'moss', 'ross', 'vale', 'wolf', 'york'];

  /**
   * People in households (same surname and address, different first names), each recorded
   * 1-3 times, a copy with a typo now and then; `dates`: with dates of birth.
   */
  function households(seed: number, dates: boolean, size: () => number): NormalizedContact[] {
    const rng = new SeededRandom(seed);
    const out: NormalizedContact[] = [];
    for (let h = 0; h < 400; h++) {
      const last = `${surnames[rng.below(surnames.length)] as string}${names[rng.below(names.length)] as string}`;
      const street = `${1 + rng.below(900)} Main St`;
      const zip = String(10000 + rng.below(80000));
      const members = size();
      for (let p = 0; p < members; p++) {
        const first = names[(h + p) % names.length] as string;
        const dob = `19${50 + rng.below(50)}-0${1 + rng.below(9)}-1${rng.below(9)}`;
        const copies = 1 + rng.below(dates ? 3 : 2);
        for (let c = 0; c < copies; c++) {
          const typo = c > 0 && rng.float() < 0.3;
          out.push(
            normalizeContact(
              {
                firstName: typo ? `${first}x` : first,
                lastName: last,
                dateOfBirth: dates ? dob : null,
                addresses: [{ addressLine1: street, zipOrPostalCode: zip }],
              },
              { yearOnlyDates: true },
            ),
          );
        }
      }
    }
    return out;
  }

  const ctx = namesDateAddressContext();
  const source = (records: NormalizedContact[]): { left: { size: number; get: (i: number) => NormalizedContact } } => ({
    left: { size: records.length, get: (i) => records[i] as NormalizedContact },
  });

  it('is deterministic, and learns that a first name tells household members apart', () => {
    const rng = new SeededRandom(1);
    const data = source(households(7, true, () => 1 + rng.below(4)));
    const a = estimateParameters(data, ctx, { seed: 3 });
    const b = estimateParameters(data, ctx, { seed: 3 });
    expect(a.model).toEqual(b.model);
    const first = a.model.fields.firstName;
    expect(first?.exact?.m).toBeGreaterThan(0.5);
    expect(Math.log2((first?.disagree?.m ?? 1) / (first?.disagree?.u ?? 1))).toBeLessThan(-2);
  });

  it('discards a session that learned households (large households, no dates), and says so', () => {
    const data = source(households(9, false, () => 5));
    const { report, model } = estimateParameters(data, ctx, { seed: 3 });
    const discarded = report.sessions.filter((s) => s.discarded !== null);
    expect(discarded.length).toBeGreaterThan(0);
    expect(discarded[0]?.discarded).toMatch(/households, not people/);
    expect(report.notes.join(' ')).toMatch(/households, not people/);
    const first = model.fields.firstName;
    expect(Math.log2((first?.disagree?.m ?? 1) / (first?.disagree?.u ?? 1))).toBeLessThan(-2);
  });

  it('leaves swapped names to the prior where every session blocks on a name (none of their pairs can show a swap)', () => {
    // People recorded twice, the copy's names swapped in one case of ten: only the surname and
    // the first-name sessions can train, and neither holds a swapped pair.
    const rng = new SeededRandom(5);
    const letters = 'abcdefghijklmnoprstuvwy';
    const records: NormalizedContact[] = [];
    for (let p = 0; p < 1500; p++) {
      let last = '';
      for (let i = 0; i < 6; i++) last += letters[rng.below(letters.length)] as string;
      const first = names[rng.below(names.length)] as string;
      records.push(normalizeContact({ firstName: first, lastName: last }));
      if (rng.float() < 0.5)
        records.push(rng.float() < 0.1 ? normalizeContact({ firstName: last, lastName: first }) : normalizeContact({ firstName: first, lastName: last }));
    }
    const { report, model } = estimateParameters(source(records), ctx, { seed: 3 });
    expect(report.sessions.map((s) => s.rule).sort()).toEqual(['firstName', 'lastName']);
    const bits = (spec: { m: number; u: number } | undefined): number => Math.log2((spec?.m ?? 1) / (spec?.u ?? 1));
    // The learned m of a swap stays the prior's share: evidence for the match, as the prior's is.
    expect(bits(model.fields.firstName?.swapped)).toBeGreaterThan(3);
    expect(bits(model.fields.lastName?.swapped)).toBeGreaterThan(3);
  });

  it('adds pairs sharing both names for comparisons the other sessions left short of matches (a large file)', () => {
    // 600 people, each name shared by 20-30 of them and each date by 60: the surname, first-name
    // and date sessions sample mostly strangers; the full name is each person's own.
    const rng = new SeededRandom(8);
    const firsts = names;
    const lasts = Array.from({ length: 30 }, (_, i) => `${surnames[i % surnames.length] as string}${String.fromCharCode(97 + i)}`);
    const records: NormalizedContact[] = [];
    for (let p = 0; p < 600; p++) {
      const first = firsts[p % firsts.length] as string;
      const last = lasts[Math.floor(p / firsts.length) % lasts.length] as string;
      const dob = `19${50 + (p % 10)}-0${1 + rng.below(9)}-1${rng.below(9)}`;
      const copies = 2 + rng.below(2);
      for (let c = 0; c < copies; c++) {
        const typo = c > 0 && rng.float() < 0.1;
        records.push(
          normalizeContact(
            { firstName: first, lastName: last, dateOfBirth: typo ? `${dob.slice(0, 9)}${(Number(dob[9]) + 1) % 10}` : dob },
            { yearOnlyDates: true },
          ),
        );
      }
    }
    const { report, model } = estimateParameters(source(records), ctx, { seed: 3 });
    const full = report.sessions.find((s) => s.rule === 'firstName+lastName');
    expect(full).toBeDefined();
    expect(full?.discarded).toBeNull();
    // It estimates only what was short (never the names it blocks on).
    expect(full?.estimated).toContain('dateOfBirth');
    expect(full?.estimated).not.toContain('firstName');
    // The date of birth: agreeing in ~95% of a person's pairs, one digit off in the rest.
    expect(model.fields.dateOfBirth?.exact?.m).toBeGreaterThan(0.85);
  });

  it('never estimates the generational suffix: a son without his "Jr" is his father to every session (the prior, at the file\'s rates)', () => {
    // Fathers and sons at one address with one name, the son's "Jr" on one of his records only;
    // each person recorded twice.
    const rng = new SeededRandom(8);
    const records: NormalizedContact[] = [];
    for (let h = 0; h < 300; h++) {
      const first = names[rng.below(names.length)] as string;
      const last = `${surnames[rng.below(surnames.length)] as string}${names[rng.below(names.length)] as string}`;
      const zip = String(10000 + rng.below(80000));
      for (const [suffix, dob] of [
        [null, `19${40 + rng.below(20)}-0${1 + rng.below(9)}-1${rng.below(9)}`],
        ['Jr', `19${70 + rng.below(20)}-0${1 + rng.below(9)}-1${rng.below(9)}`],
      ] as const) {
        for (let c = 0; c < 2; c++) {
          records.push(
            normalizeContact({ firstName: first, lastName: last, suffix: c === 0 ? suffix : null, dateOfBirth: dob, addresses: [{ zipOrPostalCode: zip }] }),
          );
        }
      }
    }
    const withSuffix = makeScoreContext({
      compiled: compileModel({
        ...FILE_MODEL,
        fields: Object.fromEntries((['suffix', 'firstName', 'lastName', 'dateOfBirth', 'address'] as const).map((f) => [f, FILE_MODEL.fields[f] ?? {}])),
      }),
      nicknames: DEFAULT_NICKNAMES,
      strict: false,
      tf: null,
    });
    const { report, model } = estimateParameters(source(records), withSuffix, { seed: 3 });
    expect(report.sources['suffix']).toBe('prior');
    const partial = model.fields.suffix?.partial;
    expect(Math.log2((partial?.m ?? 1) / (partial?.u ?? 1))).toBeLessThan(-2);
  });

  it('takes a first name no session can estimate (names, an address, households) its typo share from the surname', () => {
    // Households recorded 1-2 times, either name garbled by one letter in 40% of the copies.
    const rng = new SeededRandom(11);
    const garble = (name: string): string => (rng.float() < 0.4 ? `${name.slice(0, -1)}q` : name);
    const records: NormalizedContact[] = [];
    for (let h = 0; h < 400; h++) {
      const last = `${surnames[rng.below(surnames.length)] as string}${names[rng.below(names.length)] as string}`;
      const zip = String(10000 + rng.below(80000));
      for (let p = 0; p < 5; p++) {
        // A first name of the person's own (a block of one person's copies), so the session
        // blocked on it finds hundreds of matches to estimate the surname from.
        const first = `${names[(h + p) % names.length] as string}${String.fromCharCode(97 + (h % 26), 97 + (Math.floor(h / 26) % 26))}ette`;
        const copies = 1 + rng.below(2);
        for (let c = 0; c < copies; c++) {
          const copy = c > 0;
          records.push(
            normalizeContact({ firstName: copy ? garble(first) : first, lastName: copy ? garble(last) : last, addresses: [{ zipOrPostalCode: zip }] }),
          );
        }
      }
    }
    const { report, model } = estimateParameters(source(records), ctx, { seed: 3 });
    expect(report.sources['firstName']).toBe('borrowed');
    expect(report.notes.join(' ')).toMatch(/firstName: no training session could estimate it/);
    const typo = (f: string): number =>
      (model.fields[f as 'firstName']?.typo?.m ?? 0) / ((model.fields[f as 'firstName']?.exact?.m ?? 1) + (model.fields[f as 'firstName']?.typo?.m ?? 0));
    // The surname's share of typos among agreeing names, not the shipped prior's (a clean file's).
    expect(typo('firstName')).toBeCloseTo(typo('lastName'), 1);
    expect(typo('firstName')).toBeGreaterThan(0.2);
    // The file writes no initials and no compound names: those levels, whose m is the prior's
    // (a clean CRM file's), weigh no more than the prior's Bayes factor, not the prior's m over
    // this file's near-zero u (which weighed "J" against "James" as much as exact agreement and
    // so kept common first names from their term-frequency adjustment).
    const bits = (spec: { m: number; u: number } | undefined): number => Math.log2((spec?.m ?? 1) / (spec?.u ?? 1));
    for (const level of ['initial', 'part', 'cross'] as const) {
      expect(bits(model.fields.firstName?.[level])).toBeLessThanOrEqual(bits(FILE_MODEL.fields.firstName?.[level]) + 1e-9);
    }
    // The surname's copies are garbled by typos only: its sounding-alike and similar shares are
    // near zero, which says nothing of the borrowing name. Borrowed, a garbling level keeps
    // about the prior's share (renormalized), never the other name's lower one.
    for (const level of ['phonetic', 'fuzzy-low'] as const) {
      expect(model.fields.firstName?.[level]?.m ?? 0).toBeGreaterThan(0.5 * (FILE_MODEL.fields.firstName?.[level]?.m ?? 0));
    }
  });

  it("gives the same model when its pairs are scored with the index's name forms (ContactIndex.prepare)", () => {
    // Names with nicknames, typos, OCR misreads, sound-alikes and swaps, so that every name
    // comparison (and the memo of stored names' levels the prepared forms use) is reached.
    const firsts = [
      'john',
      'jon',
      'jhon',
      'j0hn',
      'johnny',
      'mary',
      'rnary',
      'marie',
      'mark',
      'william',
      'bill',
      'wi11iam',
      'catherine',
      'kathryn',
      'cathy',
      'mohammed',
      'mhmd',
    ];
    const lasts = ['smith', 'smyth', 'smitn', 'johnson', 'jonson', 'nguyen', 'ngvyen', 'o brien', 'obrien', 'de la cruz', 'cruz', 'mary'];
    const rng = new SeededRandom(11);
    const pick = (xs: readonly string[]): string => xs[rng.below(xs.length)] as string;
    const rows = Array.from({ length: 600 }, (_, i) =>
      normalizeContact(
        {
          firstName: pick(firsts),
          lastName: pick(lasts),
          dateOfBirth: `19${50 + rng.below(10)}-0${1 + rng.below(9)}-1${rng.below(3)}`,
          addresses: [{ addressLine1: `${1 + rng.below(30)} ${pick(['main st', 'mian st', 'oak rd'])}`, zipOrPostalCode: String(2000 + rng.below(4)) }],
          identifiers: i % 3 === 0 ? [{ type: 'id', externalId: String(rng.below(50)) }] : [],
        },
        { yearOnlyDates: true },
      ),
    );
    const estimate = (prepared: boolean): string => {
      const index = new ContactIndex({ model: FILE_MODEL, termFrequencies: 'all', requireGateAgreement: false });
      for (let i = 0; i < 300; i++) index.upsertNormalized(i, rows[i] as NormalizedContact);
      const data = {
        left: { size: 300, get: (i: number) => index.get(i) as NormalizedContact },
        right: { size: 300, get: (i: number) => rows[300 + i] as NormalizedContact },
        prepare: prepared ? (c: NormalizedContact) => index.prepare(c) : undefined,
      };
      return JSON.stringify(estimateParameters(data, index.scoreContext(), { seed: 5, uPairs: 4000 }));
    };
    expect(estimate(true)).toBe(estimate(false));
  });
});

describe('estimateParameters: the prior its sessions imply, and the pairs they took for one person', () => {
  const firsts = ['ann', 'bob', 'cyril', 'dora', 'edith', 'fay', 'gus', 'hal', 'ida', 'joan', 'kim', 'louis', 'max', 'ned', 'olga', 'pat'];
  const lasts = ['lee', 'kim', 'ng', 'cruz', 'diaz', 'moss', 'ross', 'vale', 'wolf', 'york', 'hart', 'shaw', 'ward', 'cole', 'lane', 'page'];
  /**
   * People recorded 1-3 times (a copy's first name, surname or date sometimes mistyped or
   * missing); returns the records and the number of pairs of one person.
   */
  function people(seed: number, n: number): { records: NormalizedContact[]; matches: number } {
    const rng = new SeededRandom(seed);
    const records: NormalizedContact[] = [];
    let matches = 0;
    for (let p = 0; p < n; p++) {
      const first = firsts[rng.below(firsts.length)] as string;
      const last = `${lasts[rng.below(lasts.length)] as string}${lasts[rng.below(lasts.length)] as string}`;
      const dob = `19${10 + rng.below(90)}-${String(1 + rng.below(12)).padStart(2, '0')}-${String(1 + rng.below(28)).padStart(2, '0')}`;
      const copies = 1 + rng.below(3);
      matches += (copies * (copies - 1)) / 2;
      for (let c = 0; c < copies; c++) {
        const slip = c > 0 ? rng.below(5) : -1;
        records.push(
          normalizeContact(
            {
              firstName: slip === 0 ? `${first}e` : first,
              lastName: slip === 1 ? `${last}s` : last,
              dateOfBirth: slip === 2 ? null : slip === 3 ? `${dob.slice(0, 8)}${dob[9]}${dob[8]}` : dob,
              addresses: [{ addressLine1: `${1 + rng.below(900)} Main St`, zipOrPostalCode: String(10000 + rng.below(80000)) }],
            },
            { yearOnlyDates: true },
          ),
        );
      }
    }
    return { records, matches };
  }
  const ctx = namesDateAddressContext();

  it("the date of birth's session gives the share of pairs that are one person within 25%, on any seed", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (seed) => {
        const { records, matches } = people(seed, 1500);
        const truth = matches / ((records.length * (records.length - 1)) / 2);
        const { priors } = estimateParameters({ left: { size: records.length, get: (i) => records[i] as NormalizedContact } }, ctx, { seed: 3 });
        const byDate = priors.find((p) => p.field === 'dateOfBirth');
        expect(byDate, `seed ${seed}`).toBeDefined();
        expect(Math.abs(Math.log((byDate?.prior ?? 0) / truth)), `seed ${seed}: ${byDate?.prior} against ${truth}`).toBeLessThan(Math.log(1.25));
      }),
      { numRuns: 5, seed: 20261129 },
    );
  });

  it("names the session matches by the source's ids, each with its posterior (>= 0.05), once", () => {
    const { records } = people(4, 800);
    // Every other record, as a sample of a larger file would be: id 2i at position i.
    const sampled = records.filter((_, i) => i % 2 === 0);
    const { matches } = estimateParameters({ left: { size: sampled.length, get: (i) => sampled[i] as NormalizedContact, idOf: (i) => 2 * i } }, ctx, {
      seed: 3,
    });
    expect(matches.weight.length).toBeGreaterThan(50);
    const seen = new Set<string>();
    for (let k = 0; k < matches.weight.length; k++) {
      const a = matches.left[k] as number;
      const b = matches.right[k] as number;
      expect(a % 2).toBe(0);
      expect(b % 2).toBe(0);
      expect(a).not.toBe(b);
      expect(matches.weight[k]).toBeGreaterThanOrEqual(0.05);
      expect(matches.weight[k]).toBeLessThanOrEqual(1);
      // Once in either order: a large block's pairs are drawn in any order.
      const key = a < b ? `${a}|${b}` : `${b}|${a}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
  });
});

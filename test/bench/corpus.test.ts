import { describe, expect, it } from 'vitest';
import { generateCorpus } from '../../bench/corpus.js';
import type { CorpusQuery } from '../../bench/corpus.js';
import { NICKNAMES } from '../../bench/lib/corpus-data.js';
import { Rng, WeightedSampler, goldenMultiplier, scatter } from '../../bench/lib/prng.js';
import type { AddressInput, ContactInput, PhoneInput } from '../../src/engine/types.js';
import { NICKNAME_GROUPS } from '../../src/engine/generated/nicknames.js';

const fold = (s: string): string =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
const digits = (p: PhoneInput | string): string => (typeof p === 'string' ? p : p.phoneNumber).split(/ext|x/)[0]!.replace(/\D/g, '').slice(-10);
const mailbox = (e: string): string => {
  const [local = '', domain = ''] = e.toLowerCase().split('@');
  return domain === 'gmail.com' ? `${local.split('+')[0]!.replace(/\./g, '')}@gmail.com` : `${local}@${domain}`;
};
const addressKey = (a: AddressInput): string => `${(a.addressLine1 ?? '').split(' ')[0]}|${(a.zipOrPostalCode ?? '').slice(0, 5)}`;

/** The contract's minimum combinations (interface.md, matching rule 1). */
function meetsGate(c: ContactInput): boolean {
  const names = Boolean(c.firstName) && Boolean(c.lastName);
  const email = (c.emails?.length ?? 0) > 0;
  const phone = (c.phones?.length ?? 0) > 0;
  const address = (c.addresses ?? []).some((a) => /^\d/.test(a.addressLine1 ?? '') && Boolean(a.zipOrPostalCode));
  const zipDob = Boolean(c.dateOfBirth) && (c.addresses ?? []).some((a) => Boolean(a.zipOrPostalCode));
  return email || (names && (phone || address || zipDob));
}

/** Values a human could link on: mailboxes, phone digits, house number + ZIP5. */
function linkKeys(c: ContactInput): Set<string> {
  return new Set([
    ...(c.emails ?? []).map((e) => `e:${mailbox(e)}`),
    ...(c.phones ?? []).map((p) => `p:${digits(p)}`),
    ...(c.addresses ?? []).map((a) => `a:${addressKey(a)}`),
  ]);
}

function shares(q: ContactInput, keys: Set<string>): boolean {
  for (const k of linkKeys(q)) if (keys.has(k)) return true;
  return false;
}

describe('prng', () => {
  it('is deterministic and roughly uniform', () => {
    const a = new Rng(1);
    const b = new Rng(1);
    const xs = Array.from({ length: 1000 }, () => a.u32());
    expect(Array.from({ length: 1000 }, () => b.u32())).toEqual(xs);
    const c = new Rng(2);
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 100_000; i++) buckets[c.int(10)]! += 1;
    for (const n of buckets) expect(n).toBeGreaterThan(9_500);
  });

  it('scatter is a bijection', () => {
    const m = 10_000;
    const k = goldenMultiplier(m);
    const seen = new Set<number>();
    for (let i = 0; i < m; i++) seen.add(scatter(i, k, 17, m));
    expect(seen.size).toBe(m);
  });

  it('weighted sampler follows its weights', () => {
    const s = new WeightedSampler([1, 3]);
    const rng = new Rng(3);
    let ones = 0;
    for (let i = 0; i < 20_000; i++) ones += s.sample(rng);
    expect(ones / 20_000).toBeGreaterThan(0.73);
    expect(ones / 20_000).toBeLessThan(0.77);
  });
});

describe('generateCorpus', () => {
  const corpus = generateCorpus({ seed: 42, size: 20_000 });
  const people = [...corpus.people()];
  const queries = corpus.queries({ count: 20_000 });

  it('is deterministic for a seed, and differs between seeds', () => {
    const again = generateCorpus({ seed: 42, size: 20_000 });
    expect(JSON.stringify([...again.people()])).toBe(JSON.stringify(people));
    expect(JSON.stringify(again.queries({ count: 2_000 }))).toBe(JSON.stringify(queries.slice(0, 2_000)));
    const other = generateCorpus({ seed: 43, size: 20_000 });
    expect(JSON.stringify(other.person(5))).not.toBe(JSON.stringify(corpus.person(5)));
  });

  it('gives the same person whatever the order of access', () => {
    const fresh = generateCorpus({ seed: 42, size: 20_000 });
    for (const id of [19_999, 7, 12_345, 8, 0]) expect(fresh.person(id)).toEqual(people[id]);
  });

  it('has the requested size with personIds 0..size-1', () => {
    expect(people).toHaveLength(20_000);
    people.forEach((p, i) => expect(p.personId).toBe(i));
    expect(() => corpus.person(20_000)).toThrow(RangeError);
    expect(() => generateCorpus({ seed: 1, size: 0 })).toThrow(RangeError);
  });

  it('has a skewed name distribution with common and accented names', () => {
    const last = new Map<string, number>();
    let johnSmiths = 0;
    let accented = 0;
    for (const p of people) {
      const l = fold(p.contact.lastName ?? '');
      last.set(l, (last.get(l) ?? 0) + 1);
      if (fold(p.contact.firstName ?? '') === 'john' && l === 'smith') johnSmiths++;
      if (/[\u0080-\uffff]/.test(`${p.contact.firstName}${p.contact.lastName}`)) accented++;
    }
    const smith = (last.get('smith') ?? 0) / people.length;
    expect(smith).toBeGreaterThan(0.008);
    expect(smith).toBeLessThan(0.02);
    expect(johnSmiths).toBeGreaterThan(0);
    expect(last.size).toBeGreaterThan(3_000); // a long tail
    expect(accented / people.length).toBeGreaterThan(0.05);
    expect(people.some((p) => /^de la cruz$/i.test(p.contact.lastName ?? ''))).toBe(true);
    expect(people.some((p) => (p.contact.lastName ?? '').includes("'"))).toBe(true);
    expect(people.some((p) => /\p{L}-\p{L}/u.test(p.contact.lastName ?? ''))).toBe(true);
  });

  it('has households sharing an address, Jr/Sr namesakes, and shared office phones', () => {
    const byHousehold = new Map<number, typeof people>();
    for (const p of people) byHousehold.set(p.householdId, [...(byHousehold.get(p.householdId) ?? []), p]);
    const multi = [...byHousehold.values()].filter((h) => h.length > 1);
    const inMulti = multi.reduce((n, h) => n + h.length, 0) / people.length;
    expect(inMulti).toBeGreaterThan(0.45);
    expect(inMulti).toBeLessThan(0.75);
    expect(Math.max(...multi.map((h) => h.length))).toBe(5);
    let namesakes = 0;
    for (const h of multi) {
      const firsts = h.map((p) => fold(p.contact.firstName ?? ''));
      if (new Set(firsts).size < firsts.length) {
        const withSuffix = h.filter((p) => p.contact.suffix || /\b(?:jr|sr|ii)\.?$/i.test(p.contact.lastName ?? ''));
        if (withSuffix.length > 0) namesakes++;
      }
    }
    expect(namesakes).toBeGreaterThan(multi.length * 0.05);
    // Phones: a number shared across households is an office switchboard; a few are big.
    const holders = new Map<string, Set<number>>();
    for (const p of people)
      for (const ph of p.contact.phones ?? []) {
        const d = digits(ph);
        holders.set(d, (holders.get(d) ?? new Set()).add(p.householdId));
      }
    const shared = [...holders.values()].filter((s) => s.size > 1).map((s) => s.size);
    expect(shared.length).toBeGreaterThan(10);
    expect(shared.length).toBeLessThanOrEqual(Math.max(5, Math.floor(20_000 / 200)));
    expect(Math.max(...shared)).toBeGreaterThan(50);
    // Emails are never shared outside a household.
    const mails = new Map<string, number>();
    for (const p of people)
      for (const e of p.contact.emails ?? []) {
        const prev = mails.get(e.toLowerCase());
        if (prev !== undefined) expect(prev).toBe(p.householdId);
        mails.set(e.toLowerCase(), p.householdId);
      }
  });

  it('leaves fields missing at the expected rates', () => {
    const rate = (f: (c: ContactInput) => boolean): number => people.filter((p) => f(p.contact)).length / people.length;
    expect(rate((c) => Boolean(c.dateOfBirth))).toBeGreaterThan(0.8);
    expect(rate((c) => Boolean(c.dateOfBirth))).toBeLessThan(0.92);
    expect(rate((c) => (c.emails?.length ?? 0) > 0)).toBeGreaterThan(0.65);
    expect(rate((c) => (c.phones?.length ?? 0) > 0)).toBeGreaterThan(0.75);
    expect(rate((c) => (c.addresses?.length ?? 0) > 0)).toBeGreaterThan(0.9);
    expect(rate((c) => (c.addresses ?? []).some((a) => /-\d{4}$/.test(a.zipOrPostalCode ?? '')))).toBeGreaterThan(0.2);
  });

  it('mixes existing and new people in queries', () => {
    const share = (k: CorpusQuery['kind']): number => queries.filter((q) => q.kind === k).length / queries.length;
    expect(share('existing')).toBeGreaterThan(0.67);
    expect(share('existing')).toBeLessThan(0.73);
    expect(share('new-relative')).toBeGreaterThan(0.04);
    expect(share('new-junior')).toBeGreaterThan(0.02);
    for (const q of queries) expect(q.truth === null).toBe(q.kind !== 'existing');
  });

  it('applies each kind of noise at its expected rate', () => {
    const existing = queries.filter((q) => q.kind === 'existing');
    const rate = (tag: string): number => existing.filter((q) => q.noise.includes(tag as never)).length / existing.length;
    const expected: Record<string, [number, number]> = {
      nickname: [0.05, 0.12],
      'first-typo': [0.025, 0.055],
      'last-typo': [0.035, 0.065],
      'accent-dropped': [0.02, 0.07],
      'accent-added': [0.015, 0.05],
      case: [0.15, 0.3],
      'dob-swapped': [0.002, 0.012],
      'dob-typo': [0.006, 0.02],
      moved: [0.035, 0.08],
      zip4: [0.2, 0.35],
      'street-format': [0.3, 0.5],
      'phone-format': [0.35, 0.55],
      'new-phone': [0.03, 0.055],
      'new-email': [0.03, 0.055],
      'name-swap': [0.005, 0.016],
    };
    for (const [tag, [lo, hi]] of Object.entries(expected)) {
      expect.soft(rate(tag), tag).toBeGreaterThanOrEqual(lo);
      expect.soft(rate(tag), tag).toBeLessThanOrEqual(hi);
    }
    expect(queries.filter((q) => q.kind !== 'existing').every((q) => !q.noise.includes('nickname'))).toBe(true);
  });

  it('makes every query meet a minimum combination, and existing ones linkable to their record', () => {
    const ungated = queries.filter((q) => !meetsGate(q.candidate));
    expect(ungated.slice(0, 3)).toEqual([]);
    const unlinkable = queries.filter((q) => q.truth !== null && !shares(q.candidate, linkKeys(people[q.truth]!.contact)));
    expect(unlinkable.slice(0, 3)).toEqual([]);
    // Hard negatives: new household members share something with an existing household.
    const all = new Set(people.flatMap((p) => [...linkKeys(p.contact)]));
    const relatives = queries.filter((q) => q.kind === 'new-relative');
    const linked = relatives.filter((q) => shares(q.candidate, all));
    expect(linked.length / relatives.length).toBeGreaterThan(0.9);
  });

  it('only uses nickname pairs the engine table knows', () => {
    const groups = NICKNAME_GROUPS.map((g) => new Set(g.split(' ')));
    for (const [formal, nicks] of Object.entries(NICKNAMES)) {
      for (const nick of nicks) {
        expect(
          groups.some((g) => g.has(formal) && g.has(nick.toLowerCase())),
          `${formal}/${nick}`,
        ).toBe(true);
      }
    }
  });

  // Its speed is measured by the benches that use it (bench/README.md), not asserted here.
  it('streams every person of a 30k corpus once, ids in order', () => {
    let n = 0;
    for (const p of generateCorpus({ seed: 9, size: 30_000 }).people()) {
      expect(p.personId).toBe(n);
      n++;
    }
    expect(n).toBe(30_000);
  });
});

describe('hard negatives', () => {
  it('gives every namesake junior query a suffix and a date of birth', () => {
    const corpus = generateCorpus({ seed: 5, size: 20_000 });
    const juniors = corpus.queries({ count: 5_000 }).filter((q) => q.kind === 'new-junior');
    expect(juniors.length).toBeGreaterThan(50);
    for (const q of juniors) {
      expect(q.candidate.suffix).toBeTruthy();
      expect(q.candidate.dateOfBirth).toBeTruthy();
    }
  });
});

/**
 * findOrCreate explains only what it records (src/crm/match-explanation.ts): a Possible
 * explained afterwards is the engine's own explanation, and a findOrCreate without `explain`
 * decides, answers and records for review exactly as one with it, on the bench corpus' people
 * and noisy requests.
 */
import { describe, expect, it } from 'vitest';
import { generateCorpus } from '../../bench/corpus.js';
import { toCandidate } from '../../bench/api.bench.js';
import { Crm, type CallContext, type MatchOutcome } from '../../src/crm/index.js';
import { explainPossible } from '../../src/crm/match-explanation.js';
import { newScopeIndex } from '../../src/crm/scope-index.js';

const corpus = generateCorpus({ seed: 7, size: 400 });

describe('explainPossible', () => {
  it('gives a Possible found without explanation the explanation the engine gives it; other results are unchanged', () => {
    const index = newScopeIndex('US');
    for (const p of corpus.people()) index.upsert(p.personId, p.contact);
    let possible = 0;
    for (const strict of [false, true]) {
      for (const q of corpus.queries({ count: 400, seed: 8 })) {
        const n = index.normalize(q.candidate);
        const bare = index.findNormalized(n, { strict, explain: false });
        const explained = index.findNormalized(n, { strict, explain: true });
        if (explained.decision === 'Possible') possible++;
        expect(explainPossible(index, n, bare, { strict })).toEqual(explained.decision === 'Possible' ? explained : bare);
      }
    }
    expect(possible).toBeGreaterThan(0);
  });
});

describe('findOrCreate without explain', () => {
  it('decides, answers and records the review queue as with explain; only the per-field explanation of unrecorded answers is left out', async () => {
    const crm = await Crm.open({ db: ':memory:', now: () => new Date(Date.UTC(2024, 0, 1)) });
    try {
      const explained: CallContext = { tenantId: (await crm.createTenant('explained')).id, context: 'voterfile' };
      const plain: CallContext = { tenantId: (await crm.createTenant('plain')).id, context: 'voterfile' };
      const bodies = [...corpus.people()].slice(0, 250).map((p) => toCandidate(p.contact));
      for (const q of corpus.queries({ count: 300, seed: 9 })) bodies.push(toCandidate(q.candidate));
      const crmIds = { explained: new Map<number, number>(), plain: new Map<number, number>() };
      const answers: { a: MatchOutcome; b: MatchOutcome }[] = [];
      for (const body of bodies) {
        const a = await crm.findOrCreate(explained, body, { explain: true }).catch((e: unknown) => e);
        const b = await crm.findOrCreate(plain, body).catch((e: unknown) => e);
        if (!(a instanceof Error) && !(b instanceof Error)) answers.push({ a: a as MatchOutcome, b: b as MatchOutcome });
        else expect(String(b)).toBe(String(a));
      }
      // The same people on both sides: crmIds differ by tenant, so they are compared by order of creation.
      for (const { a, b } of answers) {
        if (a.status !== 'UnmatchedStored') continue;
        crmIds.explained.set(a.crmId as number, crmIds.explained.size);
        crmIds.plain.set(b.crmId as number, crmIds.plain.size);
      }
      const pairs = async (ctx: CallContext) => (await crm.listPossibleMatches(ctx, 'all', new Set(), 0, 1000)).items;
      const [pa, pb] = [await pairs(explained), await pairs(plain)];
      expect(pa.length).toBeGreaterThan(0);
      expect(pb.length).toBe(pa.length);
      pa.forEach((x, i) => {
        const y = pb[i]!;
        expect(y.explanation).toEqual(x.explanation);
        expect(y.score).toBe(x.score);
        expect(crmIds.plain.get(y.crmId)).toBe(crmIds.explained.get(x.crmId));
        expect(crmIds.plain.get(y.candidateCrmId)).toBe(crmIds.explained.get(x.candidateCrmId));
      });
      const recorded = new Set(pa.map((x) => x.crmId));
      for (const { a, b } of answers) {
        const { crmId: _a, explanation: ea, ...restA } = a;
        const { crmId: _b, explanation: eb, ...restB } = b;
        expect(restB).toEqual(restA);
        expect(crmIds.plain.get(b.crmId as number)).toBe(crmIds.explained.get(a.crmId as number));
        const { fields: fa, nearest: na, ...scoredA } = ea;
        const { fields: fb, nearest: nb, ...scoredB } = eb;
        expect(scoredB).toEqual(scoredA);
        expect(nb?.score).toEqual(na?.score);
        expect(nb === null ? null : crmIds.plain.get(nb.crmId)).toBe(na === null ? null : crmIds.explained.get(na.crmId));
        expect(fb).toEqual(a.status === 'UnmatchedStored' && recorded.has(a.crmId as number) ? fa : []);
      }
    } finally {
      await crm.close();
    }
  }, 120_000);
});

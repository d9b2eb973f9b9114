/**
 * The store-then-send check of the probe tests (same-person-written-differently.test.ts,
 * different-people.test.ts): a fresh in-memory CRM with one tenant for each test (vitest hooks
 * registered by {@link pairProbe}), a first request stored by findOrCreate, then a second sent.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { Crm, type CallContext } from '../../src/crm/index.js';

export type Body = Record<string, unknown>;

export interface PairProbe {
  /** The test's CRM and call context. */
  readonly crm: () => Crm;
  readonly ctx: () => CallContext;
  /** Stores `first`, sends `second`: true when the second was matched to the first. */
  readonly secondMatches: (first: Body, second: Body) => Promise<boolean>;
  /** Closes the test's CRM and opens another, empty one (several probes in one test). */
  readonly reopen: () => Promise<void>;
}

export function pairProbe(): PairProbe {
  let crm: Crm;
  let ctx: CallContext;
  const open = async (): Promise<void> => {
    crm = await Crm.open({ db: ':memory:' });
    ctx = { tenantId: (await crm.createTenant('probe')).id, context: 'campaign' };
  };
  beforeEach(open);
  afterEach(async () => crm.close());
  return {
    crm: () => crm,
    ctx: () => ctx,
    secondMatches: async (first, second) => {
      const a = await crm.findOrCreate(ctx, first);
      expect(a.status).toBe('UnmatchedStored');
      const b = await crm.findOrCreate(ctx, second);
      return b.status === 'Matched' && b.crmId === a.crmId;
    },
    reopen: async () => {
      await crm.close();
      await open();
    },
  };
}

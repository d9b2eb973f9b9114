/** The people and pair the review queue tests share (review.test.ts, test/cli/review-command.test.ts). */
import { expect } from 'vitest';
import type { Crm, CallContext, MatchOutcome } from '../../src/crm/index.js';

/** Stored first; the near one is a Possible for it (same names, a phone one digit off, no email). */
export const KATHERINE = {
  firstName: 'Katherine',
  lastName: 'Johnson',
  phones: [{ phoneNumber: '2024291000' }],
  emails: [{ email: 'kj@example.org' }],
  addresses: [{ addressLine1: '12 Main St', zipOrPostalCode: '20001' }],
  identifiers: [{ type: 'dwid', externalId: 'K-1' }],
};
export const NEAR = {
  firstName: 'Katherine',
  lastName: 'Johnson',
  phones: [{ phoneNumber: '2024291001' }],
  sex: 'F',
  addresses: [{ addressLine1: '40 Oak Ave', zipOrPostalCode: '20001' }],
  identifiers: [{ type: 'dwid', externalId: 'K-2' }],
};
/** Fits both: the stored one's email and the near one's phone. */
export const BOTH = { firstName: 'Katherine', lastName: 'Johnson', emails: [{ email: 'kj@example.org' }], phones: [{ phoneNumber: '2024291001' }] };

/** Near NEAR (its phone) but of the other sex: at most a Possible for it. */
export const OTHER_SEX = { firstName: 'Katherine', lastName: 'Johnson', phones: [{ phoneNumber: '2024291001' }], sex: 'M' };

/** Creates KATHERINE, then NEAR next to her: the pair's id and both crmIds. */
export async function makePair(crm: Crm, ctx: CallContext): Promise<{ id: number; older: number; newer: number; outcome: MatchOutcome }> {
  const first = await crm.findOrCreate(ctx, KATHERINE);
  const outcome = await crm.findOrCreate(ctx, NEAR);
  expect(outcome).toMatchObject({ status: 'UnmatchedStored', explanation: { nearest: { crmId: first.crmId } } });
  const listed = await crm.listPossibleMatches(ctx, 'open', new Set(), 0, 1);
  const item = listed.items[0];
  if (item === undefined) throw new Error('no pair recorded');
  return { id: item.possibleMatchId, older: first.crmId as number, newer: outcome.crmId as number, outcome };
}

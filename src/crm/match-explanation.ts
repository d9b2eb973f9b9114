/**
 * When a match's per-field explanation is built. Explaining scores the best pair a second time,
 * field by field, and the API never sends the fields: find leaves them out, and findOrCreate
 * needs them only for a pair it records for review (review.ts: a person created next to a
 * `Possible` one). Diagnostics ask for them always (Crm.find and Crm.findOrCreate `explain`).
 */
import type { ContactIndex, FindOptions, MatchResult, NormalizedContact } from '../engine/index.js';

/** true: always; false: never; 'possible': only for a `Possible` result (what the review queue records). */
export type Explain = boolean | 'possible';

/**
 * The engine's explanation of a `Possible` result, found without one (`explain` 'possible'):
 * the same fields the engine gives a Possible it explains (the request against the record it
 * is near, scored as the find scored). Call it before the index changes (a write moves the
 * term frequencies the weights are read from). Other results are answered unchanged.
 */
export function explainPossible(
  index: ContactIndex,
  q: NormalizedContact,
  result: MatchResult,
  options: Pick<FindOptions, 'strict' | 'organization'>,
): MatchResult {
  if (result.decision !== 'Possible' || result.id === null) return result;
  return { ...result, explanation: index.explain(q, result.id, index.scoreContext(options)) };
}

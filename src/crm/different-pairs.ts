/**
 * Pairs of people a reviewer decided are different people (POST /possibleMatches/{id}
 * `different`, review.ts), as a scope holds them in memory (loaded with the index, followed
 * through other processes' catch-up), and what such a decision changes in a match
 * ({@link judgeDifferent}). A decision outlives a merge: when one of the two people is merged
 * into another, the survivor is different from the other one ({@link DifferentPairs.merged};
 * the store's listing resolves merged crmIds the same way).
 */
import type { ContactIndex, FindOptions, MatchResult, NormalizedContact } from '../engine/index.js';

/** See the module comment: crmId -> the crmIds decided different from it, both ways. */
export class DifferentPairs {
  private readonly pairs = new Map<number, Set<number>>();

  /** Notes that `a` and `b` are different people. */
  add(a: number, b: number): void {
    if (a === b) return;
    this.side(a).add(b);
    this.side(b).add(a);
  }

  /** The person `crmId` was merged into `survivor`: its decisions now hold for the survivor. */
  merged(crmId: number, survivor: number): void {
    const others = this.pairs.get(crmId);
    if (others === undefined) return;
    this.pairs.delete(crmId);
    for (const other of others) {
      this.pairs.get(other)?.delete(crmId);
      this.add(survivor, other);
    }
  }

  /** The people decided different from `crmId`, if any. */
  of(crmId: number): ReadonlySet<number> | undefined {
    return this.pairs.get(crmId);
  }

  private side(crmId: number): Set<number> {
    let set = this.pairs.get(crmId);
    if (set === undefined) this.pairs.set(crmId, (set = new Set()));
    return set;
  }
}

/**
 * A score match of a request is not a match when the request also matches, by score, a person
 * a reviewer decided is a different person from the one chosen: the request then answers as
 * `Possible` near the chosen person (`below-threshold`, `heldBack` saying why), so a request
 * that fits two people known to be different never writes onto either. Only a chosen person
 * with such a decision costs a second look at the candidates (`options`: the find's own, so
 * database retrieval ranks the same candidates it chose).
 */
export function judgeDifferent(index: ContactIndex, different: DifferentPairs, q: NormalizedContact, result: MatchResult, options: FindOptions): MatchResult {
  if (result.decision !== 'Matched' || result.reason !== 'score' || result.id === null) return result;
  const others = different.of(result.id);
  if (others === undefined) return result;
  const chosen = result.id;
  const rival = index.findAll(q, options).find((c) => c.id !== chosen && c.decision === 'Matched' && others.has(c.id));
  if (rival === undefined) return result;
  return {
    ...result,
    decision: 'Possible',
    reason: 'below-threshold',
    heldBack: `a reviewer decided it is not the same person as crmId ${rival.id}, which the request matches too`,
  };
}

/**
 * What keeps two clusters apart when a Matched pair would join them (clusters.ts): a conflict
 * between a row of each (conflicts.ts) that the model did not match directly; a row without a
 * name, or without a surname, that would bridge two people; and too little support from the
 * other pairs compared between the two clusters (MIN_CROSS_SUPPORT).
 */
import { probabilityOfBits } from '../engine/index.js';
import { conflictOf, FIRST_NAMES_DIFFER, firstNamesAlike, surnamesDiffer, type ConflictKinds, type Signature } from './conflicts.js';

/** Largest member lists compared in full when two clusters would join; beyond it, this many of each. */
export const CONFLICT_CHECK_MEMBERS = 64;

/**
 * Two clusters join only where the pairs compared between them say "same person", on average
 * over those pairs, with at least this posterior probability (a pair scored below the review
 * threshold counts as 0; pairs blocking never compared do not count). A chain of matches
 * through namesakes ("John Smith" of Leeds, then another, then a third) leaves pairs that were
 * compared and scored against each other. 0.25: on the generated files at data seeds 1 and 2,
 * 0.3 and 0.35 gained more on the historical ones and lost up to 0.008 on others
 * (bench/README, sixth session).
 */
export const MIN_CROSS_SUPPORT = 0.25;

/** The key of the pair of rows x and y among `size` rows: lo * size + hi. */
export function pairKey(x: number, y: number, size: number): number {
  return Math.min(x, y) * size + Math.max(x, y);
}

/** The members of a cluster that a join checks: all, or the first CONFLICT_CHECK_MEMBERS. */
export function checkedMembers(members: readonly number[]): readonly number[] {
  return members.length > CONFLICT_CHECK_MEMBERS ? members.slice(0, CONFLICT_CHECK_MEMBERS) : members;
}

/** The reason a join is refused for {@link MIN_CROSS_SUPPORT}. */
export const WEAK_SUPPORT = 'the pairs compared between the two clusters seldom read as one person';

/**
 * Why the Matched pair (a, b) cannot join the clusters of `ma` and `mb`, or null: a row
 * without a name between two named clusters; a row without a surname between two surnames
 * (surnameBridge); a conflict between a row of each of `xs` and `ys` (their checkedMembers)
 * that the model did not match directly (`direct`: pairKey), first names that differ excepted
 * when the pair joining them gives one given name.
 */
export function conflictRefusal(
  size: number,
  a: number,
  b: number,
  ma: readonly number[],
  mb: readonly number[],
  xs: readonly number[],
  ys: readonly number[],
  signatures: readonly (Signature | undefined)[],
  named: Uint8Array,
  hasNamed: (list: readonly number[]) => boolean,
  direct: ReadonlySet<number>,
  kinds: ConflictKinds,
): string | null {
  if ((named[a] === 0 || named[b] === 0) && hasNamed(ma) && hasNamed(mb)) return 'a row without a name would join two named clusters';
  const bridge = surnameBridge(size, a, b, xs, ys, signatures, direct);
  if (bridge !== null) return bridge;
  // The pair being joined names one person by one given name: first names that differ
  // elsewhere in the two clusters are that person's other names, not two people (read when
  // such a conflict comes up).
  let oneFirstName: boolean | null = null;
  for (const x of xs) {
    const sx = signatures[x];
    if (sx === undefined) continue;
    for (const y of ys) {
      const sy = signatures[y];
      if (sy === undefined) continue;
      // Two rows the model matched directly may differ on a field (a replaced value); only
      // rows joined through a third must not conflict.
      if (direct.has(pairKey(x, y, size))) continue;
      const why = conflictOf(sx, sy, kinds);
      if (why === null) continue;
      if (why === FIRST_NAMES_DIFFER) {
        if (oneFirstName === null) {
          const sa = signatures[a];
          const sb = signatures[b];
          oneFirstName = sa !== undefined && sb !== undefined && firstNamesAlike(sa, sb);
        }
        if (oneFirstName) continue;
      }
      return `rows ${x + 1} and ${y + 1}: ${why}`;
    }
  }
  return null;
}

/**
 * The mean posterior probability of the pairs compared between two clusters' checked members
 * (checkedMembers): a pair's from its score when it scored at least the
 * review threshold, else 0; 1 when no pair was compared. The scores read are those of
 * pairs between rows of Matched pairs, the only rows clusters have.
 */
export function crossSupport(
  size: number,
  pairs: { readonly from: readonly number[]; readonly to: readonly number[] },
  near: { readonly from: readonly number[]; readonly to: readonly number[]; readonly score: readonly number[] },
  compared: (x: number, y: number) => boolean,
): (xs: readonly number[], ys: readonly number[]) => number {
  const inPairs = new Uint8Array(size);
  for (const r of pairs.from) inPairs[r] = 1;
  for (const r of pairs.to) inPairs[r] = 1;
  const posterior = new Map<number, number>();
  const { from, to, score } = near;
  for (let k = 0; k < from.length; k++) {
    const x = from[k] as number;
    const y = to[k] as number;
    if (inPairs[x] === 1 && inPairs[y] === 1) posterior.set(pairKey(x, y, size), probabilityOfBits(score[k] as number));
  }
  return (xs, ys) => {
    let n = 0;
    let sum = 0;
    for (const x of xs)
      for (const y of ys) {
        const p = posterior.get(pairKey(x, y, size));
        if (p !== undefined) {
          n++;
          sum += p;
        } else if (compared(x, y)) n++;
      }
    return n === 0 ? 1 : sum / n;
  };
}

/**
 * Why a pair with a row that has no surname cannot join two clusters, or null: a row of each
 * holds a surname and the two share nothing (surnamesDiffer), and the model did not match
 * those two rows itself. The row without a surname ("Mary", Leeds) may be either person's
 * ("Mary Smith", "Mary Jones"): it says nothing of the two being one. A surname that
 * changed (marriage) joins through a pair the model matched with both surnames.
 */
function surnameBridge(
  size: number,
  a: number,
  b: number,
  xs: readonly number[],
  ys: readonly number[],
  signatures: readonly (Signature | undefined)[],
  direct: ReadonlySet<number>,
): string | null {
  if (signatures[a]?.last !== null && signatures[b]?.last !== null) return null;
  for (const x of xs) {
    const sx = signatures[x];
    if (sx === undefined || sx.last === null) continue;
    for (const y of ys) {
      const sy = signatures[y];
      // One surname written alike needs no comparison (most rows of a cluster).
      if (sy === undefined || sy.last === null || sy.last === sx.last) continue;
      if (direct.has(pairKey(x, y, size))) continue;
      if (surnamesDiffer(sx, sy)) return `rows ${x + 1} and ${y + 1}: a row without a surname would join two surnames`;
    }
  }
  return null;
}

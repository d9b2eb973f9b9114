/**
 * What a dedupe or link writes of a row it did not match: why its Possible is not Matched
 * (the minimum combinations that did not agree, the threshold, a level that held it back).
 */
import type { GateShortfall } from '../engine/index.js';

/** "email differs" / "no phone on the other row": one field of a gate that did not agree. */
function fieldWhy(field: string, held: boolean): string {
  return held ? `${field} differs` : `no ${field} on the other row`;
}

/** "firstName+lastName+email (email differs); email (email differs)": each supplied gate and why it did not agree. */
export function formatShortfalls(shortfalls: readonly GateShortfall[]): string {
  return shortfalls
    .map((g) => `${g.gate} (${[...g.differs.map((f) => fieldWhy(f, true)), ...g.missing.map((f) => fieldWhy(f, false))].join(', ')})`)
    .join('; ');
}

/**
 * Why a row's best candidate is Possible and not Matched: its score against the match
 * threshold (`match`, bits) and, when no minimum combination agrees, which and why
 * (`shortfall`, {@link formatShortfalls}); above the threshold, else, what held it back
 * (`heldBack`: a level that allows at most a possible match, decide.ts).
 */
export function possibleNote(score: number, match: number, shortfall: string | undefined, heldBack?: string): string {
  const below = `below the match threshold (${match} bits)`;
  const why = shortfall !== undefined ? `no minimum combination agrees: ${shortfall}` : score >= match ? heldBack : undefined;
  if (why === undefined) return below;
  return score >= match ? `above the match threshold, but ${why}` : `${below}, and ${why}`;
}

/**
 * The summary line of the Possible rows that scored above the match threshold (`notes`: their
 * {@link formatShortfalls} texts): how many, and the most frequent reasons; null when none.
 * `where` says where each row's reason is written, if anywhere.
 */
export function describeAboveThreshold(notes: readonly string[], where: string | null, shown = 3): string | null {
  if (notes.length === 0) return null;
  const counts = new Map<string, number>();
  for (const n of notes) counts.set(n, (counts.get(n) ?? 0) + 1);
  const top = [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, shown)
    .map(([n, c]) => `${c} x ${n}`);
  const rows = notes.length === 1 ? '1 row scores' : `${notes.length} rows score`;
  return `  ${rows} above the match threshold but agree${notes.length === 1 ? 's' : ''} on no minimum combination${where === null ? '' : ` (${where})`}: ${top.join(' | ')}`;
}

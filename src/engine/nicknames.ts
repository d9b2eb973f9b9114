/**
 * Nickname groups: Bob = Robert, Peggy = Margaret, Bill = William, Liz = Elizabeth.
 *
 * A group is a canonical given name and its nicknames and spelling variants. Two first names
 * are nickname variants when they share a group, in either direction. A name may belong to
 * several groups ("bill": William and Robert's tables both list it).
 */
import { NICKNAME_GROUPS } from './generated/nicknames.js';

/** Name -> ids of the groups it belongs to. Build with {@link buildNicknameTable}. */
export interface NicknameTable {
  readonly groupsOf: ReadonlyMap<string, readonly number[]>;
  /** Canonical name of each group id. */
  readonly canonical: readonly string[];
}

const NO_GROUPS: readonly number[] = Object.freeze([]);

/**
 * Builds a table from groups written as "canonical variant variant ...", names already
 * folded to lower-case letters (the form of src/engine/generated/nicknames.ts).
 */
export function buildNicknameTable(groups: readonly string[]): NicknameTable {
  const groupsOf = new Map<string, number[]>();
  const canonical: string[] = [];
  for (const line of groups) {
    const names = line.split(' ').filter((n) => n.length > 0);
    const head = names[0];
    if (head === undefined) continue;
    const id = canonical.length;
    canonical.push(head);
    for (const name of new Set(names)) {
      const list = groupsOf.get(name);
      if (list) list.push(id);
      else groupsOf.set(name, [id]);
    }
  }
  for (const list of groupsOf.values()) Object.freeze(list);
  return { groupsOf, canonical: Object.freeze(canonical) };
}

/** The default table: carltonnorthern/nicknames merged with CDC phdi (see data/README.md). */
export const DEFAULT_NICKNAMES: NicknameTable = buildNicknameTable(NICKNAME_GROUPS);

/** Group ids of a folded, compact first name; empty when it is in no group. */
export function nicknameGroupsOf(table: NicknameTable, name: string): readonly number[] {
  return table.groupsOf.get(name) ?? NO_GROUPS;
}

/** True when two different folded first names share a nickname group. Symmetric. */
export function areNicknameVariants(table: NicknameTable, a: string, b: string): boolean {
  if (a === b) return false;
  const ga = table.groupsOf.get(a);
  if (!ga) return false;
  const gb = table.groupsOf.get(b);
  if (!gb) return false;
  for (const x of ga) for (const y of gb) if (x === y) return true;
  return false;
}

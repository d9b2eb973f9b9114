/**
 * Nickname groups: Bob = Robert, Peggy = Margaret, Bill = William, Liz = Elizabeth.
 *
 * A group is a canonical given name and its nicknames and spelling variants. A name may belong
 * to several groups ("bill": William and Robert's tables both list it). Two first names are
 * nickname variants when one is a group's name and the other its member, or both are members
 * that are its shorter forms or plain nicknames (see variantRelations): sharing a group is not
 * enough, since the merged lists also hold reverse entries ("bill": Robert, William, Fred) and
 * compound names ("marianna": Maria, Ann) whose members are different names. Blocking keys
 * and "is a known given name" read the groups themselves.
 */
import { NICKNAME_GROUPS } from './generated/nicknames.js';

/** Name -> ids of the groups it belongs to. Build with {@link buildNicknameTable}. */
export interface NicknameTable {
  readonly groupsOf: ReadonlyMap<string, readonly number[]>;
  /** The nickname relation (see {@link areNicknameVariants}). */
  readonly variants: NicknameRelation;
  /** Canonical name of each group id. */
  readonly canonical: readonly string[];
}

/**
 * Which names are nickname variants of each other, as classes: two different names are when
 * they share a class, unless the pair is excluded in the group that class comes from.
 */
export interface NicknameRelation {
  /** Name -> its number (the key of {@link classesOf} and of exclusions). */
  readonly nameIds: ReadonlyMap<string, number>;
  /** Classes of each name, by number, ascending. */
  readonly classesOf: readonly (readonly number[])[];
  /** Group (line) each class comes from. */
  readonly classGroup: Int32Array;
  /** Pairs of names (`low * names + high`) -> the groups in which they are no siblings. */
  readonly excluded: ReadonlyMap<number, readonly number[]>;
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
  // The relation is built on first use (about 5 ms): commands that compare no first names skip it.
  let variants: NicknameRelation | null = null;
  return {
    groupsOf,
    get variants(): NicknameRelation {
      return (variants ??= variantRelations(groups));
    },
    canonical: Object.freeze(canonical),
  };
}

/**
 * The nickname relation. A group's name and each of its members are variants of each other,
 * and so are two members that are both its shorter forms (Maggie / Peggy: Margaret) or both
 * plain nicknames (no group of their own), unless they are the two halves of a compound
 * name. The merged source lists also hold reverse and compound entries ("bill": Robert,
 * William and Fred; "anna": Christina, Hannah and Susanna; "marianna": Maria and Ann) whose
 * members are different people's names.
 */
function variantRelations(groups: readonly string[]): NicknameRelation {
  const lines: string[][] = [];
  for (const line of groups) {
    const names = [...new Set(line.split(' ').filter((n) => n.length > 0))];
    if (names.length > 0) lines.push(names);
  }
  const heads = new Set<string>();
  const nameIds = new Map<string, number>();
  for (const names of lines) {
    if (names[0] !== undefined) heads.add(names[0]);
    for (const name of names) if (!nameIds.has(name)) nameIds.set(name, nameIds.size);
  }
  const n = nameIds.size;
  const classesOf: number[][] = Array.from({ length: n }, () => []);
  const classGroup: number[] = [];
  const excluded = new Map<number, number[]>();
  const join = (names: readonly string[], group: number): void => {
    const id = classGroup.length;
    classGroup.push(group);
    for (const name of names) (classesOf[nameIds.get(name) as number] as number[]).push(id);
  };
  lines.forEach((names, group) => {
    const head = names[0];
    if (head === undefined) return;
    const shorter: string[] = [head];
    const plain: string[] = [head];
    for (let i = 1; i < names.length; i++) {
      const m = names[i] as string;
      const isShorter = m.length <= head.length;
      const isPlain = !heads.has(m);
      if (isShorter) shorter.push(m);
      if (isPlain) plain.push(m);
      if (!isShorter && !isPlain) join([head, m], group);
      // The halves of a compound name: the name starts with one and goes on with the other.
      if (!head.startsWith(m)) continue;
      for (let j = 1; j < names.length; j++) {
        const other = names[j] as string;
        if (j === i || head.indexOf(other, m.length - 1) < 0) continue;
        const x = nameIds.get(m) as number;
        const y = nameIds.get(other) as number;
        const key = x < y ? x * n + y : y * n + x;
        const list = excluded.get(key);
        if (list) list.push(group);
        else excluded.set(key, [group]);
      }
    }
    if (shorter.length > 1) join(shorter, group);
    if (plain.length > 1) join(plain, group);
  });
  return { nameIds, classesOf, classGroup: Int32Array.from(classGroup), excluded };
}

/** Number of a name in the table's nickname relation (-1: in no group). */
export function variantIdOf(table: NicknameTable, name: string): number {
  return table.variants.nameIds.get(name) ?? -1;
}

/** True when two name numbers ({@link variantIdOf}) are nickname variants. */
export function variantIds(table: NicknameTable, a: number, b: number): boolean {
  if (a < 0 || b < 0 || a === b) return false;
  const r = table.variants;
  const ca = r.classesOf[a] as readonly number[];
  const cb = r.classesOf[b] as readonly number[];
  const n = r.nameIds.size;
  // Read only once a class is shared (most pairs of names share none).
  let exclusions: readonly number[] | undefined | null = null;
  // Both lists ascend: walk them together.
  for (let i = 0, j = 0; i < ca.length && j < cb.length;) {
    const x = ca[i] as number;
    const y = cb[j] as number;
    if (x < y) i++;
    else if (y < x) j++;
    else {
      if (exclusions === null) exclusions = r.excluded.get(a < b ? a * n + b : b * n + a);
      if (exclusions === undefined || !exclusions.includes(r.classGroup[x] as number)) return true;
      i++;
      j++;
    }
  }
  return false;
}

/** The default table: carltonnorthern/nicknames merged with CDC phdi (see data/README.md). */
export const DEFAULT_NICKNAMES: NicknameTable = buildNicknameTable(NICKNAME_GROUPS);

/** Group ids of a folded, compact first name; empty when it is in no group. */
export function nicknameGroupsOf(table: NicknameTable, name: string): readonly number[] {
  return table.groupsOf.get(name) ?? NO_GROUPS;
}

/** True when two different folded first names are nickname variants (see {@link variantRelations}). Symmetric. */
export function areNicknameVariants(table: NicknameTable, a: string, b: string): boolean {
  return a !== b && variantIds(table, variantIdOf(table, a), variantIdOf(table, b));
}

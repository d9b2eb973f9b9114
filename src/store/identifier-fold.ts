/**
 * How the store compares identifier types and values (its `type_key` and `external_id_key`
 * columns): trimmed and lower-cased (interface.md 1.6: external identifiers are
 * case-insensitive). The same fold as the engine's `foldIdentifier`, written again because the
 * store imports no code of the layers above or beside it; test/store/identifier-fold.test.ts
 * keeps the two equal.
 */
export function foldIdentifier(text: string): string {
  return text.trim().toLowerCase();
}

/**
 * The matching model a tenant's context scores with: the shipped CRM model, or one trained
 * on the context's own people (`matchbook tenants train`, model-training.ts) and stored
 * versioned in the store's `tenant_models` (the highest version is in force; a version
 * without a document is a return to the shipped model).
 *
 * A trained model changes only the m and u probabilities (so the weights) of the levels the
 * shipped model has. Everything else is the shipped model's, read when the model is put in
 * force, so an engine upgrade that adds a level, a veto or a cap applies to trained tenants
 * too: the thresholds, vetoes, caps, gates and levels of the CRM profile stay.
 */
import { DEFAULT_MODEL, parseModel, type ComparisonField, type FieldModel, type LevelName, type LevelSpec, type MatchModel } from '../engine/index.js';
import type { ModelRow } from '../store/index.js';

/** The model the CRM scores with until a context is trained (and after `--reset`). */
export const SHIPPED_CRM_MODEL: MatchModel = DEFAULT_MODEL;

/** Which model a context scores with (`GET /apiKeyProfiles`, `matchbook tenants list`). */
export interface ModelInForce {
  /** `shipped`: the model Matchbook ships; `trained`: one estimated from the context's people. */
  readonly source: 'shipped' | 'trained';
  /** The stored version in force; null when the context never had a model stored. */
  readonly version: number | null;
  /** When that version was stored (ISO 8601 UTC); null with `version`. */
  readonly since: string | null;
}

/** A context's model: what it scores with and what to say about it. */
export interface ContextModel {
  readonly model: MatchModel;
  readonly inForce: ModelInForce;
}

/** The shipped model, never trained. */
export const SHIPPED: ContextModel = { model: SHIPPED_CRM_MODEL, inForce: { source: 'shipped', version: null, since: null } };

/**
 * `shipped` with the m and u of `trained` wherever both have the level: the other
 * properties of each level (veto, cap, label) and of the model (thresholds, groups, fuzzy
 * similarities, address floor) are the shipped model's.
 */
export function withTrainedWeights(shipped: MatchModel, trained: MatchModel): MatchModel {
  const fields: Partial<Record<ComparisonField, FieldModel>> = {};
  for (const [field, levels] of Object.entries(shipped.fields) as [ComparisonField, FieldModel][]) {
    const learned = trained.fields[field];
    const out: Partial<Record<LevelName, LevelSpec>> = {};
    for (const [level, spec] of Object.entries(levels) as [LevelName, LevelSpec][]) {
      const t = learned?.[level];
      out[level] = t === undefined ? spec : { ...spec, m: t.m, u: t.u };
    }
    fields[field] = out;
  }
  return { ...shipped, fields };
}

/**
 * The model of a stored version (null: none stored). A document that no longer parses
 * (hand-edited in the database) leaves the context on the shipped model rather than failing
 * every request: {@link ModelInForce.source} then says `shipped`.
 */
export function contextModelOf(row: ModelRow | null): ContextModel {
  if (row === null) return SHIPPED;
  const since = { version: row.version, since: row.createdAt };
  if (row.json === null) return { model: SHIPPED_CRM_MODEL, inForce: { source: 'shipped', ...since } };
  const parsed = parseModel(row.json);
  if ('error' in parsed) return { model: SHIPPED_CRM_MODEL, inForce: { source: 'shipped', ...since } };
  return { model: withTrainedWeights(SHIPPED_CRM_MODEL, parsed), inForce: { source: 'trained', ...since } };
}

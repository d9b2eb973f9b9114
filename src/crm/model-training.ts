/**
 * Training a context's matching model on its own people (`matchbook tenants train NAME`),
 * in two steps so that no decision changes silently:
 *
 * 1. {@link ModelTraining.plan} reads the context's people (that tenant and context only,
 *    writing nothing), estimates m and u with the engine's EM (estimate.ts: u from random
 *    pairs and value frequencies, m by expectation-maximisation over pairs agreeing on a
 *    training rule; a comparison whose estimate is degenerate keeps the shipped m, and the
 *    notes say so), puts them on the shipped CRM model (tenant-model.ts: thresholds, vetoes,
 *    caps and gates stay), and counts the stored pairs whose decision would change: each
 *    person sent again against the people stored before it that blocking finds, decided
 *    under the model in force and under the new one. `reset` plans the return to the
 *    shipped model the same way.
 * 2. {@link ModelTraining.save} stores the plan's model as the context's next version and
 *    invalidates the admin caches: this process scores with it at once, other processes
 *    (the running server, when the CLI trained) within 250 ms, without a restart.
 */
import {
  estimateParameters,
  levelWeight,
  serializeModel,
  type ComparisonField,
  type ContactIndex,
  type Decision,
  type EstimationReport,
  type FieldModel,
  type LevelName,
  type LevelSpec,
  type MatchModel,
  type NormalizedContact,
  type RecordSource,
} from '../engine/index.js';
import type { ContextName, Scope, Store } from '../store/index.js';
import type { AdminCache } from './admin-cache.js';
import type { SecondClock } from './clock.js';
import { CONTEXTS } from './crm-types.js';
import { CrmError } from './errors.js';
import { loadScopeIndex } from './scope-index.js';
import type { Scopes } from './scopes.js';
import { DEFAULT_CONTEXT_SETTINGS, parseStoredContextSettings } from './settings.js';
import { contextModelOf, SHIPPED_CRM_MODEL, withTrainedWeights, type ModelInForce } from './tenant-model.js';

/** Fewest people a context needs to be trained on. */
export const MIN_TRAINING_PEOPLE = 50;
/** Seed of the estimation's sampling (training is deterministic). */
export const TRAINING_SEED = 42;
/** A level's weight change smaller than this (bits) is not listed. */
const LISTED_WEIGHT_CHANGE = 0.05;

/** Where training reports its progress (the CLI's progress bar). */
export interface TrainingProgress {
  /** A phase starts; `total` units when known. */
  start(phase: string, total: number | null, unit?: string): void;
  update(done: number): void;
}

/** Options of {@link ModelTraining.plan}. */
export interface TrainingOptions {
  /** Default `voterfile`. */
  readonly context?: string;
  /** Plan the return to the shipped model instead of training. */
  readonly reset?: boolean;
  readonly progress?: TrainingProgress;
}

/** How the decisions on stored pairs would change. */
export interface DecisionChanges {
  /** Candidate pairs compared: each person against the people stored before it that blocking finds. */
  readonly pairs: number;
  /** Pairs whose decision changes, by transition ("Matched->Possible"); only those that occur. */
  readonly transitions: Readonly<Record<string, number>>;
  /** Sum of {@link transitions}. */
  readonly changed: number;
}

/** A level whose weight changes. */
export interface WeightChange {
  readonly field: string;
  readonly level: string;
  /** Weight in bits under the model in force, and under the new one. */
  readonly before: number;
  readonly after: number;
}

/** What {@link ModelTraining.plan} found; {@link ModelTraining.save} stores it. */
export interface ModelPlan {
  readonly tenant: string;
  readonly scope: Scope;
  /** People the model was trained on (or whose pairs were compared, for a reset). */
  readonly people: number;
  /** The model in force when planned. */
  readonly current: ModelInForce;
  /** The model document to store, or null: back to the shipped model. */
  readonly document: string | null;
  /** How estimation went; null for a reset. */
  readonly estimation: EstimationReport | null;
  readonly changes: DecisionChanges;
  readonly weights: readonly WeightChange[];
  /** Nothing would change: a reset of a context already on the shipped model. */
  readonly unchanged: boolean;
}

/** See the module comment. */
export class ModelTraining {
  constructor(
    private readonly store: Store,
    private readonly cache: AdminCache,
    private readonly scopes: Scopes,
    private readonly clock: SecondClock,
  ) {}

  /** Plans training (or a reset) of one context of a tenant; stores nothing. See the module comment. */
  async plan(tenantName: string, options: TrainingOptions = {}): Promise<ModelPlan> {
    const tenant = typeof tenantName === 'string' ? await this.store.getTenantByName(tenantName.trim()) : null;
    if (tenant === null) throw new CrmError('NOT_FOUND', [{ property: 'tenant', text: `No tenant named "${tenantName}".` }]);
    const context = contextOf(options.context);
    const scope: Scope = { tenantId: tenant.id, context };
    const current = contextModelOf(await this.store.getModel(scope));
    if (options.reset === true && current.inForce.source === 'shipped') {
      return {
        tenant: tenant.name,
        scope,
        people: 0,
        current: current.inForce,
        document: null,
        estimation: null,
        changes: { pairs: 0, transitions: {}, changed: 0 },
        weights: [],
        unchanged: true,
      };
    }
    const people = await this.store.countPeople(scope);
    if (options.reset !== true && people < MIN_TRAINING_PEOPLE) {
      throw new CrmError('INVALID_PARAMETER', [
        {
          property: 'tenant',
          text: `Tenant "${tenant.name}" has ${people} people in ${context}; training needs at least ${MIN_TRAINING_PEOPLE}.`,
          hint: 'Until then the context scores with the shipped model.',
        },
      ]);
    }
    const settingsRow = await this.store.getSettings(scope);
    const settings = settingsRow === null ? DEFAULT_CONTEXT_SETTINGS : parseStoredContextSettings(context, settingsRow.json);
    const progress = options.progress;
    progress?.start(`reading ${tenant.name} ${context}`, people, 'people');
    const ids: number[] = [];
    // Estimation starts from (and falls back to) the shipped model, whatever is in force.
    const { index } = await loadScopeIndex(this.store, scope, settings.defaultCountry, this.scopes.batchSize, {
      model: SHIPPED_CRM_MODEL,
      storeNormalizations: false,
      onRecord: (crmId) => ids.push(crmId),
      onBatch: (n) => progress?.update(n),
    });
    const order = [...new Set(ids)].filter((id) => index.has(id)).sort((a, b) => a - b);
    let next: MatchModel = SHIPPED_CRM_MODEL;
    let estimation: EstimationReport | null = null;
    if (options.reset !== true) {
      progress?.start('estimating m and u', null);
      const records = order.map((id) => index.get(id) as NormalizedContact);
      const source: RecordSource = { size: records.length, get: (i) => records[i] as NormalizedContact };
      const estimated = estimateParameters({ left: source }, index.scoreContext(), { seed: TRAINING_SEED });
      estimation = estimated.report;
      next = { ...withTrainedWeights(SHIPPED_CRM_MODEL, estimated.model), sources: estimated.report.sources, notes: estimated.report.notes };
    }
    const strict = settings.disablePartialMatching;
    index.setModel(current.model);
    const before = decisions(index, order, strict, progress, 'deciding stored pairs under the model in force');
    index.setModel(next);
    const after = decisions(index, order, strict, progress, 'deciding stored pairs under the new model');
    const document = options.reset === true ? null : serializeModel(next, `Trained on ${order.length} people of tenant "${tenant.name}", ${context}.`);
    return {
      tenant: tenant.name,
      scope,
      people: order.length,
      current: current.inForce,
      document,
      estimation,
      changes: compareDecisions(before, after),
      weights: weightChanges(current.model, next),
      unchanged: false,
    };
  }

  /**
   * Stores a plan's model as the context's next version (CrmError CONFLICT when another
   * version was stored since it was planned) and puts it in force; answers the model in
   * force now.
   */
  async save(plan: ModelPlan): Promise<ModelInForce> {
    const now = contextModelOf(await this.store.getModel(plan.scope)).inForce;
    if (now.version !== plan.current.version) {
      throw new CrmError(
        'CONFLICT',
        `The model of tenant "${plan.tenant}" ${plan.scope.context} changed while training (version ${now.version ?? 'none'} now, ${plan.current.version ?? 'none'} then): train again.`,
      );
    }
    const createdAt = this.clock.now();
    const version = await this.store.addModelVersion(plan.scope, plan.document, createdAt);
    this.cache.invalidate();
    if (this.scopes.has(plan.scope)) await this.scopes.get(plan.scope);
    return { source: plan.document === null ? 'shipped' : 'trained', version, since: createdAt };
  }
}

function contextOf(value: string | undefined): ContextName {
  if (value === undefined) return 'voterfile';
  const context = CONTEXTS.find((c) => c === value.trim().toLowerCase());
  if (context === undefined) {
    throw new CrmError('INVALID_PARAMETER', [{ property: 'context', text: `"${value}" is not a context.`, hint: `Use one of: ${CONTEXTS.join(', ')}.` }]);
  }
  return context;
}

/**
 * The decisions on stored pairs under the index's model: each person (ascending crmId)
 * against the earlier people among its candidates, keyed "later:earlier"; only pairs
 * decided Matched or Possible are listed (the others are Unmatched).
 */
function decisions(
  index: ContactIndex,
  order: readonly number[],
  strict: boolean,
  progress: TrainingProgress | undefined,
  phase: string,
): { decided: Map<string, Decision>; pairs: number } {
  progress?.start(phase, order.length, 'people');
  const decided = new Map<string, Decision>();
  let pairs = 0;
  order.forEach((id, k) => {
    const q = index.get(id) as NormalizedContact;
    for (const other of index.candidatesOf(q, id)) if (other < id) pairs++;
    for (const c of index.findAll(q, { excludeId: id, strict, explain: false })) {
      if (c.id < id && c.decision !== 'Unmatched') decided.set(`${id}:${c.id}`, c.decision);
    }
    if ((k & 255) === 255) progress?.update(k + 1);
  });
  progress?.update(order.length);
  return { decided, pairs };
}

function compareDecisions(before: { decided: Map<string, Decision>; pairs: number }, after: { decided: Map<string, Decision> }): DecisionChanges {
  const transitions: Record<string, number> = {};
  const count = (from: Decision, to: Decision): void => {
    if (from !== to) transitions[`${from}->${to}`] = (transitions[`${from}->${to}`] ?? 0) + 1;
  };
  for (const [pair, was] of before.decided) count(was, after.decided.get(pair) ?? 'Unmatched');
  for (const [pair, now] of after.decided) if (!before.decided.has(pair)) count('Unmatched', now);
  const changed = Object.values(transitions).reduce((a, b) => a + b, 0);
  return { pairs: before.pairs, transitions, changed };
}

function weightChanges(from: MatchModel, to: MatchModel): WeightChange[] {
  const out: WeightChange[] = [];
  for (const [field, levels] of Object.entries(to.fields) as [ComparisonField, FieldModel][]) {
    for (const [level, spec] of Object.entries(levels) as [LevelName, LevelSpec][]) {
      const old = from.fields[field]?.[level];
      if (old === undefined) continue;
      const before = levelWeight(old);
      const after = levelWeight(spec);
      if (Math.abs(after - before) >= LISTED_WEIGHT_CHANGE) out.push({ field, level, before, after });
    }
  }
  return out;
}

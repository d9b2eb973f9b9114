/**
 * A model as a JSON document (`matchbook dedupe --save-model`, `--model`; a tenant's trained
 * model): the levels of each field with their m and u, the attribute columns, the prior,
 * the thresholds, where each field's figures came from. Parsing validates everything a
 * scorer relies on and names the first thing wrong, so a hand-edited file fails clearly.
 */
import { COMPARISON_FIELDS, COMPARISONS, LEVEL_NAMES, type ComparisonField, type LevelName } from './comparisons.js';
import type { AttributeModel, FieldModel, LevelSpec, MatchModel, ParameterSource, Thresholds } from './model.js';
import { GATE_FIELD_BITS, type GateField } from './gates.js';

/** The document's format tag and version. */
export const MODEL_FORMAT = 'matchbook-model';
export const MODEL_VERSION = 1;

/** The JSON text of a model (two-space indented, stable key order). */
export function serializeModel(model: MatchModel, description?: string): string {
  const doc: Record<string, unknown> = { format: MODEL_FORMAT, version: MODEL_VERSION };
  if (description !== undefined) doc['description'] = description;
  if (model.prior !== undefined) doc['prior'] = model.prior;
  if (model.thresholds !== undefined) doc['thresholds'] = model.thresholds;
  doc['fuzzyHigh'] = model.fuzzyHigh;
  doc['fuzzyLow'] = model.fuzzyLow;
  doc['addressFloor'] = model.addressFloor;
  const fields: Record<string, unknown> = {};
  for (const field of COMPARISON_FIELDS) {
    const levels = model.fields[field];
    if (levels !== undefined) fields[field] = levelsJson(levels);
  }
  doc['fields'] = fields;
  doc['attributes'] = (model.attributes ?? []).map((a) => ({ name: a.name, levels: levelsJson(a.levels) }));
  if (model.sources !== undefined) doc['sources'] = model.sources;
  if (model.notes !== undefined && model.notes.length > 0) doc['notes'] = model.notes;
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function levelsJson(levels: FieldModel): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const level of LEVEL_NAMES) {
    const spec = levels[level];
    if (spec !== undefined) out[level] = { ...spec, weight: Number(Math.log2(spec.m / spec.u).toFixed(3)) };
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isProbability = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= 1;

function parseLevels(value: unknown, where: string, allowed: ReadonlySet<LevelName> | null): FieldModel | string {
  if (!isObject(value)) return `${where}: expected an object of levels`;
  const out: Partial<Record<LevelName, LevelSpec>> = {};
  for (const [level, spec] of Object.entries(value)) {
    if (!(LEVEL_NAMES as readonly string[]).includes(level) || level === 'missing')
      return `${where}.${level}: unknown level; levels: ${LEVEL_NAMES.filter((l) => l !== 'missing').join(', ')}`;
    if (allowed !== null && !allowed.has(level as LevelName)) return `${where}.${level}: this comparison has no such level`;
    if (!isObject(spec)) return `${where}.${level}: expected {"m": p, "u": p}`;
    if (!isProbability(spec['m'])) return `${where}.${level}.m: expected a probability in (0, 1]`;
    if (!isProbability(spec['u'])) return `${where}.${level}.u: expected a probability in (0, 1]`;
    const parsed: { -readonly [K in keyof LevelSpec]: LevelSpec[K] } = { m: spec['m'], u: spec['u'] };
    if (typeof spec['label'] === 'string') parsed.label = spec['label'];
    if (typeof spec['agrees'] === 'boolean') parsed.agrees = spec['agrees'];
    if (spec['veto'] === true) parsed.veto = true;
    const unless = spec['vetoUnless'];
    if (unless !== undefined) {
      const isFields = (v: unknown): v is GateField[] => Array.isArray(v) && v.every((f) => typeof f === 'string' && f in GATE_FIELD_BITS);
      if (!isObject(unless) || !isFields(unless['all']) || !isFields(unless['any'])) {
        return `${where}.${level}.vetoUnless: expected {"all": [...], "any": [...]} of gate fields (${Object.keys(GATE_FIELD_BITS).join(', ')})`;
      }
      parsed.vetoUnless = { all: unless['all'], any: unless['any'] };
    }
    if (spec['capPossible'] === true) parsed.capPossible = true;
    for (const key of ['needsSupport', 'supportAll', 'agreesWith'] as const) {
      const fields = spec[key];
      if (fields === undefined) continue;
      if (!Array.isArray(fields) || !fields.every((f): f is GateField => typeof f === 'string' && f in GATE_FIELD_BITS)) {
        return `${where}.${level}.${key}: expected a list of gate fields (${Object.keys(GATE_FIELD_BITS).join(', ')})`;
      }
      parsed[key] = fields;
    }
    out[level as LevelName] = parsed;
  }
  if (Object.keys(out).length === 0) return `${where}: no levels`;
  return out;
}

/** Reads a model document; an error text naming the first bad property. */
export function parseModel(text: string): MatchModel | { error: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return { error: `not JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  if (!isObject(doc)) return { error: 'expected a JSON object' };
  if (doc['format'] !== MODEL_FORMAT) return { error: `format: expected "${MODEL_FORMAT}"` };
  if (doc['version'] !== MODEL_VERSION) return { error: `version: expected ${MODEL_VERSION}` };
  const num = (key: string, check: (n: number) => boolean, what: string): number | { error: string } => {
    const v = doc[key];
    return typeof v === 'number' && Number.isFinite(v) && check(v) ? v : { error: `${key}: expected ${what}` };
  };
  const fuzzyHigh = num('fuzzyHigh', (n) => n > 0 && n <= 1, 'a similarity in (0, 1]');
  if (typeof fuzzyHigh === 'object') return fuzzyHigh;
  const fuzzyLow = num('fuzzyLow', (n) => n > 0 && n <= fuzzyHigh, 'a similarity in (0, fuzzyHigh]');
  if (typeof fuzzyLow === 'object') return fuzzyLow;
  const addressFloor = num('addressFloor', (n) => n <= 0, 'a number of bits <= 0');
  if (typeof addressFloor === 'object') return addressFloor;
  if (!isObject(doc['fields'])) return { error: 'fields: expected an object of comparisons' };
  const fields: Partial<Record<ComparisonField, FieldModel>> = {};
  for (const [field, levels] of Object.entries(doc['fields'])) {
    if (!(COMPARISON_FIELDS as readonly string[]).includes(field))
      return { error: `fields.${field}: unknown comparison; comparisons: ${COMPARISON_FIELDS.join(', ')}` };
    const allowed = new Set(COMPARISONS[field as ComparisonField].levels.map((l) => l.level));
    const parsed = parseLevels(levels, `fields.${field}`, allowed);
    if (typeof parsed === 'string') return { error: parsed };
    fields[field as ComparisonField] = parsed;
  }
  const attributes: AttributeModel[] = [];
  const rawAttributes = doc['attributes'] ?? [];
  if (!Array.isArray(rawAttributes)) return { error: 'attributes: expected an array' };
  for (const [i, a] of rawAttributes.entries()) {
    if (!isObject(a) || typeof a['name'] !== 'string' || a['name'].length === 0) return { error: `attributes[${i}].name: expected a column name` };
    const parsed = parseLevels(a['levels'], `attributes[${i}].levels`, new Set<LevelName>(['exact', 'fuzzy-high', 'part', 'disagree']));
    if (typeof parsed === 'string') return { error: parsed };
    attributes.push({ name: a['name'], levels: parsed });
  }
  const model: { -readonly [K in keyof MatchModel]: MatchModel[K] } = { fields, attributes, fuzzyHigh, fuzzyLow, addressFloor };
  if (doc['prior'] !== undefined) {
    const prior = num('prior', (n) => n > 0 && n < 1, 'a probability in (0, 1)');
    if (typeof prior === 'object') return prior;
    model.prior = prior;
  }
  if (doc['thresholds'] !== undefined) {
    const t = doc['thresholds'];
    if (
      !isObject(t) ||
      typeof t['match'] !== 'number' ||
      typeof t['possible'] !== 'number' ||
      !Number.isFinite(t['match']) ||
      !Number.isFinite(t['possible']) ||
      t['possible'] > t['match']
    ) {
      return { error: 'thresholds: expected {"match": bits, "possible": bits} with possible <= match' };
    }
    model.thresholds = { match: t['match'], possible: t['possible'] } satisfies Thresholds;
  }
  if (isObject(doc['sources'])) {
    const sources: Record<string, ParameterSource> = {};
    for (const [k, v] of Object.entries(doc['sources'])) if (v === 'prior' || v === 'estimated' || v === 'fallback' || v === 'borrowed') sources[k] = v;
    model.sources = sources;
  }
  if (Array.isArray(doc['notes'])) model.notes = doc['notes'].filter((n): n is string => typeof n === 'string');
  return model;
}

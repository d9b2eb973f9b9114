/**
 * Matching settings shared by `dedupe`, `link` and `eval`: the options that choose rules,
 * gates, thresholds, country and date order, parsed into a plain object that worker threads
 * can receive, and turned into the engine's IndexOptions for a file's columns.
 *
 * Three rule sets:
 * - `learned` (the default): Fellegi-Sunter with a model estimated from the file itself
 *   (estimate.ts), or the one `--model` gives; every comparison level; blocking keys that
 *   survive a corrupted field; no vetoes (clustering keeps conflicting rows apart); any year
 *   of birth; matchable rows are those with two identifying fields (or an email, phone or
 *   identifier); a pair matches at a posterior probability of {@link DEFAULT_MATCH_PROBABILITY}.
 * - `crm`: the API's rules, the contract's five gates and its vetoes, shipped weights.
 * - `linkage`: pure Fellegi-Sunter with the shipped weights, no estimation.
 */
import {
  ADDRESS_FILE_GATES,
  ATTRIBUTE_PRIOR,
  bitsOfProbability,
  CITY_FILE_GATES,
  CONTRACT_GATES,
  DEFAULT_THRESHOLDS,
  defineGate,
  FILE_KEYS,
  FILE_MODEL,
  HISTORICAL_YEARS,
  LINKAGE_PROFILE,
  parseGate,
  type ComparisonField,
  type DateOrder,
  type FieldModel,
  type Gate,
  type GateField,
  type IndexOptions,
  type MatchModel,
  type Thresholds,
} from '../engine/index.js';
import type { ContactField, HeaderPlan } from '../files/header-map.js';

/** `--rules`: a model learned from the file, the CRM's rules, or pure Fellegi-Sunter with shipped weights. */
export const RULES = ['learned', 'crm', 'linkage'] as const;
export type RulesName = (typeof RULES)[number];

/** `--gates`: ready-made sets of minimum combinations; `auto` picks them from the rules and columns. */
export const GATE_PRESETS = ['auto', 'contract', 'address-file', 'city-file'] as const;
export type GatePreset = (typeof GATE_PRESETS)[number];

/**
 * Posterior probability at which a pair matches under learned rules: 0.5, the point where
 * "same person" becomes the likelier reading (and, for a calibrated model, close to the
 * threshold that maximizes expected F1, which is half the best F1).
 */
export const DEFAULT_MATCH_PROBABILITY = 0.5;
/** Posterior probability at which a pair is reported as possible (for review) under learned rules. */
export const DEFAULT_POSSIBLE_PROBABILITY = 0.05;

/** Everything that decides a match; plain data (workers receive it by structured clone). */
export interface MatchSettings {
  readonly rules: RulesName;
  readonly gatePreset: GatePreset;
  /** `--gate` texts; when any, they replace the preset. */
  readonly gates: readonly string[];
  /** ISO alpha-2 default country of phones and postal codes. */
  readonly country: string;
  /** Day/month order of ambiguous dates; null: the country's (day first outside the US, CA, PH). */
  readonly dateOrder: DateOrder | null;
  /** Disable Partial Matching. */
  readonly strict: boolean;
  /** Match threshold in bits; null = the rules' default. */
  readonly threshold: number | null;
  /** Review ("possible") threshold in bits; null = the rules' default (lowered to the match threshold if above it). */
  readonly possible: number | null;
  /** Learned rules: posterior probability to match (0-1); null = {@link DEFAULT_MATCH_PROBABILITY}. */
  readonly matchProbability: number | null;
  /** A model to use instead of estimating one (`--model`), or null. */
  readonly model: MatchModel | null;
  /** Expected share of rows that duplicate another (sets the prior instead of estimating it), or null. */
  readonly duplicateRate: number | null;
  /** Area code completing seven-digit local phone numbers, or null (they stay partial). */
  readonly areaCode: string | null;
  /** Seed of estimation's sampling. */
  readonly seed: number;
}

/** Defaults: learned rules, gates from the columns, US, the country's date order. */
export const DEFAULT_SETTINGS: MatchSettings = {
  rules: 'learned',
  gatePreset: 'auto',
  gates: [],
  country: 'US',
  dateOrder: null,
  strict: false,
  threshold: null,
  possible: null,
  matchProbability: null,
  model: null,
  duplicateRate: null,
  areaCode: null,
  seed: 42,
};

/** Countries that write dates month first; everywhere else day first comes before month. */
const MONTH_FIRST_COUNTRIES: ReadonlySet<string> = new Set(['US', 'CA', 'PH', 'FM', 'MH', 'PW', 'GU', 'AS', 'MP', 'PR', 'VI']);

/** The date order of the settings: the option, else the country's. */
export function dateOrderOf(settings: MatchSettings): DateOrder {
  return settings.dateOrder ?? (MONTH_FIRST_COUNTRIES.has(settings.country) ? 'mdy' : 'dmy');
}

/** Gate fields a column's field can supply. */
const GATE_FIELD_OF: Readonly<Partial<Record<ContactField, GateField>>> = {
  firstName: 'firstName',
  lastName: 'lastName',
  email: 'email',
  phone: 'phone',
  dateOfBirth: 'dateOfBirth',
  yearOfBirth: 'dateOfBirth',
  zipOrPostalCode: 'zip5',
  streetName: 'streetName',
  addressLine1: 'streetName',
  city: 'city',
};

/** Fields that identify a person on their own in a file (an email, a phone, an identifier). */
const ALONE: readonly GateField[] = ['email', 'phone', 'identifier'];
/** Fields two of which make a row matchable under learned rules. */
const PAIRED: readonly GateField[] = ['firstName', 'lastName', 'dateOfBirth', 'zip5', 'streetName', 'city'];

/**
 * Minimum combinations for learned rules, from the columns present: an email, a phone or an
 * identifier alone, or any two of first name, last name, date of birth, postal code, street
 * and city. A row below all of them (a surname alone) is written as Unmatchable.
 */
export function fileGates(plans: readonly HeaderPlan[]): readonly Gate[] {
  const present = new Set<GateField>();
  for (const plan of plans) {
    for (const field of plan.columns) {
      if (field === null) continue;
      if (field === 'fullName') {
        present.add('firstName');
        present.add('lastName');
      } else if (field === 'identifier') present.add('identifier');
      else {
        const g = GATE_FIELD_OF[field];
        if (g !== undefined) present.add(g);
      }
    }
  }
  const gates: Gate[] = ALONE.filter((f) => present.has(f)).map((f) => defineGate([f]));
  const paired = PAIRED.filter((f) => present.has(f));
  for (let i = 0; i < paired.length; i++) for (let j = i + 1; j < paired.length; j++) gates.push(defineGate([paired[i] as GateField, paired[j] as GateField]));
  return gates;
}

/** The gates the settings select for files with these plans. Throws on a bad `--gate` (validated earlier by parseSettings). */
export function gatesOf(settings: MatchSettings, plans: readonly HeaderPlan[] = []): readonly Gate[] {
  if (settings.gates.length > 0) {
    return settings.gates.map((text) => {
      const gate = parseGate(text);
      if ('error' in gate) throw new Error(gate.error);
      return gate;
    });
  }
  switch (settings.gatePreset) {
    case 'address-file':
      return ADDRESS_FILE_GATES;
    case 'city-file':
      return CITY_FILE_GATES;
    case 'contract':
      return CONTRACT_GATES;
    default:
      return settings.rules === 'learned' ? fileGates(plans) : CONTRACT_GATES;
  }
}

/**
 * The thresholds the settings select, in bits of total weight. Learned rules with a model
 * whose prior is known: the posterior probabilities' bits; before estimation, placeholders.
 */
export function thresholdsOf(settings: MatchSettings): Thresholds {
  const base =
    settings.rules === 'linkage'
      ? LINKAGE_PROFILE.thresholds
      : settings.rules === 'learned'
        ? { match: bitsOfProbability(settings.matchProbability ?? DEFAULT_MATCH_PROBABILITY), possible: bitsOfProbability(DEFAULT_POSSIBLE_PROBABILITY) }
        : DEFAULT_THRESHOLDS;
  const match = settings.threshold ?? base.match;
  const possible = settings.possible ?? Math.min(base.possible, match);
  return { match, possible: Math.min(possible, match) };
}

/** Comparison fields each column field feeds. */
const COMPARED_BY: Readonly<Partial<Record<ContactField, readonly ComparisonField[]>>> = {
  firstName: ['firstName'],
  middleName: ['middleName'],
  lastName: ['lastName', 'suffix'],
  suffix: ['suffix'],
  fullName: ['firstName', 'middleName', 'lastName', 'suffix'],
  email: ['email'],
  phone: ['phone'],
  dateOfBirth: ['dateOfBirth'],
  yearOfBirth: ['dateOfBirth'],
  monthOfBirth: ['dateOfBirth'],
  dayOfBirth: ['dateOfBirth'],
  sex: ['sex'],
  identifier: ['identifier'],
  addressLine1: ['streetNumber', 'streetName', 'unit', 'address'],
  addressLine2: ['unit', 'building', 'address'],
  addressLine3: ['building', 'address'],
  streetNumber: ['streetNumber', 'address'],
  streetName: ['streetName', 'address'],
  city: ['city', 'address'],
  stateOrProvince: ['state', 'address'],
  zipOrPostalCode: ['zip5', 'address'],
};

/**
 * The model learned rules start from for files with these plans: the shipped file priors of
 * the comparisons the columns can feed (every file's, for a link), and one attribute
 * comparison per attribute column of the first file that the others have too.
 */
export function baseModelFor(plans: readonly HeaderPlan[]): MatchModel {
  const fieldsOf = (plan: HeaderPlan): Set<ComparisonField> => {
    const out = new Set<ComparisonField>();
    for (const f of plan.columns) for (const c of f === null ? [] : (COMPARED_BY[f] ?? [])) out.add(c);
    return out;
  };
  const sets = plans.map(fieldsOf);
  const fields: Partial<Record<ComparisonField, FieldModel>> = {};
  for (const [field, levels] of Object.entries(FILE_MODEL.fields) as [ComparisonField, FieldModel][]) {
    if (sets.every((s) => s.has(field))) fields[field] = levels;
  }
  const first = plans[0];
  const attributeNames = first === undefined ? [] : first.attributes.map((i) => first.headers[i] ?? '');
  const attributes = attributeNames
    .filter((name) => plans.every((p) => p.attributes.some((i) => (p.headers[i] ?? '').trim().toLowerCase() === name.trim().toLowerCase())))
    .map((name) => ({ name, levels: ATTRIBUTE_PRIOR }));
  return { ...FILE_MODEL, fields, attributes };
}

/**
 * A blocking key filed under more records than this is common for the learned rules (the
 * index skips it once another key found records): 50, where the API keeps 100. FILE_KEYS file
 * about 26 keys a record, spelling fragments among them, and at 1,000,000 rows keys of 50-100
 * records (a surname's first three letters with a first initial) made a quarter of the
 * comparisons and found no true pair another key did not (1M dedupe 58.6 / 57.6 s -> 49.1 /
 * 50.2 s side by side, precision and recall unchanged); on generated files of 46,000-58,000 rows pairwise F1 moved -0.004 to +0.003 and
 * clustered F1 +0.000 to +0.007 (bench/README "2026-11-27 (fifth session)").
 */
export const FILE_MAX_BLOCK_SIZE = 50;

/**
 * The engine options for these settings and files. `model` replaces the rules' model (an
 * estimated one, or `--model`'s).
 */
export function indexOptionsOf(settings: MatchSettings, plans: readonly HeaderPlan[] = [], model?: MatchModel): IndexOptions {
  const common = {
    thresholds: thresholdsOf(settings),
    gates: gatesOf(settings, plans),
    defaultCountry: settings.country,
    dateOrder: dateOrderOf(settings),
    strict: settings.strict,
    ...(settings.areaCode !== null ? { areaCode: settings.areaCode } : {}),
  };
  if (settings.rules === 'crm') return common;
  if (settings.rules === 'linkage')
    return { ...common, model: LINKAGE_PROFILE.model, requireGateAgreement: LINKAGE_PROFILE.requireGateAgreement, sexedNames: false, nameVariants: false };
  return {
    ...common,
    model: model ?? settings.model ?? baseModelFor(plans),
    requireGateAgreement: false,
    identifiersDecide: false,
    keys: FILE_KEYS,
    maxBlockSize: FILE_MAX_BLOCK_SIZE,
    termFrequencies: 'all',
    years: HISTORICAL_YEARS,
    yearOnlyDates: true,
    localPhones: true,
    oneLineAddresses: true,
    // OCR'd and mistyped names turn Patricia into Patricio more often than a file holds twins.
    sexedNames: false,
    nameVariants: false,
  };
}

/** Raw option values as commander gives them. */
export interface RawMatchOptions {
  readonly rules?: string | undefined;
  readonly gates?: string | undefined;
  readonly gate?: readonly string[] | undefined;
  readonly country?: string | undefined;
  readonly dateFormat?: string | undefined;
  readonly strict?: boolean | undefined;
  readonly threshold?: string | undefined;
  readonly possible?: string | undefined;
  readonly matchProbability?: string | undefined;
  readonly duplicateRate?: string | undefined;
  readonly areaCode?: string | undefined;
  readonly seed?: string | undefined;
}

/**
 * `--date-format`: "mdy"/"dmy"/"ymd", or a pattern such as "DD/MM/YYYY", "M/D/YY",
 * "YYYY-MM-DD", or "us"/"eu". Null when it says no order.
 */
export function parseDateFormat(text: string): DateOrder | null {
  const t = text.trim().toLowerCase();
  if (t === 'mdy' || t === 'us') return 'mdy';
  if (t === 'dmy' || t === 'eu' || t === 'uk' || t === 'intl') return 'dmy';
  if (t === 'ymd' || t === 'iso') return 'ymd';
  const order = Array.from(t)
    .filter((c) => c === 'd' || c === 'm' || c === 'y')
    .filter((c, i, all) => all.indexOf(c) === i)
    .join('');
  return order === 'mdy' || order === 'dmy' || order === 'ymd' ? order : null;
}

/** Country spellings people use that are not ISO alpha-2. */
const COUNTRY_ALIASES: Readonly<Record<string, string>> = { UK: 'GB', USA: 'US', AUS: 'AU', CAN: 'CA', NZL: 'NZ', GBR: 'GB' };

/** Parses the matching options (and a model read by the caller); an error text names the option. */
export function parseSettings(raw: RawMatchOptions, model: MatchModel | null = null): MatchSettings | { error: string } {
  const rules = (raw.rules ?? 'learned').toLowerCase();
  if (!(RULES as readonly string[]).includes(rules)) return { error: `--rules "${raw.rules}": expected one of ${RULES.join(', ')}` };
  const preset = (raw.gates ?? 'auto').toLowerCase();
  if (!(GATE_PRESETS as readonly string[]).includes(preset)) return { error: `--gates "${raw.gates}": expected one of ${GATE_PRESETS.join(', ')}` };
  const gates = [...(raw.gate ?? [])];
  if (gates.length > 0 && raw.gates !== undefined) return { error: '--gate replaces the gate set: give --gate or --gates, not both' };
  for (const text of gates) {
    const gate = parseGate(text);
    if ('error' in gate) return { error: `--gate "${text}": ${gate.error}` };
  }
  let country = (raw.country ?? 'US').trim().toUpperCase();
  country = COUNTRY_ALIASES[country] ?? country;
  if (!/^[A-Z]{2}$/.test(country)) return { error: `--country "${raw.country}": expected a two-letter ISO country code such as US, GB, AU` };
  const dateOrder = raw.dateFormat === undefined ? null : parseDateFormat(raw.dateFormat);
  if (raw.dateFormat !== undefined && dateOrder === null)
    return { error: `--date-format "${raw.dateFormat}": expected mdy, dmy, ymd or a pattern such as DD/MM/YYYY` };
  const number = (name: string, text: string | undefined, what: string, check: (n: number) => boolean = () => true): number | null | { error: string } => {
    if (text === undefined) return null;
    const n = Number(text);
    return text.trim().length > 0 && Number.isFinite(n) && check(n) ? n : { error: `${name} "${text}": expected ${what}` };
  };
  const threshold = number('--threshold', raw.threshold, 'a number of bits, e.g. 12.5');
  if (threshold !== null && typeof threshold === 'object') return threshold;
  const possible = number('--possible', raw.possible, 'a number of bits, e.g. 12.5');
  if (possible !== null && typeof possible === 'object') return possible;
  if (threshold !== null && possible !== null && possible > threshold) {
    return { error: `--possible ${possible} is above --threshold ${threshold}: the review band lies below the match threshold` };
  }
  const probability = number('--match-probability', raw.matchProbability, 'a probability between 0 and 1, e.g. 0.9', (n) => n > 0 && n < 1);
  if (probability !== null && typeof probability === 'object') return probability;
  const duplicateRate = number('--duplicate-rate', raw.duplicateRate, 'a share of rows between 0 and 1, e.g. 0.2', (n) => n > 0 && n < 1);
  if (duplicateRate !== null && typeof duplicateRate === 'object') return duplicateRate;
  const seed = number('--seed', raw.seed, 'a whole number', Number.isInteger);
  if (seed !== null && typeof seed === 'object') return seed;
  const areaCode = raw.areaCode === undefined ? null : raw.areaCode.replace(/\D/g, '');
  if (areaCode !== null && !/^\d{2,5}$/.test(areaCode)) return { error: `--area-code "${raw.areaCode}": expected the digits of an area code, e.g. 202` };
  if (rules !== 'learned' && (probability !== null || model !== null || duplicateRate !== null)) {
    return { error: '--match-probability, --model and --duplicate-rate apply to --rules learned' };
  }
  return {
    rules: rules as RulesName,
    gatePreset: preset as GatePreset,
    gates,
    country,
    dateOrder,
    strict: raw.strict === true,
    threshold,
    possible,
    matchProbability: probability,
    model,
    duplicateRate,
    areaCode,
    seed: seed ?? DEFAULT_SETTINGS.seed,
  };
}

/** "5 minimum combinations (--gates contract)" or the --gate list. */
export function describeGates(settings: MatchSettings, plans: readonly HeaderPlan[] = []): string {
  const count = gatesOf(settings, plans).length;
  const source =
    settings.gates.length > 0
      ? `--gate ${settings.gates.join(', --gate ')}`
      : settings.gatePreset === 'auto' && settings.rules === 'learned'
        ? 'from the columns'
        : `--gates ${settings.gatePreset === 'auto' ? 'contract' : settings.gatePreset}`;
  return `${count} minimum combination${count === 1 ? '' : 's'} (${source})`;
}

/** One line describing the settings, for summaries and reports. */
export function describeSettings(settings: MatchSettings, plans: readonly HeaderPlan[] = [], model?: MatchModel): string {
  const t = model?.thresholds ?? thresholdsOf(settings);
  const gates =
    settings.gates.length > 0
      ? `gates ${settings.gates.join(', ')}`
      : `gates ${settings.gatePreset === 'auto' && settings.rules === 'learned' ? `from the columns (${gatesOf(settings, plans).length})` : settings.gatePreset === 'auto' ? 'contract' : settings.gatePreset}`;
  const rules = settings.rules === 'learned' ? `learned${settings.model !== null ? ' (--model)' : ''}` : settings.rules;
  return `rules ${rules}${settings.strict ? ' (strict)' : ''}; ${gates}; match >= ${t.match.toFixed(2)} bits, review >= ${t.possible.toFixed(2)}; country ${settings.country}; dates ${dateOrderOf(settings)}${settings.dateOrder === null ? ' unless a file shows its own' : ''}`;
}

/**
 * Matching settings shared by `dedupe`, `link` and `eval`: the command-line options that
 * choose rules, gates, thresholds, country and date order, parsed into a plain object that
 * worker threads can receive, and turned into the engine's IndexOptions.
 */
import {
  ADDRESS_FILE_GATES,
  CITY_FILE_GATES,
  CONTRACT_GATES,
  DEFAULT_THRESHOLDS,
  LINKAGE_PROFILE,
  parseGate,
  type DateOrder,
  type Gate,
  type IndexOptions,
  type Thresholds,
} from '../engine/index.js';

/** `--rules`: the CRM's rules (vetoes, gate agreement) or pure Fellegi-Sunter for file linkage. */
export const RULES = ['crm', 'linkage'] as const;
export type RulesName = (typeof RULES)[number];

/** `--gates`: ready-made sets of minimum combinations. */
export const GATE_PRESETS = ['contract', 'address-file', 'city-file'] as const;
export type GatePreset = (typeof GATE_PRESETS)[number];

/** Everything that decides a match; plain data (workers receive it by structured clone). */
export interface MatchSettings {
  readonly rules: RulesName;
  readonly gatePreset: GatePreset;
  /** `--gate` texts; when any, they replace the preset. */
  readonly gates: readonly string[];
  /** ISO alpha-2 default country of phones and postal codes. */
  readonly country: string;
  readonly dateOrder: DateOrder;
  /** Disable Partial Matching. */
  readonly strict: boolean;
  /** Match threshold in bits; null = the rules' default. */
  readonly threshold: number | null;
  /** Review ("possible") threshold in bits; null = the rules' default (lowered to the match threshold if above it). */
  readonly possible: number | null;
}

/** Defaults: CRM rules, the contract's gates, US, month/day/year. */
export const DEFAULT_SETTINGS: MatchSettings = {
  rules: 'crm',
  gatePreset: 'contract',
  gates: [],
  country: 'US',
  dateOrder: 'mdy',
  strict: false,
  threshold: null,
  possible: null,
};

/** The gates the settings select. Throws on a bad `--gate` (validated earlier by parseSettings). */
export function gatesOf(settings: MatchSettings): readonly Gate[] {
  if (settings.gates.length > 0) {
    return settings.gates.map((text) => {
      const gate = parseGate(text);
      if ('error' in gate) throw new Error(gate.error);
      return gate;
    });
  }
  switch (settings.gatePreset) {
    case 'address-file': return ADDRESS_FILE_GATES;
    case 'city-file': return CITY_FILE_GATES;
    default: return CONTRACT_GATES;
  }
}

/** The thresholds the settings select. */
export function thresholdsOf(settings: MatchSettings): Thresholds {
  const base = settings.rules === 'linkage' ? LINKAGE_PROFILE.thresholds : DEFAULT_THRESHOLDS;
  const match = settings.threshold ?? base.match;
  const possible = settings.possible ?? Math.min(base.possible, match);
  return { match, possible: Math.min(possible, match) };
}

/** The engine options for these settings. */
export function indexOptionsOf(settings: MatchSettings): IndexOptions {
  const profile = settings.rules === 'linkage' ? { model: LINKAGE_PROFILE.model, requireGateAgreement: LINKAGE_PROFILE.requireGateAgreement } : {};
  return {
    ...profile,
    thresholds: thresholdsOf(settings),
    gates: gatesOf(settings),
    defaultCountry: settings.country,
    dateOrder: settings.dateOrder,
    strict: settings.strict,
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
  const order = [...t].filter((c) => c === 'd' || c === 'm' || c === 'y').filter((c, i, all) => all.indexOf(c) === i).join('');
  return order === 'mdy' || order === 'dmy' || order === 'ymd' ? order : null;
}

/** Country spellings people use that are not ISO alpha-2. */
const COUNTRY_ALIASES: Readonly<Record<string, string>> = { UK: 'GB', USA: 'US', AUS: 'AU', CAN: 'CA', NZL: 'NZ', GBR: 'GB' };

/** Parses the matching options; an error text names the option. */
export function parseSettings(raw: RawMatchOptions): MatchSettings | { error: string } {
  const rules = (raw.rules ?? 'crm').toLowerCase();
  if (!(RULES as readonly string[]).includes(rules)) return { error: `--rules "${raw.rules}": expected one of ${RULES.join(', ')}` };
  const preset = (raw.gates ?? 'contract').toLowerCase();
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
  const dateOrder = raw.dateFormat === undefined ? 'mdy' : parseDateFormat(raw.dateFormat);
  if (dateOrder === null) return { error: `--date-format "${raw.dateFormat}": expected mdy, dmy, ymd or a pattern such as DD/MM/YYYY` };
  const number = (name: string, text: string | undefined): number | null | { error: string } => {
    if (text === undefined) return null;
    const n = Number(text);
    return text.trim().length > 0 && Number.isFinite(n) ? n : { error: `${name} "${text}": expected a number of bits, e.g. 12.5` };
  };
  const threshold = number('--threshold', raw.threshold);
  if (threshold !== null && typeof threshold === 'object') return threshold;
  const possible = number('--possible', raw.possible);
  if (possible !== null && typeof possible === 'object') return possible;
  if (threshold !== null && possible !== null && possible > threshold) {
    return { error: `--possible ${possible} is above --threshold ${threshold}: the review band lies below the match threshold` };
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
  };
}

/** "5 minimum combinations (--gates contract)" or the --gate list. */
export function describeGates(settings: MatchSettings): string {
  const count = gatesOf(settings).length;
  const source = settings.gates.length > 0 ? `--gate ${settings.gates.join(', --gate ')}` : `--gates ${settings.gatePreset}`;
  return `${count} minimum combination${count === 1 ? '' : 's'} (${source})`;
}

/** One line describing the settings, for summaries and reports. */
export function describeSettings(settings: MatchSettings): string {
  const t = thresholdsOf(settings);
  const gates = settings.gates.length > 0 ? `gates ${settings.gates.join(', ')}` : `gates ${settings.gatePreset}`;
  return `rules ${settings.rules}${settings.strict ? ' (strict)' : ''}; ${gates}; match >= ${t.match} bits, review >= ${t.possible}; country ${settings.country}; dates ${settings.dateOrder}`;
}

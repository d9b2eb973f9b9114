/**
 * Seeded generator of labelled messy person files: three scenarios (historical registers,
 * OCR'd voter lists, a mixed-source truth set) at three corruption levels, each row with
 * its own id and the id of the person it describes (the truth column, which a matcher must
 * be told to ignore). Deterministic: the same options give the same rows on any machine.
 *
 *   const file = generateMessy({ scenario: 'ocr', level: 'high', seed: 1 });
 *   writeFileSync('ocr-high.csv', toCsv(file.header, file.rows));
 *
 * Each scenario's error model and its rates are documented at the top of its file
 * (historical.ts, ocr.ts, mixed.ts) and in bench/README.md ("Messy labelled files").
 */
import type { MessyFile, MessyOptions, Scenario } from './assemble.js';
import { HISTORICAL_DEFAULT_ENTITIES, generateHistorical } from './historical.js';
import { MIXED_DEFAULT_ENTITIES, generateMixed } from './mixed.js';
import { OCR_DEFAULT_ENTITIES, generateOcr } from './ocr.js';
import { LEVELS } from './rates.js';

export { SCENARIOS } from './assemble.js';
export type { MessyFile, MessyOptions, MessyStats, Scenario } from './assemble.js';
export { LEVELS, ratesMarkdown } from './rates.js';
export type { Level, ProcessCount, RateSpec } from './rates.js';
export { toCsv } from './csv.js';
export { SCENARIO_RATES, refreshDocs, samplesMarkdown } from './docs.js';

/** Largest number of people a file may describe. */
export const MAX_MESSY_ENTITIES = 1_000_000;

/** People per scenario by default (files of about 3,000-8,000 rows). */
export const DEFAULT_ENTITIES: Readonly<Record<Scenario, number>> = {
  historical: HISTORICAL_DEFAULT_ENTITIES,
  ocr: OCR_DEFAULT_ENTITIES,
  mixed: MIXED_DEFAULT_ENTITIES,
};

/** Generates one labelled file. Throws a RangeError naming the option that is out of range. */
export function generateMessy(options: MessyOptions): MessyFile {
  const { scenario, level, seed } = options;
  if (!(scenario in DEFAULT_ENTITIES)) throw new RangeError(`scenario must be one of historical, ocr, mixed (got ${scenario})`);
  if (!LEVELS.includes(level)) throw new RangeError(`level must be one of ${LEVELS.join(', ')} (got ${level})`);
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer (got ${String(seed)})`);
  const entities = options.entities ?? DEFAULT_ENTITIES[scenario];
  if (!Number.isInteger(entities) || entities < 1 || entities > MAX_MESSY_ENTITIES) {
    throw new RangeError(`entities must be an integer in 1..${MAX_MESSY_ENTITIES} (got ${String(entities)})`);
  }
  const full = { scenario, level, seed, entities, manyRecords: options.manyRecords === true };
  if (scenario === 'historical') return generateHistorical(full);
  if (scenario === 'ocr') return generateOcr(full);
  return generateMixed(full);
}

/**
 * Keeps the documentation equal to the code: the rate table at the top of each scenario
 * file and after `<!-- rates:SCENARIO -->` in bench/README.md, and the figures of the nine
 * files of seed 1 after `<!-- messy-samples -->` (`tsx bench/messy.ts --docs` rewrites them;
 * a test checks them).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SCENARIOS } from './assemble.js';
import type { MessyFile, Scenario } from './assemble.js';
import { HISTORICAL_RATES } from './historical.js';
import { MIXED_RATES } from './mixed.js';
import { OCR_RATES } from './ocr.js';
import { ratesMarkdown } from './rates.js';
import type { RateTable } from './rates.js';

/** Each scenario's documented rates. */
export const SCENARIO_RATES: Readonly<Record<Scenario, RateTable<string>>> = {
  historical: HISTORICAL_RATES,
  ocr: OCR_RATES,
  mixed: MIXED_RATES,
};

export function scenarioSourcePath(scenario: Scenario): string {
  return fileURLToPath(new URL(`./${scenario}.ts`, import.meta.url));
}

export const BENCH_README = fileURLToPath(new URL('../../README.md', import.meta.url));

/** The figures of some generated files, as a Markdown table. */
export function samplesMarkdown(files: readonly MessyFile[]): string[] {
  const lines = [
    "| file | rows | people | true pairs | rows with any tag (error, missing value, variant) | the same, of rows after a person's first |",
    '|---|---|---|---|---|---|',
  ];
  for (const f of files) {
    const s = f.stats;
    const pct = (n: number, of: number): string => `${of === 0 ? 0 : Math.round((100 * n) / of)}%`;
    lines.push(
      `| ${s.scenario}-${s.level} | ${s.rows} | ${s.entities} | ${s.truePairs} | ${pct(s.rowsWithErrors, s.rows)} | ${pct(s.duplicateRowsWithErrors, s.duplicateRows)} |`,
    );
  }
  return lines;
}

/** Replaces the table (consecutive lines starting with `prefix|`) that starts at or after line `from`. */
function replaceTable(text: string, prefix: string, from: number, table: readonly string[]): string {
  const lines = text.split('\n');
  let start = from;
  while (start < lines.length && !(lines[start] ?? '').startsWith(`${prefix}|`)) start++;
  let end = start;
  while (end < lines.length && (lines[end] ?? '').startsWith(`${prefix}|`)) end++;
  lines.splice(start, end - start, ...table.map((l) => `${prefix}${l}`.trimEnd()));
  return lines.join('\n');
}

function markerLine(text: string, marker: string, path: string): number {
  const at = text.split('\n').findIndex((l) => l.trim() === marker);
  if (at < 0) throw new Error(`no ${marker} in ${path}`);
  return at + 1;
}

/**
 * Rewrites the rate tables of the scenario files and of bench/README.md from the rate
 * objects, and the README's sample figures from `samples` (the nine files of seed 1).
 */
export function refreshDocs(samples: readonly MessyFile[], readme = BENCH_README): void {
  let text = readFileSync(readme, 'utf8');
  for (const scenario of SCENARIOS) {
    const table = ratesMarkdown(SCENARIO_RATES[scenario]);
    const path = scenarioSourcePath(scenario);
    const source = readFileSync(path, 'utf8');
    writeFileSync(path, replaceTable(source, ' * ', markerLine(source, '* Rates (per record or per person, by level):', path), table));
    text = replaceTable(text, '', markerLine(text, `<!-- rates:${scenario} -->`, readme), table);
  }
  text = replaceTable(text, '', markerLine(text, '<!-- messy-samples -->', readme), samplesMarkdown(samples));
  writeFileSync(readme, text);
}

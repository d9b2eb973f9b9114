/** Writes the report file (atomically: a partial file renamed when complete). */
import { rename, writeFile } from 'node:fs/promises';
import type { ReportData } from './data.js';
import { renderReport } from './html.js';

/** Renders and writes the report to `path`. */
export async function writeReport(path: string, data: ReportData): Promise<void> {
  const partial = `${path}.partial`;
  await writeFile(partial, renderReport(data), 'utf8');
  await rename(partial, path);
}

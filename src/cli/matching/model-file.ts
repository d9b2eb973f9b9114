/** Writing a model document (`--save-model`), atomically: a partial file never appears. */
import { rename, writeFile } from 'node:fs/promises';
import { serializeModel, type MatchModel } from '../../engine/index.js';
import { LinkageInputError } from '../../linkage/index.js';

/** Writes `model` to `path` as JSON (a temporary file renamed into place). */
export async function saveModel(path: string, model: MatchModel, description: string): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temp, serializeModel(model, description));
    await rename(temp, path);
  } catch (err) {
    throw new LinkageInputError(`--save-model ${path}: cannot write it (${err instanceof Error ? err.message : String(err)})`);
  }
}

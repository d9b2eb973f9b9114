/** Where a command's rows go: a file (written whole or not at all) or standard output. */
import { rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileSink, functionSink, type TextSink } from '../../files/index.js';
import type { CliIo } from '../io.js';
import { LinkageInputError } from '../../linkage/index.js';

/** An output: rows go to `sink`; `commit` makes a file output appear under its name. */
export interface Output {
  readonly sink: TextSink;
  readonly label: string;
  /** After success: renames the partial file to its name. */
  commit(): Promise<void>;
  /** After failure: removes the partial file. */
  discard(): Promise<void>;
}

/**
 * Where output rows go: a file (written as NAME.partial, renamed when complete, so a failed
 * run leaves no half file), or standard output for "-" or no -o.
 */
export async function openOutput(output: string | undefined, io: CliIo): Promise<Output> {
  if (output === undefined || output === '-') {
    return { sink: functionSink(io.stdout), label: 'standard output', commit: async () => undefined, discard: async () => undefined };
  }
  const path = resolve(io.cwd, output);
  const partial = `${path}.partial`;
  let sink: TextSink;
  try {
    sink = await fileSink(partial);
  } catch (err) {
    throw new LinkageInputError((err instanceof Error ? err.message : String(err)).replace(partial, output));
  }
  return {
    sink,
    label: output,
    commit: async () => {
      await sink.close();
      await rename(partial, path);
    },
    discard: async () => {
      await sink.close().catch(() => undefined);
      await rm(partial, { force: true });
    },
  };
}

/**
 * The file commands' start-up from V8's code cache. Node 20 has no compile cache for ES
 * modules (`module.enableCompileCache` came with Node 22), so the build also writes the CLI as
 * one classic script (src/cli/bundle.mjs: dist/cli/chunks/files-HASH.cjs, HASH its content's),
 * which this module compiles with `vm.Script` from the code V8 serialized at the end of an
 * earlier run (`cachedData`): the ~2 MB of code is neither parsed nor compiled again, and the
 * functions that run compiled lazily come compiled. FEBRL4's link: about 60 ms less of the main
 * thread's CPU and 0.1 s less of the process's (bench/README.md, "FEBRL4 link").
 *
 * The cache is a file beside the script or, where that directory cannot be written, in the
 * user's cache directory; its name holds the script's (so its content's hash), Node's version,
 * the architecture and Node's own flags. V8 checks its version, the source's length and its
 * flags, and rejects a cache that does not fit. Absent, unreadable or rejected: the script
 * compiles from its source, and the cache is written when the process exits (to a temporary
 * file renamed into place: a concurrent run never reads half of one). No error of the cache
 * ever fails a command.
 */
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

/** Commands run from the code-cached script: the file commands (it leaves out the others, which load servers and database drivers). */
export const CACHED_COMMANDS: ReadonlySet<string> = new Set(['dedupe', 'link', 'eval']);

/**
 * The V8 flags a command sets at run time (link.ts compileLess), at V8's defaults. A cache
 * carries a hash of the flags in force when it was written, and V8 rejects it where they
 * differ: they are put back before it is written, as they are at start-up.
 */
const RUN_TIME_FLAG_DEFAULTS: readonly string[] = ['--max-inlined-bytecode-size-cumulative=920'];

/** What the code-cached script exports (file-cli.ts). */
interface FileCli {
  run?: (args: readonly string[]) => Promise<number>;
}

/** The places of the cache of `file`, in the order they are read and written. */
export function cachePaths(file: string): string[] {
  const flags = `${process.execArgv.join(' ')}|${process.env.NODE_OPTIONS ?? ''}`;
  const name = `${basename(file)}.${process.version}-${process.arch}-${hashText(flags)}.v8cache`;
  const places = [join(dirname(file), name)];
  const user = userCacheDirectory();
  if (user !== null) places.push(join(user, 'matchbook', name));
  return places;
}

/** `$XDG_CACHE_HOME` when it is an absolute path (the XDG rule), else ~/.cache; null without a home directory. */
function userCacheDirectory(): string | null {
  const xdg = process.env.XDG_CACHE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return xdg;
  try {
    const home = homedir();
    return isAbsolute(home) ? join(home, '.cache') : null;
  } catch {
    return null;
  }
}

/**
 * Runs the CLI with `args` from the code-cached script `bundle` when `args` run one of
 * {@link CACHED_COMMANDS}; answers its exit code, or null when the caller is to run it (another
 * command, or no script to read).
 */
export async function runCached(bundle: URL, args: readonly string[]): Promise<number | null> {
  const command = args[0];
  if (command === undefined || !CACHED_COMMANDS.has(command)) return null;
  const file = fileURLToPath(bundle);
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const places = cachePaths(file);
  let cachedData: Buffer | undefined;
  for (const path of places) {
    try {
      cachedData = readFileSync(path);
      break;
    } catch {
      // Not there: the next place.
    }
  }
  // Wrapped as Node wraps a CommonJS module.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  if (cachedData === undefined || script.cachedDataRejected === true) {
    process.once('exit', () => {
      writeCache(script, places);
    });
  }
  const module: { exports: FileCli } = { exports: {} };
  const wrapper = script.runInThisContext() as (
    exports: FileCli,
    require: NodeJS.Require,
    module: { exports: FileCli },
    filename: string,
    dirname: string,
  ) => void;
  wrapper(module.exports, createRequire(file), module, file, dirname(file));
  const run = module.exports.run;
  if (run === undefined) throw new Error(`${file} is not the CLI's code-cached script`);
  return run(args);
}

/** Serializes the script's code to the first place that can be written. */
function writeCache(script: Script, places: readonly string[]): void {
  let data: Buffer;
  try {
    for (const flag of RUN_TIME_FLAG_DEFAULTS) setFlagsFromString(flag);
    data = script.createCachedData();
  } catch {
    return;
  }
  for (const [k, path] of places.entries()) {
    const temporary = `${path}.${process.pid}.tmp`;
    try {
      if (k > 0) mkdirSync(dirname(path), { recursive: true });
      writeFileSync(temporary, data);
      renameSync(temporary, path);
      return;
    } catch {
      try {
        unlinkSync(temporary);
      } catch {
        // Never written.
      }
    }
  }
}

/** A short hash of a text (FNV-1a, 32 bits, hexadecimal): names the cache of one set of Node flags. */
function hashText(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * An older build of this repository to run beside the current one (bench:api --store postgres
 * --base REF): the git ref archived into a directory, node_modules hard-linked from this
 * checkout, compiled with `tsc -p src` as `npm run build` does.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The short commit id of a ref of this repository. */
export function commitOf(ref: string): string {
  return execFileSync('git', ['-C', REPO, 'rev-parse', '--short', ref], { encoding: 'utf8' }).trim();
}

/**
 * A build of git ref `ref` in a temp directory (git archive, node_modules hard-linked from
 * this checkout, `tsc -p src`), to run beside this one. Answers its directory.
 */
export function buildBase(ref: string, dir: string, log: (s: string) => void): string {
  const out = join(dir, 'base');
  mkdirSync(out);
  const commit = commitOf(ref);
  log(`building ${ref} (${commit}) in ${out}...`);
  const archive = spawnSync('sh', ['-c', `git -C '${REPO}' archive '${commit}' | tar -x -C '${out}'`], { stdio: 'inherit' });
  if (archive.status !== 0) throw new Error(`git archive ${ref} failed`);
  linkTree(join(REPO, 'node_modules'), join(out, 'node_modules'));
  execFileSync(process.execPath, [join(out, 'node_modules/typescript/bin/tsc'), '-p', join(out, 'src')], { cwd: out, stdio: 'inherit' });
  return out;
}

/** Hard-links a directory tree (as `cp -al`). */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const a = join(from, entry.name);
    const b = join(to, entry.name);
    if (entry.isDirectory()) linkTree(a, b);
    else if (entry.isFile()) linkSync(a, b);
    else if (entry.isSymbolicLink()) execFileSync('cp', ['-P', a, b]);
  }
}

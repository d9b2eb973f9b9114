#!/usr/bin/env node
// `npm test`: runs vitest and, beside it, three checks of the whole tree: the lint (`eslint .`,
// as `npm run lint` does), the formatting (`prettier --check`, as `npm run format:check` does;
// `npm run format` fixes it) and the type check (`tsc`, as `npm run typecheck` does: vitest runs
// the test and bench files without checking their types, and `npm run build` checks only src).
// It prints "N passed, N failed" as the last line (the summary CI reads); each check counts as
// one test, named lint, format or typecheck: it passes with no finding, and fails printing its
// findings.
// The checks run as child processes started first, concurrently with the test files, because
// they take ~2 min of CPU (type-aware lint ~1 min 40 s, tsc ~30 s), mostly while the test files
// wait on the servers and databases they start; run after them they would add all of it to the
// wall time. They run at nice 10 (coreutils' nice), so that the test files and the servers they
// start, whose start-up waits have time limits, come first, and the checks take the CPU they leave.
// Extra arguments go to vitest and skip the checks: `npm test -- test/engine` runs
// those files only.
// No `eslint --cache`: type-aware rules read other files' types, which a cache keyed on each
// file's own content does not see change, so a cached run could pass a finding.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const vitestArgs = process.argv.slice(2);

/** Runs a command; resolves with its exit code (null when a signal ended it) and, when piped, its output. */
function run(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, options);
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ code: null, output: `${output}${error.message}\n` }));
    child.on('close', (code) => resolve({ code, output }));
  });
}

const started = performance.now();
const CHECKS = [
  { name: 'lint', label: 'eslint .', args: ['eslint', '.', '--max-warnings', '0'] },
  { name: 'typecheck', label: 'tsc -p tsconfig.json --noEmit', args: ['tsc', '-p', 'tsconfig.json', '--noEmit'] },
  { name: 'format', label: 'prettier --check', args: ['prettier', '--check', '**/*.{ts,mjs,js}', '--log-level', 'warn'] },
];
const checks =
  vitestArgs.length > 0
    ? []
    : CHECKS.map((check) => ({
        ...check,
        done: run('nice', ['-n', '10', 'npx', ...check.args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }).then((result) => ({
          ...result,
          seconds: ((performance.now() - started) / 1000).toFixed(0),
        })),
      }));

const dir = mkdtempSync(join(tmpdir(), 'matchbook-test-'));
const out = join(dir, 'results.json');
const tests = await run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...vitestArgs], { stdio: 'inherit' });
let passed = 0;
let failed = 0;
try {
  const results = JSON.parse(readFileSync(out, 'utf8'));
  passed = results.numPassedTests ?? 0;
  failed = (results.numFailedTests ?? 0) + (results.numRuntimeErrorTestSuites ?? 0);
  // A file that fails to load counts as a failure even when it declared no test.
  for (const file of results.testResults ?? []) {
    if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) failed++;
  }
} catch {
  failed = Math.max(failed, 1);
}
rmSync(dir, { recursive: true, force: true });
const testsSeconds = ((performance.now() - started) / 1000).toFixed(0);
let code = tests.code ?? 1;
if (code !== 0 && failed === 0) failed = 1;

if (checks.length > 0) process.stdout.write(`\n vitest: done ${testsSeconds} s after the start\n`);
for (const check of checks) {
  const result = await check.done;
  if (result.code === 0) {
    passed++;
    process.stdout.write(`\n ✓ ${check.name} (${check.label}): no findings, done ${result.seconds} s after the start\n`);
  } else {
    failed++;
    if (code === 0) code = 1;
    process.stdout.write(
      `\n ✗ ${check.name} (${check.label}) failed (exit ${result.code ?? 'by a signal'}), ${result.seconds} s after the start:\n${result.output}\n`,
    );
  }
}
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(code);

#!/usr/bin/env node
// `npm test`: runs vitest and, beside it, the lint (`eslint .`, as `npm run lint` does),
// then prints "N passed, N failed" as the last line (the summary CI reads). The lint counts as
// one test named lint: it passes with no finding, and fails printing its findings.
// It runs as a child process started first, concurrently with the test files, because
// type-aware lint takes ~1 min 40 s of CPU, mostly while the test files wait on the servers
// and databases they start; run after them it would add all of it to the wall time.
// Extra arguments go to vitest and skip the lint: `npm test -- test/engine` runs those files.
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

const lintStarted = performance.now();
const lint = vitestArgs.length === 0 ? run('npx', ['eslint', '.', '--max-warnings', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }) : null;

const dir = mkdtempSync(join(tmpdir(), 'matchbook-test-'));
const out = join(dir, 'results.json');
const tests = await run('npx', [
  'vitest', 'run',
  '--reporter=default', '--reporter=json', `--outputFile.json=${out}`,
  ...vitestArgs,
], { stdio: 'inherit' });
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
let code = tests.code ?? 1;
if (code !== 0 && failed === 0) failed = 1;

if (lint !== null) {
  const linted = await lint;
  const seconds = ((performance.now() - lintStarted) / 1000).toFixed(0);
  if (linted.code === 0) {
    passed++;
    process.stdout.write(`\n ✓ lint (eslint .): no findings, ${seconds} s\n`);
  } else {
    failed++;
    if (code === 0) code = 1;
    process.stdout.write(`\n ✗ lint (eslint .) failed, ${seconds} s (exit ${linted.code ?? 'by a signal'}):\n${linted.output}\n`);
  }
}
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(code);

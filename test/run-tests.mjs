#!/usr/bin/env node
// `npm test`: runs vitest, then prints "N passed, N failed" as the last line (the summary
// CI reads). Extra arguments go to vitest: `npm test -- test/engine`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';

const dir = mkdtempSync(join(tmpdir(), 'matchbook-test-'));
const out = join(dir, 'results.json');
const args = [
  'vitest', 'run',
  '--reporter=default', '--reporter=json', `--outputFile.json=${out}`,
  ...process.argv.slice(2),
];
const run = spawnSync('npx', args, { stdio: 'inherit' });
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
const code = run.status ?? 1;
if (code !== 0 && failed === 0) failed = 1;
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(code);

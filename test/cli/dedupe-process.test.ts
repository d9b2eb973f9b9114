/**
 * The real `matchbook` process: stdout carries only data (pipeable), messages and progress
 * go to stderr, exit codes say success or failure, errors are one line without a stack.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { parseCsv, Scratch } from './dedupe-helpers.js';
import { runCliProcess } from './spawn.js';

const s = new Scratch();
afterAll(() => s.remove());

describe('matchbook dedupe as a process', () => {
  it('pipes CSV on stdout only; summary and plain progress on stderr', async () => {
    const input = s.file('p.csv', ['first,last,email', 'Ann,Lee,ann@example.com', 'Ann,Lee,ann@example.com', 'Bo,Ek,bo@example.com']);
    const run = await runCliProcess(['dedupe', input, '--progress', 'plain'], {}, 60_000);
    expect(run.code, run.stderr).toBe(0);
    const rows = parseCsv(run.stdout);
    expect(rows.map((r) => r['cluster_size'])).toEqual(['2', '2', '1']);
    expect(run.stdout.split('\n')[0]).toBe('cluster_id,cluster_size,match_decision,match_score,matched_id,match_note,first,last,email');
    expect(run.stderr).toMatch(/^matchbook dedupe: /m);
    expect(run.stderr).toMatch(/wrote 3 rows \(every row read\) to standard output/);
  }, 120_000);

  it('fails with exit code 1 and one line for a missing file; the help lists the commands', async () => {
    const run = await runCliProcess(['dedupe', s.path('nope.csv')], {}, 60_000);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([`matchbook: error: ${s.path('nope.csv')}: no such file`]);
    const help = await runCliProcess(['--help'], {}, 60_000);
    expect(help.stdout).toMatch(/dedupe \[options\] <input>/);
    expect(help.stdout).toMatch(/link \[options\] <left> <right>/);
    expect(help.stdout).toMatch(/eval \[options\] <input> \[right\]/);
  }, 120_000);
});

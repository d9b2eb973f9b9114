import { describe, expect, it } from 'vitest';
import { formatTable } from '../../src/cli/format.js';
import { parseContexts } from '../../src/cli/keys.js';
import { parsePort } from '../../src/cli/serve.js';

describe('CLI helpers', () => {
  it('formats aligned tables with readable cells', () => {
    const out = formatTable([
      { id: 1, name: 'acme', people: { voterfile: 2, campaign: 0 }, configured: [], revokedAt: null },
      { id: 12, name: 'globex corp', people: { voterfile: 0, campaign: 5 }, configured: ['campaign'], revokedAt: '2026-01-01' },
    ]);
    expect(out).toBe(
      'id  name         people                  configured  revokedAt\n' +
        '1   acme         voterfile=2 campaign=0  -           -\n' +
        '12  globex corp  voterfile=0 campaign=5  campaign    2026-01-01\n',
    );
    expect(formatTable([])).toBe('(none)\n');
  });
  it('parses contexts and ports strictly', () => {
    expect(parseContexts('Campaign, voterfile,campaign')).toEqual(['campaign', 'voterfile']);
    expect(() => parseContexts('sandbox')).toThrow(/voterfile, campaign/);
    expect(() => parseContexts(',')).toThrow();
    expect(parsePort('0')).toBe(0);
    expect(parsePort('8080')).toBe(8080);
    for (const bad of ['-1', '65536', 'http', '80.5', '']) expect(() => parsePort(bad)).toThrow(/port/);
  });
});

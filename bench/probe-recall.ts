/**
 * Adversarial recall probe of findOrCreate (bench/lib/probe-recall-scenarios.ts): per scenario a
 * fresh SQLite database, the real CRM and HTTP app (as test/server/helpers.ts builds them), the
 * `before` requests sent with findOrCreate, then the scenario's request. Prints expected against
 * actual with the answer's reason and, for a miss, the engine's per-field explanation.
 *
 * With `--precision`, the precision scenarios instead (bench/lib/probe-precision-scenarios.ts):
 * different people side by side, where a `match` to the wrong record is the failure.
 *
 *   npx tsx bench/probe-recall.ts [--precision] [--json] [--only TEXT] [--context voterfile|campaign] [--verbose]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Crm, type MatchOutcome } from '../src/crm/index.js';
import { buildApp } from '../src/server/app.js';
import { PRECISION_SCENARIOS, type PrecisionScenario } from './lib/probe-precision-scenarios.js';
import { SCENARIOS, type Scenario } from './lib/probe-recall-scenarios.js';

interface Row {
  readonly group: string;
  readonly name: string;
  readonly expect: Scenario['expect'];
  readonly got: 'match' | 'new' | 'wrong' | 'error';
  readonly ok: boolean | null;
  readonly detail: string;
}

function explainedGate(m: MatchOutcome | null): string {
  return m === null ? '?' : `${m.explanation.gate ?? '-'} score ${m.explanation.score.toFixed(1)}`;
}

async function runOne(sc: PrecisionScenario, context: 'voterfile' | 'campaign', verbose: boolean): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'probe-recall-'));
  const crm = await Crm.open({ db: join(dir, 'probe.db') });
  const app = buildApp({ crm });
  await app.ready();
  try {
    const tenant = await crm.createTenant('probe');
    if (sc.settings !== undefined) await crm.configureTenant('probe', sc.settings);
    const key = (await crm.createKey({ tenant: 'probe', tier: 'Internal' })).key;
    const auth = { apiKey: `${key}|${context === 'campaign' ? '1' : '0'}` };
    const send = (body: unknown) => app.inject({ method: 'POST', url: '/v4/people/findOrCreate', headers: auth, payload: body as object });
    const ids: (number | null)[] = [];
    for (const [i, b] of sc.before.entries()) {
      const r = await send(b);
      const j = JSON.parse(r.body) as { crmId?: number };
      if (r.statusCode !== 201 && r.statusCode !== 302) return { ...sc, got: 'error', ok: false, detail: `before: ${r.statusCode} ${r.body}` };
      // distinct people stored: one merged into an earlier one is a wrong person already
      if (sc.distinct === true && r.statusCode === 302) return { ...sc, got: 'wrong', ok: false, detail: `before[${i}] merged into ${j.crmId}` };
      ids.push(j.crmId ?? null);
    }
    const first = ids[sc.target ?? 0] ?? null;
    // find (no write) before the findOrCreate: the explanation of the stored record(s) as they were
    const explained = await crm.find({ tenantId: tenant.id, context }, sc.request, { explain: true }).catch(() => null);
    const r = await send(sc.request);
    if (r.statusCode !== 201 && r.statusCode !== 302)
      return { ...sc, got: 'error', ok: sc.expect === 'either' ? null : false, detail: `${r.statusCode} ${r.body}` };
    const j = JSON.parse(r.body) as { crmId: number; reason?: string; reasonText?: string; nearest?: { crmId: number; score: number } };
    const got = r.statusCode === 201 ? 'new' : j.crmId === first ? 'match' : 'wrong';
    const ok = sc.expect === 'either' ? null : got === sc.expect;
    let detail = got === 'match' ? `gate ${explainedGate(explained)}` : `${j.reason ?? ''}${j.nearest ? ` nearest ${j.nearest.score}` : ''}`;
    if (got === 'new' && j.reasonText?.includes('left for review') === true) detail += `: ${j.reasonText.replace(/^.*left for review: /, '')}`;
    if ((ok === false || verbose) && explained !== null) {
      const ex = explained.explanation;
      detail += ` | score ${ex.score.toFixed(1)} gates ${ex.gates.join(',') || '-'} | ${ex.fields.map((f) => `${f.field}:${f.label}(${f.weight.toFixed(1)})`).join(' ')}`;
    }
    return { ...sc, got, ok, detail };
  } finally {
    await app.close();
    await crm.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      precision: { type: 'boolean' },
      json: { type: 'boolean' },
      only: { type: 'string' },
      context: { type: 'string', default: 'campaign' },
      verbose: { type: 'boolean' },
    },
  });
  const context = values.context === 'voterfile' ? 'voterfile' : 'campaign';
  const only = values.only?.toLowerCase();
  const rows: Row[] = [];
  for (const sc of values.precision === true ? PRECISION_SCENARIOS : SCENARIOS) {
    if (only !== undefined && !`${sc.group} ${sc.name}`.toLowerCase().includes(only)) continue;
    rows.push(await runOne(sc, context, values.verbose === true));
  }
  const scored = rows.filter((r) => r.ok !== null);
  const summary = {
    scenarios: rows.length,
    scored: scored.length,
    pass: scored.filter((r) => r.ok === true).length,
    fail: scored.filter((r) => r.ok === false).length,
  };
  if (values.json === true) {
    console.log(JSON.stringify({ summary, rows }, null, 1));
    return;
  }
  for (const r of rows) {
    const mark = r.ok === null ? '  ~ ' : r.ok ? '  ok' : 'FAIL';
    console.log(`${mark} [${r.group}] ${r.name}: expect ${r.expect}, got ${r.got} (${r.detail})`);
  }
  console.log(JSON.stringify(summary));
}

await main();

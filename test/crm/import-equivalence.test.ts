/**
 * A bulk import row is findOrCreate: the same people, the same review queue, the same ids.
 * The import path (Crm.importFindOrCreate, with its row mark, no answer text, durability by
 * job) is tuned for speed apart from the API's; this checks it decides and writes exactly what
 * findOrCreate does with the same bodies in the same order. Seeded corpus (bench/corpus.ts):
 * its people imported into an empty database, then noisy queries of them (30% people not
 * stored), so rows match and update, match and change nothing, create, and create next to a
 * Possible one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BulkImports, Crm, CrmError, ImportRunner } from '../../src/crm/index.js';
import { generateCorpus } from '../../bench/corpus.js';
import { csvOf } from '../../bench/lib/import-csv.js';
import { sqliteStoreOf } from './fixtures.js';

const SEED = 42;
const SIZE = 300;
const QUERIES = 300;
const NOW = new Date('2026-01-01T00:00:00Z');

const open: Crm[] = [];
afterEach(async () => {
  for (const crm of open.splice(0)) await crm.close();
});

async function tenant(): Promise<{ crm: Crm; ctx: { tenantId: number; context: 'campaign' } }> {
  const crm = await Crm.open({ db: ':memory:', now: () => NOW });
  open.push(crm);
  await crm.createTenant('t');
  const { key } = await crm.createKey({ tenant: 't', tier: 'Internal', contexts: ['campaign'], defaultContext: 'campaign' });
  return { crm, ctx: { tenantId: (await crm.authenticate(key))!.tenantId, context: 'campaign' } };
}

/** What a row's findOrCreate answered: its person, or the refusal's issues. */
type Answer = { crmId: number | null } | { refused: string };

/** Everything the two paths write to people: the rows, their identifier rows, the review queue's pairs, the id sequences. */
function tables(crm: Crm): Record<string, unknown[]> {
  const db = sqliteStoreOf(crm).db;
  const all = (sql: string): unknown[] => db.prepare(sql).all();
  return {
    people: all('SELECT * FROM people ORDER BY crm_id'),
    identifiers: all('SELECT * FROM person_identifiers ORDER BY crm_id, type_key, external_id_key'),
    pairs: all('SELECT * FROM possible_matches ORDER BY id'),
    sequences: all('SELECT * FROM sequences ORDER BY name'),
  };
}

describe('bulk import and findOrCreate', () => {
  it(`write the same people, pairs and ids for the same rows (corpus seed ${SEED}: ${SIZE} people, then ${QUERIES} noisy queries)`, async () => {
    const corpus = generateCorpus({ seed: SEED, size: SIZE });
    const files = [
      csvOf(
        (function* people() {
          for (const p of corpus.people()) yield p.contact;
        })(),
      ),
      csvOf(corpus.queries({ count: QUERIES, seed: SEED + 1 }).map((q) => q.candidate)),
    ];

    // The import path, recording each row's body and answer.
    const a = await tenant();
    const bodies: unknown[] = [];
    const imported: Answer[] = [];
    const apply = a.crm.importFindOrCreate.bind(a.crm);
    a.crm.importFindOrCreate = async (ctx, body, mark) => {
      bodies.push(structuredClone(body));
      try {
        const r = await apply(ctx, body, mark);
        imported.push({ crmId: r.outcome.crmId });
        return r;
      } catch (error) {
        if (error instanceof CrmError) imported.push({ refused: JSON.stringify(error.issues) });
        throw error;
      }
    };
    const imports = new BulkImports(a.crm, null, () => false);
    const runner = new ImportRunner({
      crm: a.crm,
      owner: 'w',
      fetchUrl: () => {
        throw new Error('no fetch');
      },
      limits: { maxBytes: 1e8, maxZipRatio: 100 },
    });
    const jobs: number[] = [];
    for (const csv of files) {
      const up = await imports.saveUpload(
        a.ctx,
        'rows.csv',
        (async function* () {
          yield Buffer.from(csv);
        })(),
      );
      const id = await imports.createJob(
        a.ctx,
        {
          file: { fileName: 'rows.csv', hasHeader: true, hasQuotes: true, columnDelimiter: 'Csv', sourceUrl: `http://origin/v4/bulkImportFiles/${up.token}` },
          actions: [{ resourceType: 'Contacts', actionType: 'loadMappedFile', mappingTypes: [{ name: 'CreateOrUpdateContact' }] }],
        },
        'http://origin',
      );
      const job = await a.crm.store.claimImportJob('w', Date.now(), 60_000);
      await runner.run(job!);
      expect((await imports.getJob(a.ctx, id))?.status).toBe('Completed');
      jobs.push(id);
    }
    expect(bodies.length).toBe(SIZE + QUERIES);

    // findOrCreate of the same bodies in the same order.
    const b = await tenant();
    const answered: Answer[] = [];
    for (const body of bodies) {
      try {
        answered.push({ crmId: (await b.crm.findOrCreate(b.ctx, body)).crmId });
      } catch (error) {
        if (!(error instanceof CrmError)) throw error;
        answered.push({ refused: JSON.stringify(error.issues) });
      }
    }
    expect(imported).toEqual(answered);

    // The rows' results name those people.
    const db = sqliteStoreOf(a.crm).db;
    const marked = jobs.flatMap((id) => db.prepare('SELECT crm_id FROM bulk_import_rows WHERE job_id = ? ORDER BY row_no').pluck().all(id));
    expect(marked).toEqual(answered.map((x) => ('crmId' in x ? x.crmId : null)));

    // The kinds of rows the check covers.
    const t = tables(a.crm);
    expect(t['people']!.length).toBeGreaterThan(SIZE);
    expect(t['pairs']!.length).toBeGreaterThan(0);
    expect(t).toEqual(tables(b.crm));
  }, 120_000);
});

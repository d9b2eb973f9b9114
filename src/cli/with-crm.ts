/** Open the CRM on a database file for one command, and always close it. */
import { Crm } from '../crm/index.js';

/**
 * Run `fn` with a Crm open on `dbPath`; the Crm is closed afterwards, even on error. Admin
 * commands use no index: none is loaded (fast on a big database, and no index-sized memory).
 */
export async function withCrm<T>(dbPath: string, fn: (crm: Crm) => Promise<T>): Promise<T> {
  const crm = await Crm.open({ db: dbPath, loadIndexes: false });
  try {
    return await fn(crm);
  } finally {
    await crm.close();
  }
}

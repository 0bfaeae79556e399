/**
 * One lead's sale in a process of its own, so a test can kill -9 it mid-sale. Reads the store
 * (SALE_DB_URL or SALE_DB_FILE), the lead (SALE_LEAD_ID), the buyers (SALE_BUYERS: JSON
 * documents) and their secret (SALE_SECRET) from the environment; SALE_LEASE_MS, when set, is the
 * lease it takes on the sale (a test's sweep can then take a killed sale up without waiting 90 s).
 */
import { buildBuyerCatalog } from '../../engine/sale/buyers';
import { runSale } from '../../engine/sale/runner';
import { openStore } from '../../engine/store/db';

const db = openStore(process.env.SALE_DB_URL ? { url: process.env.SALE_DB_URL } : { url: '', file: process.env.SALE_DB_FILE! });
const docs = JSON.parse(process.env.SALE_BUYERS!) as unknown[];
const catalog = buildBuyerCatalog(docs.map((d, i) => ({ file: `buyer-${i}.json`, text: JSON.stringify(d) })));
const result = await runSale(db, process.env.SALE_LEAD_ID!, {
  buyers: [...catalog.buyers.values()].map((b) => b.buyer),
  secretOf: () => process.env.SALE_SECRET,
  contactKey: Buffer.alloc(32, 1),
  worker: 'child',
  ...(process.env.SALE_LEASE_MS ? { leaseMs: Number(process.env.SALE_LEASE_MS) } : {}),
});
console.log(JSON.stringify(result));
await db.destroy();

/**
 * Caps across instances: two instances (each its own connection pool and worker id, as two
 * servers on one PostgreSQL are) sell 24 leads at once to a buyer capped at 5 a day. The cap is
 * reserved in the database before a post goes out, under a lock per buyer, so it holds exactly:
 * 5 sold to the capped buyer, however the sales interleave; the rest go to the next buyer.
 * On SQLite (one server: several instances need PostgreSQL) two workers share the one file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Buyer } from '../../schemas/buyer.types';
import { buildBuyerCatalog } from '../../engine/sale/buyers';
import { runSale, type SaleDeps } from '../../engine/sale/runner';
import { saleOf, timelineOf } from '../../engine/store/sales';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { startPostgres, type RunningPostgres } from '../support/postgres';
import { storeSaleLead } from '../support/saleLead';
import { startStandInBuyer, type StandInBuyer } from '../support/standInBuyer';

const KEY = 'e'.repeat(64);
const SECRET = 'stand-in-buyer-secret-caps';
process.env.LEADS_ENCRYPTION_KEY = KEY;
let pg: RunningPostgres;
const dir = mkdtempSync(join(tmpdir(), 'loansites-caps-'));
const stores: Store[] = [];
const started: StandInBuyer[] = [];

beforeAll(async () => {
  pg = await startPostgres();
}, 120_000);
afterAll(async () => {
  await Promise.all(stores.map((s) => s.destroy()));
  await Promise.all(started.map((b) => b.close()));
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function documents(...docs: Record<string, unknown>[]): Buyer[] {
  const c = buildBuyerCatalog(docs.map((d, i) => ({ file: `buyers/${i}.json`, text: JSON.stringify(d) })));
  expect(c.problems).toEqual([]);
  return [...c.buyers.values()].map((b) => b.buyer);
}

const instances = {
  'PostgreSQL, two instances': async (): Promise<[Store, Store]> => {
    const url = await pg.createDatabase('sale_caps');
    return [openStore({ url }), openStore({ url })];
  },
  'SQLite, two workers of one server': async (): Promise<[Store, Store]> => {
    const db = openStore({ url: '', file: join(dir, 'caps.sqlite') });
    return [db, db];
  },
};

describe.each(Object.keys(instances) as (keyof typeof instances)[])('caps on %s', (kind) => {
  it('a daily cap of 5 sells exactly 5 leads to the capped buyer when 24 leads are sold at once', async () => {
    const [a, b] = await instances[kind]();
    stores.push(...new Set([a, b]));
    await migrateStore(a);
    // The capped buyer bids highest and answers its posts slowly: every sale passes the cap check before any is recorded.
    const capped = await startStandInBuyer(`capped-${kind.length}`, SECRET, { ping: { bid: 30 }, post: { slowMs: 300 } });
    const next = await startStandInBuyer(`next-${kind.length}`, SECRET, { ping: { bid: 10 } });
    started.push(capped, next);
    // Generous timeouts: 24 sales at once on a busy machine must not turn a slow answer into a refusal.
    const timeouts = { pingMs: 3000, postMs: 10_000 };
    const buyers = documents(capped.document({ caps: { perDay: 5 }, timeouts }), next.document({ timeouts }));
    const key = Buffer.from(KEY, 'hex');
    const leads = await Promise.all(Array.from({ length: 24 }, () => storeSaleLead(a, key)));
    const deps = (worker: string): SaleDeps => ({ buyers, secretOf: () => SECRET, contactKey: Buffer.alloc(32, 2), worker });

    const results = await Promise.all(leads.map((id, i) => runSale(i % 2 ? b : a, id, deps(i % 2 ? 'instance-b' : 'instance-a'))));

    expect(results.filter((r) => r?.status !== 'sold')).toEqual([]);
    const sales = await Promise.all(leads.map((id) => saleOf(a, id)));
    expect(sales.filter((s) => s?.buyer_id === capped.id)).toHaveLength(5);
    expect(sales.filter((s) => s?.buyer_id === next.id)).toHaveLength(19);
    expect(capped.posts).toHaveLength(5);
    // a lead the capped buyer did not get says why on its timeline
    const other = leads.find((_, i) => sales[i]?.buyer_id === next.id)!;
    expect((await timelineOf(a, other)).some((e) => e.buyer_id === capped.id && e.outcome === 'skipped' && /daily cap 5 reached/.test(e.detail))).toBe(true);
  }, 90_000);
});

/**
 * `npm run demo:traffic`'s data tells the truth, on SQLite and PostgreSQL: only brands of the
 * catalog and a buyer the server knows; every demo lead marked as such and stored with its final
 * sale, so the sale sweep of a running server finds none to sell; the overview, the buyers page
 * and the leads export agree on its money; and a reset takes out exactly the demo rows, leaving
 * the real visits, leads, sales and rollups as they were.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getCatalog } from '../../engine/site/catalog';
import { leadsCsv } from '../../engine/console/adminQueries';
import { buyersOverview } from '../../engine/console/buyerQueries';
import { DEMO_LENDER_ID } from '../../engine/sale/demoLender';
import { adoptLeadsWithoutSale, dueSales } from '../../engine/store/sales';
import { migrateStore, openStore, type Store, type StoreOptions } from '../../engine/store/db';
import { insertLead } from '../../engine/store/leads';
import { writeTraffic } from '../../engine/store/traffic';
import { DEMO_BRANDS, DEMO_BUYERS, resetDemoTraffic, writeDemoTraffic } from '../../engine/traffic/demoTraffic';
import { funnel } from '../../engine/traffic/funnelQuery';
import { visitRow } from '../../engine/store/trafficRules';
import { bothStores } from '../support/bothStores';
import { leadRow } from '../support/leadRow';
import { recordSaleRow } from '../support/saleRecord';

const { tmp, postgres } = bothStores('loansites-demo-traffic-');
const NOW = new Date('2026-01-10T00:00:00.000Z');
const RANGE = { from: '2025-12-01T00:00:00.000Z', to: '2026-01-11T00:00:00.000Z' };

it('the default brands are brands of the catalog and the default buyer is the demo lender', () => {
  const catalog = [...getCatalog().brands.keys()];
  expect(DEMO_BRANDS.filter((b) => !catalog.includes(b))).toEqual([]);
  expect(DEMO_BUYERS).toEqual([DEMO_LENDER_ID]);
});

/** Every row of the tables the demo writes to, in a stable order (numbers as numbers: PostgreSQL returns bigint sums as text). */
async function snapshot(db: Store) {
  const out: Record<string, unknown[]> = {};
  for (const table of [
    'leads',
    'lead_sales',
    'lead_returns',
    'sale_events',
    'traffic_visits',
    'traffic_events',
    'traffic_hourly',
    'traffic_daily',
    'traffic_daily_pairs',
  ] as const) {
    const rows = (await db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
    out[table] = rows
      .map((r) =>
        Object.fromEntries(
          Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^-?\d+$/.test(v) && (k === 'count' || k === 'value') ? Number(v) : v]),
        ),
      )
      .map((r) => JSON.stringify(r))
      .sort();
  }
  return out;
}

describe.each([
  ['SQLite', (): StoreOptions => ({ url: '', file: join(tmp, 'demo.sqlite') })],
  ['PostgreSQL', (): StoreOptions => ({ url: postgres().url })],
])('%s', (_kind, options) => {
  it('writes marked leads with their final sales (none left for a live server to sell), money every page agrees on, and a reset takes out exactly the demo rows', async () => {
    const db = openStore(options());
    try {
      await migrateStore(db);
      // Real data first: a visit, its lead, sold for $30.00.
      const day = new Date('2026-01-05T12:00:00.000Z');
      const visit = visitRow(
        'v'.padEnd(33, '7'),
        { path: '/payday-loans', params: { utm_campaign: 'real' } },
        { brand: 'ipaydayloans', host: 'ipaydayloans.com', userAgent: 'iPhone Mobile', optedOut: false, now: day },
      );
      await writeTraffic(db, {
        visits: [visit],
        events: [
          { visitId: visit.id, metric: 'stored', path: '', state: 'TX', value: 0, brand: 'ipaydayloans', device: 'mobile', createdAt: day.toISOString() },
        ],
      });
      const real = await insertLead(db, leadRow({ visit_id: visit.id, created_at: day.toISOString() }), []);
      await recordSaleRow(db, { leadId: real.id, buyer: 'acme', priceCents: 3000, at: day });
      const before = await snapshot(db);

      const done = await writeDemoTraffic(db, { events: 4000, leads: 50, days: 10, seed: 3, now: NOW });
      expect(done.leads).toBe(50);
      expect(done.returned).toBeGreaterThan(0);

      const leads = await db.selectFrom('leads').select(['id', 'brand', 'environment']).where('id', '!=', real.id).execute();
      expect(leads).toHaveLength(50);
      expect(leads.filter((l) => l.environment !== 'demo' || !DEMO_BRANDS.includes(l.brand))).toEqual([]);
      const buyers = await db.selectFrom('lead_sales').select('buyer_id').distinct().where('buyer_id', 'is not', null).execute();
      expect(buyers.map((b) => b.buyer_id).sort()).toEqual(['acme', DEMO_LENDER_ID]);
      // The sale sweep of a running server (engine/outbox/saleWorker.ts sweepSales): adopt leads without a sale, then take the pending ones.
      expect(await adoptLeadsWithoutSale(db, NOW, new Date(0))).toBe(0);
      expect(await dueSales(db, _kind === 'SQLite' ? 'sqlite' : 'postgres', NOW, 100)).toEqual([]);

      // The overview, the buyers page and the leads export say the same about the demo's money (and the real sale).
      const f = await funnel(db, RANGE);
      expect([f.stages.at(-1)!.count, f.returned, f.revenueCents]).toEqual([done.sold + 1, done.returned, done.revenueCents + 3000]);
      const rows = await buyersOverview(db, RANGE.from, RANGE.to);
      expect(rows.reduce((s, r) => s + r.wins, 0)).toBe(done.sold + 1);
      expect(rows.reduce((s, r) => s + r.returned, 0)).toBe(done.returned);
      expect(rows.reduce((s, r) => s + r.revenueCents, 0)).toBe(f.revenueCents);
      const csv = (await leadsCsv(db, RANGE))!.text.trim().split(/\r?\n/);
      const head = csv[0]!.split(',');
      const cents = (row: string[], column: string) => Math.round(Number(row[head.indexOf(column)] || 0) * 100);
      const cells = csv.slice(1).map((line) => line.split(','));
      expect(cells.reduce((s, r) => s + cents(r, 'price') * (r[head.indexOf('sold_at')] ? 1 : 0) - cents(r, 'refund'), 0)).toBe(f.revenueCents);

      const gone = await resetDemoTraffic(db);
      expect(gone).toEqual({ leads: 50, visits: done.visits, events: done.events });
      expect(await snapshot(db)).toEqual(before);
    } finally {
      await db.destroy();
    }
  }, 120_000);
});

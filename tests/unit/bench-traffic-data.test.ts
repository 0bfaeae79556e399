/**
 * The overview bench's bulk-loaded data (scripts/bench/trafficData.ts) is the data the traffic
 * writer stores: the same demo visits written through writeDemoTraffic into one store and loaded
 * in bulk into another give the same visits, events, stage marks, leads, sales, returns, offers
 * and — summed in the database — the same hourly, daily and daily-pair rollups, row for row; the
 * overview reads the same figures from both, and those are the generator's own counts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { overviewData } from '../../engine/console/overviewData';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { writeDemoTraffic, type DemoOptions } from '../../engine/traffic/demoTraffic';
import { loadDemoTraffic } from '../../scripts/bench/trafficData';
import { bothStores } from '../support/bothStores';

const { tmp, postgres } = bothStores('loansites-bench-data-');
const NOW = new Date('2026-01-10T00:00:00.000Z');
const OPTIONS: DemoOptions = { events: 4000, leads: 90, days: 6, seed: 7, now: NOW, idBase: 1234 };

const num = (k: string, v: unknown) => (typeof v === 'string' && /^-?\d+$/.test(v) && (k === 'count' || k === 'value') ? Number(v) : v);

/** Every row of the tables the demo writes, with the random ids (events', sale events', leads') left out and a lead named by its visit. */
async function snapshot(db: Store): Promise<Record<string, string[]>> {
  const leadVisit = new Map((await db.selectFrom('leads').select(['id', 'visit_id']).execute()).map((l) => [l.id, l.visit_id]));
  const out: Record<string, string[]> = {};
  for (const table of [
    'traffic_visits',
    'traffic_events',
    'traffic_visit_stages',
    'traffic_hourly',
    'traffic_daily',
    'traffic_daily_pairs',
    'leads',
    'lead_sales',
    'lead_returns',
    'sale_events',
  ] as const) {
    const rows = (await db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
    out[table] = rows
      .map((r) => {
        const kept = Object.entries(r)
          // a lead's contact data is sealed with a random nonce each time
          .filter(([k]) => !(k === 'id' && table !== 'traffic_visits') && k !== 'sealed')
          .map(([k, v]) => [k, k === 'lead_id' ? `lead of ${leadVisit.get(String(v))}` : num(k, v)]);
        return JSON.stringify(Object.fromEntries(kept));
      })
      .sort();
  }
  return out;
}

const overviewOf = (db: Store) => overviewData(db, { from: '2026-01-04', to: '2026-01-09', dims: {}, zone: '', grain: 'day', compare: false, currency: 'USD' });

describe.each([
  ['SQLite', () => ({ writer: { url: '', file: join(tmp, 'writer.sqlite') }, bulk: { url: '', file: join(tmp, 'bulk.sqlite') } })],
  ['PostgreSQL', async () => ({ writer: { url: await postgres().createDatabase('by_writer') }, bulk: { url: await postgres().createDatabase('by_bulk') } })],
] as const)('%s', (_kind, stores) => {
  it('loads in bulk exactly what the traffic writer stores for the same demo visits, and the overview reads the generator’s own totals', async () => {
    const opts = await stores();
    const writer = openStore(opts.writer);
    const bulk = openStore(opts.bulk);
    try {
      await migrateStore(writer);
      await migrateStore(bulk);
      const written = await writeDemoTraffic(writer, OPTIONS);
      const loaded = await loadDemoTraffic(bulk, 'file' in opts.bulk ? { file: opts.bulk.file } : { url: opts.bulk.url }, OPTIONS);
      expect(loaded).toEqual(written);
      expect(written.leads).toBe(OPTIONS.leads);
      expect(written.returned).toBeGreaterThan(0);

      const [a, b] = [await snapshot(writer), await snapshot(bulk)];
      for (const table of Object.keys(a)) {
        expect(b[table]!.length, table).toBeGreaterThan(0);
        expect(b[table], table).toEqual(a[table]);
      }

      const [fromWriter, fromBulk] = [await overviewOf(writer), await overviewOf(bulk)];
      expect(fromBulk).toEqual(fromWriter);
      expect(fromBulk.totals).toMatchObject({ visits: written.visits, stored: written.leads, sold: written.sold, revenueCents: written.revenueCents });
    } finally {
      await writer.destroy();
      await bulk.destroy();
    }
  }, 180_000);
});

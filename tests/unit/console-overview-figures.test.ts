/**
 * The overview's figures, unfiltered and by each filter it has, equal the same figures counted
 * directly from the demo generator's visits, leads and sales (never from the store's queries or
 * rollups): visits, stored leads, sales and revenue in total, by campaign and by day, and the
 * sub-id cut's leads and sales — on SQLite and PostgreSQL. A rewrite of any overview query that
 * moves one figure fails here.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { overviewData } from '../../engine/console/overviewData';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { demoVisits, type DemoOptions, type DemoTotals, type DemoVisit } from '../../engine/traffic/demoTraffic';
import type { FunnelFilter } from '../../engine/traffic/funnelQuery';
import { loadDemoTraffic } from '../../scripts/bench/trafficData';
import { bothStores } from '../support/bothStores';

const { tmp, postgres } = bothStores('loansites-overview-figures-');
const NOW = new Date('2026-01-10T00:00:00.000Z');
const OPTIONS: DemoOptions = { events: 12000, leads: 400, days: 8, seed: 11, now: NOW, idBase: 99 };
/** local (UTC) days shown: the middle of the data, so visits, sales and returns fall on both sides of the range */
const FROM = '2026-01-04';
const TO = '2026-01-08';
const RANGE = { from: `${FROM}T00:00:00.000Z`, to: '2026-01-09T00:00:00.000Z' };

const FILTERS: Omit<FunnelFilter, 'from' | 'to'>[] = [
  {},
  { brand: 'ipaydayloans' },
  { campaign: 'tx-payday' },
  { source: 'google' },
  { device: 'mobile' },
  { landing: '/payday-loans' },
  { brand: 'ipaydayloans', landing: '/payday-loans' },
];

interface Figures {
  visits: number;
  stored: number;
  sold: number;
  revenueCents: number;
}
const none = (): Figures => ({ visits: 0, stored: 0, sold: 0, revenueCents: 0 });

/** The figures counted from the generator's own rows. */
function expected(visits: readonly DemoVisit[], dims: Omit<FunnelFilter, 'from' | 'to'>) {
  const inRange = (iso: string) => iso >= RANGE.from && iso < RANGE.to;
  const total = none();
  const byCampaign = new Map<string, Figures>();
  const byDay = new Map<string, Figures>();
  const bySubId = new Map<string, { leads: number; sold: number }>();
  const add = (campaign: string, day: string, k: keyof Figures, n: number) => {
    for (const [m, key] of [
      [byCampaign, campaign],
      [byDay, day],
    ] as const) {
      if (!m.has(key)) m.set(key, none());
      m.get(key)![k] += n;
    }
    total[k] += n;
  };
  for (const { visit: v, events, sale } of visits) {
    const of = { brand: v.brand, campaign: v.campaign, source: v.source, landing: v.landing_path, device: v.device };
    if (Object.entries(dims).some(([k, want]) => of[k as keyof typeof of] !== want)) continue;
    if (inRange(v.created_at)) add(v.campaign, v.created_at.slice(0, 10), 'visits', 1);
    for (const e of events) if (e.metric === 'stored' && inRange(e.createdAt)) add(v.campaign, e.createdAt.slice(0, 10), 'stored', 1);
    if (!sale) continue;
    const subId = sale.lead.source2 ?? '';
    const cut = bySubId.get(subId) ?? { leads: 0, sold: 0 };
    bySubId.set(subId, cut);
    if (inRange(sale.lead.created_at)) cut.leads += 1;
    const decided = sale.decided.toISOString();
    if (sale.outcome !== 'unsold' && inRange(decided)) {
      add(v.campaign, decided.slice(0, 10), 'sold', 1);
      add(v.campaign, decided.slice(0, 10), 'revenueCents', sale.priceCents);
      cut.sold += 1;
    }
    const back = sale.returnedAt.toISOString();
    if (sale.outcome === 'returned' && inRange(back)) add(v.campaign, back.slice(0, 10), 'revenueCents', -sale.priceCents);
  }
  return { total, byCampaign, byDay, bySubId };
}

const figures = (r: { visits: number; stored: number; sold: number; revenueCents: number }): Figures => ({
  visits: r.visits,
  stored: r.stored,
  sold: r.sold,
  revenueCents: r.revenueCents,
});
const nonZero = (m: Map<string, Figures>) => new Map([...m].filter(([, f]) => f.visits || f.stored || f.sold || f.revenueCents));

describe.each(
  ((): [string, () => Promise<{ db: Store; load: { file: string } | { url: string } }>][] => [
    ['SQLite', async () => ({ db: openStore({ url: '', file: join(tmp, 'figures.sqlite') }), load: { file: join(tmp, 'figures.sqlite') } })],
    [
      'PostgreSQL',
      async () => {
        const url = await postgres().createDatabase('figures');
        return { db: openStore({ url }), load: { url } };
      },
    ],
  ])(),
)('%s', (_kind, open) => {
  it('every filter’s totals, campaigns, days and sub-ids equal the figures counted from the generated visits and sales', async () => {
    const { db, load } = await open();
    try {
      await migrateStore(db);
      await loadDemoTraffic(db, load, OPTIONS);
      const visits = [...demoVisits(OPTIONS, OPTIONS.idBase!, { visits: 0, events: 0, leads: 0, sold: 0, returned: 0, revenueCents: 0 } satisfies DemoTotals)];
      for (const dims of FILTERS) {
        const want = expected(visits, dims);
        expect(want.total.sold, JSON.stringify(dims)).toBeGreaterThan(0);
        const got = await overviewData(db, { from: FROM, to: TO, dims, zone: '', grain: 'day', compare: false, currency: 'USD' });
        expect(got.totals, JSON.stringify(dims)).toMatchObject(want.total);
        expect(nonZero(new Map(got.data.byCampaign.map((r) => [r.key, figures(r)]))), JSON.stringify(dims)).toEqual(nonZero(want.byCampaign));
        expect(nonZero(new Map(got.periods.map((p) => [p.at, figures(p)]))), JSON.stringify(dims)).toEqual(nonZero(want.byDay));
        const subIds = new Map(got.cuts.subId.filter((r) => r.leads || r.sold).map((r) => [r.key, { leads: r.leads, sold: r.sold }]));
        expect(subIds, JSON.stringify(dims)).toEqual(new Map([...want.bySubId].filter(([, c]) => c.leads || c.sold)));
      }
    } finally {
      await db.destroy();
    }
  }, 180_000);
});

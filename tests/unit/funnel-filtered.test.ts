/**
 * The filtered overview's fast path (traffic_daily_pairs: one filter's value by day, whole or by
 * one other dimension) against a recount over the raw visits and events, on generated data, on
 * SQLite and PostgreSQL: the funnel, every breakdown and the daily series agree for every filter the
 * console offers, whether the pairs kept by the writer or the ones the migration fills from the
 * hourly rollups answer. The money is recounted from the sale records (each sale on its day,
 * each return on its own, with the dimensions of the lead's visit).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateStore, openStore, type Store, type StoreOptions } from '../../engine/store/db';
import * as pairsMigration from '../../engine/store/migrations/009_traffic_daily_pairs';
import { writeDemoTraffic } from '../../engine/traffic/demoTraffic';
import { BREAKDOWNS, breakdown, funnel, pairPlan, series, type Breakdown, type FunnelFilter } from '../../engine/traffic/funnelQuery';
import { FUNNEL_STAGES } from '../../engine/store/trafficRules';
import { bothStores } from '../support/bothStores';

const { tmp, postgres } = bothStores('loansites-funnel-filtered-');

const NOW = new Date('2025-04-01T00:00:00.000Z');
const RANGE = { from: '2025-03-27T00:00:00.000Z', to: '2025-04-01T00:00:00.000Z' };
const STAGE_OF = new Map<string, string>(FUNNEL_STAGES.map(([s, m]) => [m, s]));

interface Fact {
  at: string;
  metric: string;
  value: number;
  dims: Record<Breakdown, string>;
}

/** Every visit and event as a fact with its dimensions, straight from the raw tables; every sale and return too, with its lead's visit's dimensions. */
async function rawFacts(db: Store): Promise<Fact[]> {
  const visits = await db.selectFrom('traffic_visits').selectAll().execute();
  const events = await db.selectFrom('traffic_events').selectAll().execute();
  const leads = new Map((await db.selectFrom('leads').select(['id', 'visit_id', 'state']).execute()).map((l) => [l.id, l]));
  const visitOf = new Map(visits.map((v) => [v.id, v]));
  const dimsOf = (leadId: string): Record<Breakdown, string> => {
    const lead = leads.get(leadId)!;
    const v = visitOf.get(lead.visit_id!)!;
    return { brand: v.brand, campaign: v.campaign, source: v.source, landing: v.landing_path, device: v.device, state: lead.state.toUpperCase() };
  };
  const sales = await db.selectFrom('lead_sales').selectAll().where('status', 'in', ['sold', 'returned']).execute();
  const returns = await db.selectFrom('lead_returns').selectAll().execute();
  return [
    ...sales.map((x) => ({ at: x.decided_at!, metric: 'sale_sold', value: Number(x.price_cents), dims: dimsOf(x.lead_id) })),
    ...returns.map((x) => ({ at: x.created_at, metric: 'sale_return', value: Number(x.price_cents), dims: dimsOf(x.lead_id) })),
    ...visits.map((v) => ({
      at: v.created_at,
      metric: 'visit',
      value: 0,
      dims: { brand: v.brand, campaign: v.campaign, source: v.source, landing: v.landing_path, device: v.device, state: '' },
    })),
    ...events.map((e) => ({
      at: e.created_at,
      metric: e.metric,
      value: Number(e.value),
      dims: { brand: e.brand, campaign: e.campaign, source: e.source, landing: e.landing, device: e.device, state: e.state },
    })),
  ];
}

/** The overview recounted from the facts: funnel counts and revenue, each breakdown by key, visits/stored/sold per day. */
function recount(facts: Fact[], f: FunnelFilter) {
  const hits = facts.filter(
    (x) =>
      x.at >= f.from &&
      x.at < f.to &&
      (STAGE_OF.has(x.metric) || x.metric === 'sale_return') &&
      (['brand', 'campaign', 'source', 'landing', 'device'] as const).every((d) => f[d] === undefined || x.dims[d] === f[d]),
  );
  const tally = (xs: Fact[]) => {
    const counts: Record<string, number> = Object.fromEntries(FUNNEL_STAGES.map(([s]) => [s, 0]));
    let revenue = 0;
    let returned = 0;
    let returnedCents = 0;
    for (const x of xs) {
      if (x.metric === 'sale_return') {
        returned += 1;
        returnedCents += x.value;
        revenue -= x.value;
        continue;
      }
      counts[STAGE_OF.get(x.metric)!]! += 1;
      if (x.metric === 'sale_sold') revenue += x.value;
    }
    return { counts, revenue, returned, returnedCents };
  };
  const by = (d: Breakdown) => {
    const keys = [...new Set(hits.map((x) => x.dims[d]))].sort();
    return keys.map((key) => {
      const t = tally(hits.filter((x) => x.dims[d] === key));
      return { key, ...t.counts, revenueCents: t.revenue, returned: t.returned };
    });
  };
  const days = [...new Set(hits.filter((x) => ['visit', 'stored', 'sale_sold', 'sale_return'].includes(x.metric)).map((x) => x.at.slice(0, 10)))].sort();
  const chart = days.map((at) => {
    const t = tally(hits.filter((x) => x.at.startsWith(at)));
    return {
      at,
      visits: t.counts.visits,
      stored: t.counts.stored,
      sold: t.counts.sold,
      returned: t.returned,
      returnedCents: t.returnedCents,
      revenueCents: t.revenue,
    };
  });
  return { total: tally(hits), breakdowns: Object.fromEntries(BREAKDOWNS.map((d) => [d, by(d)])), chart };
}

async function answered(db: Store, f: FunnelFilter) {
  const fn = await funnel(db, f);
  const total = {
    counts: Object.fromEntries(fn.stages.map((s) => [s.stage, s.count])),
    revenue: fn.revenueCents,
    returned: fn.returned,
    returnedCents: fn.returnedCents,
  };
  const breakdowns: Record<string, unknown> = {};
  for (const d of BREAKDOWNS) breakdowns[d] = (await breakdown(db, f, d, 10_000)).sort((a, b) => (a.key < b.key ? -1 : 1));
  return { total, breakdowns, chart: await series(db, f, 'day') };
}

const FILTERS: FunnelFilter[] = [
  { ...RANGE, campaign: 'tx-payday' },
  { ...RANGE, campaign: '' },
  { ...RANGE, source: 'facebook' },
  { ...RANGE, landing: '/payday-loans/texas' },
  { ...RANGE, device: 'mobile' },
  { ...RANGE, brand: 'ipaydayloans', campaign: 'brand-terms' },
  { ...RANGE, brand: 'ustitleloans', device: 'desktop' },
  { ...RANGE, source: 'google', device: 'mobile' },
  RANGE,
  { ...RANGE, brand: 'honestloans' },
];

describe.each([
  ['SQLite', (): StoreOptions => ({ url: '', file: join(tmp, 'filtered.sqlite') })],
  ['PostgreSQL', (): StoreOptions => ({ url: postgres().url })],
])('%s', (_kind, options) => {
  let db: Store;
  let facts: Fact[];
  beforeAll(async () => {
    db = openStore(options());
    await migrateStore(db);
    await writeDemoTraffic(db, { events: 6000, leads: 80, days: 5, seed: 7, now: NOW, brands: ['ipaydayloans', 'ustitleloans', 'honestloans'] });
    facts = await rawFacts(db);
  }, 120_000);
  afterAll(() => db?.destroy());

  it('no filter, or a single filter (campaign, source, landing page or device), is answered from the filtered daily rollups', () => {
    for (const f of FILTERS.slice(0, 5)) {
      expect(pairPlan(f)).toBeDefined();
      for (const d of BREAKDOWNS) expect(pairPlan(f, d)).toBeDefined();
    }
    expect(pairPlan(FILTERS[5]!)).toMatchObject({ dim: 'brand', keyIs: 'ipaydayloans' });
    expect(pairPlan(FILTERS[5]!, 'source')).toBeUndefined();
    expect(pairPlan(FILTERS[7]!)).toBeUndefined();
    // No filter at all is answered there too (every brand summed); a brand alone by traffic_daily.
    for (const d of [undefined, ...BREAKDOWNS]) expect(pairPlan(RANGE, d)).toBeDefined();
    expect(pairPlan(FILTERS[9]!)).toBeUndefined();
    expect(pairPlan({ ...FILTERS[0]!, to: '2025-04-01T05:00:00.000Z' })).toBeUndefined();
  });

  it.each(FILTERS.map((f) => [JSON.stringify({ ...f, from: undefined, to: undefined }), f] as const))(
    'filtered by %s: funnel, breakdowns and series equal the raw recount',
    async (_name, f) => {
      const want = recount(facts, f);
      expect(want.total.counts.visits).toBeGreaterThan(0);
      expect(await answered(db, f)).toEqual(want);
    },
  );

  it('the rollups the migration fills from the hourly cube give the same answers as the ones the writer kept', async () => {
    const kept = await db
      .selectFrom('traffic_daily_pairs')
      .selectAll()
      .orderBy('fdim')
      .orderBy('fkey')
      .orderBy('dim')
      .orderBy('day')
      .orderBy('key')
      .orderBy('metric')
      .execute();
    expect(kept.length).toBeGreaterThan(0);
    await pairsMigration.down(db as never);
    await pairsMigration.up(db as never);
    const filled = await db
      .selectFrom('traffic_daily_pairs')
      .selectAll()
      .orderBy('fdim')
      .orderBy('fkey')
      .orderBy('dim')
      .orderBy('day')
      .orderBy('key')
      .orderBy('metric')
      .execute();
    const norm = (rows: typeof kept) => rows.map((r) => ({ ...r, count: Number(r.count), value: Number(r.value) }));
    expect(norm(filled)).toEqual(norm(kept));
    for (const f of FILTERS.slice(0, 2)) expect(await answered(db, f)).toEqual(recount(facts, f));
  });
});

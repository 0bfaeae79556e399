/**
 * The funnel, breakdowns and series against what the test itself wrote: a known set of visits
 * and events (the stages, from the rollups) and sale records (the money: a sale on one day, a
 * sale returned the next), on SQLite and PostgreSQL; the rates as a table; and the demo
 * generator's data giving the same funnel from the rollups as from the raw rows, and its money.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateStore, openStore, type Store, type StoreOptions } from '../../engine/store/db';
import { writeTraffic, type TrafficEventInput } from '../../engine/store/traffic';
import { writeDemoTraffic } from '../../engine/traffic/demoTraffic';
import { BREAKDOWNS, breakdown, dailyAnswers, funnel, funnelOf, series } from '../../engine/traffic/funnelQuery';
import { visitRow } from '../../engine/store/trafficRules';
import { insertLead } from '../../engine/store/leads';
import { bothStores } from '../support/bothStores';
import { leadRow } from '../support/leadRow';
import { recordSaleRow } from '../support/saleRecord';

const { tmp, postgres } = bothStores('loansites-funnel-');

const day1 = new Date('2025-03-01T10:00:00.000Z');
const day2 = new Date('2025-03-02T15:30:00.000Z');
const ctx = (brand: string, now: Date, ua = 'iPhone Mobile') => ({ brand, host: `${brand}.com`, userAgent: ua, optedOut: false, now });
const ev = (visitId: string, metric: string, at: Date, extra: Partial<TrafficEventInput> = {}): TrafficEventInput => ({
  visitId,
  metric,
  path: '/apply',
  state: '',
  value: 0,
  brand: 'x',
  device: 'other',
  createdAt: at.toISOString(),
  ...extra,
});
const v = (n: number) => `v${n.toString(16).padStart(32, '0')}`;

describe.each([
  ['SQLite', (): StoreOptions => ({ url: '', file: join(tmp, 'funnel.sqlite') })],
  ['PostgreSQL', (): StoreOptions => ({ url: postgres().url })],
])('%s', (_kind, options) => {
  let db: Store;
  beforeAll(async () => {
    db = openStore(options());
    await migrateStore(db);
    // Four visits: two from "spring" on one brand (one of them all the way to a sale), one without a campaign, one on another brand the next day.
    await writeTraffic(db, {
      visits: [
        visitRow(v(1), { path: '/payday-loans', params: { utm_campaign: 'spring', utm_source: 'google' } }, ctx('ipaydayloans', day1)),
        visitRow(v(2), { path: '/payday-loans', params: { utm_campaign: 'spring', utm_source: 'google' } }, ctx('ipaydayloans', day1, 'Windows NT')),
        visitRow(v(3), { path: '/' }, ctx('ipaydayloans', day1)),
        visitRow(v(4), { path: '/title-loans', params: { source1: 'fall' } }, ctx('ustitleloans', day2)),
      ],
      events: [
        ...['apply_view', 'step_1', 'step_2', 'submitted'].map((m) => ev(v(1), m, day1)),
        ev(v(1), 'stored', day1, { state: 'TX' }),
        ev(v(2), 'stored', day1, { state: 'TX' }),
        ev(v(2), 'apply_view', day1),
        ev(v(2), 'state_refused', day1, { state: 'NY' }),
        ev(v(4), 'apply_view', day2),
        ev(v(4), 'step_1', day2),
      ],
    });
    // v1's lead sold on day 1 for $42.00; v2's lead sold on day 1 for $10.00 and was returned on day 2.
    const sold = await insertLead(db, leadRow({ visit_id: v(1), created_at: day1.toISOString() }), []);
    const back = await insertLead(db, leadRow({ visit_id: v(2), created_at: day1.toISOString() }), []);
    await recordSaleRow(db, { leadId: sold.id, buyer: 'acme', priceCents: 4200, at: day1 });
    await recordSaleRow(db, { leadId: back.id, buyer: 'acme', priceCents: 1000, at: day1, returnedAt: day2 });
  });
  afterAll(() => db?.destroy());

  const all = { from: '2025-03-01T00:00:00.000Z', to: '2025-03-03T00:00:00.000Z' };

  it('the funnel over everything: visits → apply views → step 1 → step 2 → submitted → stored → sold, and the money', async () => {
    const f = await funnel(db, all);
    expect(f.stages.map((s) => [s.stage, s.count])).toEqual([
      ['visits', 4],
      ['applyViews', 3],
      ['step1', 2],
      ['step2', 1],
      ['submitted', 1],
      ['stored', 2],
      ['sold', 2],
    ]);
    expect([f.soldCents, f.returned, f.returnedCents, f.revenueCents]).toEqual([5200, 1, 1000, 4200]);
    expect([f.earningsPerLeadCents, f.earningsPerVisitCents]).toEqual([2100, 1050]);
  });

  it('a sale returned later counts on its sale day and comes off the revenue on the day of the return', async () => {
    expect(await funnel(db, { from: '2025-03-01T00:00:00.000Z', to: '2025-03-02T00:00:00.000Z' })).toMatchObject({
      soldCents: 5200,
      returned: 0,
      revenueCents: 5200,
    });
    expect(await funnel(db, { from: '2025-03-02T00:00:00.000Z', to: '2025-03-03T00:00:00.000Z' })).toMatchObject({
      soldCents: 0,
      returned: 1,
      returnedCents: 1000,
      revenueCents: -1000,
    });
    const back = await funnel(db, { ...all, device: 'desktop' });
    expect([back.stages.at(-1)!.count, back.returned, back.revenueCents]).toEqual([1, 1, 0]);
  });

  it('filters by brand, campaign, source, landing page, device and time', async () => {
    const count = async (extra: object) => (await funnel(db, { ...all, ...extra })).stages.map((s) => s.count);
    expect(await count({ campaign: 'spring' })).toEqual([2, 2, 1, 1, 1, 2, 2]);
    expect(await count({ brand: 'ustitleloans' })).toEqual([1, 1, 1, 0, 0, 0, 0]);
    expect(await count({ source: 'google', device: 'desktop' })).toEqual([1, 1, 0, 0, 0, 1, 1]);
    expect(await count({ landing: '/' })).toEqual([1, 0, 0, 0, 0, 0, 0]);
    expect(await count({ from: '2025-03-02T00:00:00.000Z' })).toEqual([1, 1, 1, 0, 0, 0, 0]);
  });

  it('breaks down by campaign (largest first) and by state; a series by day', async () => {
    const byCampaign = await breakdown(db, all, 'campaign');
    expect(byCampaign.map((r) => [r.key, r.visits, r.applyViews, r.stored, r.revenueCents])).toEqual([
      ['spring', 2, 2, 2, 4200],
      ['', 1, 0, 0, 0],
      ['fall', 1, 1, 0, 0],
    ]);
    expect((await breakdown(db, all, 'state')).find((r) => r.key === 'TX')).toMatchObject({ stored: 2, sold: 2, returned: 1, revenueCents: 4200 });
    expect(await series(db, all, 'day')).toEqual([
      { at: '2025-03-01', visits: 3, stored: 2, sold: 2, returned: 0, returnedCents: 0, revenueCents: 5200 },
      { at: '2025-03-02', visits: 1, stored: 0, sold: 0, returned: 1, returnedCents: 1000, revenueCents: -1000 },
    ]);
  });
});

describe('rates', () => {
  it.each([
    [{ visits: 100, applyViews: 25, step1: 10, step2: 5, submitted: 4, stored: 4, sold: 2 }, 1000, [1, 0.25, 0.4, 0.5, 0.8, 1, 0.5], 250, 10],
    [{}, 0, [1, 0, 0, 0, 0, 0, 0], 0, 0],
    [{ visits: 0, stored: 3 }, 900, [1, 0, 0, 0, 0, 0, 0], 300, 0],
  ])('%j with %i cents', (counts, revenue, rates, perLead, perVisit) => {
    const f = funnelOf(counts, revenue);
    expect(f.stages.map((s) => s.rate)).toEqual(rates);
    expect([f.earningsPerLeadCents, f.earningsPerVisitCents]).toEqual([perLead, perVisit]);
  });
});

it('the demo generator’s data: the funnel from the rollups equals the counts over its raw rows', async () => {
  const db = openStore({ url: '', file: join(tmp, 'demo.sqlite') });
  await migrateStore(db);
  const done = await writeDemoTraffic(db, { events: 5000, leads: 60, days: 7, seed: 5, now: new Date('2025-04-01T00:00:00.000Z') });
  const f = await funnel(db, { from: '2025-01-01T00:00:00.000Z', to: '2025-05-01T00:00:00.000Z' });
  const raw = async (metric: string) =>
    Number(
      (
        await db
          .selectFrom('traffic_events')
          .where('metric', '=', metric)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  expect(f.stages.map((s) => s.count)).toEqual([
    done.visits,
    await raw('apply_view'),
    await raw('step_1'),
    await raw('step_2'),
    await raw('submitted'),
    done.leads,
    done.sold,
  ]);
  expect(done.leads).toBe(60);
  expect([f.returned, f.revenueCents]).toEqual([done.returned, done.revenueCents]);
  expect(done.returned).toBeGreaterThan(0);
  // Whole days without filters come from the daily rollups; the same range a millisecond off comes from the hourly cube: the same answers.
  const daily = { from: '2025-03-20T00:00:00.000Z', to: '2025-04-01T00:00:00.000Z', brand: 'ipaydayloans' };
  const hourly = { ...daily, to: '2025-04-01T00:00:00.001Z' };
  expect(dailyAnswers(daily)).toBe(true);
  expect(dailyAnswers(hourly)).toBe(false);
  expect(await funnel(db, daily)).toEqual(await funnel(db, hourly));
  for (const by of BREAKDOWNS) expect([by, await breakdown(db, daily, by)]).toEqual([by, await breakdown(db, hourly, by)]);
  expect(await series(db, daily)).toEqual(await series(db, hourly));
  const leads = await db.selectFrom('leads').select(['visit_id', 'email']).execute();
  expect(leads.length).toBe(60);
  expect(leads.every((l) => l.visit_id?.startsWith('vdemo') && l.email.endsWith('@example.com'))).toBe(true);
  await db.destroy();
}, 60_000);

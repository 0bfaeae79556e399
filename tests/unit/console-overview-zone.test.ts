/**
 * The overview as one operator sees it, on SQLite and PostgreSQL: days in the operator's time
 * zone (a sale at 03:30 UTC is the evening before in New York), grouping by hour, week and month,
 * the totals beside the previous period's, and every amount — CAD sales and a CAD cost report —
 * converted to the operator's currency through the rate an admin set, the rate named; without a
 * rate a currency is left out and named, never summed as dollars. The buyers page and a buyer's
 * page count the operator's days as the overview does.
 */
import { describe, expect, it } from 'vitest';
import { insertLead } from '../../engine/store/leads';
import { writeTraffic } from '../../engine/store/traffic';
import { visitRow } from '../../engine/store/trafficRules';
import { setCurrencyRate } from '../../engine/store/currencyRates';
import { importCostReport } from '../../engine/traffic/costImport';
import { overviewData, type OverviewAsk } from '../../engine/console/overviewData';
import { operatorBuyers } from '../../engine/console/buyersPage';
import { buyerDetail } from '../../engine/console/buyerDetail';
import { addUser } from '../../engine/store/console';
import { bothStores, migratedStore } from '../support/bothStores';
import { overviewAsk } from '../support/overviewAsk';
import { leadRow } from '../support/leadRow';
import { recordSaleRow } from '../support/saleRecord';
import { trafficEvent } from '../support/trafficEvent';

const stores = bothStores('loansites-zone-');
const v = (n: number) => `v${n.toString(16).padStart(32, '0')}`;
const EVENING = new Date('2026-11-02T03:30:00.000Z'); // 22:30 on 1 November in New York
const AFTERNOON = new Date('2026-11-02T15:30:00.000Z');
const BEFORE = new Date('2026-10-31T12:00:00.000Z');
const ask = (extra: Partial<OverviewAsk> = {}): OverviewAsk => overviewAsk({ from: '2026-11-01', to: '2026-11-02', ...extra });

describe.each(stores.kinds('zone.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);

  it('groups by the operator’s days, hours, weeks and months, and compares with the period before', async () => {
    const ctx = (now: Date) => ({ brand: 'ipaydayloans', host: 'ipaydayloans.localhost', userAgent: 'iPhone', optedOut: false, now });
    await writeTraffic(db(), {
      visits: [visitRow(v(1), { path: '/payday-loans' }, ctx(EVENING)), visitRow(v(2), { path: '/payday-loans' }, ctx(AFTERNOON))],
      events: [trafficEvent(v(1), 'stored', EVENING.toISOString()), trafficEvent(v(2), 'stored', AFTERNOON.toISOString())],
    });
    const sell = async (visit: string | null, at: Date, cents: number, extra = {}) => {
      const lead = await insertLead(db(), leadRow({ visit_id: visit, created_at: at.toISOString(), ...extra }), []);
      await recordSaleRow(db(), { leadId: lead.id, buyer: 'acme', priceCents: cents, at });
    };
    await sell(v(1), EVENING, 4000);
    await sell(v(2), AFTERNOON, 2000);
    await sell(null, BEFORE, 1000);

    const utc = await overviewData(db(), ask());
    expect(utc.periods.map((p) => [p.at, p.visits, p.sold, p.revenueCents])).toEqual([['2026-11-02', 2, 2, 6000]]);
    expect(utc.zone).toBe('UTC');
    // the landing page's leads from the rollups' stored leads, its sales from the sale records
    expect(utc.cuts.landing.map((r) => [r.key, r.leads, r.sold, r.revenueCents])).toEqual([['/payday-loans', 2, 2, 6000]]);
    expect(utc.cuts.loanKind.map((r) => [r.key, r.leads, r.sold])).toEqual([['general', 2, 2]]);

    const ny = await overviewData(db(), ask({ zone: 'America/New_York' }));
    expect(ny.periods.map((p) => [p.at, p.visits, p.sold, p.revenueCents])).toEqual([
      ['2026-11-01', 1, 1, 4000],
      ['2026-11-02', 1, 1, 2000],
    ]);
    const hours = await overviewData(db(), ask({ zone: 'America/New_York', grain: 'hour' }));
    expect(hours.periods.map((p) => [p.at, p.sold])).toEqual([
      ['2026-11-01 22:00', 1],
      ['2026-11-02 10:00', 1],
    ]);
    const weeks = await overviewData(db(), ask({ zone: 'America/New_York', grain: 'week' }));
    expect(weeks.periods.map((p) => [p.at, p.sold])).toEqual([
      ['week of 2026-10-26', 1],
      ['week of 2026-11-02', 1],
    ]);
    const months = await overviewData(db(), ask({ from: '2026-10-31', grain: 'month' }));
    expect(months.periods.map((p) => [p.at, p.sold])).toEqual([
      ['2026-10', 1],
      ['2026-11', 2],
    ]);

    // 1–2 November against 30–31 October: $60.00 against $10.00
    const compared = await overviewData(db(), ask({ compare: true }));
    expect(compared.previous).toMatchObject({ from: '2026-10-30', to: '2026-10-31', totals: { sold: 1, revenueCents: 1000, visits: 0 } });
    expect(compared.totals).toMatchObject({ sold: 2, revenueCents: 6000, visits: 2, stored: 2 });

    // the buyers page, asked the same days by the same operator, counts the same sales
    await addUser(db(), { email: 'ny@example.com', role: 'analyst', passwordHash: 'x' });
    await db().updateTable('console_users').set({ time_zone: 'America/New_York' }).where('email', '=', 'ny@example.com').execute();
    const won = async (email: string, from: string, to: string) =>
      (await operatorBuyers(db(), email, { from, to })).rows.map((r) => [r.buyer, r.wins, r.revenueCents]);
    expect(await operatorBuyers(db(), 'ny@example.com', { from: '2026-11-01', to: '2026-11-01' })).toMatchObject({ zone: 'America/New_York' });
    expect(await won('ny@example.com', '2026-11-01', '2026-11-01')).toEqual([['acme', 1, 4000]]);
    expect(await won('ny@example.com', '2026-11-02', '2026-11-02')).toEqual([['acme', 1, 2000]]);
    expect(await won('nobody-set-a-zone@example.com', '2026-11-02', '2026-11-02')).toEqual([['acme', 2, 6000]]);
    // asked no range at 22:30 on 2 November in New York: the last 7 of its days, to 2 November
    const evening = new Date('2026-11-03T03:30:00.000Z');
    expect(await operatorBuyers(db(), 'ny@example.com', { from: '', to: '' }, new Map(), evening)).toMatchObject({ from: '2026-10-27', to: '2026-11-02' });
  });

  it('a buyer’s page counts the last 14 of the operator’s days, to their today', async () => {
    const lead = await insertLead(db(), leadRow({ created_at: EVENING.toISOString() }), []);
    await recordSaleRow(db(), { leadId: lead.id, buyer: 'zoned', priceCents: 3000, at: EVENING });
    await db()
      .insertInto('sale_events')
      .values({
        id: 'se-zoned-1',
        lead_id: lead.id,
        at: EVENING.toISOString(),
        buyer_id: 'zoned',
        step: 'ping',
        outcome: 'bid',
        price_cents: 3000,
        latency_ms: 80,
        detail: '',
      })
      .execute();
    const now = new Date('2026-11-03T03:30:00.000Z'); // 22:30 on 2 November in New York
    const trend = (d: Awaited<ReturnType<typeof buyerDetail>>) =>
      d.days.filter((x) => x.pings || x.wins).map((x) => [x.day, x.pings, x.bids, x.wins, x.revenueCents]);

    const utc = await buyerDetail(db(), 'zoned', now);
    expect([utc.zone, utc.days[0]!.day, utc.days.at(-1)!.day]).toEqual(['UTC', '2026-10-21', '2026-11-03']);
    expect(trend(utc)).toEqual([['2026-11-02', 1, 1, 1, 3000]]);

    const ny = await buyerDetail(db(), 'zoned', now, undefined, 'America/New_York');
    expect([ny.zone, ny.days.length, ny.days[0]!.day, ny.days.at(-1)!.day]).toEqual(['America/New_York', 14, '2026-10-20', '2026-11-02']);
    expect(trend(ny)).toEqual([['2026-11-01', 1, 1, 1, 3000]]);
    expect(ny).toMatchObject({ wins: 1, posts: 0 });
  });

  it('converts CAD sales and costs to the operator’s currency at the rate set, and names a currency without a rate', async () => {
    const at = new Date('2026-11-20T12:00:00.000Z');
    const lead = await insertLead(db(), leadRow({ brand: 'weloans', currency: 'CAD', created_at: at.toISOString() }), []);
    await recordSaleRow(db(), { leadId: lead.id, buyer: 'maple', priceCents: 10000, at }); // C$100.00
    const usd = await insertLead(db(), leadRow({ created_at: at.toISOString() }), []);
    await recordSaleRow(db(), { leadId: usd.id, buyer: 'acme', priceCents: 7300, at }); // $73.00
    await importCostReport(db(), { text: 'day,campaign,cost,clicks,currency\n2026-11-20,maple-fall,50.00,10,CAD\n', source: 'generic', actor: 'cli' });
    const day = { from: '2026-11-20', to: '2026-11-20' };

    // No rate yet: the CAD sale and cost are left out and named, not added as dollars.
    const none = await overviewData(db(), ask(day));
    expect(none.data.funnel.revenueCents).toBe(7300);
    expect(none.data.cost.costCents).toBeNull();
    expect(none.currencies).toEqual([{ currency: 'CAD', usdMicros: null, leftOutCents: 15000, rate: null }]);

    await setCurrencyRate(db(), 'CAD', 730_000, 'admin@example.com');
    const inUsd = await overviewData(db(), ask(day));
    // C$100.00 × 0.73 = $73.00, plus $73.00; the cost C$50.00 = $36.50
    expect(inUsd.data.funnel.revenueCents).toBe(14600);
    expect(inUsd.data.cost).toMatchObject({ costCents: 3650, profitCents: 14600 - 3650 });
    expect(inUsd.currencies).toEqual([{ currency: 'CAD', usdMicros: 730_000, leftOutCents: 0, rate: '1 CAD = 0.730000 USD' }]);
    expect(inUsd.cuts.buyer.map((r) => [r.key, r.revenueCents])).toEqual([
      ['acme', 7300],
      ['maple', 7300],
    ]);

    // Read in CAD: the US sale becomes C$100.00 (73.00 ÷ 0.73)
    const inCad = await overviewData(db(), ask({ ...day, currency: 'CAD' }));
    expect(inCad.data.funnel.revenueCents).toBe(20000);
    expect(inCad.data.cost.costCents).toBe(5000);
    expect(inCad.currencies).toEqual([{ currency: 'USD', usdMicros: 1_000_000, leftOutCents: 0, rate: '1 CAD = 0.730000 USD' }]);

    const audit = await db().selectFrom('console_audit').select(['actor', 'target', 'detail']).where('action', '=', 'currency_rate_set').execute();
    expect(audit.map((a) => [a.actor, a.target, JSON.parse(a.detail)])).toEqual([['admin@example.com', 'CAD', { before: null, after: 730_000 }]]);
  });
});

/**
 * The overview's lead cuts on SQLite and PostgreSQL: by buyer (offered, rejected, acceptance,
 * response p50/p95 from its pings), by sub-id, landing page and loan kind (stored leads, sold,
 * rejected = no buyer took it, returns and return %, revenue per lead and per sold lead), money
 * from the sale records as on the rest of the overview, and no cost (cost reports give campaigns).
 */
import { describe, expect, it } from 'vitest';
import { insertLead } from '../../engine/store/leads';
import { addEvents, type NewEvent } from '../../engine/store/sales';
import { writeTraffic } from '../../engine/store/traffic';
import { visitRow } from '../../engine/store/trafficRules';
import { histogramPercentile, leadCuts } from '../../engine/console/cutsQuery';
import { moneyCells } from '../../engine/traffic/moneyQuery';
import { bothStores, migratedStore } from '../support/bothStores';
import { leadRow } from '../support/leadRow';
import { recordSaleRow } from '../support/saleRecord';

const stores = bothStores('loansites-cuts-');
const at = new Date('2026-11-02T10:00:00.000Z');
const RANGE = { from: '2026-11-01T00:00:00.000Z', to: '2026-11-04T00:00:00.000Z' };
const v = (n: number) => `v${n.toString(16).padStart(32, '0')}`;
const ctx = { brand: 'ipaydayloans', host: 'ipaydayloans.localhost', userAgent: 'iPhone', optedOut: false, now: at };

describe('histogramPercentile', () => {
  it('takes the nearest rank over values counted more than once', () => {
    expect(histogramPercentile([], 0.5)).toBeNull();
    expect(
      histogramPercentile(
        [
          [300, 1],
          [100, 2],
          [200, 1],
        ],
        0.5,
      ),
    ).toBe(100);
    expect(
      histogramPercentile(
        [
          [300, 1],
          [100, 2],
          [200, 1],
        ],
        0.95,
      ),
    ).toBe(300);
    expect(
      histogramPercentile(
        [
          [100, 1],
          [200, 1],
          [300, 1],
          [400, 1],
        ],
        0.5,
      ),
    ).toBe(200);
  });
});

describe.each(stores.kinds('cuts.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);

  it('splits leads, sales, rejections and returns by buyer, sub-id, landing page and loan kind', async () => {
    await writeTraffic(db(), {
      visits: [visitRow(v(1), { path: '/payday-loans' }, ctx), visitRow(v(2), { path: '/title-loans' }, ctx)],
      events: [],
    });
    const lead = (visit: string, source2: string, loan_kind: string) =>
      insertLead(db(), leadRow({ visit_id: visit, source2, loan_kind, created_at: at.toISOString() }), []).then((l) => l.id);
    const a = await lead(v(1), 'sub-a', 'general');
    const b = await lead(v(1), 'sub-a', 'general');
    const c = await lead(v(2), 'sub-b', 'title');
    const d = await lead(v(2), 'sub-b', 'title');
    // a: acme $40 (returned the next day); b: acme $20; c: beta $10; d: nobody took it
    await recordSaleRow(db(), { leadId: a, buyer: 'acme', priceCents: 4000, at, returnedAt: new Date('2026-11-03T09:00:00.000Z') });
    await recordSaleRow(db(), { leadId: b, buyer: 'acme', priceCents: 2000, at });
    await recordSaleRow(db(), { leadId: c, buyer: 'beta', priceCents: 1000, at });
    await db()
      .insertInto('lead_sales')
      .values({ lead_id: d, status: 'unsold', duplicate: 0, runs: 1, created_at: at.toISOString(), decided_at: at.toISOString() })
      .execute();
    const ping = (lead_id: string, buyer_id: string, outcome: 'bid' | 'no-bid', latency_ms: number): NewEvent => ({
      lead_id,
      buyer_id,
      step: 'ping',
      outcome,
      latency_ms,
      at: at.toISOString(),
    });
    await addEvents(db(), [
      ping(a, 'acme', 'bid', 100),
      ping(b, 'acme', 'bid', 200),
      ping(c, 'acme', 'no-bid', 900),
      ping(d, 'acme', 'no-bid', 300),
      ping(c, 'beta', 'bid', 50),
      ping(d, 'beta', 'no-bid', 60),
      { lead_id: a, buyer_id: 'acme', step: 'post', outcome: 'sending', at: at.toISOString() },
    ]);

    const cuts = await leadCuts(db(), RANGE, await moneyCells(db(), RANGE));
    const pick = (rows: (typeof cuts)['buyer']) =>
      Object.fromEntries(rows.map((r) => [r.key, [r.leads, r.sold, r.rejected, r.returned, r.returnRate, r.revenueCents, r.acceptance]]));
    expect(pick(cuts.buyer)).toEqual({ acme: [4, 2, 2, 1, 0.5, 2000, 0.5], beta: [2, 1, 1, 0, 0, 1000, 0.5] });
    expect(cuts.buyer.map((r) => [r.key, r.p50Ms, r.p95Ms])).toEqual([
      ['acme', 200, 900],
      ['beta', 50, 60],
    ]);
    expect(pick(cuts.subId)).toEqual({ 'sub-a': [2, 2, 0, 1, 0.5, 2000, 1], 'sub-b': [2, 1, 1, 0, 0, 1000, 0.5] });
    expect(pick(cuts.loanKind)).toEqual({ general: [2, 2, 0, 1, 0.5, 2000, 1], title: [2, 1, 1, 0, 0, 1000, 0.5] });
    expect(pick(cuts.landing)).toEqual({ '/payday-loans': [2, 2, 0, 1, 0.5, 2000, 1], '/title-loans': [2, 1, 1, 0, 0, 1000, 0.5] });
    // revenue per lead and per sold lead are known; cost (and so profit) is not, for any of these cuts
    expect(cuts.subId[0]!.cost).toMatchObject({ costCents: null, profitCents: null, revenuePerLeadCents: 1000, revenuePerSoldCents: 1000 });

    // a filter narrows every cut: only /title-loans' leads
    const title = { ...RANGE, landing: '/title-loans' };
    const narrowed = await leadCuts(db(), title, await moneyCells(db(), title));
    expect(pick(narrowed.buyer)).toEqual({ acme: [2, 0, 2, 0, null, 0, 0], beta: [2, 1, 1, 0, 0, 1000, 0.5] });
    expect(narrowed.subId.map((r) => r.key)).toEqual(['sub-b']);
  });
});

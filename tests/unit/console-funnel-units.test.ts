/**
 * The overview's funnel counts each stage in a stated unit, so no stage outgrows the one before it
 * in the same unit: visits up to "submitted" (each stage once per visit), leads from "stored" on —
 * every lead stored, two from one visit counted twice, as the sale records count each lead sold.
 * Known visits, leads and sales on SQLite and PostgreSQL, every figure asserted.
 */
import { describe, expect, it } from 'vitest';
import { insertLead } from '../../engine/store/leads';
import { writeTraffic } from '../../engine/store/traffic';
import { visitRow } from '../../engine/store/trafficRules';
import { overviewData } from '../../engine/console/overviewData';
import { funnelRows } from '../../blocks/console/charts';
import { bothStores, migratedStore } from '../support/bothStores';
import { overviewAsk } from '../support/overviewAsk';
import { leadRow } from '../support/leadRow';
import { recordSaleRow } from '../support/saleRecord';
import { trafficEvent } from '../support/trafficEvent';

const stores = bothStores('loansites-funnel-units-');
const v = (n: number) => `v${n.toString(16).padStart(32, '0')}`;
const AT = new Date('2026-11-10T12:00:00.000Z');
const at = AT.toISOString();

describe.each(stores.kinds('funnel-units.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);

  it('counts visits up to submitted and leads from stored on, so sold never exceeds stored', async () => {
    const ctx = { brand: 'ipaydayloans', host: 'ipaydayloans.localhost', userAgent: 'iPhone', optedOut: false, now: AT };
    const visit = (n: number) => visitRow(v(n), { path: '/payday-loans', params: { utm_campaign: 'fall' } }, ctx);
    const through = (n: number, ...metrics: string[]) => metrics.map((m) => trafficEvent(v(n), m, at));
    // v1 applies twice (two leads, both sold), v2 once (its lead unsold), v3 stops at step 1, v4 only visits
    await writeTraffic(db(), {
      visits: [visit(1), visit(2), visit(3), visit(4)],
      events: [
        ...through(1, 'apply_view', 'step_1', 'step_2', 'submitted', 'stored'),
        ...through(2, 'apply_view', 'step_1', 'step_2', 'submitted', 'stored'),
        ...through(3, 'apply_view', 'step_1'),
      ],
    });
    // the second lead of v1, written in a later batch as the server writes each lead's event
    await writeTraffic(db(), { visits: [], events: through(1, 'submitted', 'stored') });
    for (const [visitId, cents] of [
      [v(1), 4000],
      [v(1), 2500],
      [v(2), 0],
    ] as const) {
      const lead = await insertLead(db(), leadRow({ visit_id: visitId, created_at: at }), []);
      if (cents) await recordSaleRow(db(), { leadId: lead.id, buyer: 'acme', priceCents: cents, at: AT });
    }

    const o = await overviewData(db(), overviewAsk({ from: '2026-11-10', to: '2026-11-10' }));
    expect(o.data.funnel.stages.map((s) => [s.stage, s.count])).toEqual([
      ['visits', 4],
      ['applyViews', 3],
      ['step1', 3],
      ['step2', 2],
      ['submitted', 2],
      ['stored', 3],
      ['sold', 2],
    ]);
    expect(o.totals).toMatchObject({ visits: 4, stored: 3, sold: 2, revenueCents: 6500 });
    // revenue ÷ leads stored: $65.00 ÷ 3
    expect(o.data.funnel.earningsPerLeadCents).toBe(2167);
    expect(o.periods.map((p) => [p.at, p.visits, p.stored, p.sold])).toEqual([['2026-11-10', 4, 3, 2]]);
    expect(o.data.byCampaign.map((r) => [r.key, r.visits, r.submitted, r.stored, r.sold])).toEqual([['fall', 4, 2, 3, 2]]);
    expect(o.cuts.landing.map((r) => [r.key, r.leads, r.sold])).toEqual([['/payday-loans', 3, 2]]);
    // filtered (the hourly cube and the daily pairs answer) the same
    const filtered = await overviewData(db(), overviewAsk({ from: '2026-11-10', to: '2026-11-10', dims: { campaign: 'fall', brand: 'ipaydayloans' } }));
    expect(filtered.data.funnel.stages.map((s) => s.count)).toEqual([4, 3, 3, 2, 2, 3, 2]);

    // the table says what each stage counts: the sold leads are compared with the stored leads
    expect(funnelRows(o.data.funnel.stages)).toEqual([
      ['Visits', '4', '100%', '100%', 'visits'],
      ['Apply page views', '3', '75%', '75%', 'visits'],
      ['Form step 1', '3', '100%', '75%', 'visits'],
      ['Form step 2', '2', '66.7%', '50%', 'visits'],
      ['Submitted', '2', '100%', '50%', 'visits'],
      ['Stored leads', '3', '150%', '75%', 'leads'],
      ['Sold', '2', '66.7%', '50%', 'leads'],
    ]);
  });
});

/**
 * A lead is counted under its visit's brand, campaign, source, landing page and device on the
 * console's overview whichever is stored first: a lead posted before the traffic writer has
 * stored its visit (the visit's first events are queued, and may be written after the lead) moves
 * to the visit's campaign, source and device once the visit is stored, and a lead posted after its
 * visit is counted there at once — its sale and its return in the money, the lead itself in the
 * landing-page cut. Through the real writers (insertLead, writeTraffic), on SQLite and PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { overviewData } from '../../engine/console/overviewData';
import { insertLead } from '../../engine/store/leads';
import { writeTraffic } from '../../engine/store/traffic';
import { visitRow } from '../../engine/store/trafficRules';
import type { FunnelFilter } from '../../engine/traffic/funnelQuery';
import { bothStores, migratedStore } from '../support/bothStores';
import { leadRow } from '../support/leadRow';
import { overviewAsk } from '../support/overviewAsk';
import { recordSaleRow } from '../support/saleRecord';

const stores = bothStores('loansites-lead-visit-dims-');
const AT = new Date('2026-11-20T10:00:00.000Z');
const DAY = '2026-11-20';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120';

/** A visit from a phone, landing on `path` from a campaign's ad. */
const visit = (id: string, campaign: string, source: string, path: string) =>
  visitRow(
    id,
    { path, params: { utm_campaign: campaign, utm_source: source } },
    { brand: 'ipaydayloans', host: 'ipaydayloans.com', userAgent: PHONE, optedOut: false, now: AT },
  );

/** The visit stored as the traffic writer stores it: with its first page view. */
const storeVisit = (db: Parameters<typeof writeTraffic>[0], v: ReturnType<typeof visit>) =>
  writeTraffic(db, {
    visits: [v],
    events: [{ visitId: v.id, metric: 'page_view', path: v.landing_path, state: '', value: 0, brand: v.brand, device: v.device, createdAt: AT.toISOString() }],
  });

/** A lead of the visit, posted from a desktop browser (its own device is not the visit's), sold for `cents` and returned when `returned`. */
async function sellLead(db: Parameters<typeof insertLead>[0], visitId: string, cents: number, returned = false): Promise<void> {
  const lead = await insertLead(db, leadRow({ visit_id: visitId, user_agent: DESKTOP, device: 'desktop', created_at: AT.toISOString() }), []);
  await recordSaleRow(db, { leadId: lead.id, buyer: 'acme', priceCents: cents, at: AT, ...(returned ? { returnedAt: AT } : {}) });
}

describe.each(stores.kinds('lead-visit-dims.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);

  /** What the overview shows for one filter: sales, returns and revenue, and the stored leads by landing page. */
  const shown = async (dims: Omit<FunnelFilter, 'from' | 'to'>) => {
    const o = await overviewData(db(), overviewAsk({ from: DAY, to: DAY, dims }));
    return {
      sold: o.totals.sold,
      returned: o.data.funnel.returned,
      revenueCents: o.totals.revenueCents,
      landings: Object.fromEntries(o.cuts.landing.filter((r) => r.leads).map((r) => [r.key, r.leads])),
    };
  };

  it('a lead stored before its visit counts under the visit’s campaign, source and device once the visit is stored', async () => {
    const late = visit('v-late-visit-0001', 'late-campaign', 'tiktok', '/payday-loans/texas');
    await sellLead(db(), late.id, 4200, true);
    await sellLead(db(), late.id, 1500);
    // Until the visit is stored the leads have no campaign: the operator sees them under none.
    expect((await shown({ campaign: 'late-campaign' })).sold).toBe(0);
    expect((await shown({ device: 'desktop' })).sold).toBe(2);

    await storeVisit(db(), late);
    const want = { sold: 2, returned: 1, revenueCents: 1500, landings: { '/payday-loans/texas': 2 } };
    expect(await shown({ campaign: 'late-campaign' })).toEqual(want);
    expect(await shown({ source: 'tiktok' })).toEqual(want);
    expect(await shown({ campaign: 'late-campaign', device: 'mobile' })).toEqual(want);
    expect(await shown({ landing: '/payday-loans/texas', brand: 'ipaydayloans' })).toEqual(want);
    expect((await shown({ device: 'desktop' })).sold).toBe(0);
  });

  it('a lead stored after its visit counts under the visit’s campaign, source and device at once', async () => {
    const early = visit('v-early-visit-0001', 'early-campaign', 'bing', '/installment-loans');
    await storeVisit(db(), early);
    await sellLead(db(), early.id, 2600);
    const want = { sold: 1, returned: 0, revenueCents: 2600, landings: { '/installment-loans': 1 } };
    expect(await shown({ campaign: 'early-campaign' })).toEqual(want);
    expect(await shown({ source: 'bing', device: 'mobile' })).toEqual(want);
    expect(await shown({ landing: '/installment-loans' })).toEqual(want);
  });
});

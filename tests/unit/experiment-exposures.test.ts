/**
 * Experiment exposures and their conversions through the real traffic writer path
 * (engine/traffic/exposures.ts → engine/store/traffic.ts writeTraffic → engine/store/experiments.ts),
 * on SQLite and PostgreSQL: an exposure counts once per visit and experiment, only with the
 * variant the cookie holds and only while the experiment runs; a stage reached before or after
 * the exposure counts for the variant once; sales come from the sale records of the visit's
 * leads; the daily rollup always equals a recount from the raw rows, whatever the order.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { writeTraffic, type TrafficBatch } from '../../engine/store/traffic';
import { rebuildExperimentDaily, variantTotals } from '../../engine/store/experiments';
import { exposuresOf } from '../../engine/traffic/exposures';
import { visitRow } from '../../engine/store/trafficRules';
import { insertLead } from '../../engine/store/leads';
import { recordSaleRow } from '../support/saleRecord';
import { leadRow } from '../support/leadRow';
import { bothStores, migratedStore } from '../support/bothStores';

const sources = readSources({ extraDir: '' });
const catalog = buildCatalog(sources.brands, sources.layouts, BLOCK_SPECS);
const loaded = catalog.brands.get('ipaydayloans')!;
const EXPERIMENT = 'payday-hero-headline';
const NOW = new Date('2026-11-20T10:00:00.000Z');
const cookieFor = (visitor: string, variant: string) => `lsx=${visitor}|${EXPERIMENT}:${variant}`;
const FILTER = { brand: 'ipaydayloans', experiment: EXPERIMENT, fromDay: '2026-11-01', toDay: '2026-11-30' };

const stores = bothStores('experiment-exposures-');

/** A visit's batch as the events API makes it: its landing, page views, and the exposures its cookie gives. */
function visitBatch(id: string, paths: string[], cookie: string | undefined, opts: { landing?: boolean; campaign?: string; now?: Date } = {}): TrafficBatch {
  const now = opts.now ?? NOW;
  const events = paths.map((path) => ({ type: 'page_view', path }));
  return {
    visits:
      opts.landing === false
        ? []
        : [
            visitRow(
              id,
              { path: paths[0]!, params: opts.campaign ? { utm_campaign: opts.campaign } : {} },
              { brand: 'ipaydayloans', host: 'ipaydayloans.localhost', userAgent: 'Mozilla/5.0 (iPhone) Mobile', optedOut: false, now },
            ),
          ],
    events: events.map((e) => ({
      visitId: id,
      metric: e.type,
      path: e.path,
      state: '',
      value: 0,
      brand: 'ipaydayloans',
      device: 'mobile',
      createdAt: now.toISOString(),
    })),
    exposures: exposuresOf(events, { visitId: id, loaded, cookie, now }),
  };
}
const stage = (id: string, metric: 'submitted' | 'stored'): TrafficBatch => ({
  visits: [],
  events: [{ visitId: id, metric, path: '/apply', state: '', value: 0, brand: 'ipaydayloans', device: 'mobile', createdAt: NOW.toISOString() }],
});

describe('exposures from a visit’s page views', () => {
  it('come from a page under a running experiment with the cookie’s variant, once per experiment', () => {
    const v = 'a'.repeat(16);
    expect(
      exposuresOf(
        [
          { type: 'page_view', path: '/payday-loans' },
          { type: 'page_view', path: '/payday-loans' },
        ],
        { visitId: 'v1', loaded, cookie: cookieFor(v, 'control'), now: NOW },
      ),
    ).toEqual([{ visitId: 'v1', brand: 'ipaydayloans', experiment: EXPERIMENT, variant: 'control', createdAt: NOW.toISOString() }]);
    // no cookie, another page, another kind of event, a variant the experiment does not have, before the start: none
    expect(exposuresOf([{ type: 'page_view', path: '/payday-loans' }], { visitId: 'v1', loaded, cookie: undefined, now: NOW })).toEqual([]);
    expect(exposuresOf([{ type: 'page_view', path: '/installment-loans' }], { visitId: 'v1', loaded, cookie: cookieFor(v, 'control'), now: NOW })).toEqual([]);
    expect(exposuresOf([{ type: 'amount_used', path: '/payday-loans' }], { visitId: 'v1', loaded, cookie: cookieFor(v, 'control'), now: NOW })).toEqual([]);
    expect(exposuresOf([{ type: 'page_view', path: '/payday-loans' }], { visitId: 'v1', loaded, cookie: cookieFor(v, 'gone'), now: NOW })).toEqual([]);
    expect(
      exposuresOf([{ type: 'page_view', path: '/payday-loans' }], { visitId: 'v1', loaded, cookie: cookieFor(v, 'control'), now: new Date('2026-10-01') }),
    ).toEqual([]);
  });
});

describe.each(stores.kinds('exposures.sqlite'))('counted per variant on %s', (_kind, options) => {
  const store = migratedStore(options);

  it('counts visitors and their stored leads, submissions and sales for the variant they saw, as a recount does', async () => {
    const db = store();
    const visitor = (n: number) => n.toString(16).padStart(16, '0');
    // control: 3 visitors; one submits and is stored (after the exposure), one reaches "stored" before seeing the page
    await writeTraffic(db, visitBatch('vc1', ['/payday-loans'], cookieFor(visitor(1), 'control'), { campaign: 'spring' }));
    await writeTraffic(db, visitBatch('vc2', ['/payday-loans', '/payday-loans'], cookieFor(visitor(2), 'control')));
    await writeTraffic(db, visitBatch('vc3', ['/apply'], cookieFor(visitor(3), 'control')));
    await writeTraffic(db, stage('vc3', 'stored'));
    await writeTraffic(db, visitBatch('vc3', ['/payday-loans'], cookieFor(visitor(3), 'control'), { landing: false }));
    await writeTraffic(db, stage('vc1', 'submitted'));
    await writeTraffic(db, stage('vc1', 'stored'));
    await writeTraffic(db, stage('vc1', 'stored')); // a repeat: not counted again
    // the variant: 2 visitors, one stored and sold; a second batch of the same visit is no second exposure
    await writeTraffic(db, visitBatch('vb1', ['/payday-loans'], cookieFor(visitor(4), 'cash-before-payday'), { campaign: 'spring' }));
    await writeTraffic(db, visitBatch('vb1', ['/payday-loans'], cookieFor(visitor(4), 'cash-before-payday'), { landing: false }));
    await writeTraffic(db, visitBatch('vb2', ['/payday-loans'], cookieFor(visitor(5), 'cash-before-payday')));
    await writeTraffic(db, { ...stage('vb2', 'submitted'), events: [...stage('vb2', 'submitted').events, ...stage('vb2', 'stored').events] });
    const lead = await insertLead(db, leadRow({ visit_id: 'vb2', created_at: NOW.toISOString() }), []);
    await recordSaleRow(db, { leadId: lead.id, buyer: 'b', priceCents: 4200, at: NOW });

    const totals = await variantTotals(db, FILTER);
    const byVariant = Object.fromEntries(totals.map((t) => [t.variant, t]));
    expect(byVariant.control).toEqual({ variant: 'control', visitors: 3, submitted: 1, stored: 2, sold: 0, revenueCents: 0, revenueSquares: 0 });
    expect(byVariant['cash-before-payday']).toEqual({
      variant: 'cash-before-payday',
      visitors: 2,
      submitted: 1,
      stored: 1,
      sold: 1,
      revenueCents: 4200,
      revenueSquares: 4200 * 4200,
    });
    // the overview's filters: the campaign of the visit
    const spring = Object.fromEntries((await variantTotals(db, { ...FILTER, campaign: 'spring' })).map((t) => [t.variant, t.visitors]));
    expect(spring).toEqual({ control: 1, 'cash-before-payday': 1 });
    expect(await variantTotals(db, { ...FILTER, fromDay: '2026-11-21' })).toEqual([]);

    // the rollup the writes kept equals one made again from the raw rows
    const kept = await db.selectFrom('experiment_daily').selectAll().orderBy(['variant', 'campaign']).execute();
    await db.transaction().execute((trx) => rebuildExperimentDaily(trx));
    expect(await db.selectFrom('experiment_daily').selectAll().orderBy(['variant', 'campaign']).execute()).toEqual(kept);
  });
});

/**
 * An experiment's revenue on its console page is in its brand's currency: a Canadian brand's
 * sales are Canadian dollars (the lead's currency, the brand's), so its revenue per visit reads
 * CA$, never US dollars. Through the real store (exposures and a sold lead) and the page as it renders.
 */
import { describe, expect, it } from 'vitest';
import { catalogWithExperiment } from '../support/experimentCatalog';
import { experimentResults, listExperiments } from '../../engine/console/experiments';
import { writeTraffic } from '../../engine/store/traffic';
import { visitRow } from '../../engine/store/trafficRules';
import { insertLead } from '../../engine/store/leads';
import { recordSaleRow } from '../support/saleRecord';
import { experimentPageHtml } from '../support/experimentPage';
import { leadRow } from '../support/leadRow';
import { bothStores, migratedStore } from '../support/bothStores';

const EXPERIMENT = 'ca-payday-headline';
const NOW = new Date('2026-11-20T10:00:00.000Z');
const catalog = catalogWithExperiment('brands/weloans.json', {
  id: EXPERIMENT,
  routes: ['/payday-loans'],
  variants: [
    { id: 'control', weight: 50 },
    { id: 'plain', weight: 50, texts: { '/blocks/0/heading': 'Payday Loans in Canada' } },
  ],
  start: '2026-11-01',
  metric: 'revenuePerVisit',
  minimumSample: 100,
  status: 'running',
});
const stores = bothStores('experiment-page-currency-');

// (one store is enough: the currency is the brand's, not the store's)
describe.each(stores.kinds('currency.sqlite').slice(0, 1))('an experiment of a Canadian brand on %s', (_kind, options) => {
  const store = migratedStore(options);

  it('shows its revenue in Canadian dollars', async () => {
    expect(catalog.problems).toEqual([]);
    const db = store();
    const listed = listExperiments(catalog).find((l) => l.experiment.id === EXPERIMENT)!;
    for (const [visit, variant] of [
      ['vca1', 'control'],
      ['vca2', 'plain'],
    ] as const) {
      await writeTraffic(db, {
        visits: [
          visitRow(
            visit,
            { path: '/payday-loans', params: {} },
            { brand: 'weloans', host: 'weloans.localhost', userAgent: 'Mozilla/5.0', optedOut: false, now: NOW },
          ),
        ],
        events: [],
        exposures: [{ visitId: visit, brand: 'weloans', experiment: EXPERIMENT, variant, createdAt: NOW.toISOString() }],
      });
    }
    const lead = await insertLead(db, leadRow({ brand: 'weloans', visit_id: 'vca2', created_at: NOW.toISOString() }), []);
    await recordSaleRow(db, { leadId: lead.id, buyer: 'b', priceCents: 4200, at: NOW });

    const results = await experimentResults(db, listed, { fromDay: '2026-11-01', toDay: '2026-11-30' });
    expect(results.rows.map((r) => [r.id, r.totals.visitors, r.totals.revenueCents])).toEqual([
      ['control', 1, 0],
      ['plain', 1, 4200],
    ]);
    const html = experimentPageHtml('analyst@example.com', {
      id: EXPERIMENT,
      brand: 'weloans',
      dates: '2026-11-01',
      query: { from: '2026-11-01', to: '2026-11-30', zone: 'UTC', campaign: '', source: '', device: '', problem: '' },
      results,
    });
    const plainRow = /<tr[^>]*><t[dh][^>]*>plain<\/t[dh]>(.*?)<\/tr>/s.exec(html)![1]!.replace(/<[^>]*>/g, ' ');
    // its revenue and revenue per visit: 42 Canadian dollars in one visit
    expect(plainRow).toContain('CA$42.00 (');
    expect(plainRow).not.toMatch(/(^|[^A])\$/);
  });
});

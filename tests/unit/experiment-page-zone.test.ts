/**
 * An experiment's page counts the operator's days, as the overview does: the visitors exposed from
 * their midnight to their midnight (UTC days wholly inside from the daily rollup, the edge days'
 * exposures one by one), with the stages and sales of those same visitors, so the verdict is
 * judged over one set of visitors; the whole experiment is every visitor whatever the zone. On
 * SQLite and PostgreSQL, and the page as it renders, labelled with the zone.
 */
import { describe, expect, it } from 'vitest';
import { catalogWithExperiment } from '../support/experimentCatalog';
import { experimentRange, experimentResults, listExperiments } from '../../engine/console/experiments';
import { zonedRange } from '../../engine/console/periods';
import { writeTraffic } from '../../engine/store/traffic';
import { visitRow } from '../../engine/store/trafficRules';
import { insertLead } from '../../engine/store/leads';
import { experimentPageHtml } from '../support/experimentPage';
import { leadRow } from '../support/leadRow';
import { recordSaleRow } from '../support/saleRecord';
import { trafficEvent } from '../support/trafficEvent';
import { bothStores, migratedStore } from '../support/bothStores';

const EXPERIMENT = 'zoned-headline';
const NY = 'America/New_York';
const catalog = catalogWithExperiment('brands/weloans.json', {
  id: EXPERIMENT,
  routes: ['/payday-loans'],
  variants: [
    { id: 'control', weight: 50 },
    { id: 'plain', weight: 50, texts: { '/blocks/0/heading': 'Payday Loans in Canada' } },
  ],
  start: '2026-11-01',
  minimumSample: 100,
  status: 'running',
});
const stores = bothStores('experiment-page-zone-');

// each visit: when it was exposed (UTC), its variant, the stages it reached and its lead's sale
const VISITS = [
  ['vz1', '2026-11-02T03:30:00.000Z', 'control', [], 1000], // 22:30 on 1 November in New York
  ['vz2', '2026-11-02T15:30:00.000Z', 'plain', ['submitted'], 0],
  ['vz3', '2026-11-03T02:00:00.000Z', 'control', ['submitted', 'stored'], 0], // 21:00 on 2 November
  ['vz4', '2026-11-04T03:00:00.000Z', 'plain', ['submitted', 'stored'], 5000], // 22:00 on 3 November
  ['vz5', '2026-11-04T06:00:00.000Z', 'plain', ['submitted', 'stored'], 700], // 01:00 on 4 November
] as const;

describe.each(stores.kinds('zone.sqlite'))('%s', (_kind, options) => {
  const store = migratedStore(options);

  it('counts the visitors exposed in the operator’s days, with their own stages and sales, and says whose days', async () => {
    expect(catalog.problems).toEqual([]);
    const db = store();
    const listed = listExperiments(catalog).find((l) => l.experiment.id === EXPERIMENT)!;
    for (const [visit, at, variant, stages, cents] of VISITS) {
      const ctx = { brand: 'weloans', host: 'weloans.localhost', userAgent: 'Mozilla/5.0', optedOut: false, now: new Date(at) };
      await writeTraffic(db, {
        visits: [visitRow(visit, { path: '/payday-loans', params: {} }, ctx)],
        events: stages.map((m) => trafficEvent(visit, m, at, { brand: 'weloans' })),
        exposures: [{ visitId: visit, brand: 'weloans', experiment: EXPERIMENT, variant, createdAt: at }],
      });
      if (cents) {
        const lead = await insertLead(db, leadRow({ brand: 'weloans', visit_id: visit, created_at: at }), []);
        await recordSaleRow(db, { leadId: lead.id, buyer: 'acme', priceCents: cents, at: new Date(at) });
      }
    }
    const totals = async (from: string, to: string, zone: string) =>
      (await experimentResults(db, listed, { fromDay: from, toDay: to, ...(zone === 'UTC' ? {} : { within: zonedRange(from, to, zone) }) })).rows.map((r) => [
        r.id,
        r.totals.visitors,
        r.totals.submitted,
        r.totals.stored,
        r.totals.sold,
        r.totals.revenueCents,
      ]);

    // 2–3 November in New York: vz2 and vz4 on the edge days, vz3 on the whole UTC day between
    expect(await totals('2026-11-02', '2026-11-03', NY)).toEqual([
      ['control', 1, 1, 1, 0, 0],
      ['plain', 2, 2, 1, 1, 5000],
    ]);
    // the same days in UTC: vz1, vz2 and vz3
    expect(await totals('2026-11-02', '2026-11-03', 'UTC')).toEqual([
      ['control', 2, 1, 1, 1, 1000],
      ['plain', 1, 1, 0, 0, 0],
    ]);
    // one New York day, inside a single UTC day's hours and the next's
    expect(await totals('2026-11-01', '2026-11-01', NY)).toEqual([
      ['control', 1, 0, 0, 1, 1000],
      ['plain', 0, 0, 0, 0, 0],
    ]);

    // asked nothing at 22:30 on 4 November in New York: the whole experiment, every visitor, to their today
    const now = new Date('2026-11-05T03:30:00.000Z');
    const whole = experimentRange({ from: '', to: '' }, listed.experiment, now, NY);
    expect(whole).toEqual({ from: '2026-10-31', to: '2026-11-04', problem: '' });
    const results = await experimentResults(db, listed, { fromDay: whole.from, toDay: whole.to, within: zonedRange(whole.from, whole.to, NY) });
    expect(results.rows.map((r) => [r.id, r.totals.visitors, r.totals.sold])).toEqual([
      ['control', 2, 1],
      ['plain', 3, 2],
    ]);

    const html = experimentPageHtml('ny@example.com', {
      id: EXPERIMENT,
      brand: 'weloans',
      dates: '2026-11-01',
      query: { ...whole, zone: NY, campaign: '', source: '', device: '' },
      results,
    });
    expect(html).toContain('Variants, 2026-10-31 to 2026-11-04 (America/New_York)');
  });
});

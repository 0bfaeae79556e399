/**
 * Experiment exposures as the traffic writer batches them (engine/traffic/writer.ts →
 * engine/store/traffic.ts writeTraffic → engine/store/experiments.ts), on SQLite: an exposure
 * keeps its visit's campaign, source and device when the writer splits a long queue and the
 * visit's events go in a later batch than its exposure, and a visit's first exposure to an
 * experiment is the one kept whether its page views came in one batch or in two.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { writeTraffic, type TrafficEventInput } from '../../engine/store/traffic';
import { variantTotals, type ExposureInput } from '../../engine/store/experiments';
import { visitRow } from '../../engine/store/trafficRules';
import { MAX_BATCH, trafficWriter } from '../../engine/traffic/writer';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const EXPERIMENT = 'payday-hero-headline';
const FILTER = { brand: 'ipaydayloans', experiment: EXPERIMENT, fromDay: '2026-11-01', toDay: '2026-11-30' };
const tmp = mkdtempSync(join(tmpdir(), 'experiment-exposure-batches-'));
const opened: Store[] = [];
afterAll(async () => {
  for (const db of opened) await db.destroy();
  rmSync(tmp, { recursive: true, force: true });
});

async function store(name: string): Promise<Store> {
  const db = openStore({ url: '', file: join(tmp, name) });
  opened.push(db);
  await migrateStore(db);
  return db;
}

const visit = (id: string, campaign: string) =>
  visitRow(
    id,
    { path: '/payday-loans', params: { utm_campaign: campaign } },
    { brand: 'ipaydayloans', host: 'ipaydayloans.localhost', userAgent: 'Mozilla/5.0 (iPhone) Mobile', optedOut: false, now: NOW },
  );
const pageView = (visitId: string): TrafficEventInput => ({
  visitId,
  metric: 'page_view',
  path: '/payday-loans',
  state: '',
  value: 0,
  brand: 'ipaydayloans',
  device: 'mobile',
  createdAt: NOW.toISOString(),
});
const exposure = (visitId: string, variant: string): ExposureInput => ({
  visitId,
  brand: 'ipaydayloans',
  experiment: EXPERIMENT,
  variant,
  createdAt: NOW.toISOString(),
});

describe('exposures written in batches', () => {
  it('keep their visit’s campaign and device when the visit’s events go in a later batch than the exposure', async () => {
    const db = await store('split.sqlite');
    const writer = trafficWriter(async () => db, { flushAt: Number.MAX_SAFE_INTEGER, flushMs: 3_600_000 });
    // a busy queue: one visit's MAX_BATCH events fill the first batch, the next visit's page view goes in the second
    writer.add({ visits: [visit('v-busy', 'busy')], events: Array.from({ length: MAX_BATCH }, () => pageView('v-busy')) });
    writer.add({ visits: [visit('v-exposed', 'spring')], events: [pageView('v-exposed')], exposures: [exposure('v-exposed', 'control')] });
    await writer.flush();
    expect(writer.stats()).toMatchObject({ written: MAX_BATCH + 1, batches: 2, failed: 0 });

    const row = await db.selectFrom('experiment_exposures').select(['variant', 'campaign', 'device']).where('visit_id', '=', 'v-exposed').executeTakeFirst();
    expect(row).toEqual({ variant: 'control', campaign: 'spring', device: 'mobile' });
    // the console's results filtered by the visit's campaign and device count the visitor
    expect(await variantTotals(db, { ...FILTER, campaign: 'spring' })).toMatchObject([{ variant: 'control', visitors: 1 }]);
    expect(await variantTotals(db, { ...FILTER, device: 'mobile' })).toMatchObject([{ variant: 'control', visitors: 1 }]);
  }, 60_000);

  it('keep a visit’s first exposure to an experiment whether its page views came in one batch or in two', async () => {
    const one = await store('one-batch.sqlite');
    await writeTraffic(one, {
      visits: [visit('v1', 'spring')],
      events: [pageView('v1'), pageView('v1')],
      exposures: [exposure('v1', 'control'), exposure('v1', 'cash-before-payday')],
    });
    const two = await store('two-batches.sqlite');
    await writeTraffic(two, { visits: [visit('v1', 'spring')], events: [pageView('v1')], exposures: [exposure('v1', 'control')] });
    await writeTraffic(two, { visits: [], events: [pageView('v1')], exposures: [exposure('v1', 'cash-before-payday')] });

    for (const db of [one, two]) {
      expect(await db.selectFrom('experiment_exposures').select(['visit_id', 'variant']).execute()).toEqual([{ visit_id: 'v1', variant: 'control' }]);
      expect(await variantTotals(db, FILTER)).toMatchObject([{ variant: 'control', visitors: 1 }]);
    }
  });
});

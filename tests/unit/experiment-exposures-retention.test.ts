/**
 * Experiment exposures expire with the traffic retention (engine/store/traffic.ts pruneTraffic,
 * run by the retention job), on SQLite and PostgreSQL: the exposures and the daily rollup of the
 * days wholly past EVENTS_RETENTION_DAYS are deleted in batches of at most the batch size, the
 * recent ones stay, and an experiment's results then count only the days kept.
 */
import { describe, expect, it } from 'vitest';
import { pruneTraffic } from '../../engine/store/traffic';
import type { Store } from '../../engine/store/db';
import { variantTotals } from '../../engine/store/experiments';
import { pruneOnce } from '../../engine/traffic/pruneJob';
import { bothStores, migratedStore } from '../support/bothStores';
import { writeExposures } from '../support/experimentExposures';

const stores = bothStores('experiment-exposures-retention-');
const EXPERIMENT = 'payday-hero-headline';
const FILTER = { brand: 'ipaydayloans', experiment: EXPERIMENT, fromDay: '2024-01-01', toDay: '2026-12-31' };

const exposed = (db: Store, prefix: string, n: number, variant: string, at: string) => writeExposures(db, { prefix, n, variant, at });

describe.each(stores.kinds('exposures-retention.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);

  it('deletes the exposures and daily counts of the days past retention in bounded batches, keeping the recent ones', async () => {
    await exposed(db(), 'old-c-', 130, 'control', '2025-01-01T08:00:00.000Z');
    await exposed(db(), 'old-b-', 120, 'cash-before-payday', '2025-01-02T08:00:00.000Z');
    await exposed(db(), 'new-c-', 3, 'control', '2025-04-20T08:00:00.000Z');
    expect((await variantTotals(db(), FILTER)).map((t) => [t.variant, t.visitors]).sort()).toEqual([
      ['cash-before-payday', 120],
      ['control', 133],
    ]);

    const pruned = await pruneTraffic(db(), { now: new Date('2025-05-01T00:00:00.000Z'), retentionDays: 90, batchSize: 100 });
    expect(pruned.exposures).toBe(250);
    // 250 exposures 100 at a time: 3 statements at least for them alone
    expect(pruned.batches).toBeGreaterThanOrEqual(3);
    const left = await db().selectFrom('experiment_exposures').select('day').execute();
    expect([...new Set(left.map((r) => r.day))]).toEqual(['2025-04-20']);
    expect((await db().selectFrom('experiment_daily').select('day').execute()).map((r) => r.day)).toEqual(['2025-04-20']);
    expect((await variantTotals(db(), FILTER)).map((t) => [t.variant, t.visitors, t.stored])).toEqual([['control', 3, 3]]);
  });

  it('the retention job prunes them by EVENTS_RETENTION_DAYS', async () => {
    await exposed(db(), 'mid-c-', 2, 'control', '2025-04-10T08:00:00.000Z');
    const now = new Date('2025-05-01T00:00:00.000Z');
    await pruneOnce(db(), now, {});
    expect(await db().selectFrom('experiment_exposures').select('visit_id').where('day', '=', '2025-04-10').execute()).toHaveLength(2);
    await pruneOnce(db(), now, { EVENTS_RETENTION_DAYS: '15' });
    expect((await db().selectFrom('experiment_exposures').select('day').execute()).map((r) => r.day)).toEqual(['2025-04-20', '2025-04-20', '2025-04-20']);
  });
});

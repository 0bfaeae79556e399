/**
 * What a client cannot do to the funnel, and what storage costs, in both real databases (SQLite in
 * a temp file, PostgreSQL 15 started here): a visit's stage counts once however often it is sent
 * (the rest stored as repeats); on PostgreSQL the raw events live in a partition per day, created
 * as events arrive and dropped whole by retention; on SQLite retention deletes in bounded batches.
 */
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../engine/store/db';
import { pruneTraffic, writeTraffic } from '../../engine/store/traffic';
import { eventPartitionDays } from '../../engine/store/trafficPartitions';
import { visitRow } from '../../engine/store/trafficRules';
import { bothStores, migratedStore } from '../support/bothStores';
import { trafficEvent } from '../support/trafficEvent';
import { campaignCounts } from '../support/campaignCounts';

const stores = bothStores('loansites-bounded-');

let n = 0;
const newVisitId = () => `v${(++n).toString(16).padStart(32, '0')}`;
const ev = trafficEvent;
const landing = (id: string, campaign: string, at = '2026-05-01T09:00:00.000Z') =>
  visitRow(
    id,
    { path: '/apply', params: { source1: campaign } },
    { brand: 'ipaydayloans', host: 'h', userAgent: 'iPhone Mobile', optedOut: false, now: new Date(at) },
  );

describe.each(stores.kinds('bounded.sqlite'))('%s', (kind, options) => {
  const store = migratedStore(options);
  let db: Store;
  beforeAll(() => {
    db = store();
  });

  it('50 “submitted” for one visit, twice, move its campaign by one visit and one submitted; the repeats are stored, not counted', async () => {
    const id = newVisitId();
    const at = '2026-05-01T10:00:00.000Z';
    await writeTraffic(db, { visits: [landing(id, 'probe')], events: Array.from({ length: 50 }, () => ev(id, 'submitted', at)) });
    await writeTraffic(db, { visits: [], events: [...Array.from({ length: 50 }, () => ev(id, 'submitted', at)), ev(id, 'step_1', at), ev(id, 'step_1', at)] });
    expect(await campaignCounts(db, 'probe')).toEqual({ visit: 1, submitted: 1, step_1: 1 });
    const stored = await db.selectFrom('traffic_events').select(['metric', 'repeated']).where('visit_id', '=', id).execute();
    expect(stored.length).toBe(102);
    expect(
      stored
        .filter((e) => !e.repeated)
        .map((e) => e.metric)
        .sort(),
    ).toEqual(['step_1', 'submitted']);
  });

  it('page views count every time, and a second visit’s stage counts for it', async () => {
    const [a, b] = [newVisitId(), newVisitId()];
    const at = '2026-05-01T11:00:00.000Z';
    await writeTraffic(db, {
      visits: [landing(a, 'views'), landing(b, 'views')],
      events: [ev(a, 'page_view', at), ev(a, 'page_view', at), ev(a, 'apply_view', at), ev(b, 'apply_view', at)],
    });
    expect(await campaignCounts(db, 'views')).toEqual({ visit: 2, page_view: 2, apply_view: 2 });
  });

  it('two writers at once sending the same visit’s stage count it once', async () => {
    const id = newVisitId();
    const at = '2026-05-01T12:00:00.000Z';
    await writeTraffic(db, { visits: [landing(id, 'race')], events: [] });
    await Promise.all(Array.from({ length: 8 }, () => writeTraffic(db, { visits: [], events: [ev(id, 'submitted', at)] })));
    expect(await campaignCounts(db, 'race')).toEqual({ visit: 1, submitted: 1 });
  });

  if (kind === 'PostgreSQL') {
    it('events go to a partition per day, created as they arrive; retention drops the old days’ partitions whole', async () => {
      const days = ['2026-01-01', '2026-01-02', '2026-03-30'];
      await writeTraffic(db, { visits: [], events: days.map((d) => ev(newVisitId(), 'apply_view', `${d}T08:00:00.000Z`)) });
      const made = await eventPartitionDays(db);
      // each day's, and the next day's (made ahead so the first writer after midnight does no DDL)
      for (const d of [...days, '2026-01-03', '2026-03-31']) expect(made).toContain(d);
      const parent = await sql<{ kind: string }>`SELECT relkind::text AS kind FROM pg_class WHERE relname = 'traffic_events'`.execute(db);
      expect(parent.rows[0]?.kind).toBe('p');

      const pruned = await pruneTraffic(db, { now: new Date('2026-03-31T12:00:00.000Z'), retentionDays: 88 });
      // the cutoff is 2026-01-02T12:00: January 1 is wholly past it, January 2 is not
      expect(pruned.events).toBe(1);
      expect(pruned.partitions).toBe(1);
      const left = await eventPartitionDays(db);
      expect(left).not.toContain('2026-01-01');
      expect(left).toContain('2026-01-02');
      const kept = await db.selectFrom('traffic_events').select('created_at').where('created_at', '<', '2026-04-01').execute();
      expect(kept.map((r) => r.created_at.slice(0, 10)).sort()).toEqual(['2026-01-02', '2026-03-30']);
    });
  } else {
    it('retention deletes old events in batches of at most the batch size, and keeps the recent ones', async () => {
      const old = Array.from({ length: 1050 }, () => ev(newVisitId(), 'page_view', '2025-01-01T00:00:00.000Z'));
      for (let i = 0; i < old.length; i += 500) await writeTraffic(db, { visits: [], events: old.slice(i, i + 500) });
      await writeTraffic(db, { visits: [], events: [ev(newVisitId(), 'page_view', '2025-04-20T00:00:00.000Z')] });
      const pruned = await pruneTraffic(db, { now: new Date('2025-05-01T00:00:00.000Z'), retentionDays: 90, batchSize: 100 });
      expect(pruned.events).toBe(1050);
      // 1,050 rows 100 at a time: 11 statements at least (each holding the write lock briefly)
      expect(pruned.batches).toBeGreaterThanOrEqual(11);
      const left = await db.selectFrom('traffic_events').select('created_at').where('created_at', '<', '2025-05-01').execute();
      expect(left.map((r) => r.created_at)).toEqual(['2025-04-20T00:00:00.000Z']);
    });
  }
});

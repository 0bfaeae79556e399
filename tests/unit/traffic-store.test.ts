/**
 * Traffic in both real databases (SQLite in a temp file, PostgreSQL 15 started here): after any
 * sequence of batches (random, seeded: new and repeated visits, events of known and unknown
 * visits, server events, concurrent writers) the hourly rollups equal the counts over the raw
 * rows counted (a stage repeated by a visit is stored, not counted; every stored lead counts), and the daily rollups (whole and filtered) equal the hourly ones summed by day; pruning deletes raw events and unreferenced visits past retention and leaves the rollups.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateStore, openStore, type Store, type StoreOptions } from '../../engine/store/db';
import { eventsRetentionDays, pruneTraffic, writeTraffic, type TrafficBatch } from '../../engine/store/traffic';
import { pruneOnce } from '../../engine/traffic/pruneJob';
import { hourOf, visitRow } from '../../engine/store/trafficRules';
import { bothStores } from '../support/bothStores';
import { trafficEvent } from '../support/trafficEvent';
import { leadRow } from '../support/leadRow';
import { seededRandom } from '../../engine/traffic/seededRandom';

const { tmp, postgres } = bothStores('loansites-traffic-');

const random = seededRandom;

function randomBatches(seed: number, count: number): TrafficBatch[] {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const ids = Array.from({ length: 40 }, (_, i) => `v${seed.toString(16).padStart(8, '0')}${i.toString(16).padStart(24, '0')}`);
  const base = Date.parse('2025-03-01T00:00:00.000Z');
  return Array.from({ length: count }, () => {
    const at = new Date(base + Math.floor(rnd() * 72) * 3600_000 + Math.floor(rnd() * 3600_000));
    const visits = Array.from({ length: Math.floor(rnd() * 4) }, () =>
      visitRow(
        pick(ids),
        {
          path: pick(['/', '/payday-loans', '/apply', '/payday-loans/texas']),
          params: rnd() < 0.5 ? { source1: pick(['spring', 'fall']), utm_source: pick(['g', 'fb']) } : {},
        },
        { brand: pick(['ipaydayloans', 'ustitleloans']), host: 'h', userAgent: pick(['iPhone Mobile', 'Windows NT', 'iPad']), optedOut: rnd() < 0.2, now: at },
      ),
    );
    const events = Array.from({ length: Math.floor(rnd() * 8) }, () => ({
      visitId: rnd() < 0.9 ? pick(ids) : '',
      metric: pick(['page_view', 'apply_view', 'step_1', 'step_2', 'submitted', 'state_refused', 'stored', 'sale_sold']),
      path: '/apply',
      state: pick(['', 'TX', 'NY']),
      value: rnd() < 0.3 ? Math.floor(rnd() * 5000) : 0,
      brand: pick(['ipaydayloans', 'ustitleloans']),
      device: pick(['mobile', 'desktop']),
      createdAt: new Date(at.getTime() + Math.floor(rnd() * 7200_000)).toISOString(),
    }));
    return { visits, events };
  });
}

type Counts = Record<string, { count: number; value: number }>;
const DIMS = ['brand', 'campaign', 'source', 'landing', 'device', 'state', 'metric'] as const;

async function rollupCounts(db: Store): Promise<Counts> {
  const rows = await db.selectFrom('traffic_hourly').selectAll().execute();
  return Object.fromEntries(rows.map((r) => [[r.hour, ...DIMS.map((d) => r[d])].join('|'), { count: Number(r.count), value: Number(r.value) }]));
}

/** The daily rollups, and the same summed from the hourly ones (a day is the sum of its hours, per dimension). */
async function dailyPair(db: Store): Promise<[Counts, Counts]> {
  const daily = await db.selectFrom('traffic_daily').selectAll().execute();
  const stored = Object.fromEntries(daily.map((r) => [[r.dim, r.day, r.brand, r.key, r.metric].join('|'), { count: Number(r.count), value: Number(r.value) }]));
  const want: Counts = {};
  for (const r of await db.selectFrom('traffic_hourly').selectAll().execute()) {
    for (const dim of ['all', 'campaign', 'source', 'landing', 'device', 'state'] as const) {
      const key = [dim, r.hour.slice(0, 10), r.brand, dim === 'all' ? '' : r[dim], r.metric].join('|');
      const c = (want[key] ??= { count: 0, value: 0 });
      c.count += Number(r.count);
      c.value += Number(r.value);
    }
  }
  return [stored, want];
}

/** The filtered daily rollups as stored, and as summed here from the hourly ones. */
async function pairsPair(db: Store): Promise<[Counts, Counts]> {
  const key = (r: { fdim: string; fkey: string; dim: string; day: string; key: string; metric: string }) =>
    [r.fdim, r.fkey, r.dim, r.day, r.key, r.metric].join('|');
  const pairs = await db.selectFrom('traffic_daily_pairs').selectAll().execute();
  const stored = Object.fromEntries(pairs.map((r) => [key(r), { count: Number(r.count), value: Number(r.value) }]));
  const want: Counts = {};
  for (const r of await db.selectFrom('traffic_hourly').selectAll().execute()) {
    for (const fdim of ['campaign', 'source', 'landing', 'device'] as const) {
      for (const dim of ['all', 'brand', 'campaign', 'source', 'landing', 'device', 'state'] as const) {
        if (dim === fdim) continue;
        const c = (want[key({ fdim, fkey: r[fdim], dim, day: r.hour.slice(0, 10), key: dim === 'all' ? '' : r[dim], metric: r.metric })] ??= {
          count: 0,
          value: 0,
        });
        c.count += Number(r.count);
        c.value += Number(r.value);
      }
    }
  }
  return [stored, want];
}

async function rawCounts(db: Store): Promise<Counts> {
  const out: Counts = {};
  const add = (key: string, value: number) => {
    const c = (out[key] ??= { count: 0, value: 0 });
    c.count += 1;
    c.value += value;
  };
  for (const v of await db.selectFrom('traffic_visits').selectAll().execute()) {
    add([hourOf(v.created_at), v.brand, v.campaign, v.source, v.landing_path, v.device, '', 'visit'].join('|'), 0);
  }
  // A stage a visit had already reached is stored as a repeat and not counted; a second lead stored by a visit is counted.
  for (const e of await db
    .selectFrom('traffic_events')
    .selectAll()
    .where((eb) => eb.or([eb('repeated', '=', 0), eb('metric', '=', 'stored')]))
    .execute())
    add([hourOf(e.created_at), ...DIMS.map((d) => e[d])].join('|'), Number(e.value));
  return out;
}

describe.each([
  ['SQLite', (): StoreOptions => ({ url: '', file: join(tmp, 'traffic.sqlite') })],
  ['PostgreSQL', (): StoreOptions => ({ url: postgres().url })],
])('%s', (_kind, options) => {
  let db: Store;
  beforeAll(async () => {
    db = openStore(options());
    await migrateStore(db);
  });
  afterAll(() => db?.destroy());

  it.each([1, 2, 3])('after random batches (seed %i) the rollups equal the counts over the raw rows', async (seed) => {
    for (const batch of randomBatches(seed, 30)) await writeTraffic(db, batch);
    expect(await rollupCounts(db)).toEqual(await rawCounts(db));
    const [daily, fromHourly] = await dailyPair(db);
    expect(daily).toEqual(fromHourly);
    const [pairs, pairsFromHourly] = await pairsPair(db);
    expect(pairs).toEqual(pairsFromHourly);
  });

  it('several writers at once lose no increment and count no visit twice', async () => {
    const batches = randomBatches(9, 40);
    await Promise.all(batches.map((b) => writeTraffic(db, b)));
    await Promise.all(batches.slice(0, 10).map((b) => writeTraffic(db, { visits: b.visits, events: [] })));
    expect(await rollupCounts(db)).toEqual(await rawCounts(db));
    const [daily, fromHourly] = await dailyPair(db);
    expect(daily).toEqual(fromHourly);
    const [pairs, pairsFromHourly] = await pairsPair(db);
    expect(pairs).toEqual(pairsFromHourly);
  });

  it('pruning deletes raw events and unreferenced visits past retention, keeps a lead’s visit, and leaves the rollups', async () => {
    const before = await rollupCounts(db);
    const now = new Date('2025-06-15T00:00:00.000Z');
    const [kept] = await db.selectFrom('traffic_visits').select('id').limit(1).execute();
    await db
      .insertInto('leads')
      .values({ ...LEAD, id: 'ld_keep', idempotency_key: 'k-keep', visit_id: kept!.id })
      .execute();
    const recent = randomBatches(11, 3).map((b) => ({ visits: [], events: b.events.map((e) => ({ ...e, createdAt: '2025-06-10T00:00:00.000Z' })) }));
    for (const b of recent) await writeTraffic(db, b);
    const recentEvents = recent.reduce((n, b) => n + b.events.length, 0);
    const pruned = await pruneTraffic(db, { now, retentionDays: 90 });
    expect(pruned.events).toBeGreaterThan(0);
    const left = await db.selectFrom('traffic_events').select('created_at').execute();
    expect(left.length).toBe(recentEvents);
    expect((await db.selectFrom('traffic_visits').select('id').execute()).map((v) => v.id)).toEqual([kept!.id]);
    const after = await rollupCounts(db);
    for (const [key, c] of Object.entries(before)) expect(after[key]!.count).toBeGreaterThanOrEqual(c.count);
  });

  it('the retention job prunes raw events past the setting (default 90 days, EVENTS_RETENTION_DAYS=30), and every rollup stays as it was', async () => {
    const now = new Date('2025-12-01T00:00:00.000Z');
    const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000).toISOString();
    const ids = { old: `v${'0'.repeat(31)}a`, mid: `v${'0'.repeat(31)}b`, fresh: `v${'0'.repeat(31)}c` };
    const ev = (visitId: string, createdAt: string) => trafficEvent(visitId, 'apply_view', createdAt);
    await writeTraffic(db, { visits: [], events: [ev(ids.old, daysAgo(91)), ev(ids.mid, daysAgo(89)), ev(ids.fresh, daysAgo(1))] });
    const rollups = async () => [await rollupCounts(db), (await dailyPair(db))[0], (await pairsPair(db))[0]];
    const left = async () =>
      (await db.selectFrom('traffic_events').select('visit_id').where('visit_id', 'in', Object.values(ids)).execute()).map((e) => e.visit_id).sort();
    const before = await rollups();
    expect(Object.keys(before[0]!).length).toBeGreaterThan(0);

    await pruneOnce(db, now, {});
    expect(await left()).toEqual([ids.mid, ids.fresh].sort());
    await pruneOnce(db, now, { EVENTS_RETENTION_DAYS: '30' });
    expect(await left()).toEqual([ids.fresh]);
    expect(await rollups()).toEqual(before);
  });

  it('a visit keeps its first landing and campaign: a later row for its id, in the same batch or a later one, changes nothing and is not counted', async () => {
    const id = `v${'e'.repeat(31)}1`;
    const at = new Date('2025-12-02T10:00:00.000Z');
    const row = (path: string, source1: string) =>
      visitRow(id, { path, params: { source1 } }, { brand: 'ipaydayloans', host: 'h', userAgent: 'iPhone Mobile', optedOut: false, now: at });
    const written = await writeTraffic(db, {
      visits: [row('/payday-loans', 'first-campaign'), row('/other', 'second-campaign')],
      events: [trafficEvent(id, 'page_view', at.toISOString())],
    });
    expect(written.visits).toBe(1);
    await writeTraffic(db, { visits: [row('/third', 'third-campaign')], events: [trafficEvent(id, 'apply_view', at.toISOString())] });

    const visits = await db.selectFrom('traffic_visits').select(['landing_path', 'campaign']).where('id', '=', id).execute();
    expect(visits).toEqual([{ landing_path: '/payday-loans', campaign: 'first-campaign' }]);
    const events = await db.selectFrom('traffic_events').select(['metric', 'campaign', 'landing']).where('visit_id', '=', id).orderBy('metric').execute();
    expect(events).toEqual([
      { metric: 'apply_view', campaign: 'first-campaign', landing: '/payday-loans' },
      { metric: 'page_view', campaign: 'first-campaign', landing: '/payday-loans' },
    ]);
    // the overview's counts: one visit, under the first campaign only
    const hour = hourOf(at.toISOString());
    const counted = await db
      .selectFrom('traffic_hourly')
      .select(['campaign', 'landing', 'count'])
      .where('hour', '=', hour)
      .where('metric', '=', 'visit')
      .execute();
    expect(counted.map((r) => ({ ...r, count: Number(r.count) }))).toEqual([{ campaign: 'first-campaign', landing: '/payday-loans', count: 1 }]);
  });
});

it('EVENTS_RETENTION_DAYS: a positive whole number of days, else 90', () => {
  expect([undefined, '30', '0', '-5', '1.5', 'abc'].map((v) => eventsRetentionDays({ EVENTS_RETENTION_DAYS: v }))).toEqual([90, 30, 90, 90, 90, 90]);
});

const LEAD = leadRow({ created_at: '2025-03-01T00:00:00.000Z', amount: 500, sealed: '' });

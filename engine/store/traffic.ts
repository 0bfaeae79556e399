/**
 * Traffic in the store: visits, raw funnel events and their hourly rollups, written together in
 * one transaction per batch so that the rollups always equal the raw rows they count (until the
 * raw events are pruned; the rollups are kept for good).
 *
 * - A visit is stored once per id (INSERT … ON CONFLICT DO NOTHING … RETURNING): only the call
 *   that stored it counts it.
 * - An event takes its dimensions (brand, campaign, source, landing page, device) from its visit,
 *   as stored; an event whose visit is unknown keeps the brand and device of its request.
 * - Rollup rows are upserted with count = count + delta, keys sorted, so two instances writing at
 *   once lock the rows in the same order and never lose an increment.
 */
import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database, Store } from './db';
import { hourOf, type VisitRow } from '../traffic/rules';
import { DAILY_DIMS } from './migrations/006_traffic_daily';
import { pairIncrements, upsertPairs } from './trafficPairs';

export type TrafficVisitsTable = VisitRow;

export interface TrafficEventsTable {
  id: string;
  visit_id: string;
  metric: string;
  path: string;
  /** cents, for sales; 0 otherwise */
  value: number;
  brand: string;
  campaign: string;
  source: string;
  landing: string;
  device: string;
  /** two-letter state code when the event has one (refusals, leads, sales); "" otherwise */
  state: string;
  created_at: string;
}

export interface TrafficDailyTable {
  day: string;
  brand: string;
  /** which dimension `key` is a value of; "all" (key "") for the whole brand */
  dim: string;
  key: string;
  metric: string;
  count: number;
  value: number | string;
}

export interface TrafficHourlyTable {
  hour: string;
  brand: string;
  campaign: string;
  source: string;
  landing: string;
  device: string;
  state: string;
  metric: string;
  count: number;
  value: number | string;
}

/** An event as the writer receives it (before its visit's dimensions are looked up). */
export interface TrafficEventInput {
  visitId: string;
  metric: string;
  path: string;
  state: string;
  value: number;
  /** the request's brand and device, used when the visit is unknown */
  brand: string;
  device: string;
  createdAt: string;
}

export interface TrafficBatch {
  visits: VisitRow[];
  events: TrafficEventInput[];
}

const CHUNK = 200;
const chunks = <T>(rows: readonly T[], size = CHUNK): T[][] =>
  Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size));

export const eventId = (): string => `ev${randomBytes(12).toString('hex')}`;

type Dims = Pick<TrafficEventsTable, 'brand' | 'campaign' | 'source' | 'landing' | 'device'>;
const ROLLUP_KEY = ['hour', 'brand', 'campaign', 'source', 'landing', 'device', 'state', 'metric'] as const;

/** Writes a batch; returns how many visits were new and how many events were stored. */
export async function writeTraffic(db: Store, batch: TrafficBatch): Promise<{ visits: number; events: number }> {
  if (!batch.visits.length && !batch.events.length) return { visits: 0, events: 0 };
  return db.transaction().execute(async (trx) => {
    const newVisits: VisitRow[] = [];
    const unique = [...new Map(batch.visits.map((v) => [v.id, v])).values()];
    for (const part of chunks(unique)) {
      const ids = await trx
        .insertInto('traffic_visits')
        .values(part)
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .execute();
      const stored = new Set(ids.map((r) => r.id));
      newVisits.push(...part.filter((v) => stored.has(v.id)));
    }
    const dims = new Map<string, Dims>();
    const wanted = [...new Set(batch.events.map((e) => e.visitId).filter(Boolean))];
    for (const part of chunks(wanted, 500)) {
      const rows = await trx
        .selectFrom('traffic_visits')
        .select(['id', 'brand', 'campaign', 'source', 'landing_path', 'device'])
        .where('id', 'in', part)
        .execute();
      for (const r of rows) dims.set(r.id, { brand: r.brand, campaign: r.campaign, source: r.source, landing: r.landing_path, device: r.device });
    }
    const events: TrafficEventsTable[] = batch.events.map((e) => ({
      id: eventId(),
      visit_id: e.visitId,
      metric: e.metric,
      path: e.path,
      value: e.value,
      state: e.state,
      created_at: e.createdAt,
      ...(dims.get(e.visitId) ?? { brand: e.brand, campaign: '', source: '', landing: '', device: e.device }),
    }));
    for (const part of chunks(events)) await trx.insertInto('traffic_events').values(part).execute();

    await addToRollups(trx, hourlyIncrements(newVisits, events));
    return { visits: newVisits.length, events: events.length };
  });
}

/** What visits (new ones only) and events add to the hourly rollup, one row per key, in key order (pure). */
export function hourlyIncrements(visits: readonly VisitRow[], events: readonly TrafficEventsTable[]): TrafficHourlyTable[] {
  const deltas = new Map<string, TrafficHourlyTable>();
  const add = (row: Omit<TrafficHourlyTable, 'count' | 'value'>, value: number) => {
    const key = JSON.stringify(ROLLUP_KEY.map((k) => row[k]));
    const d = deltas.get(key);
    if (d) {
      d.count += 1;
      d.value = Number(d.value) + value;
    } else deltas.set(key, { ...row, count: 1, value });
  };
  for (const v of visits) {
    add(
      {
        hour: hourOf(v.created_at),
        brand: v.brand,
        campaign: v.campaign,
        source: v.source,
        landing: v.landing_path,
        device: v.device,
        state: '',
        metric: 'visit',
      },
      0,
    );
  }
  for (const e of events)
    add(
      {
        hour: hourOf(e.created_at),
        brand: e.brand,
        campaign: e.campaign,
        source: e.source,
        landing: e.landing,
        device: e.device,
        state: e.state,
        metric: e.metric,
      },
      Number(e.value),
    );
  return [...deltas.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}

/**
 * Adds hourly increments to the three rollups (hourly, daily, daily pairs), upserting in key
 * order; negative increments take rows back out (the demo data's reset).
 */
export async function addToRollups(trx: Transaction<Database>, rows: readonly TrafficHourlyTable[]): Promise<void> {
  for (const part of chunks(rows)) {
    await trx
      .insertInto('traffic_hourly')
      .values(part)
      .onConflict((oc) =>
        oc.columns([...ROLLUP_KEY]).doUpdateSet((eb) => ({
          count: eb(eb.ref('traffic_hourly.count'), '+', eb.ref('excluded.count')),
          value: eb(eb.ref('traffic_hourly.value'), '+', eb.ref('excluded.value')),
        })),
      )
      .execute();
  }
  // The same increments by day, one dimension at a time (migrations/006_traffic_daily.ts).
  const daily = new Map<string, TrafficDailyTable>();
  for (const r of rows) {
    for (const dim of DAILY_DIMS) {
      const d = { day: r.hour.slice(0, 10), brand: r.brand, dim, key: dim === 'all' ? '' : r[dim], metric: r.metric };
      const k = JSON.stringify([d.dim, d.day, d.brand, d.key, d.metric]);
      const cur = daily.get(k);
      if (cur) {
        cur.count += r.count;
        cur.value = Number(cur.value) + Number(r.value);
      } else daily.set(k, { ...d, count: r.count, value: Number(r.value) });
    }
  }
  const dailyRows = [...daily.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
  for (const part of chunks(dailyRows)) {
    await trx
      .insertInto('traffic_daily')
      .values(part)
      .onConflict((oc) =>
        oc.columns(['dim', 'day', 'brand', 'key', 'metric']).doUpdateSet((eb) => ({
          count: eb(eb.ref('traffic_daily.count'), '+', eb.ref('excluded.count')),
          value: eb(eb.ref('traffic_daily.value'), '+', eb.ref('excluded.value')),
        })),
      )
      .execute();
  }
  // And by day for one filter's value at a time (migrations/009_traffic_daily_pairs.ts).
  await upsertPairs(trx, pairIncrements(rows));
}

/**
 * Deletes raw events older than `retentionDays`, and visits as old that no lead refers to (a
 * lead keeps its visit). The rollups stay. Returns how many rows went.
 */
export async function pruneTraffic(db: Store, opts: { now: Date; retentionDays: number }): Promise<{ events: number; visits: number }> {
  const cutoff = new Date(opts.now.getTime() - opts.retentionDays * 86_400_000).toISOString();
  const ev = await db.deleteFrom('traffic_events').where('created_at', '<', cutoff).executeTakeFirst();
  const vi = await db
    .deleteFrom('traffic_visits')
    .where('created_at', '<', cutoff)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('leads').select('leads.id').whereRef('leads.visit_id', '=', 'traffic_visits.id'))))
    .executeTakeFirst();
  return { events: Number(ev.numDeletedRows ?? 0), visits: Number(vi.numDeletedRows ?? 0) };
}

/** EVENTS_RETENTION_DAYS (default 90; a positive whole number of days). */
export function eventsRetentionDays(env: Record<string, string | undefined> = process.env): number {
  const n = Number(env.EVENTS_RETENTION_DAYS ?? 90);
  return Number.isInteger(n) && n > 0 ? n : 90;
}

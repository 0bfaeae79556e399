/**
 * Traffic in the store: visits, raw funnel events and their hourly rollups, written together in
 * one transaction per batch so that the rollups always equal the raw rows they count (until the
 * raw events are pruned; the rollups are kept for good).
 *
 * - A visit is stored once per id (INSERT … ON CONFLICT DO NOTHING … RETURNING): only the call
 *   that stored it counts it, and it keeps its first landing (within a batch, the first row of an
 *   id; across batches, the one stored).
 * - An event takes its dimensions (brand, campaign, source, landing page, device) from its visit,
 *   as stored; an event whose visit is unknown keeps the brand and device of its request.
 * - Rollup rows are upserted with count = count + delta, keys sorted, so two instances writing at
 *   once lock the rows in the same order and never lose an increment.
 * - A funnel stage counts once per visit (trafficRules.ts stageOf): the first event of a stage marks it in
 *   traffic_visit_stages (INSERT … ON CONFLICT DO NOTHING … RETURNING, so two instances agree on
 *   which was first); a later one is stored with `repeated` = 1 and left out of the rollups — but
 *   for a stored lead, which the rollups count every time (trafficRules.ts countedInRollups).
 * - On PostgreSQL the raw events are partitioned by day (./trafficPartitions.ts).
 */
import { randomBytes } from 'node:crypto';
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Database, Store } from './db';
import { countedInRollups, hourOf, stageOf, type VisitRow } from './trafficRules';
import { dropEventPartitionsBefore, ensureEventPartitions, isPostgresStore, nextDay } from './trafficPartitions';
import { DAILY_DIMS } from './migrations/006_traffic_daily';
import { pairIncrements, upsertPairs } from './trafficPairs';
import { DAILY_KEY, writeExperimentCounts, type ExposureInput } from './experiments';
import { copyVisitDims } from './leadVisitDims';

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
  /** 1 for a stage the visit had already reached (stored, not counted); 0 otherwise */
  repeated: number;
}

export interface TrafficVisitStagesTable {
  visit_id: string;
  /** trafficRules.ts stageOf */
  stage: string;
  created_at: string;
}

/** Events refused past the ingest budget (or dropped by a full writer queue), by hour and brand. */
export interface TrafficRefusedTable {
  hour: string;
  brand: string;
  count: number | string;
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
  /** experiment exposures the batch's page views made (./experiments.ts) */
  exposures?: ExposureInput[];
}

const CHUNK = 200;
const chunks = <T>(rows: readonly T[], size = CHUNK): T[][] =>
  Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size));

export const eventId = (): string => `ev${randomBytes(12).toString('hex')}`;

/** A visit's dimensions, as its events take them. */
export type Dims = Pick<TrafficEventsTable, 'brand' | 'campaign' | 'source' | 'landing' | 'device'>;

/** An event as stored: its visit's dimensions (`dims`), or when the visit is unknown the brand and device of its request. */
export const eventRow = (e: TrafficEventInput, repeated: number, dims: Dims | undefined): TrafficEventsTable => ({
  id: eventId(),
  repeated,
  visit_id: e.visitId,
  metric: e.metric,
  path: e.path,
  value: e.value,
  state: e.state,
  created_at: e.createdAt,
  ...(dims ?? { brand: e.brand, campaign: '', source: '', landing: '', device: e.device }),
});
const ROLLUP_KEY = ['hour', 'brand', 'campaign', 'source', 'landing', 'device', 'state', 'metric'] as const;

/** Writes a batch; returns how many visits were new and how many events were stored. */
export async function writeTraffic(db: Store, batch: TrafficBatch): Promise<{ visits: number; events: number }> {
  if (!batch.visits.length && !batch.events.length) return { visits: 0, events: 0 };
  if (isPostgresStore(db)) {
    const days = new Set(batch.events.map((e) => e.createdAt.slice(0, 10)));
    // The next day's too: the first writer after midnight never waits on DDL.
    await ensureEventPartitions(db, [...days, ...[...days].map(nextDay)]);
  }
  const written = await db.transaction().execute(async (trx) => {
    const newVisits: VisitRow[] = [];
    // A visit keeps its first landing: of rows with one id the first queued is the one stored
    // (a Map set again keeps its last value, so later copies are skipped, not set).
    const byId = new Map<string, VisitRow>();
    for (const v of batch.visits) if (!byId.has(v.id)) byId.set(v.id, v);
    const unique = [...byId.values()];
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
    // leads stored before their visit take its dimensions now (./leadVisitDims.ts)
    await copyVisitDims(
      trx,
      'visit',
      newVisits.map((v) => v.id),
    );
    const dims = new Map<string, Dims>();
    // the exposures' visits too: the writer sends every queued exposure with its first batch of
    // events, so a visit's exposure may come without that visit's events (they follow in the next)
    const wanted = [...new Set([...batch.events, ...(batch.exposures ?? [])].map((e) => e.visitId).filter(Boolean))];
    for (const part of chunks(wanted, 500)) {
      const rows = await trx
        .selectFrom('traffic_visits')
        .select(['id', 'brand', 'campaign', 'source', 'landing_path', 'device'])
        .where('id', 'in', part)
        .execute();
      for (const r of rows) dims.set(r.id, { brand: r.brand, campaign: r.campaign, source: r.source, landing: r.landing_path, device: r.device });
    }
    const firsts = new Set<string>();
    const marks: { visit_id: string; stage: string }[] = [];
    const stageRows = [
      ...new Map(
        batch.events.filter((e) => stageOf(e)).map((e) => [`${e.visitId}\n${stageOf(e)}`, { visit_id: e.visitId, stage: stageOf(e), created_at: e.createdAt }]),
      ).values(),
    ];
    for (const part of chunks(stageRows)) {
      const marked = await trx
        .insertInto('traffic_visit_stages')
        .values(part)
        .onConflict((oc) => oc.columns(['visit_id', 'stage']).doNothing())
        .returning(['visit_id', 'stage'])
        .execute();
      for (const r of marked) firsts.add(`${r.visit_id}\n${r.stage}`);
      marks.push(...marked);
    }
    // The first event of a newly marked stage counts; any other of that stage is a repeat.
    const repeatedOf = (e: TrafficEventInput): number => {
      const stage = stageOf(e);
      return !stage || firsts.delete(`${e.visitId}\n${stage}`) ? 0 : 1;
    };
    const events = batch.events.map((e) => eventRow(e, repeatedOf(e), dims.get(e.visitId)));
    for (const part of chunks(events)) await trx.insertInto('traffic_events').values(part).execute();
    // experiments: the batch's exposures, and the stages exposed visits reached (./experiments.ts)
    await writeExperimentCounts(trx, batch.exposures ?? [], marks, dims);

    await addToRollups(trx, hourlyIncrements(newVisits, events));
    return { visits: newVisits, events: events.length };
  });
  // PostgreSQL: a lead of a new visit committed by another instance meanwhile was not seen above; copy once more now the visits are committed.
  if (isPostgresStore(db) && written.visits.length)
    await copyVisitDims(
      db,
      'visit',
      written.visits.map((v) => v.id),
    );
  return { visits: written.visits.length, events: written.events };
}

/** What visits (new ones only) and events (first of their stage only, and every stored lead) add to the hourly rollup, one row per key, in key order (pure). */
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
  for (const e of events) {
    // A repeated stage is stored but counted once per visit (its first event); a stored lead counts every time.
    if (!countedInRollups(e)) continue;
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
  }
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

/** Rows deleted per statement by pruning: each statement holds SQLite's write lock only briefly. */
export const PRUNE_BATCH = 5000;

/** Each pruned table's primary key: the columns a batch names its rows by. */
const PRUNED_KEYS = {
  traffic_events: ['id'],
  traffic_visits: ['id'],
  traffic_visit_stages: ['visit_id', 'stage'],
  experiment_exposures: ['visit_id', 'experiment'],
  experiment_daily: DAILY_KEY,
} as const;

/** Deletes, PRUNE_BATCH rows at a time, the rows `where` names (by the table's primary key); returns rows and statements. */
async function deleteInBatches(
  db: Store,
  table: keyof typeof PRUNED_KEYS,
  where: RawBuilder<boolean>,
  batchSize: number,
): Promise<{ rows: number; batches: number }> {
  const names = PRUNED_KEYS[table];
  const cols = sql.join(names.map((c) => sql.ref(c)));
  const key = names.length > 1 ? sql`(${cols})` : cols;
  let rows = 0;
  let batches = 0;
  for (;;) {
    const done = await sql`DELETE FROM ${sql.table(table)} WHERE ${key} IN (SELECT ${cols} FROM ${sql.table(table)} WHERE ${where} LIMIT ${batchSize})`.execute(
      db,
    );
    const n = Number(done.numAffectedRows ?? 0);
    rows += n;
    batches += 1;
    if (n < batchSize) return { rows, batches };
    // Let requests waiting on the database (and this process's event loop) go between batches.
    await new Promise((r) => setImmediate(r));
  }
}

/**
 * Deletes raw events older than `retentionDays` (PostgreSQL: drops the days' partitions wholly
 * past it; SQLite: in batches of `batchSize`), visits as old that no lead refers to (a lead keeps
 * its visit) and their stage marks, in batches, then refreshes SQLite's planner statistics. The
 * traffic rollups stay. Experiment exposures of the days wholly past it go too, with their daily
 * rollup, in batches on either store: an experiment's results join the two (visitors from the
 * rollup, sales through the exposures), so they cover the same days. Returns how many rows went,
 * how many partitions were dropped and how many delete statements ran.
 */
export async function pruneTraffic(
  db: Store,
  opts: { now: Date; retentionDays: number; batchSize?: number },
): Promise<{ events: number; visits: number; partitions: number; exposures: number; batches: number }> {
  const cutoff = new Date(opts.now.getTime() - opts.retentionDays * 86_400_000).toISOString();
  const size = opts.batchSize ?? PRUNE_BATCH;
  let batches = 0;
  let events = 0;
  let partitions = 0;
  if (isPostgresStore(db)) ({ events, partitions } = await dropEventPartitionsBefore(db, cutoff));
  else {
    const ev = await deleteInBatches(db, 'traffic_events', sql<boolean>`created_at < ${cutoff}`, size);
    events = ev.rows;
    batches += ev.batches;
  }
  const vi = await deleteInBatches(
    db,
    'traffic_visits',
    sql<boolean>`created_at < ${cutoff} AND NOT EXISTS (SELECT 1 FROM leads WHERE leads.visit_id = traffic_visits.id)`,
    size,
  );
  const st = await deleteInBatches(db, 'traffic_visit_stages', sql<boolean>`created_at < ${cutoff}`, size);
  const day = cutoff.slice(0, 10);
  const ex = await deleteInBatches(db, 'experiment_exposures', sql<boolean>`day < ${day}`, size);
  const daily = await deleteInBatches(db, 'experiment_daily', sql<boolean>`day < ${day}`, size);
  await refreshPlannerStatistics(db);
  return { events, visits: vi.rows, partitions, exposures: ex.rows, batches: batches + vi.batches + st.batches + ex.batches + daily.batches };
}

/**
 * SQLite: brings the planner's statistics up to date where tables grew or shrank (PRAGMA optimize,
 * every table checked, each ANALYZE bounded to ~1,000 rows an index). A store's tables are empty
 * when its migrations run their ANALYZE, and without statistics SQLite prefers a table's unique key
 * to a covering index: the overview's money query then read every sale's wide lead and visit rows
 * instead of its covering indexes (migrations 015, 022). PostgreSQL's autovacuum keeps its own.
 */
export async function refreshPlannerStatistics(db: Store): Promise<void> {
  if (isPostgresStore(db)) return;
  await sql`PRAGMA analysis_limit = 1000`.execute(db);
  await sql`PRAGMA optimize = 0x10002`.execute(db);
}

/** Adds refused events to their hour's count (count = count + n, keys sorted, as the rollups). */
export async function writeRefused(db: Store, rows: readonly { hour: string; brand: string; count: number }[]): Promise<void> {
  const sorted = [...rows].sort((a, b) => (a.hour + a.brand < b.hour + b.brand ? -1 : 1));
  for (const part of chunks(sorted)) {
    await db
      .insertInto('traffic_refused')
      .values(part)
      .onConflict((oc) => oc.columns(['hour', 'brand']).doUpdateSet((eb) => ({ count: eb(eb.ref('traffic_refused.count'), '+', eb.ref('excluded.count')) })))
      .execute();
  }
}

/** EVENTS_RETENTION_DAYS (default 90; a positive whole number of days). */
export function eventsRetentionDays(env: Record<string, string | undefined> = process.env): number {
  const n = Number(env.EVENTS_RETENTION_DAYS ?? 90);
  return Number.isInteger(n) && n > 0 ? n : 90;
}

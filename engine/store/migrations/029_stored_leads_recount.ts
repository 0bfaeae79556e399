/**
 * The rollups count every stored lead (../trafficRules.ts countedInRollups); they used to count a
 * visit's "stored" stage once, so the hours in which a visit stored a second lead were written one
 * short per lead: the overview could show more sold than stored. This recounts "stored" from the
 * raw events, which are kept with `repeated` = 1 for the leads then left out.
 *
 * - Recounted: every hour whose raw events are all still kept. Retention deletes the oldest events
 *   (../traffic.ts pruneTraffic): on PostgreSQL whole days' partitions, so every day still held is
 *   whole; on SQLite every event before an instant, so once it has deleted any (the rollups hold an
 *   hour older than every event left) the hour of the oldest event left may have lost some, and is
 *   left as it is, as are the hours before it (no raw events: nothing to recount from). Their
 *   rollups, kept for good, keep the old count.
 * - Each (hour, brand, campaign, source, landing page, device, state) is raised to its number of
 *   raw "stored" events, never lowered: rollups written by the new writer already equal it (a
 *   difference of 0, so running twice changes nothing); old ones are short of it.
 * - The difference is added as the writer adds its increments (../traffic.ts addToRollups: hourly,
 *   daily, daily pairs, keys in order, count = count + n), one day at a time: a statement reads a
 *   day's raw counts and rollup rows at once, so an instance writing meanwhile (its increments
 *   commute) is neither lost nor counted twice. On SQLite each day is a transaction that takes the
 *   write lock before it reads: two processes starting together (SQLite has no migration lock)
 *   recount a day one after the other, the second finding nothing to add. On PostgreSQL the
 *   migrations run in one transaction under Kysely's advisory lock.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db';
import { addToRollups, type TrafficHourlyTable } from '../traffic';
import { isPostgresStore, nextDay } from '../trafficPartitions';

/** One hourly rollup key's missing "stored" leads. */
interface Shortfall {
  hour: string;
  brand: string;
  campaign: string;
  source: string;
  landing: string;
  device: string;
  state: string;
  n: number | string;
  v: number | string;
}

/** What a day's "stored" rollup rows lack, from `from` (an hour, "2025-01-31T12", or a day) up to the next day. */
async function shortfalls(db: Kysely<Database>, from: string, to: string): Promise<TrafficHourlyTable[]> {
  const { rows } = await sql<Shortfall>`
    SELECT hour, brand, campaign, source, landing, device, state, SUM(n) AS n, SUM(v) AS v FROM (
      SELECT substr(created_at, 1, 13) AS hour, brand, campaign, source, landing, device, state, COUNT(*) AS n, SUM(value) AS v
      FROM traffic_events
      WHERE metric = 'stored' AND created_at >= ${from} AND created_at < ${to}
      GROUP BY substr(created_at, 1, 13), brand, campaign, source, landing, device, state
      UNION ALL
      SELECT hour, brand, campaign, source, landing, device, state, -SUM(count) AS n, -SUM(value) AS v
      FROM traffic_hourly
      WHERE metric = 'stored' AND hour >= ${from} AND hour < ${to}
      GROUP BY hour, brand, campaign, source, landing, device, state
    ) d
    GROUP BY hour, brand, campaign, source, landing, device, state
    HAVING SUM(n) > 0`.execute(db);
  const rollup = (r: Shortfall): TrafficHourlyTable => ({
    hour: r.hour,
    brand: r.brand,
    campaign: r.campaign,
    source: r.source,
    landing: r.landing,
    device: r.device,
    state: r.state,
    metric: 'stored',
    count: Number(r.n),
    value: Number(r.v),
  });
  // in the writer's key order (../traffic.ts hourlyIncrements), so rows are locked in the same order
  const keyed = rows.map((r) => [JSON.stringify([r.hour, r.brand, r.campaign, r.source, r.landing, r.device, r.state, 'stored']), rollup(r)] as const);
  return keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}

/** Adds one day's shortfall; returns how many leads it added. */
async function recountDay(trx: Transaction<Database>, from: string, to: string): Promise<number> {
  const rows = await shortfalls(trx, from, to);
  if (rows.length) await addToRollups(trx, rows);
  return rows.reduce((n, r) => n + r.count, 0);
}

/**
 * Whether retention may have deleted part of the oldest event's hour: PostgreSQL drops whole days;
 * SQLite deletes the events before an instant, and has deleted some once the rollups hold an hour
 * older than every event left.
 */
async function partlyPruned(db: Kysely<Database>, oldestEvent: string): Promise<boolean> {
  if (isPostgresStore(db)) return false;
  const older = await db.selectFrom('traffic_hourly').select('hour').where('hour', '<', oldestEvent.slice(0, 13)).limit(1).execute();
  return older.length > 0;
}

/** Recounts "stored" in the rollups from the raw events kept; returns the leads added and the days read. */
export async function recountStoredLeads(db: Kysely<Database>): Promise<{ leads: number; days: number }> {
  const range = await sql<{ first: string | null; last: string | null }>`SELECT MIN(created_at) AS first, MAX(created_at) AS last FROM traffic_events`.execute(
    db,
  );
  const { first, last } = range.rows[0] ?? { first: null, last: null };
  if (!first || !last) return { leads: 0, days: 0 };
  const start = (await partlyPruned(db, first))
    ? new Date(Date.parse(`${first.slice(0, 13)}:00:00Z`) + 3_600_000).toISOString().slice(0, 13)
    : first.slice(0, 10);
  let leads = 0;
  let days = 0;
  for (let day = first.slice(0, 10); day <= last.slice(0, 10); day = nextDay(day)) {
    const to = nextDay(day);
    const from = start > day ? start : day;
    if (from >= to) continue;
    days += 1;
    if (db.isTransaction) leads += await recountDay(db as Transaction<Database>, from, to);
    else
      leads += await db.transaction().execute(async (trx) => {
        // SQLite: the write lock first, so no other process adds to these rows between the read and the write
        await sql`UPDATE schema_migrations_lock SET is_locked = is_locked`.execute(trx);
        return recountDay(trx, from, to);
      });
  }
  return { leads, days };
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await recountStoredLeads(db as Kysely<Database>);
}

/** Nothing to undo: the counts added are the ones the rollups count now. */
export async function down(): Promise<void> {}

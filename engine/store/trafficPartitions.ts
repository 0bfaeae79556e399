/**
 * PostgreSQL's raw funnel events live in one partition per UTC day (migrations/012):
 * traffic_events_dYYYYMMDD holds created_at from "YYYY-MM-DD" up to the next day. A writer
 * creates the partitions its batch needs (and the next day's, so midnight never waits on DDL)
 * before its transaction; retention drops whole partitions, which costs the same for a day of
 * ten events or ten million and leaves no dead rows behind. SQLite has no partitions: ./traffic.ts
 * deletes its old rows in bounded batches instead.
 */
import { sql, type QueryExecutorProvider } from 'kysely';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const PARTITION = /^traffic_events_d(\d{4})(\d{2})(\d{2})$/;

/**
 * Whether the store is PostgreSQL. Not `instanceof PostgresAdapter`: the production build bundles
 * Kysely more than once, and the store's adapter may come from another copy than this module's.
 * Of our two dialects only PostgreSQL runs DDL in transactions.
 */
export const isPostgresStore = (db: QueryExecutorProvider): boolean => db.getExecutor().adapter.supportsTransactionalDdl === true;

export const partitionOfDay = (day: string): string => `traffic_events_d${day.replaceAll('-', '')}`;
export const nextDay = (day: string): string => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Days whose partition this process has seen, per database handle: a batch pays for DDL once a day. */
const known = new WeakMap<object, Set<string>>();
const knownOf = (db: object): Set<string> => {
  let s = known.get(db);
  if (!s) known.set(db, (s = new Set()));
  return s;
};

/** Creates the partitions of `days` ("YYYY-MM-DD") that do not exist yet. */
export async function ensureEventPartitions(db: QueryExecutorProvider, days: readonly string[]): Promise<void> {
  const seen = knownOf(db);
  for (const day of new Set(days)) {
    if (seen.has(day) || !DAY.test(day)) continue;
    const name = partitionOfDay(day);
    try {
      await sql`CREATE TABLE IF NOT EXISTS ${sql.id(name)} PARTITION OF traffic_events FOR VALUES FROM (${sql.lit(day)}) TO (${sql.lit(nextDay(day))})`.execute(
        db,
      );
    } catch (err) {
      // Another instance created it between our IF NOT EXISTS and our CREATE: it exists, which is all we need.
      const exists = await sql<{ r: string | null }>`SELECT to_regclass(${name})::text AS r`.execute(db);
      if (!exists.rows[0]?.r) throw err;
    }
    seen.add(day);
  }
}

/** The days that have a partition, oldest first. */
export async function eventPartitionDays(db: QueryExecutorProvider): Promise<string[]> {
  const rows = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
    WHERE p.relname = 'traffic_events'`.execute(db);
  return rows.rows
    .map((r) => PARTITION.exec(r.name))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => `${m[1]}-${m[2]}-${m[3]}`)
    .sort();
}

/** Drops the partitions of days wholly before `cutoff` (an ISO time); returns how many events went with them. */
export async function dropEventPartitionsBefore(db: QueryExecutorProvider, cutoff: string): Promise<{ partitions: number; events: number }> {
  let events = 0;
  let partitions = 0;
  for (const day of await eventPartitionDays(db)) {
    if (nextDay(day) > cutoff.slice(0, 10)) continue;
    const name = partitionOfDay(day);
    const n = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.id(name)}`.execute(db);
    await sql`DROP TABLE IF EXISTS ${sql.id(name)}`.execute(db);
    knownOf(db).delete(day);
    events += Number(n.rows[0]?.n ?? 0);
    partitions += 1;
  }
  return { partitions, events };
}

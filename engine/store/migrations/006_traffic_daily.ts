/**
 * Daily rollups by one dimension at a time (the overview's common questions: the whole funnel, or
 * broken down by campaign, source, landing page, device or state, for a brand or all of them).
 * The hourly cube (traffic_hourly) answers any combination of filters but has about a row per
 * visit when traffic is spread thin; this table has at most days × brands × keys × metrics rows.
 * Filled from traffic_hourly here (exactly: a day is the sum of its hours), then kept by the writer.
 */
import { sql, type Kysely } from 'kysely';
import { notNull } from './columns';

export const DAILY_DIMS = ['all', 'campaign', 'source', 'landing', 'device', 'state'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('traffic_daily')
    .$call(notNull('day brand dim key metric count:integer value:bigint'))
    .addPrimaryKeyConstraint('traffic_daily_key', ['dim', 'day', 'brand', 'key', 'metric'])
    .execute();
  for (const dim of DAILY_DIMS) {
    // PostgreSQL refuses a constant in GROUP BY: "all" groups without a key column.
    const key = dim === 'all' ? sql`''` : sql.ref(dim);
    const groupKey = dim === 'all' ? sql`` : sql`${sql.ref(dim)}, `;
    await sql`insert into traffic_daily (day, brand, dim, key, metric, count, value)
      select substr(hour, 1, 10), brand, ${sql.lit(dim)}, ${key}, metric, sum(count), sum(value)
      from traffic_hourly group by substr(hour, 1, 10), brand, ${groupKey}metric`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('traffic_daily').execute();
}

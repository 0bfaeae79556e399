/**
 * Daily rollups for a filtered overview: for one filter dimension's value (a campaign, a source, a
 * landing page or a device class), the counts by day across all brands, whole (dim "all") or broken
 * down by one other dimension (brand, campaign, source, landing, device or state). The hourly cube
 * answers the same questions but holds about a row per visit when traffic is spread thin, so a
 * filter there scans most of it; here a filtered overview over 90 days reads a few thousand rows.
 * Filled from traffic_hourly here (exactly: a day is the sum of its hours), then kept by the writer.
 */
import { sql, type Kysely } from 'kysely';
import { notNull } from './columns';

/** The dimensions the console filters by that this table is keyed by (the brand has traffic_daily). */
export const PAIR_FILTER_DIMS = ['campaign', 'source', 'landing', 'device'] as const;
/** What a filtered count is broken down by; "all" (key "") is the whole filtered funnel. */
export const PAIR_DIMS = ['all', 'brand', 'campaign', 'source', 'landing', 'device', 'state'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('traffic_daily_pairs')
    .$call(notNull('fdim fkey dim day key metric count:integer value:bigint'))
    .addPrimaryKeyConstraint('traffic_daily_pairs_key', ['fdim', 'fkey', 'dim', 'day', 'key', 'metric'])
    .execute();
  for (const fdim of PAIR_FILTER_DIMS) {
    for (const dim of PAIR_DIMS) {
      if (dim === fdim) continue;
      // PostgreSQL refuses a constant in GROUP BY: "all" groups without a key column.
      const key = dim === 'all' ? sql`''` : sql.ref(dim);
      const groupKey = dim === 'all' ? sql`` : sql`${sql.ref(dim)}, `;
      await sql`insert into traffic_daily_pairs (fdim, fkey, dim, day, key, metric, count, value)
        select ${sql.lit(fdim)}, ${sql.ref(fdim)}, ${sql.lit(dim)}, substr(hour, 1, 10), ${key}, metric, sum(count), sum(value)
        from traffic_hourly group by ${sql.ref(fdim)}, substr(hour, 1, 10), ${groupKey}metric`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('traffic_daily_pairs').execute();
}

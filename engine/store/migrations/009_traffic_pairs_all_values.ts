/**
 * An index for reading traffic_daily_pairs across every value of a filter dimension (the
 * unfiltered overview: the funnel summed over every device, a breakdown by campaign as every
 * campaign's own rows): its key leads with the filter's value, so without this PostgreSQL reads
 * every row of that dimension. Covering, so both stores answer from the index alone.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('traffic_daily_pairs_dim_day')
    .on('traffic_daily_pairs')
    .columns(['fdim', 'dim', 'day', 'fkey', 'key', 'metric', 'count', 'value'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('traffic_daily_pairs_dim_day').execute();
}

/**
 * An index for the questions only the hourly cube answers, most often a brand with one more filter
 * (its breakdowns by campaign, source or state): those read that brand's rows of the funnel metrics
 * instead of every brand's (the index on metric and hour alone has them all), from the index alone.
 */
import type { Kysely } from 'kysely';

/** The rest of the row, so both stores answer from the index alone without a lookup per row. */
const COVERED = ['campaign', 'source', 'landing', 'device', 'state', 'count', 'value'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('traffic_hourly_brand_metric_hour')
    .on('traffic_hourly')
    .columns(['brand', 'metric', 'hour', ...COVERED])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('traffic_hourly_brand_metric_hour').execute();
}

/**
 * Experiment exposures and their daily rollup expire with the traffic retention (../traffic.ts
 * pruneTraffic deletes the days wholly past it, in bounded batches): an index on their day, so
 * each batch finds its rows without reading the table.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('experiment_exposures_day').on('experiment_exposures').column('day').execute();
  await db.schema.createIndex('experiment_daily_day').on('experiment_daily').column('day').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('experiment_daily_day').execute();
  await db.schema.dropIndex('experiment_exposures_day').execute();
}

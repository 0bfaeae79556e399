/**
 * Experiment exposures: one row per visit and experiment (the primary key makes a second one a
 * no-op), with the variant the visit saw and the visit's day, campaign, source and device copied
 * in; and their daily rollup — visitors and the visits' submitted and stored stages by brand,
 * experiment, variant, day and the console's filters — kept by the same transactions (see
 * engine/store/experiments.ts), so an experiment's page reads a few rows a day, not every visit.
 */
import type { Kysely } from 'kysely';
import { notNull } from './columns';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('experiment_exposures')
    .$call(notNull('visit_id experiment brand variant day campaign source device created_at'))
    .addPrimaryKeyConstraint('experiment_exposures_key', ['visit_id', 'experiment'])
    .execute();
  await db.schema
    .createTable('experiment_daily')
    .$call(notNull('brand experiment variant day campaign source device visitors:integer submitted:integer stored:integer'))
    .addPrimaryKeyConstraint('experiment_daily_key', ['brand', 'experiment', 'day', 'variant', 'campaign', 'source', 'device'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('experiment_daily').execute();
  await db.schema.dropTable('experiment_exposures').execute();
}

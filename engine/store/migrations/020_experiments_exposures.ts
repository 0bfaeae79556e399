/**
 * Experiment exposures: one row per visit and experiment (the primary key makes a second one a
 * no-op), with the variant the visit saw and the visit's day, campaign, source and device copied
 * in, so an experiment's page reads one table by (brand, experiment, day) for the console's
 * filters; its conversions are the visit's stages and sales, joined by visit.
 */
import type { Kysely } from 'kysely';
import { notNull } from './columns';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('experiment_exposures')
    .$call(notNull('visit_id experiment brand variant day campaign source device created_at'))
    .addPrimaryKeyConstraint('experiment_exposures_key', ['visit_id', 'experiment'])
    .execute();
  await db.schema.createIndex('experiment_exposures_by_day').on('experiment_exposures').columns(['brand', 'experiment', 'day', 'variant']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('experiment_exposures').execute();
}

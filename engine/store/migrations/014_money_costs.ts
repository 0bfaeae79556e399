/**
 * What the ad platforms charged: one row a day, source (google, microsoft, meta, tiktok, generic)
 * and campaign, as their cost reports give it (engine/traffic/costCsv.ts). The key is that triple,
 * so importing a report again replaces its days instead of adding them twice. Read by day range
 * for the overview's cost metrics.
 */
import type { Kysely } from 'kysely';
import { notNull } from './columns';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ad_costs')
    .$call(notNull('day source campaign cost_cents:bigint currency clicks:bigint impressions:bigint imported_at imported_by'))
    .addPrimaryKeyConstraint('ad_costs_pk', ['day', 'source', 'campaign'])
    .execute();
  await db.schema.createIndex('ad_costs_campaign_day').on('ad_costs').columns(['campaign', 'day']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ad_costs').execute();
}

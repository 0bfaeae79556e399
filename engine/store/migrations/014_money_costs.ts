/**
 * What the ad platforms charged: one row a day, source (google, microsoft, meta, tiktok, generic)
 * and campaign, as their cost reports give it (engine/traffic/costCsv.ts). The key is that triple,
 * so importing a report again replaces its days instead of adding them twice. Read by day range
 * for the overview's cost metrics.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ad_costs')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('campaign', 'text', (c) => c.notNull())
    .addColumn('cost_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('clicks', 'bigint', (c) => c.notNull())
    .addColumn('impressions', 'bigint', (c) => c.notNull())
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .addColumn('imported_by', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ad_costs_pk', ['day', 'source', 'campaign'])
    .execute();
  await db.schema.createIndex('ad_costs_campaign_day').on('ad_costs').columns(['campaign', 'day']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ad_costs').execute();
}

/**
 * First-party traffic: one row per visit (a landing), the raw funnel events (pruned after
 * EVENTS_RETENTION_DAYS), and hourly rollups kept for good; the lead's visit id (nullable, so
 * leads from before, or from a browser that sent none, stay valid). Text columns and ISO 8601
 * times as in ../db.ts. No IP address anywhere here.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('traffic_visits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('landing_path', 'text', (c) => c.notNull())
    .addColumn('referrer_host', 'text', (c) => c.notNull())
    .addColumn('source1', 'text', (c) => c.notNull())
    .addColumn('source2', 'text', (c) => c.notNull())
    .addColumn('utm', 'text', (c) => c.notNull())
    .addColumn('gclid', 'text', (c) => c.notNull())
    .addColumn('ttclid', 'text', (c) => c.notNull())
    .addColumn('fbclid', 'text', (c) => c.notNull())
    .addColumn('msclkid', 'text', (c) => c.notNull())
    .addColumn('campaign', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('opted_out', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('traffic_visits_created_at').on('traffic_visits').column('created_at').execute();

  await db.schema
    .createTable('traffic_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('visit_id', 'text', (c) => c.notNull())
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('value', 'integer', (c) => c.notNull())
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('campaign', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('landing', 'text', (c) => c.notNull())
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('traffic_events_created_at').on('traffic_events').column('created_at').execute();
  await db.schema.createIndex('traffic_events_visit').on('traffic_events').column('visit_id').execute();

  await db.schema
    .createTable('traffic_hourly')
    .addColumn('hour', 'text', (c) => c.notNull())
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('campaign', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('landing', 'text', (c) => c.notNull())
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('traffic_hourly_key', ['hour', 'brand', 'campaign', 'source', 'landing', 'device', 'state', 'metric'])
    .execute();
  await db.schema.createIndex('traffic_hourly_metric_hour').on('traffic_hourly').columns(['metric', 'hour']).execute();

  await db.schema.alterTable('leads').addColumn('visit_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('leads').dropColumn('visit_id').execute();
  await db.schema.dropTable('traffic_hourly').execute();
  await db.schema.dropTable('traffic_events').execute();
  await db.schema.dropTable('traffic_visits').execute();
}

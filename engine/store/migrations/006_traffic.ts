/**
 * First-party traffic: one row per visit (a landing), the raw funnel events (pruned after
 * EVENTS_RETENTION_DAYS), and hourly rollups kept for good; the lead's visit id (nullable, so
 * leads from before, or from a browser that sent none, stay valid). Text columns and ISO 8601
 * times as in ../db.ts. No IP address anywhere here.
 */
import type { Kysely } from 'kysely';
import { keyedTable, notNull } from './columns';

export async function up(db: Kysely<unknown>): Promise<void> {
  await keyedTable(
    db,
    'traffic_visits',
    'id',
    'brand host landing_path referrer_host source1 source2 utm gclid ttclid fbclid msclkid campaign source device opted_out:integer created_at',
  ).execute();
  await db.schema.createIndex('traffic_visits_created_at').on('traffic_visits').column('created_at').execute();

  await keyedTable(db, 'traffic_events', 'id', 'visit_id metric path value:integer brand campaign source landing device state created_at').execute();
  await db.schema.createIndex('traffic_events_created_at').on('traffic_events').column('created_at').execute();
  await db.schema.createIndex('traffic_events_visit').on('traffic_events').column('visit_id').execute();

  await db.schema
    .createTable('traffic_hourly')
    .$call(notNull('hour brand campaign source landing device state metric count:integer value:bigint'))
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

/**
 * A deliver buyer's caps count the leads queued to it (engine/store/sales.ts reserveDelivery):
 * each outbox row to a buyer carries the buyer's calendar day and month when it was queued, in
 * its schedule's time zone, as a sale carries them (lead_sales.buyer_day, buyer_month). The row is
 * unique per lead and destination, so a lead counts once. Rows queued before this have none and
 * count for no day. An index on (destination, buyer_month) keeps the count to one buyer's month.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lead_deliveries').addColumn('buyer_day', 'text').execute();
  await db.schema.alterTable('lead_deliveries').addColumn('buyer_month', 'text').execute();
  await db.schema.createIndex('lead_deliveries_buyer_month').on('lead_deliveries').columns(['destination', 'buyer_month']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('lead_deliveries_buyer_month').execute();
  await db.schema.alterTable('lead_deliveries').dropColumn('buyer_month').execute();
  await db.schema.alterTable('lead_deliveries').dropColumn('buyer_day').execute();
}

/**
 * The sale of each lead: one row per lead (its status, the buyer, the price, the redirect, and
 * the lease that keeps the sale to one worker), its timeline (every ping, bid, post and answer
 * with latency and outcome), the keyed hashes of contacts (duplicates) and the contacts that
 * opted out (suppressions). Prices are whole cents: both databases return integers alike.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('lead_sales')
    .addColumn('lead_id', 'text', (c) => c.primaryKey().references('leads.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('duplicate', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('buyer_id', 'text')
    .addColumn('price_cents', 'integer')
    .addColumn('redirect_url', 'text')
    .addColumn('buyer_lead_id', 'text')
    .addColumn('reason', 'text')
    .addColumn('buyer_day', 'text')
    .addColumn('buyer_month', 'text')
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_until', 'text')
    .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .execute();
  await db.schema.createIndex('lead_sales_due').on('lead_sales').columns(['status', 'claimed_until']).execute();
  await db.schema.createIndex('lead_sales_buyer_day').on('lead_sales').columns(['buyer_id', 'buyer_day']).execute();
  await db.schema.createIndex('lead_sales_buyer_month').on('lead_sales').columns(['buyer_id', 'buyer_month']).execute();

  await db.schema
    .createTable('sale_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('lead_id', 'text', (c) => c.notNull().references('leads.id'))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('buyer_id', 'text', (c) => c.notNull())
    .addColumn('step', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('price_cents', 'integer')
    .addColumn('latency_ms', 'integer')
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('sale_events_lead').on('sale_events').columns(['lead_id', 'at']).execute();

  await db.schema
    .createTable('contact_hashes')
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('lead_id', 'text', (c) => c.notNull().references('leads.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('contact_hashes_pk', ['hash', 'lead_id'])
    .execute();
  await db.schema.createIndex('contact_hashes_hash_time').on('contact_hashes').columns(['hash', 'created_at']).execute();

  await db.schema
    .createTable('suppressions')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('suppressions').execute();
  await db.schema.dropTable('contact_hashes').execute();
  await db.schema.dropTable('sale_events').execute();
  await db.schema.dropTable('lead_sales').execute();
}

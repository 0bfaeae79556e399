/**
 * Returns: a buyer gives back a lead it bought, within its return window, with a reason code.
 * One row per lead (the primary key makes a repeated return a no-op); the sale row itself turns
 * 'returned' and its timeline gets the return, so the sale's history stays whole.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('lead_returns')
    .addColumn('lead_id', 'text', (c) => c.primaryKey().references('leads.id'))
    .addColumn('buyer_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('lead_returns_buyer_time').on('lead_returns').columns(['buyer_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('lead_returns').execute();
}

/**
 * Leads and their delivery outbox. A lead is stored, with one outbox row per destination, in
 * one transaction before anything else happens; a worker then delivers the outbox rows.
 * Text columns and ISO 8601 times as in ../db.ts; sensitive fields sealed (engine/keys/sealing.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('leads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('loan_kind', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('zip', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('vehicle', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('income_source', 'text', (c) => c.notNull())
    .addColumn('pay_frequency', 'text', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('consent_version', 'text', (c) => c.notNull())
    .addColumn('consent_text', 'text', (c) => c.notNull())
    .addColumn('consent_hash', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source2', 'text', (c) => c.notNull())
    .addColumn('click_id', 'text', (c) => c.notNull())
    .addColumn('session_uuid', 'text', (c) => c.notNull())
    .addColumn('privacy_opt_out', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addUniqueConstraint('leads_brand_idempotency_key', ['brand', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('leads_created_at').on('leads').column('created_at').execute();

  await db.schema
    .createTable('lead_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('lead_id', 'text', (c) => c.notNull().references('leads.id'))
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('lead_deliveries_lead_destination', ['lead_id', 'destination'])
    .execute();
  await db.schema.createIndex('lead_deliveries_due').on('lead_deliveries').columns(['status', 'next_attempt_at']).execute();

  await db.schema
    .createTable('form_traces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('trace', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('form_traces').execute();
  await db.schema.dropTable('lead_deliveries').execute();
  await db.schema.dropTable('leads').execute();
}

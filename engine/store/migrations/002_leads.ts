/**
 * Leads and their delivery outbox. A lead is stored, with one outbox row per destination, in
 * one transaction before anything else happens; a worker then delivers the outbox rows.
 * Text columns and ISO 8601 times as in ../db.ts; sensitive fields sealed (engine/keys/sealing.ts).
 */
import type { Kysely } from 'kysely';
import { keyedTable } from './columns';

export async function up(db: Kysely<unknown>): Promise<void> {
  await keyedTable(
    db,
    'leads',
    'id',
    'brand idempotency_key created_at loan_kind amount:integer zip state city purpose vehicle first_name last_name email phone income_source pay_frequency sealed consent_version consent_text consent_hash source source2 click_id session_uuid',
  )
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

  await keyedTable(db, 'form_traces', 'id', 'brand client_id type trace ip created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('form_traces').execute();
  await db.schema.dropTable('lead_deliveries').execute();
  await db.schema.dropTable('leads').execute();
}

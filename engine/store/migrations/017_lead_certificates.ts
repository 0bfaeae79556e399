/**
 * Consent certificates: one per lead, its signed JSON sealed at rest like a lead's other personal
 * data (it holds the address and browser), kept until `expires_at` (5 years by default; a claim by
 * a buyer extends it). The lead names its certificate, so the ping and the post can carry the id
 * without a join; the buyers holding a certificate are one row each.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('lead_certificates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('lead_id', 'text', (c) => c.notNull().unique())
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('lead_certificates_expiry').on('lead_certificates').column('expires_at').execute();
  await db.schema
    .createTable('lead_certificate_claims')
    .addColumn('certificate_id', 'text', (c) => c.notNull())
    .addColumn('buyer_id', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('lead_certificate_claims_pk', ['certificate_id', 'buyer_id'])
    .execute();
  await db.schema
    .alterTable('leads')
    .addColumn('certificate_id', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('leads').dropColumn('certificate_id').execute();
  await db.schema.dropTable('lead_certificate_claims').execute();
  await db.schema.dropTable('lead_certificates').execute();
}
